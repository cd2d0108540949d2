//! English news language data: the word lists attest's stages and its ledger
//! share, kept as data files in `data/` and read through one loader each, so
//! that a word added to a list reaches every user of it.
//!
//! Every list is compared in one folded form ([`fold`]): lowercase, without a
//! final period, so "Sen.", "Sen" and "SEN." are one word.
//!
//! ```
//! use attest_lang::{TitleUse, title};
//!
//! let sen = title("Sen.").unwrap();
//! assert_eq!(sen.noun, Some("senator"));
//! assert_eq!(sen.used_as, TitleUse::Title);
//! assert_eq!(title("former").unwrap().used_as, TitleUse::Modifier);
//! assert!(title("Coach").is_none());
//! ```

#![deny(missing_docs)]

use std::collections::HashMap;
use std::sync::LazyLock;

use attest_doc::{Gender, from_serde_name};

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
    /// How it is used.
    pub used_as: TitleUse,
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

/// Parses the title list; the unit tests hold the shipped file to it, so
/// that the list read at run time is the whole file.
fn parse_titles(text: &'static str) -> Result<Vec<Title>, String> {
    let mut titles = Vec::new();
    for (number, line) in text.lines().enumerate() {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let line_error = |why: &str| format!("titles.tsv line {}: {why}: {line:?}", number + 1);
        let [form, noun, gender, used_as] = line
            .split('\t')
            .collect::<Vec<_>>()
            .try_into()
            .map_err(|_| line_error("not four tab-separated columns"))?;
        let optional = |value: &'static str| (value != "-").then_some(value);
        let gender = match optional(gender) {
            None => None,
            Some(name) => Some(from_serde_name(name).ok_or_else(|| line_error("unknown gender"))?),
        };
        let used_as = match used_as {
            "title" => TitleUse::Title,
            "modifier" => TitleUse::Modifier,
            _ => return Err(line_error("use is neither title nor modifier")),
        };
        if fold(form).len() > LONGEST {
            return Err(line_error("longer than any lookup reads"));
        }
        titles.push(Title {
            form,
            noun: optional(noun),
            gender,
            used_as,
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
        let error = parse_titles("Mr.\t-\tmasculine\ttitle\nGen.\tgeneral\n").unwrap_err();
        assert!(error.contains("line 2"), "{error}");
        let error = parse_titles("Gen.\tgeneral\tneuter\ttitle\n").unwrap_err();
        assert!(error.contains("unknown gender"), "{error}");
        let error = parse_titles("Gen.\tgeneral\t-\tnoun\n").unwrap_err();
        assert!(error.contains("neither title nor modifier"), "{error}");
    }
}
