//! Features and weights joined for fast scoring.
//!
//! Scoring through a [`crate::FeatureTable`] and [`crate::Weights`] costs a hash
//! lookup for the id, then reads of the row's offsets, classes and values: four
//! likely cache misses per feature, which is what a tagger's time goes to. A
//! [`Scorer`] keeps one open-addressing table from the hash of a feature name to
//! its first few (class, weight) pairs, held in the slot itself, and the range
//! of the rest: most features cost one miss. And [`Scorer::add_all`] looks up
//! all the features of a position before it adds any weights, so that the
//! processor overlaps the misses instead of waiting on each in turn.

use crate::features::fnv1a64_parts;
use crate::{FeatureTable, Weights};

/// How many (class, weight) pairs a slot holds itself; a row's others live in
/// `entries`. Three fill a 32-byte slot, and most rows of a tagger have at most three.
const INLINE: usize = 3;

/// One slot of the table: a feature's hash, its first weights, and where the
/// rest are.
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    /// The name's hash, never 0; 0 marks an empty slot.
    key: u64,
    /// `entries[start..end]` are the pairs beyond the inline ones.
    start: u32,
    end: u32,
    classes: [u16; INLINE],
    /// How many inline pairs are used.
    inline: u16,
    weights: [f32; INLINE],
}

/// Weights looked up by feature name, for applying a trained model.
#[derive(Clone, Debug)]
pub struct Scorer {
    slots: Vec<Slot>,
    mask: usize,
    entries: Vec<(u16, f32)>,
    n_classes: u16,
}

/// The table key of a hash: 0 is the empty mark, so it moves to 1.
fn key_of(hash: u64) -> u64 {
    hash.max(1)
}

impl Scorer {
    /// Joins a model's feature table and weights; features without weights are left out.
    pub fn new(features: &FeatureTable, weights: &Weights) -> Scorer {
        let used = (0..features.len())
            .filter_map(|id| u32::try_from(id).ok())
            .filter(|id| weights.row(*id).next().is_some())
            .count();
        // Under two-thirds full, so that probes stay short.
        let capacity = (used + used / 2 + 1).next_power_of_two();
        let mut scorer = Scorer {
            slots: vec![Slot::default(); capacity],
            mask: capacity - 1,
            entries: Vec::new(),
            n_classes: weights.n_classes(),
        };
        let mut row = Vec::new();
        // In id order, so that the layout is the same on every load.
        for (hash, id) in features.hashes() {
            row.clear();
            row.extend(weights.row(id));
            if !row.is_empty() {
                scorer.insert(key_of(hash), &row);
            }
        }
        scorer
    }

    /// Puts a row in the slot of its key; false when the key is there already
    /// or the entries outgrow 32-bit offsets.
    fn insert(&mut self, key: u64, row: &[(u16, f32)]) -> bool {
        let mut slot = Slot {
            key,
            ..Slot::default()
        };
        let (inline, rest) = row.split_at(row.len().min(INLINE));
        for (i, (class, weight)) in inline.iter().enumerate() {
            slot.classes[i] = *class;
            slot.weights[i] = *weight;
        }
        slot.inline = inline.len() as u16;
        let mut at = key as usize & self.mask;
        loop {
            let Some(existing) = self.slots.get(at) else {
                return false;
            };
            if existing.key == key {
                return false;
            }
            if existing.key == 0 {
                break;
            }
            at = (at + 1) & self.mask;
        }
        let (Ok(start), Ok(end)) = (
            u32::try_from(self.entries.len()),
            u32::try_from(self.entries.len() + rest.len()),
        ) else {
            return false;
        };
        self.entries.extend_from_slice(rest);
        slot.start = start;
        slot.end = end;
        if let Some(target) = self.slots.get_mut(at) {
            *target = slot;
        }
        true
    }

    fn find(&self, hash: u64) -> Option<&Slot> {
        let key = key_of(hash);
        let mut at = key as usize & self.mask;
        loop {
            let slot = self.slots.get(at)?;
            if slot.key == key {
                return Some(slot);
            }
            if slot.key == 0 {
                return None;
            }
            at = (at + 1) & self.mask;
        }
    }

    /// How many classes it scores.
    pub fn n_classes(&self) -> u16 {
        self.n_classes
    }

    /// The hash by which a feature named by `parts` concatenated is looked up.
    pub fn hash(parts: &[&str]) -> u64 {
        fnv1a64_parts(parts)
    }

    /// Adds the weights of the feature named by `parts` concatenated to `scores`.
    pub fn add(&self, parts: &[&str], scores: &mut [f32]) {
        self.add_all(&[Scorer::hash(parts)], scores);
    }

    /// Adds the weights of every feature of `hashes` (see [`Scorer::hash`]) to `scores`.
    pub fn add_all(&self, hashes: &[u64], scores: &mut [f32]) {
        const BATCH: usize = 32;
        let empty = Slot::default();
        let mut found = [&empty; BATCH];
        for chunk in hashes.chunks(BATCH) {
            // All lookups first: they are independent, so their misses overlap.
            for (slot, hash) in found.iter_mut().zip(chunk) {
                *slot = self.find(*hash).unwrap_or(&empty);
            }
            for slot in found.iter().take(chunk.len()) {
                let inline = slot
                    .classes
                    .iter()
                    .zip(&slot.weights)
                    .take(slot.inline as usize);
                let rest = self
                    .entries
                    .get(slot.start as usize..slot.end as usize)
                    .unwrap_or_default();
                for (class, weight) in inline.chain(rest.iter().map(|(c, w)| (c, w))) {
                    if let Some(score) = scores.get_mut(*class as usize) {
                        *score += weight;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Trainer;

    #[test]
    fn the_table_handles_many_keys_and_the_zero_hash() {
        let mut scorer = Scorer {
            slots: vec![Slot::default(); 8],
            mask: 7,
            entries: Vec::new(),
            n_classes: 6,
        };
        let long: Vec<(u16, f32)> = (0..6).map(|c| (c, f32::from(c) + 1.0)).collect();
        for key in [1u64, 9, 17, 2] {
            assert!(scorer.insert(key, &long[..key as usize % 6]), "{key}");
        }
        assert!(!scorer.insert(9, &long), "no key twice");
        assert!(scorer.insert(25, &long));
        assert_eq!(
            scorer.entries.len(),
            2 + 3,
            "only the pairs beyond the inline ones"
        );
        let mut scores = vec![0.0; 6];
        scorer.add_all(&[25, 0, 33], &mut scores);
        // Row 25 is all six classes; hash 0 is looked up as 1, whose row has class 0.
        assert_eq!(scores, [2.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        assert!(scorer.find(17).is_some());
        assert!(scorer.find(41).is_none());
    }

    #[test]
    fn scores_like_the_table_and_weights_it_joins() {
        let mut table = FeatureTable::new();
        let mut trainer = Trainer::new(3);
        for _ in 0..4 {
            for (name, class) in [("w=a", 0), ("w=b", 1), ("w=c", 2), ("w=d", 1)] {
                let ids: Vec<u32> = [name, "bias"]
                    .iter()
                    .filter_map(|n| table.intern(n))
                    .collect();
                trainer.train_one(&ids, class);
            }
        }
        let weights = trainer.average();
        let scorer = Scorer::new(&table, &weights);
        assert_eq!(scorer.n_classes(), 3);
        for name in ["w=a", "w=b", "w=c", "w=d", "bias"] {
            let mut expected = vec![0.0; 3];
            weights.add_scores(&[table.get(name).unwrap()], &mut expected);
            let mut got = vec![0.0; 3];
            let (head, tail) = name.split_at(2);
            scorer.add(&[head, tail], &mut got);
            assert_eq!(got, expected, "{name}");
        }
        let mut untouched = vec![0.0; 3];
        scorer.add(&["w=zzz"], &mut untouched);
        assert_eq!(untouched, [0.0; 3]);
        let names = ["w=a", "w=b", "bias", "w=zzz", "w=c"];
        let mut expected = vec![0.0; 3];
        let ids: Vec<u32> = names.iter().filter_map(|n| table.get(n)).collect();
        weights.add_scores(&ids, &mut expected);
        let hashes: Vec<u64> = names.iter().map(|n| Scorer::hash(&[n])).collect();
        let mut got = vec![0.0; 3];
        scorer.add_all(&hashes, &mut got);
        assert_eq!(got, expected);
    }
}
