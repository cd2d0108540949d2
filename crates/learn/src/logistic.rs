//! Multinomial logistic regression, for a decision where the averaged
//! perceptron's all-or-nothing updates overfit rare features: each example
//! moves every class's weights by how wrong its probability was, and an L2
//! penalty pulls the weights an example touches towards zero.
//!
//! Training is AdaGrad over seeded visiting orders, so the same examples and
//! seed give the same weights.

use crate::{SplitMix64, Weights};

/// How a logistic regression is trained.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LogisticConfig {
    /// Passes over the examples.
    pub epochs: usize,
    /// AdaGrad's base step.
    pub rate: f32,
    /// The L2 penalty on each weight an example touches.
    pub l2: f32,
    /// Seeds the visiting order.
    pub seed: u64,
}

/// The weights of a logistic regression over `examples` (each its feature ids
/// below `n_features` and its class below `n_classes`). Scores are log-odds:
/// the difference of two classes' scores is the log of their odds.
pub fn train_logistic(
    examples: &[(Vec<u32>, u16)],
    n_features: usize,
    n_classes: u16,
    config: &LogisticConfig,
) -> Weights {
    let k = usize::from(n_classes);
    let mut weights = vec![0.0f32; n_features * k];
    // AdaGrad's sums of squared gradients, started above zero so the first
    // step is finite.
    let mut squares = vec![1e-8f32; n_features * k];
    let mut rng = SplitMix64::new(config.seed);
    let mut order: Vec<usize> = (0..examples.len()).collect();
    let mut gradient = vec![0.0f32; k];
    let rows = |f: u32| {
        let at = f as usize * k;
        at..at + k
    };
    for _ in 0..config.epochs {
        rng.shuffle(&mut order);
        for (features, class) in order.iter().filter_map(|&i| examples.get(i)) {
            let features: Vec<u32> = features
                .iter()
                .copied()
                .filter(|&f| (f as usize) < n_features)
                .collect();
            gradient.fill(0.0);
            for &f in &features {
                for (g, w) in gradient.iter_mut().zip(&weights[rows(f)]) {
                    *g += w;
                }
            }
            softmax(&mut gradient);
            if let Some(truth) = gradient.get_mut(usize::from(*class)) {
                *truth -= 1.0;
            }
            for &f in &features {
                let (w, s) = (&mut weights[rows(f)], &mut squares[rows(f)]);
                for ((w, s), g) in w.iter_mut().zip(s.iter_mut()).zip(&gradient) {
                    let g = g + config.l2 * *w;
                    *s += g * g;
                    *w -= config.rate * g / s.sqrt();
                }
            }
        }
    }
    Weights::from_dense(n_classes, &weights)
}

/// Turns scores into probabilities, in place.
fn softmax(scores: &mut [f32]) {
    let max = scores.iter().copied().fold(f32::MIN, f32::max);
    let mut sum = 0.0;
    for s in scores.iter_mut() {
        *s = (*s - max).exp();
        sum += *s;
    }
    for s in scores.iter_mut() {
        *s /= sum;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn learns_odds_from_counts_and_repeats_itself() {
        // Feature 0 is class 1 three times in four; feature 1 always class 0.
        let examples: Vec<(Vec<u32>, u16)> = [
            (vec![0], 1),
            (vec![0], 1),
            (vec![0], 1),
            (vec![0], 0),
            (vec![1], 0),
            (vec![1], 0),
        ]
        .into();
        let config = LogisticConfig {
            epochs: 200,
            rate: 0.1,
            l2: 0.0,
            seed: 3,
        };
        let weights = train_logistic(&examples, 2, 2, &config);
        assert_eq!(weights, train_logistic(&examples, 2, 2, &config));
        let log_odds = |weights: &Weights, feature: u32| {
            let mut scores = vec![0.0; 2];
            weights.add_scores(&[feature], &mut scores);
            scores[1] - scores[0]
        };
        let odds = log_odds(&weights, 0).exp();
        assert!((odds - 3.0).abs() < 0.3, "odds {odds}, not about 3 to 1");
        assert!(log_odds(&weights, 1) < 0.0);
        let penalised = LogisticConfig { l2: 0.5, ..config };
        let penalised = train_logistic(&examples, 2, 2, &penalised);
        assert!(log_odds(&penalised, 0).abs() < log_odds(&weights, 0).abs());
    }
}
