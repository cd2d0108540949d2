//! The multiclass averaged perceptron.
//!
//! Training keeps, for every (feature, class) weight, the running sum of its
//! value over time, updated lazily: a weight remembers when it last changed, and
//! on its next change (or at the end) adds its value times the steps it kept it.
//! The averaged weight is that sum over the number of steps, which is what makes
//! the perceptron generalize; the lazy sum makes averaging cost nothing per step.

/// One weight under training.
#[derive(Clone, Copy, Debug)]
struct Param {
    class: u16,
    weight: f32,
    /// The sum of `weight` over every step up to `stamp`.
    total: f64,
    stamp: u64,
}

/// Sparse rows of weights under training, with lazy averaging.
#[derive(Clone, Debug, Default)]
pub(crate) struct Params {
    rows: Vec<Vec<Param>>,
}

impl Params {
    pub(crate) fn add_scores(&self, features: &[u32], scores: &mut [f32]) {
        for feature in features {
            let Some(row) = self.rows.get(*feature as usize) else {
                continue;
            };
            for param in row {
                if let Some(score) = scores.get_mut(param.class as usize) {
                    *score += param.weight;
                }
            }
        }
    }

    pub(crate) fn update(&mut self, feature: u32, class: u16, delta: f32, now: u64) {
        let index = feature as usize;
        if index >= self.rows.len() {
            self.rows.resize_with(index + 1, Vec::new);
        }
        let Some(row) = self.rows.get_mut(index) else {
            return;
        };
        let param = match row.iter().position(|p| p.class == class) {
            Some(at) => &mut row[at],
            None => {
                row.push(Param {
                    class,
                    weight: 0.0,
                    total: 0.0,
                    stamp: now,
                });
                let last = row.len() - 1;
                &mut row[last]
            }
        };
        hold(&mut param.total, &mut param.stamp, param.weight, now);
        param.weight += delta;
    }

    /// The averaged weights after `now` steps.
    pub(crate) fn average(&self, n_classes: u16, now: u64) -> Weights {
        let mut weights = Weights::empty(n_classes);
        for row in &self.rows {
            let mut entries: Vec<(u16, f32)> = row
                .iter()
                .filter_map(|param| {
                    let average = mean(param.total, param.stamp, param.weight, now);
                    (average != 0.0).then_some((param.class, average))
                })
                .collect();
            entries.sort_by_key(|(class, _)| *class);
            weights.push_row(&entries);
        }
        weights
    }
}

/// Adds to `total` (a weight's sum over every step up to `stamp`) the steps
/// since, at `weight`, and moves `stamp` to `now`: called before the weight
/// changes.
pub(crate) fn hold(total: &mut f64, stamp: &mut u64, weight: f32, now: u64) {
    *total += f64::from(weight) * now.saturating_sub(*stamp) as f64;
    *stamp = now;
}

/// A weight's average over `now` steps, given its sum up to `stamp`.
pub(crate) fn mean(total: f64, stamp: u64, weight: f32, now: u64) -> f32 {
    if now == 0 {
        return 0.0;
    }
    let total = total + f64::from(weight) * now.saturating_sub(stamp) as f64;
    (total / now as f64) as f32
}

/// Trains a multiclass averaged perceptron over features given as ids.
#[derive(Clone, Debug)]
pub struct Trainer {
    n_classes: u16,
    params: Params,
    clock: u64,
    scores: Vec<f32>,
}

impl Trainer {
    /// A trainer for classes `0..n_classes`.
    pub fn new(n_classes: u16) -> Trainer {
        Trainer {
            n_classes,
            params: Params::default(),
            clock: 0,
            scores: vec![0.0; n_classes as usize],
        }
    }

    /// How many classes it tells apart.
    pub fn n_classes(&self) -> u16 {
        self.n_classes
    }

    /// The best class under the current (not averaged) weights; ties go to the
    /// lowest class.
    pub fn predict(&mut self, features: &[u32]) -> u16 {
        self.scores.iter_mut().for_each(|s| *s = 0.0);
        self.params.add_scores(features, &mut self.scores);
        best_class(&self.scores)
    }

    /// Counts one training example: when `guess` is not `truth`, moves the
    /// weights of `features` towards `truth` and away from `guess`.
    pub fn learn(&mut self, features: &[u32], truth: u16, guess: u16) {
        self.clock += 1;
        if truth == guess || truth >= self.n_classes || guess >= self.n_classes {
            return;
        }
        for feature in features {
            self.params.update(*feature, truth, 1.0, self.clock);
            self.params.update(*feature, guess, -1.0, self.clock);
        }
    }

    /// Predicts, learns from the answer and returns the prediction.
    pub fn train_one(&mut self, features: &[u32], truth: u16) -> u16 {
        let guess = self.predict(features);
        self.learn(features, truth, guess);
        guess
    }

    /// The averaged weights.
    pub fn average(&self) -> Weights {
        self.params.average(self.n_classes, self.clock)
    }
}

/// The index of the highest score; ties go to the lowest index, and an empty
/// slice gives 0.
pub fn argmax(scores: &[f32]) -> usize {
    let mut best = 0;
    let mut best_score = f32::NEG_INFINITY;
    for (class, score) in scores.iter().enumerate() {
        if *score > best_score {
            best = class;
            best_score = *score;
        }
    }
    best
}

/// [`argmax`] as a class id, which is 16 bits wide.
fn best_class(scores: &[f32]) -> u16 {
    u16::try_from(argmax(scores)).unwrap_or(u16::MAX)
}

/// Trained weights: for each feature id, the classes it votes for and how much.
///
/// Rows are stored compressed (one offset per feature, then class and weight
/// pairs), so a model holds only its non-zero weights.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    n_classes: u16,
    /// `offsets[f]..offsets[f + 1]` are the entries of feature `f`.
    offsets: Vec<u32>,
    classes: Vec<u16>,
    values: Vec<f32>,
}

impl Weights {
    /// Weights with no feature.
    pub fn empty(n_classes: u16) -> Weights {
        Weights {
            n_classes,
            offsets: vec![0],
            classes: Vec::new(),
            values: Vec::new(),
        }
    }

    /// Weights with room for `features` rows and `weights` entries.
    pub(crate) fn with_capacity(n_classes: u16, features: usize, weights: usize) -> Weights {
        let mut out = Weights::empty(n_classes);
        out.offsets.reserve(features);
        out.classes.reserve(weights);
        out.values.reserve(weights);
        out
    }

    /// Appends one entry to the row being built; [`Weights::end_row`] closes it.
    pub(crate) fn push_entry(&mut self, class: u16, value: f32) {
        self.classes.push(class);
        self.values.push(value);
    }

    /// Closes the row being built: the next entries belong to the next feature id.
    pub(crate) fn end_row(&mut self) {
        self.offsets
            .push(u32::try_from(self.classes.len()).unwrap_or(u32::MAX));
    }

    /// Appends the row of the next feature id; entries must be sorted by class.
    pub(crate) fn push_row(&mut self, entries: &[(u16, f32)]) {
        for (class, value) in entries {
            self.classes.push(*class);
            self.values.push(*value);
        }
        self.offsets
            .push(u32::try_from(self.classes.len()).unwrap_or(u32::MAX));
    }

    /// The weight-wise mean of weights of `n_classes` classes trained on one
    /// feature numbering: what averaging several training orders keeps.
    pub fn mean(n_classes: u16, all: &[&Weights]) -> Weights {
        let count = all.len().max(1) as f32;
        let n_features = all.iter().map(|w| w.n_features()).max().unwrap_or(0);
        let mut mean = Weights::empty(n_classes);
        let mut sums = vec![0.0f32; usize::from(n_classes)];
        let mut entries = Vec::new();
        for feature in 0..n_features {
            let id = u32::try_from(feature).unwrap_or(u32::MAX);
            sums.fill(0.0);
            for weights in all {
                for (class, value) in weights.row(id) {
                    if let Some(sum) = sums.get_mut(usize::from(class)) {
                        *sum += value;
                    }
                }
            }
            entries.clear();
            entries.extend(
                (0u16..)
                    .zip(&sums)
                    .filter(|(_, sum)| **sum != 0.0)
                    .map(|(class, sum)| (class, sum / count)),
            );
            mean.push_row(&entries);
        }
        mean
    }

    /// How many classes the weights tell apart.
    pub fn n_classes(&self) -> u16 {
        self.n_classes
    }

    /// How many feature rows there are.
    pub fn n_features(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }

    /// How many non-zero weights there are.
    pub fn n_weights(&self) -> usize {
        self.values.len()
    }

    /// The entries of one feature: (class, weight) pairs sorted by class.
    pub fn row(&self, feature: u32) -> impl Iterator<Item = (u16, f32)> + '_ {
        let index = feature as usize;
        let range = match (self.offsets.get(index), self.offsets.get(index + 1)) {
            (Some(start), Some(end)) => *start as usize..*end as usize,
            _ => 0..0,
        };
        let classes = self.classes.get(range.clone()).unwrap_or_default();
        let values = self.values.get(range).unwrap_or_default();
        classes.iter().copied().zip(values.iter().copied())
    }

    /// Adds the weights of `features` to `scores` (one slot per class).
    pub fn add_scores(&self, features: &[u32], scores: &mut [f32]) {
        for feature in features {
            for (class, value) in self.row(*feature) {
                if let Some(score) = scores.get_mut(class as usize) {
                    *score += value;
                }
            }
        }
    }

    /// The best class for `features`, using `scores` as scratch space; ties go
    /// to the lowest class.
    pub fn predict(&self, features: &[u32], scores: &mut Vec<f32>) -> u16 {
        scores.clear();
        scores.resize(self.n_classes as usize, 0.0);
        self.add_scores(features, scores);
        best_class(scores)
    }

    /// Weights from a dense matrix of `n_classes` values a feature, feature
    /// after feature; zeros are left out.
    pub(crate) fn from_dense(n_classes: u16, dense: &[f32]) -> Weights {
        let mut out = Weights::empty(n_classes);
        let mut entries = Vec::new();
        for row in dense.chunks(usize::from(n_classes).max(1)) {
            entries.clear();
            entries.extend(
                (0u16..)
                    .zip(row)
                    .filter(|(_, value)| **value != 0.0)
                    .map(|(class, value)| (class, *value)),
            );
            out.push_row(&entries);
        }
        out
    }

    /// Drops the weights whose magnitude is below `threshold`, to keep model
    /// files small; returns how many were dropped.
    pub fn prune(&mut self, threshold: f32) -> usize {
        let before = self.values.len();
        let mut pruned = Weights::empty(self.n_classes);
        let mut entries = Vec::new();
        for feature in 0..self.n_features() {
            entries.clear();
            let id = u32::try_from(feature).unwrap_or(u32::MAX);
            entries.extend(self.row(id).filter(|(_, value)| value.abs() >= threshold));
            pruned.push_row(&entries);
        }
        *self = pruned;
        before - self.values.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn averaging_uses_the_time_each_weight_was_held() {
        let mut trainer = Trainer::new(2);
        // Step 1: a wrong guess moves feature 0 to class 1 (+1) and from class 0 (-1).
        trainer.learn(&[0], 1, 0);
        // Steps 2-4: right guesses, no change.
        for _ in 0..3 {
            trainer.learn(&[0], 1, 1);
        }
        // The weight +1 for class 1 was held from step 1 to step 4: 3 steps of 4.
        let weights = trainer.average();
        let row: Vec<(u16, f32)> = weights.row(0).collect();
        assert_eq!(row, [(0, -0.75), (1, 0.75)]);
    }

    #[test]
    fn learns_a_separable_problem() {
        // Class = which of features 0..3 is present; feature 9 is noise.
        let data: Vec<(Vec<u32>, u16)> = (0..60)
            .map(|i| (vec![(i % 3) as u32, 9], (i % 3) as u16))
            .collect();
        let mut trainer = Trainer::new(3);
        for _ in 0..3 {
            for (features, truth) in &data {
                trainer.train_one(features, *truth);
            }
        }
        let weights = trainer.average();
        let mut scratch = Vec::new();
        for (features, truth) in &data {
            assert_eq!(weights.predict(features, &mut scratch), *truth);
        }
        assert_eq!(
            weights.predict(&[99], &mut scratch),
            0,
            "unknown features score zero"
        );
    }

    #[test]
    fn pruning_drops_small_weights_only() {
        let mut weights = Weights::empty(3);
        weights.push_row(&[(0, 0.001), (2, 1.5)]);
        weights.push_row(&[(1, -0.0001)]);
        weights.push_row(&[(1, -2.0)]);
        assert_eq!(weights.prune(0.01), 2);
        assert_eq!(weights.n_features(), 3);
        assert_eq!(weights.row(0).collect::<Vec<_>>(), [(2, 1.5)]);
        assert_eq!(weights.row(1).count(), 0);
        assert_eq!(weights.row(2).collect::<Vec<_>>(), [(1, -2.0)]);
        assert_eq!(weights.row(7).count(), 0);
    }

    #[test]
    fn argmax_breaks_ties_low() {
        assert_eq!(argmax(&[1.0, 3.0, 3.0]), 1);
        assert_eq!(argmax(&[0.0, 0.0]), 0);
        assert_eq!(argmax(&[]), 0);
    }
}
