//! The gold-set targets: every score of the first set at least 0.90 with oracle
//! attributions; the blind second set at least its first look.

use std::path::Path;

fn score(set: &str) -> attest_sources::SourcesReport {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(set);
    let report = attest_sources::eval_gold(&dir, &|text| {
        attest_text::segment(text, &attest_doc::Limits::DEFAULT)
    })
    .expect("the gold set reads");
    println!("{report}");
    report
}

#[test]
fn gold_set_meets_the_targets() {
    let report = score("gold");
    assert!(report.articles >= 25, "{} articles", report.articles);
    assert!(report.meets(0.90), "{report}");
}

#[test]
fn the_blind_set_scores_at_least_its_first_look() {
    let report = score("gold2");
    assert!(report.articles >= 30, "{} articles", report.articles);
    assert!(report.quotations.total >= 150, "{report}");
    assert!(report.source_resolution.accuracy >= 0.875, "{report}");
    assert!(report.source_type.accuracy >= 0.826, "{report}");
}
