//! A read-only view of a document's tokens that both taggers match over.
//!
//! Words are compared in the document's folded form ([`Doc::folded`]), made
//! once when it was segmented: matching compares slices and never allocates
//! in the loop. What a word is (a plural noun, an adjective, a past verb) is
//! read from the part-of-speech layer, which both taggers require.

use attest_doc::{Doc, FoldedWords, PosTag, Token, TokenKind};
use attest_lang::MonthForm;

pub(crate) struct View<'a> {
    text: &'a str,
    folded: &'a FoldedWords,
    tokens: &'a [Token],
    pos: &'a [PosTag],
}

impl<'a> View<'a> {
    pub(crate) fn new(doc: &'a Doc) -> View<'a> {
        View {
            text: doc.text(),
            folded: doc.folded(),
            tokens: doc.tokens(),
            pos: doc.pos(),
        }
    }

    /// Whether token `i` has a tag of that class; false past the end.
    fn tag_is(&self, i: usize, class: impl Fn(PosTag) -> bool) -> bool {
        self.pos.get(i).is_some_and(|tag| class(*tag))
    }

    /// A plural noun: "workers", "people", "Democrats".
    pub(crate) fn is_plural(&self, i: usize) -> bool {
        self.tag_is(i, PosTag::is_plural_noun)
    }

    /// An adjective: "new", "former", "undocumented".
    pub(crate) fn is_adjective(&self, i: usize) -> bool {
        self.tag_is(i, PosTag::is_adjective)
    }

    /// A verb in the past tense or a past participle: "said", "killed".
    pub(crate) fn is_past_form(&self, i: usize) -> bool {
        self.tag_is(i, PosTag::is_past_form)
    }

    /// A verb in the past tense. A participle alone says no tense: its
    /// auxiliary does ("was set" is past, "is set for May 5" is not).
    pub(crate) fn is_past_tense(&self, i: usize) -> bool {
        self.tag_is(i, PosTag::is_past_tense)
    }

    /// A verb form or a plain adverb, which no counted noun is: "injured",
    /// "killing", "nearly".
    pub(crate) fn is_verb_form_or_adverb(&self, i: usize) -> bool {
        self.tag_is(i, |tag| {
            tag.is_past_form() || tag.is_gerund() || tag.name() == "RB"
        })
    }

    pub(crate) fn len(&self) -> usize {
        self.tokens.len()
    }

    /// The token as written; "" past the end, so matchers need no bounds checks.
    pub(crate) fn w(&self, i: usize) -> &str {
        self.tokens
            .get(i)
            .and_then(|t| t.span.get(self.text))
            .unwrap_or("")
    }

    /// The token folded (lowercase, straight apostrophes); "" past the end.
    pub(crate) fn l(&self, i: usize) -> &str {
        self.folded.get(i)
    }

    pub(crate) fn kind(&self, i: usize) -> Option<TokenKind> {
        self.tokens.get(i).map(|t| t.kind)
    }

    /// Whether the tokens from `i` read `words` (lowercase).
    pub(crate) fn seq(&self, i: usize, words: &[&str]) -> bool {
        words
            .iter()
            .enumerate()
            .all(|(k, word)| self.l(i + k) == *word)
    }

    /// The byte offsets from the start of token `first` to the end of token `last`.
    pub(crate) fn bytes(&self, first: usize, last: usize) -> Option<(usize, usize)> {
        let start = self.tokens.get(first)?.span.byte_start();
        let end = self.tokens.get(last)?.span.byte_end();
        (start <= end).then_some((start, end))
    }

    /// Whether token `i` ends exactly where token `i + 1` starts ("US" + "$").
    pub(crate) fn glued(&self, i: usize) -> bool {
        match (self.tokens.get(i), self.tokens.get(i + 1)) {
            (Some(a), Some(b)) => a.span.byte_end() == b.span.byte_start(),
            _ => false,
        }
    }

    pub(crate) fn is_capitalized(&self, i: usize) -> bool {
        self.w(i).chars().next().is_some_and(char::is_uppercase)
    }
}

/// The month of a month name or abbreviation ("sept.", "jan").
pub(crate) fn month(lower: &str) -> Option<i8> {
    attest_lang::month(lower).map(|month| month.number)
}

/// A month name as a date word: capitalized, and abbreviated only with its
/// period or in a spelling that is no English word ("Sept"), since "mar" is one.
pub(crate) fn month_at(view: &View<'_>, i: usize) -> Option<i8> {
    if !view.is_capitalized(i) {
        return None;
    }
    let month = attest_lang::month(view.l(i))?;
    let date_word = match month.form {
        MonthForm::Name | MonthForm::Bare => true,
        MonthForm::Abbreviation => view.w(i).ends_with('.'),
    };
    date_word.then_some(month.number)
}

/// Whether a token is "a.m."/"p.m." or a spelling of them; `Some(true)` for p.m.
pub(crate) fn meridiem(lower: &str) -> Option<bool> {
    match lower {
        "a.m." | "a.m" | "am" => Some(false),
        "p.m." | "p.m" | "pm" => Some(true),
        _ => None,
    }
}
