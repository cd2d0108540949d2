//! `attest ingest --analysed`: the JSON Lines that `attest analyze --format
//! jsonl` writes (schema `attest.document/1`), read back into `Doc`s so that
//! the ledger stores them without analysing again, as when a Spark job did the
//! analysis.
//!
//! Every span is checked twice: its byte offsets must fit the text on char
//! boundaries (`Doc::set_*`), and the text it carries must be the text they
//! slice, so a line edited by hand or cut short fails instead of storing
//! misplaced spans. Tokens are written only with `--tokens`; without them the
//! text is segmented again by this attest, which is deterministic, and the
//! sentences and paragraphs must come out as the line has them, or the line
//! fails (analyse with `--tokens` to carry the tokens along); their
//! part-of-speech tags, written only with them, are tagged again. A document of
//! another schema version is refused. Confidences come back with the four
//! decimals the JSON keeps; diagnostics are not read, as the ledger keeps none.

use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

use anyhow::{Context, anyhow, bail};
use attest_doc::{
    Article, Attribution, AttributionId, AttributionKind, ClusterId, Doc, Entity, EntityLabel,
    Gender, Granularity, Hedge, Layer, Limits, Merge, MergeReason, Paragraph, ParagraphRole,
    PosTag, Quantity, Quotation, QuoteStatus, Segmentation, Sentence, SentenceId, Source, SourceId,
    SourceKind, Span, Stance, StanceLabel, TimeExpr, Token, TokenId, TokenKind,
};
use serde::Deserialize;

/// One line read back: the document, or why the line failed, with its place.
pub(crate) struct Line {
    pub(crate) place: String,
    pub(crate) doc: anyhow::Result<Doc>,
}

/// The documents of one file of analyse's JSON Lines (`-` for standard input),
/// one line at a time; a line longer than `limits.jsonl_line_bytes` fails alone.
pub(crate) fn read_file(
    path: &Path,
    limits: Limits,
) -> anyhow::Result<impl Iterator<Item = Line> + Send + use<>> {
    let shown = path.display().to_string();
    let reader: Box<dyn BufRead + Send> = if shown == "-" {
        Box::new(BufReader::new(io::stdin()))
    } else {
        Box::new(BufReader::new(
            std::fs::File::open(path).with_context(|| format!("opening {shown}"))?,
        ))
    };
    let mut lines = BoundedLines {
        reader,
        limit: limits.jsonl_line_bytes,
        number: 0,
        done: false,
    };
    Ok(std::iter::from_fn(move || {
        loop {
            let (number, line) = lines.next()?;
            let place = format!("{shown}:{number}");
            let doc = match line {
                Ok(line) if line.trim_ascii().is_empty() => continue,
                Ok(line) => parse(&line, &limits),
                Err(err) => Err(err),
            };
            return Some(Line {
                place: place.clone(),
                doc: doc.map_err(|err| err.context(place)),
            });
        }
    }))
}

/// Lines of at most `limit` bytes; a longer one is skipped to its end and
/// reported, never held.
struct BoundedLines {
    reader: Box<dyn BufRead + Send>,
    limit: usize,
    number: u64,
    done: bool,
}

impl BoundedLines {
    fn next(&mut self) -> Option<(u64, anyhow::Result<Vec<u8>>)> {
        if self.done {
            return None;
        }
        self.number += 1;
        let mut line = Vec::new();
        let cap = u64::try_from(self.limit)
            .unwrap_or(u64::MAX)
            .saturating_add(1);
        match Read::take(&mut self.reader, cap).read_until(b'\n', &mut line) {
            Err(err) => {
                self.done = true;
                Some((self.number, Err(anyhow!(err).context("reading"))))
            }
            Ok(0) => None,
            Ok(_) if line.last() == Some(&b'\n') || line.len() <= self.limit => {
                Some((self.number, Ok(line)))
            }
            Ok(_) => {
                let mut rest = Vec::new();
                let skipped = loop {
                    rest.clear();
                    match Read::take(&mut self.reader, 1 << 16).read_until(b'\n', &mut rest) {
                        Ok(0) => break Ok(()),
                        Ok(_) if rest.last() == Some(&b'\n') => break Ok(()),
                        Ok(_) => {}
                        Err(err) => break Err(err),
                    }
                };
                if let Err(err) = skipped {
                    self.done = true;
                    return Some((self.number, Err(anyhow!(err).context("reading"))));
                }
                Some((
                    self.number,
                    Err(anyhow!(
                        "line over {} bytes (--max-jsonl-line-bytes)",
                        self.limit
                    )),
                ))
            }
        }
    }
}

#[derive(Deserialize)]
struct DocumentIn {
    id: String,
    title: Option<String>,
    url: Option<String>,
    outlet: Option<String>,
    published: Option<String>,
    language: Option<String>,
    text: String,
    layers: Vec<String>,
    tokens: Option<Vec<(usize, usize, TokenKind)>>,
    sentences: Option<Vec<SentenceIn>>,
    paragraphs: Option<Vec<ParagraphIn>>,
    pos: Option<Vec<String>>,
    attributions: Option<Vec<AttributionIn>>,
    stances: Option<Vec<StanceIn>>,
    sources: Option<Vec<SourceIn>>,
    hedges: Option<Vec<HedgeIn>>,
    entities: Option<Vec<EntityIn>>,
    quantities: Option<Vec<QuantityIn>>,
    times: Option<Vec<TimeIn>>,
    quotations: Option<Vec<QuotationIn>>,
}

#[derive(Deserialize)]
struct SpanIn {
    byte_start: usize,
    byte_end: usize,
    text: String,
}

#[derive(Deserialize)]
struct SentenceIn {
    span: SpanIn,
    token_start: usize,
    token_end: usize,
}

#[derive(Deserialize)]
struct ParagraphIn {
    span: SpanIn,
    role: ParagraphRole,
    sentence_start: usize,
    sentence_end: usize,
}

#[derive(Deserialize)]
struct AttributionIn {
    kind: AttributionKind,
    confidence: Option<f64>,
    source: Vec<SpanIn>,
    cue: Vec<SpanIn>,
    content: Vec<SpanIn>,
}

#[derive(Deserialize)]
struct StanceIn {
    attribution: usize,
    label: StanceLabel,
    evidence: Vec<SpanIn>,
}

#[derive(Deserialize)]
struct SourceIn {
    name: String,
    kind: SourceKind,
    gender: Option<Gender>,
    mentions: Vec<SpanIn>,
    descriptors: Vec<SpanIn>,
    attributions: Vec<usize>,
    merges: Vec<MergeIn>,
}

#[derive(Deserialize)]
struct MergeIn {
    mention: usize,
    reason: MergeReason,
}

#[derive(Deserialize)]
struct QuotationIn {
    span: SpanIn,
    status: QuoteStatus,
    attribution: Option<usize>,
    source: Option<usize>,
}

#[derive(Deserialize)]
struct HedgeIn {
    cue: SpanIn,
    scope: SpanIn,
}

#[derive(Deserialize)]
struct EntityIn {
    span: SpanIn,
    label: EntityLabel,
    cluster: usize,
}

#[derive(Deserialize)]
struct QuantityIn {
    span: SpanIn,
    low: Option<f64>,
    high: Option<f64>,
    unit: String,
}

#[derive(Deserialize)]
struct TimeIn {
    span: SpanIn,
    value: Option<String>,
    granularity: Option<Granularity>,
    unresolved: Option<String>,
}

/// Reads one line of analyse's output into a `Doc`; its `"schema"` is checked
/// before the rest is read, so that another version fails as such.
pub(crate) fn parse(line: &[u8], limits: &Limits) -> anyhow::Result<Doc> {
    let head: serde_json::Value = serde_json::from_slice(line).context("not JSON")?;
    match head.get("schema").and_then(serde_json::Value::as_str) {
        Some(attest_write::SCHEMA) => {}
        Some(other) => bail!(
            "schema {other:?} is not {:?}, the one this attest reads: analyse again with it",
            attest_write::SCHEMA
        ),
        None if head.get("error").is_some() => {
            bail!("an error line of `analyze --errors inline`, not a document")
        }
        None => bail!("no \"schema\": not a document of `attest analyze --format jsonl`"),
    }
    let input: DocumentIn =
        serde_json::from_value(head).context("not a document of attest.document/1")?;
    build(input, limits)
}

fn build(input: DocumentIn, limits: &Limits) -> anyhow::Result<Doc> {
    let has = |layer: Layer| input.layers.iter().any(|name| name == layer.name());
    let published = input
        .published
        .as_deref()
        .map(str::parse)
        .transpose()
        .map_err(|err| anyhow!("published: {err}"))?;
    let article = Article {
        id: input.id,
        title: input.title,
        text: input.text,
        outlet: input.outlet,
        url: input.url,
        published,
        language: input.language,
    };
    let text = article.text.clone();
    let span = |span: &SpanIn| -> anyhow::Result<Span> {
        let found = Span::try_new_in(&text, span.byte_start, span.byte_end)
            .map_err(|err| anyhow!("span {}..{}: {err}", span.byte_start, span.byte_end))?;
        if text.get(span.byte_start..span.byte_end) != Some(span.text.as_str()) {
            bail!(
                "span {}..{} does not slice to the text it carries",
                span.byte_start,
                span.byte_end
            );
        }
        Ok(found)
    };
    let spans = |list: &[SpanIn]| list.iter().map(span).collect::<anyhow::Result<Vec<_>>>();
    let mut doc = Doc::new(article);
    if has(Layer::Sentences) {
        let segmentation = segmentation(
            &input.tokens,
            &input.sentences,
            &input.paragraphs,
            &text,
            limits,
            &span,
        )?;
        doc.set_segmentation(segmentation)?;
    }
    match input.pos.filter(|_| has(Layer::Pos)) {
        Some(tags) => {
            let pos = tags
                .iter()
                .map(|tag| PosTag::from_name(tag).ok_or_else(|| anyhow!("unknown POS tag {tag:?}")))
                .collect::<anyhow::Result<_>>()?;
            doc.set_pos(pos)?;
        }
        // Tags are written only with the tokens: tagged again, as the tokens
        // were segmented again, so that the document is the one analyse made.
        None if doc.has(Layer::Sentences) => {
            let tagger = attest_tag::Tagger::shared().map_err(|err| anyhow!("{err}"))?;
            attest_doc::Stage::run(tagger, &mut doc)?;
        }
        None => {}
    }
    if let Some(list) = input.attributions.filter(|_| has(Layer::Attributions)) {
        let attributions = list
            .iter()
            .map(|a| {
                Ok(Attribution {
                    source: spans(&a.source)?,
                    cue: spans(&a.cue)?,
                    content: spans(&a.content)?,
                    kind: a.kind,
                    confidence: a.confidence.map_or(f32::NAN, |c| c as f32),
                })
            })
            .collect::<anyhow::Result<_>>()?;
        doc.set_attributions(attributions)?;
    }
    if let Some(list) = input.stances.filter(|_| has(Layer::Stances)) {
        let stances = list
            .iter()
            .map(|s| {
                Ok(Stance {
                    attribution: attribution_id(s.attribution)?,
                    label: s.label,
                    evidence: spans(&s.evidence)?,
                })
            })
            .collect::<anyhow::Result<_>>()?;
        doc.set_stances(stances)?;
    }
    if let Some(list) = input.sources.filter(|_| has(Layer::Sources)) {
        let sources = list
            .into_iter()
            .map(|s| {
                let mentions = spans(&s.mentions)?;
                Ok(Source {
                    descriptors: spans(&s.descriptors)?,
                    attributions: s
                        .attributions
                        .iter()
                        .map(|a| attribution_id(*a))
                        .collect::<anyhow::Result<_>>()?,
                    merges: s
                        .merges
                        .iter()
                        .map(|m| {
                            Ok(Merge {
                                mention: *mentions.get(m.mention).ok_or_else(|| {
                                    anyhow!("merge of mention {} out of range", m.mention)
                                })?,
                                reason: m.reason,
                            })
                        })
                        .collect::<anyhow::Result<_>>()?,
                    mentions,
                    name: s.name,
                    kind: s.kind,
                    gender: s.gender,
                })
            })
            .collect::<anyhow::Result<_>>()?;
        doc.set_sources(sources)?;
    }
    if let Some(list) = input.hedges.filter(|_| has(Layer::Hedges)) {
        let hedges = list
            .iter()
            .map(|h| {
                Ok(Hedge {
                    cue: span(&h.cue)?,
                    scope: span(&h.scope)?,
                })
            })
            .collect::<anyhow::Result<_>>()?;
        doc.set_hedges(hedges)?;
    }
    if let Some(list) = input.entities.filter(|_| has(Layer::Entities)) {
        let entities = list
            .iter()
            .map(|e| {
                Ok(Entity {
                    span: span(&e.span)?,
                    label: e.label,
                    cluster: ClusterId::new(e.cluster)
                        .ok_or_else(|| anyhow!("cluster {} out of range", e.cluster))?,
                })
            })
            .collect::<anyhow::Result<_>>()?;
        doc.set_entities(entities)?;
    }
    if let Some(list) = input.quantities.filter(|_| has(Layer::Quantities)) {
        let quantities = list
            .into_iter()
            .map(|q| {
                Ok(Quantity {
                    span: span(&q.span)?,
                    low: q.low,
                    high: q.high,
                    unit: q.unit,
                })
            })
            .collect::<anyhow::Result<_>>()?;
        doc.set_quantities(quantities)?;
    }
    if let Some(list) = input.times.filter(|_| has(Layer::Times)) {
        let times = list
            .into_iter()
            .map(|t| {
                Ok(TimeExpr {
                    span: span(&t.span)?,
                    value: t.value,
                    granularity: t.granularity,
                    unresolved: t.unresolved,
                })
            })
            .collect::<anyhow::Result<_>>()?;
        doc.set_times(times)?;
    }
    if let Some(list) = input.quotations.filter(|_| has(Layer::Quotations)) {
        let quotations = list
            .iter()
            .map(|q| {
                Ok(Quotation {
                    span: span(&q.span)?,
                    status: q.status,
                    attribution: q.attribution.map(attribution_id).transpose()?,
                    source: q
                        .source
                        .map(|s| SourceId::new(s).ok_or_else(|| anyhow!("source {s} out of range")))
                        .transpose()?,
                })
            })
            .collect::<anyhow::Result<_>>()?;
        doc.set_quotations(quotations)?;
    }
    Ok(doc)
}

fn attribution_id(index: usize) -> anyhow::Result<AttributionId> {
    AttributionId::new(index).ok_or_else(|| anyhow!("attribution {index} out of range"))
}

/// The tokens, sentences and paragraphs: as the line gives them when it has
/// tokens, else segmented again and checked against the line's.
fn segmentation(
    tokens: &Option<Vec<(usize, usize, TokenKind)>>,
    sentences: &Option<Vec<SentenceIn>>,
    paragraphs: &Option<Vec<ParagraphIn>>,
    text: &str,
    limits: &Limits,
    span: &dyn Fn(&SpanIn) -> anyhow::Result<Span>,
) -> anyhow::Result<Segmentation> {
    let (Some(sentences), Some(paragraphs)) = (sentences, paragraphs) else {
        bail!("\"sentences\" and \"paragraphs\" are listed in \"layers\" but missing");
    };
    let token_id =
        |index: usize| TokenId::new(index).ok_or_else(|| anyhow!("token {index} out of range"));
    let sentence_id = |index: usize| {
        SentenceId::new(index).ok_or_else(|| anyhow!("sentence {index} out of range"))
    };
    let given_sentences = sentences
        .iter()
        .map(|s| {
            Ok(Sentence {
                span: span(&s.span)?,
                tokens: token_id(s.token_start)?..token_id(s.token_end)?,
            })
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let given_paragraphs = paragraphs
        .iter()
        .map(|p| {
            Ok(Paragraph {
                span: span(&p.span)?,
                sentences: sentence_id(p.sentence_start)?..sentence_id(p.sentence_end)?,
                role: p.role,
            })
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    if let Some(tokens) = tokens {
        let tokens = tokens
            .iter()
            .map(|&(start, end, kind)| {
                Ok(Token {
                    span: Span::try_new_in(text, start, end)
                        .map_err(|err| anyhow!("token {start}..{end}: {err}"))?,
                    kind,
                })
            })
            .collect::<anyhow::Result<_>>()?;
        return Ok(Segmentation {
            tokens,
            sentences: given_sentences,
            paragraphs: given_paragraphs,
        });
    }
    let again = attest_text::segment(text, limits);
    if again.sentences != given_sentences || again.paragraphs != given_paragraphs {
        bail!(
            "its sentences or paragraphs differ from this attest's segmentation, and it has no \
             tokens: analyse again, or with --tokens"
        );
    }
    Ok(again)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn analysed(tokens: bool) -> (Doc, Vec<u8>) {
        let limits = Limits::DEFAULT;
        let pipeline = attest_pipeline::Pipeline::standard(&limits).expect("the pipeline builds");
        let mut article = Article::new(
            "t1",
            "The mayor said on Monday that the bridge would reopen in May. \
             “We are confident,” said Dana Whitcombe, a council spokeswoman.\n\n\
             Critics reportedly doubt it, and about 40 residents protested.",
        );
        article.published = "2026-03-04".parse().ok();
        let doc = pipeline.analyze(article);
        let mut line = Vec::new();
        let config = attest_write::JsonConfig {
            tokens,
            ..attest_write::JsonConfig::default()
        };
        attest_write::write_jsonl(&doc, &config, &mut line).expect("it writes");
        (doc, line)
    }

    #[test]
    fn a_written_document_reads_back_as_it_was() {
        for tokens in [false, true] {
            let (doc, line) = analysed(tokens);
            let back = parse(&line, &Limits::DEFAULT).expect("it reads back");
            let config = attest_write::JsonConfig {
                tokens,
                ..attest_write::JsonConfig::default()
            };
            assert_eq!(
                attest_write::to_json_value(&back, &config),
                attest_write::to_json_value(&doc, &config)
            );
            assert!(back.has(Layer::Attributions) && !back.attributions().is_empty());
            assert!(!back.quotations().is_empty(), "the quotation reads back");
            assert_eq!(back.tokens(), doc.tokens());
        }
    }

    #[test]
    fn another_schema_version_is_refused() {
        let (_, line) = analysed(false);
        let line = String::from_utf8(line)
            .expect("UTF-8")
            .replace("attest.document/1", "attest.document/2");
        let err = parse(line.as_bytes(), &Limits::DEFAULT).expect_err("refused");
        assert!(err.to_string().contains("attest.document/2"), "{err:#}");
    }

    #[test]
    fn a_span_that_does_not_slice_to_its_text_fails() {
        let (_, line) = analysed(false);
        let line = String::from_utf8(line).expect("UTF-8").replacen(
            "\"text\":\"Dana Whitcombe\"",
            "\"text\":\"Dana Whitcomb\"",
            1,
        );
        assert!(line.contains("Whitcomb\""), "the test edits a span's text");
        assert!(parse(line.as_bytes(), &Limits::DEFAULT).is_err());
    }
}
