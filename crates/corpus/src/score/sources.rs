//! Sources, stances and hedges against attest's labels of a split
//! ([`crate::SplitLabels`]).
//!
//! [`SourceLabelScorer`] scores each labelled gold attribution that attest's
//! document holds a counterpart of: with the gold attributions given, every
//! one is its own counterpart; end to end, counterparts are matched by content
//! under the attribution protocol ([`super::match_attributions`]). Over those
//! pairs it counts:
//!
//! - **source type**: the guideline's type of the found source
//!   ([`LabelledType::of_kind`]), `none (implicit)` when there is none;
//! - **canonical source**: whether the found source is the labelled one. Found
//!   sources are mapped to labelled canonical sources one to one, greedily by
//!   how many attributions they share, per article; an attribution is right
//!   when its found source maps to its label, or when neither has a source.
//!   This is what an editor checks: which attributions are credited to the same
//!   party, and whether they are the right ones;
//! - **name**: of those right, the named ones whose found source's name is the
//!   label's, compared without case, punctuation, a leading "the" or titles;
//! - **stance** and **direct quote** (the found kind: direct, mixed, or neither).
//!
//! [`HedgeLabelScorer`] compares the hedges attest found with the labelled
//! ones: a found cue is right when it overlaps a labelled cue, one to one.
//! Over matched pairs it adds the scopes' token overlap for a scope token F1.

use std::collections::BTreeMap;
use std::fmt;

use attest_doc::{AttributionKind, Doc, OffsetIndex, Span, StanceLabel};
use serde::Serialize;

use crate::{ArticleLabels, CorpusArticle, DirectQuote, LabelledType};

/// Right out of scored.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize)]
pub struct Tally {
    /// Items right.
    pub right: usize,
    /// Items scored.
    pub scored: usize,
}

impl Tally {
    fn add(&mut self, right: bool) {
        self.scored += 1;
        self.right += usize::from(right);
    }

    /// `right / scored`; 1 when nothing was scored.
    pub fn rate(&self) -> f64 {
        if self.scored == 0 {
            1.0
        } else {
            self.right as f64 / self.scored as f64
        }
    }
}

/// Counts of (labelled, found) pairs; "-" stands for no stance found.
pub type Confusion = BTreeMap<(String, String), usize>;

/// The scores of the sources, stance and quote labels of a split.
#[derive(Clone, PartialEq, Debug, Default, Serialize)]
pub struct SourceLabelReport {
    /// Articles scored.
    pub articles: usize,
    /// Labelled attributions.
    pub labelled: usize,
    /// Of those, the ones attest's document holds a counterpart of.
    pub matched: usize,
    /// Source types right.
    pub source_type: Tally,
    /// Canonical sources right.
    pub canonical_source: Tally,
    /// Of the named canonical sources right, those with the labelled name.
    pub name: Tally,
    /// Stances right.
    pub stance: Tally,
    /// Direct quote right.
    pub direct_quote: Tally,
    /// Labelled stance against found stance.
    #[serde(serialize_with = "confusion_rows")]
    pub stance_confusion: Confusion,
    /// Labelled type against found type.
    #[serde(serialize_with = "confusion_rows")]
    pub type_confusion: Confusion,
    /// Each wrong column of each scored attribution, as
    /// `ARTICLE:E_ID column: labelled …, found …`, in article order.
    pub mistakes: Vec<String>,
}

fn confusion_rows<S: serde::Serializer>(
    confusion: &Confusion,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeSeq;
    let mut seq = serializer.serialize_seq(Some(confusion.len()))?;
    #[derive(Serialize)]
    struct Row<'a> {
        labelled: &'a str,
        found: &'a str,
        count: usize,
    }
    for ((labelled, found), &count) in confusion {
        seq.serialize_element(&Row {
            labelled,
            found,
            count,
        })?;
    }
    seq.end()
}

impl SourceLabelReport {
    /// The headline figures, under the names `eval/floors.json` records.
    pub fn headline(&self) -> [(&'static str, f64); 5] {
        [
            ("matched", ratio(self.matched, self.labelled)),
            ("source_type", self.source_type.rate()),
            ("canonical_source", self.canonical_source.rate()),
            ("stance", self.stance.rate()),
            ("direct_quote", self.direct_quote.rate()),
        ]
    }
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 { 1.0 } else { a as f64 / b as f64 }
}

/// Sums the scores of a split's articles.
#[derive(Debug, Default)]
pub struct SourceLabelScorer {
    report: SourceLabelReport,
}

impl SourceLabelScorer {
    /// A scorer with nothing added.
    pub fn new() -> SourceLabelScorer {
        SourceLabelScorer::default()
    }

    /// Scores one article. `doc` holds attest's attributions, stances and
    /// sources; `counterpart[i]` is the index in `doc.attributions()` of the
    /// gold attribution `article.gold[i]`, or `None` when attest has none.
    pub fn add(
        &mut self,
        article: &CorpusArticle,
        labels: &ArticleLabels,
        doc: &Doc,
        counterpart: &[Option<usize>],
    ) {
        let report = &mut self.report;
        report.articles += 1;
        let mut source_of = vec![None; doc.attributions().len()];
        for (index, source) in doc.sources().iter().enumerate() {
            for id in &source.attributions {
                if let Some(slot) = source_of.get_mut(id.index()) {
                    *slot = Some(index);
                }
            }
        }
        let mut stance_of = vec![None; doc.attributions().len()];
        for stance in doc.stances() {
            if let Some(slot) = stance_of.get_mut(stance.attribution.index()) {
                *slot = Some(stance.label);
            }
        }
        // (label, found attribution) for every labelled attribution attest found.
        let mut pairs = Vec::new();
        for (gold, found) in article.gold.iter().zip(counterpart) {
            let Some(label) = labels.source(&gold.id) else {
                continue;
            };
            report.labelled += 1;
            if let Some(found) = *found {
                pairs.push((label, found));
            }
        }
        report.matched += pairs.len();
        let mapping = map_sources(&pairs, &source_of);
        let mut mistakes = Vec::new();
        for &(label, found) in &pairs {
            let source = source_of[found].and_then(|i| doc.sources().get(i));
            let found_type =
                source.map_or(LabelledType::Implicit, |s| LabelledType::of_kind(s.kind));
            let attribution = &doc.attributions()[found];
            let words = |spans: &[Span]| {
                spans
                    .iter()
                    .map(|span| span.slice(doc.text()))
                    .collect::<Vec<_>>()
                    .join(" … ")
            };
            let found_source = || match source {
                Some(source) => format!(
                    "{:?} ({}) as {:?}",
                    words(&attribution.source),
                    found_type.name(),
                    source.name
                ),
                None => "no source".to_owned(),
            };
            let mut mistake = |column: &str, labelled: &str, found: String| {
                mistakes.push(format!(
                    "{}:{} {column}: labelled {labelled}, found {found}",
                    article.name, label.attribution
                ));
            };
            if found_type != label.source_type {
                mistake("type", label.source_type.name(), found_source());
            }
            report.source_type.add(found_type == label.source_type);
            *report
                .type_confusion
                .entry((
                    label.source_type.name().to_owned(),
                    found_type.name().to_owned(),
                ))
                .or_default() += 1;
            let right = match (&label.canonical, source_of[found]) {
                (None, None) => true,
                (Some(canonical), Some(index)) => mapping.get(&index) == Some(&canonical.as_str()),
                _ => false,
            };
            if !right {
                let credited = source_of[found]
                    .and_then(|index| mapping.get(&index))
                    .map_or(String::new(), |other| format!(", credited to {other}"));
                mistake(
                    "source",
                    label.canonical.as_deref().unwrap_or("-"),
                    format!(
                        "{}{credited} (cue {:?})",
                        found_source(),
                        words(&attribution.cue)
                    ),
                );
            }
            report.canonical_source.add(right);
            if right
                && let (Some(canonical), Some(source)) = (&label.canonical, source)
                && label.source_type != LabelledType::UnnamedOrAnonymous
            {
                report.name.add(same_name(canonical, &source.name));
            }
            let stance = stance_of[found];
            if stance != Some(label.stance) {
                mistake(
                    "stance",
                    label.stance.name(),
                    format!(
                        "{} (cue {:?})",
                        stance.map_or("-", StanceLabel::name),
                        words(&attribution.cue)
                    ),
                );
            }
            report.stance.add(stance == Some(label.stance));
            *report
                .stance_confusion
                .entry((
                    label.stance.name().to_owned(),
                    stance.map_or("-", StanceLabel::name).to_owned(),
                ))
                .or_default() += 1;
            let quote = match doc.attributions()[found].kind {
                AttributionKind::Direct => DirectQuote::Yes,
                AttributionKind::Mixed => DirectQuote::Mixed,
                AttributionKind::Indirect | AttributionKind::AccordingTo => DirectQuote::No,
            };
            report.direct_quote.add(quote == label.direct_quote);
        }
        report.mistakes.extend(mistakes);
    }

    /// The scores so far.
    pub fn report(&self) -> SourceLabelReport {
        self.report.clone()
    }
}

/// Found source index → labelled canonical source, one to one, greedily by
/// shared attributions (ties by found index, then name).
fn map_sources<'a>(
    pairs: &[(&'a crate::SourceLabel, usize)],
    source_of: &[Option<usize>],
) -> BTreeMap<usize, &'a str> {
    let mut shared: BTreeMap<(usize, &str), usize> = BTreeMap::new();
    for &(label, found) in pairs {
        if let (Some(canonical), Some(source)) = (&label.canonical, source_of[found]) {
            *shared.entry((source, canonical.as_str())).or_default() += 1;
        }
    }
    let mut ranked: Vec<_> = shared.into_iter().collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut mapping = BTreeMap::new();
    let mut taken = std::collections::BTreeSet::new();
    for ((source, canonical), _) in ranked {
        if !mapping.contains_key(&source) && taken.insert(canonical) {
            mapping.insert(source, canonical);
        }
    }
    mapping
}

/// Whether two names are the same once case, punctuation, a possessive, a
/// leading "the" and titles are set aside.
fn same_name(a: &str, b: &str) -> bool {
    fn words(name: &str) -> Vec<String> {
        const TITLES: &[&str] = &[
            "mr",
            "mrs",
            "ms",
            "dr",
            "sen",
            "rep",
            "gov",
            "the",
            "president",
            "senator",
        ];
        name.split(|c: char| !c.is_alphanumeric() && c != '\'' && c != '’')
            .map(|w| {
                w.trim_end_matches("'s")
                    .trim_end_matches("’s")
                    .to_lowercase()
            })
            .filter(|w| !w.is_empty() && !TITLES.contains(&w.as_str()))
            .collect()
    }
    words(a) == words(b)
}

impl fmt::Display for SourceLabelReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} articles, {} labelled attributions, {} with a counterpart ({:.3})",
            self.articles,
            self.labelled,
            self.matched,
            ratio(self.matched, self.labelled)
        )?;
        writeln!(
            f,
            "{:<18} {:>7} {:>7} {:>7}",
            "column", "right", "scored", "rate"
        )?;
        for (name, tally) in [
            ("source type", self.source_type),
            ("canonical source", self.canonical_source),
            ("  its name", self.name),
            ("stance", self.stance),
            ("direct quote", self.direct_quote),
        ] {
            writeln!(
                f,
                "{name:<18} {:>7} {:>7} {:>7.3}",
                tally.right,
                tally.scored,
                tally.rate()
            )?;
        }
        let stances: Vec<&str> = StanceLabel::ALL
            .iter()
            .map(|s| s.name())
            .chain(["-"])
            .collect();
        writeln!(f, "\nstance confusion (rows labelled, columns found)")?;
        confusion_table(
            f,
            &self.stance_confusion,
            &stances,
            &stances[..stances.len() - 1],
        )?;
        let types: Vec<&str> = LabelledType::ALL.iter().map(|t| t.name()).collect();
        writeln!(f, "\nsource type confusion (rows labelled, columns found)")?;
        confusion_table(f, &self.type_confusion, &types, &types)?;
        if f.alternate() {
            writeln!(f)?;
        }
        write_mistakes(f, &self.mistakes)
    }
}

/// The alternate form of a report (`{:#}`) lists its mistakes after its
/// figures.
fn write_mistakes(f: &mut fmt::Formatter<'_>, mistakes: &[String]) -> fmt::Result {
    if f.alternate() {
        writeln!(f, "mistakes ({}):", mistakes.len())?;
        for mistake in mistakes {
            writeln!(f, "  {mistake}")?;
        }
    }
    Ok(())
}

fn confusion_table(
    f: &mut fmt::Formatter<'_>,
    counts: &Confusion,
    columns: &[&str],
    rows: &[&str],
) -> fmt::Result {
    let short = |name: &str| name.chars().take(8).collect::<String>();
    write!(f, "{:<22}", "")?;
    for column in columns {
        write!(f, " {:>8}", short(column))?;
    }
    writeln!(f)?;
    for row in rows {
        write!(f, "{row:<22}")?;
        for column in columns {
            let count = counts
                .get(&((*row).to_owned(), (*column).to_owned()))
                .copied()
                .unwrap_or(0);
            write!(f, " {count:>8}")?;
        }
        writeln!(f)?;
    }
    Ok(())
}

/// The scores of the writer's hedges of a split.
#[derive(Clone, PartialEq, Debug, Default, Serialize)]
pub struct HedgeLabelReport {
    /// Articles scored.
    pub articles: usize,
    /// Labelled hedges.
    pub labelled: usize,
    /// Hedges attest found.
    pub found: usize,
    /// Found cues that overlap a labelled cue, one to one.
    pub matched: usize,
    /// Scope tokens of matched pairs in both scopes.
    pub scope_common: usize,
    /// Scope tokens of the labelled scopes of matched pairs.
    pub scope_labelled: usize,
    /// Scope tokens of the found scopes of matched pairs.
    pub scope_found: usize,
    /// Each labelled cue not found and each found cue not labelled, as
    /// `ARTICLE missed|extra "cue" in "…context…"`, in article order.
    pub mistakes: Vec<String>,
}

impl HedgeLabelReport {
    /// Cue precision.
    pub fn precision(&self) -> f64 {
        ratio(self.matched, self.found)
    }

    /// Cue recall.
    pub fn recall(&self) -> f64 {
        ratio(self.matched, self.labelled)
    }

    /// Token F1 of the matched pairs' scopes.
    pub fn scope_f1(&self) -> f64 {
        let p = ratio(self.scope_common, self.scope_found);
        let r = ratio(self.scope_common, self.scope_labelled);
        if p + r == 0.0 {
            0.0
        } else {
            2.0 * p * r / (p + r)
        }
    }

    /// The headline figures, under the names `eval/floors.json` records.
    pub fn headline(&self) -> [(&'static str, f64); 3] {
        [
            ("cue_precision", self.precision()),
            ("cue_recall", self.recall()),
            ("scope_token_f1", self.scope_f1()),
        ]
    }
}

impl fmt::Display for HedgeLabelReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} articles, {} labelled hedges, {} found, {} matched by cue overlap",
            self.articles, self.labelled, self.found, self.matched
        )?;
        writeln!(
            f,
            "cue precision {:.3}  recall {:.3}  scope token F1 {:.3}",
            self.precision(),
            self.recall(),
            self.scope_f1()
        )?;
        write_mistakes(f, &self.mistakes)
    }
}

/// Sums the hedge scores of a split's articles.
#[derive(Debug, Default)]
pub struct HedgeLabelScorer {
    report: HedgeLabelReport,
}

impl HedgeLabelScorer {
    /// A scorer with nothing added.
    pub fn new() -> HedgeLabelScorer {
        HedgeLabelScorer::default()
    }

    /// Scores the `found` hedges (cue, scope) of one article against its labels.
    pub fn add(&mut self, article: &CorpusArticle, labels: &ArticleLabels, found: &[(Span, Span)]) {
        let index = OffsetIndex::new(&article.text);
        let labelled: Vec<(Span, Span)> = labels
            .hedges
            .iter()
            .filter_map(|h| h.spans(&article.text, &index))
            .collect();
        let report = &mut self.report;
        report.articles += 1;
        report.labelled += labelled.len();
        report.found += found.len();
        let mut used = vec![false; labelled.len()];
        let mut mistakes = Vec::new();
        let mistake = |what: &str, cue: Span| {
            let text = &article.text;
            let floor = text.floor_char_boundary(cue.byte_start().saturating_sub(40));
            let ceiling = text.ceil_char_boundary((cue.byte_end() + 40).min(text.len()));
            format!(
                "{} {what} {:?} in {:?}",
                article.name,
                cue.slice(text),
                &text[floor..ceiling]
            )
        };
        for (cue, scope) in found {
            let hit = labelled
                .iter()
                .enumerate()
                .find(|(i, (gold_cue, _))| !used[*i] && gold_cue.overlaps(*cue));
            if hit.is_none() {
                mistakes.push((cue.byte_start(), mistake("extra", *cue)));
            }
            if let Some((i, (_, gold_scope))) = hit {
                used[i] = true;
                report.matched += 1;
                let gold_words = words(&article.text, *gold_scope);
                let found_words = words(&article.text, *scope);
                report.scope_common += gold_words
                    .iter()
                    .filter(|w| found_words.contains(w))
                    .count();
                report.scope_labelled += gold_words.len();
                report.scope_found += found_words.len();
            }
        }
        for ((cue, _), used) in labelled.iter().zip(used) {
            if !used {
                mistakes.push((cue.byte_start(), mistake("missed", *cue)));
            }
        }
        mistakes.sort();
        report.mistakes.extend(mistakes.into_iter().map(|(_, m)| m));
    }

    /// The scores so far.
    pub fn report(&self) -> HedgeLabelReport {
        self.report.clone()
    }
}

/// The byte starts of the words of a span: runs of letters and digits.
fn words(text: &str, span: Span) -> Vec<usize> {
    let Some(covered) = span.get(text) else {
        return Vec::new();
    };
    let mut starts = Vec::new();
    let mut in_word = false;
    for (at, c) in covered.char_indices() {
        let word = c.is_alphanumeric();
        if word && !in_word {
            starts.push(span.byte_start() + at);
        }
        in_word = word;
    }
    starts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_compare_without_titles_case_and_punctuation() {
        assert!(same_name("Donald Trump", "Mr. Donald Trump"));
        assert!(same_name("Hillary Clinton", "Hillary Clinton’s"));
        assert!(same_name("Justice Department", "the Justice Department"));
        assert!(
            !same_name("Donald Trump", "Mr. Trump"),
            "a surname is not the full name"
        );
        assert!(
            !same_name("FBI", "F.B.I."),
            "letters split by dots are not an acronym"
        );
    }
}
