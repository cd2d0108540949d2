//! Segmentation throughput on the PolNeAR dev texts, in MB/s on one core.
//!
//! Run with `cargo bench -p attest-text`. The texts are read from
//! `../shared/data/polnear/dev/text` beside the repository; without them the
//! benchmark says so and exits.

use std::path::Path;
use std::time::Instant;

use attest_doc::Limits;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/polnear/dev/text");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        println!("segment: {} is absent; nothing to measure", dir.display());
        return;
    };
    let mut paths: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    let texts: Vec<String> = paths
        .iter()
        .filter_map(|path| std::fs::read_to_string(path).ok())
        .collect();
    let bytes: usize = texts.iter().map(String::len).sum();
    let rounds = 20;
    let mut best = f64::INFINITY;
    let mut tokens = 0;
    for _ in 0..rounds {
        let start = Instant::now();
        tokens = 0;
        for text in &texts {
            tokens += attest_text::segment(text, &Limits::DEFAULT).tokens.len();
        }
        best = best.min(start.elapsed().as_secs_f64());
    }
    println!(
        "segment: {} texts, {:.2} MB, {} tokens; best of {rounds}: {:.1} ms = {:.1} MB/s, {:.2} M tokens/s",
        texts.len(),
        bytes as f64 / 1e6,
        tokens,
        best * 1e3,
        bytes as f64 / 1e6 / best,
        tokens as f64 / 1e6 / best
    );
}
