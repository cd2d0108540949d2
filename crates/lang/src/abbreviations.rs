//! Abbreviations whose period belongs to the word (`data/abbreviations.tsv`),
//! compared as written: the tokenizer's list.

use crate::tagged::{Use, use_list};

/// What the tokenizer takes an abbreviation for (the file's `uses` column).
#[derive(Clone, Copy, PartialEq, Eq, Debug, strum::VariantArray, strum::IntoStaticStr)]
#[strum(serialize_all = "kebab-case")]
pub enum AbbreviationClass {
    /// Before a name or a number, so it never ends a sentence ("Sen.", "No.").
    BeforeName,
    /// Anywhere, its period doubling as a sentence's full stop ("Inc.").
    MayEnd,
    /// An abbreviation of "number", keeping its period only before a digit
    /// ("No. 2"); listed before names too.
    Number,
}

use_list!(AbbreviationClass, "abbreviations.tsv", lowercase: false);

/// Whether `word`, without its final period and compared as written, is an
/// abbreviation of that class; the months' abbreviations are
/// [`month_abbreviations`](crate::month_abbreviations).
pub fn abbreviation(word: &str, class: AbbreviationClass) -> bool {
    class.listed(word)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tagged::Tagged;

    #[test]
    fn the_shipped_file_parses_and_may_end_excludes_before_name() {
        let list = Tagged::parse::<AbbreviationClass>().unwrap();
        let before = list.words(AbbreviationClass::BeforeName);
        let may_end = list.words(AbbreviationClass::MayEnd);
        assert!(!before.iter().any(|word| may_end.contains(word)));
        assert!(!before.iter().chain(may_end).any(|word| word.ends_with('.')));
        let numbers = list.words(AbbreviationClass::Number);
        assert!(numbers.iter().all(|word| before.contains(word)));
    }

    #[test]
    fn words_are_compared_as_written() {
        assert!(abbreviation("Sen", AbbreviationClass::BeforeName));
        assert!(abbreviation("No", AbbreviationClass::BeforeName));
        assert!(abbreviation("no", AbbreviationClass::BeforeName));
        assert!(!abbreviation("NO", AbbreviationClass::BeforeName));
        assert!(!abbreviation("Sen.", AbbreviationClass::BeforeName));
        assert!(abbreviation("Inc", AbbreviationClass::MayEnd));
        assert!(!abbreviation("Inc", AbbreviationClass::BeforeName));
        assert!(!abbreviation("inc", AbbreviationClass::MayEnd));
        assert!(abbreviation("nos", AbbreviationClass::Number));
        assert!(!abbreviation("Sen", AbbreviationClass::Number));
    }
}
