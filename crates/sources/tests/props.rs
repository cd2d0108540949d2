//! The three stages never panic and every span they produce fits the text, on
//! arbitrary text, segmented, tagged and with its entities, with arbitrary
//! valid attributions.

use attest_doc::{Article, Attribution, AttributionKind, Doc, Span, Stage};
use attest_sources::{HedgeFinder, SourceResolver, StanceClassifier};
use proptest::prelude::*;

mod common;

/// Words the stages react to, mixed with noise, so the rules are exercised.
const WORDS: &[&str] = &[
    "said",
    "he",
    "she",
    "they",
    "it",
    "The",
    "the",
    "company",
    "Mr.",
    "Smith",
    "Acme",
    "Inc.",
    "officials",
    "reportedly",
    "according",
    "to",
    "reports",
    "did",
    "not",
    "declined",
    "confirm",
    "a",
    "spokesperson",
    "for",
    "Ann",
    "Lee",
    ",",
    ".",
    "“",
    "”",
    "\n\n",
    "is",
    "believed",
    "who",
    "’s",
    "Police",
    "report",
    "wrote",
    "on",
    "Facebook",
    "é",
    "—",
    ";",
];

fn text_strategy() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::collection::vec(prop::sample::select(WORDS), 0..60).prop_map(|w| w.join(" ")),
        "\\PC{0,80}",
    ]
}

/// Spans snapped to char boundaries from arbitrary offsets.
fn spans(text: &str, raw: &[(usize, usize)]) -> Vec<Span> {
    let snap = |mut i: usize| {
        i = i.min(text.len());
        while !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    raw.iter()
        .map(|&(a, b)| {
            let (a, b) = (snap(a), snap(b));
            Span::try_new_in(text, a.min(b), a.max(b)).expect("snapped")
        })
        .collect()
}

proptest! {
    #[test]
    fn stages_never_panic_and_spans_fit(
        text in text_strategy(),
        raw in prop::collection::vec(
            (prop::collection::vec((0usize..400, 0usize..400), 0..3),
             prop::collection::vec((0usize..400, 0usize..400), 0..3),
             prop::collection::vec((0usize..400, 0usize..400), 0..3)),
            0..6,
        ),
    ) {
        let mut doc = Doc::new(Article::new("p", text.clone()));
        common::prepare(&mut doc).unwrap();
        let attributions = raw
            .iter()
            .map(|(s, c, t)| Attribution {
                source: spans(&text, s),
                cue: spans(&text, c),
                content: spans(&text, t),
                kind: AttributionKind::Indirect,
                confidence: 0.5,
            })
            .collect();
        doc.set_attributions(attributions).unwrap();
        // Each `run` checks its layer against the text: an error is a span
        // that does not fit.
        StanceClassifier::rules().run(&mut doc).unwrap();
        SourceResolver::rules().run(&mut doc).unwrap();
        HedgeFinder::rules().run(&mut doc).unwrap();
        prop_assert_eq!(doc.stances().len(), doc.attributions().len());
        for source in doc.sources() {
            prop_assert!(!source.attributions.is_empty());
            for span in source.mentions.iter().chain(&source.descriptors) {
                prop_assert!(span.get(&text).is_some());
            }
        }
        for hedge in doc.hedges() {
            prop_assert!(hedge.cue.get(&text).is_some() && hedge.scope.get(&text).is_some());
        }
    }
}
