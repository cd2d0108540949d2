//! The output per input byte stays within the bounds docs/benchmarks.md states,
//! on the densest texts attest knows: a record in every layer for every few
//! bytes, one speaker quoted again and again.

mod common;

use std::path::PathBuf;

use common::{attest, stderr, stdout};

/// JSON Lines bytes per input byte, at most (docs/benchmarks.md).
const JSONL_PER_BYTE: usize = 96;
/// Pretty JSON bytes per input byte, at most.
const JSON_PER_BYTE: usize = 168;
/// brat `.ann` bytes per input byte, at most.
const BRAT_PER_BYTE: usize = 64;
/// What an article costs whatever its length: the schema, the summary, the keys.
const FIXED: usize = 16_384;

const NAMES: [&str; 6] = ["Al", "Bo", "Cy", "Di", "Ed", "Fay"];

/// A text of about `size` bytes, `unit` repeated.
fn text_of(size: usize, unit: impl Fn(usize) -> String) -> String {
    let mut text = String::new();
    let mut i = 0;
    while text.len() < size {
        text.push_str(&unit(i));
        i += 1;
    }
    text
}

fn written(name: &str, text: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("bounds-{name}.txt"));
    std::fs::write(&path, text).expect("the temporary file is written");
    path
}

#[test]
fn json_stays_within_its_bound_per_input_byte() {
    let families: [(&str, String); 3] = [
        (
            "said-paragraphs",
            text_of(12_000, |i| format!("{} said.\n\n", NAMES[i % NAMES.len()])),
        ),
        (
            "quoted-names",
            text_of(12_000, |i| {
                format!("“No,” {} said.\n\n", NAMES[i % NAMES.len()])
            }),
        ),
        ("quote-marks", "\"".repeat(12_000)),
    ];
    for (name, text) in families {
        let path = written(name, &text);
        let path = path.to_str().expect("a UTF-8 path");
        for (format, per_byte) in [("jsonl", JSONL_PER_BYTE), ("json", JSON_PER_BYTE)] {
            let output = attest(&["analyze", "--format", format, path]);
            assert!(output.status.success(), "{name}: {}", stderr(&output));
            let written = stdout(&output).len();
            assert!(
                written <= per_byte * text.len() + FIXED,
                "{name}: {written} bytes of {format} for {} bytes of text",
                text.len()
            );
        }
    }
}

#[test]
fn brat_of_one_speaker_quoted_again_and_again_stays_linear() {
    let text = text_of(40_000, |_| "“We will.” she said. ".to_string());
    let path = written("one-speaker", &text);
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("bounds-brat");
    let _ = std::fs::remove_dir_all(&out);
    let output = attest(&[
        "analyze",
        "--format",
        "brat",
        "--out",
        out.to_str().expect("a UTF-8 path"),
        path.to_str().expect("a UTF-8 path"),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let ann: u64 = std::fs::read_dir(&out)
        .expect("the output directory is made")
        .filter_map(Result::ok)
        .filter(|entry| entry.path().extension().is_some_and(|e| e == "ann"))
        .map(|entry| entry.metadata().map_or(0, |m| m.len()))
        .sum();
    assert!(ann > 0, "an .ann file is written");
    assert!(
        ann as usize <= BRAT_PER_BYTE * text.len() + FIXED,
        "{ann} bytes of brat for {} bytes of text",
        text.len()
    );
}

/// The encoder keeps the article's time budget: it stops inside its own
/// stage, not after it, on a text it would take half a minute to encode.
#[test]
fn accurate_mode_stops_inside_the_encoder_when_the_budget_runs_out() {
    let text = text_of(160_000, |i| {
        format!(
            "“The plan will pass,” {} told reporters on Monday. ",
            NAMES[i % NAMES.len()]
        )
    });
    let path = written("accurate-budget", &text);
    let path = path.to_str().expect("a UTF-8 path");
    let output = attest(&[
        "analyze",
        "--model",
        "accurate",
        "--max-article-seconds",
        "1",
        "--format",
        "jsonl",
        path,
    ]);
    let written = stdout(&output);
    assert!(
        written.contains("incomplete: stopped in stage accurate"),
        "the encoder stops itself: {}",
        written.get(..2_000.min(written.len())).unwrap_or_default()
    );
}
