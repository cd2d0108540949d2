//! The `attest` command. It only wires the crates together: readers feed the
//! pipeline, the pipeline feeds writers, and failures of single inputs are
//! reported and remembered for the exit status while the batch goes on.

mod analysed;
mod analyze;
mod dataset;
mod eval;
mod export;
mod flags;
mod ids;
mod ingest;
mod ledger_flags;
mod messages;
mod model;
mod out_names;
#[cfg(feature = "parquet")]
mod parquet_sink;
mod query;
mod safe_write;
mod sample;
mod serve;
mod statements;
mod table;
mod train;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = match flags::Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            let usage_error = err.use_stderr();
            // `--help` and `--version` print to stdout and succeed; anything else
            // clap refuses is a usage error.
            let _ = err.print();
            return if usage_error {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    let outcome = match cli.command {
        flags::Command::Analyze(args) => analyze::run(&args),
        flags::Command::Eval(command) => eval::run(&command),
        flags::Command::Train(args) => train::run(&args),
        flags::Command::Serve(args) => serve::run(&args),
        flags::Command::Ingest(args) => ingest::run(&args),
        flags::Command::Sources(args) => query::sources(&args),
        flags::Command::Said(args) => query::said(&args),
        flags::Command::Search(args) => query::search(&args),
        flags::Command::Stats(args) => query::stats(&args),
        flags::Command::Claims(args) => query::claims(&args),
        flags::Command::Trace(args) => query::trace(&args),
        flags::Command::Export(args) => export::run(&args),
        flags::Command::Statements(args) => statements::run(&args),
    };
    match outcome {
        Ok(()) if messages::any_failed() => ExitCode::from(1),
        Ok(()) => ExitCode::SUCCESS,
        Err(err) if messages::is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            messages::note(format_args!("error: {err:#}"));
            ExitCode::from(2)
        }
    }
}
