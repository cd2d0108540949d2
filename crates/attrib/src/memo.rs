//! The cue tagger's sums per word, kept from one document to the next.
//!
//! Twenty of the cue tagger's 41 keys per token read only the text and tag of
//! the token itself ([`own_cue_keys`]) or of one neighbour
//! ([`neighbour_cue_keys`]). Their weights are summed once per word and tag and
//! kept, so that a token costs one memo lookup and 21 table lookups instead of
//! 41: the table lookups are most of the stage's time. The scores are the same
//! to the bit as scoring every key, as quantised weights add exactly.

use std::sync::Mutex;

use attest_learn::{KeyMap, QuantisedModel, Sums, mix};

use crate::features::{NEIGHBOURS, TokenFacts, View, neighbour_cue_keys, own_cue_keys};

/// How many words a memo keeps, about 4 MB: past it, it starts again empty.
/// News text draws most of its tokens from a few thousand words.
const MEMO_WORDS: usize = 1 << 15;

/// The sums a word with a tag contributes to a cue score: as the token
/// scored, and as each neighbour of [`NEIGHBOURS`].
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct WordSums {
    word: u64,
    pos: u64,
    own: Sums,
    as_neighbour: [Sums; NEIGHBOURS.len()],
}

impl WordSums {
    fn new(model: &QuantisedModel, t: &TokenFacts, keys: &mut Vec<u64>) -> WordSums {
        keys.clear();
        own_cue_keys(t, keys);
        let own = model.sums(keys);
        let mut as_neighbour = [Sums::default(); NEIGHBOURS.len()];
        for (sums, offset) in as_neighbour.iter_mut().zip(NEIGHBOURS) {
            keys.clear();
            neighbour_cue_keys(Some(t), offset, keys);
            *sums = model.sums(keys);
        }
        WordSums {
            word: t.word,
            pos: t.pos(),
            own,
            as_neighbour,
        }
    }
}

/// The sums of the neighbour keys past a sentence's edge, per neighbour.
pub(crate) fn edge_sums(model: &QuantisedModel) -> [Sums; NEIGHBOURS.len()] {
    let mut keys = Vec::new();
    NEIGHBOURS.map(|offset| {
        keys.clear();
        neighbour_cue_keys(None, offset, &mut keys);
        model.sums(&keys)
    })
}

/// Word sums by word and tag, and scratch space.
#[derive(Debug, Default)]
pub(crate) struct Memo {
    words: KeyMap<WordSums>,
    sentence: Vec<WordSums>,
    keys: Vec<u64>,
}

impl Memo {
    /// The sums of token `t`, from the memo or computed and kept.
    fn word(&mut self, model: &QuantisedModel, t: &TokenFacts) -> WordSums {
        let key = mix(t.word, t.pos());
        if let Some(sums) = self.words.get(&key)
            && sums.word == t.word
            && sums.pos == t.pos()
        {
            return *sums;
        }
        let sums = WordSums::new(model, t, &mut self.keys);
        if self.words.len() >= MEMO_WORDS {
            self.words.clear();
        }
        self.words.insert(key, sums);
        sums
    }

    /// The part of each cue score of `sentence` that its words' sums give, in
    /// `out`, one per token.
    pub(crate) fn sentence(
        &mut self,
        model: &QuantisedModel,
        edge: &[Sums; NEIGHBOURS.len()],
        view: &View,
        sentence: (usize, usize),
        out: &mut Vec<Sums>,
    ) {
        out.clear();
        let mut words = std::mem::take(&mut self.sentence);
        words.clear();
        let tokens = view.tokens.get(sentence.0..sentence.1).unwrap_or_default();
        words.extend(tokens.iter().map(|t| self.word(model, t)));
        for (position, word) in words.iter().enumerate() {
            let mut sums = word.own;
            for (slot, (offset, edge)) in NEIGHBOURS.iter().zip(edge).enumerate() {
                let neighbour = position
                    .checked_add_signed(*offset)
                    .and_then(|at| words.get(at))
                    .and_then(|other| other.as_neighbour.get(slot));
                sums = sums + *neighbour.unwrap_or(edge);
            }
            out.push(sums);
        }
        self.sentence = words;
    }
}

/// Memos waiting for a document: each document takes one for its time, so
/// that threads never share one while they work.
#[derive(Debug, Default)]
pub(crate) struct Memos(Mutex<Vec<Memo>>);

impl Memos {
    /// A memo, kept or new.
    pub(crate) fn take(&self) -> Memo {
        self.0
            .lock()
            .ok()
            .and_then(|mut memos| memos.pop())
            .unwrap_or_default()
    }

    /// Gives a memo back for the next document.
    pub(crate) fn give(&self, memo: Memo) {
        if let Ok(mut memos) = self.0.lock() {
            memos.push(memo);
        }
    }
}

impl Clone for Memos {
    /// A clone starts with no memo: memos are a cache, not part of the model.
    fn clone(&self) -> Memos {
        Memos::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Attributor;
    use attest_doc::{Article, Doc, Limits};

    #[test]
    fn memo_sums_score_to_the_bit_as_every_key_does() {
        let model = Attributor::bundled().unwrap();
        let mut memo = Memo::default();
        let (mut tokens, mut scored) = (0, 0);
        // The second text repeats words of the first: their sums come from the memo.
        for text in [
            "“We will appeal,” the union said on Monday. Officials declined to comment.",
            "The union said it would appeal. “Not today,” officials said, “or ever.”",
        ] {
            let mut doc = Doc::new(Article::new("t", text));
            doc.set_segmentation(attest_text::segment(text, &Limits::DEFAULT))
                .unwrap();
            let view = View::new(&doc, &model.lexicon);
            let (mut keys, mut sums) = (Vec::new(), Vec::new());
            for &sentence in &view.sentences {
                memo.sentence(&model.cue, &model.edge, &view, sentence, &mut sums);
                assert_eq!(sums.len(), sentence.1 - sentence.0);
                for (index, base) in (sentence.0..sentence.1).zip(&sums) {
                    let (mut every, mut memoised) = (Vec::new(), Vec::new());
                    view.cue_keys(index, sentence, &mut keys);
                    model.cue.score(&keys, &mut every);
                    keys.clear();
                    view.context_cue_keys(index, sentence, &mut keys);
                    model.cue.score_from(*base, &keys, &mut memoised);
                    let bits =
                        |scores: &[f32]| scores.iter().map(|s| s.to_bits()).collect::<Vec<_>>();
                    assert_eq!(bits(&memoised), bits(&every), "token {index} of {text:?}");
                    scored += 1;
                }
            }
            tokens += doc.tokens().len();
        }
        assert_eq!(scored, tokens);
        assert!(memo.words.len() < tokens, "repeated words are kept once");
    }
}
