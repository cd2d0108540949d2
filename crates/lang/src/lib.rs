//! English news language data: the word lists attest's stages and its ledger
//! share, kept as data files in `data/` and read through one loader each, so
//! that a word added to a list reaches every user of it.
//!
//! Words looked up one at a time are compared in one folded form ([`fold`]):
//! lowercase, without a final period, so "Sen.", "Sen" and "SEN." are one
//! word. Lists that features of a shipped model match ([`names`],
//! [`entity_titles`], the organization words used by
//! [`OrganizationUse::Entity`]) are handed out as written, because the model
//! was trained on exactly those strings.
//!
//! ```
//! use attest_lang::{OrganizationUse, TitleUse, organization_word, title};
//!
//! let sen = title("Sen.").unwrap();
//! assert_eq!(sen.noun, Some("senator"));
//! assert_eq!(sen.used_as, Some(TitleUse::Title));
//! assert_eq!(title("former").unwrap().used_as, Some(TitleUse::Modifier));
//! assert_eq!(title("Coach").unwrap().used_as, None);
//! assert!(organization_word("Union", OrganizationUse::Name));
//! assert!(!organization_word("union", OrganizationUse::Name));
//! ```

#![deny(missing_docs)]

use std::collections::HashMap;
use std::sync::LazyLock;

use attest_doc::{Gender, from_serde_name};

mod abbreviations;
mod attributing;
mod calendar;
mod clusters;
mod currencies;
mod head_nouns;
mod hedges;
pub mod identity;
mod names;
mod organizations;
mod quantity_bounds;
mod quotes;
mod stance;
mod tagged;
mod time_words;
mod words;

pub use abbreviations::{AbbreviationClass, abbreviation};
pub use attributing::{AttributingKind, attributing_words};
pub use calendar::{Month, MonthForm, month, month_abbreviations, weekday};
pub use clusters::{WordCluster, word_cluster};
pub use currencies::{CurrencyUse, currency, starts_currency};
pub use head_nouns::{HeadNoun, describes, head_noun_class, head_noun_is};
pub use hedges::{HedgeUse, hedge_word};
pub use names::{NameList, names};
pub use organizations::{OrganizationUse, organization_word, organization_words};
pub use quantity_bounds::{BoundPhrase, QuantityBound, bound_phrases, starts_bound_phrase};
pub use quotes::{QuoteMark, QuoteSide, QuotedRegion, double_quote_regions, quote_mark};
pub use stance::{Declining, declining, stance_class};
pub use time_words::{TimeWordUse, time_word};
pub use words::{WordList, listed, words};

/// The longest word any list holds, folded; longer words are in none.
const LONGEST: usize = 24;

/// A word in the folded form every list is compared in: lowercase, without a
/// final period. `None` when it is longer than any listed word, so lookups
/// need no allocation.
fn folded(word: &str, buffer: &mut [u8; LONGEST]) -> Option<usize> {
    let word = word.strip_suffix('.').unwrap_or(word);
    if word.len() > LONGEST || !word.is_ascii() {
        return None;
    }
    let out = buffer.get_mut(..word.len())?;
    out.copy_from_slice(word.as_bytes());
    out.make_ascii_lowercase();
    Some(word.len())
}

/// `word` in the folded form the lists are compared in.
pub fn fold(word: &str) -> String {
    word.strip_suffix('.').unwrap_or(word).to_lowercase()
}

/// How a word of the title list is used.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TitleUse {
    /// A title or honorific: part of a name's run for the source resolver,
    /// dropped before names are compared across articles.
    Title,
    /// A word that stands before a title ("Former Gov."): dropped before
    /// names are compared, never taken as a title by itself.
    Modifier,
}

/// A word that stands before a person's name (`data/titles.tsv`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Title {
    /// The form news copy writes ("Sen.").
    pub form: &'static str,
    /// The common noun a later mention uses ("senator"), if any.
    pub noun: Option<&'static str>,
    /// The gender the title states, if it states one.
    pub gender: Option<Gender>,
    /// How the source resolver and the ledger use it; `None` for a word
    /// listed only for the entity model.
    pub used_as: Option<TitleUse>,
    /// Whether the entity tagger's title feature matches it.
    pub entity: bool,
}

const TITLES_TSV: &str = include_str!("../data/titles.tsv");

/// The title list, by folded form.
static TITLES: LazyLock<HashMap<String, Title>> = LazyLock::new(|| {
    parse_titles(TITLES_TSV)
        .unwrap_or_default()
        .into_iter()
        .map(|title| (fold(title.form), title))
        .collect()
});

/// The titles the entity tagger's feature matches, lowercased as written.
static ENTITY_TITLES: LazyLock<Vec<String>> = LazyLock::new(|| {
    let mut titles: Vec<String> = parse_titles(TITLES_TSV)
        .unwrap_or_default()
        .into_iter()
        .filter(|title| title.entity)
        .map(|title| title.form.to_lowercase())
        .collect();
    titles.sort_unstable();
    titles
});

/// Parses the title list; the unit tests hold the shipped file to it, so
/// that the list read at run time is the whole file.
fn parse_titles(text: &'static str) -> Result<Vec<Title>, String> {
    let mut titles = Vec::new();
    for (number, line) in text.lines().enumerate() {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let line_error = |why: &str| format!("titles.tsv line {}: {why}: {line:?}", number + 1);
        let [form, noun, gender, used_as, entity] =
            columns(line).ok_or_else(|| line_error("not five tab-separated columns"))?;
        let optional = |value: &'static str| (value != "-").then_some(value);
        let gender = match optional(gender) {
            None => None,
            Some(name) => Some(from_serde_name(name).ok_or_else(|| line_error("unknown gender"))?),
        };
        let used_as = match used_as {
            "title" => Some(TitleUse::Title),
            "modifier" => Some(TitleUse::Modifier),
            "-" => None,
            _ => return Err(line_error("use is not title, modifier or -")),
        };
        let entity = match entity {
            "entity" => true,
            "-" => false,
            _ => return Err(line_error("entity column is neither entity nor -")),
        };
        if fold(form).len() > LONGEST {
            return Err(line_error("longer than any lookup reads"));
        }
        titles.push(Title {
            form,
            noun: optional(noun),
            gender,
            used_as,
            entity,
        });
    }
    Ok(titles)
}

/// The title list's entry for `word`, compared folded.
pub fn title(word: &str) -> Option<&'static Title> {
    let mut buffer = [0; LONGEST];
    let length = folded(word, &mut buffer)?;
    let key = std::str::from_utf8(buffer.get(..length)?).ok()?;
    TITLES.get(key)
}

/// The titles the entity tagger's title feature matches ("sen.", "vice
/// president"), lowercased as written and sorted: a title's token matches
/// only in this form, period included.
pub fn entity_titles() -> &'static [String] {
    &ENTITY_TITLES
}

/// A line's `N` tab-separated columns, if it has `N`.
fn columns<const N: usize>(line: &'static str) -> Option<[&'static str; N]> {
    line.split('\t').collect::<Vec<_>>().try_into().ok()
}

/// The entries of a list of one entry a line, `#` starting a comment line.
fn entries(text: &'static str) -> impl Iterator<Item = &'static str> {
    text.lines()
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_title_list_parses_whole_and_each_word_once() {
        let titles = parse_titles(TITLES_TSV).unwrap();
        assert_eq!(titles.len(), TITLES.len(), "a folded form listed twice");
        for listed in &titles {
            assert_eq!(title(listed.form), Some(listed));
        }
    }

    #[test]
    fn lookups_fold_case_and_the_final_period() {
        for word in ["Adm.", "Adm", "ADM.", "adm"] {
            assert_eq!(title(word).and_then(|t| t.noun), Some("admiral"), "{word}");
        }
        assert_eq!(title("Mrs.").and_then(|t| t.gender), Some(Gender::Feminine));
        assert_eq!(title("Senators"), None);
        assert_eq!(title(""), None);
        assert_eq!(title("Sénateur"), None);
        assert_eq!(title(&"x".repeat(100)), None);
    }

    #[test]
    fn malformed_lines_are_errors_naming_the_line() {
        let error = parse_titles("Mr.\t-\tmasculine\ttitle\t-\nGen.\tgeneral\n").unwrap_err();
        assert!(error.contains("line 2"), "{error}");
        let error = parse_titles("Gen.\tgeneral\tneuter\ttitle\t-\n").unwrap_err();
        assert!(error.contains("unknown gender"), "{error}");
        let error = parse_titles("Gen.\tgeneral\t-\tnoun\t-\n").unwrap_err();
        assert!(error.contains("not title, modifier or -"), "{error}");
        let error = parse_titles("Gen.\tgeneral\t-\ttitle\tyes\n").unwrap_err();
        assert!(error.contains("entity column"), "{error}");
    }

    #[test]
    fn entity_titles_are_lowercase_as_written_and_listed_once() {
        let titles = entity_titles();
        assert!(titles.windows(2).all(|pair| pair[0] < pair[1]));
        for expected in ["sen.", "vice president", "king", "president"] {
            assert!(titles.iter().any(|t| t == expected), "{expected}");
        }
        assert!(!titles.iter().any(|t| t == "sen" || t == "former"));
    }
}
