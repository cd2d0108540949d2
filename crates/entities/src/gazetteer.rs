//! The matcher of word lists of names and name cues over the tokens of a
//! sentence. The lists, written for attest from common facts, are attest-lang's
//! (its name lists, the titles and organization words it marks for the entity
//! model).
//!
//! The lists are features, not rules: a token inside "Georgia" gets the
//! feature "in a country and in a US state" and the model has learned from the
//! silver how far to trust it (Georgia is also a person's first name). Entries
//! are written as attest's tokenizer splits them ("St. Louis", "Washington ,
//! D.C."), so a match is a run of equal tokens.
//!
//! Names match as written; titles match in any case, because news writes
//! "Sen. Jane Doe" and "former senator Jane Doe" alike.

use std::collections::HashMap;
use std::sync::OnceLock;

use attest_lang::{NameList, OrganizationUse};
use attest_learn::{Prehashed, fnv1a64};

/// What a list holds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Kind {
    Country,
    UsState,
    City,
    GivenName,
    Title,
    OrgWord,
    Nationality,
}

impl Kind {
    pub(crate) const ALL: [Kind; 7] = [
        Kind::Country,
        Kind::UsState,
        Kind::City,
        Kind::GivenName,
        Kind::Title,
        Kind::OrgWord,
        Kind::Nationality,
    ];

    /// The feature names of a token at the beginning of a match and inside one.
    pub(crate) fn names(self) -> (&'static str, &'static str) {
        match self {
            Kind::Country => ("country-B", "country-I"),
            Kind::UsState => ("state-B", "state-I"),
            Kind::City => ("city-B", "city-I"),
            Kind::GivenName => ("given-B", "given-I"),
            Kind::Title => ("title-B", "title-I"),
            Kind::OrgWord => ("orgword-B", "orgword-I"),
            Kind::Nationality => ("nationality-B", "nationality-I"),
        }
    }

    fn entries(self) -> Vec<&'static str> {
        let names = |list| attest_lang::names(list).to_vec();
        match self {
            Kind::Country => names(NameList::Countries),
            Kind::UsState => names(NameList::UsStates),
            Kind::City => names(NameList::Cities),
            Kind::GivenName => names(NameList::GivenNames),
            Kind::Title => attest_lang::entity_titles()
                .iter()
                .map(String::as_str)
                .collect(),
            Kind::OrgWord => attest_lang::organization_words(OrganizationUse::Entity).to_vec(),
            Kind::Nationality => names(NameList::Nationalities),
        }
    }

    fn folds_case(self) -> bool {
        self == Kind::Title
    }

    /// The bit of a token at the beginning of a match, or inside one.
    pub(crate) fn bit(self, inside: bool) -> u16 {
        let index = Kind::ALL.iter().position(|k| *k == self).unwrap_or(0);
        1 << (2 * index + usize::from(inside))
    }
}

/// Whether a lower-case word is a one-word title ("mr.", "gov.", "senator").
pub(crate) fn is_title(lower: &str) -> bool {
    attest_lang::entity_titles()
        .binary_search_by(|title| title.as_str().cmp(lower))
        .is_ok()
}

/// One entry: its kind and its tokens after the first.
struct Entry {
    kind: Kind,
    rest: Vec<&'static str>,
}

/// Every entry, by the hash of its first token.
struct Index {
    entries: HashMap<u64, Vec<Entry>, Prehashed>,
}

fn index() -> &'static Index {
    static INDEX: OnceLock<Index> = OnceLock::new();
    INDEX.get_or_init(|| {
        let mut entries: HashMap<u64, Vec<Entry>, Prehashed> = HashMap::default();
        for kind in Kind::ALL {
            for entry in kind.entries() {
                let mut tokens = entry.split(' ');
                let Some(first) = tokens.next() else {
                    continue;
                };
                entries
                    .entry(fnv1a64(first.as_bytes()))
                    .or_default()
                    .push(Entry {
                        kind,
                        rest: tokens.collect(),
                    });
            }
        }
        Index { entries }
    })
}

/// Marks, for each of a sentence's tokens, the lists it is matched in: each
/// [`Kind::bit`] of the entries that cover it, at their first token or inside.
///
/// `words` are the tokens as written and `lower` the same in lower case.
pub(crate) fn mark(words: &[&str], lower: &[&str], marks: &mut Vec<u16>) {
    marks.clear();
    marks.resize(words.len(), 0);
    let index = index();
    for start in 0..words.len() {
        for (case, folded) in [(words, false), (lower, true)] {
            let Some(first) = case.get(start) else {
                continue;
            };
            let Some(candidates) = index.entries.get(&fnv1a64(first.as_bytes())) else {
                continue;
            };
            for entry in candidates {
                if entry.kind.folds_case() != folded {
                    continue;
                }
                let matches = entry
                    .rest
                    .iter()
                    .enumerate()
                    .all(|(k, token)| case.get(start + 1 + k) == Some(token));
                if !matches {
                    continue;
                }
                let end = start + 1 + entry.rest.len();
                for (at, mark) in marks.iter_mut().enumerate().take(end).skip(start) {
                    *mark |= entry.kind.bit(at > start);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marked(sentence: &str) -> Vec<Vec<&'static str>> {
        let words: Vec<&str> = sentence.split(' ').collect();
        let lower_owned: Vec<String> = words.iter().map(|w| w.to_lowercase()).collect();
        let lower: Vec<&str> = lower_owned.iter().map(String::as_str).collect();
        let mut marks = Vec::new();
        mark(&words, &lower, &mut marks);
        marks
            .iter()
            .map(|m| {
                Kind::ALL
                    .iter()
                    .flat_map(|k| {
                        let (b, i) = k.names();
                        [(k.bit(false), b), (k.bit(true), i)]
                    })
                    .filter(|(bit, _)| m & bit != 0)
                    .map(|(_, name)| name)
                    .collect()
            })
            .collect()
    }

    #[test]
    fn marks_multi_token_entries_and_overlaps() {
        let marks = marked("Sen. Ana Ruiz flew from New York to St. Louis");
        assert_eq!(marks[0], ["title-B"]);
        assert_eq!(marks[1], ["given-B"]);
        assert!(marks[2].is_empty());
        assert_eq!(marks[5], ["state-B", "city-B"]);
        assert_eq!(marks[6], ["state-I", "city-I"]);
        assert_eq!(marks[8], ["city-B"]);
        assert_eq!(marks[9], ["city-I", "given-B"], "Louis is a given name too");
    }

    #[test]
    fn titles_match_in_any_case_and_names_only_as_written() {
        let marks = marked("former Vice President Ana said georgia");
        assert_eq!(marks[1], ["title-B"]);
        assert_eq!(
            marks[2],
            ["title-B", "title-I"],
            "a title alone and inside one"
        );
        assert!(marks[5].is_empty(), "names match as written");
        let marks = marked("Georgia");
        assert_eq!(marks[0], ["country-B", "state-B"]);
        assert!(is_title("gov.") && !is_title("mayors") && !is_title("Gov."));
    }

    #[test]
    fn every_entry_is_tokenized_and_the_lists_hold_no_duplicates() {
        for kind in Kind::ALL {
            let mut seen = std::collections::BTreeSet::new();
            for entry in kind.entries() {
                assert!(!entry.is_empty() && !entry.contains("  "), "{entry:?}");
                assert!(seen.insert(entry), "{entry:?} is listed twice in {kind:?}");
                if kind.folds_case() {
                    assert_eq!(entry.to_lowercase(), entry);
                }
            }
        }
    }
}
