//! `attest eval`: scores against annotated corpora.

use anyhow::Context;
use attest_corpus::Corpus;
use std::path::Path;

use attest_corpus::score::{SegmentationReport, SegmentationScorer};
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
    let mut scorer = SegmentationScorer::new();
    for article in corpus.articles() {
        let article = match article {
            Ok(article) => article,
            Err(err) => {
                messages::input_failed(err);
                continue;
            }
        };
        let Some(silver) = &article.silver else {
            messages::warning(format_args!("{}: no silver tokens, skipped", article.name));
            continue;
        };
        let segmentation = attest_text::segment(&article.text, &Limits::DEFAULT);
        scorer.add(&article.text, &segmentation, silver);
    }
    let report = scorer.report(15);
    let headline = [
        ("token_f1", report.tokens.f1()),
        ("sentence_f1", report.sentences.f1()),
        (
            "sentence_before_quotes_f1",
            report.sentences_before_quotes.f1(),
        ),
    ];
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print_segmentation(args, &report);
    }
    if let Some(floors) = &args.floors {
        check_floors(floors, "tokens", &headline)?;
    }
    Ok(())
}

/// How far below its recorded figure a score may fall before CI fails: the
/// headroom for harmless changes, and no more.
const FLOOR_TOLERANCE: f64 = 0.01;

/// Compares headline scores with the figures recorded under `section` of a floors
/// file, reporting every score that fell too far.
fn check_floors(path: &Path, section: &str, scores: &[(&str, f64)]) -> anyhow::Result<()> {
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
            println!("floor {section}.{name}: {score:.4} (recorded {floor:.4}) ok");
        }
    }
    Ok(())
}

fn print_segmentation(args: &EvalArgs, report: &SegmentationReport) {
    println!(
        "Segmentation against silver CoreNLP: {} articles of {}",
        report.articles,
        args.dir.display()
    );
    println!();
    println!(
        "{:<22} {:>9} {:>9} {:>9} {:>9} {:>9}",
        "boundaries", "precision", "recall", "F1", "ours", "silver"
    );
    for (name, prf) in [
        ("tokens", &report.tokens),
        ("sentence ends", &report.sentences),
        ("  before quote marks", &report.sentences_before_quotes),
    ] {
        println!(
            "{:<22} {:>9.4} {:>9.4} {:>9.4} {:>9} {:>9}",
            name,
            prf.precision(),
            prf.recall(),
            prf.f1(),
            prf.predicted(),
            prf.gold()
        );
    }
    for (title, errors) in [
        ("Most frequent token differences", &report.top_token_errors),
        (
            "Most frequent sentence-end differences",
            &report.top_sentence_errors,
        ),
    ] {
        println!();
        println!("{title}:");
        for (error, count) in errors {
            println!("{count:>6}  {error}");
        }
    }
}
