//! Words that place a time expression (`data/time-words.tsv`).

use crate::tagged::{Use, use_list};

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

use_list!(TimeWordUse, "time-words.tsv", lowercase: true);

/// Whether `word`, lowercase, is a time word of that use.
pub fn time_word(word: &str, use_: TimeWordUse) -> bool {
    use_.listed(word)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tagged::Tagged;

    #[test]
    fn the_shipped_file_parses() {
        Tagged::parse::<TimeWordUse>().unwrap();
        assert!(time_word("since", TimeWordUse::MonthCue) && time_word("since", TimeWordUse::Past));
        assert!(time_word("’ll", TimeWordUse::Future) && time_word("'ll", TimeWordUse::Future));
        assert!(!time_word("Will", TimeWordUse::Future));
    }
}
