//! A structured averaged perceptron with first-order transitions and
//! constrained Viterbi decoding.
//!
//! Both taggers of the stage (cues, then source and content per cue) are
//! instances of it with their own label sets. Decoding is attest-learn's
//! Viterbi under two constraints: a [`TransitionMask`] of allowed label bigrams
//! (an `I-` only after a `B-` or `I-` of its role) and a per-position mask of
//! allowed labels (cue tokens are never source or content of their own
//! attribution).

use attest_learn::{KeyMap, ModelError, Reader, TransitionMask, Writer, decode_scores};

/// The most labels a model scores.
pub(crate) const MAX_LABELS: usize = 5;

/// One feature's weights and a 32-bit tag of its key, beside them so that a
/// lookup touches one cache line. Weights are kept as 16-bit multiples of the
/// table's scale: lookups are bound by cache misses, so the smaller the table
/// the faster the stage, and 16 bytes put four slots in a line. The rounding
/// (a 65,536th of the largest weight) moves a score by far less than the
/// margins decoding turns on.
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    tag: u32,
    weights: [i16; MAX_LABELS],
}

/// An open-addressing table (linear probing, at most half full) from feature
/// key to weights. A slot is found by the key's low bits and recognised by its
/// high 32 bits (the tag; tag 0 marks an empty slot, so a key whose tag would be
/// 0 gets 1). An unknown key is mistaken for a known one only when both share
/// a probe run and all 32 tag bits: about once in a billion lookups. The full
/// keys and exact weights are kept apart, for writing the file.
#[derive(Clone, Debug, Default)]
struct Table {
    slots: Vec<Slot>,
    keys: Vec<u64>,
    exact: Vec<[f32; MAX_LABELS]>,
    /// What one unit of a slot weight is worth.
    scale: f32,
    len: usize,
}

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
    fn home_tag(&self, key: u64) -> u32 {
        self.slots
            .get(key as usize & self.mask())
            .map_or(0, |s| s.tag)
    }

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

/// A frozen model: averaged weights per feature key and label, and transitions.
#[derive(Clone, Debug)]
pub(crate) struct Perceptron {
    labels: usize,
    table: Table,
    /// `(labels + 1) × labels`: row `labels` holds the start weights.
    transitions: Vec<f32>,
}

/// Feature ids of a sequence, flat, with `ends[i]` closing position `i`.
#[derive(Clone, Debug, Default)]
pub(crate) struct Sequence {
    pub(crate) ids: Vec<u32>,
    pub(crate) ends: Vec<u32>,
}

impl Sequence {
    fn len(&self) -> usize {
        self.ends.len()
    }

    fn at(&self, position: usize) -> &[u32] {
        let start = match position.checked_sub(1) {
            Some(previous) => self.ends.get(previous).copied().unwrap_or(0) as usize,
            None => 0,
        };
        let end = self.ends.get(position).copied().unwrap_or(0) as usize;
        self.ids.get(start..end).unwrap_or(&[])
    }
}

/// The best labels under the constraints and per-position masks, as indices.
fn viterbi(
    labels: usize,
    emissions: &[f32],
    transitions: &[f32],
    constraints: &TransitionMask,
    masks: &[u64],
) -> Vec<usize> {
    decode_scores(labels, emissions, transitions, Some(constraints), masks)
        .into_iter()
        .map(usize::from)
        .collect()
}

impl Perceptron {
    /// The emission scores of positions whose features are given by key, `n × labels`.
    #[cfg(test)]
    pub(crate) fn emissions(&self, keys_per_position: &[Vec<u64>]) -> Vec<f32> {
        let mut out = Vec::new();
        for keys in keys_per_position {
            self.score(keys, &mut out);
        }
        out
    }

    /// Appends the emission scores (one per label) of a position with these keys.
    pub(crate) fn score(&self, keys: &[u64], out: &mut Vec<f32>) {
        let mut sum = [0i32; MAX_LABELS];
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
                for (s, w) in sum.iter_mut().zip(weights) {
                    *s += i32::from(*w);
                }
            }
        }
        let scale = self.table.scale;
        out.extend(sum.iter().take(self.labels).map(|s| *s as f32 * scale));
    }

    /// The best labels for the positions, under the constraints and masks.
    pub(crate) fn decode(
        &self,
        emissions: &[f32],
        constraints: &TransitionMask,
        masks: &[u64],
    ) -> Vec<usize> {
        viterbi(
            self.labels,
            emissions,
            &self.transitions,
            constraints,
            masks,
        )
    }

    /// The score of a labelling: its emissions and transitions.
    pub(crate) fn path_score(&self, emissions: &[f32], path: &[usize]) -> f32 {
        let mut previous = self.labels;
        let mut total = 0.0;
        for (position, label) in path.iter().enumerate() {
            total += self
                .transitions
                .get(previous * self.labels + label)
                .copied()
                .unwrap_or(0.0);
            total += emissions
                .get(position * self.labels + label)
                .copied()
                .unwrap_or(0.0);
            previous = *label;
        }
        total
    }

    /// How many labels it scores.
    pub(crate) fn labels(&self) -> usize {
        self.labels
    }

    /// How many feature rows it holds.
    #[cfg(test)]
    pub(crate) fn rows(&self) -> usize {
        self.table.len
    }

    pub(crate) fn write(&self, out: &mut Writer) {
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

    pub(crate) fn read(input: &mut Reader<'_>) -> Result<Perceptron, ModelError> {
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
        Ok(Perceptron {
            labels,
            table: Table::from_rows(&kept),
            transitions,
        })
    }
}

/// Trains a [`Perceptron`]: interns feature keys to rows and keeps the running
/// sums that averaging needs (the "w − u/c" form, so no per-weight timestamps).
#[derive(Debug)]
pub(crate) struct Trainer {
    labels: usize,
    index: KeyMap<u32>,
    keys: Vec<u64>,
    weights: Vec<f32>,
    sums: Vec<f64>,
    transitions: Vec<f32>,
    transition_sums: Vec<f64>,
    step: f64,
}

impl Trainer {
    pub(crate) fn new(labels: usize) -> Trainer {
        let labels = labels.clamp(1, MAX_LABELS);
        Trainer {
            labels,
            index: KeyMap::default(),
            keys: Vec::new(),
            weights: Vec::new(),
            sums: Vec::new(),
            transitions: vec![0.0; (labels + 1) * labels],
            transition_sums: vec![0.0; (labels + 1) * labels],
            step: 1.0,
        }
    }

    /// Turns per-position keys into a sequence of rows, adding new keys.
    pub(crate) fn intern(&mut self, keys_per_position: &[Vec<u64>]) -> Sequence {
        let mut sequence = Sequence::default();
        for keys in keys_per_position {
            for key in keys {
                let row = match self.index.get(key) {
                    Some(row) => *row,
                    None => {
                        let row = self.keys.len() as u32;
                        self.index.insert(*key, row);
                        self.keys.push(*key);
                        self.weights.extend(std::iter::repeat_n(0.0, self.labels));
                        self.sums.extend(std::iter::repeat_n(0.0, self.labels));
                        row
                    }
                };
                sequence.ids.push(row);
            }
            sequence.ends.push(sequence.ids.len() as u32);
        }
        sequence
    }

    fn emissions(&self, sequence: &Sequence) -> Vec<f32> {
        let mut out = vec![0.0; sequence.len() * self.labels];
        for position in 0..sequence.len() {
            for row in sequence.at(position) {
                let base = *row as usize * self.labels;
                for label in 0..self.labels {
                    if let (Some(o), Some(w)) = (
                        out.get_mut(position * self.labels + label),
                        self.weights.get(base + label),
                    ) {
                        *o += *w;
                    }
                }
            }
        }
        out
    }

    fn bump(&mut self, sequence: &Sequence, position: usize, label: usize, delta: f32) {
        for row in sequence.at(position) {
            let slot = *row as usize * self.labels + label;
            if let (Some(w), Some(s)) = (self.weights.get_mut(slot), self.sums.get_mut(slot)) {
                *w += delta;
                *s += self.step * f64::from(delta);
            }
        }
    }

    fn bump_transition(&mut self, previous: usize, current: usize, delta: f32) {
        let slot = previous * self.labels + current;
        if let (Some(w), Some(s)) = (
            self.transitions.get_mut(slot),
            self.transition_sums.get_mut(slot),
        ) {
            *w += delta;
            *s += self.step * f64::from(delta);
        }
    }

    /// A trainer over the same feature rows with every weight zero, for
    /// training a model on part of the data.
    pub(crate) fn clone_empty(&self) -> Trainer {
        Trainer {
            labels: self.labels,
            index: self.index.clone(),
            keys: self.keys.clone(),
            weights: vec![0.0; self.weights.len()],
            sums: vec![0.0; self.sums.len()],
            transitions: vec![0.0; self.transitions.len()],
            transition_sums: vec![0.0; self.transition_sums.len()],
            step: 1.0,
        }
    }

    /// The labels the averaged weights give a sequence under per-position
    /// masks, with `bias` added to label `biased` at every position.
    pub(crate) fn predict_masked(
        &self,
        sequence: &Sequence,
        constraints: &TransitionMask,
        biased: usize,
        bias: f32,
        masks: &[u64],
    ) -> Vec<usize> {
        let average = |w: f32, s: f64| (f64::from(w) - s / self.step) as f32;
        let mut emissions = vec![0.0; sequence.len() * self.labels];
        for position in 0..sequence.len() {
            for row in sequence.at(position) {
                let base = *row as usize * self.labels;
                for label in 0..self.labels {
                    let w = self.weights.get(base + label).copied().unwrap_or(0.0);
                    let s = self.sums.get(base + label).copied().unwrap_or(0.0);
                    if let Some(o) = emissions.get_mut(position * self.labels + label) {
                        *o += average(w, s);
                    }
                }
            }
            if let Some(o) = emissions.get_mut(position * self.labels + biased) {
                *o += bias;
            }
        }
        let transitions: Vec<f32> = self
            .transitions
            .iter()
            .zip(&self.transition_sums)
            .map(|(w, s)| average(*w, *s))
            .collect();
        viterbi(self.labels, &emissions, &transitions, constraints, masks)
    }

    /// One perceptron step on one sequence; returns whether it was mislabelled.
    pub(crate) fn learn(
        &mut self,
        sequence: &Sequence,
        gold: &[usize],
        constraints: &TransitionMask,
        masks: &[u64],
    ) -> bool {
        let emissions = self.emissions(sequence);
        let predicted = viterbi(
            self.labels,
            &emissions,
            &self.transitions,
            constraints,
            masks,
        );
        let wrong = predicted != gold;
        if wrong {
            let mut previous_gold = self.labels;
            let mut previous_predicted = self.labels;
            for (position, (&g, &p)) in gold.iter().zip(&predicted).enumerate() {
                if g != p {
                    self.bump(sequence, position, g, 1.0);
                    self.bump(sequence, position, p, -1.0);
                }
                if g != p || previous_gold != previous_predicted {
                    self.bump_transition(previous_gold, g, 1.0);
                    self.bump_transition(previous_predicted, p, -1.0);
                }
                previous_gold = g;
                previous_predicted = p;
            }
        }
        self.step += 1.0;
        wrong
    }

    /// The averaged model, keeping only rows with a weight of at least `prune`
    /// in magnitude.
    pub(crate) fn finish(self, prune: f32) -> Perceptron {
        let labels = self.labels;
        let step = self.step;
        let average = |weight: f32, sum: f64| -> f32 { (f64::from(weight) - sum / step) as f32 };
        let transitions = self
            .transitions
            .iter()
            .zip(&self.transition_sums)
            .map(|(w, s)| average(*w, *s))
            .collect();
        let mut kept = Vec::new();
        for (row, key) in self.keys.iter().enumerate() {
            let base = row * labels;
            let mut averaged = [0.0; MAX_LABELS];
            for (label, slot) in averaged.iter_mut().enumerate().take(labels) {
                *slot = average(
                    self.weights.get(base + label).copied().unwrap_or(0.0),
                    self.sums.get(base + label).copied().unwrap_or(0.0),
                );
            }
            if averaged.iter().any(|w| w.abs() >= prune) {
                kept.push((*key, averaged));
            }
        }
        Perceptron {
            labels,
            table: Table::from_rows(&kept),
            transitions,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn learns_a_toy_task_and_round_trips() {
        // Label 1 for positions whose feature is 7, else 0.
        let mut trainer = Trainer::new(2);
        let constraints = TransitionMask::allow_all(2);
        let data: Vec<(Vec<Vec<u64>>, Vec<usize>)> = vec![
            (vec![vec![1, 7], vec![1, 3], vec![1, 7]], vec![1, 0, 1]),
            (vec![vec![1, 3], vec![1, 3]], vec![0, 0]),
        ];
        let sequences: Vec<Sequence> = data.iter().map(|(k, _)| trainer.intern(k)).collect();
        for _ in 0..5 {
            for (sequence, (_, gold)) in sequences.iter().zip(&data) {
                trainer.learn(sequence, gold, &constraints, &[]);
            }
        }
        let model = trainer.finish(0.0);
        let emissions = model.emissions(&[vec![1, 3], vec![1, 7]]);
        assert_eq!(model.decode(&emissions, &constraints, &[]), [0, 1]);
        let mut writer = Writer::default();
        model.write(&mut writer);
        let bytes = writer.into_bytes();
        let back = Perceptron::read(&mut Reader::new(&bytes)).unwrap();
        assert_eq!(back.rows(), model.rows());
        assert_eq!(back.emissions(&[vec![7]]), model.emissions(&[vec![7]]));
        let mut again = Writer::default();
        back.write(&mut again);
        assert_eq!(again.into_bytes(), bytes);
    }
}
