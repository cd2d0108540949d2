//! Month and weekday names (`data/months.tsv`, `data/weekdays.txt`),
//! compared folded.

use std::collections::HashMap;
use std::sync::LazyLock;

use crate::{columns, entries, fold};

/// How a word names a month.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MonthForm {
    /// Its full name ("September").
    Name,
    /// An abbreviation, a date word only with its period ("Mar.": "mar" is a
    /// word).
    Abbreviation,
    /// An abbreviation that is no English word, a date word even without its
    /// period ("Sept").
    Bare,
}

/// A word naming a month.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Month {
    /// 1 for January to 12 for December.
    pub number: i8,
    /// How the word names it.
    pub form: MonthForm,
}

const MONTHS_TSV: &str = include_str!("../data/months.tsv");
const WEEKDAYS: &str = include_str!("../data/weekdays.txt");

/// Parses the month list into each word's month, the word as written.
fn parse_months(text: &'static str) -> Result<Vec<(&'static str, Month)>, String> {
    let mut words = Vec::new();
    for (index, line) in entries(text).enumerate() {
        let error = |why: &str| format!("months.tsv: {why}: {line:?}");
        let [name, abbreviations, bare] =
            columns(line).ok_or_else(|| error("not three tab-separated columns"))?;
        let number = i8::try_from(index + 1).map_err(|_| error("more than twelve months"))?;
        let list = |column: &'static str| column.split(',').filter(|word| *word != "-");
        let bare: Vec<&str> = list(bare).collect();
        if let Some(stray) = bare
            .iter()
            .find(|word| !list(abbreviations).any(|a| a == **word))
        {
            return Err(error(&format!("{stray} is bare but no abbreviation")));
        }
        words.push((
            name,
            Month {
                number,
                form: MonthForm::Name,
            },
        ));
        for abbreviation in list(abbreviations) {
            let form = if bare.contains(&abbreviation) {
                MonthForm::Bare
            } else {
                MonthForm::Abbreviation
            };
            words.push((abbreviation, Month { number, form }));
        }
    }
    if words
        .iter()
        .filter(|(_, month)| month.form == MonthForm::Name)
        .count()
        != 12
    {
        return Err("months.tsv: not twelve months".to_string());
    }
    Ok(words)
}

static MONTH_WORDS: LazyLock<Vec<(&'static str, Month)>> =
    LazyLock::new(|| parse_months(MONTHS_TSV).unwrap_or_default());

static MONTHS: LazyLock<HashMap<String, Month>> = LazyLock::new(|| {
    MONTH_WORDS
        .iter()
        .map(|(word, month)| (fold(word), *month))
        .collect()
});

static MONTH_ABBREVIATIONS: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
    MONTH_WORDS
        .iter()
        .filter(|(_, month)| month.form != MonthForm::Name)
        .map(|(word, _)| *word)
        .collect()
});

static WEEKDAY_NAMES: LazyLock<Vec<String>> =
    LazyLock::new(|| entries(WEEKDAYS).map(fold).collect());

/// The month `word` names, compared folded ("Sept.", "sept", "SEPTEMBER").
pub fn month(word: &str) -> Option<Month> {
    MONTHS.get(&fold(word)).copied()
}

/// The months' abbreviations as written, capitalized and without their
/// period ("Sept").
pub fn month_abbreviations() -> &'static [&'static str] {
    &MONTH_ABBREVIATIONS
}

/// The weekday `word` names by its full name, compared folded: 1 for Monday
/// to 7 for Sunday.
pub fn weekday(word: &str) -> Option<u8> {
    let folded = fold(word);
    let index = WEEKDAY_NAMES.iter().position(|name| *name == folded)?;
    u8::try_from(index + 1).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_lists_parse_whole_and_name_each_day_once() {
        let months = parse_months(MONTHS_TSV).unwrap();
        assert_eq!(months.len(), MONTHS.len(), "a word names two months");
        assert_eq!(WEEKDAY_NAMES.len(), 7);
        let mut days = WEEKDAY_NAMES.clone();
        days.dedup();
        assert_eq!(days.len(), 7);
    }

    #[test]
    fn words_name_months_and_days_folded() {
        let sept = Month {
            number: 9,
            form: MonthForm::Bare,
        };
        assert_eq!(month("Sept."), Some(sept));
        assert_eq!(month("sept"), Some(sept));
        assert_eq!(month("Mar").map(|m| m.form), Some(MonthForm::Abbreviation));
        assert_eq!(
            month("MAY").map(|m| (m.number, m.form)),
            Some((5, MonthForm::Name))
        );
        assert_eq!(month("Marc"), None);
        assert_eq!(weekday("Monday"), Some(1));
        assert_eq!(weekday("sunday"), Some(7));
        assert_eq!(weekday("Mon."), None);
        assert!(month_abbreviations().contains(&"Sept"));
        assert!(!month_abbreviations().contains(&"May"));
        assert!(
            parse_months("January\tJan\tJn\n")
                .unwrap_err()
                .contains("Jn is bare")
        );
    }
}
