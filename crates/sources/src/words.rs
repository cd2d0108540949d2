//! Token helpers the three stages share: folded word forms and span lookups.
//!
//! Every lookup is a binary search over the token layer, and word forms are
//! the document's folded words ([`Doc::folded`]), so no stage runs a regex or
//! rescans text per token.

use std::ops::Range;

use attest_doc::{Doc, FoldedWords, Layer, PosTag, Span, Token, TokenKind};

/// The token indices whose spans lie wholly inside `span`.
pub(crate) fn tokens_in(tokens: &[Token], span: Span) -> Range<usize> {
    let start = tokens.partition_point(|t| t.span.byte_start() < span.byte_start());
    let end = tokens.partition_point(|t| t.span.byte_end() <= span.byte_end());
    start..end.max(start)
}

/// An article's tokens with their folded forms and sentence bounds, built once
/// per stage run.
pub(crate) struct View<'a> {
    pub(crate) text: &'a str,
    pub(crate) tokens: &'a [Token],
    /// The folded form of every token, made once per document.
    folded: &'a FoldedWords,
    /// The part-of-speech tags, empty when the document has none.
    pos: &'a [PosTag],
    /// For each sentence, its token range.
    sentences: Vec<Range<usize>>,
}

impl<'a> View<'a> {
    pub(crate) fn new(doc: &'a Doc) -> View<'a> {
        let text = doc.text();
        let tokens = doc.tokens();
        let sentences = doc
            .sentences()
            .iter()
            .map(|s| s.tokens.start.index()..s.tokens.end.index().min(tokens.len()))
            .collect();
        View {
            text,
            tokens,
            folded: doc.folded(),
            pos: if doc.has(Layer::Pos) { doc.pos() } else { &[] },
            sentences,
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.tokens.len()
    }

    /// The folded form of token `i`, or `""` past the end.
    pub(crate) fn word(&self, i: usize) -> &'a str {
        self.folded.get(i)
    }

    /// The original text of token `i`, or `""` past the end.
    pub(crate) fn raw(&self, i: usize) -> &'a str {
        self.tokens
            .get(i)
            .and_then(|t| t.span.get(self.text))
            .unwrap_or("")
    }

    pub(crate) fn span(&self, i: usize) -> Option<Span> {
        self.tokens.get(i).map(|t| t.span)
    }

    pub(crate) fn kind(&self, i: usize) -> Option<TokenKind> {
        self.tokens.get(i).map(|t| t.kind)
    }

    /// Whether token `i` is punctuation that closes a phrase for the stages'
    /// look-around windows (commas, quotes, dashes, sentence ends).
    pub(crate) fn is_break(&self, i: usize) -> bool {
        matches!(
            self.kind(i),
            Some(TokenKind::Punct | TokenKind::Quote | TokenKind::Dash) | None
        )
    }

    /// The part-of-speech tag of token `i`, when the document has tags.
    pub(crate) fn tag(&self, i: usize) -> Option<&'static str> {
        self.pos.get(i).map(|tag| tag.name())
    }

    /// The part-of-speech tag of token `i`, whose classes are its methods;
    /// `None` past the end or in a document without tags.
    pub(crate) fn pos(&self, i: usize) -> Option<PosTag> {
        self.pos.get(i).copied()
    }

    /// Whether token `i` starts with an uppercase letter.
    pub(crate) fn is_capitalized(&self, i: usize) -> bool {
        self.kind(i) == Some(TokenKind::Word)
            && self.raw(i).chars().next().is_some_and(char::is_uppercase)
    }

    /// Whether token `i` is tagged a function word (a determiner, conjunction,
    /// preposition, pronoun, adverb or modal), which no name begins with;
    /// false in a document without tags.
    pub(crate) fn is_function_word(&self, i: usize) -> bool {
        self.pos.get(i).is_some_and(|tag| tag.is_function_word())
    }

    /// The token range of the sentence holding token `i`.
    pub(crate) fn sentence_of(&self, i: usize) -> Range<usize> {
        match self.sentences.get(self.sentence_index(i)) {
            Some(range) if range.start <= i => range.clone(),
            _ => i..(i + 1).min(self.len()),
        }
    }

    /// The index of the sentence holding token `i` (the number of sentences
    /// that end before it).
    pub(crate) fn sentence_index(&self, i: usize) -> usize {
        self.sentences.partition_point(|s| s.end <= i)
    }

    /// The tokens inside any of `spans`, in order, each once.
    pub(crate) fn tokens_of(&self, spans: &[Span]) -> Vec<usize> {
        let mut all: Vec<usize> = spans
            .iter()
            .flat_map(|span| tokens_in(self.tokens, *span))
            .collect();
        all.sort_unstable();
        all.dedup();
        all
    }

    /// The spans of a token list, adjacent tokens merged into one span.
    pub(crate) fn merged_spans(&self, indices: &[usize]) -> Vec<Span> {
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

    #[test]
    fn finds_tokens_inside_a_span() {
        let text = "Ann said no.";
        let tokens: Vec<Token> = [(0, 3), (4, 8), (9, 11), (11, 12)]
            .into_iter()
            .map(|(s, e)| Token {
                span: Span::must(s, e),
                kind: TokenKind::Word,
            })
            .collect();
        assert_eq!(tokens_in(&tokens, Span::must(4, 11)), 1..3);
        assert_eq!(
            tokens_in(&tokens, Span::must(5, 6)),
            2..2,
            "inside one token"
        );
        assert_eq!(tokens_in(&tokens, Span::must(0, text.len())), 0..4);
    }
}
