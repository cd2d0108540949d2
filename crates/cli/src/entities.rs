//! The entity model's corner of `attest train` and `attest eval entities`.
//!
//! Training documents go through the same stages the pipeline runs before the
//! entity tagger (segmentation, then the part-of-speech tagger given), so the
//! model learns from the features it will see; their gold is the silver
//! CoreNLP mentions. Evaluation runs those stages and the bundled entity
//! tagger over a split and compares with its silver mentions.

use std::io::{self, Write};

use anyhow::Context;
use attest_corpus::Corpus;
use attest_corpus::score::evaluate_entities;
use attest_doc::Limits;

use crate::eval;
use crate::flags::EvalArgs;

/// Trains the entity model on the silver mentions of `corpus`, tagging the
/// documents with `tagger`; returns the model file's bytes and how many
/// articles it learned from.
pub(crate) fn train(
    corpus: &Corpus,
    tagger: &attest_tag::Tagger,
    seed: u64,
) -> anyhow::Result<(Vec<u8>, usize)> {
    let mut examples = Vec::with_capacity(corpus.len());
    for article in corpus.articles() {
        let article = article.context("reading the silver entities")?;
        let Some(silver) = &article.silver else {
            continue;
        };
        let doc = crate::train::tagged_doc(&article, tagger)?;
        let gold = attest_corpus::silver_mentions(silver)
            .into_iter()
            .map(|mention| (mention.span, mention.label))
            .collect();
        examples.push(attest_entities::TrainingExample { doc, gold });
    }
    let config = attest_entities::TrainConfig {
        seed,
        ..attest_entities::TrainConfig::default()
    };
    let model = attest_entities::train(&examples, &config);
    Ok((model.to_bytes(), examples.len()))
}

/// `attest eval entities DIR`.
pub(crate) fn evaluate(args: &EvalArgs) -> anyhow::Result<()> {
    let corpus =
        Corpus::open(&args.dir).with_context(|| format!("opening {}", args.dir.display()))?;
    let pipeline = args.model.entity_pipeline(&Limits::DEFAULT)?;
    let report = evaluate_entities(&corpus, 20, |article| {
        eval::analyze(&pipeline, article).entities().to_vec()
    })
    .with_context(|| format!("reading {}", args.dir.display()))?;
    let mut out = io::stdout().lock();
    if args.json {
        writeln!(out, "{}", eval::with_model(&report, args)?)?;
    } else {
        writeln!(
            out,
            "Entities of {} against silver CoreNLP ({} model)",
            args.dir.display(),
            args.model.kind().name()
        )?;
        write!(out, "{report}")?;
    }
    if let Some(floors) = &args.floors {
        eval::check_floors(&mut out, floors, "entities", &report.headline())?;
    }
    Ok(())
}
