//! Running the `attest` binary as a user does, for the integration tests that
//! share it.

use std::process::{Command, Output};

/// Runs `attest` with these arguments, without colour, and waits for it.
pub fn attest(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_attest"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("the attest binary runs")
}

/// Standard output, which must be UTF-8.
pub fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("stdout is UTF-8")
}

/// Standard error, lossily decoded.
pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}
