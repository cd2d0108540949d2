//! Test helpers: documents with hand-placed attributions.

use attest_doc::{Article, Attribution, AttributionKind, Doc, Limits, Span};

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

/// A segmented document holding `attributions`.
pub(crate) fn doc_with(text: &str, attributions: Vec<Attribution>) -> Doc {
    let mut doc = Doc::new(Article::new("test", text));
    doc.set_segmentation(attest_text::segment(text, &Limits::DEFAULT))
        .expect("the segmenter's output fits");
    doc.set_attributions(attributions).expect("the spans fit");
    doc
}
