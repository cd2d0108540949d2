//! Words that attribute (`data/attributing.tsv`): verbs of saying, thinking,
//! showing and stance, and the nouns news writing attributes with.

use crate::tagged::{Use, use_list};

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

use_list!(AttributingKind, "attributing.tsv", lowercase: true);

/// The attributing words of one kind, lowercase, sorted.
pub fn attributing_words(kind: AttributingKind) -> &'static [&'static str] {
    kind.words()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tagged::Tagged;

    #[test]
    fn the_shipped_file_parses() {
        Tagged::parse::<AttributingKind>().unwrap();
        assert!(attributing_words(AttributingKind::Irregular).contains(&"said"));
        assert!(attributing_words(AttributingKind::Noun).contains(&"claim"));
        assert!(attributing_words(AttributingKind::Verb).contains(&"claim"));
    }
}
