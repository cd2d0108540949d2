//! The gold sets scored with oracle attributions, pinned exactly: each report
//! (every score and every disagreement with the gold) is an insta snapshot in
//! `tests/snapshots`, so that any change to the stages' output on the sets
//! shows as a diff to review, better or worse.

use std::path::Path;

mod common;

use common::prepare;

fn score(set: &str) -> attest_sources::SourcesReport {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(set);
    attest_sources::eval_gold(&dir, &prepare, models()).expect("the gold set reads")
}

#[test]
fn gold_set_report() {
    insta::assert_snapshot!(score("gold").to_string());
}

#[test]
fn blind_set_report() {
    insta::assert_snapshot!(score("gold2").to_string());
}

/// The bundled learned source stages.
fn models() -> &'static attest_sources::SourcingModels {
    attest_sources::SourcingModels::shared().expect("the bundled sourcing models load")
}
