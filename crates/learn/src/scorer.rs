//! Features and weights joined for fast scoring.
//!
//! Scoring through a [`crate::FeatureTable`] and [`crate::Weights`] costs a hash
//! lookup for the id, then reads of the row's offsets, classes and values: four
//! likely cache misses per feature, which is what a tagger's time goes to. A
//! [`Scorer`] keeps one open-addressing table of 16-byte slots, four to a cache
//! line, from the hash of a feature name to its weights: a row of one or two
//! weights (most rows, once a model is pruned) lives in the slot itself, a
//! longer one in a second array the slot points to. Most features cost one
//! miss, into a table small enough to stay in cache more often than not. And
//! [`Scorer::add_all`] looks up all the features of a position before it adds
//! any weights, so that the processor overlaps the misses instead of waiting on
//! each in turn.

use crate::Weights;
use crate::features::fnv1a64_parts;

/// A class that marks a slot as something else: as the first class, the row is
/// longer than two and `bits` are its start and length in `entries`; as the
/// second, the row has one weight only.
const NONE: u16 = u16::MAX;

/// One slot of the table: a feature's fingerprint and its weights, or where
/// they are.
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    /// The high half of the name's hash, never 0; 0 marks an empty slot. With
    /// the low bits that chose the slot, about fifty bits of the hash must
    /// match for a name to be found.
    tag: u32,
    classes: [u16; 2],
    /// The bits of the weights of `classes` (`f32::to_bits`), or of a long
    /// row's start and length in `entries`.
    bits: [u32; 2],
}

/// Weights looked up by feature name, for applying a trained model.
#[derive(Clone, Debug)]
pub struct Scorer {
    slots: Vec<Slot>,
    mask: usize,
    entries: Vec<(u16, f32)>,
    n_classes: u16,
}

/// The slot tag of a hash: its high half, with 0 (the empty mark) moved to 1.
fn tag_of(hash: u64) -> u32 {
    ((hash >> 32) as u32).max(1)
}

impl Scorer {
    /// Joins a model's feature keys (`keys[id]` is the key of weights row
    /// `id`; see [`crate::FeatureTable::keys`]) and weights; features without
    /// weights are left out.
    pub fn new(keys: &[u64], weights: &Weights) -> Scorer {
        let used = (0u32..)
            .zip(keys)
            .filter(|(id, _)| weights.row(*id).next().is_some())
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
        for (id, hash) in (0u32..).zip(keys.iter().copied()) {
            row.clear();
            row.extend(weights.row(id));
            if !row.is_empty() {
                scorer.insert(hash, &row);
            }
        }
        scorer
    }

    /// Puts a row in the slot of its hash; false when a name of the same
    /// fingerprint is there already or the entries outgrow 32-bit offsets.
    fn insert(&mut self, hash: u64, row: &[(u16, f32)]) -> bool {
        let tag = tag_of(hash);
        let mut at = hash as usize & self.mask;
        loop {
            let Some(existing) = self.slots.get(at) else {
                return false;
            };
            if existing.tag == tag {
                return false;
            }
            if existing.tag == 0 {
                break;
            }
            at = (at + 1) & self.mask;
        }
        let slot = match row {
            [(class, weight)] => Slot {
                tag,
                classes: [*class, NONE],
                bits: [weight.to_bits(), 0],
            },
            [(first, w1), (second, w2)] => Slot {
                tag,
                classes: [*first, *second],
                bits: [w1.to_bits(), w2.to_bits()],
            },
            _ => {
                let (Ok(start), Ok(len)) =
                    (u32::try_from(self.entries.len()), u32::try_from(row.len()))
                else {
                    return false;
                };
                if u32::try_from(self.entries.len() + row.len()).is_err() {
                    return false;
                }
                self.entries.extend_from_slice(row);
                Slot {
                    tag,
                    classes: [NONE, NONE],
                    bits: [start, len],
                }
            }
        };
        if let Some(target) = self.slots.get_mut(at) {
            *target = slot;
        }
        true
    }

    fn find(&self, hash: u64) -> Option<&Slot> {
        let tag = tag_of(hash);
        let mut at = hash as usize & self.mask;
        loop {
            let slot = self.slots.get(at)?;
            if slot.tag == tag {
                return Some(slot);
            }
            if slot.tag == 0 {
                return None;
            }
            at = (at + 1) & self.mask;
        }
    }

    /// Adds the weights of one slot's row to `scores`.
    fn add_slot(&self, slot: &Slot, scores: &mut [f32]) {
        let mut add = |class: u16, weight: f32| {
            if let Some(score) = scores.get_mut(class as usize) {
                *score += weight;
            }
        };
        match slot.classes {
            [NONE, _] => {
                let [start, len] = slot.bits.map(|b| b as usize);
                let row = self.entries.get(start..start + len).unwrap_or_default();
                for (class, weight) in row {
                    add(*class, *weight);
                }
            }
            [class, NONE] => add(class, f32::from_bits(slot.bits[0])),
            [first, second] => {
                add(first, f32::from_bits(slot.bits[0]));
                add(second, f32::from_bits(slot.bits[1]));
            }
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
        let mut found = [None; BATCH];
        for chunk in hashes.chunks(BATCH) {
            // All lookups first: they are independent, so their misses overlap.
            for (slot, hash) in found.iter_mut().zip(chunk) {
                *slot = self.find(*hash);
            }
            for slot in found.iter().take(chunk.len()).flatten() {
                self.add_slot(slot, scores);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{FeatureTable, Trainer};

    #[test]
    fn the_table_handles_many_keys_and_the_zero_hash() {
        let mut scorer = Scorer {
            slots: vec![Slot::default(); 8],
            mask: 7,
            entries: Vec::new(),
            n_classes: 6,
        };
        let long: Vec<(u16, f32)> = (0..6).map(|c| (c, f32::from(c) + 1.0)).collect();
        // Hashes whose high halves differ, in one probe chain (low bits 1).
        let hash = |n: u64| (n << 32) | 1;
        for n in 1..=4 {
            assert!(scorer.insert(hash(n), &long[..n as usize]), "{n}");
        }
        assert!(!scorer.insert(hash(3), &long), "no fingerprint twice");
        assert!(
            !scorer.insert(hash(0), &long),
            "the zero tag is stored as 1, which is taken"
        );
        assert_eq!(scorer.entries.len(), 3 + 4, "only the rows beyond two");
        let mut scores = vec![0.0; 6];
        scorer.add_all(&[hash(2), hash(9), hash(3)], &mut scores);
        assert_eq!(scores, [2.0, 4.0, 3.0, 0.0, 0.0, 0.0]);
        let mut scores = vec![0.0; 6];
        scorer.add_all(&[hash(1)], &mut scores);
        assert_eq!(scores, [1.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
        assert!(scorer.find(hash(4)).is_some());
        assert!(scorer.find(hash(5)).is_none());
        assert!(scorer.find(2).is_none(), "another chain, empty");
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
        let scorer = Scorer::new(&table.keys(), &weights);
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
