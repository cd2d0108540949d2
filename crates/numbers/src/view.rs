//! What both taggers ask of the tokens beyond [`attest_doc::TokenView`].
//!
//! Words are compared in the document's folded form ([`attest_doc::Doc::folded`]),
//! made once when it was segmented: matching compares slices and never
//! allocates in the loop. What a word is (a plural noun, an adjective, a past
//! verb) is read from the part-of-speech layer, which both taggers require,
//! through [`PosTag`]'s classes.

use attest_doc::{PosTag, TokenView};
use attest_lang::MonthForm;

/// Whether the tokens from `i` read `words` (folded).
pub(crate) fn reads(view: &TokenView<'_>, i: usize, words: &[&str]) -> bool {
    words
        .iter()
        .enumerate()
        .all(|(k, word)| view.word(i + k) == *word)
}

/// A verb form or a plain adverb, which no counted noun is: "injured",
/// "killing", "nearly".
pub(crate) fn is_verb_form_or_adverb(tag: PosTag) -> bool {
    tag.is_past_form() || tag.is_gerund() || tag.is_plain_adverb()
}

/// The month of a month name or abbreviation ("sept.", "jan").
pub(crate) fn month(lower: &str) -> Option<i8> {
    attest_lang::month(lower).map(|month| month.number)
}

/// A month name as a date word: capitalized, and abbreviated only with its
/// period or in a spelling that is no English word ("Sept"), since "mar" is one.
pub(crate) fn month_at(view: &TokenView<'_>, i: usize) -> Option<i8> {
    if !view.starts_upper(i) {
        return None;
    }
    let month = attest_lang::month(view.word(i))?;
    let date_word = match month.form {
        MonthForm::Name | MonthForm::Bare => true,
        MonthForm::Abbreviation => view.raw(i).ends_with('.'),
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
