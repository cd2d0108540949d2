//! Emission scores computed from tables: what makes tagging fast.
//!
//! Looking up each of a token's fifty-odd features by hash is what a tagger's
//! time would go to. Most features take their value from a small closed set,
//! so [`Tables`] sums their weights ahead of time, when the model loads:
//!
//! - per tag (and per pair of tags) at each position of [`POS_AT`] and
//!   [`POS_PAIRS`]; per word-list mark at each position of [`MARKS_AT`];
//! - per lower-case word the model knows: the weights of [`word_features`] when
//!   the word is the token's own, and of each [`WORD_AT`] feature when it is a
//!   neighbour's, so a token costs one word lookup instead of eight.
//!
//! Only [`combined_features`] are looked up by hash at tagging time. The sums
//! equal those of [`extract`](crate::features::extract) up to the order in which
//! floats are added; a test checks that.

use std::collections::{BTreeSet, HashMap};

use attest_learn::{Prehashed, Scorer, fnv1a64};

use crate::features::{
    BIAS, CAPITAL_INSIDE, Context, LOWER_ELSEWHERE, MARKS_AT, N_TAGS, POS_AT, POS_PAIRS, WORD_AT,
    article_facts, combined_features, mark_features, pos_name, word_features,
};
use crate::gazetteer::Kind;

/// How many word-list mark bits there are.
const N_MARKS: usize = 2 * Kind::ALL.len();

/// Weights summed ahead of time, `n` labels to a row.
#[derive(Clone, Debug)]
pub(crate) struct Tables {
    n: usize,
    /// The bias, and the two facts about the article.
    bias: Vec<f32>,
    lower_elsewhere: Vec<f32>,
    capital_inside: Vec<f32>,
    /// `[position][tag]` rows for [`POS_AT`].
    tags: Vec<f32>,
    /// `[pair][first tag][second tag]` rows for [`POS_PAIRS`].
    tag_pairs: Vec<f32>,
    /// `[position][mark bit]` rows for [`MARKS_AT`].
    marks: Vec<f32>,
    /// The row block of each known word, by the hash of its lower-case form.
    known: HashMap<u64, u32, Prehashed>,
    /// Per known word, `1 + WORD_AT.len()` rows: its own word features, then
    /// each neighbour feature.
    words: Vec<f32>,
}

/// The words a model knows, from its feature names: those of its word
/// features ([`word_features`], [`WORD_AT`]), whose weights [`Tables`] sums per
/// word when the model loads.
pub(crate) fn vocabulary<'a>(names: impl Iterator<Item = &'a str>) -> BTreeSet<String> {
    let prefixes: Vec<&str> = ["w="]
        .into_iter()
        .chain(WORD_AT.iter().map(|(name, _)| *name))
        .collect();
    names
        .filter_map(|name| prefixes.iter().find_map(|p| name.strip_prefix(p)))
        .map(str::to_owned)
        .collect()
}

/// Rows per known word.
const WORD_ROWS: usize = 1 + WORD_AT.len();

fn row_of(scorer: &Scorer, n: usize, parts: &[&str]) -> Vec<f32> {
    let mut row = vec![0.0; n];
    scorer.add(parts, &mut row);
    row
}

impl Tables {
    /// Tabulates the weights of `scorer`, with a row block for each word of
    /// `vocabulary` (see [`vocabulary`]).
    pub(crate) fn new<'a>(scorer: &Scorer, vocabulary: impl Iterator<Item = &'a str>) -> Tables {
        let n = usize::from(scorer.n_classes());
        let mut tags = Vec::with_capacity(POS_AT.len() * N_TAGS * n);
        for (name, _) in POS_AT {
            for tag in 0..N_TAGS {
                tags.extend(row_of(scorer, n, &[name, pos_name(tag)]));
            }
        }
        let mut tag_pairs = Vec::with_capacity(POS_PAIRS.len() * N_TAGS * N_TAGS * n);
        for (name, _) in POS_PAIRS {
            for first in 0..N_TAGS {
                for second in 0..N_TAGS {
                    tag_pairs.extend(row_of(
                        scorer,
                        n,
                        &[name, pos_name(first), " ", pos_name(second)],
                    ));
                }
            }
        }
        let mut marks = Vec::with_capacity(MARKS_AT.len() * N_MARKS * n);
        for (name, _) in MARKS_AT {
            for bit in 0..N_MARKS {
                let mut row = vec![0.0; n];
                mark_features(name, 1 << bit, &mut |parts| scorer.add(parts, &mut row));
                marks.extend(row);
            }
        }
        let mut tables = Tables {
            n,
            bias: row_of(scorer, n, &[BIAS]),
            lower_elsewhere: row_of(scorer, n, &[LOWER_ELSEWHERE]),
            capital_inside: row_of(scorer, n, &[CAPITAL_INSIDE]),
            tags,
            tag_pairs,
            marks,
            known: HashMap::default(),
            words: Vec::new(),
        };
        for word in vocabulary {
            let key = fnv1a64(word.as_bytes());
            if tables.known.contains_key(&key) {
                continue;
            }
            let Ok(block) = u32::try_from(tables.known.len()) else {
                break;
            };
            tables.known.insert(key, block);
            tables.words.extend(own_word_row(scorer, n, word));
            for (name, _) in WORD_AT {
                tables.words.extend(row_of(scorer, n, &[name, word]));
            }
        }
        tables
    }

    fn rows<'a>(&self, table: &'a [f32], index: usize) -> &'a [f32] {
        table
            .get(index * self.n..(index + 1) * self.n)
            .unwrap_or_default()
    }

    /// Adds the emission scores of every token of `range` (one sentence) to
    /// `out`, `n` to a token; leaves in `scratch` whether each is near a name
    /// ([`Scratch::near`]).
    pub(crate) fn emissions(
        &self,
        scorer: &Scorer,
        context: &Context<'_>,
        range: std::ops::Range<usize>,
        scratch: &mut Scratch,
        out: &mut [f32],
    ) {
        let n = self.n;
        // The row block of each word that a scored token reads (its own, or
        // a neighbour's within two), and of the boundary marks.
        scratch.near.clear();
        scratch
            .near
            .extend(range.clone().map(|i| context.near_name(i)));
        scratch.blocks.clear();
        for (k, i) in range.clone().enumerate() {
            let read = scratch
                .near
                .get(k.saturating_sub(2)..(k + 3).min(scratch.near.len()))
                .is_some_and(|window| window.contains(&true));
            let block = if read {
                self.known
                    .get(&fnv1a64(context.lower(i).as_bytes()))
                    .copied()
            } else {
                None
            };
            scratch.blocks.push(block);
        }
        let start_block = self.known.get(&fnv1a64(b"<s>")).copied();
        let end_block = self.known.get(&fnv1a64(b"</s>")).copied();
        let block_at = |at: isize| -> Option<u32> {
            if at < 0 {
                start_block
            } else {
                match scratch.blocks.get(at as usize) {
                    Some(block) => *block,
                    None => end_block,
                }
            }
        };
        scratch.own.clear();
        scratch.own.resize(n, 0.0);
        for (k, (i, row)) in range.clone().zip(out.chunks_exact_mut(n)).enumerate() {
            if !scratch.near.get(k).copied().unwrap_or(false) {
                // Outside, and cheap: no name is written without a capital
                // next to it (a test over the silver keeps this true).
                row.iter_mut().for_each(|x| *x = f32::NEG_INFINITY);
                if let Some(outside) = row.first_mut() {
                    *outside = 0.0;
                }
                continue;
            }
            add(row, &self.bias);
            match block_at(k as isize) {
                Some(block) => add(row, self.rows(&self.words, block as usize * WORD_ROWS)),
                None => {
                    scratch.own.iter_mut().for_each(|x| *x = 0.0);
                    own_word_into(scorer, context.lower(i), &mut scratch.own);
                    add(row, &scratch.own);
                }
            }
            for (slot, (_, offset)) in WORD_AT.iter().enumerate() {
                if let Some(block) = block_at(k as isize + offset) {
                    let index = block as usize * WORD_ROWS + 1 + slot;
                    add(row, self.rows(&self.words, index));
                }
            }
            for (slot, (_, offset)) in POS_AT.iter().enumerate() {
                let tag = context.pos_at(i, *offset);
                add(row, self.rows(&self.tags, slot * N_TAGS + tag));
            }
            for (slot, (_, offset)) in POS_PAIRS.iter().enumerate() {
                let first = context.pos_at(i, *offset);
                let second = context.pos_at(i, offset + 1);
                let index = (slot * N_TAGS + first) * N_TAGS + second;
                add(row, self.rows(&self.tag_pairs, index));
            }
            for (slot, (_, offset)) in MARKS_AT.iter().enumerate() {
                let mut marks = context.marks_at(i, *offset);
                while marks != 0 {
                    let bit = marks.trailing_zeros() as usize;
                    add(row, self.rows(&self.marks, slot * N_MARKS + bit));
                    marks &= marks - 1;
                }
            }
            let (lower_elsewhere, capital_inside) = article_facts(context, i);
            if lower_elsewhere {
                add(row, &self.lower_elsewhere);
            }
            if capital_inside {
                add(row, &self.capital_inside);
            }
            scratch.hashes.clear();
            combined_features(context, i, &mut |parts| {
                scratch.hashes.push(Scorer::hash(parts));
            });
            scorer.add_all(&scratch.hashes, row);
        }
    }
}

/// Buffers reused from sentence to sentence.
#[derive(Default, Debug)]
pub(crate) struct Scratch {
    hashes: Vec<u64>,
    near: Vec<bool>,
    blocks: Vec<Option<u32>>,
    own: Vec<f32>,
}

impl Scratch {
    /// Whether each token of the sentence last scored is near a name
    /// ([`Context::near_name`]): the others are outside for sure.
    pub(crate) fn near(&self) -> &[bool] {
        &self.near
    }
}

fn own_word_row(scorer: &Scorer, n: usize, word: &str) -> Vec<f32> {
    let mut row = vec![0.0; n];
    own_word_into(scorer, word, &mut row);
    row
}

fn own_word_into(scorer: &Scorer, word: &str, row: &mut [f32]) {
    word_features(word, &mut |parts| scorer.add(parts, row));
}

fn add(row: &mut [f32], weights: &[f32]) {
    for (score, weight) in row.iter_mut().zip(weights) {
        *score += weight;
    }
}
