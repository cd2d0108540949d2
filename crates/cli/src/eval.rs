//! `attest eval`: scores against annotated corpora.

use std::io::{self, Write};
use std::path::Path;

use anyhow::Context;
use attest_corpus::Corpus;
use attest_corpus::score::evaluate_segmentation;
use attest_doc::Limits;

use crate::flags::{EvalArgs, EvalCommand};
use crate::messages;

pub(crate) fn run(command: &EvalCommand) -> anyhow::Result<()> {
    match command {
        EvalCommand::Tokens(args) => tokens(args),
    }
}

fn tokens(args: &EvalArgs) -> anyhow::Result<()> {
    let corpus =
        Corpus::open(&args.dir).with_context(|| format!("opening {}", args.dir.display()))?;
    let report = evaluate_segmentation(&corpus, 15, |text| {
        attest_text::segment(text, &Limits::DEFAULT)
    })
    .with_context(|| format!("reading {}", args.dir.display()))?;
    // Writes go through `writeln!` so that a closed pipe is an error that ends
    // attest quietly, where `println!` would panic.
    let mut out = io::stdout().lock();
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
    } else {
        writeln!(
            out,
            "Segmentation of {} against silver CoreNLP",
            args.dir.display()
        )?;
        write!(out, "{report}")?;
    }
    if let Some(floors) = &args.floors {
        check_floors(
            &mut out,
            floors,
            "tokens",
            &[
                ("token_f1", report.tokens.f1()),
                ("sentence_f1", report.sentences.f1()),
                (
                    "sentence_before_quotes_f1",
                    report.sentences_before_quotes.f1(),
                ),
            ],
        )?;
    }
    Ok(())
}

/// How far below its recorded figure a score may fall before CI fails: the
/// headroom for harmless changes, and no more.
const FLOOR_TOLERANCE: f64 = 0.01;

/// Compares headline scores with the figures recorded under `section` of a floors
/// file, reporting every score that fell too far.
fn check_floors(
    out: &mut dyn Write,
    path: &Path,
    section: &str,
    scores: &[(&str, f64)],
) -> anyhow::Result<()> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let floors: serde_json::Value =
        serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))?;
    for (name, score) in scores {
        let Some(floor) = floors[section][name].as_f64() else {
            anyhow::bail!("{}: no figure for {section}.{name}", path.display());
        };
        if *score < floor - FLOOR_TOLERANCE {
            messages::input_failed(format_args!(
                "{section}.{name} is {score:.4}, more than {FLOOR_TOLERANCE} below its recorded {floor:.4} ({})",
                path.display()
            ));
        } else {
            writeln!(
                out,
                "floor {section}.{name}: {score:.4} (recorded {floor:.4}) ok"
            )?;
        }
    }
    Ok(())
}
