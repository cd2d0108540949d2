//! The seed article (`../shared/data/seed`), the story attest was founded on,
//! scored as a user scores it: `attest eval sources --seed DIR --json`, in both
//! modes. What it holds is what an editor checks first; what it does not hold
//! yet (every gold attribution found, at most two extra) is in docs/evaluation.md and in
//! `eval/floors.json`.

mod common;

use std::path::{Path, PathBuf};

use common::{attest, stderr, stdout};

fn seed_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/seed")
}

/// The seed's scores in `mode`, as `eval sources --json` gives them.
fn seed_scores(mode: &str) -> serde_json::Value {
    let dir = seed_dir();
    assert!(
        dir.join("metgala.txt").is_file(),
        "{} is missing: the seed article is read from beside the repository",
        dir.display()
    );
    // A gold set must be named: the default ones are relative to the
    // repository's root.
    let gold = Path::new(env!("CARGO_MANIFEST_DIR")).join("../sources/tests/data/gold");
    let output = attest(&[
        "eval",
        "sources",
        &gold.to_string_lossy(),
        "--seed",
        &dir.to_string_lossy(),
        "--model",
        mode,
        "--json",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("JSON");
    json["seed"].clone()
}

fn check(mode: &str) {
    let seed = seed_scores(mode);
    assert_eq!(
        seed["pronoun_sources"],
        serde_json::json!([]),
        "{mode}: a source named by a pronoun"
    );
    let hedges = &seed["scores"]["hedges"];
    assert_eq!(
        (hedges["matched"].as_u64(), hedges["labelled"].as_u64()),
        (Some(4), Some(4)),
        "{mode}: every hedge of the seed found: {hedges}"
    );
    let end_to_end = &seed["scores"]["end_to_end"];
    for column in ["source_type", "canonical_source", "stance"] {
        let tally = &end_to_end[column];
        assert_eq!(
            tally["right"], tally["scored"],
            "{mode}: every found attribution's {column} right: {end_to_end}"
        );
    }
}

#[test]
#[ignore = "needs ../shared/data/seed"]
fn the_seed_in_fast_mode() {
    check("fast");
}

#[test]
#[ignore = "needs ../shared/data/seed"]
fn the_seed_in_accurate_mode() {
    check("accurate");
}
