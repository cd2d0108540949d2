//! Quotations: the passages of an article between paired double quotation marks.
//!
//! Quotations are found from the tokens, inside one paragraph at a time, so an
//! unclosed mark never swallows the rest of the article. Curly marks say which
//! way they face; a straight `"` opens when no quotation is open and closes
//! otherwise. Single marks are left alone: they double as apostrophes.

use attest_doc::{Doc, Span, TokenKind};

/// The quotations of a segmented document, each from its opening mark to its
/// closing mark inclusive, in text order.
pub(crate) fn find_quotes(doc: &Doc) -> Vec<Span> {
    let mut quotes = Vec::new();
    for paragraph in doc.paragraphs() {
        let mut open: Option<Span> = None;
        let sentences = doc
            .sentences()
            .get(paragraph.sentences.start.index()..paragraph.sentences.end.index())
            .unwrap_or_default();
        let (Some(first), Some(last)) = (sentences.first(), sentences.last()) else {
            continue;
        };
        let tokens = doc
            .tokens()
            .get(first.tokens.start.index()..last.tokens.end.index())
            .unwrap_or_default();
        for token in tokens.iter().filter(|token| token.kind == TokenKind::Quote) {
            match doc.span_text(token.span) {
                "“" | "«" | "``" => open = Some(token.span),
                "”" | "»" | "''" => {
                    if let Some(start) = open.take() {
                        quotes.push(start.cover(token.span));
                    }
                }
                "\"" => match open.take() {
                    Some(start) => quotes.push(start.cover(token.span)),
                    None => open = Some(token.span),
                },
                _ => {}
            }
        }
    }
    quotes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::segmented;

    fn quotes(text: &str) -> Vec<String> {
        let doc = segmented(text);
        find_quotes(&doc)
            .into_iter()
            .map(|span| doc.span_text(span).to_string())
            .collect()
    }

    #[test]
    fn pairs_curly_and_straight_marks_within_a_paragraph() {
        assert_eq!(
            quotes("“We will not sign,” she said. He said \"maybe later\" and left."),
            ["“We will not sign,”", "\"maybe later\""]
        );
    }

    #[test]
    fn an_unclosed_mark_ends_with_its_paragraph() {
        assert_eq!(
            quotes("“We will not sign, she said.\n\nThe talks went on. “Fine,” he said."),
            ["“Fine,”"]
        );
    }

    #[test]
    fn apostrophes_are_not_quotations() {
        assert!(quotes("The union's offer isn't final, it said.").is_empty());
    }
}
