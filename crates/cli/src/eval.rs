//! `attest eval`: scores against annotated corpora.

use std::io::{self, Write};
use std::path::Path;

use anyhow::Context;
use attest_corpus::{Corpus, CorpusArticle};
use std::time::Instant;

use attest_corpus::score::{evaluate_attributions, evaluate_segmentation};
use attest_doc::{Doc, LayerError, Limits, Stage};
use attest_pipeline::Pipeline;
use attest_write::AnalysisModel;

use crate::flags::{EvalArgs, EvalCommand, SourcesEvalArgs, TestSetArgs};
use crate::messages;

pub(crate) fn run(command: &EvalCommand) -> anyhow::Result<()> {
    match command {
        EvalCommand::Tokens(args) => tokens(args),
        EvalCommand::Attributions(args) => attributions(args),
        EvalCommand::Entities(args) => crate::entities::evaluate(args),
        EvalCommand::Quantities(args) => test_set(args, TestSet::Quantities),
        EvalCommand::Times(args) => test_set(args, TestSet::Times),
        EvalCommand::Sources(args) => sources(args),
    }
}

#[derive(Clone, Copy)]
enum TestSet {
    Quantities,
    Times,
}

fn test_set(args: &TestSetArgs, set: TestSet) -> anyhow::Result<()> {
    let tagger = attest_tag::Tagger::bundled().context("loading the part-of-speech model")?;
    // The stages the quantity and time taggers require; a failure leaves the
    // case without its layer, and the case fails in the report.
    let segment = |doc: &mut Doc| {
        let text = doc.text().to_owned();
        let _ = doc.set_segmentation(attest_text::segment(&text, &Limits::DEFAULT));
        let _ = tagger.run(doc);
    };
    let report = match (set, &args.file) {
        (TestSet::Quantities, Some(file)) => attest_numbers::eval_quantities(file, &segment),
        (TestSet::Quantities, None) => {
            attest_numbers::eval_quantities_str(attest_numbers::eval::QUANTITIES_TSV, &segment)
        }
        (TestSet::Times, Some(file)) => attest_numbers::eval_times(file, &segment),
        (TestSet::Times, None) => {
            attest_numbers::eval_times_str(attest_numbers::eval::TIMES_TSV, &segment)
        }
    }?;
    let mut out = io::stdout().lock();
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
    } else {
        write!(out, "{report}")?;
    }
    Ok(())
}

/// Segments a document holding only its article, tags it and finds its
/// entities with the bundled models: the layers the source stages read
/// besides the attributions.
fn source_layers() -> anyhow::Result<impl Fn(&mut Doc) -> Result<(), LayerError>> {
    let tagger = attest_tag::Tagger::bundled().context("loading the part-of-speech model")?;
    let entities = attest_entities::EntityTagger::bundled().context("loading the entity model")?;
    Ok(move |doc: &mut Doc| {
        doc.set_segmentation(attest_text::segment(doc.text(), &Limits::DEFAULT))?;
        tagger.run(doc)?;
        entities.run(doc)
    })
}

fn sources(args: &SourcesEvalArgs) -> anyhow::Result<()> {
    let prepare = source_layers()?;
    let mut sets = Vec::with_capacity(args.gold.len());
    for dir in &args.gold {
        let report = attest_sources::eval_gold(dir, &prepare)
            .with_context(|| format!("scoring the gold set in {}", dir.display()))?;
        sets.push((dir, report));
    }
    let overall = attest_sources::SourcesReport::overall(
        &sets.iter().map(|(_, r)| r.clone()).collect::<Vec<_>>(),
    );
    let distribution = match &args.polnear {
        Some(dir) => Some(gold_source_distribution(dir)?),
        None => None,
    };
    let mut out = io::stdout().lock();
    if args.json {
        let sets: Vec<_> = sets
            .iter()
            .map(|(dir, report)| serde_json::json!({ "dir": dir, "scores": report }))
            .collect();
        let json = serde_json::json!({ "sets": sets, "overall": overall, "polnear": distribution });
        writeln!(out, "{}", serde_json::to_string_pretty(&json)?)?;
    } else {
        for (dir, report) in &sets {
            writeln!(out, "Sources, stances and hedges of {}", dir.display())?;
            writeln!(out, "{report}")?;
        }
        if sets.len() > 1 {
            writeln!(out, "Overall, {} sets", sets.len())?;
            writeln!(out, "{overall}")?;
        }
        if let (Some(dir), Some(distribution)) = (&args.polnear, &distribution) {
            writeln!(
                out,
                "Gold source spans of {} as attest resolves them",
                dir.display()
            )?;
            write!(out, "{distribution}")?;
        }
    }
    if let Some(floors) = &args.floors {
        for (dir, report) in &sets {
            check_floors(
                &mut out,
                floors,
                &floor_section(dir),
                &[
                    ("source_resolution", report.source_resolution.accuracy),
                    ("source_type", report.source_type.accuracy),
                    ("stance", report.stance.accuracy),
                    ("hedge_f1", report.hedges.f1),
                    ("quotations", report.quotations.accuracy),
                ],
            )?;
        }
    }
    Ok(())
}

/// The section of the floors file that holds a gold set's figures: `sources`
/// for the first set (named gold), `sources_NAME` for any other.
fn floor_section(dir: &Path) -> String {
    match dir.file_name().and_then(|name| name.to_str()) {
        Some("gold") | None => "sources".to_string(),
        Some(name) => format!("sources_{name}"),
    }
}

/// How the gold source spans of a PolNeAR split resolve, the gold attributions
/// placed into each segmented article.
fn gold_source_distribution(dir: &Path) -> anyhow::Result<attest_sources::Distribution> {
    let corpus = Corpus::open(dir).with_context(|| format!("opening {}", dir.display()))?;
    let prepare = source_layers()?;
    let mut docs = Vec::with_capacity(corpus.len());
    for article in corpus.articles() {
        let article = article.with_context(|| format!("reading {}", dir.display()))?;
        let mut doc = Doc::new(article.to_article());
        prepare(&mut doc).with_context(|| format!("segmenting and tagging {}", article.name))?;
        let gold = article
            .gold
            .iter()
            .map(|gold| gold.to_attribution(&article.text))
            .collect();
        doc.set_attributions(gold)
            .with_context(|| format!("placing the gold attributions of {}", article.name))?;
        docs.push(doc);
    }
    Ok(attest_sources::source_distribution(&docs))
}

fn attributions(args: &EvalArgs) -> anyhow::Result<()> {
    let corpus =
        Corpus::open(&args.dir).with_context(|| format!("opening {}", args.dir.display()))?;
    let pipeline = args.model.pipeline(&Limits::DEFAULT)?;
    let started = Instant::now();
    let mut bytes = 0;
    let report = evaluate_attributions(&corpus, |article| {
        bytes += article.text.len();
        analyze(&pipeline, article).attributions().to_vec()
    })
    .with_context(|| format!("reading {}", args.dir.display()))?;
    let seconds = started.elapsed().as_secs_f64();
    let mut out = io::stdout().lock();
    if args.json {
        writeln!(out, "{}", with_model(&report, args)?)?;
    } else {
        writeln!(
            out,
            "Attributions of {} against its gold ({} model)",
            args.dir.display(),
            args.model.kind().name()
        )?;
        writeln!(out, "{report}")?;
        writeln!(
            out,
            "analysed {:.2} MB in {seconds:.1} s ({:.2} MB/s, whole pipeline, one thread)",
            bytes as f64 / 1e6,
            bytes as f64 / 1e6 / seconds.max(1e-9)
        )?;
    }
    if let Some(floors) = &args.floors {
        // Each mode is held to its own figures: accurate mode's are higher on
        // every role but direct-quote precision.
        let section = match args.model.kind() {
            AnalysisModel::Fast => "attributions",
            AnalysisModel::Accurate => "attributions_accurate",
        };
        check_floors(&mut out, floors, section, &report.headline())?;
    }
    Ok(())
}

/// A report as pretty JSON with the model that made it as its first field.
pub(crate) fn with_model(
    report: &impl serde::Serialize,
    args: &EvalArgs,
) -> anyhow::Result<String> {
    let mut object = serde_json::Map::new();
    object.insert("model".into(), args.model.kind().name().into());
    match serde_json::to_value(report)? {
        serde_json::Value::Object(fields) => object.extend(fields),
        other => {
            object.insert("report".into(), other);
        }
    }
    Ok(serde_json::to_string_pretty(&object)?)
}

/// Analyses a corpus article; what a stage noticed counts as a failure of
/// that article, reported on standard error.
pub(crate) fn analyze(pipeline: &Pipeline, article: &CorpusArticle) -> Doc {
    let doc = pipeline.analyze(article.to_article());
    for diagnostic in doc.diagnostics() {
        messages::input_failed(format_args!(
            "{}: {}: {}",
            article.name, diagnostic.origin, diagnostic.message
        ));
    }
    doc
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
pub(crate) fn check_floors(
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
