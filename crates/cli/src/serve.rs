//! `attest serve`: the HTTP API and the web page.

use std::io::{self, Write};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use attest_doc::Limits;
use attest_pipeline::Pipeline;

use crate::flags::ServeArgs;

pub(crate) fn run(args: &ServeArgs) -> anyhow::Result<()> {
    anyhow::ensure!(
        args.max_held_answer_bytes >= args.max_output_bytes,
        "--max-held-answer-bytes ({}) must be at least --max-output-bytes ({}), or the largest answers are never sent",
        args.max_held_answer_bytes,
        args.max_output_bytes
    );
    let pipeline = Pipeline::standard(&Limits::DEFAULT).context("building the pipeline")?;
    let limits = attest_server::Limits {
        body_bytes: args.max_body_bytes,
        timeout: Duration::from_secs(args.timeout_secs.max(1)),
        analyses: args.max_analyses.max(1),
        output_bytes: args.max_output_bytes,
        held_answer_bytes: args.max_held_answer_bytes,
        ledger_queries: args.max_ledger_queries.max(1),
        query_timeout: Duration::from_millis(args.query_timeout_ms.max(1)),
        query_bytes: args.max_query_bytes,
        header_timeout: Duration::from_secs(args.header_timeout_secs.max(1)),
        connections: args.max_connections.max(1),
        client_connections: args.max_connections_per_client.max(1),
        grace: Duration::from_secs(args.grace_secs),
    };
    let mut state = attest_server::AppState::new(Arc::new(pipeline), limits)
        .with_hosts(args.addr.ip(), args.allow_host.clone());
    if let Some(db) = &args.db {
        // Refuse a file that is no ledger now, not at the first request.
        match attest_ledger::Ledger::open_read_only(db, &attest_ledger::OpenOptions::DEFAULT) {
            Ok(_) => {}
            // A ledger of an older attest is upgraded by its first write, and
            // corrections need this version's table.
            Err(attest_ledger::LedgerError::OlderSchema { .. }) if args.allow_corrections => {}
            Err(error) => return Err(error.into()),
        }
        if args.allow_corrections {
            attest_ledger::Ledger::open(db.clone())?.close()?;
        }
        state = state
            .with_ledger(db.clone())
            .with_corrections(args.allow_corrections);
    }
    // A closed standard error must not stop a server: these lines are for
    // whoever watches, and failing to write them is no reason to fail.
    attest_server::serve(args.addr, state, |bound| {
        // Tests and scripts read this line to learn the port when asked for port 0.
        let _ = writeln!(
            io::stderr(),
            "attest: serving on http://{bound}/ (Ctrl-C to stop)"
        );
    })?;
    let _ = writeln!(io::stderr(), "attest: stopped");
    Ok(())
}
