//! Speed of accurate mode's encoder on the PolNeAR dev texts: model load
//! time, words/s and MB/s of `Encoder::predict` (segmentation excluded).
//!
//! ```text
//! RAYON_NUM_THREADS=1 cargo run --release -p attest-encoder --example speed -- \
//!     [--model DIR | --vocab VOCAB_TXT] [--docs N] [TEXT_DIR]
//! ```
//!
//! Without `--model` it writes a random-weight model of the shipped size
//! (6 layers, hidden 384, vocabulary 30,522) to a temporary directory: the
//! arithmetic, and so the speed, is the trained model's. Give it the real
//! vocabulary with `--vocab` (the base model's vocab.txt), or words fall
//! apart into letters and the units, and the time, grow fourfold.
//! candle's matrix products use `RAYON_NUM_THREADS` threads. Time is given
//! as wall-clock and as the process's CPU time, which on a busy machine is the
//! fairer measure of one core. The checksum of the predictions lets runs with
//! other thread counts be compared: it must not change.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::PathBuf;
use std::time::Instant;

use attest_doc::{Article, Doc, Limits};
use attest_encoder::Encoder;
use attest_encoder::testing::{Size, write_random_model};
use clap::Parser;

/// Times accurate mode's encoder on a directory of texts.
#[derive(Parser)]
struct Options {
    /// A trained model directory; without it, a random-weight model of the
    /// shipped size.
    #[arg(long, value_name = "DIR", conflicts_with = "vocab")]
    model: Option<PathBuf>,
    /// The vocabulary for the random-weight model (the base model's vocab.txt).
    #[arg(long, value_name = "VOCAB_TXT")]
    vocab: Option<PathBuf>,
    /// Read at most this many texts.
    #[arg(long, value_name = "N")]
    docs: Option<usize>,
    /// The directory of `.txt` files.
    #[arg(default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data/polnear/dev/text"))]
    texts: PathBuf,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let Options {
        model,
        vocab,
        docs,
        texts,
    } = Options::parse();
    if !texts.is_dir() {
        println!(
            "{}: not found; the benchmark needs the PolNeAR dev texts",
            texts.display()
        );
        return Ok(());
    }
    let model = match model {
        Some(dir) => dir,
        None => {
            let dir = std::env::temp_dir().join(format!("attest-speed-{}", std::process::id()));
            write_random_model(&dir, Size::REAL, 1)?;
            if let Some(vocab) = vocab {
                std::fs::copy(vocab, dir.join("vocab.txt"))?;
            }
            dir
        }
    };
    let started = Instant::now();
    let encoder = Encoder::load(&model)?;
    let load = started.elapsed().as_secs_f64();
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&texts)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    paths.sort();
    paths.truncate(docs.unwrap_or(usize::MAX));
    let mut segmented: Vec<Doc> = Vec::new();
    let (mut words, mut bytes) = (0usize, 0usize);
    for path in &paths {
        let text = std::fs::read_to_string(path)?;
        words += text.split_whitespace().count();
        bytes += text.len();
        let mut doc = Doc::new(Article::new(path.display().to_string(), text.clone()));
        doc.set_segmentation(attest_text::segment(&text, &Limits::DEFAULT))?;
        segmented.push(doc);
    }
    let mut hasher = DefaultHasher::new();
    let (mut windows, mut units) = (0usize, 0usize);
    let started = Instant::now();
    let cpu_started = cpu_seconds();
    for doc in &segmented {
        let prediction = encoder.predict(doc, &attest_doc::Budget::unlimited())?;
        format!("{prediction:?}").hash(&mut hasher);
    }
    let seconds = started.elapsed().as_secs_f64();
    let cpu = cpu_seconds() - cpu_started;
    for doc in &segmented {
        let tokens: Vec<_> = doc
            .tokens()
            .iter()
            .map(|t| t.span.byte_start()..t.span.byte_end())
            .collect();
        let found = encoder.units(doc.text(), &tokens);
        let config = encoder.config();
        units += found.ids.len();
        windows +=
            attest_encoder::window::windows(&found.items, config.capacity(), config.stride_pieces)
                .len();
    }
    let threads = std::env::var("RAYON_NUM_THREADS").unwrap_or_else(|_| "all cores".into());
    println!("model {} loaded in {load:.2} s", model.display());
    println!(
        "{} articles, {words} words, {:.2} MB, {units} units in {windows} windows; threads: {threads}",
        segmented.len(),
        bytes as f64 / 1e6
    );
    println!(
        "predict: {seconds:.1} s wall, {:.0} words/s, {:.1} KB/s; checksum {:016x}",
        words as f64 / seconds,
        bytes as f64 / 1e3 / seconds,
        hasher.finish()
    );
    println!(
        "predict: {cpu:.1} s CPU, {:.0} words per CPU-second, {:.1} KB per CPU-second",
        words as f64 / cpu,
        bytes as f64 / 1e3 / cpu
    );
    Ok(())
}

/// The CPU time of the whole process so far, every thread, from /proc (0 elsewhere).
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // Fields after the command name's closing parenthesis; utime and stime are
    // the 14th and 15th fields of the line, in clock ticks of 1/100 s.
    let rest = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    (ticks(11) + ticks(12)) / 100.0
}
