//! Quotations: the passages of an article between paired double quotation marks.
//!
//! Quotations are found from the tokens, inside one paragraph at a time, so an
//! unclosed mark never swallows the rest of the article. Curly marks say which
//! way they face; a straight `"` opens when no quotation is open and closes
//! otherwise. Single marks are left alone: they double as apostrophes.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};

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

/// For each quotation, the first attribution (by index) whose content
/// overlaps it: one sweep over quotations and contents by position, so that
/// an article of n quoted statements costs n log n, not n².
pub(crate) fn speaking_attribution(doc: &Doc, quotes: &[Span]) -> Vec<Option<usize>> {
    let mut contents: Vec<(Span, usize)> = doc
        .attributions()
        .iter()
        .enumerate()
        .flat_map(|(index, a)| a.content.iter().map(move |span| (*span, index)))
        .collect();
    contents.sort_unstable_by_key(|(span, index)| (span.byte_start(), *index));
    let mut order: Vec<usize> = (0..quotes.len()).collect();
    order.sort_unstable_by_key(|&q| quotes.get(q).map(|s| s.byte_start()));
    let mut found = vec![None; quotes.len()];
    let mut next = contents.iter().peekable();
    // The contents begun before the quotation being looked at and not yet
    // ended: by attribution (how many of its spans), and by end to expire them.
    let mut open: BTreeMap<usize, usize> = BTreeMap::new();
    let mut ends: BinaryHeap<Reverse<(usize, usize)>> = BinaryHeap::new();
    for q in order {
        let Some(quote) = quotes.get(q) else { continue };
        while let Some((span, index)) =
            next.next_if(|(span, _)| span.byte_start() < quote.byte_end())
        {
            *open.entry(*index).or_default() += 1;
            ends.push(Reverse((span.byte_end(), *index)));
        }
        while let Some(Reverse((end, index))) = ends.peek().copied()
            && end <= quote.byte_start()
        {
            ends.pop();
            if let Some(count) = open.get_mut(&index) {
                *count -= 1;
                if *count == 0 {
                    open.remove(&index);
                }
            }
        }
        if let Some(slot) = found.get_mut(q) {
            *slot = open.keys().next().copied();
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::segmented;
    use attest_doc::{Attribution, AttributionKind};
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn the_sweep_finds_what_a_search_through_every_attribution_finds(
            contents in prop::collection::vec(prop::collection::vec((0usize..60, 1usize..20), 0..3), 0..12),
            cuts in prop::collection::vec(0usize..80, 0..16),
        ) {
            let text = "x".repeat(100);
            let mut doc = Doc::new(attest_doc::Article::new("p", text.as_str()));
            let attributions = contents
                .iter()
                .map(|spans| Attribution {
                    source: Vec::new(),
                    cue: Vec::new(),
                    content: spans.iter().map(|(s, l)| Span::must(*s, s + l)).collect(),
                    kind: AttributionKind::Direct,
                    confidence: 1.0,
                })
                .collect();
            doc.set_attributions(attributions).unwrap();
            // Disjoint quotations in text order, as `find_quotes` gives them.
            let mut cuts = cuts;
            cuts.sort_unstable();
            cuts.dedup();
            let quotes: Vec<Span> = cuts.chunks_exact(2).map(|c| Span::must(c[0], c[1] + 1)).collect();
            let expected: Vec<Option<usize>> = quotes
                .iter()
                .map(|q| doc.attributions().iter().position(|a| a.content.iter().any(|c| c.overlaps(*q))))
                .collect();
            prop_assert_eq!(speaking_attribution(&doc, &quotes), expected);
        }
    }

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
