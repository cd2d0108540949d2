//! Words of attribution cues and the stance they carry
//! (`data/stance-cues.tsv`). The classes are attest-doc's [`StanceLabel`],
//! named in the file as JSON spells them, so a new stance class is a variant
//! of that enum and its words here, and nothing else in this crate.

use std::collections::HashMap;
use std::sync::LazyLock;

use attest_doc::{StanceLabel, from_serde_name};

use crate::tagged::word_lines;

/// A way of declining that a cue word marks, besides its class or instead
/// of one (the file's uses in kebab case).
#[derive(Clone, Copy, PartialEq, Eq, Debug, strum::VariantArray, strum::IntoStaticStr)]
#[strum(serialize_all = "kebab-case")]
pub enum Declining {
    /// Declines before "to" ("declined to comment").
    Decline,
    /// Declines by itself ("unavailable for comment").
    Unavailable,
    /// Negated, says the source gave nothing ("did not respond").
    Silence,
}

/// What the file says of one word.
#[derive(Clone, Copy, Default, Debug)]
struct Cue {
    class: Option<StanceLabel>,
    declining: [bool; 3],
}

const FILE: &str = "stance-cues.tsv";
const STANCE_CUES_TSV: &str = include_str!("../data/stance-cues.tsv");

static STANCE_CUES: LazyLock<HashMap<&'static str, Cue>> =
    LazyLock::new(|| parse(STANCE_CUES_TSV).unwrap_or_default());

fn declining_index(declining: Declining) -> usize {
    <Declining as strum::VariantArray>::VARIANTS
        .iter()
        .position(|d| *d == declining)
        .unwrap_or(0)
}

/// Reads the file: sorted lowercase words, each with at most one stance class
/// and any ways of declining; every class but `declines` (which the ways of
/// declining make) and every way of declining has a word.
fn parse(text: &'static str) -> Result<HashMap<&'static str, Cue>, String> {
    let mut cues = HashMap::new();
    for (line, word, uses) in word_lines(FILE, text, true)? {
        let error = |why: &str| format!("{FILE}: {why}: {line:?}");
        let mut cue = Cue::default();
        for name in uses.split(',') {
            let declining = <Declining as strum::VariantArray>::VARIANTS
                .iter()
                .find(|d| <&str>::from(**d) == name);
            if let Some(declining) = declining {
                cue.declining[declining_index(*declining)] = true;
            } else if let Some(class) = from_serde_name::<StanceLabel>(name) {
                if cue.class.replace(class).is_some() {
                    return Err(error("two stance classes"));
                }
            } else {
                return Err(error("neither a stance class nor a way of declining"));
            }
        }
        cues.insert(word, cue);
    }
    let unlisted_class = StanceLabel::ALL
        .iter()
        .filter(|label| **label != StanceLabel::Declines)
        .find(|label| !cues.values().any(|cue| cue.class == Some(**label)));
    if let Some(label) = unlisted_class {
        return Err(format!("{FILE}: no word is listed for {}", label.name()));
    }
    for declining in <Declining as strum::VariantArray>::VARIANTS {
        if !cues
            .values()
            .any(|cue| cue.declining[declining_index(*declining)])
        {
            return Err(format!(
                "{FILE}: no word is listed for {}",
                <&str>::from(*declining)
            ));
        }
    }
    Ok(cues)
}

/// The stance class `word`, lowercase, carries on its own, if any.
pub fn stance_class(word: &str) -> Option<StanceLabel> {
    STANCE_CUES.get(word)?.class
}

/// Whether `word`, lowercase, is a cue word of that way of declining.
pub fn declining(word: &str, declining: Declining) -> bool {
    STANCE_CUES
        .get(word)
        .is_some_and(|cue| cue.declining[declining_index(declining)])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_file_parses() {
        assert!(
            parse(STANCE_CUES_TSV).is_ok(),
            "{:?}",
            parse(STANCE_CUES_TSV).err()
        );
        assert_eq!(stance_class("stated"), Some(StanceLabel::Asserts));
        assert_eq!(stance_class("statement"), None);
        assert!(declining("responded", Declining::Silence));
        assert!(!declining("said", Declining::Silence));
    }

    #[test]
    fn malformed_lines_are_refused() {
        let error = |text: &'static str| parse(text).err().unwrap_or_default();
        assert!(error("said\tasserts,denies\n").contains("two stance classes"));
        assert!(error("said\tshouts\n").contains("neither"));
        assert!(error("said\tasserts\nadded\tasserts\n").contains("sorted order"));
        assert!(error("Said\tasserts\n").contains("not lowercase"));
        assert!(error("said\tasserts\n").contains("no word is listed for"));
    }
}
