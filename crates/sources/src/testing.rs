//! Test helpers: documents with hand-placed attributions.

use attest_doc::{Article, Attribution, AttributionKind, Doc, Span};

/// The stages before the attributions, shared with the integration tests.
#[path = "../tests/common/mod.rs"]
mod common;

/// The span of the first occurrence of `needle` in `text`; no span for `""`.
pub(crate) fn find(text: &str, needle: &str) -> Vec<Span> {
    if needle.is_empty() {
        return Vec::new();
    }
    let start = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle:?} is not in the text"));
    vec![Span::must(start, start + needle.len())]
}

/// An attribution from the first occurrences of its three parts.
pub(crate) fn attribution(text: &str, source: &str, cue: &str, content: &str) -> Attribution {
    Attribution {
        source: find(text, source),
        cue: find(text, cue),
        content: find(text, content),
        kind: AttributionKind::Indirect,
        confidence: 1.0,
    }
}

/// A segmented, POS-tagged document with its entities, holding `attributions`.
pub(crate) fn doc_with(text: &str, attributions: Vec<Attribution>) -> Doc {
    let mut doc = Doc::new(Article::new("test", text));
    common::prepare(&mut doc).expect("the earlier stages run");
    doc.set_attributions(attributions).expect("the spans fit");
    doc
}
