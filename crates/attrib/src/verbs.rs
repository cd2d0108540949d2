//! Words that attribute, known before training: verbs of saying, thinking,
//! showing and stance, and the nouns news writing attributes with.
//!
//! The learned cue lexicon knows only words seen in cues at least twice in
//! the training split; PolNeAR's cues run to a long tail of verbs seen once or
//! never ("implored", "pooh-poohed"). This list gives the cue tagger a prior
//! for them. It is English knowledge written by hand, not taken from the
//! corpus. Words are matched by the rough lemma of `features::lemma`, so each
//! entry stands for its inflections.

use std::collections::HashSet;
use std::sync::OnceLock;

use attest_learn::fnv1a64;

/// Verbs, in their base form; inflections are derived.
const VERBS: &[&str] = &[
    "accept",
    "accuse",
    "acknowledge",
    "add",
    "address",
    "admit",
    "advise",
    "advocate",
    "affirm",
    "agree",
    "aim",
    "alert",
    "allege",
    "allow",
    "announce",
    "answer",
    "anticipate",
    "apologize",
    "appeal",
    "applaud",
    "argue",
    "articulate",
    "ask",
    "assert",
    "assess",
    "assume",
    "assure",
    "attack",
    "attest",
    "attribute",
    "back",
    "bash",
    "believe",
    "bemoan",
    "berate",
    "blame",
    "blast",
    "boast",
    "brag",
    "brand",
    "brief",
    "bristle",
    "call",
    "caution",
    "celebrate",
    "challenge",
    "champion",
    "chant",
    "characterize",
    "charge",
    "chastise",
    "cheer",
    "cite",
    "claim",
    "clarify",
    "commend",
    "comment",
    "compare",
    "complain",
    "concede",
    "conclude",
    "concur",
    "condemn",
    "confess",
    "confirm",
    "consider",
    "contend",
    "continue",
    "contradict",
    "convince",
    "correct",
    "counter",
    "credit",
    "criticize",
    "debate",
    "debunk",
    "decide",
    "declare",
    "decline",
    "decry",
    "deem",
    "defend",
    "demand",
    "denounce",
    "deny",
    "depict",
    "deplore",
    "describe",
    "detail",
    "disagree",
    "disclose",
    "discuss",
    "dismiss",
    "dispute",
    "doubt",
    "dread",
    "dub",
    "echo",
    "emphasize",
    "encourage",
    "endorse",
    "envision",
    "equate",
    "estimate",
    "expect",
    "explain",
    "express",
    "fear",
    "feel",
    "find",
    "forecast",
    "frame",
    "fret",
    "grill",
    "guess",
    "hail",
    "hammer",
    "highlight",
    "hint",
    "hope",
    "imagine",
    "implore",
    "imply",
    "indicate",
    "inform",
    "insinuate",
    "insist",
    "instruct",
    "insult",
    "intend",
    "interview",
    "joke",
    "judge",
    "know",
    "label",
    "lament",
    "laud",
    "learn",
    "lie",
    "liken",
    "link",
    "list",
    "lobby",
    "maintain",
    "mention",
    "mock",
    "mourn",
    "note",
    "notice",
    "object",
    "observe",
    "oppose",
    "order",
    "outline",
    "paint",
    "pitch",
    "plan",
    "plead",
    "pledge",
    "point",
    "portray",
    "post",
    "praise",
    "predict",
    "press",
    "presume",
    "proclaim",
    "promise",
    "propose",
    "protest",
    "prove",
    "publish",
    "push",
    "question",
    "quip",
    "quote",
    "rail",
    "rate",
    "realize",
    "reassure",
    "rebuff",
    "rebut",
    "recall",
    "recognize",
    "recommend",
    "refer",
    "reflect",
    "refuse",
    "refute",
    "regret",
    "reiterate",
    "reject",
    "relate",
    "remark",
    "remind",
    "repeat",
    "reply",
    "report",
    "reprimand",
    "request",
    "respond",
    "retort",
    "reveal",
    "ridicule",
    "rip",
    "rule",
    "say",
    "scoff",
    "seek",
    "shout",
    "show",
    "signal",
    "slam",
    "speak",
    "speculate",
    "state",
    "stress",
    "suggest",
    "support",
    "suppose",
    "suspect",
    "swear",
    "talk",
    "taunt",
    "tease",
    "tell",
    "testify",
    "thank",
    "think",
    "threaten",
    "tout",
    "tweet",
    "underscore",
    "understand",
    "urge",
    "vouch",
    "vow",
    "wager",
    "want",
    "warn",
    "weigh",
    "welcome",
    "wish",
    "wonder",
    "worry",
    "write",
    "yell",
];

/// Inflected forms the derivation misses: irregular verbs.
const IRREGULAR: &[&str] = &[
    "said",
    "says",
    "told",
    "wrote",
    "written",
    "thought",
    "knew",
    "known",
    "felt",
    "found",
    "spoke",
    "spoken",
    "swore",
    "sworn",
    "understood",
    "shown",
    "taught",
];

/// Nouns that attribute: "in a statement", "his claim that".
const NOUNS: &[&str] = &[
    "accusation",
    "allegation",
    "announcement",
    "argument",
    "assertion",
    "belief",
    "charge",
    "claim",
    "comment",
    "complaint",
    "concern",
    "criticism",
    "declaration",
    "denial",
    "estimate",
    "interview",
    "letter",
    "memo",
    "message",
    "pledge",
    "poll",
    "post",
    "promise",
    "proposal",
    "question",
    "remark",
    "report",
    "response",
    "speech",
    "statement",
    "study",
    "survey",
    "testimony",
    "tweet",
    "view",
    "warning",
];

/// The rough lemmas of every listed word and inflection, by hash.
fn lemmas() -> &'static HashSet<u64> {
    static LEMMAS: OnceLock<HashSet<u64>> = OnceLock::new();
    LEMMAS.get_or_init(|| {
        let mut set = HashSet::new();
        let mut add = |word: &str| {
            set.insert(fnv1a64(crate::features::lemma(word).as_bytes()));
        };
        for verb in VERBS {
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
        for word in IRREGULAR.iter().chain(NOUNS) {
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
