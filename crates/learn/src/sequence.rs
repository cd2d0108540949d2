//! The structured perceptron: sequence labelling with first-order transitions.
//!
//! Each position has emission features (ids, as for [`crate::Trainer`]); each
//! pair of neighbouring labels has a transition weight, and the first label a
//! weight from a virtual start. Decoding is Viterbi, optionally restricted by a
//! [`TransitionMask`] (say, `I-Content` only after `B-Content` or `I-Content`).
//! Training decodes each sequence with the current weights and, when the answer
//! is wrong, moves the weights of the gold path up and of the predicted path
//! down, averaged over sequences seen.

use crate::perceptron::{Weights, hold, mean};

/// Which label may follow which, and which may start a sequence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TransitionMask {
    n_labels: usize,
    /// Row `n_labels` is the start; `allowed[from * n_labels + to]`.
    allowed: Vec<bool>,
}

impl TransitionMask {
    /// A mask that allows everything.
    pub fn allow_all(n_labels: u16) -> TransitionMask {
        let n = n_labels as usize;
        TransitionMask {
            n_labels: n,
            allowed: vec![true; (n + 1) * n],
        }
    }

    /// The BIO mask over `n_labels` labels: an inside label `l` for which
    /// `inside_of(l)` names its begin label may only follow that begin label or
    /// itself, and never starts a sequence; other labels may go anywhere.
    pub fn bio(n_labels: u16, inside_of: impl Fn(u16) -> Option<u16>) -> TransitionMask {
        let mut mask = TransitionMask::allow_all(n_labels);
        for to in 0..n_labels {
            if let Some(begin) = inside_of(to) {
                mask.forbid(None, to);
                for from in (0..n_labels).filter(|f| *f != begin && *f != to) {
                    mask.forbid(Some(from), to);
                }
            }
        }
        mask
    }

    fn index(&self, from: Option<u16>, to: u16) -> Option<usize> {
        let from = from.map_or(self.n_labels, |f| f as usize);
        let to = to as usize;
        (from <= self.n_labels && to < self.n_labels).then_some(from * self.n_labels + to)
    }

    /// Forbids `to` after `from` (`None`: at the start). Labels out of range are ignored.
    pub fn forbid(&mut self, from: Option<u16>, to: u16) {
        if let Some(slot) = self.index(from, to).and_then(|i| self.allowed.get_mut(i)) {
            *slot = false;
        }
    }

    /// Whether `to` may follow `from` (`None`: at the start).
    pub fn allows(&self, from: Option<u16>, to: u16) -> bool {
        self.index(from, to)
            .and_then(|i| self.allowed.get(i))
            .copied()
            .unwrap_or(false)
    }
}

/// Dense weights under training, one per index, averaged lazily like
/// [`crate::Trainer`]'s sparse ones. Emissions are kept dense too, a row of
/// `n_labels` per feature: a sequence labeller has few labels, and scoring a
/// position then reads one short run per feature instead of following a
/// pointer to a row of its own, which halves training time.
#[derive(Clone, Debug, Default)]
struct DenseParams {
    weight: Vec<f32>,
    total: Vec<f64>,
    stamp: Vec<u64>,
}

impl DenseParams {
    fn new(len: usize) -> DenseParams {
        let mut params = DenseParams::default();
        params.grow(len);
        params
    }

    fn grow(&mut self, len: usize) {
        if len > self.weight.len() {
            self.weight.resize(len, 0.0);
            self.total.resize(len, 0.0);
            self.stamp.resize(len, 0);
        }
    }

    fn update(&mut self, index: usize, delta: f32, now: u64) {
        if let (Some(weight), Some(total), Some(stamp)) = (
            self.weight.get_mut(index),
            self.total.get_mut(index),
            self.stamp.get_mut(index),
        ) {
            hold(total, stamp, *weight, now);
            *weight += delta;
        }
    }

    /// Adds rows `features` (of `scores.len()` weights each) into `scores`.
    fn add_rows(&self, features: &[u32], scores: &mut [f32]) {
        let n = scores.len();
        for feature in features {
            let start = *feature as usize * n;
            if let Some(row) = self.weight.get(start..start + n) {
                for (score, weight) in scores.iter_mut().zip(row) {
                    *score += weight;
                }
            }
        }
    }

    fn average(&self, now: u64) -> Vec<f32> {
        self.weight
            .iter()
            .zip(&self.total)
            .zip(&self.stamp)
            .map(|((weight, total), stamp)| mean(*total, *stamp, *weight, now))
            .collect()
    }
}

/// Trains a [`SequenceModel`].
#[derive(Clone, Debug)]
pub struct SequenceTrainer {
    n_labels: u16,
    emissions: DenseParams,
    transitions: DenseParams,
    clock: u64,
}

/// How many visiting orders `attest train` averages per model (see
/// [`SequenceTrainer::mean_of`]).
pub const TRAINING_ORDERS: usize = 8;

impl SequenceTrainer {
    /// A trainer for labels `0..n_labels`.
    pub fn new(n_labels: u16) -> SequenceTrainer {
        let n = n_labels as usize;
        SequenceTrainer {
            n_labels,
            emissions: DenseParams::default(),
            transitions: DenseParams::new((n + 1) * n),
            clock: 0,
        }
    }

    /// Decodes one sequence with the current weights, learns from `gold` (one
    /// label per position) and returns the prediction made before learning.
    ///
    /// A sequence whose `gold` has another length than `features`, or holds a
    /// label out of range, is only decoded, not learned from.
    pub fn train_sequence<F: AsRef<[u32]>>(
        &mut self,
        features: &[F],
        gold: &[u16],
        mask: Option<&TransitionMask>,
    ) -> Vec<u16> {
        self.train_sequence_within(features, gold, mask, &[])
    }

    /// [`SequenceTrainer::train_sequence`] with the labels each position may
    /// take (see [`decode_scores`]).
    pub fn train_sequence_within<F: AsRef<[u32]>>(
        &mut self,
        features: &[F],
        gold: &[u16],
        mask: Option<&TransitionMask>,
        allowed: &[u64],
    ) -> Vec<u16> {
        let n = self.n_labels as usize;
        let predicted = viterbi(
            n,
            features.len(),
            |t, scores| {
                if let Some(f) = features.get(t) {
                    self.emissions.add_rows(f.as_ref(), scores);
                }
            },
            &self.transitions.weight,
            mask,
            allowed,
        );
        self.clock += 1;
        let usable = gold.len() == features.len() && gold.iter().all(|g| (*g as usize) < n);
        if !usable || predicted == gold {
            return predicted;
        }
        let now = self.clock;
        let mut previous: Option<(u16, u16)> = None;
        for (t, (g, p)) in gold.iter().zip(&predicted).enumerate() {
            if g != p
                && let Some(f) = features.get(t)
            {
                for feature in f.as_ref() {
                    let row = *feature as usize * n;
                    self.emissions.grow(row + n);
                    self.emissions.update(row + *g as usize, 1.0, now);
                    self.emissions.update(row + *p as usize, -1.0, now);
                }
            }
            let (from_g, from_p) = match previous {
                Some((pg, pp)) => (pg as usize, pp as usize),
                None => (n, n),
            };
            if (from_g, *g) != (from_p, *p) {
                self.transitions.update(from_g * n + *g as usize, 1.0, now);
                self.transitions.update(from_p * n + *p as usize, -1.0, now);
            }
            previous = Some((*g, *p));
        }
        predicted
    }

    /// The averaged emission weights, a row per feature, without zeros.
    fn average_emissions(&self) -> Weights {
        let n = usize::from(self.n_labels);
        let mut weights = Weights::empty(self.n_labels);
        let averaged = self.emissions.average(self.clock);
        for row in averaged.chunks(n.max(1)) {
            let entries: Vec<(u16, f32)> = (0u16..)
                .zip(row)
                .filter(|(_, weight)| **weight != 0.0)
                .map(|(label, weight)| (label, *weight))
                .collect();
            weights.push_row(&entries);
        }
        weights
    }

    /// The averaged model.
    pub fn average(&self) -> SequenceModel {
        SequenceModel {
            emissions: self.average_emissions(),
            transitions: self.transitions.average(self.clock),
        }
    }

    /// The weight-wise mean of `shuffles` models (at least one), each trained
    /// afresh by `train`, which visits the data in an order of its own. One
    /// visiting order's luck moves a tagger's F1 by about a point; the mean of
    /// several evens it out, so that a retrain with another seed scores about
    /// the same.
    pub fn mean_of(
        n_labels: u16,
        shuffles: usize,
        mut train: impl FnMut(&mut SequenceTrainer),
    ) -> SequenceModel {
        let models: Vec<SequenceModel> = (0..shuffles.max(1))
            .map(|_| {
                let mut trainer = SequenceTrainer::new(n_labels);
                train(&mut trainer);
                trainer.average()
            })
            .collect();
        SequenceModel::mean(n_labels, &models)
    }
}

/// A trained sequence labeller: emission weights and transition weights.
#[derive(Clone, Debug, PartialEq)]
pub struct SequenceModel {
    /// Per feature, per label.
    pub emissions: Weights,
    /// `(n_labels + 1) * n_labels` weights; row `n_labels` is the start.
    pub transitions: Vec<f32>,
}

impl SequenceModel {
    /// How many labels it assigns.
    pub fn n_labels(&self) -> u16 {
        self.emissions.n_classes()
    }

    /// The weight-wise mean of models of `n_labels` labels trained on one
    /// feature numbering.
    fn mean(n_labels: u16, models: &[SequenceModel]) -> SequenceModel {
        let count = models.len().max(1) as f32;
        let emissions: Vec<&Weights> = models.iter().map(|model| &model.emissions).collect();
        let emissions = Weights::mean(n_labels, &emissions);
        let n_transitions = (usize::from(n_labels) + 1) * usize::from(n_labels);
        let transitions = (0..n_transitions)
            .map(|index| {
                models
                    .iter()
                    .filter_map(|model| model.transitions.get(index))
                    .sum::<f32>()
                    / count
            })
            .collect();
        SequenceModel {
            emissions,
            transitions,
        }
    }

    /// The best label sequence for the positions' features; with a mask, the best
    /// among the sequences it allows (unconstrained when it allows none).
    pub fn decode<F: AsRef<[u32]>>(
        &self,
        features: &[F],
        mask: Option<&TransitionMask>,
    ) -> Vec<u16> {
        viterbi(
            self.n_labels() as usize,
            features.len(),
            |t, scores| {
                if let Some(f) = features.get(t) {
                    self.emissions.add_scores(f.as_ref(), scores);
                }
            },
            &self.transitions,
            mask,
            &[],
        )
    }
}

impl SequenceModel {
    /// The best label sequence for emission scores computed elsewhere (say, with a
    /// [`crate::Scorer`]): `emissions` holds `n_labels` scores per position, and a
    /// trailing partial position is ignored.
    pub fn decode_emissions(&self, emissions: &[f32], mask: Option<&TransitionMask>) -> Vec<u16> {
        decode_scores(
            self.n_labels() as usize,
            emissions,
            &self.transitions,
            mask,
            &[],
        )
    }
}

/// The best label sequence for emission scores (`n_labels` per position, a
/// trailing partial position ignored) and transition weights
/// (`(n_labels + 1) * n_labels`, row `n_labels` the start), among those the
/// transition mask allows and, position by position, `allowed` allows: bit `l`
/// of `allowed[t]` set lets position `t` take label `l` (labels from 64 on, and
/// positions past the slice, are always allowed). When nothing is allowed,
/// decoding drops the transition mask, then the positions' masks, and last
/// gives every position label 0.
pub fn decode_scores(
    n_labels: usize,
    emissions: &[f32],
    transitions: &[f32],
    mask: Option<&TransitionMask>,
    allowed: &[u64],
) -> Vec<u16> {
    let len = emissions.len().checked_div(n_labels).unwrap_or(0);
    viterbi(
        n_labels,
        len,
        |t, scores| {
            let row = emissions
                .get(t * n_labels..(t + 1) * n_labels)
                .unwrap_or_default();
            for (score, emission) in scores.iter_mut().zip(row) {
                *score += emission;
            }
        },
        transitions,
        mask,
        allowed,
    )
}

/// Viterbi over `len` positions of `n` labels; `emit(t, scores)` adds position
/// `t`'s emission scores into `scores`. Ties go to the lowest label. See
/// [`decode_scores`] for `mask` and `allowed`.
fn viterbi(
    n: usize,
    len: usize,
    mut emit: impl FnMut(usize, &mut [f32]),
    transitions: &[f32],
    mask: Option<&TransitionMask>,
    allowed: &[u64],
) -> Vec<u16> {
    if n == 0 || len == 0 {
        return Vec::new();
    }
    // The transition weights with the mask applied once: a forbidden step
    // weighs minus infinity, so no path through it can win.
    let mut step = vec![f32::NEG_INFINITY; (n + 1) * n];
    for (index, weight) in step.iter_mut().enumerate() {
        let (from, to) = (index / n, index % n);
        let from_label = (from < n).then_some(from as u16);
        if mask.is_none_or(|m| m.allows(from_label, to as u16)) {
            *weight = transitions.get(index).copied().unwrap_or(0.0);
        }
    }
    // A label a position may not take scores minus infinity there.
    let forbid = |t: usize, scores: &mut [f32]| {
        if let Some(bits) = allowed.get(t) {
            for (label, score) in scores.iter_mut().enumerate().take(64) {
                if bits & (1 << label) == 0 {
                    *score = f32::NEG_INFINITY;
                }
            }
        }
    };
    let start = step.get(n * n..).unwrap_or_default();
    let mut emission = vec![0.0f32; n];
    let mut score = vec![f32::NEG_INFINITY; n];
    let mut next = vec![f32::NEG_INFINITY; n];
    let mut back = vec![0u16; len * n];
    emit(0, &mut emission);
    for ((score, emission), start) in score.iter_mut().zip(&emission).zip(start) {
        *score = emission + start;
    }
    forbid(0, &mut score);
    for t in 1..len {
        emission.iter_mut().for_each(|e| *e = 0.0);
        emit(t, &mut emission);
        for to in 0..n {
            let mut best = f32::NEG_INFINITY;
            let mut best_from = 0;
            for (from, previous) in score.iter().enumerate() {
                let candidate = previous + step[from * n + to];
                if candidate > best {
                    best = candidate;
                    best_from = from;
                }
            }
            next[to] = best + emission[to];
            back[t * n + to] = best_from as u16;
        }
        forbid(t, &mut next);
        std::mem::swap(&mut score, &mut next);
    }
    let mut last = 0;
    let mut best = f32::NEG_INFINITY;
    for (label, s) in score.iter().enumerate() {
        if *s > best {
            best = *s;
            last = label;
        }
    }
    if best == f32::NEG_INFINITY {
        return if mask.is_some() {
            viterbi(n, len, emit, transitions, None, allowed)
        } else if !allowed.is_empty() {
            viterbi(n, len, emit, transitions, None, &[])
        } else {
            vec![0; len]
        };
    }
    let mut path = vec![0u16; len];
    let mut label = last;
    for t in (0..len).rev() {
        path[t] = label as u16;
        if t > 0 {
            label = back[t * n + label] as usize;
        }
    }
    path
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Labels: 0 = O, 1 = B, 2 = I. Feature 0 marks a "start word", feature 1 a
    /// "continuation word", feature 2 an "outside word". Inside spans I must
    /// follow B or I, which only transitions can learn when the words are ambiguous.
    fn data() -> Vec<(Vec<Vec<u32>>, Vec<u16>)> {
        vec![
            (
                vec![vec![2], vec![0], vec![1], vec![1], vec![2]],
                vec![0, 1, 2, 2, 0],
            ),
            (vec![vec![0], vec![1], vec![2]], vec![1, 2, 0]),
            (vec![vec![2], vec![2], vec![0], vec![3]], vec![0, 0, 1, 2]),
            (vec![vec![0], vec![3], vec![3], vec![2]], vec![1, 2, 2, 0]),
        ]
    }

    #[test]
    fn learns_emissions_and_transitions() {
        let mut trainer = SequenceTrainer::new(3);
        for _ in 0..10 {
            for (features, gold) in data() {
                trainer.train_sequence(&features, &gold, None);
            }
        }
        let model = trainer.average();
        for (features, gold) in data() {
            assert_eq!(model.decode(&features, None), gold);
        }
        // Feature 3 ("ambiguous continuation") after B is I: learned by transition.
        assert_eq!(model.decode(&[vec![0], vec![3]], None), [1, 2]);
    }

    #[test]
    fn the_mask_constrains_decoding() {
        // Emissions alone would say I, I.
        let mut weights = Weights::empty(3);
        weights.push_row(&[(2, 5.0)]);
        let model = SequenceModel {
            emissions: weights,
            transitions: vec![0.0; 12],
        };
        assert_eq!(model.decode(&[[0u32], [0]], None), [2, 2]);
        let mut mask = TransitionMask::allow_all(3);
        mask.forbid(None, 2);
        mask.forbid(Some(0), 2);
        assert!(!mask.allows(None, 2));
        assert!(mask.allows(Some(1), 2));
        assert_eq!(model.decode(&[[0u32], [0]], Some(&mask)), [1, 2]);
        // A mask that allows nothing falls back to unconstrained decoding.
        let mut nothing = TransitionMask::allow_all(3);
        for to in 0..3 {
            nothing.forbid(None, to);
        }
        assert_eq!(model.decode(&[[0u32], [0]], Some(&nothing)), [2, 2]);
        assert!(model.decode::<[u32; 1]>(&[], None).is_empty());
        // The same through precomputed emission scores.
        let emissions = [0.0, 0.0, 5.0, 0.0, 0.0, 5.0, 1.0];
        assert_eq!(model.decode_emissions(&emissions, Some(&mask)), [1, 2]);
        assert_eq!(model.decode_emissions(&emissions, None), [2, 2]);
    }

    #[test]
    fn bio_masks_and_position_masks_constrain_decoding() {
        // Labels: 0 = O, 1 = B, 2 = I.
        let mask = TransitionMask::bio(3, |l| (l == 2).then_some(1));
        assert!(!mask.allows(None, 2), "no I at the start");
        assert!(!mask.allows(Some(0), 2));
        assert!(mask.allows(Some(1), 2) && mask.allows(Some(2), 2) && mask.allows(Some(0), 1));
        // Emissions that favour I everywhere still decode to a legal B I I.
        let emissions = [0.0, 0.5, 1.0, 0.0, 0.0, 1.0, 0.0, 0.5, 1.0];
        let transitions = [0.0; 12];
        assert_eq!(
            decode_scores(3, &emissions, &transitions, Some(&mask), &[]),
            [1, 2, 2]
        );
        // A position mask forcing O in the middle splits the run.
        assert_eq!(
            decode_scores(
                3,
                &emissions,
                &transitions,
                Some(&mask),
                &[0b111, 0b001, 0b111]
            ),
            [1, 0, 1]
        );
        // Positions that allow nothing fall back to unconstrained decoding.
        assert_eq!(
            decode_scores(3, &emissions, &transitions, Some(&mask), &[0, 0, 0]),
            [2, 2, 2]
        );
    }

    #[test]
    fn the_mean_of_one_order_is_its_model_and_of_several_their_average() {
        fn train_in(order: &[usize], trainer: &mut SequenceTrainer) {
            let data = data();
            for _ in 0..3 {
                for (features, gold) in order.iter().filter_map(|i| data.get(*i)) {
                    trainer.train_sequence(features, gold, None);
                }
            }
        }
        let forward: Vec<usize> = (0..data().len()).collect();
        let backward: Vec<usize> = forward.iter().rev().copied().collect();
        let alone = |order: &[usize]| {
            let mut trainer = SequenceTrainer::new(3);
            train_in(order, &mut trainer);
            trainer.average()
        };
        assert_eq!(
            SequenceTrainer::mean_of(3, 1, |trainer| train_in(&forward, trainer)),
            alone(&forward)
        );
        let (a, b) = (alone(&forward), alone(&backward));
        assert_ne!(a, b, "the orders must train different models");
        let mut orders = [forward.as_slice(), backward.as_slice()].into_iter();
        let mean = SequenceTrainer::mean_of(3, 2, |trainer| {
            if let Some(order) = orders.next() {
                train_in(order, trainer);
            }
        });
        for feature in 0..4 {
            let mut expected = [0.0f32; 3];
            for (label, value) in a.emissions.row(feature).chain(b.emissions.row(feature)) {
                expected[usize::from(label)] += value / 2.0;
            }
            let mut got = [0.0f32; 3];
            for (label, value) in mean.emissions.row(feature) {
                got[usize::from(label)] = value;
            }
            for (got, expected) in got.iter().zip(expected) {
                assert!(
                    (got - expected).abs() < 1e-6,
                    "feature {feature}: {got} against {expected}"
                );
            }
        }
        for ((mean, a), b) in mean
            .transitions
            .iter()
            .zip(&a.transitions)
            .zip(&b.transitions)
        {
            assert!((mean - (a + b) / 2.0).abs() < 1e-6);
        }
    }

    #[test]
    fn mismatched_gold_is_not_learned() {
        let mut trainer = SequenceTrainer::new(2);
        trainer.train_sequence(&[vec![0u32]], &[1, 1], None);
        trainer.train_sequence(&[vec![0u32]], &[7], None);
        assert_eq!(trainer.average().emissions.n_weights(), 0);
    }
}
