//! Words before a number that bound or approximate it
//! (`data/quantity-bounds.tsv`).

use std::sync::LazyLock;

use strum::VariantArray;

use crate::{columns, entries};

/// What a phrase says of the number after it (the file's `bound` column).
#[derive(Clone, Copy, PartialEq, Eq, Debug, strum::VariantArray, strum::IntoStaticStr)]
#[strum(serialize_all = "kebab-case")]
pub enum QuantityBound {
    /// The number is a lower bound ("at least").
    Lower,
    /// The number is an upper bound ("nearly").
    Upper,
    /// The number is approximate, and read as itself ("roughly").
    About,
    /// The number opens a range closed by "and" ("between 5 and 10").
    Between,
    /// The number opens a range closed by "to" ("from 5 to 10").
    From,
}

/// A phrase of the list: its lowercase words and the bound it sets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoundPhrase {
    /// The phrase's words, lowercase ("no", "more", "than").
    pub words: Vec<&'static str>,
    /// What it says of the number after it.
    pub bound: QuantityBound,
}

const FILE: &str = "quantity-bounds.tsv";
const QUANTITY_BOUNDS_TSV: &str = include_str!("../data/quantity-bounds.tsv");

/// Parses the list; an error names the first line that is malformed, out of
/// sorted order, or the start of a phrase after it, since a phrase that
/// starts another would make the match depend on the order they are tried in.
fn parse(text: &'static str) -> Result<Vec<BoundPhrase>, String> {
    let mut phrases: Vec<BoundPhrase> = Vec::new();
    let mut previous = "";
    for line in entries(text) {
        let error = |why: &str| format!("{FILE}: {why}: {line:?}");
        let [phrase, bound] =
            columns(line).ok_or_else(|| error("not two tab-separated columns"))?;
        if phrase <= previous {
            return Err(error("not after the line before in sorted order"));
        }
        let words: Vec<&str> = phrase.split(' ').collect();
        if words
            .iter()
            .any(|word| word.is_empty() || word.to_lowercase() != *word)
        {
            return Err(error("not lowercase words separated by one space"));
        }
        let bound = QuantityBound::VARIANTS
            .iter()
            .find(|b| <&str>::from(**b) == bound)
            .copied()
            .ok_or_else(|| error("unknown bound"))?;
        if let Some(shorter) = phrases.iter().find(|p| words.starts_with(&p.words)) {
            let shorter = shorter.words.join(" ");
            return Err(error(&format!("{shorter:?} starts it")));
        }
        previous = phrase;
        phrases.push(BoundPhrase { words, bound });
    }
    Ok(phrases)
}

static PHRASES: LazyLock<Vec<BoundPhrase>> =
    LazyLock::new(|| parse(QUANTITY_BOUNDS_TSV).unwrap_or_default());

/// The phrases' first words, sorted, each once.
static FIRST_WORDS: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
    let mut firsts: Vec<&str> = PHRASES
        .iter()
        .filter_map(|phrase| phrase.words.first().copied())
        .collect();
    firsts.sort_unstable();
    firsts.dedup();
    firsts
});

/// The phrases, sorted; none starts another, so at most one matches at a
/// token and the order they are tried in does not matter.
pub fn bound_phrases() -> &'static [BoundPhrase] {
    &PHRASES
}

/// Whether `word`, lowercase, is the first word of a phrase.
pub fn starts_bound_phrase(word: &str) -> bool {
    FIRST_WORDS.binary_search(&word).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_file_parses() {
        let phrases = parse(QUANTITY_BOUNDS_TSV).unwrap();
        assert_eq!(phrases.len(), PHRASES.len());
        let more = phrases.iter().find(|p| p.words == ["more", "than"]);
        assert_eq!(more.map(|p| p.bound), Some(QuantityBound::Lower));
        assert!(starts_bound_phrase("no") && starts_bound_phrase("roughly"));
        assert!(!starts_bound_phrase("than") && !starts_bound_phrase("More"));
    }

    #[test]
    fn malformed_lines_are_errors_naming_the_line() {
        let error = |text| parse(text).err().unwrap_or_default();
        assert!(error("up\tupper\nup to\tupper\n").contains("\"up\" starts it"));
        assert!(error("over\tlower\nabout\tabout\n").contains("sorted order"));
        assert!(error("over\tlower\nover\tupper\n").contains("sorted order"));
        assert!(error("Over\tlower\n").contains("lowercase"));
        assert!(error("more  than\tlower\n").contains("one space"));
        assert!(error("over\tbeyond\n").contains("unknown bound"));
        assert!(error("over\n").contains("two tab-separated"));
    }
}
