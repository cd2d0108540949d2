//! Lists of names the entity tagger's gazetteer features match: countries, US
//! states, cities, given names and nationalities, one entry a line, as
//! attest's tokenizer splits it ("St. Louis", "Rio de Janeiro").

use std::sync::LazyLock;

use crate::entries;

/// A list of names (`data/<list>.txt`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum NameList {
    /// Sovereign states, the names news uses for them, a few territories.
    Countries,
    /// The US states, the District of Columbia and the AP abbreviations.
    UsStates,
    /// Capitals and other often-reported cities.
    Cities,
    /// Frequent given names.
    GivenNames,
    /// Nationalities, peoples and religions, as adjectives and nouns.
    Nationalities,
}

impl NameList {
    /// Every list.
    pub const ALL: [NameList; 5] = [
        NameList::Countries,
        NameList::UsStates,
        NameList::Cities,
        NameList::GivenNames,
        NameList::Nationalities,
    ];

    fn text(self) -> &'static str {
        match self {
            NameList::Countries => include_str!("../data/countries.txt"),
            NameList::UsStates => include_str!("../data/us-states.txt"),
            NameList::Cities => include_str!("../data/cities.txt"),
            NameList::GivenNames => include_str!("../data/given-names.txt"),
            NameList::Nationalities => include_str!("../data/nationalities.txt"),
        }
    }
}

static LISTS: LazyLock<[Vec<&'static str>; 5]> =
    LazyLock::new(|| NameList::ALL.map(|list| entries(list.text()).collect()));

/// The entries of a list, as written, sorted; a match is compared as written,
/// since "Georgia" is a state and "georgia" is no name.
pub fn names(list: NameList) -> &'static [&'static str] {
    let index = NameList::ALL.iter().position(|l| *l == list).unwrap_or(0);
    LISTS.get(index).map_or(&[], Vec::as_slice)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_list_is_sorted_tokenized_and_holds_each_name_once() {
        for list in NameList::ALL {
            let names = names(list);
            assert!(!names.is_empty(), "{list:?}");
            for pair in names.windows(2) {
                assert!(
                    pair[0] < pair[1],
                    "{list:?}: {pair:?} unsorted or listed twice"
                );
            }
            for name in names {
                assert_eq!(name.trim(), *name, "{list:?}");
                assert!(!name.contains("  ") && !name.contains('\t'), "{name:?}");
            }
        }
        assert!(names(NameList::Cities).contains(&"St. Louis"));
    }
}
