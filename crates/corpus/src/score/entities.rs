//! Entity mentions against the silver CoreNLP mentions.
//!
//! A predicted mention is right when its byte span and its type equal a silver
//! mention's. Scores are kept per type and overall, and once more ignoring the
//! type (spans only), which separates finding a name from typing it.
//! Disagreements are tallied by kind so that the systematic ones show:
//!
//! - `type`: the same span with another type;
//! - `boundary`: overlapping spans of the same type that differ at an end;
//! - `missed`: a silver mention nothing of ours overlaps;
//! - `extra`: one of ours no silver mention overlaps;
//! - `other`: overlapping spans that differ in both type and extent.

use std::collections::BTreeMap;
use std::fmt;

use attest_doc::{Entity, EntityLabel, Span};
use serde::Serialize;

use super::{Prf, top_entries, write_prf_table};
use crate::SilverMention;

/// The types, in the order reports list them.
const LABELS: [EntityLabel; 4] = [
    EntityLabel::Person,
    EntityLabel::Organization,
    EntityLabel::Location,
    EntityLabel::Other,
];

fn label_name(label: EntityLabel) -> &'static str {
    match label {
        EntityLabel::Person => "person",
        EntityLabel::Organization => "organization",
        EntityLabel::Location => "location",
        EntityLabel::Other => "other",
    }
}

/// The scores of one type.
#[derive(Clone, Copy, PartialEq, Debug, Serialize)]
pub struct LabelScores {
    /// The type: `person`, `organization`, `location` or `other`.
    pub label: &'static str,
    /// Exact span and type.
    pub scores: Prf,
}

/// How our entity mentions compare with the silver over the articles added.
#[derive(Clone, PartialEq, Debug, Serialize)]
pub struct EntityReport {
    /// Articles compared.
    pub articles: usize,
    /// Exact span and type, every type together (micro-averaged).
    pub overall: Prf,
    /// Exact span, whatever the type.
    pub spans: Prf,
    /// Per type.
    pub labels: Vec<LabelScores>,
    /// Disagreements by kind: `type`, `boundary`, `missed`, `extra`, `other`.
    pub disagreements: BTreeMap<&'static str, usize>,
    /// The most frequent disagreements, with the words involved.
    pub top_disagreements: Vec<(String, usize)>,
}

impl EntityReport {
    /// The scores `eval/floors.json` records.
    pub fn headline(&self) -> Vec<(&'static str, f64)> {
        let mut scores = vec![("overall_f1", self.overall.f1())];
        for label in &self.labels {
            let name = match label.label {
                "person" => "person_f1",
                "organization" => "organization_f1",
                "location" => "location_f1",
                _ => "other_f1",
            };
            scores.push((name, label.scores.f1()));
        }
        scores
    }
}

/// Sums entity counts over articles.
#[derive(Clone, Debug, Default)]
pub struct EntityScorer {
    articles: usize,
    overall: Prf,
    spans: Prf,
    labels: [Prf; 4],
    kinds: BTreeMap<&'static str, usize>,
    errors: BTreeMap<String, usize>,
}

fn label_index(label: EntityLabel) -> usize {
    LABELS.iter().position(|l| *l == label).unwrap_or(3)
}

fn overlaps(a: Span, b: Span) -> bool {
    a.byte_start() < b.byte_end() && b.byte_start() < a.byte_end()
}

impl EntityScorer {
    /// A scorer with nothing added.
    pub fn new() -> EntityScorer {
        EntityScorer::default()
    }

    /// Adds one article: its text, its silver mentions and ours.
    pub fn add(&mut self, text: &str, silver: &[SilverMention], ours: &[Entity]) {
        self.articles += 1;
        let gold: Vec<(Span, EntityLabel)> = silver.iter().map(|m| (m.span, m.label)).collect();
        let predicted: Vec<(Span, EntityLabel)> = ours.iter().map(|e| (e.span, e.label)).collect();
        let matched = predicted.iter().filter(|p| gold.contains(p)).count();
        self.overall
            .add(Prf::from_counts(matched, predicted.len(), gold.len()));
        let span_matched = predicted
            .iter()
            .filter(|(span, _)| gold.iter().any(|(g, _)| g == span))
            .count();
        self.spans
            .add(Prf::from_counts(span_matched, predicted.len(), gold.len()));
        for label in LABELS {
            let of = |list: &[(Span, EntityLabel)]| {
                list.iter()
                    .filter(|(_, l)| *l == label)
                    .copied()
                    .collect::<Vec<_>>()
            };
            let (g, p) = (of(&gold), of(&predicted));
            let matched = p.iter().filter(|x| g.contains(x)).count();
            if let Some(prf) = self.labels.get_mut(label_index(label)) {
                prf.add(Prf::from_counts(matched, p.len(), g.len()));
            }
        }
        let show = |span: Span| span.get(text).unwrap_or_default().replace('\n', " ");
        for (span, label) in &gold {
            if predicted.contains(&(*span, *label)) {
                continue;
            }
            let overlapping: Vec<&(Span, EntityLabel)> = predicted
                .iter()
                .filter(|(p, _)| overlaps(*p, *span))
                .collect();
            let (kind, key) = match overlapping.first() {
                None => (
                    "missed",
                    format!("missed {}: {}", label_name(*label), show(*span)),
                ),
                Some((p, l)) if p == span => (
                    "type",
                    format!(
                        "type: silver {}, ours {}: {}",
                        label_name(*label),
                        label_name(*l),
                        show(*span)
                    ),
                ),
                Some((p, l)) if l == label => (
                    "boundary",
                    format!(
                        "boundary {}: silver [{}], ours [{}]",
                        label_name(*label),
                        show(*span),
                        show(*p)
                    ),
                ),
                Some((p, l)) => (
                    "other",
                    format!(
                        "other: silver {} [{}], ours {} [{}]",
                        label_name(*label),
                        show(*span),
                        label_name(*l),
                        show(*p)
                    ),
                ),
            };
            *self.kinds.entry(kind).or_default() += 1;
            *self.errors.entry(key).or_default() += 1;
        }
        for (span, label) in &predicted {
            if gold.iter().any(|(g, _)| overlaps(*g, *span)) {
                continue;
            }
            *self.kinds.entry("extra").or_default() += 1;
            let key = format!("extra {}: {}", label_name(*label), show(*span));
            *self.errors.entry(key).or_default() += 1;
        }
    }

    /// The report, with the `top` most frequent disagreements.
    pub fn report(&self, top: usize) -> EntityReport {
        EntityReport {
            articles: self.articles,
            overall: self.overall,
            spans: self.spans,
            labels: LABELS
                .iter()
                .zip(self.labels)
                .map(|(label, scores)| LabelScores {
                    label: label_name(*label),
                    scores,
                })
                .collect(),
            disagreements: self.kinds.clone(),
            top_disagreements: top_entries(&self.errors, top),
        }
    }
}

impl fmt::Display for EntityReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} articles against the silver entity mentions (exact spans)",
            self.articles
        )?;
        let rows = self
            .labels
            .iter()
            .map(|l| (l.label, &l.scores))
            .chain([("overall", &self.overall), ("spans, any type", &self.spans)]);
        write_prf_table(f, 16, rows)?;
        if !self.disagreements.is_empty() {
            let kinds: Vec<String> = self
                .disagreements
                .iter()
                .map(|(kind, count)| format!("{kind} {count}"))
                .collect();
            writeln!(f, "disagreements: {}", kinds.join(", "))?;
        }
        if !self.top_disagreements.is_empty() {
            writeln!(f, "most frequent disagreements:")?;
            for (key, count) in &self.top_disagreements {
                writeln!(f, "{count:>7}  {key}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use attest_doc::ClusterId;

    fn mention(text: &str, word: &str, label: EntityLabel) -> SilverMention {
        let start = text.find(word).unwrap();
        SilverMention {
            span: Span::must(start, start + word.len()),
            label,
        }
    }

    fn entity(m: SilverMention) -> Entity {
        Entity {
            span: m.span,
            label: m.label,
            cluster: ClusterId::must(0),
        }
    }

    #[test]
    fn scores_exact_spans_and_types() {
        use EntityLabel::*;
        let text = "Ana Ruiz of Acme Corp. flew to Oslo with Bo Li and Cy.";
        let silver = [
            mention(text, "Ana Ruiz", Person),
            mention(text, "Acme Corp.", Organization),
            mention(text, "Oslo", Location),
            mention(text, "Bo Li", Person),
        ];
        let ours = [
            entity(mention(text, "Ana Ruiz", Person)),
            entity(mention(text, "Acme", Organization)),
            entity(mention(text, "Oslo", Organization)),
            entity(mention(text, "Cy", Person)),
        ];
        let mut scorer = EntityScorer::new();
        scorer.add(text, &silver, &ours);
        let report = scorer.report(10);
        assert_eq!(report.overall, Prf::from_counts(1, 4, 4));
        assert_eq!(report.spans, Prf::from_counts(2, 4, 4));
        assert_eq!(report.labels[0].scores, Prf::from_counts(1, 2, 2));
        assert_eq!(report.labels[2].scores, Prf::from_counts(0, 0, 1));
        let kinds: Vec<(&str, usize)> =
            report.disagreements.iter().map(|(k, v)| (*k, *v)).collect();
        assert_eq!(
            kinds,
            [("boundary", 1), ("extra", 1), ("missed", 1), ("type", 1)]
        );
        let shown = report.to_string();
        assert!(
            shown.contains("boundary organization: silver [Acme Corp.], ours [Acme]"),
            "{shown}"
        );
        assert!(shown.contains("type: silver location, ours organization: Oslo"));
        assert!(shown.contains("missed person: Bo Li"));
        assert!(shown.contains("extra person: Cy"));
        assert_eq!(report.headline()[0].0, "overall_f1");
    }
}
