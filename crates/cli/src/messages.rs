//! Messages on standard error, and the memory of whether any input failed.
//!
//! A failed input is reported at once and the run goes on; the exit status at the
//! end says that something failed, as ripgrep does.

use std::sync::atomic::{AtomicBool, Ordering};

static FAILED: AtomicBool = AtomicBool::new(false);

/// Reports one input that failed and remembers it for the exit status.
pub(crate) fn input_failed(message: impl std::fmt::Display) {
    FAILED.store(true, Ordering::Relaxed);
    eprintln!("attest: {message}");
}

/// Reports something that did not fail its input.
pub(crate) fn warning(message: impl std::fmt::Display) {
    eprintln!("attest: warning: {message}");
}

/// Whether any input failed.
pub(crate) fn any_failed() -> bool {
    FAILED.load(Ordering::Relaxed)
}

/// Whether an error is a closed output pipe (`attest analyze | head`), which ends
/// attest quietly.
pub(crate) fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
