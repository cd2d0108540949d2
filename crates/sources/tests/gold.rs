//! The gold-set targets: every score at least 0.90 with oracle attributions.

use std::path::Path;

#[test]
fn gold_set_meets_the_targets() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/gold");
    let report = attest_sources::eval_gold(&dir, &|text| {
        attest_text::segment(text, &attest_doc::Limits::DEFAULT)
    })
    .expect("the gold set reads");
    println!("{report}");
    assert!(report.articles >= 25, "{} articles", report.articles);
    assert!(report.meets(0.90), "{report}");
}
