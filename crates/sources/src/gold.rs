//! The hand-written gold set and its evaluation (`attest eval sources`).
//!
//! Each article is `NAME.txt` with its annotation `NAME.gold` beside it; the
//! format is described in `tests/data/gold/README.md`. In short, one record a
//! line, fields separated by tabs, `#` starting a comment line:
//!
//! ```text
//! source  ID  TYPE  CANONICAL NAME
//! attr    SOURCE-ID|-  STANCE  SOURCE-TEXT|-  CUE-TEXT|-  CONTENT-TEXT|-
//! hedge   CUE-TEXT  SCOPE-TEXT
//! quote   QUOTED-TEXT  SOURCE-ID|reason:title|reason:scare|reason:slogan|reason:unattributed
//! ```
//!
//! Text fields are found by string search at word boundaries, so annotations
//! stay readable: fragments of a discontinuous span are separated by ` || `, a
//! fragment ending in `#N` takes the N-th occurrence in the article, a content
//! fragment without one takes the first occurrence (later fragments: the first
//! after the one before), and source and cue fragments take the occurrence
//! nearest the content (or, with no content, the cue).
//!
//! The evaluation is an oracle-attribution one: the gold attributions are put
//! into the document as they are, and only the three stages of this crate run,
//! so their errors are not mixed with the attribution model's.

use std::fmt;
use std::path::{Path, PathBuf};

use attest_doc::{
    Article, Attribution, AttributionKind, Doc, LayerError, SourceKind, Span, Stage, StanceLabel,
    TokenView, from_serde_name,
};
use serde::Serialize;

use crate::{QuotationFinder, SourcingModels};

/// Assigns to a document holding only its article the layers the source
/// stages read before the attributions: tokens, sentences, paragraphs, POS
/// and entities.
pub type Prepare<'a> = &'a dyn Fn(&mut Doc) -> Result<(), LayerError>;

/// Why the gold set could not be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GoldError {
    /// A file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A line of an annotation file is malformed.
    #[error("{path}:{line}: {message}")]
    Malformed {
        /// The annotation file.
        path: PathBuf,
        /// The 1-based line.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The folder holds no annotated article.
    #[error("no annotated article (NAME.txt with NAME.gold) in {0}")]
    Empty(PathBuf),
    /// The stages produced a layer that does not fit the document (a bug).
    #[error("{article}: {source}")]
    Layer {
        /// The article.
        article: String,
        /// The layer error.
        source: attest_doc::LayerError,
    },
}

/// One gold source.
#[derive(Clone, Debug, PartialEq)]
pub struct GoldSource {
    /// The id the attributions refer to it by.
    pub id: String,
    /// Its type.
    pub kind: SourceKind,
    /// Its canonical name.
    pub name: String,
}

/// One gold attribution, with its spans found in the text.
#[derive(Clone, Debug, PartialEq)]
pub struct GoldRecord {
    /// The attribution, as placed into the document.
    pub attribution: Attribution,
    /// The id of its source, or `None` when the article gives none.
    pub source: Option<String>,
    /// Its stance.
    pub stance: StanceLabel,
    /// The 1-based line of the annotation.
    pub line: usize,
}

/// One gold hedge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GoldHedge {
    /// The hedge cue.
    pub cue: Span,
    /// Its scope.
    pub scope: Span,
}

/// Whose words a quoted passage is, by the gold annotation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoldSpeaker {
    /// The declared source with this id said it (in an attribution or as a floating quote).
    Source(String),
    /// Nobody's words, or no speaker can be told: `title`, `scare`, `slogan` or `unattributed`.
    Reason(String),
}

/// One quoted passage and whose words it is.
#[derive(Clone, Debug, PartialEq)]
pub struct GoldQuote {
    /// The text between the quotation marks.
    pub span: Span,
    /// Its speaker, or why it has none.
    pub speaker: GoldSpeaker,
}

/// The reasons a `quote` record may give instead of a speaker.
const QUOTE_REASONS: [&str; 4] = ["title", "scare", "slogan", "unattributed"];

/// One annotated article.
#[derive(Clone, Debug)]
pub struct GoldArticle {
    /// The file stem.
    pub name: String,
    /// The article text.
    pub text: String,
    /// Its sources.
    pub sources: Vec<GoldSource>,
    /// Its attributions, in file order.
    pub attributions: Vec<GoldRecord>,
    /// Its unattributed hedges.
    pub hedges: Vec<GoldHedge>,
    /// Its quoted passages, where the annotation lists them (`quote` records).
    pub quotes: Vec<GoldQuote>,
}

/// Reads every annotated article of `dir`, in name order.
pub fn read_gold(dir: &Path) -> Result<Vec<GoldArticle>, GoldError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| GoldError::Io { path, source }
    };
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map_err(io(dir))?
        .filter_map(|entry| entry.ok())
        .filter_map(|entry| {
            let path = entry.path();
            (path.extension()? == "gold")
                .then(|| path.file_stem()?.to_str().map(str::to_string))
                .flatten()
        })
        .collect();
    names.sort();
    let mut articles = Vec::with_capacity(names.len());
    for name in names {
        let text_path = dir.join(format!("{name}.txt"));
        let gold_path = dir.join(format!("{name}.gold"));
        let text = std::fs::read_to_string(&text_path).map_err(io(&text_path))?;
        let gold = std::fs::read_to_string(&gold_path).map_err(io(&gold_path))?;
        articles.push(parse_gold(&name, text, &gold, &gold_path)?);
    }
    if articles.is_empty() {
        return Err(GoldError::Empty(dir.to_path_buf()));
    }
    Ok(articles)
}

/// Parses one annotation file against its article text.
pub fn parse_gold(
    name: &str,
    text: String,
    gold: &str,
    path: &Path,
) -> Result<GoldArticle, GoldError> {
    let mut article = GoldArticle {
        name: name.to_string(),
        text,
        sources: Vec::new(),
        attributions: Vec::new(),
        hedges: Vec::new(),
        quotes: Vec::new(),
    };
    for (number, line) in gold.lines().enumerate() {
        let line_no = number + 1;
        let malformed = |message: String| GoldError::Malformed {
            path: path.to_path_buf(),
            line: line_no,
            message,
        };
        let trimmed = line.trim_end();
        if trimmed.trim().is_empty() || trimmed.trim_start().starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = trimmed.split('\t').collect();
        match fields.as_slice() {
            ["source", id, kind, name] => {
                let kind = from_serde_name::<SourceKind>(kind)
                    .ok_or_else(|| malformed(format!("unknown source type {kind:?}")))?;
                article.sources.push(GoldSource {
                    id: id.to_string(),
                    kind,
                    name: name.to_string(),
                });
            }
            ["attr", source, stance, source_text, cue_text, content_text] => {
                let stance = from_serde_name::<StanceLabel>(stance)
                    .ok_or_else(|| malformed(format!("unknown stance {stance:?}")))?;
                let source = (*source != "-").then(|| source.to_string());
                if let Some(id) = &source
                    && !article.sources.iter().any(|s| &s.id == id)
                {
                    return Err(malformed(format!("source {id:?} is not declared above")));
                }
                let text = article.text.as_str();
                let content = locate_sequence(text, content_text).map_err(&malformed)?;
                let cue_anchor = content.first().copied();
                let cue = locate_near(text, cue_text, cue_anchor, false).map_err(&malformed)?;
                let anchor = content.first().or(cue.first()).copied();
                let source_spans =
                    locate_near(text, source_text, anchor, false).map_err(&malformed)?;
                if source.is_some() && source_spans.is_empty() && *source_text != "-" {
                    return Err(malformed("source text not found".into()));
                }
                let kind = if cue_text.to_lowercase().starts_with("according to") {
                    AttributionKind::AccordingTo
                } else if content
                    .first()
                    .and_then(|s| s.get(text))
                    .is_some_and(|c| c.starts_with(['“', '"']))
                {
                    AttributionKind::Direct
                } else {
                    AttributionKind::Indirect
                };
                article.attributions.push(GoldRecord {
                    attribution: Attribution {
                        source: source_spans,
                        cue,
                        content,
                        kind,
                        confidence: 1.0,
                    },
                    source,
                    stance,
                    line: line_no,
                });
            }
            ["hedge", cue, scope] => {
                let text = article.text.as_str();
                let cue = *locate_sequence(text, cue)
                    .map_err(&malformed)?
                    .first()
                    .ok_or_else(|| malformed("empty hedge cue".into()))?;
                let scope = *locate_near(text, scope, Some(cue), true)
                    .map_err(&malformed)?
                    .first()
                    .ok_or_else(|| malformed("empty hedge scope".into()))?;
                article.hedges.push(GoldHedge { cue, scope });
            }
            ["quote", quoted, speaker] => {
                let span = *locate_sequence(&article.text, quoted)
                    .map_err(&malformed)?
                    .first()
                    .ok_or_else(|| malformed("empty quotation".into()))?;
                let speaker = match speaker.strip_prefix("reason:") {
                    Some(reason) if QUOTE_REASONS.contains(&reason) => {
                        GoldSpeaker::Reason(reason.to_string())
                    }
                    Some(reason) => {
                        return Err(malformed(format!(
                            "unknown quotation reason {reason:?}; one of {QUOTE_REASONS:?}"
                        )));
                    }
                    None if article.sources.iter().any(|s| s.id == *speaker) => {
                        GoldSpeaker::Source(speaker.to_string())
                    }
                    None => {
                        return Err(malformed(format!(
                            "source {speaker:?} is not declared above"
                        )));
                    }
                };
                article.quotes.push(GoldQuote { span, speaker });
            }
            _ => {
                return Err(malformed(format!(
                    "expected `source`, `attr`, `hedge` or `quote` with 3, 5, 2 or 2 tab-separated fields after the record name, got {:?}",
                    fields
                )));
            }
        }
    }
    Ok(article)
}

/// A fragment and the occurrence it asks for.
fn split_occurrence(fragment: &str) -> (&str, Option<usize>) {
    if let Some((body, n)) = fragment.rsplit_once('#')
        && let Ok(n) = n.parse::<usize>()
        && n > 0
    {
        return (body, Some(n));
    }
    (fragment, None)
}

/// Every occurrence of `needle` in `text` at word boundaries.
fn occurrences(text: &str, needle: &str) -> Vec<Span> {
    let word = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
    let starts_word = word(needle.chars().next());
    let ends_word = word(needle.chars().next_back());
    text.match_indices(needle)
        .filter(|(at, _)| {
            let end = at + needle.len();
            let before = text.get(..*at).and_then(|t| t.chars().next_back());
            let after = text.get(end..).and_then(|t| t.chars().next());
            !(starts_word && word(before) || ends_word && word(after))
        })
        .map(|(at, _)| Span::must(at, at + needle.len()))
        .collect()
}

fn fragments(field: &str) -> impl Iterator<Item = &str> {
    (field != "-")
        .then(|| field.split(" || "))
        .into_iter()
        .flatten()
}

/// Content fragments: the first occurrence (or the `#N`-th), each later one
/// after the one before.
fn locate_sequence(text: &str, field: &str) -> Result<Vec<Span>, String> {
    let mut spans: Vec<Span> = Vec::new();
    for fragment in fragments(field) {
        let (body, n) = split_occurrence(fragment);
        let found = occurrences(text, body);
        let after = spans.last().map_or(0, |s| s.byte_end());
        let span = match n {
            Some(n) => found.get(n - 1).copied(),
            None => found.into_iter().find(|s| s.byte_start() >= after),
        };
        spans.push(span.ok_or_else(|| format!("{fragment:?} is not in the text"))?);
    }
    Ok(spans)
}

/// Source and cue fragments: the occurrence nearest `anchor` that does not
/// overlap it (or the `#N`-th); a hedge scope (`around`) may hold its anchor.
fn locate_near(
    text: &str,
    field: &str,
    anchor: Option<Span>,
    around: bool,
) -> Result<Vec<Span>, String> {
    let mut spans = Vec::new();
    for fragment in fragments(field) {
        let (body, n) = split_occurrence(fragment);
        let found = occurrences(text, body);
        let span = match (n, anchor) {
            (Some(n), _) => found.get(n - 1).copied(),
            (None, Some(anchor)) => found
                .into_iter()
                .filter(|s| around || !s.overlaps(anchor))
                .min_by_key(|s| {
                    if s.byte_end() <= anchor.byte_start() {
                        anchor.byte_start() - s.byte_end()
                    } else if s.byte_start() >= anchor.byte_end() {
                        s.byte_start() - anchor.byte_end()
                    } else {
                        0
                    }
                }),
            (None, None) => found.first().copied(),
        };
        spans.push(span.ok_or_else(|| format!("{fragment:?} is not in the text"))?);
    }
    Ok(spans)
}

/// Correct out of total, with the rate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Accuracy {
    /// Items right.
    pub correct: usize,
    /// Items scored.
    pub total: usize,
    /// `correct / total` (1 when there is nothing to score).
    pub accuracy: f64,
}

impl Accuracy {
    fn add(&mut self, right: bool) {
        self.total += 1;
        self.correct += usize::from(right);
        self.accuracy = self.correct as f64 / self.total as f64;
    }

    fn absorb(&mut self, other: Accuracy) {
        self.total += other.total;
        self.correct += other.correct;
        self.accuracy = if self.total == 0 {
            1.0
        } else {
            self.correct as f64 / self.total as f64
        };
    }

    fn empty() -> Accuracy {
        Accuracy {
            correct: 0,
            total: 0,
            accuracy: 1.0,
        }
    }
}

/// Hedge precision, recall and F1.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct HedgeScore {
    /// Found hedges that match a gold one.
    pub true_pos: usize,
    /// Found hedges that match none.
    pub false_pos: usize,
    /// Gold hedges not found.
    pub false_neg: usize,
    /// Precision.
    pub precision: f64,
    /// Recall.
    pub recall: f64,
    /// F1.
    pub f1: f64,
}

impl HedgeScore {
    fn finish(&mut self) {
        let ratio = |a: usize, b: usize| if b == 0 { 1.0 } else { a as f64 / b as f64 };
        self.precision = ratio(self.true_pos, self.true_pos + self.false_pos);
        self.recall = ratio(self.true_pos, self.true_pos + self.false_neg);
        self.f1 = if self.precision + self.recall == 0.0 {
            0.0
        } else {
            2.0 * self.precision * self.recall / (self.precision + self.recall)
        };
    }
}

/// One disagreement with the gold set, for reading the errors.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Mistake {
    /// The article.
    pub article: String,
    /// The annotation line.
    pub line: usize,
    /// What was scored: "source", "type", "stance", "name", "hedge", "quote".
    pub what: &'static str,
    /// The gold value.
    pub expected: String,
    /// What the stages gave.
    pub got: String,
}

/// The evaluation of the three stages on the gold set.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SourcesReport {
    /// Articles read.
    pub articles: usize,
    /// Gold attributions.
    pub attributions: usize,
    /// Gold sources.
    pub sources: usize,
    /// Attributions whose source maps to the right gold source (one-to-one
    /// mapping of found to gold sources; a sourceless gold attribution is right
    /// when it is left without a source).
    pub source_resolution: Accuracy,
    /// Attributions with a gold source whose found source has the gold type.
    pub source_type: Accuracy,
    /// Gold sources whose mapped found source has the gold canonical name.
    pub canonical_name: Accuracy,
    /// Attributions with the gold stance.
    pub stance: Accuracy,
    /// Hedges: a found hedge matches a gold one when their cues overlap and
    /// their scopes share at least half their tokens (Jaccard ≥ 0.5).
    pub hedges: HedgeScore,
    /// Gold quoted passages whose found quotation (the one overlapping it
    /// most) has the gold speaker, mapped as for source resolution, or the
    /// gold reason for having none.
    pub quotations: Accuracy,
    /// Every disagreement.
    pub mistakes: Vec<Mistake>,
}

impl SourcesReport {
    /// The scores of several gold sets taken as one: every count summed and
    /// each rate computed again from the sums. The mistakes stay with their
    /// sets.
    pub fn overall(reports: &[SourcesReport]) -> SourcesReport {
        let mut all = SourcesReport::empty();
        for report in reports {
            all.articles += report.articles;
            all.attributions += report.attributions;
            all.sources += report.sources;
            all.source_resolution.absorb(report.source_resolution);
            all.source_type.absorb(report.source_type);
            all.canonical_name.absorb(report.canonical_name);
            all.stance.absorb(report.stance);
            all.quotations.absorb(report.quotations);
            all.hedges.true_pos += report.hedges.true_pos;
            all.hedges.false_pos += report.hedges.false_pos;
            all.hedges.false_neg += report.hedges.false_neg;
        }
        all.hedges.finish();
        all
    }

    /// A report of nothing scored yet.
    fn empty() -> SourcesReport {
        SourcesReport {
            articles: 0,
            attributions: 0,
            sources: 0,
            source_resolution: Accuracy::empty(),
            source_type: Accuracy::empty(),
            canonical_name: Accuracy::empty(),
            stance: Accuracy::empty(),
            hedges: HedgeScore::default(),
            quotations: Accuracy::empty(),
            mistakes: Vec::new(),
        }
    }
}

impl fmt::Display for SourcesReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "sources gold set: {} articles, {} attributions, {} sources (oracle attributions)",
            self.articles, self.attributions, self.sources
        )?;
        let rows = [
            ("source resolution", self.source_resolution),
            ("source type", self.source_type),
            ("canonical name", self.canonical_name),
            ("stance", self.stance),
            ("quotations", self.quotations),
        ];
        writeln!(
            f,
            "{:<20} {:>8} {:>8} {:>9}",
            "measure", "correct", "total", "accuracy"
        )?;
        for (label, a) in rows {
            writeln!(
                f,
                "{label:<20} {:>8} {:>8} {:>9.3}",
                a.correct, a.total, a.accuracy
            )?;
        }
        let h = &self.hedges;
        writeln!(
            f,
            "hedges               tp {} fp {} fn {}  P {:.3}  R {:.3}  F1 {:.3}",
            h.true_pos, h.false_pos, h.false_neg, h.precision, h.recall, h.f1
        )?;
        if !self.mistakes.is_empty() {
            writeln!(f, "mistakes ({}):", self.mistakes.len())?;
            for m in &self.mistakes {
                writeln!(
                    f,
                    "  {}:{} {}: expected {}, got {}",
                    m.article, m.line, m.what, m.expected, m.got
                )?;
            }
        }
        Ok(())
    }
}

/// Runs the stages over one gold article: `prepare` assigns the layers they
/// read before the attributions (tokens, sentences, paragraphs, POS and
/// entities; the caller's stages, so that this stage crate depends on none of
/// them), and the gold attributions are placed into the document.
pub fn analyse_gold(
    article: &GoldArticle,
    prepare: Prepare<'_>,
    models: &SourcingModels,
) -> Result<Doc, GoldError> {
    let layer = |source| GoldError::Layer {
        article: article.name.clone(),
        source,
    };
    let mut doc = Doc::new(Article::new(article.name.clone(), article.text.clone()));
    prepare(&mut doc).map_err(layer)?;
    doc.set_attributions(
        article
            .attributions
            .iter()
            .map(|r| r.attribution.clone())
            .collect(),
    )
    .map_err(layer)?;
    models.stances.run(&mut doc).map_err(layer)?;
    models.sources.run(&mut doc).map_err(layer)?;
    models.hedges.run(&mut doc).map_err(layer)?;
    QuotationFinder.run(&mut doc).map_err(layer)?;
    Ok(doc)
}

/// Evaluates the stages on the gold set in `dir`.
pub fn eval_gold(
    dir: &Path,
    prepare: Prepare<'_>,
    models: &SourcingModels,
) -> Result<SourcesReport, GoldError> {
    evaluate(&read_gold(dir)?, prepare, models)
}

/// Evaluates the stages on annotated articles.
pub fn evaluate(
    articles: &[GoldArticle],
    prepare: Prepare<'_>,
    models: &SourcingModels,
) -> Result<SourcesReport, GoldError> {
    let mut report = SourcesReport {
        articles: articles.len(),
        ..SourcesReport::empty()
    };
    for article in articles {
        let doc = analyse_gold(article, prepare, models)?;
        score_article(article, &doc, &mut report);
    }
    report.hedges.finish();
    Ok(report)
}

fn kind_name(kind: SourceKind) -> String {
    attest_doc::serde_name(&kind)
}

fn stance_name(label: StanceLabel) -> String {
    attest_doc::serde_name(&label)
}

fn score_article(article: &GoldArticle, doc: &Doc, report: &mut SourcesReport) {
    report.attributions += article.attributions.len();
    report.sources += article.sources.len();
    let mut found_of: Vec<Option<usize>> = vec![None; article.attributions.len()];
    for (index, source) in doc.sources().iter().enumerate() {
        for id in &source.attributions {
            if let Some(slot) = found_of.get_mut(id.index()) {
                *slot = Some(index);
            }
        }
    }
    // One-to-one mapping, greedily by how many attributions a pair shares.
    let mut pairs: std::collections::BTreeMap<(usize, &str), usize> = Default::default();
    for (record, found) in article.attributions.iter().zip(&found_of) {
        if let (Some(found), Some(gold)) = (found, &record.source) {
            *pairs.entry((*found, gold.as_str())).or_default() += 1;
        }
    }
    let mut ranked: Vec<((usize, &str), usize)> = pairs.into_iter().collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut gold_of_found: std::collections::BTreeMap<usize, &str> = Default::default();
    let mut found_of_gold: std::collections::BTreeMap<&str, usize> = Default::default();
    for ((found, gold), _) in ranked {
        if !gold_of_found.contains_key(&found) && !found_of_gold.contains_key(gold) {
            gold_of_found.insert(found, gold);
            found_of_gold.insert(gold, found);
        }
    }
    let describe = |found: Option<usize>| -> String {
        found
            .and_then(|i| doc.sources().get(i))
            .map_or("no source".into(), |s| {
                format!("{:?} ({})", s.name, kind_name(s.kind))
            })
    };
    let mut mistake = |line: usize, what: &'static str, expected: String, got: String| {
        report.mistakes.push(Mistake {
            article: article.name.clone(),
            line,
            what,
            expected,
            got,
        });
    };
    for ((index, record), found) in article.attributions.iter().enumerate().zip(&found_of) {
        let gold_source = record
            .source
            .as_ref()
            .and_then(|id| article.sources.iter().find(|s| &s.id == id));
        let right = match (&record.source, found) {
            (None, None) => true,
            (Some(gold), Some(found)) => gold_of_found.get(found) == Some(&gold.as_str()),
            _ => false,
        };
        report.source_resolution.add(right);
        if !right {
            mistake(
                record.line,
                "source",
                record.source.clone().unwrap_or("no source".into()),
                describe(*found),
            );
        }
        if let Some(gold) = gold_source {
            let got = found.and_then(|i| doc.sources().get(i)).map(|s| s.kind);
            let right = got == Some(gold.kind);
            report.source_type.add(right);
            if !right {
                mistake(record.line, "type", kind_name(gold.kind), describe(*found));
            }
        }
        let got = doc
            .stances()
            .iter()
            .find(|s| s.attribution.index() == index)
            .map(|s| s.label);
        let right = got == Some(record.stance);
        report.stance.add(right);
        if !right {
            mistake(
                record.line,
                "stance",
                stance_name(record.stance),
                got.map_or("none".into(), stance_name),
            );
        }
    }
    for quote in &article.quotes {
        let found = doc
            .quotations()
            .iter()
            .filter(|q| q.span.overlaps(quote.span))
            .max_by_key(|q| {
                let overlap = q.span.byte_end().min(quote.span.byte_end())
                    - q.span.byte_start().max(quote.span.byte_start());
                (overlap, std::cmp::Reverse(q.span.byte_start()))
            });
        let right = match (&quote.speaker, found) {
            (GoldSpeaker::Source(id), Some(q)) => q
                .source
                .is_some_and(|s| gold_of_found.get(&s.index()) == Some(&id.as_str())),
            (GoldSpeaker::Reason(reason), Some(q)) => {
                q.source.is_none() && attest_doc::serde_name(&q.status) == *reason
            }
            (_, None) => false,
        };
        report.quotations.add(right);
        if !right {
            let expected = match &quote.speaker {
                GoldSpeaker::Source(id) => id.clone(),
                GoldSpeaker::Reason(reason) => format!("reason:{reason}"),
            };
            let got = found.map_or("no quotation".into(), |q| {
                let status = attest_doc::serde_name(&q.status);
                match q.source {
                    Some(s) => format!("{status} {}", describe(Some(s.index()))),
                    None => status,
                }
            });
            mistake(
                0,
                "quote",
                format!("{expected} for {:?}", quote.span.get(doc.text())),
                got,
            );
        }
    }
    for gold in &article.sources {
        let got = found_of_gold
            .get(gold.id.as_str())
            .and_then(|&i| doc.sources().get(i));
        let right = got.is_some_and(|s| s.name == gold.name);
        report.canonical_name.add(right);
        if !right {
            mistake(
                0,
                "name",
                gold.name.clone(),
                describe(found_of_gold.get(gold.id.as_str()).copied()),
            );
        }
    }
    let text = doc.text();
    let mut matched = vec![false; article.hedges.len()];
    for found in doc.hedges() {
        let hit = article.hedges.iter().enumerate().find(|(i, gold)| {
            !matched[*i]
                && gold.cue.overlaps(found.cue)
                && jaccard(doc, gold.scope, found.scope) >= 0.5
        });
        match hit {
            Some((i, _)) => {
                matched[i] = true;
                report.hedges.true_pos += 1;
            }
            None => {
                report.hedges.false_pos += 1;
                mistake(
                    0,
                    "hedge",
                    "no hedge".into(),
                    format!("{:?} over {:?}", found.cue.get(text), found.scope.get(text)),
                );
            }
        }
    }
    for (gold, hit) in article.hedges.iter().zip(&matched) {
        if !hit {
            report.hedges.false_neg += 1;
            mistake(
                0,
                "hedge",
                format!("{:?} over {:?}", gold.cue.get(text), gold.scope.get(text)),
                "not found".into(),
            );
        }
    }
}

/// Token Jaccard overlap of two spans.
fn jaccard(doc: &Doc, a: Span, b: Span) -> f64 {
    let view = TokenView::new(doc);
    let ta = view.tokens_in(a);
    let tb = view.tokens_in(b);
    let inter = ta.end.min(tb.end).saturating_sub(ta.start.max(tb.start));
    let union = ta.len() + tb.len() - inter;
    if union == 0 {
        0.0
    } else {
        inter as f64 / union as f64
    }
}
