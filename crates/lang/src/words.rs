//! Lists of single words, one a line (`data/<list>.txt`), each compared as
//! written by the stage that reads it.

use std::sync::LazyLock;

use crate::entries;

/// A list of words.
#[derive(Clone, Copy, PartialEq, Eq, Debug, strum::VariantArray)]
pub enum WordList {
    /// Capitalized words that typically open a sentence, so that an
    /// abbreviation before them is read as ending the one before ("Acme Inc.
    /// The"); the sentence splitter's, compared as written.
    SentenceStarters,
    /// Abbreviations of time zones that may follow a clock time ("9 a.m.
    /// ET"), compared as written.
    TimeZones,
    /// Lowercase nouns that name a kind of organization rather than one
    /// ("agency", "union"): a name made only of these is a description, which
    /// the ledger never merges across articles.
    GenericOrganizationNouns,
}

impl WordList {
    fn text(self) -> &'static str {
        match self {
            WordList::SentenceStarters => include_str!("../data/sentence-starters.txt"),
            WordList::TimeZones => include_str!("../data/time-zones.txt"),
            WordList::GenericOrganizationNouns => {
                include_str!("../data/generic-organization-nouns.txt")
            }
        }
    }

    fn index(self) -> usize {
        <WordList as strum::VariantArray>::VARIANTS
            .iter()
            .position(|list| *list == self)
            .unwrap_or(0)
    }
}

static LISTS: LazyLock<Vec<Vec<&'static str>>> = LazyLock::new(|| {
    <WordList as strum::VariantArray>::VARIANTS
        .iter()
        .map(|list| entries(list.text()).collect())
        .collect()
});

/// The words of a list, as written, sorted bytewise.
pub fn words(list: WordList) -> &'static [&'static str] {
    LISTS.get(list.index()).map_or(&[], Vec::as_slice)
}

/// Whether `word`, compared as written, is in the list.
pub fn listed(list: WordList, word: &str) -> bool {
    words(list).binary_search(&word).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_list_is_sorted_holds_each_word_once_and_one_word_a_line() {
        for list in <WordList as strum::VariantArray>::VARIANTS {
            let words = words(*list);
            assert!(!words.is_empty(), "{list:?}");
            for pair in words.windows(2) {
                assert!(pair[0] < pair[1], "{list:?}: {pair:?} unsorted or twice");
            }
            for word in words {
                assert!(
                    !word.is_empty() && !word.contains(char::is_whitespace),
                    "{word:?}"
                );
            }
        }
        let lowercase = words(WordList::GenericOrganizationNouns);
        assert!(lowercase.iter().all(|word| word.to_lowercase() == *word));
    }

    #[test]
    fn words_are_compared_as_written() {
        assert!(listed(WordList::SentenceStarters, "The"));
        assert!(!listed(WordList::SentenceStarters, "the"));
        assert!(listed(WordList::TimeZones, "ET"));
        assert!(!listed(WordList::TimeZones, "et"));
        assert!(listed(WordList::GenericOrganizationNouns, "agency"));
        assert!(!listed(WordList::GenericOrganizationNouns, "Agency"));
    }
}
