//! Words that attribute (`data/attributing.tsv`): verbs of saying, thinking,
//! showing and stance, and the nouns news writing attributes with.

use std::sync::LazyLock;

use crate::tagged::{Tagged, Use};

/// How an attributing word is listed (the file's `kinds` column).
#[derive(Clone, Copy, PartialEq, Eq, Debug, strum::VariantArray, strum::IntoStaticStr)]
#[strum(serialize_all = "kebab-case")]
pub enum AttributingKind {
    /// A verb's base form, standing for its regular inflections too.
    Verb,
    /// An inflected form the regular ones miss ("said").
    Irregular,
    /// A noun ("statement").
    Noun,
}

impl Use for AttributingKind {
    const LOWERCASE: bool = true;
}

const FILE: &str = "attributing.tsv";
const ATTRIBUTING_TSV: &str = include_str!("../data/attributing.tsv");

static ATTRIBUTING: LazyLock<Tagged> =
    LazyLock::new(|| Tagged::load::<AttributingKind>(FILE, ATTRIBUTING_TSV));

/// The attributing words of one kind, lowercase, sorted.
pub fn attributing_words(kind: AttributingKind) -> &'static [&'static str] {
    ATTRIBUTING.words(kind)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_file_parses() {
        Tagged::parse::<AttributingKind>(FILE, ATTRIBUTING_TSV).unwrap();
        assert!(attributing_words(AttributingKind::Irregular).contains(&"said"));
        assert!(attributing_words(AttributingKind::Noun).contains(&"claim"));
        assert!(attributing_words(AttributingKind::Verb).contains(&"claim"));
    }
}
