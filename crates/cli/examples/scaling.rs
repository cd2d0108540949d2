//! The scaling check: every stage linear in its input, on the inputs that
//! broke that before.
//!
//! For each pathological family below, an article of [`SMALL`] bytes and one
//! of [`LARGE`] bytes (four times as large) are analysed by
//! [`Pipeline::analyze`], written as JSON, as a report and as brat standoff,
//! as `attest analyze` does in each format, and stored in a new ledger, as
//! `attest ingest` does; the table gives the best CPU time of [`ROUNDS`] runs
//! of each, their ratio, and the JSON bytes per input byte. Linear work gives a ratio near 4
//! and quadratic work near 16; with `--check` the program fails when a ratio
//! reaches [`BOUND`], a bound generous enough for a noisy shared machine.
//! `--stages` adds the ratio of each stage alone, to find the one that grew.
//!
//! The HTML families are pages read by `attest_read` first, with the depth
//! limit lifted, so that nesting as deep as the page is long must cost no more
//! than the same bytes laid flat.
//!
//! Run with `cargo run --release -p attest-cli --example scaling -- --check`
//! (`.ci/run` does); timing lives here and in `docs/benchmarks.md`, never in a
//! unit test.

use std::process::ExitCode;

use std::path::Path;

use attest_doc::{Article, Budget, Doc, Limits};
use attest_ledger::{ArticleKey, Ledger, OnConflict};
use attest_pipeline::Pipeline;
use attest_read::{ReadConfig, read_html_str};
use attest_write::{JsonConfig, ReportConfig, brat_ann, write_json, write_report};
use clap::Parser;

/// The smaller size, in bytes.
const SMALL: usize = 256 * 1024;
/// The larger size, in bytes.
const LARGE: usize = 1024 * 1024;
/// Runs per measurement; the best counts.
const ROUNDS: usize = 3;
/// The largest ratio of the large time to the small one that passes.
const BOUND: f64 = 6.0;

/// The `i`th repeat of a family's text.
type Unit = fn(usize) -> String;

/// The HTML families: a name, the page's opening, the `i`th repeat of its
/// body, and its closing, which closes what the repeats opened (`n` of them).
type Page = (&'static str, Unit, fn(usize) -> String);

const HTML_FAMILIES: &[Page] = &[
    (
        "html nested divs",
        |_| "<div>".to_string(),
        |n| format!("<p>The mayor said so.</p>{}", "</div>".repeat(n)),
    ),
    (
        "html nested paras",
        |i| format!("<div><p>Block {i}, the mayor said.</p>"),
        |n| "</div>".repeat(n),
    ),
    (
        "html formatting",
        |i| format!("<b><i>word {i} "),
        |_| String::new(),
    ),
    (
        "html nested tables",
        |i| format!("<table><tr><td>cell {i}"),
        |_| String::new(),
    ),
    (
        "html flat paras",
        |i| {
            format!(
                "<div class=\"c{}\"><p>Block {i}, the mayor said.</p></div>",
                i % 7
            )
        },
        |_| String::new(),
    ),
];

/// The families: a name and a unit repeated (with its counter) to the size.
const FAMILIES: &[(&str, Unit)] = &[
    ("name said", |i| {
        format!(
            "{} {} said. ",
            GIVEN[i % GIVEN.len()],
            SURNAME[(i / GIVEN.len()) % SURNAME.len()]
        )
    }),
    ("one speaker", |_| "“We will,” Reyes said. ".to_string()),
    ("pronoun quotes", |_| "“We will.” she said. ".to_string()),
    ("they said", |_| "“No,” they said. ".to_string()),
    ("quote marks", |i| ["\"", "“", "”", "'"][i % 4].to_string()),
    ("straight quotes", |_| "\"".to_string()),
    ("no punctuation", |i| {
        format!("{} ", WORDS[(i * 7) % WORDS.len()])
    }),
    ("one sentence", |i| {
        format!(
            "{} {}, the {} of the council, said that {} would ",
            GIVEN[i % GIVEN.len()],
            SURNAME[(i / GIVEN.len()) % SURNAME.len()],
            ["mayor", "chair", "spokeswoman"][i % 3],
            WORDS[i % WORDS.len()]
        )
    }),
    ("spokesman said", |_| {
        "The company spokesman said so. ".to_string()
    }),
    ("short paragraphs", |i| {
        format!("{}.\n\n", WORDS[i % WORDS.len()])
    }),
    ("said paragraphs", |i| {
        format!("{} said.\n\n", GIVEN[i % GIVEN.len()])
    }),
    ("numbers and dates", |i| {
        format!(
            "On March {}, 2024, {} percent rose by $1.{i} billion last week. ",
            1 + i % 28,
            i % 100
        )
    }),
    ("capitals", |i| format!("{} ", SURNAME[i % SURNAME.len()])),
];

const GIVEN: &[&str] = &[
    "Dana", "Luis", "Maria", "Ken", "Ines", "Paul", "Rosa", "Omar", "Ada", "Tom", "Mei", "Ivan",
];
const SURNAME: &[&str] = &[
    "Reyes",
    "Okafor",
    "Lindqvist",
    "Brandt",
    "Moreau",
    "Tanaka",
    "Ortiz",
    "Novak",
    "Haddad",
    "Kowalski",
    "Ferreira",
    "Nakamura",
    "Osei",
    "Quinn",
];
const WORDS: &[&str] = &[
    "the",
    "council",
    "would",
    "vote",
    "on",
    "plan",
    "officials",
    "said",
    "that",
    "budget",
    "rose",
    "after",
    "weeks",
    "of",
    "talks",
    "and",
    "a",
    "new",
    "road",
    "opened",
];

/// A text of `size` bytes or a little more, `unit` repeated.
fn text_of(unit: Unit, size: usize) -> String {
    let mut text = String::with_capacity(size + 256);
    let mut i = 0;
    while text.len() < size {
        text.push_str(&unit(i));
        i += 1;
    }
    text
}

/// The thread's CPU time in seconds, which waits for a core do not count.
fn cpu_seconds() -> f64 {
    let now = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    now.tv_sec as f64 + now.tv_nsec as f64 / 1e9
}

/// The best time of [`ROUNDS`] runs of `run`, and what the last run returned.
fn best_of<T>(mut run: impl FnMut() -> T) -> (f64, T) {
    let mut best = f64::MAX;
    let mut last = None;
    for _ in 0..ROUNDS {
        let start = cpu_seconds();
        let value = run();
        best = best.min(cpu_seconds() - start);
        last = Some(value);
    }
    (best, last.expect("ROUNDS is at least one"))
}

/// A page of about `size` bytes of `family`'s repeats.
fn page_of((_, unit, close): &Page, size: usize) -> String {
    let mut page = String::from("<html><head><title>Scaling</title></head><body>");
    let mut i = 0;
    while page.len() < size {
        page.push_str(&unit(i));
        i += 1;
    }
    page.push_str(&close(i));
    page.push_str("</body></html>");
    page
}

/// Reads `page` with the depth limit lifted, then analyses and writes it as
/// [`analyze_and_write`] does; returns the JSON's length.
fn read_analyze_and_write(pipeline: &Pipeline, page: &str, ledger: &Path) -> usize {
    let config = ReadConfig {
        limits: Limits {
            html_depth: usize::MAX,
            ..Limits::DEFAULT
        },
    };
    let item = read_html_str(page, "scaling", &config, Budget::unlimited())
        .expect("every family's page has text");
    analyze_and_write(pipeline, &item.article.text, ledger)
}

/// Analyses `text`, writes it in every format and stores it in a new ledger
/// at `ledger`; returns the JSON's length.
fn analyze_and_write(pipeline: &Pipeline, text: &str, ledger: &Path) -> usize {
    let doc = pipeline.analyze(Article::new("scaling", text));
    let mut json = Vec::new();
    write_json(&doc, &JsonConfig::default(), &mut json).expect("writing to memory succeeds");
    let mut report = Vec::new();
    write_report(&doc, &ReportConfig::default(), &mut report).expect("writing to memory succeeds");
    std::hint::black_box(brat_ann(&doc));
    for leftover in ["", "-wal", "-shm"] {
        // A ledger of the round before, if any; a missing file is what we want.
        let _ = std::fs::remove_file(format!("{}{leftover}", ledger.display()));
    }
    let mut store = Ledger::open(ledger).expect("a new ledger opens in a temporary directory");
    store
        .store_one(&doc, &ArticleKey::by_id("scaling"), OnConflict::Replace)
        .expect("the article is stored");
    store.close().expect("the ledger closes");
    json.len()
}

/// The time of each stage alone on `text`, in pipeline order.
fn stage_times(pipeline: &Pipeline, text: &str) -> Vec<f64> {
    let mut doc = Doc::new(Article::new("scaling", text));
    pipeline
        .stages()
        .iter()
        .map(|stage| {
            let before = doc.clone();
            let (took, after) = best_of(|| {
                let mut copy = before.clone();
                // A stage's failure is the pipeline's business; the time is ours.
                let _ = stage.run(&mut copy);
                copy
            });
            doc = after;
            took
        })
        .collect()
}

/// Times `run` (which returns the JSON's length) on the small and the large
/// input, prints the family's row, and returns the ratio of the times.
fn ratio_of(name: &str, small: &str, large: &str, run: impl Fn(&str) -> usize) -> f64 {
    let (small_s, _) = best_of(|| run(small));
    let (large_s, json) = best_of(|| run(large));
    let ratio = large_s / small_s.max(1e-6);
    println!(
        "{name:<18} {small_s:>9.3} {large_s:>9.3} {ratio:>6.2} {:>11.2}",
        json as f64 / large.len() as f64
    );
    ratio
}

/// Times every stage on pathological inputs of two sizes.
#[derive(Parser)]
struct Options {
    /// Fail when a ratio reaches the bound.
    #[arg(long)]
    check: bool,
    /// Add the ratio of each stage alone.
    #[arg(long)]
    stages: bool,
    /// Run only the families whose names contain one of these.
    only: Vec<String>,
}

fn main() -> ExitCode {
    let Options {
        check,
        stages,
        only,
    } = Options::parse();
    let pipeline = Pipeline::standard(&Limits::DEFAULT).expect("the bundled models load");
    let dir = tempfile::tempdir().expect("a temporary directory");
    let ledger = dir.path().join("scaling.db");
    println!(
        "scaling: CPU seconds of analyze + JSON + report + brat + ledger, best of {ROUNDS}; {} KB against {} KB; bound {BOUND}x",
        SMALL / 1024,
        LARGE / 1024
    );
    println!(
        "{:<18} {:>9} {:>9} {:>6} {:>11}",
        "family", "small s", "large s", "ratio", "JSON/byte"
    );
    let mut failed = Vec::new();
    for (name, unit) in FAMILIES {
        if !only.is_empty() && !only.iter().any(|o| name.contains(o.as_str())) {
            continue;
        }
        let small = text_of(*unit, SMALL);
        let large = text_of(*unit, LARGE);
        let ratio = ratio_of(name, &small, &large, |text| {
            analyze_and_write(&pipeline, text, &ledger)
        });
        if stages {
            let a = stage_times(&pipeline, &small);
            let b = stage_times(&pipeline, &large);
            for ((stage, a), b) in pipeline.stages().iter().zip(a).zip(b) {
                println!(
                    "  {:<16} {a:>9.3} {b:>9.3} {:>6.2}",
                    stage.name(),
                    b / a.max(1e-6)
                );
            }
        }
        if ratio >= BOUND {
            failed.push(*name);
        }
    }
    for family in HTML_FAMILIES {
        let name = family.0;
        if !only.is_empty() && !only.iter().any(|o| name.contains(o.as_str())) {
            continue;
        }
        let small = page_of(family, SMALL);
        let large = page_of(family, LARGE);
        let ratio = ratio_of(name, &small, &large, |page| {
            read_analyze_and_write(&pipeline, page, &ledger)
        });
        if ratio >= BOUND {
            failed.push(name);
        }
    }
    if check && !failed.is_empty() {
        eprintln!("scaling: not linear within {BOUND}x: {}", failed.join(", "));
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
