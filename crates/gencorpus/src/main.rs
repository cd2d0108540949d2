//! `attest-gencorpus N [SEED]`: writes N synthetic articles as JSON Lines to
//! standard output (see the library docs for what they hold).

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let parsed = match args.as_slice() {
        [n] => n.parse().ok().map(|n| (n, 1)),
        [n, seed] => n.parse().ok().zip(seed.parse().ok()),
        _ => None,
    };
    let Some((n, seed)) = parsed else {
        eprintln!(
            "usage: attest-gencorpus N [SEED]  (N articles as JSON Lines on standard output)"
        );
        return ExitCode::from(2);
    };
    let mut out = BufWriter::new(io::stdout().lock());
    match attest_gencorpus::generate(n, seed, &mut out).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) if err.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("attest-gencorpus: {err}");
            ExitCode::from(2)
        }
    }
}
