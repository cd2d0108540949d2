//! Sequence models over hashed feature keys, frozen into a quantised table.
//!
//! A stage whose features are 64-bit keys ([`crate::key1`] and the like) gives
//! them dense ids with a [`KeyTable`] for training with the
//! [`crate::SequenceTrainer`], then freezes the averaged model into a
//! [`QuantisedModel`]: one open-addressing table of 16-byte slots, each a
//! 32-bit tag of the key and up to [`MAX_LABELS`] weights as 16-bit multiples
//! of one scale, so that a lookup touches one cache line and four slots share
//! one. Lookups are bound by cache misses, so the smaller the table the faster
//! the stage; the rounding (a 65,536th of the largest weight) moves a score by
//! far less than the margins decoding turns on. The full keys and exact
//! weights are kept apart, for writing the file, so a model read and written
//! again gives the same bytes.

use crate::keys::KeyMap;
use crate::model::ModelError;
use crate::sequence::{SequenceModel, TransitionMask, decode_scores};
use crate::wire::{Reader, Writer};

/// The most labels a [`QuantisedModel`] scores.
pub const MAX_LABELS: usize = 5;

/// Dense ids for feature keys, in the order they were first seen.
#[derive(Clone, Debug, Default)]
pub struct KeyTable {
    ids: KeyMap<u32>,
    keys: Vec<u64>,
}

impl KeyTable {
    /// An empty table.
    pub fn new() -> KeyTable {
        KeyTable::default()
    }

    /// The id of a key, giving it the next one when it is new; `None` once
    /// `u32` ids run out.
    pub fn intern(&mut self, key: u64) -> Option<u32> {
        if let Some(id) = self.ids.get(&key) {
            return Some(*id);
        }
        let id = u32::try_from(self.keys.len()).ok()?;
        self.ids.insert(key, id);
        self.keys.push(key);
        Some(id)
    }

    /// The key of an id.
    pub fn key(&self, id: u32) -> Option<u64> {
        self.keys.get(id as usize).copied()
    }

    /// How many keys it holds.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether it holds no key.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }
}

/// One feature's weights and the tag of its key.
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    tag: u32,
    weights: [i16; MAX_LABELS],
}

/// An open-addressing table (linear probing, at most half full) from feature
/// key to weights. A slot is found by the key's low bits and recognised by its
/// high 32 bits (the tag; tag 0 marks an empty slot, so a key whose tag would be
/// 0 gets 1). An unknown key is mistaken for a known one only when both share
/// a probe run and all 32 tag bits: about once in a billion lookups.
#[derive(Clone, Debug, Default)]
struct Table {
    slots: Vec<Slot>,
    keys: Vec<u64>,
    exact: Vec<[f32; MAX_LABELS]>,
    /// What one unit of a slot weight is worth.
    scale: f32,
    len: usize,
}

#[inline]
fn tag(key: u64) -> u32 {
    ((key >> 32) as u32).max(1)
}

impl Table {
    /// A table of rows `(key, weights)`; a key given twice keeps its last weights.
    fn from_rows(rows: &[(u64, [f32; MAX_LABELS])]) -> Table {
        let capacity = (rows.len().max(1) * 2).next_power_of_two();
        let largest = rows
            .iter()
            .flat_map(|(_, weights)| weights.iter())
            .filter(|w| w.is_finite())
            .fold(0.0f32, |max, w| max.max(w.abs()));
        let scale = if largest > 0.0 {
            largest / f32::from(i16::MAX)
        } else {
            1.0
        };
        let mut table = Table {
            slots: vec![Slot::default(); capacity],
            keys: vec![0; capacity],
            exact: vec![[0.0; MAX_LABELS]; capacity],
            scale,
            len: 0,
        };
        for (key, weights) in rows {
            table.insert(*key, *weights);
        }
        table
    }

    fn mask(&self) -> usize {
        self.slots.len().saturating_sub(1)
    }

    fn insert(&mut self, key: u64, weights: [f32; MAX_LABELS]) {
        let mask = self.mask();
        let mut quantized = [0i16; MAX_LABELS];
        for (q, w) in quantized.iter_mut().zip(&weights) {
            // `as` saturates, and maps a NaN to 0.
            *q = (w / self.scale).round() as i16;
        }
        let mut at = key as usize & mask;
        for _ in 0..self.slots.len() {
            let (Some(slot), Some(full), Some(exact)) = (
                self.slots.get_mut(at),
                self.keys.get_mut(at),
                self.exact.get_mut(at),
            ) else {
                return;
            };
            if slot.tag == 0 || *full == key {
                if slot.tag == 0 {
                    self.len += 1;
                }
                *slot = Slot {
                    tag: tag(key),
                    weights: quantized,
                };
                *full = key;
                *exact = weights;
                return;
            }
            at = (at + 1) & mask;
        }
    }

    /// The tag in the slot where a key's probe starts.
    #[inline]
    fn home_tag(&self, key: u64) -> u32 {
        self.slots
            .get(key as usize & self.mask())
            .map_or(0, |s| s.tag)
    }

    #[inline]
    fn get(&self, key: u64) -> Option<&[i16; MAX_LABELS]> {
        let wanted = tag(key);
        let mask = self.mask();
        let mut at = key as usize & mask;
        loop {
            let slot = self.slots.get(at)?;
            if slot.tag == wanted {
                return Some(&slot.weights);
            }
            if slot.tag == 0 {
                return None;
            }
            at = (at + 1) & mask;
        }
    }

    /// The rows in key order, with their exact weights.
    fn sorted(&self) -> Vec<(u64, &[f32; MAX_LABELS])> {
        let mut rows: Vec<(u64, &[f32; MAX_LABELS])> = self
            .keys
            .iter()
            .zip(&self.slots)
            .zip(&self.exact)
            .filter(|((_, s), _)| s.tag != 0)
            .map(|((k, _), e)| (*k, e))
            .collect();
        rows.sort_unstable_by_key(|(k, _)| *k);
        rows
    }
}

/// Quantised weights summed per label, in units of the model's scale: sums of
/// integers, so they add up to the same value in any order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sums([i32; MAX_LABELS]);

impl Sums {
    #[inline]
    fn add_weights(&mut self, weights: &[i16; MAX_LABELS]) {
        for (s, w) in self.0.iter_mut().zip(weights) {
            *s += i32::from(*w);
        }
    }
}

impl std::ops::Add for Sums {
    type Output = Sums;

    #[inline]
    fn add(mut self, other: Sums) -> Sums {
        for (s, o) in self.0.iter_mut().zip(other.0) {
            *s += o;
        }
        self
    }
}

/// A frozen sequence model over feature keys: quantised weights per key and
/// label, and exact transitions.
#[derive(Clone, Debug)]
pub struct QuantisedModel {
    labels: usize,
    table: Table,
    /// `(labels + 1) × labels`: row `labels` holds the start weights.
    transitions: Vec<f32>,
}

impl QuantisedModel {
    /// Freezes an averaged model whose feature ids are those of `keys`,
    /// keeping only the keys with a weight of at least `prune` in magnitude.
    /// Labels past [`MAX_LABELS`] are dropped.
    pub fn freeze(model: &SequenceModel, keys: &KeyTable, prune: f32) -> QuantisedModel {
        let labels = usize::from(model.n_labels()).min(MAX_LABELS);
        let mut rows = Vec::new();
        for (id, key) in (0u32..).zip(&keys.keys) {
            let mut weights = [0.0; MAX_LABELS];
            for (label, weight) in model.emissions.row(id) {
                if usize::from(label) < labels
                    && let Some(slot) = weights.get_mut(usize::from(label))
                {
                    *slot = weight;
                }
            }
            if weights.iter().any(|w| *w != 0.0 && w.abs() >= prune) {
                rows.push((*key, weights));
            }
        }
        let mut transitions = vec![0.0; (labels + 1) * labels];
        let n = usize::from(model.n_labels());
        for from in 0..=labels {
            let source = if from == labels { n } else { from };
            for to in 0..labels {
                if let (Some(slot), Some(weight)) = (
                    transitions.get_mut(from * labels + to),
                    model.transitions.get(source * n + to),
                ) {
                    *slot = *weight;
                }
            }
        }
        QuantisedModel {
            labels,
            table: Table::from_rows(&rows),
            transitions,
        }
    }

    /// Appends the emission scores (one per label) of a position with these keys.
    #[inline]
    pub fn score(&self, keys: &[u64], out: &mut Vec<f32>) {
        self.score_from(Sums::default(), keys, out);
    }

    /// The weights of `keys` summed, exactly: a part of a position's score that
    /// several positions share can be summed once and completed by
    /// [`QuantisedModel::score_from`].
    #[inline]
    pub fn sums(&self, keys: &[u64]) -> Sums {
        let mut sums = Sums::default();
        self.add_keys(keys, &mut sums);
        sums
    }

    /// [`QuantisedModel::score`] of a position whose other keys' weights are
    /// `base` (from [`QuantisedModel::sums`]): the same scores, to the bit, as
    /// scoring all the keys at once, since quantised weights add exactly.
    #[inline]
    pub fn score_from(&self, mut base: Sums, keys: &[u64], out: &mut Vec<f32>) {
        self.add_keys(keys, &mut base);
        let scale = self.table.scale;
        out.extend(base.0.iter().take(self.labels).map(|s| *s as f32 * scale));
    }

    #[inline]
    fn add_keys(&self, keys: &[u64], sums: &mut Sums) {
        // Lookups are bound by cache misses: touching every key's home slot
        // first lets the processor wait on all those misses at once, and the
        // probes that follow find their lines in cache.
        let mut warm = 0u32;
        for key in keys {
            warm ^= self.table.home_tag(*key);
        }
        std::hint::black_box(warm);
        for key in keys {
            if let Some(weights) = self.table.get(*key) {
                sums.add_weights(weights);
            }
        }
    }

    /// The best labels for emission scores (`labels` per position) under a
    /// transition mask and per-position label masks (see [`decode_scores`]).
    pub fn decode(&self, emissions: &[f32], mask: &TransitionMask, allowed: &[u64]) -> Vec<u16> {
        decode_scores(
            self.labels,
            emissions,
            &self.transitions,
            Some(mask),
            allowed,
        )
    }

    /// The score of a labelling: its emissions and transitions.
    pub fn path_score(&self, emissions: &[f32], path: &[u16]) -> f32 {
        let mut previous = self.labels;
        let mut total = 0.0;
        for (position, label) in path.iter().enumerate() {
            let label = usize::from(*label);
            total += self
                .transitions
                .get(previous * self.labels + label)
                .copied()
                .unwrap_or(0.0);
            total += emissions
                .get(position * self.labels + label)
                .copied()
                .unwrap_or(0.0);
            previous = label;
        }
        total
    }

    /// How many labels it scores.
    pub fn labels(&self) -> usize {
        self.labels
    }

    /// How many feature keys it holds.
    pub fn rows(&self) -> usize {
        self.table.len
    }

    /// Writes the model: label count, transition weights, then the
    /// `(key, one f32 per label)` rows sorted by key, so that the bytes are a
    /// function of the weights alone.
    pub fn write(&self, out: &mut Writer) {
        out.u32(self.labels as u32);
        for weight in &self.transitions {
            out.f32(*weight);
        }
        let rows = self.table.sorted();
        out.u32(rows.len() as u32);
        for (key, weights) in rows {
            out.u64(key);
            for weight in weights.iter().take(self.labels) {
                out.f32(*weight);
            }
        }
    }

    /// Reads what [`QuantisedModel::write`] wrote.
    pub fn read(input: &mut Reader<'_>) -> Result<QuantisedModel, ModelError> {
        let labels = input.u32()? as usize;
        if labels == 0 || labels > MAX_LABELS {
            return Err(input.corrupt(&format!("{labels} labels")));
        }
        let mut transitions = Vec::with_capacity((labels + 1) * labels);
        for _ in 0..(labels + 1) * labels {
            transitions.push(input.f32()?);
        }
        let rows = input.u32()? as usize;
        // Each row takes 8 + 4 × labels bytes: refuse counts the input cannot hold.
        if rows.saturating_mul(8 + 4 * labels) > input.remaining() {
            return Err(input.corrupt(&format!("{rows} rows do not fit the file")));
        }
        let mut kept = Vec::with_capacity(rows);
        for _ in 0..rows {
            let key = input.u64()?;
            let mut weights = [0.0; MAX_LABELS];
            for slot in weights.iter_mut().take(labels) {
                *slot = input.f32()?;
            }
            kept.push((key, weights));
        }
        Ok(QuantisedModel {
            labels,
            table: Table::from_rows(&kept),
            transitions,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SequenceTrainer;

    #[test]
    fn weights_keep_their_value_to_a_65536th_of_the_largest() {
        let rows = [
            (7u64, [120.5, -3.25, 0.001, 0.0, 0.0]),
            (9u64 << 40, [-0.5, 60.0, -120.5, 0.0, 0.0]),
        ];
        let table = Table::from_rows(&rows);
        for (key, exact) in rows {
            let quantized = table.get(key).unwrap();
            for (q, e) in quantized.iter().zip(exact) {
                assert!(
                    (f32::from(*q) * table.scale - e).abs() <= table.scale,
                    "{e}"
                );
            }
        }
        assert!(table.get(8).is_none());
        let sorted: Vec<u64> = table.sorted().iter().map(|(k, _)| *k).collect();
        assert_eq!(sorted, [7, 9 << 40]);
        assert_eq!(
            table.sorted()[0].1,
            &rows[0].1,
            "exact weights are kept for the file"
        );
    }

    #[test]
    fn learns_a_toy_task_freezes_and_round_trips() {
        // Label 1 for positions whose feature key is 7, else 0.
        let data: Vec<(Vec<Vec<u64>>, Vec<u16>)> = vec![
            (vec![vec![1, 7], vec![1, 3], vec![1, 7]], vec![1, 0, 1]),
            (vec![vec![1, 3], vec![1, 3]], vec![0, 0]),
        ];
        let mut keys = KeyTable::new();
        let sequences: Vec<Vec<Vec<u32>>> = data
            .iter()
            .map(|(positions, _)| {
                positions
                    .iter()
                    .map(|p| p.iter().filter_map(|k| keys.intern(*k)).collect())
                    .collect()
            })
            .collect();
        let mut trainer = SequenceTrainer::new(2);
        for _ in 0..5 {
            for (sequence, (_, gold)) in sequences.iter().zip(&data) {
                trainer.train_sequence(sequence, gold, None);
            }
        }
        let model = QuantisedModel::freeze(&trainer.average(), &keys, 0.0);
        let mask = TransitionMask::allow_all(2);
        let mut emissions = Vec::new();
        model.score(&[1, 3], &mut emissions);
        model.score(&[1, 7], &mut emissions);
        let path = model.decode(&emissions, &mask, &[]);
        assert_eq!(path, [0, 1]);
        assert!(model.path_score(&emissions, &path) > model.path_score(&emissions, &[1, 0]));
        let mut writer = Writer::default();
        model.write(&mut writer);
        let bytes = writer.into_bytes();
        let back = QuantisedModel::read(&mut Reader::new(&bytes)).unwrap();
        assert_eq!(back.rows(), model.rows());
        let (mut a, mut b) = (Vec::new(), Vec::new());
        back.score(&[7], &mut a);
        model.score(&[7], &mut b);
        assert_eq!(a, b);
        let mut again = Writer::default();
        back.write(&mut again);
        assert_eq!(again.into_bytes(), bytes);
    }
}
