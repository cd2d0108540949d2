//! Scoring attest's output against the corpus.
//!
//! [`SegmentationScorer`] compares tokens and sentence ends with the silver
//! (CoreNLP) tokens; [`AttributionScorer`] compares attributions with the gold
//! under the span protocol (per role, exact and begin match, as published results
//! use) and the stricter attribution protocol (whole attributions matched by
//! content overlap); [`EntityScorer`] compares entity mentions with the silver
//! mentions. All sum counts over the articles added to them, so their reports
//! are micro-averaged over a split.

mod attribution;
mod calibration;
mod entities;
mod segmentation;
mod sources;

pub use attribution::{
    AttributionProtocol, AttributionReport, AttributionScorer, RoleScores, Roles, SpanProtocol,
    content_jaccard, match_attributions, paragraph_pieces, score_tokens,
};
pub use calibration::{BINS, Bin, Reliability};
pub use entities::{EntityReport, EntityScorer, LabelScores};
pub use segmentation::{SegmentationReport, SegmentationScorer};
pub use sources::{
    Confusion, HedgeLabelReport, HedgeLabelScorer, SourceLabelReport, SourceLabelScorer, Tally,
};

use attest_doc::{Attribution, Entity, Segmentation};
use serde::{Serialize, Serializer, ser::SerializeStruct};

use crate::{Corpus, CorpusArticle, CorpusError};

/// Scores a segmenter over a split: every article with silver tokens is
/// segmented by `segment` and compared; `top` disagreements of each kind are kept.
pub fn evaluate_segmentation(
    corpus: &Corpus,
    top: usize,
    mut segment: impl FnMut(&str) -> Segmentation,
) -> Result<SegmentationReport, CorpusError> {
    let mut scorer = SegmentationScorer::new();
    for article in corpus.articles() {
        let article = article?;
        if let Some(silver) = &article.silver {
            scorer.add(&article.text, &segment(&article.text), silver);
        }
    }
    Ok(scorer.report(top))
}

/// Scores an attribution finder over a split: `predict` gives each article's
/// attributions, compared with its gold under both protocols.
pub fn evaluate_attributions(
    corpus: &Corpus,
    mut predict: impl FnMut(&CorpusArticle) -> Vec<Attribution>,
) -> Result<AttributionReport, CorpusError> {
    let mut scorer = AttributionScorer::new();
    for article in corpus.articles() {
        let article = article?;
        let predicted = predict(&article);
        scorer.add(&article.text, &article.gold, &predicted);
    }
    Ok(scorer.report())
}

/// Scores an entity tagger over a split: every article with silver tokens gets
/// its mentions from `predict`, compared with the silver mentions; `top`
/// disagreements are kept.
pub fn evaluate_entities(
    corpus: &Corpus,
    top: usize,
    mut predict: impl FnMut(&CorpusArticle) -> Vec<Entity>,
) -> Result<EntityReport, CorpusError> {
    let mut scorer = EntityScorer::new();
    for article in corpus.articles() {
        let article = article?;
        if let Some(silver) = &article.silver {
            let predicted = predict(&article);
            scorer.add(&article.text, &crate::silver_mentions(silver), &predicted);
        }
    }
    Ok(scorer.report(top))
}

/// Counts of a comparison, from which precision, recall and F1 follow.
///
/// A ratio whose denominator is zero is 1.0 when the other side is empty too
/// (nothing to find and nothing found) and 0.0 otherwise.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Prf {
    /// Predicted and in the gold.
    pub true_pos: usize,
    /// Predicted but not in the gold.
    pub false_pos: usize,
    /// In the gold but not predicted.
    pub false_neg: usize,
}

impl Prf {
    /// Counts from the number matched, predicted and in the gold.
    pub fn from_counts(matched: usize, predicted: usize, gold: usize) -> Prf {
        Prf {
            true_pos: matched,
            false_pos: predicted.saturating_sub(matched),
            false_neg: gold.saturating_sub(matched),
        }
    }

    /// The sum of two sets of counts.
    pub fn add(&mut self, other: Prf) {
        self.true_pos += other.true_pos;
        self.false_pos += other.false_pos;
        self.false_neg += other.false_neg;
    }

    /// How many were predicted.
    pub fn predicted(&self) -> usize {
        self.true_pos + self.false_pos
    }

    /// How many the gold holds.
    pub fn gold(&self) -> usize {
        self.true_pos + self.false_neg
    }

    /// The share of predictions that are right.
    pub fn precision(&self) -> f64 {
        ratio(self.true_pos, self.predicted(), self.gold())
    }

    /// The share of the gold that was predicted.
    pub fn recall(&self) -> f64 {
        ratio(self.true_pos, self.gold(), self.predicted())
    }

    /// The harmonic mean of precision and recall.
    pub fn f1(&self) -> f64 {
        let (p, r) = (self.precision(), self.recall());
        if p + r == 0.0 {
            0.0
        } else {
            2.0 * p * r / (p + r)
        }
    }
}

fn ratio(part: usize, whole: usize, other_side: usize) -> f64 {
    if whole == 0 {
        if other_side == 0 { 1.0 } else { 0.0 }
    } else {
        part as f64 / whole as f64
    }
}

impl Serialize for Prf {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_struct("Prf", 6)?;
        out.serialize_field("precision", &self.precision())?;
        out.serialize_field("recall", &self.recall())?;
        out.serialize_field("f1", &self.f1())?;
        out.serialize_field("true_pos", &self.true_pos)?;
        out.serialize_field("false_pos", &self.false_pos)?;
        out.serialize_field("false_neg", &self.false_neg)?;
        out.end()
    }
}

/// Writes a table of scores against the silver: a header, then a row of
/// precision, recall, F1 and counts per named comparison, names `width` wide.
fn write_prf_table<'a>(
    f: &mut std::fmt::Formatter<'_>,
    width: usize,
    rows: impl IntoIterator<Item = (&'a str, &'a Prf)>,
) -> std::fmt::Result {
    writeln!(
        f,
        "{:<width$} {:>7} {:>7} {:>7}   {:>8} {:>8} {:>8}",
        "", "P", "R", "F1", "silver", "ours", "matched"
    )?;
    for (name, prf) in rows {
        writeln!(
            f,
            "{:<width$} {:>7.4} {:>7.4} {:>7.4}   {:>8} {:>8} {:>8}",
            name,
            prf.precision(),
            prf.recall(),
            prf.f1(),
            prf.gold(),
            prf.predicted(),
            prf.true_pos
        )?;
    }
    Ok(())
}

/// The `top` most frequent entries of a tally, most frequent first, ties by key.
fn top_entries(
    tally: &std::collections::BTreeMap<String, usize>,
    top: usize,
) -> Vec<(String, usize)> {
    let mut entries: Vec<(String, usize)> = tally
        .iter()
        .map(|(key, count)| (key.clone(), *count))
        .collect();
    entries.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    entries.truncate(top);
    entries
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prf_from_counts() {
        let prf = Prf::from_counts(3, 4, 6);
        assert_eq!((prf.false_pos, prf.false_neg), (1, 3));
        assert!((prf.precision() - 0.75).abs() < 1e-12);
        assert!((prf.recall() - 0.5).abs() < 1e-12);
        assert!((prf.f1() - 0.6).abs() < 1e-12);
        assert_eq!(Prf::default().f1(), 1.0, "nothing to find, nothing found");
        assert_eq!(Prf::from_counts(0, 0, 2).precision(), 0.0);
        assert_eq!(Prf::from_counts(0, 3, 0).recall(), 0.0);
        let json = serde_json::to_string(&Prf::from_counts(1, 2, 2)).unwrap();
        assert!(
            json.starts_with(r#"{"precision":0.5,"recall":0.5,"f1":0.5,"#),
            "{json}"
        );
    }

    #[test]
    fn top_entries_sort_by_count_then_key() {
        let tally = [("b", 2), ("a", 2), ("c", 5), ("d", 1)]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
        let top = top_entries(&tally, 3);
        assert_eq!(top, [("c".into(), 5), ("a".into(), 2), ("b".into(), 2)]);
    }
}
