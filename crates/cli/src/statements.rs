//! `attest statements`: each analysed document's statements with what their
//! claims are compared by, as JSON Lines, so that a job past one ledger (the
//! Spark grouping in `examples/spark`) groups them as the ledger does without
//! reading text again: stemming, figures and names stay in attest-claims.
//!
//! Input is `attest analyze --format jsonl`'s documents (read as `ingest
//! --analysed` reads them). Each document's statements come in the order the
//! ledger groups them ([`attest_claims::in_grouping_order`]), one line each:
//!
//! ```json
//! {"article": "gen-000001", "position": 0, "said": "attribution", "idx": 3,
//!  "byte_start": 0, "byte_end": 91, "cp_start": 0, "cp_end": 91,
//!  "may_start": true, "source": "Ilse Oyelaran", "source_key": "person:ilse oyelaran",
//!  "stance": "asserts", "hedged": false, "stems": [40211, …],
//!  "figures": [365000], "names": ["linridge"], "years": [], "bands": [8021…, …]}
//! ```
//!
//! `position` counts the article's statements in that order; `stems` are the
//! 32-bit stem hashes, sorted; `figures` and `years` are `Figure::to_bits`,
//! sorted; `bands` are the [`attest_claims::BANDS`] LSH band keys. A line
//! that is no document is reported and skipped, and the exit status says so.

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;

use anyhow::Context;
use attest_claims::{Figure, in_grouping_order};
use attest_doc::{Doc, OffsetIndex};
use clap::Args;
use serde::Serialize;

use crate::analysed;
use crate::flags::LimitArgs;
use crate::messages;

#[derive(Debug, Args)]
pub(crate) struct StatementsArgs {
    /// Files of `attest analyze --format jsonl` documents, or `-` for
    /// standard input.
    #[arg(value_name = "ANALYSED", required = true)]
    pub(crate) inputs: Vec<PathBuf>,

    #[command(flatten)]
    pub(crate) limits: LimitArgs,
}

/// One statement as written.
#[derive(Serialize)]
struct StatementLine<'a> {
    article: &'a str,
    position: usize,
    said: &'static str,
    idx: usize,
    byte_start: usize,
    byte_end: usize,
    cp_start: usize,
    cp_end: usize,
    may_start: bool,
    source: Option<&'a str>,
    source_key: Option<String>,
    stance: Option<&'static str>,
    hedged: bool,
    stems: &'a [u32],
    figures: Vec<i64>,
    names: &'a [String],
    years: Vec<i64>,
    bands: Vec<u64>,
}

pub(crate) fn run(args: &StatementsArgs) -> anyhow::Result<()> {
    let limits = args.limits.limits();
    let mut out = BufWriter::new(io::stdout().lock());
    for path in &args.inputs {
        for line in analysed::read_file(path, limits)? {
            match line.doc {
                Ok(doc) => write_statements(&doc, &mut out)?,
                Err(err) => messages::input_failed(format_args!("{err:#}")),
            }
        }
    }
    out.flush().context("writing statements")
}

/// Writes the statements of one document, as the ledger stores them: those
/// with an extent, in grouping order.
fn write_statements(doc: &Doc, out: &mut dyn Write) -> anyhow::Result<()> {
    let offsets = OffsetIndex::new(doc.text());
    let bits = |figures: &[Figure]| figures.iter().map(|f| f.to_bits()).collect();
    let statements = in_grouping_order(doc)
        .into_iter()
        .filter_map(|statement| Some((statement.placement(doc, &offsets)?, statement)));
    for (position, (placed, statement)) in statements.enumerate() {
        let (said, idx) = statement.said.layer();
        let print = &statement.fingerprint;
        let line = StatementLine {
            article: doc.article().id.as_str(),
            position,
            said,
            idx,
            byte_start: placed.extent.byte_start(),
            byte_end: placed.extent.byte_end(),
            cp_start: placed.chars.0,
            cp_end: placed.chars.1,
            may_start: statement.may_start_a_claim(),
            source: placed.source.map(|s| s.name.as_str()),
            source_key: placed.source_key,
            stance: statement.stance.map(|stance| stance.name()),
            hedged: statement.hedged,
            stems: &print.stems,
            figures: bits(&print.figures),
            names: &print.names,
            years: bits(&print.years),
            bands: print.band_keys(),
        };
        // Serialized apart from the write, so that a closed pipe is an
        // io::Error, which ends the command quietly.
        let mut bytes = serde_json::to_vec(&line).context("serializing a statement")?;
        bytes.push(b'\n');
        out.write_all(&bytes).context("writing statements")?;
    }
    Ok(())
}
