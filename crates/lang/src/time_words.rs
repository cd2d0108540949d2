//! Words that place a time expression (`data/time-words.tsv`).

use std::sync::LazyLock;

use crate::tagged::{Tagged, Use};

/// What the time tagger takes a word for (the file's `uses` column).
#[derive(Clone, Copy, PartialEq, Eq, Debug, strum::VariantArray, strum::IntoStaticStr)]
#[strum(serialize_all = "kebab-case")]
pub enum TimeWordUse {
    /// Before a month named alone, it makes the month a time expression ("in
    /// May").
    MonthCue,
    /// It marks what follows as ahead of the article ("will", "next").
    Future,
    /// It marks the past without being a verb ("ago").
    Past,
}

impl Use for TimeWordUse {
    const LOWERCASE: bool = true;
}

const FILE: &str = "time-words.tsv";
const TIME_WORDS_TSV: &str = include_str!("../data/time-words.tsv");

static TIME_WORDS: LazyLock<Tagged> =
    LazyLock::new(|| Tagged::load::<TimeWordUse>(FILE, TIME_WORDS_TSV));

/// Whether `word`, lowercase, is a time word of that use.
pub fn time_word(word: &str, use_: TimeWordUse) -> bool {
    TIME_WORDS.has(word, use_)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_file_parses() {
        Tagged::parse::<TimeWordUse>(FILE, TIME_WORDS_TSV).unwrap();
        assert!(time_word("since", TimeWordUse::MonthCue) && time_word("since", TimeWordUse::Past));
        assert!(time_word("’ll", TimeWordUse::Future) && time_word("'ll", TimeWordUse::Future));
        assert!(!time_word("Will", TimeWordUse::Future));
    }
}
