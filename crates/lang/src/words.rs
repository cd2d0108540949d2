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
    /// Words that introduce the text of a sign or a chant ("placard",
    /// "chanted"); the quotation finder's, lowercase.
    SloganWords,
    /// Words that introduce the title of a work ("film", "titled"); the
    /// quotation finder's, lowercase.
    WorkTitleWords,
    /// Lowercase words that may stand inside a capitalized title ("with",
    /// "the"); the quotation finder's.
    TitleSmallWords,
    /// Where someone puts up a post or a statement ("account", "feed"); the
    /// source resolver's, lowercase.
    AccountWords,
    /// Lowercase words never counted as a name's initials ("of", "the", "&");
    /// the entity clusterer's.
    InitialFunctionWords,
    /// Lowercase words that open a family name of several words ("de",
    /// "van"); the entity clusterer's.
    SurnameParticles,
    /// Lowercase function words and verbs of saying that carry no claim
    /// ("the", "would", "said"), with straight apostrophes; attest-claims
    /// leaves them out when it compares statements.
    ClaimStopwords,
    /// Lowercase words that never are the thing a number counts ("of",
    /// "said", "percent"); the quantity tagger's.
    QuantityStopwords,
    /// Lowercase nouns after which a number names a thing ("route",
    /// "page"); the quantity tagger's.
    IdentifyingNouns,
    /// Lowercase words that open a phrase before a number without naming it
    /// ("nearly", "roughly"), besides the quantity stopwords; the quantity
    /// tagger's.
    QuantityOpeners,
    /// The lowercase last words of street names ("street", "ave."); the
    /// quantity tagger's.
    StreetWords,
    /// Capitalized words that start sentences or names without naming
    /// anyone ("The", "According"), compared as written; the source
    /// resolver's.
    NameStopwords,
    /// Lowercase common nouns that name a news medium ("newspaper"); the
    /// source resolver's and the stance model's.
    MediaNouns,
    /// Social platforms ("Facebook"), compared as written; the source
    /// resolver's.
    Platforms,
    /// Lowercase words that end the head phrase of a description ("of",
    /// "familiar"); the source resolver's.
    DescriptionStops,
    /// Lowercase nouns that, right after a name, make it an organization's
    /// ("factory", "shares"); the source resolver's.
    OrganizationFollowers,
}

impl WordList {
    fn text(self) -> &'static str {
        match self {
            WordList::SentenceStarters => include_str!("../data/sentence-starters.txt"),
            WordList::TimeZones => include_str!("../data/time-zones.txt"),
            WordList::SloganWords => include_str!("../data/slogan-words.txt"),
            WordList::WorkTitleWords => include_str!("../data/work-title-words.txt"),
            WordList::TitleSmallWords => include_str!("../data/title-small-words.txt"),
            WordList::AccountWords => include_str!("../data/account-words.txt"),
            WordList::InitialFunctionWords => include_str!("../data/initial-function-words.txt"),
            WordList::SurnameParticles => include_str!("../data/surname-particles.txt"),
            WordList::ClaimStopwords => include_str!("../data/claim-stopwords.txt"),
            WordList::QuantityStopwords => include_str!("../data/quantity-stopwords.txt"),
            WordList::IdentifyingNouns => include_str!("../data/identifying-nouns.txt"),
            WordList::QuantityOpeners => include_str!("../data/quantity-openers.txt"),
            WordList::StreetWords => include_str!("../data/street-words.txt"),
            WordList::NameStopwords => include_str!("../data/name-stopwords.txt"),
            WordList::MediaNouns => include_str!("../data/media-nouns.txt"),
            WordList::Platforms => include_str!("../data/platforms.txt"),
            WordList::DescriptionStops => include_str!("../data/description-stops.txt"),
            WordList::OrganizationFollowers => include_str!("../data/organization-followers.txt"),
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
        for list in [
            WordList::SloganWords,
            WordList::WorkTitleWords,
            WordList::TitleSmallWords,
            WordList::AccountWords,
            WordList::InitialFunctionWords,
            WordList::SurnameParticles,
            WordList::ClaimStopwords,
            WordList::QuantityStopwords,
            WordList::IdentifyingNouns,
            WordList::QuantityOpeners,
            WordList::StreetWords,
            WordList::MediaNouns,
            WordList::DescriptionStops,
            WordList::OrganizationFollowers,
        ] {
            let lowercase = words(list);
            assert!(
                lowercase.iter().all(|word| word.to_lowercase() == *word),
                "{list:?}"
            );
        }
    }

    #[test]
    fn words_are_compared_as_written() {
        assert!(listed(WordList::SentenceStarters, "The"));
        assert!(!listed(WordList::SentenceStarters, "the"));
        assert!(listed(WordList::TimeZones, "ET"));
        assert!(!listed(WordList::TimeZones, "et"));
    }
}
