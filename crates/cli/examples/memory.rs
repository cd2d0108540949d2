//! The memory check: `attest analyze` on a stream of large articles keeps its
//! memory to the bytes in flight, not to the number of articles.
//!
//! The program pipes [`ARTICLES`] generated articles of about [`ARTICLE_BYTES`]
//! bytes each, as JSON Lines, into `attest analyze --format jsonl -`, reads
//! and drops its output, and follows the child's peak resident memory
//! (`VmHWM` in `/proc/PID/status`, Linux) until it exits. With `--check` it
//! fails when the peak reaches [`BOUND`] bytes. Before memory was bounded by
//! bytes this stream peaked at 1.0 GB; README gives today's figure.
//!
//! Then it analyses one article of 1 MB and one of 4 MB alone and reports
//! what each further megabyte of article costs: the difference of the two
//! peaks over the 3 MB between them, so that the binary and its models do not
//! count. With `--check` it fails at [`PER_MEGABYTE_BOUND`].
//!
//! Last it analyses one article of 1 MB in accurate mode, with no time limit
//! so that the encoder reads all of it, and one of a paragraph, and reports
//! what the megabyte costs beyond the binary and its loaded encoder: the
//! difference of the two peaks. With `--check` it fails at
//! [`ACCURATE_PER_MEGABYTE_BOUND`].
//!
//! Run with `cargo run --release -p attest-cli --example memory -- --check
//! target/release/attest` (`.ci/run` does); memory lives here and in
//! README, never in a unit test.

use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::Duration;

use clap::Parser;

/// Articles in the stream.
const ARTICLES: usize = 64;
/// The size of each, in bytes.
const ARTICLE_BYTES: usize = 1_000_000;
/// The peak that fails `--check`: 400 MB.
const BOUND: u64 = 400_000_000;
/// The memory per megabyte of one article that fails `--check`: 30 MB.
const PER_MEGABYTE_BOUND: f64 = 30.0;
/// The same in accurate mode: 100 MB.
const ACCURATE_PER_MEGABYTE_BOUND: f64 = 100.0;
/// How attest runs in accurate mode here.
const ACCURATE: &[&str] = &["--model", "accurate", "--max-article-seconds", "0"];

/// Sentences the articles are made of, written for this check: quotes,
/// attributions, hedges, numbers and names, as news copy has them.
const SENTENCES: &[&str] = &[
    "The mayor said the council would vote on the budget next week.",
    "“We are not going to wait any longer,” said Ann Lee, a spokeswoman for the union.",
    "Officials declined to confirm the figure, which reportedly reached $4 million.",
    "The company denied the claim in a statement on Tuesday.",
    "Residents told reporters they feared the plant could close by March.",
    "According to a report by the Harbor Times, the deal may have collapsed.",
    "Dr. Ravi Menon, who studies the river, said the water had risen 3 feet since 2019.",
    "A spokesman for the port authority did not respond to a request for comment.",
];

#[derive(Parser)]
struct Args {
    /// Fail when the peak reaches the bound.
    #[arg(long)]
    check: bool,
    /// The attest binary to run.
    attest: PathBuf,
}

fn main() -> ExitCode {
    match run(&Args::parse()) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(err) => {
            eprintln!("memory check: {err}");
            ExitCode::FAILURE
        }
    }
}

/// Measures and prints; whether every bound holds (or `--check` is off).
fn run(args: &Args) -> Result<bool, String> {
    let stream = (0..ARTICLES).map(|index| article(index, ARTICLE_BYTES));
    let peak = peak_of(&args.attest, &[], stream)?;
    println!(
        "{ARTICLES} articles of {:.2} MB through `attest analyze --format jsonl -`: \
         peak resident memory {} MB (bound {} MB)",
        ARTICLE_BYTES as f64 / 1e6,
        peak / 1_000_000,
        BOUND / 1_000_000
    );
    let alone = |options, bytes| peak_of(&args.attest, options, std::iter::once(article(0, bytes)));
    let one = alone(&[], ARTICLE_BYTES)?;
    let four = alone(&[], 4 * ARTICLE_BYTES)?;
    let per_megabyte = four.saturating_sub(one) as f64 / 3e6;
    println!(
        "one article of 1 MB peaks at {} MB, one of 4 MB at {} MB: {per_megabyte:.1} MB per MB of article (bound {PER_MEGABYTE_BOUND})",
        one / 1_000_000,
        four / 1_000_000
    );
    let paragraph = alone(ACCURATE, 400)?;
    let megabyte = alone(ACCURATE, ARTICLE_BYTES)?;
    let accurate_per_megabyte = megabyte.saturating_sub(paragraph) as f64 / 1e6;
    println!(
        "accurate mode: one article of a paragraph peaks at {} MB, one of 1 MB at {} MB: \
         {accurate_per_megabyte:.1} MB per MB of article (bound {ACCURATE_PER_MEGABYTE_BOUND})",
        paragraph / 1_000_000,
        megabyte / 1_000_000
    );
    if !args.check {
        return Ok(true);
    }
    let failures = [
        (
            peak as f64 >= BOUND as f64,
            "the stream's peak reached the bound",
        ),
        (
            per_megabyte >= PER_MEGABYTE_BOUND,
            "a megabyte of article costs more than the bound",
        ),
        (
            accurate_per_megabyte >= ACCURATE_PER_MEGABYTE_BOUND,
            "a megabyte of article costs accurate mode more than the bound",
        ),
    ];
    for (_, why) in failures.iter().filter(|(failed, _)| *failed) {
        eprintln!("memory check failed: {why}");
    }
    Ok(failures.iter().all(|(failed, _)| !failed))
}

/// Runs `texts` through attest, with `options`, as a stream of JSON Lines
/// records and returns its peak resident bytes.
fn peak_of(
    attest: &Path,
    options: &[&str],
    texts: impl Iterator<Item = String> + Send + 'static,
) -> Result<u64, String> {
    let mut child = Command::new(attest)
        .args(["analyze", "--input-format", "jsonl", "--format", "jsonl"])
        .args(options)
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|err| format!("starting {}: {err}", attest.display()))?;
    let pid = child.id();
    let stdin = child.stdin.take().ok_or("no stdin")?;
    let mut stdout = child.stdout.take().ok_or("no stdout")?;
    let feeder = std::thread::spawn(move || -> std::io::Result<()> {
        let mut out = BufWriter::new(stdin);
        for (index, text) in texts.enumerate() {
            let record = serde_json::json!({ "id": format!("a{index}"), "text": text });
            writeln!(out, "{record}")?;
        }
        out.flush()
    });
    let drain = std::thread::spawn(move || {
        let mut buffer = vec![0u8; 1 << 16];
        let mut total = 0u64;
        while let Ok(read) = stdout.read(&mut buffer) {
            if read == 0 {
                break;
            }
            total += read as u64;
        }
        total
    });
    let mut peak = 0;
    loop {
        if let Some(bytes) = high_water_mark(pid) {
            peak = peak.max(bytes);
        }
        if let Some(status) = child.try_wait().map_err(|err| err.to_string())? {
            if !status.success() {
                return Err(format!("attest exited with {status}"));
            }
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    feeder
        .join()
        .map_err(|_| "the feeder panicked")?
        .map_err(|err| format!("writing to attest: {err}"))?;
    let written = drain.join().map_err(|_| "the reader panicked")?;
    if written == 0 {
        return Err("attest wrote nothing".into());
    }
    if peak == 0 {
        return Err("no /proc/PID/status to read the peak from (Linux only)".into());
    }
    Ok(peak)
}

/// The `index`th article: sentences in paragraphs, to about `bytes`.
fn article(index: usize, bytes: usize) -> String {
    let mut text = String::with_capacity(bytes + 200);
    let mut k = index as u64;
    while text.len() < bytes {
        for _ in 0..5 {
            k = k.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            text.push_str(SENTENCES[(k >> 33) as usize % SENTENCES.len()]);
            text.push(' ');
        }
        text.push_str("\n\n");
    }
    text
}

/// The peak resident memory of process `pid` so far, in bytes.
fn high_water_mark(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    let kilobytes: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kilobytes * 1024)
}
