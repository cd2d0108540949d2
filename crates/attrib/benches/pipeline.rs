//! Throughput of the pipeline through attributions on the PolNeAR dev texts:
//! segmentation, part-of-speech tagging and the attribution stage, on one core,
//! with the bundled models, in MB/s of article text and words/s (words being
//! whitespace-separated, as a word count of the text).
//!
//! Run with `cargo bench -p attest-attrib`. The texts are read from
//! `../shared/data/polnear/dev` beside the repository; without them the
//! benchmark says so and exits. It also times loading each model.
//! `cargo bench -p attest-attrib -- --model PATH` measures another attribution
//! model file instead of the bundled one.
//!
//! Time is the thread's CPU time where Linux reports it
//! (`/proc/thread-self/schedstat`), else wall-clock time: on a machine shared
//! with other work, CPU time is what one core spends, and wall-clock time also
//! counts the waits for a core. Each figure is the best of several rounds; the
//! total is the best round, so it can exceed the sum of the best stages.

use std::path::Path;
use std::time::Instant;

use attest_attrib::Attributor;
use attest_doc::{Article, Doc, Limits, Stage};
use attest_tag::Tagger;

/// Rounds over the texts.
const ROUNDS: usize = 10;

/// A clock: the thread's CPU time in seconds when the system reports it.
struct Clock {
    wall: Instant,
    cpu: bool,
}

impl Clock {
    fn new() -> Clock {
        Clock {
            wall: Instant::now(),
            cpu: thread_cpu_seconds().is_some(),
        }
    }

    fn now(&self) -> f64 {
        if self.cpu {
            thread_cpu_seconds().unwrap_or(0.0)
        } else {
            self.wall.elapsed().as_secs_f64()
        }
    }

    fn name(&self) -> &'static str {
        if self.cpu {
            "CPU time"
        } else {
            "wall-clock time"
        }
    }
}

fn thread_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos: u64 = stat.split_whitespace().next()?.parse().ok()?;
    Some(nanos as f64 / 1e9)
}

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/polnear/dev");
    let Ok(corpus) = attest_corpus::Corpus::open(&dir) else {
        println!("pipeline: {} is absent; nothing to measure", dir.display());
        return;
    };
    let texts: Vec<String> = corpus
        .articles()
        .filter_map(|article| article.ok().map(|a| a.text))
        .collect();
    let bytes: usize = texts.iter().map(String::len).sum();
    let words: usize = texts.iter().map(|t| t.split_whitespace().count()).sum();
    let clock = Clock::new();

    let start = clock.now();
    let tagger = Tagger::bundled().expect("the bundled POS model loads");
    let pos_load = clock.now() - start;
    let args: Vec<String> = std::env::args().collect();
    let other = args
        .iter()
        .position(|a| a == "--model")
        .and_then(|i| args.get(i + 1))
        .map(|path| std::fs::read(path).expect("the --model file reads"));
    let start = clock.now();
    let attributor = match &other {
        Some(bytes) => Attributor::from_bytes(bytes).expect("the --model file is a model"),
        None => Attributor::bundled().expect("the bundled attribution model loads"),
    };
    let attrib_load = clock.now() - start;

    let (mut segment_best, mut pos_best, mut attrib_best) = (f64::MAX, f64::MAX, f64::MAX);
    let mut total_best = f64::MAX;
    let mut found = 0;
    for _ in 0..ROUNDS {
        // Each stage runs over every text in one timed stretch, long enough for
        // the CPU clock's granularity (a scheduler tick) not to matter.
        let start = clock.now();
        let mut docs: Vec<Doc> = texts
            .iter()
            .map(|text| {
                let mut doc = Doc::new(Article::new("bench", text.as_str()));
                doc.set_segmentation(attest_text::segment(text, &Limits::DEFAULT))
                    .expect("segmentation");
                doc
            })
            .collect();
        let segmented = clock.now();
        for doc in &mut docs {
            tagger.run(doc).expect("pos");
        }
        let tagged = clock.now();
        for doc in &mut docs {
            attributor.run(doc).expect("attributions");
        }
        let attributed = clock.now();
        found = docs.iter().map(|d| d.attributions().len()).sum();
        segment_best = segment_best.min(segmented - start);
        pos_best = pos_best.min(tagged - segmented);
        attrib_best = attrib_best.min(attributed - tagged);
        total_best = total_best.min(attributed - start);
    }
    let mb = bytes as f64 / 1e6;
    println!(
        "pipeline through attributions: {} texts, {mb:.2} MB, {words} words, {found} attributions; {}",
        texts.len(),
        clock.name()
    );
    println!(
        "best of {ROUNDS}: {:.1} ms = {:.2} MB/s, {:.0} k words/s",
        total_best * 1e3,
        mb / total_best,
        words as f64 / 1e3 / total_best
    );
    println!(
        "stages (best each): segment {:.1} MB/s, pos {:.1} MB/s, attributions {:.1} MB/s",
        mb / segment_best,
        mb / pos_best,
        mb / attrib_best
    );
    println!(
        "model load: pos {:.0} ms, attributions {:.0} ms",
        pos_load * 1e3,
        attrib_load * 1e3
    );
}
