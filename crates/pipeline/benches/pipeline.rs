//! Throughput of the whole pipeline on the PolNeAR dev texts, in MB/s on one
//! core, and the share of each stage.
//!
//! Run with `cargo bench -p attest-pipeline`. The texts are read from
//! `../shared/data/polnear/dev` beside the repository; without them the
//! benchmark says so and exits. The whole pipeline is timed as
//! [`Pipeline::analyze`] runs it (best of several rounds, so that other work on
//! the machine counts as little as it can); each stage is then timed alone,
//! on documents that the stages before it have analysed.

use std::path::Path;
use std::time::{Duration, Instant};

use attest_doc::{Article, Doc, Limits, Stage};
use attest_pipeline::Pipeline;

const ROUNDS: usize = 5;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/polnear/dev");
    let Ok(corpus) = attest_corpus::Corpus::open(&dir) else {
        println!("pipeline: {} is absent; nothing to measure", dir.display());
        return;
    };
    let texts: Vec<String> = corpus
        .articles()
        .filter_map(|article| article.ok().map(|article| article.text))
        .collect();
    let megabytes = texts.iter().map(String::len).sum::<usize>() as f64 / 1e6;

    let pipeline = Pipeline::standard(&Limits::DEFAULT).expect("the bundled models load");
    let whole = best_of(|| {
        for (index, text) in texts.iter().enumerate() {
            std::hint::black_box(pipeline.analyze(Article::new(index.to_string(), text.as_str())));
        }
    });
    println!(
        "pipeline: {} texts, {megabytes:.2} MB; whole pipeline, best of {ROUNDS}: {:.0} ms = {:.2} MB/s",
        texts.len(),
        whole.as_secs_f64() * 1e3,
        megabytes / whole.as_secs_f64()
    );

    let tagger = attest_tag::Tagger::bundled().expect("the POS model loads");
    let attributor = attest_attrib::Attributor::bundled().expect("the attribution model loads");
    let entities = attest_entities::EntityTagger::bundled().expect("the entity model loads");
    let quantities = attest_numbers::QuantityTagger::new();
    let times = attest_numbers::TimeTagger::new();
    let mut docs: Vec<Doc> = texts
        .iter()
        .enumerate()
        .map(|(index, text)| Doc::new(Article::new(index.to_string(), text.as_str())))
        .collect();
    let segmenter = attest_text::Segmenter::new(Limits::DEFAULT);
    let mut stage_times = Vec::new();
    stage_times.push(("segment", time_stage(&segmenter, &mut docs)));
    stage_times.push(("pos", time_stage(&tagger, &mut docs)));
    stage_times.push(("attributions", time_stage(&attributor, &mut docs)));
    stage_times.push(("entities", time_stage(&entities, &mut docs)));
    stage_times.push(("quantities", time_stage(&quantities, &mut docs)));
    stage_times.push(("times", time_stage(&times, &mut docs)));
    for (name, took) in stage_times {
        println!(
            "  {name:<13} {:>7.1} ms  {:>8.1} MB/s",
            took.as_secs_f64() * 1e3,
            megabytes / took.as_secs_f64()
        );
    }
}

fn best_of(mut run: impl FnMut()) -> Duration {
    (0..ROUNDS)
        .map(|_| {
            let started = Instant::now();
            run();
            started.elapsed()
        })
        .min()
        .unwrap_or_default()
}

/// The best time of `stage` over every document, each round on fresh copies
/// (copied outside the clock), which then become the documents the next stage
/// reads.
fn time_stage<S: Stage>(stage: &S, docs: &mut Vec<Doc>) -> Duration {
    let mut best = Duration::MAX;
    let mut done = Vec::new();
    for _ in 0..ROUNDS {
        done = docs.clone();
        let started = Instant::now();
        for doc in &mut done {
            stage.run(doc).expect("the stage fits the document");
        }
        best = best.min(started.elapsed());
    }
    *docs = done;
    best
}
