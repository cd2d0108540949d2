//! Common nouns that head a source phrase (`data/head-nouns.tsv`): what each
//! makes of the phrase, and which of them describe rather than name.

use crate::tagged::{Use, use_list};

/// A use of a head noun (the file's `uses` column): its class, and
/// [`HeadNoun::Description`] where it applies.
#[derive(Clone, Copy, PartialEq, Eq, Debug, strum::VariantArray, strum::IntoStaticStr)]
#[strum(serialize_all = "kebab-case")]
pub enum HeadNoun {
    /// An organization described, not named ("the company").
    Organization,
    /// A medium described ("the newspaper").
    Media,
    /// A document ("the report", "court documents").
    Document,
    /// A social-media post ("a tweet").
    Social,
    /// One unnamed person ("a source", "the official").
    Person,
    /// An unnamed group ("officials", "witnesses").
    Group,
    /// An organization's voice ("a spokesperson").
    Spokesperson,
    /// The police, an organization also spoken of as people.
    Police,
    /// Not a class: a name made only of such words and lowercase words
    /// ("City Council") describes rather than names.
    Description,
    /// Not a class: a kind of business that "the company" can stand for
    /// ("the operator", "the insurer").
    Business,
    /// Not a class: a kind of organization that is also a person's job ("a
    /// crane operator").
    Job,
    /// Not a class: a lawyer, who speaks for a client ("a lawyer for the
    /// family").
    Counsel,
    /// Not a class: plural people, which can stand for two people named
    /// together ("both men", "the candidates").
    People,
}

use_list!(HeadNoun, "head-nouns.tsv", lowercase: true);

impl HeadNoun {
    /// The classes, each word having exactly one.
    const CLASSES: [HeadNoun; 8] = [
        HeadNoun::Organization,
        HeadNoun::Media,
        HeadNoun::Document,
        HeadNoun::Social,
        HeadNoun::Person,
        HeadNoun::Group,
        HeadNoun::Spokesperson,
        HeadNoun::Police,
    ];
}

/// The class of a lowercase head noun; `None` for a word the list lacks.
pub fn head_noun_class(word: &str) -> Option<HeadNoun> {
    HeadNoun::CLASSES
        .into_iter()
        .find(|class| class.listed(word))
}

/// Whether a lowercase noun is listed with a use that is not a class
/// ([`HeadNoun::Business`], [`HeadNoun::Job`], [`HeadNoun::Counsel`],
/// [`HeadNoun::People`]).
pub fn head_noun_is(word: &str, used_as: HeadNoun) -> bool {
    used_as.listed(word)
}

/// Whether a lowercase noun names a kind of organization or speaker rather
/// than one ("agency", "union", "officials").
pub fn describes(word: &str) -> bool {
    HeadNoun::Description.listed(word)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tagged::Tagged;

    #[test]
    fn the_shipped_file_parses() {
        Tagged::parse::<HeadNoun>().unwrap();
    }

    #[test]
    fn every_word_has_exactly_one_class() {
        let list = Tagged::parse::<HeadNoun>().unwrap();
        let mut words: Vec<&str> = HeadNoun::CLASSES
            .iter()
            .flat_map(|class| list.words(*class).iter().copied())
            .collect();
        let listed = words.len();
        words.sort_unstable();
        words.dedup();
        assert_eq!(words.len(), listed, "a word is listed in two classes");
        let uses = [
            HeadNoun::Description,
            HeadNoun::Business,
            HeadNoun::Job,
            HeadNoun::Counsel,
            HeadNoun::People,
        ];
        for word in uses.iter().flat_map(|used| list.words(*used)) {
            assert!(head_noun_class(word).is_some(), "{word} has no class");
        }
    }

    #[test]
    fn classes_and_descriptions_are_read_per_word() {
        assert_eq!(head_noun_class("company"), Some(HeadNoun::Organization));
        assert_eq!(head_noun_class("officials"), Some(HeadNoun::Group));
        assert_eq!(head_noun_class("Company"), None);
        assert!(describes("union") && describes("officials"));
        assert!(!describes("bank"));
        assert!(head_noun_is("insurer", HeadNoun::Business));
        assert!(!head_noun_is("union", HeadNoun::Business));
        assert!(head_noun_is("operator", HeadNoun::Job) && !head_noun_is("mayor", HeadNoun::Job));
        assert!(head_noun_is("attorneys", HeadNoun::Counsel));
        assert!(head_noun_is("nominees", HeadNoun::People));
    }
}
