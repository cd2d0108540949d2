//! Decoding the heads' scores into spans: Viterbi over log-softmax scores
//! under the BIO constraint (an `I-X` only after `B-X` or `I-X`, never first),
//! with no learned transitions, as training's evaluation decodes.
//!
//! Every label set of the contract is `O` followed by `B-X, I-X` pairs, so a
//! label `l > 0` is a begin when odd and an inside when even, of type `(l + 1) / 2`.

use std::ops::Range;

use attest_learn::{TransitionMask, decode_scores};

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

/// The best constrained labelling of `scores` (rows of `width` log-probabilities);
/// positions where `forced_o` holds may only be `O`. Ties go to the lower label.
/// The learning kit's Viterbi decodes it, with no transition weights: the
/// heads were trained without any, so the constraint alone shapes the path.
pub fn viterbi(scores: &[f32], width: usize, forced_o: impl Fn(usize) -> bool) -> Vec<usize> {
    let (Ok(labels), Some(n)) = (u16::try_from(width), scores.len().checked_div(width)) else {
        return Vec::new();
    };
    let inside_of = |label: u16| (label > 0 && label.is_multiple_of(2)).then(|| label - 1);
    let mask = TransitionMask::bio(labels, inside_of);
    let allowed: Vec<u64> = (0..n)
        .map(|position| if forced_o(position) { 1 } else { u64::MAX })
        .collect();
    decode_scores(width, scores, &[], Some(&mask), &allowed)
        .into_iter()
        .map(usize::from)
        .collect()
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
