//! Abbreviations that keep their period.
//!
//! The words are attest-lang's (`abbreviations.tsv`, and the months'
//! abbreviations), written without their final period and compared
//! case-sensitively, since "No." is an abbreviation before a number and "no."
//! ends a sentence.

use attest_lang::{AbbreviationClass, abbreviation};

/// Whether a letters-only word followed by a period is an abbreviation.
pub(crate) fn is_abbreviation(word: &str) -> bool {
    before_name(word) || abbreviation(word, AbbreviationClass::MayEnd)
}

/// Abbreviations that usually stand before a name or number and so never end a
/// sentence: "Sen. Warren", "No. 2", "Jan. 5".
fn before_name(word: &str) -> bool {
    abbreviation(word, AbbreviationClass::BeforeName)
        || attest_lang::month_abbreviations().contains(&word)
}

/// "No." and "Nos." abbreviate "number" only before one: "the answer is no." ends
/// a sentence.
pub(crate) fn is_number_abbreviation(word: &str) -> bool {
    abbreviation(word, AbbreviationClass::Number)
}

/// Whether an abbreviation can end a sentence (its period doubling as the full stop).
pub(crate) fn may_end_sentence(word_with_period: &str) -> bool {
    let word = word_with_period
        .strip_suffix('.')
        .unwrap_or(word_with_period);
    if abbreviation(word, AbbreviationClass::MayEnd) {
        return true;
    }
    if before_name(word) {
        return false;
    }
    // Dotted acronyms ("U.S.", "D.C.", "a.m.") end sentences often enough in news
    // that a following capital is read as a new sentence; single initials ("J.")
    // almost never do.
    word.contains('.')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_never_end_sentences_but_company_suffixes_may() {
        assert!(is_abbreviation("Sen"));
        assert!(!may_end_sentence("Sen."));
        assert!(may_end_sentence("Inc."));
        assert!(may_end_sentence("U.S."));
        assert!(!may_end_sentence("J."));
        assert!(!is_abbreviation("said"));
        assert!(is_abbreviation("Sept") && !may_end_sentence("Sept."));
    }

    #[test]
    fn number_abbreviations_are_compared_as_written() {
        assert!(is_number_abbreviation("No") && is_number_abbreviation("nos"));
        assert!(!is_number_abbreviation("NO") && !is_number_abbreviation("Sen"));
        assert!(is_abbreviation("No") && !may_end_sentence("no."));
    }
}
