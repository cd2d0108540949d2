//! Messages on standard error, and the memory of whether any input failed.
//!
//! A failed input is reported at once and the run goes on; the exit status at the
//! end says that something failed, as ripgrep does. Messages quote ids, paths
//! and text from the inputs, so each passes through
//! [`attest_write::terminal_safe`] on its way out.

use std::sync::atomic::{AtomicBool, Ordering};

use attest_write::terminal_safe;

static FAILED: AtomicBool = AtomicBool::new(false);

/// Reports one input that failed and remembers it for the exit status.
pub(crate) fn input_failed(message: impl std::fmt::Display) {
    FAILED.store(true, Ordering::Relaxed);
    note(message);
}

/// Reports something that did not fail its input.
pub(crate) fn warning(message: impl std::fmt::Display) {
    note(format_args!("warning: {message}"));
}

/// Writes one message to standard error, made safe for a terminal.
pub(crate) fn note(message: impl std::fmt::Display) {
    eprintln!("attest: {}", terminal_safe(&message.to_string(), true));
}

/// Whether any input failed.
pub(crate) fn any_failed() -> bool {
    FAILED.load(Ordering::Relaxed)
}

/// Whether an error is a closed output pipe (`attest analyze | head`), which ends
/// attest quietly.
pub(crate) fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        let io = cause.downcast_ref::<std::io::Error>().or_else(|| {
            cause
                .downcast_ref::<attest_ledger::LedgerError>()
                .and_then(attest_ledger::LedgerError::io_error)
        });
        io.is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
