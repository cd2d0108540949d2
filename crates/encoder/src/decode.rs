//! Decoding the heads' scores into spans: Viterbi over log-softmax scores
//! under the BIO constraint (an `I-X` only after `B-X` or `I-X`, never first),
//! with no learned transitions, as training's evaluation decodes.
//!
//! Every label set of the contract is `O` followed by `B-X, I-X` pairs, so a
//! label `l > 0` is a begin when odd and an inside when even, of type `(l + 1) / 2`.

use std::ops::Range;

/// Log-softmax of each row of `scores` (rows of `width`), in place.
pub fn log_softmax_rows(scores: &mut [f32], width: usize) {
    for row in scores.chunks_mut(width) {
        let max = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let sum: f32 = row.iter().map(|s| (s - max).exp()).sum();
        let log_sum = max + sum.ln();
        for s in row.iter_mut() {
            *s -= log_sum;
        }
    }
}

/// Whether label `next` may follow label `prev` (`None` at the start).
fn allowed(prev: Option<usize>, next: usize) -> bool {
    if next == 0 || next % 2 == 1 {
        return true;
    }
    prev.is_some_and(|p| p == next || p + 1 == next)
}

/// The best constrained labelling of `scores` (rows of `width` log-probabilities);
/// positions where `forced_o` holds may only be `O`. Ties go to the lower label.
pub fn viterbi(scores: &[f32], width: usize, forced_o: impl Fn(usize) -> bool) -> Vec<usize> {
    let n = scores.len().checked_div(width).unwrap_or(0);
    if n == 0 {
        return Vec::new();
    }
    let score = |position: usize, label: usize| -> f32 {
        if label != 0 && forced_o(position) {
            f32::NEG_INFINITY
        } else {
            scores
                .get(position * width + label)
                .copied()
                .unwrap_or(f32::NEG_INFINITY)
        }
    };
    let mut best: Vec<f32> = (0..width)
        .map(|l| {
            if allowed(None, l) {
                score(0, l)
            } else {
                f32::NEG_INFINITY
            }
        })
        .collect();
    let mut back = vec![0usize; n * width];
    let mut next = vec![f32::NEG_INFINITY; width];
    for position in 1..n {
        for (label, slot) in next.iter_mut().enumerate() {
            let mut top = f32::NEG_INFINITY;
            let mut from = 0;
            for (prev, &value) in best.iter().enumerate() {
                if allowed(Some(prev), label) && value > top {
                    top = value;
                    from = prev;
                }
            }
            *slot = top + score(position, label);
            if let Some(b) = back.get_mut(position * width + label) {
                *b = from;
            }
        }
        std::mem::swap(&mut best, &mut next);
    }
    let mut label = 0;
    let mut top = f32::NEG_INFINITY;
    for (l, &value) in best.iter().enumerate() {
        if value > top {
            top = value;
            label = l;
        }
    }
    let mut out = vec![0; n];
    for position in (0..n).rev() {
        if let Some(slot) = out.get_mut(position) {
            *slot = label;
        }
        label = back.get(position * width + label).copied().unwrap_or(0);
    }
    out
}

/// The runs `B-X I-X*` of type `begin` (the label of `B-X`) in a labelling.
pub fn runs(labels: &[usize], begin: usize) -> Vec<Range<usize>> {
    let mut out: Vec<Range<usize>> = Vec::new();
    for (position, &label) in labels.iter().enumerate() {
        if label == begin {
            out.push(position..position + 1);
        } else if label == begin + 1
            && let Some(last) = out.last_mut()
            && last.end == position
        {
            last.end = position + 1;
        }
    }
    out
}

/// The mean probability of the labels a run was given: how sure the head is of it.
pub fn run_confidence(
    log_probs: &[f32],
    width: usize,
    labels: &[usize],
    run: &Range<usize>,
) -> f32 {
    let total: f32 = run
        .clone()
        .filter_map(|p| {
            let label = labels.get(p)?;
            log_probs.get(p * width + label).map(|s| s.exp())
        })
        .sum();
    let value = total / run.len().max(1) as f32;
    if value.is_finite() {
        value.clamp(0.0, 1.0)
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bounds(runs: &[Range<usize>]) -> Vec<(usize, usize)> {
        runs.iter().map(|r| (r.start, r.end)).collect()
    }

    /// Log-probabilities from rows of unnormalised scores.
    fn rows(scores: &[&[f32]]) -> (Vec<f32>, usize) {
        let width = scores[0].len();
        let mut flat: Vec<f32> = scores.iter().flat_map(|r| r.iter().copied()).collect();
        log_softmax_rows(&mut flat, width);
        (flat, width)
    }

    #[test]
    fn log_softmax_rows_sum_to_one() {
        let (flat, width) = rows(&[&[1.0, 2.0, 3.0], &[0.0, 0.0, 0.0]]);
        for row in flat.chunks(width) {
            let sum: f32 = row.iter().map(|s| s.exp()).sum();
            assert!((sum - 1.0).abs() < 1e-6);
        }
    }

    #[test]
    fn an_inside_label_never_starts_or_follows_another_type() {
        // O, B-A, I-A, B-B, I-B: the greedy choice would be I-A, I-A, I-B.
        let (flat, width) = rows(&[
            &[0.0, 1.0, 3.0, 0.0, 0.0],
            &[0.0, 0.0, 3.0, 0.0, 0.0],
            &[0.0, 0.0, 1.0, 0.0, 2.0],
        ]);
        let labels = viterbi(&flat, width, |_| false);
        assert_eq!(labels, [1, 2, 2]);
        assert_eq!(bounds(&runs(&labels, 1)), [(0, 3)]);
        assert!(runs(&labels, 3).is_empty());
    }

    #[test]
    fn a_strong_inside_pulls_its_begin_in() {
        let (flat, width) = rows(&[&[2.0, 1.5, 0.0], &[0.0, 0.0, 5.0]]);
        assert_eq!(viterbi(&flat, width, |_| false), [1, 2]);
    }

    #[test]
    fn forced_positions_are_outside_and_split_runs() {
        let (flat, width) = rows(&[
            &[0.0, 3.0, 0.0],
            &[0.0, 0.0, 3.0],
            &[0.0, 0.0, 3.0],
            &[0.0, 0.0, 3.0],
        ]);
        let labels = viterbi(&flat, width, |p| p == 1);
        assert_eq!(labels[1], 0);
        assert_eq!(labels, [1, 0, 1, 2]);
        assert_eq!(bounds(&runs(&labels, 1)), [(0, 1), (2, 4)]);
    }

    #[test]
    fn empty_input_gives_no_labels() {
        assert!(viterbi(&[], 3, |_| false).is_empty());
        assert!(runs(&[], 1).is_empty());
    }

    #[test]
    fn confidence_is_the_mean_label_probability() {
        let (flat, width) = rows(&[&[0.0, 0.0], &[0.0, 0.0]]);
        let c = run_confidence(&flat, width, &[1, 1], &(0..2));
        assert!((c - 0.5).abs() < 1e-6);
    }
}
