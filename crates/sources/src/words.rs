//! What the sourcing stages ask of a token beyond [`attest_doc::TokenView`].
//!
//! Every lookup goes through the document's one token view, so no stage runs
//! a regex or rescans text per token; what only these stages need lives here.

use attest_doc::{TokenKind, TokenView};

/// Whether token `i` is punctuation that closes a phrase for the stages'
/// look-around windows (commas, quotes, dashes, sentence ends); true past
/// the end.
pub(crate) fn is_break(view: &TokenView<'_>, i: usize) -> bool {
    matches!(
        view.kind(i),
        Some(TokenKind::Punct | TokenKind::Quote | TokenKind::Dash) | None
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use attest_doc::{Article, Doc, Limits};

    #[test]
    fn punctuation_quotes_dashes_and_the_end_break_a_phrase() {
        let text = "Ann said — “no,” twice.";
        let mut doc = Doc::new(Article::new("t", text));
        doc.set_segmentation(attest_text::segment(text, &Limits::DEFAULT))
            .unwrap();
        let view = TokenView::new(&doc);
        let breaks: Vec<&str> = (0..view.len())
            .filter(|&i| is_break(&view, i))
            .map(|i| view.raw(i))
            .collect();
        assert_eq!(breaks, ["—", "“", ",", "”", "."]);
        assert!(is_break(&view, view.len()), "past the end");
    }
}
