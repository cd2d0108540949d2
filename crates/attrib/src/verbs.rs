//! Words that attribute, known before training: verbs of saying, thinking,
//! showing and stance, and the nouns news writing attributes with.
//!
//! The learned cue lexicon knows only words seen in cues at least twice in
//! the training split; PolNeAR's cues run to a long tail of verbs seen once or
//! never ("implored", "pooh-poohed"). This list gives the cue tagger a prior
//! for them. It is English knowledge written by hand, not taken from the
//! corpus, and attest-lang's (`attributing.tsv`). Words are matched by the
//! rough lemma of `features::lemma`, so each entry stands for its inflections.

use std::collections::HashSet;
use std::sync::OnceLock;

use attest_lang::{AttributingKind, attributing_words};
use attest_learn::fnv1a64;

/// The rough lemmas of every listed word and inflection, by hash.
fn lemmas() -> &'static HashSet<u64> {
    static LEMMAS: OnceLock<HashSet<u64>> = OnceLock::new();
    LEMMAS.get_or_init(|| {
        let mut set = HashSet::new();
        let mut add = |word: &str| {
            set.insert(fnv1a64(crate::features::lemma(word).as_bytes()));
        };
        for verb in attributing_words(AttributingKind::Verb) {
            add(verb);
            let stem = verb.strip_suffix('e').unwrap_or(verb);
            for form in [
                format!("{verb}s"),
                format!("{verb}es"),
                format!("{stem}ed"),
                format!("{stem}ing"),
            ] {
                add(&form);
            }
            if let Some(stem) = verb.strip_suffix('y') {
                add(&format!("{stem}ied"));
                add(&format!("{stem}ies"));
            }
        }
        let irregular = attributing_words(AttributingKind::Irregular);
        for word in irregular
            .iter()
            .chain(attributing_words(AttributingKind::Noun))
        {
            add(word);
            add(&format!("{word}s"));
        }
        set
    })
}

/// Whether a rough lemma (hashed) is one of a listed word's.
pub(crate) fn attributes(lemma_hash: u64) -> bool {
    lemmas().contains(&lemma_hash)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::lemma;

    fn listed(word: &str) -> bool {
        attributes(fnv1a64(lemma(word).as_bytes()))
    }

    #[test]
    fn inflections_of_listed_words_match() {
        for word in [
            "argued",
            "argues",
            "arguing",
            "said",
            "told",
            "denies",
            "denied",
            "statement",
            "claims",
            "insisting",
            "worried",
        ] {
            assert!(listed(word), "{word}");
        }
        for word in ["table", "the", "quickly", "bridge"] {
            assert!(!listed(word), "{word}");
        }
    }
}
