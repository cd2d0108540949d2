//! Trains the bundled part-of-speech model on PolNeAR's silver tags.
//!
//! ```text
//! cargo run --release -p attest-tag --example train_pos -- ../shared/data/polnear [iterations]
//! ```
//!
//! Trains on `train/`, reports accuracy on `dev/` (against the silver tags, on
//! the silver tokens) and writes `models/pos.model`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use attest_corpus::{Corpus, pos_sentences};
use attest_tag::{Model, TaggedSentence, TrainConfig, train};

fn load(split: &Path) -> Result<(Vec<TaggedSentence>, usize), String> {
    let corpus = Corpus::open(split).map_err(|e| e.to_string())?;
    let mut dropped = 0;
    let sentences = pos_sentences(&corpus)
        .map_err(|e| e.to_string())?
        .into_iter()
        .filter_map(|s| {
            let tagged = TaggedSentence::from_names(s.words, &s.tags);
            dropped += usize::from(tagged.is_none());
            tagged
        })
        .collect();
    Ok((sentences, dropped))
}

fn run() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let root = PathBuf::from(
        args.next()
            .ok_or("usage: train_pos POLNEAR_DIR [ITERATIONS]")?,
    );
    let mut config = TrainConfig::default();
    if let Some(iterations) = args.next() {
        config.iterations = iterations
            .parse()
            .map_err(|_| "ITERATIONS must be a number")?;
    }
    let (train_set, dropped_train) = load(&root.join("train"))?;
    let (dev_set, dropped_dev) = load(&root.join("dev"))?;
    let tokens: usize = train_set.iter().map(|s| s.words.len()).sum();
    eprintln!(
        "train: {} sentences, {tokens} tokens ({dropped_train} sentences dropped for unknown tags); \
         dev: {} sentences ({dropped_dev} dropped)",
        train_set.len(),
        dev_set.len()
    );
    let started = Instant::now();
    let model = train(&train_set, &config);
    let seconds = started.elapsed().as_secs_f64();
    let bytes = model.to_bytes();
    let started = Instant::now();
    let reread = Model::from_bytes(&bytes).map_err(|e| e.to_string())?;
    let load_ms = started.elapsed().as_secs_f64() * 1000.0;
    let started = Instant::now();
    let (right, total) = reread.evaluate(&dev_set);
    let tag_seconds = started.elapsed().as_secs_f64();
    let (train_right, train_total) = reread.evaluate(&train_set);
    let (features, weights, lexicon) = reread.size();
    eprintln!(
        "trained in {seconds:.1} s ({} iterations, seed {}); {features} features, {weights} weights, \
         {lexicon} lexicon words, {} bytes, loaded in {load_ms:.1} ms",
        config.iterations,
        config.seed,
        bytes.len()
    );
    eprintln!(
        "dev accuracy {:.4} ({right}/{total}); train accuracy {:.4}; tagging {:.0} tokens/s",
        right as f64 / total.max(1) as f64,
        train_right as f64 / train_total.max(1) as f64,
        total as f64 / tag_seconds.max(1e-9)
    );
    let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models/pos.model");
    std::fs::write(&out, &bytes).map_err(|e| format!("{}: {e}", out.display()))?;
    eprintln!("wrote {}", out.display());
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("train_pos: {message}");
            ExitCode::FAILURE
        }
    }
}
