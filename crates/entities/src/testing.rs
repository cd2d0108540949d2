//! Documents and mentions for unit tests.

use attest_doc::{Article, Doc, EntityLabel, Limits, PosTag, Span};

/// A document segmented by attest-text, each capitalized word tagged NNP and
/// every other token NN.
pub(crate) fn doc_of(text: &str) -> Doc {
    let mut doc = Doc::new(Article::new("t", text));
    doc.set_segmentation(attest_text::segment(text, &Limits::DEFAULT))
        .unwrap();
    let pos = doc
        .tokens()
        .iter()
        .map(|t| {
            let capital = t.span.slice(text).starts_with(char::is_uppercase);
            PosTag::from_name(if capital { "NNP" } else { "NN" }).unwrap()
        })
        .collect();
    doc.set_pos(pos).unwrap();
    doc
}

/// The spans of `mentions`, each found after the one before it in `text`.
pub(crate) fn mentions_in(
    text: &str,
    mentions: &[(&str, EntityLabel)],
) -> Vec<(Span, EntityLabel)> {
    let mut from = 0;
    mentions
        .iter()
        .map(|(words, label)| {
            let start = from + text[from..].find(words).unwrap();
            from = start + words.len();
            (Span::must(start, from), *label)
        })
        .collect()
}
