//! One read-only view of a document's tokens, for the stages that match words
//! and tags by hand (sources, numbers, attribution conventions).
//!
//! It borrows what segmentation and tagging made: the text, the tokens, their
//! folded words ([`FoldedWords`]), their part-of-speech tags and the sentences.
//! Building one allocates nothing, so a function that holds a [`Doc`] may make
//! its own. Every lookup by token index answers past the end too (`""`,
//! `None` or `false`), so that matchers looking ahead need no bounds checks,
//! and every lookup by span is a binary search over the tokens.
//!
//! What a word is (a plural noun, a past verb, a function word) is asked of
//! its [`PosTag`], whose classes are its methods: `view.tag_is(i,
//! PosTag::is_plural_noun)`.

use std::ops::Range;

use crate::{Doc, FoldedWords, Layer, PosTag, Sentence, Span, Token, TokenKind};

/// A document's tokens with their folded words, tags and sentences.
#[derive(Clone, Copy, Debug)]
pub struct TokenView<'a> {
    text: &'a str,
    tokens: &'a [Token],
    folded: &'a FoldedWords,
    /// The part-of-speech tags, empty when the document has none.
    pos: &'a [PosTag],
    sentences: &'a [Sentence],
}

impl<'a> TokenView<'a> {
    /// The view of a segmented document; without segmentation it has no tokens.
    pub fn new(doc: &'a Doc) -> TokenView<'a> {
        TokenView {
            text: doc.text(),
            tokens: doc.tokens(),
            folded: doc.folded(),
            pos: if doc.has(Layer::Pos) { doc.pos() } else { &[] },
            sentences: doc.sentences(),
        }
    }

    /// The article text the tokens are spans of.
    pub fn text(&self) -> &'a str {
        self.text
    }

    /// The tokens.
    pub fn tokens(&self) -> &'a [Token] {
        self.tokens
    }

    /// How many tokens there are.
    pub fn len(&self) -> usize {
        self.tokens.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }

    /// The folded word of token `i` (lowercase, straight apostrophes), or
    /// `""` past the end.
    pub fn word(&self, i: usize) -> &'a str {
        self.folded.get(i)
    }

    /// Token `i` as written, or `""` past the end.
    pub fn raw(&self, i: usize) -> &'a str {
        self.tokens
            .get(i)
            .and_then(|t| t.span.get(self.text))
            .unwrap_or("")
    }

    /// Where token `i` stands.
    pub fn span(&self, i: usize) -> Option<Span> {
        self.tokens.get(i).map(|t| t.span)
    }

    /// What kind of text token `i` is.
    pub fn kind(&self, i: usize) -> Option<TokenKind> {
        self.tokens.get(i).map(|t| t.kind)
    }

    /// The part-of-speech tag of token `i`; `None` past the end or in a
    /// document without tags.
    pub fn pos(&self, i: usize) -> Option<PosTag> {
        self.pos.get(i).copied()
    }

    /// Whether token `i` has a tag of that class (a [`PosTag`] method); false
    /// past the end or in a document without tags.
    pub fn tag_is(&self, i: usize, class: impl Fn(PosTag) -> bool) -> bool {
        self.pos(i).is_some_and(class)
    }

    /// Whether token `i`, of any kind, starts with an uppercase letter.
    pub fn starts_upper(&self, i: usize) -> bool {
        self.raw(i).chars().next().is_some_and(char::is_uppercase)
    }

    /// Whether token `i` is a word that starts with an uppercase letter.
    pub fn is_capitalized(&self, i: usize) -> bool {
        self.kind(i) == Some(TokenKind::Word) && self.starts_upper(i)
    }

    /// The byte offsets from the start of token `first` to the end of token
    /// `last`, when both exist in that order.
    pub fn bytes(&self, first: usize, last: usize) -> Option<(usize, usize)> {
        let start = self.tokens.get(first)?.span.byte_start();
        let end = self.tokens.get(last)?.span.byte_end();
        (start <= end).then_some((start, end))
    }

    /// Whether token `i` ends exactly where token `i + 1` starts ("US" + "$").
    pub fn glued(&self, i: usize) -> bool {
        match (self.tokens.get(i), self.tokens.get(i + 1)) {
            (Some(a), Some(b)) => a.span.byte_end() == b.span.byte_start(),
            _ => false,
        }
    }

    /// Whether a line break lies between token `i` and the next one (or
    /// there is no next one).
    pub fn breaks_after(&self, i: usize) -> bool {
        match (self.tokens.get(i), self.tokens.get(i + 1)) {
            (Some(this), Some(next)) => self
                .text
                .get(this.span.byte_end()..next.span.byte_start())
                .is_none_or(|gap| gap.contains(['\n', '\r'])),
            _ => true,
        }
    }

    /// The token range of every sentence, in order.
    pub fn sentence_ranges(&self) -> impl Iterator<Item = Range<usize>> + 'a {
        let len = self.tokens.len();
        self.sentences
            .iter()
            .map(move |s| s.tokens.start.index()..s.tokens.end.index().min(len))
    }

    /// The index of the sentence holding token `i` (the number of sentences
    /// that end before it).
    pub fn sentence_index(&self, i: usize) -> usize {
        let len = self.tokens.len();
        self.sentences
            .partition_point(|s| s.tokens.end.index().min(len) <= i)
    }

    /// The token range of the sentence holding token `i`; the token alone
    /// when no sentence holds it.
    pub fn sentence_of(&self, i: usize) -> Range<usize> {
        let len = self.tokens.len();
        match self.sentences.get(self.sentence_index(i)) {
            Some(s) if s.tokens.start.index() <= i => {
                s.tokens.start.index()..s.tokens.end.index().min(len)
            }
            _ => i..(i + 1).min(len),
        }
    }

    /// The token indices whose spans lie wholly inside `span`.
    pub fn tokens_in(&self, span: Span) -> Range<usize> {
        let start = self
            .tokens
            .partition_point(|t| t.span.byte_start() < span.byte_start());
        let end = self
            .tokens
            .partition_point(|t| t.span.byte_end() <= span.byte_end());
        start..end.max(start)
    }

    /// The tokens inside any of `spans`, in order, each once.
    pub fn tokens_of(&self, spans: &[Span]) -> Vec<usize> {
        let mut all: Vec<usize> = spans
            .iter()
            .flat_map(|span| self.tokens_in(*span))
            .collect();
        all.sort_unstable();
        all.dedup();
        all
    }

    /// The spans of a token list, adjacent tokens merged into one span.
    pub fn merged_spans(&self, indices: &[usize]) -> Vec<Span> {
        let mut sorted: Vec<usize> = indices.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        let mut spans: Vec<Span> = Vec::new();
        let mut previous: Option<usize> = None;
        for i in sorted {
            let Some(span) = self.span(i) else { continue };
            match (previous, spans.last_mut()) {
                (Some(p), Some(last)) if p + 1 == i => *last = last.cover(span),
                _ => spans.push(span),
            }
            previous = Some(i);
        }
        spans
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Article, Paragraph, ParagraphRole, Segmentation, SentenceId, TokenId};

    /// A document of space-separated tokens in one sentence, tagged when
    /// `tags` names one tag per token.
    fn doc(text: &str, tags: &[&str]) -> Doc {
        let mut tokens = Vec::new();
        let mut at = 0;
        for word in text.split(' ') {
            let kind = match word {
                "." | "," => TokenKind::Punct,
                _ if word.contains('@') => TokenKind::Email,
                _ => TokenKind::Word,
            };
            tokens.push(Token {
                span: Span::must(at, at + word.len()),
                kind,
            });
            at += word.len() + 1;
        }
        let ends = [tokens.len()];
        let mut doc = segmented(text, tokens, &ends);
        if !tags.is_empty() {
            let tags = tags.iter().map(|t| PosTag::from_name(t).unwrap()).collect();
            doc.set_pos(tags).unwrap();
        }
        doc
    }

    /// A document of `tokens` in one paragraph, whose sentences end before
    /// each token index of `ends`.
    fn segmented(text: &str, tokens: Vec<Token>, ends: &[usize]) -> Doc {
        let starts = std::iter::once(0).chain(ends.iter().copied());
        let sentences = starts
            .zip(ends)
            .map(|(start, &end)| Sentence {
                span: tokens[start].span.cover(tokens[end - 1].span),
                tokens: TokenId::must(start)..TokenId::must(end),
            })
            .collect();
        let paragraphs = vec![Paragraph {
            span: Span::must(0, text.len()),
            sentences: SentenceId::must(0)..SentenceId::must(ends.len()),
            role: ParagraphRole::Body,
        }];
        let mut doc = Doc::new(Article::new("t", text));
        let segmentation = Segmentation {
            tokens,
            sentences,
            paragraphs,
        };
        doc.set_segmentation(segmentation).unwrap();
        doc
    }

    #[test]
    fn words_are_folded_and_raw_as_written_with_nothing_past_the_end() {
        let doc = doc("Ann’s DOG barked .", &[]);
        let view = TokenView::new(&doc);
        assert_eq!(view.len(), 4);
        assert_eq!((view.word(0), view.raw(0)), ("ann's", "Ann’s"));
        assert_eq!((view.word(1), view.raw(1)), ("dog", "DOG"));
        assert_eq!((view.word(9), view.raw(9)), ("", ""));
        assert_eq!(view.kind(3), Some(TokenKind::Punct));
        assert_eq!((view.span(9), view.kind(9)), (None, None));
        assert!(view.is_capitalized(0) && !view.is_capitalized(2));
        assert!(!view.is_capitalized(9) && !view.starts_upper(9));
    }

    #[test]
    fn a_capitalized_token_is_a_word_where_starting_upper_is_any_token() {
        let doc = doc("Lee@example.org wrote", &[]);
        let view = TokenView::new(&doc);
        assert!(view.starts_upper(0));
        assert!(!view.is_capitalized(0), "an e-mail address is no word");
    }

    #[test]
    fn tag_classes_are_read_only_in_a_tagged_document() {
        let untagged = doc("Officials said .", &[]);
        let view = TokenView::new(&untagged);
        assert_eq!(view.pos(0), None);
        assert!(!view.tag_is(0, PosTag::is_plural_noun));

        let tagged = doc("Officials said .", &["NNS", "VBD", "."]);
        let view = TokenView::new(&tagged);
        assert_eq!(view.pos(1), Some(PosTag::Vbd));
        assert!(view.tag_is(0, PosTag::is_plural_noun));
        assert!(view.tag_is(1, PosTag::is_past_form));
        assert!(!view.tag_is(1, PosTag::is_noun));
        assert!(!view.tag_is(3, PosTag::is_past_form), "past the end");
    }

    #[test]
    fn sentences_hold_their_tokens() {
        let text = "Ann spoke . Lee left early .";
        let tokens = doc(text, &[]).tokens().to_vec();
        let doc = segmented(text, tokens, &[3, 7]);
        let view = TokenView::new(&doc);
        assert_eq!(view.sentence_ranges().collect::<Vec<_>>(), [0..3, 3..7]);
        assert_eq!((view.sentence_index(2), view.sentence_of(2)), (0, 0..3));
        assert_eq!((view.sentence_index(3), view.sentence_of(3)), (1, 3..7));
        assert!(view.sentence_of(9).is_empty(), "no sentence past the end");
    }

    #[test]
    fn spans_map_to_tokens_and_back() {
        let doc = doc("Ann said no , twice .", &[]);
        let view = TokenView::new(&doc);
        assert_eq!(view.tokens_in(Span::must(4, 11)), 1..3);
        assert_eq!(view.tokens_in(Span::must(5, 6)), 2..2, "inside one token");
        assert_eq!(view.tokens_in(Span::must(0, doc.text().len())), 0..6);
        assert_eq!(
            view.tokens_of(&[Span::must(4, 8), Span::must(0, 8)]),
            [0, 1]
        );
        assert_eq!(
            view.merged_spans(&[4, 0, 1, 1]),
            [Span::must(0, 8), Span::must(14, 19)]
        );
        assert_eq!(view.bytes(1, 2), Some((4, 11)));
        assert_eq!((view.bytes(2, 1), view.bytes(1, 9)), (None, None));
    }

    #[test]
    fn gaps_between_tokens_tell_glue_and_line_breaks() {
        let token = |start, end, kind| Token {
            span: Span::must(start, end),
            kind,
        };
        let doc = segmented(
            "US$ 5\nmore",
            vec![
                token(0, 2, TokenKind::Word),
                token(2, 3, TokenKind::Symbol),
                token(4, 5, TokenKind::Number),
                token(6, 10, TokenKind::Word),
            ],
            &[4],
        );
        let view = TokenView::new(&doc);
        assert!(view.glued(0) && !view.glued(1) && !view.glued(3));
        assert!(!view.breaks_after(0) && view.breaks_after(2));
        assert!(view.breaks_after(3), "the last token ends its line");
    }
}
