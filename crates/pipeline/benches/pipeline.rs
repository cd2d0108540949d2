//! Throughput of the whole pipeline on the PolNeAR dev texts, in MB/s and
//! words/s on one core, and the time of each stage.
//!
//! Run with `cargo bench -p attest-pipeline`; `-- --rounds N` changes the
//! number of rounds (5 by default). The texts are read from
//! `../shared/data/polnear/dev` beside the repository; without them the
//! benchmark says so and exits. Words are whitespace-separated, as a word
//! count of the text.
//!
//! The whole pipeline is timed as [`Pipeline::analyze`] runs it, article by
//! article, and as [`Pipeline::analyze_batch`] runs it on batches of
//! [`BATCH`] articles, stage by stage, as `attest analyze` does; each stage of
//! [`Pipeline::standard`] is then timed alone, on documents that the stages
//! before it have analysed. Time is the thread's CPU time, and each figure the
//! best of the rounds, so that other work on the machine (for its caches and
//! the waits for a core) counts as little as it can.

use std::path::Path;

use attest_doc::{Article, Budget, Doc, Limits};
use attest_pipeline::{AnyStage, Pipeline};

/// The articles of a batch, as `attest analyze` gives each core.
const BATCH: usize = 16;

/// The thread's CPU time in seconds: on a machine shared with other work, what
/// one core spends, where wall-clock time would also count the waits for a core.
fn cpu_seconds() -> f64 {
    let now = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    now.tv_sec as f64 + now.tv_nsec as f64 / 1e9
}

/// The best time of `rounds` runs of `run`.
fn best_of(rounds: usize, mut run: impl FnMut()) -> f64 {
    (0..rounds)
        .map(|_| {
            let start = cpu_seconds();
            run();
            cpu_seconds() - start
        })
        .fold(f64::MAX, f64::min)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rounds = args
        .iter()
        .position(|a| a == "--rounds")
        .and_then(|i| args.get(i + 1))
        .map_or(5, |n| n.parse().expect("--rounds takes a number"));
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
    let words: usize = texts.iter().map(|t| t.split_whitespace().count()).sum();

    let start = cpu_seconds();
    let pipeline = Pipeline::standard(&Limits::DEFAULT).expect("the bundled models load");
    let load = cpu_seconds() - start;
    let article = |(index, text): (usize, &String)| Article::new(index.to_string(), text.as_str());
    let whole = best_of(rounds, || {
        for article in texts.iter().enumerate().map(article) {
            std::hint::black_box(pipeline.analyze(article));
        }
    });
    let batched = best_of(rounds, || {
        let articles: Vec<(usize, &String)> = texts.iter().enumerate().collect();
        for batch in articles.chunks(BATCH) {
            let items = batch
                .iter()
                .map(|item| Ok::<_, ()>((article(*item), Vec::new(), Budget::unlimited())));
            std::hint::black_box(pipeline.analyze_batch(items));
        }
    });
    println!(
        "pipeline: {} texts, {megabytes:.2} MB, {words} words; CPU time, best of {rounds} rounds; \
         models load in {:.0} ms",
        texts.len(),
        load * 1e3
    );
    for (how, took) in [
        ("one article at a time".to_string(), whole),
        (format!("in batches of {BATCH}"), batched),
    ] {
        println!(
            "whole pipeline, {how:<21}: {:>4.0} ms = {:.2} MB/s, {:.0} k words/s",
            took * 1e3,
            megabytes / took,
            words as f64 / 1e3 / took,
        );
    }

    let mut docs: Vec<Doc> = texts
        .iter()
        .enumerate()
        .map(article)
        .map(Doc::new)
        .collect();
    let mut sum = 0.0;
    for stage in pipeline.stages() {
        let took = time_stage(rounds, stage, &mut docs);
        sum += took;
        println!(
            "  {:<13} {:>7.1} ms {:>8.1} MB/s {:>5.1}%",
            stage.name(),
            took * 1e3,
            megabytes / took,
            100.0 * took / batched
        );
    }
    println!(
        "  stages alone {:>7.1} ms (shares are of the batched whole)",
        sum * 1e3
    );
}

/// The best time of `stage` over every document, each round on fresh copies
/// (copied outside the clock), which then become the documents the next stage
/// reads.
fn time_stage(rounds: usize, stage: &AnyStage, docs: &mut Vec<Doc>) -> f64 {
    let mut best = f64::MAX;
    let mut done = Vec::new();
    for _ in 0..rounds {
        done = docs.clone();
        let start = cpu_seconds();
        for doc in &mut done {
            stage.run(doc).expect("the stage fits the document");
        }
        best = best.min(cpu_seconds() - start);
    }
    *docs = done;
    best
}
