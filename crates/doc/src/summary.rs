//! The sourcing summary of a document: how an article sources what it reports.
//!
//! It is derived from the attributions, stances, sources and hedges layers (and
//! from [`Certainty`], whether the writer hedged each statement) and
//! holds nothing of its own, so every writer (JSON, the report, the ledger, the
//! web page) counts the same way from one function instead of each keeping a
//! tally of its own.

use serde::Serialize;

use crate::{AttributionKind, Certainty, Doc, Layer, QuoteStatus, SourceKind, StanceLabel};

/// How an article sources what it reports.
///
/// Shares are over all attributions, so that they add up with the counts a
/// reader sees, rounded to four decimals (exact figures follow from the
/// counts); an article with no attribution has shares of 0.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(
    feature = "schema",
    derive(schemars::JsonSchema),
    schemars(deny_unknown_fields)
)]
pub struct SourcingSummary {
    /// Attributions found.
    pub attributions: usize,
    /// Canonical sources found.
    pub sources: usize,
    /// Sources of each kind.
    pub sources_by_kind: Counts<SourceKind>,
    /// Attributions by the kind of their source.
    pub attributions_by_source_kind: Counts<SourceKind>,
    /// Attributions tied to no canonical source ("reportedly", or a quote whose
    /// speaker the article leaves open).
    pub without_source: usize,
    /// Attributions to unnamed or anonymous sources, over all attributions.
    #[cfg_attr(feature = "schema", schemars(range(min = 0.0, max = 1.0)))]
    pub unnamed_share: f64,
    /// Direct quotes: attributions whose content lies wholly inside quotation marks.
    pub direct_quotes: usize,
    /// Direct quotes over all attributions.
    #[cfg_attr(feature = "schema", schemars(range(min = 0.0, max = 1.0)))]
    pub direct_quote_share: f64,
    /// Attributions of each stance.
    pub stances: Counts<StanceLabel>,
    /// Unattributed hedges.
    pub hedges: usize,
    /// Quoted passages by whose words they are, floating quotes (those with no
    /// cue of their own, continuing the speaker before them) among them; `None`
    /// when quotations were not looked for.
    pub quotations: Option<Counts<QuoteStatus>>,
    /// How many statements the writer hedged; `None` when sentences or
    /// hedges were not looked for.
    pub certainty: Option<CertaintySummary>,
}

/// How many statements the writer hedged: attributions, and sentences in the
/// writer's own voice (as `Certainty` tells them).
///
/// Each share is over the statements of its own kind, rounded to four
/// decimals, and 0 when there is none.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(
    feature = "schema",
    derive(schemars::JsonSchema),
    schemars(deny_unknown_fields)
)]
pub struct CertaintySummary {
    /// Attributions with a hedge of the writer's in their cue or content.
    pub hedged_attributions: usize,
    /// Hedged attributions over all attributions.
    #[cfg_attr(feature = "schema", schemars(range(min = 0.0, max = 1.0)))]
    pub hedged_attribution_share: f64,
    /// Sentences in the writer's own voice: with a word, none of it
    /// attributed or quoting someone, and not in a byline.
    pub writers_voice_sentences: usize,
    /// Sentences in the writer's voice with a hedge in them.
    pub hedged_sentences: usize,
    /// Hedged sentences over the sentences in the writer's voice.
    #[cfg_attr(feature = "schema", schemars(range(min = 0.0, max = 1.0)))]
    pub hedged_sentence_share: f64,
}

impl CertaintySummary {
    /// The counts of `certainty`.
    pub fn of(certainty: &Certainty) -> CertaintySummary {
        let hedged_attributions = certainty.attributions.iter().filter(|h| **h).count();
        let writers_voice_sentences = certainty.sentences.iter().flatten().count();
        let hedged_sentences = certainty.sentences.iter().flatten().filter(|h| **h).count();
        CertaintySummary {
            hedged_attributions,
            hedged_attribution_share: share(hedged_attributions, certainty.attributions.len()),
            writers_voice_sentences,
            hedged_sentences,
            hedged_sentence_share: share(hedged_sentences, writers_voice_sentences),
        }
    }
}

/// `n` of `all`, rounded to four decimals; 0 of none is 0.
fn share(n: usize, all: usize) -> f64 {
    if all == 0 {
        0.0
    } else {
        (n as f64 / all as f64 * 1e4).round() / 1e4
    }
}

/// A count for every value of a small enum, zeros included, in the enum's
/// `ALL` order; it serializes as a map from the value's name to its count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counts<K: 'static> {
    keys: &'static [K],
    counts: Vec<usize>,
}

impl<K: Copy + PartialEq> Counts<K> {
    fn zero(keys: &'static [K]) -> Counts<K> {
        Counts {
            keys,
            counts: vec![0; keys.len()],
        }
    }

    fn add(&mut self, key: K) {
        if let Some(at) = self.keys.iter().position(|k| *k == key)
            && let Some(count) = self.counts.get_mut(at)
        {
            *count += 1;
        }
    }

    /// The count of `key`.
    pub fn get(&self, key: K) -> usize {
        self.iter().find(|(k, _)| *k == key).map_or(0, |(_, n)| n)
    }

    /// Every value with its count, in `ALL` order.
    pub fn iter(&self) -> impl Iterator<Item = (K, usize)> + '_ {
        self.keys.iter().copied().zip(self.counts.iter().copied())
    }
}

impl<K: Copy + PartialEq + Serialize> Serialize for Counts<K> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.iter())
    }
}

/// The object of one count per value, every value required, so that a value
/// added to the enum appears in the schema with no edit.
#[cfg(feature = "schema")]
impl<K> schemars::JsonSchema for Counts<K>
where
    K: schemars::JsonSchema + strum::VariantArray + Serialize,
{
    fn schema_name() -> std::borrow::Cow<'static, str> {
        format!("{}Counts", K::schema_name()).into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let names: Vec<String> = K::VARIANTS.iter().map(crate::serde_name).collect();
        let count = serde_json::Value::from(generator.subschema_for::<usize>());
        let properties: serde_json::Map<String, serde_json::Value> = names
            .iter()
            .map(|name| (name.clone(), count.clone()))
            .collect();
        schemars::json_schema!({
            "description": format!("The count of each {}.", K::schema_name()),
            "type": "object",
            "properties": properties,
            "required": names,
            "additionalProperties": false,
        })
    }
}

impl SourcingSummary {
    /// The summary of `doc`, or `None` when attributions were not looked for.
    pub fn of(doc: &Doc) -> Option<SourcingSummary> {
        SourcingSummary::with_certainty(doc, Certainty::of(doc).as_ref())
    }

    /// [`SourcingSummary::of`] with the document's [`Certainty`] already
    /// worked out, for a writer that also shows it statement by statement.
    pub fn with_certainty(doc: &Doc, certainty: Option<&Certainty>) -> Option<SourcingSummary> {
        if !doc.has(Layer::Attributions) {
            return None;
        }
        let attributions = doc.attributions().len();
        let mut sourced = vec![false; attributions];
        let mut sources_by_kind = Counts::zero(SourceKind::ALL);
        let mut attributions_by_source_kind = Counts::zero(SourceKind::ALL);
        for source in doc.sources() {
            sources_by_kind.add(source.kind);
            for attribution in &source.attributions {
                if let Some(seen) = sourced.get_mut(attribution.index())
                    && !*seen
                {
                    *seen = true;
                    attributions_by_source_kind.add(source.kind);
                }
            }
        }
        let mut stances = Counts::zero(StanceLabel::ALL);
        for stance in doc.stances() {
            stances.add(stance.label);
        }
        let direct_quotes = doc
            .attributions()
            .iter()
            .filter(|a| a.kind == AttributionKind::Direct)
            .count();
        Some(SourcingSummary {
            attributions,
            sources: doc.sources().len(),
            unnamed_share: share(
                attributions_by_source_kind.get(SourceKind::Unnamed),
                attributions,
            ),
            sources_by_kind,
            attributions_by_source_kind,
            without_source: sourced.iter().filter(|seen| !**seen).count(),
            direct_quotes,
            direct_quote_share: share(direct_quotes, attributions),
            stances,
            hedges: doc.hedges().len(),
            quotations: doc.has(Layer::Quotations).then(|| {
                let mut counts = Counts::zero(QuoteStatus::ALL);
                for quotation in doc.quotations() {
                    counts.add(quotation.status);
                }
                counts
            }),
            certainty: certainty.map(CertaintySummary::of),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Article, Attribution, AttributionId, Quotation, Source, SourceId, Span, Stance};

    fn attribution(text: &str, cue: &str, kind: AttributionKind) -> Attribution {
        let start = text.find(cue).expect("the cue is in the text");
        Attribution {
            source: Vec::new(),
            cue: vec![Span::must(start, start + cue.len())],
            content: Vec::new(),
            kind,
            confidence: 1.0,
        }
    }

    #[test]
    fn counts_types_shares_and_stances() {
        let text = "Lee said no. Officials denied it. It reportedly ended.";
        let mut doc = Doc::new(Article::new("t", text));
        doc.set_attributions(vec![
            attribution(text, "said", AttributionKind::Direct),
            attribution(text, "denied", AttributionKind::Indirect),
            attribution(text, "reportedly", AttributionKind::Indirect),
        ])
        .expect("the spans fit");
        let source = |name: &str, kind, attributions: Vec<usize>| Source {
            name: name.to_string(),
            kind,
            mentions: Vec::new(),
            descriptors: Vec::new(),
            gender: None,
            attributions: attributions.into_iter().map(AttributionId::must).collect(),
            merges: Vec::new(),
        };
        doc.set_sources(vec![
            source("Lee", SourceKind::Person, vec![0]),
            source("Officials", SourceKind::Unnamed, vec![1]),
        ])
        .expect("the sources fit");
        doc.set_stances(vec![
            Stance {
                attribution: AttributionId::must(0),
                label: StanceLabel::Asserts,
                evidence: Vec::new(),
            },
            Stance {
                attribution: AttributionId::must(1),
                label: StanceLabel::Denies,
                evidence: Vec::new(),
            },
        ])
        .expect("the stances fit");

        let summary = SourcingSummary::of(&doc).expect("attributions were looked for");
        assert_eq!((summary.attributions, summary.sources), (3, 2));
        assert_eq!(summary.without_source, 1);
        assert_eq!(summary.unnamed_share, 0.3333);
        assert_eq!(summary.direct_quotes, 1);
        assert_eq!(summary.sources_by_kind.get(SourceKind::Person), 1);
        assert_eq!(summary.sources_by_kind.get(SourceKind::Document), 0);
        assert_eq!(summary.stances.get(StanceLabel::Denies), 1);
        assert_eq!(summary.quotations, None, "quotations were not looked for");
        assert_eq!(summary.certainty, None, "sentences were not looked for");

        doc.set_quotations(vec![
            Quotation {
                span: Span::must(9, 11),
                status: QuoteStatus::Attributed,
                attribution: Some(AttributionId::must(0)),
                source: Some(SourceId::must(0)),
            },
            Quotation {
                span: Span::must(0, 3),
                status: QuoteStatus::Floating,
                attribution: None,
                source: Some(SourceId::must(0)),
            },
        ])
        .expect("the quotations fit");
        let quotations = SourcingSummary::of(&doc)
            .and_then(|s| s.quotations)
            .expect("quotations were looked for");
        assert_eq!(quotations.get(QuoteStatus::Floating), 1);
        assert_eq!(quotations.get(QuoteStatus::Scare), 0);
    }

    #[test]
    fn counts_serialize_as_a_map_listing_every_value() {
        let mut counts = Counts::zero(StanceLabel::ALL);
        counts.add(StanceLabel::Denies);
        let written = serde_json::to_string(&counts).expect("a map of strings to numbers");
        assert!(
            written.starts_with(r#"{"asserts":0,"confirms":0,"denies":1,"#),
            "{written}"
        );
        assert!(written.ends_with(r#""intends":0}"#), "{written}");
    }

    #[test]
    fn certainty_counts_each_kind_of_statement_over_its_own_kind() {
        let certainty = Certainty {
            attributions: vec![true, false, false],
            sentences: vec![None, Some(true), Some(false), None, Some(false)],
        };
        assert_eq!(
            CertaintySummary::of(&certainty),
            CertaintySummary {
                hedged_attributions: 1,
                hedged_attribution_share: 0.3333,
                writers_voice_sentences: 3,
                hedged_sentences: 1,
                hedged_sentence_share: 0.3333,
            }
        );
        let none = CertaintySummary::of(&Certainty {
            attributions: Vec::new(),
            sentences: vec![None],
        });
        assert_eq!(
            (none.hedged_attribution_share, none.writers_voice_sentences),
            (0.0, 0),
            "0 of none is 0"
        );
    }

    #[test]
    fn none_when_attributions_were_not_looked_for() {
        let doc = Doc::new(Article::new("t", "Nothing was analysed."));
        assert_eq!(SourcingSummary::of(&doc), None);
    }
}
