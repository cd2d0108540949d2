//! The bundled sample article, with its attributions placed by hand
//! (`tests/data/sample.gold`): every source with its type, every stance class
//! it holds, and its hedge.

use std::collections::BTreeSet;
use std::path::Path;

use attest_doc::{SourceKind, StanceLabel};
use attest_sources::{analyse_gold, evaluate, parse_gold};

mod common;

use common::prepare;

#[test]
fn sample_article_sources_stances_and_hedges() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("../cli/sample/article.txt"))
        .expect("the bundled sample article");
    let gold_path = root.join("tests/data/sample.gold");
    let gold = std::fs::read_to_string(&gold_path).expect("its annotation");
    let article = parse_gold("sample", text, &gold, &gold_path).expect("a valid annotation");

    let report =
        evaluate(std::slice::from_ref(&article), &prepare, models()).expect("the stages run");
    assert!(report.mistakes.is_empty(), "{report}");
    assert_eq!(report.hedges.true_pos, 1, "{report}");

    let doc = analyse_gold(&article, &prepare, models()).expect("the stages run");
    let kinds: BTreeSet<String> = doc
        .sources()
        .iter()
        .map(|s| format!("{:?}", s.kind))
        .collect();
    for kind in [
        SourceKind::Person,
        SourceKind::Organization,
        SourceKind::Unnamed,
        SourceKind::Document,
        SourceKind::SocialMedia,
    ] {
        assert!(
            kinds.contains(&format!("{kind:?}")),
            "{kind:?} in {kinds:?}"
        );
    }
    let labels: BTreeSet<String> = doc
        .stances()
        .iter()
        .map(|s| format!("{:?}", s.label))
        .collect();
    for label in [
        StanceLabel::Asserts,
        StanceLabel::Confirms,
        StanceLabel::Declines,
        StanceLabel::Denies,
        StanceLabel::Claims,
        StanceLabel::Believes,
        StanceLabel::Intends,
    ] {
        assert!(
            labels.contains(&format!("{label:?}")),
            "{label:?} in {labels:?}"
        );
    }
    let reyes = doc
        .sources()
        .iter()
        .find(|s| s.name == "Jamal Reyes")
        .expect("Reyes is a source");
    let descriptors: Vec<&str> = reyes
        .descriptors
        .iter()
        .map(|d| doc.span_text(*d))
        .collect();
    assert!(
        descriptors.contains(&"a 34-year-old crane operator"),
        "{descriptors:?}"
    );
    let okafor = doc
        .sources()
        .iter()
        .find(|s| s.name == "Marisol Okafor")
        .expect("Okafor is a source");
    assert_eq!(
        okafor.attributions.len(),
        4,
        "the quote paragraph inherits her"
    );
    assert_eq!(okafor.gender, None, "no pronoun or honorific states it");
}

/// The bundled learned source stages.
fn models() -> &'static attest_sources::SourcingModels {
    attest_sources::SourcingModels::shared().expect("the bundled sourcing models load")
}
