//! `attest serve` started for a test on a free loopback port, as the server
//! tests (`serve.rs`) and the PostgreSQL tests (`postgres.rs`) run it.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

/// Starts `attest serve --addr 127.0.0.1:0` with `args`, and returns the
/// process and the port it says it listens on.
pub fn serve(args: &[&str]) -> (Child, u16) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_attest"))
        .args(["serve", "--addr", "127.0.0.1:0"])
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("attest serve starts");
    let stderr = child.stderr.take().expect("stderr is piped");
    let mut stderr = BufReader::new(stderr);
    let mut line = String::new();
    stderr
        .read_line(&mut line)
        .expect("attest serve says where it listens");
    // Keep reading, so the server never writes into a closed pipe.
    std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
    let port = line
        .split("http://127.0.0.1:")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .and_then(|port| port.parse().ok())
        .unwrap_or_else(|| panic!("no port in {line:?}"));
    (child, port)
}
