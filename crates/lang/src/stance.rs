//! Words of attribution cues and the stance they carry
//! (`data/stance-cues.tsv`).

use std::sync::LazyLock;

use crate::tagged::{Tagged, Use};

/// What a cue word says of its source's stance (the file's `uses` column):
/// one of the seven classes, or a way of declining.
#[derive(Clone, Copy, PartialEq, Eq, Debug, strum::VariantArray, strum::IntoStaticStr)]
#[strum(serialize_all = "kebab-case")]
pub enum StanceUse {
    /// "confirmed".
    Confirms,
    /// "denied".
    Denies,
    /// "alleged".
    Claims,
    /// "reported".
    Reports,
    /// "believes".
    Believes,
    /// "vowed".
    Intends,
    /// "said".
    Asserts,
    /// Declines before "to" ("declined to comment").
    Decline,
    /// Declines by itself ("unavailable for comment").
    Unavailable,
    /// Negated, says the source gave nothing ("did not respond").
    Silence,
}

impl Use for StanceUse {
    const LOWERCASE: bool = true;
}

/// The uses that are stance classes; a word has one at most.
pub const STANCE_CLASSES: [StanceUse; 7] = [
    StanceUse::Confirms,
    StanceUse::Denies,
    StanceUse::Claims,
    StanceUse::Reports,
    StanceUse::Believes,
    StanceUse::Intends,
    StanceUse::Asserts,
];

const FILE: &str = "stance-cues.tsv";
const STANCE_CUES_TSV: &str = include_str!("../data/stance-cues.tsv");

static STANCE_CUES: LazyLock<Tagged> =
    LazyLock::new(|| Tagged::load::<StanceUse>(FILE, STANCE_CUES_TSV));

/// Whether `word`, lowercase, is a cue word of that use.
pub fn stance_word(word: &str, use_: StanceUse) -> bool {
    STANCE_CUES.has(word, use_)
}

/// The stance class `word`, lowercase, carries on its own, if any.
pub fn stance_class(word: &str) -> Option<StanceUse> {
    STANCE_CLASSES
        .into_iter()
        .find(|class| stance_word(word, *class))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_file_parses_with_one_class_a_word() {
        let list = Tagged::parse::<StanceUse>(FILE, STANCE_CUES_TSV).unwrap();
        for (k, class) in STANCE_CLASSES.iter().enumerate() {
            for other in STANCE_CLASSES.iter().skip(k + 1) {
                for word in list.words(*class) {
                    assert!(!list.has(word, *other), "{word} is {class:?} and {other:?}");
                }
            }
        }
        assert_eq!(stance_class("stated"), Some(StanceUse::Asserts));
        assert_eq!(stance_class("statement"), None);
        assert!(stance_word("responded", StanceUse::Silence));
    }
}
