//! The JSON of [`super`] read back into a `Doc`, through the same view types
//! it is written from, so that `attest ingest --analysed` stores what a Spark
//! job analysed without analysing again.
//!
//! Every span is checked twice: its byte offsets must fit the text on char
//! boundaries (`Doc::set_*`), and the code points and text it carries must be
//! the ones they give, so a document edited by hand or cut short fails instead
//! of storing misplaced spans. Tokens are written only with `--tokens`;
//! without them the text is segmented again by the caller's [`Remake`], and
//! the sentences and paragraphs must come out as the document has them, or it
//! fails (analyse with `--tokens` to carry the tokens along); their
//! part-of-speech tags, written only with them, are tagged again. A document of
//! another schema version is refused. Confidences come back with the four
//! decimals the JSON keeps; the summary is not read, as the layers give it
//! again, nor are diagnostics, as the ledger keeps none.

use std::borrow::Cow;

use attest_doc::{
    Article, Attribution, AttributionId, Doc, Layer, LayerError, Merge, Paragraph, PosTag,
    Quotation, Segmentation, Sentence, SentenceId, Source, SourceId, Span, Stance, Token, TokenId,
};
use serde::Deserialize;
use serde::de::IgnoredAny;

use super::{DocumentView, ParagraphView, RecordView, SCHEMA, SentenceView, SpanView, TokenView};
use crate::offsets::Geometry;

/// The layers the format leaves out without `--tokens`, made again as
/// analyse made them: the reader knows the format, the caller the stages.
pub trait Remake {
    /// The tokens, sentences and paragraphs of `text`.
    fn segment(&self, text: &str) -> Segmentation;
    /// Assigns the part-of-speech tags of `doc`'s tokens, or says why not.
    fn tag(&self, doc: &mut Doc) -> Result<(), String>;
}

/// Why a JSON document does not read back into a `Doc`.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReadError {
    /// The bytes are not JSON.
    #[error("not JSON: {0}")]
    NotJson(serde_json::Error),
    /// A document of another version of the format.
    #[error("schema {0:?} is not {SCHEMA:?}, the one this attest reads: analyse again with it")]
    OtherSchema(String),
    /// An error line of `attest analyze --errors inline`.
    #[error("an error line of `analyze --errors inline`, not a document")]
    ErrorLine,
    /// A JSON object without `"schema"`.
    #[error("no \"schema\": not a document of `attest analyze --format jsonl`")]
    NoSchema,
    /// A field is missing or of the wrong type.
    #[error("not a document of {SCHEMA}: {0}")]
    Shape(serde_json::Error),
    /// A value the types allow but the text or the other layers do not: a
    /// span that does not fit or slice to its text, an index out of range.
    #[error("{0}")]
    Invalid(String),
    /// The layers do not fit together (`Doc::set_*`).
    #[error(transparent)]
    Layer(#[from] LayerError),
    /// The caller's [`Remake`] could not tag the tokens again.
    #[error("tagging again: {0}")]
    Tagging(String),
}

/// Reads one document that [`super::write_json`] or [`super::write_jsonl`]
/// wrote. Its `"schema"` is checked before the rest is read, so that another
/// version fails as such.
pub fn read_json(json: &[u8], remake: &dyn Remake) -> Result<Doc, ReadError> {
    #[derive(Deserialize)]
    struct Head {
        schema: Option<String>,
        error: Option<IgnoredAny>,
    }
    let head: Head = serde_json::from_slice(json).map_err(ReadError::NotJson)?;
    match head.schema {
        Some(schema) if schema == SCHEMA => {}
        Some(other) => return Err(ReadError::OtherSchema(other)),
        None if head.error.is_some() => return Err(ReadError::ErrorLine),
        None => return Err(ReadError::NoSchema),
    }
    let view: DocumentView = serde_json::from_slice(json).map_err(ReadError::Shape)?;
    view.into_doc(remake)
}

fn invalid(message: String) -> ReadError {
    ReadError::Invalid(message)
}

/// Spans read against the text they must slice.
pub(super) struct Spans<'t> {
    geometry: Geometry<'t>,
}

impl Spans<'_> {
    pub(super) fn one(&self, view: &SpanView) -> Result<Span, ReadError> {
        let (start, end) = (view.byte_start, view.byte_end);
        let span = Span::try_new_in(self.geometry.text(), start, end)
            .map_err(|err| invalid(format!("span {start}..{end}: {err}")))?;
        let placed = self.geometry.place(span);
        if placed.text != view.text {
            return Err(invalid(format!(
                "span {start}..{end} does not slice to the text it carries"
            )));
        }
        if (placed.cp_start, placed.cp_end) != (view.cp_start, view.cp_end) {
            return Err(invalid(format!(
                "span {start}..{end} is code points {}..{} of the text, not {}..{}",
                placed.cp_start, placed.cp_end, view.cp_start, view.cp_end
            )));
        }
        Ok(span)
    }

    fn all(&self, views: &[SpanView]) -> Result<Vec<Span>, ReadError> {
        views.iter().map(|view| self.one(view)).collect()
    }
}

/// A listed layer's records converted one by one; `None` for a layer the
/// document does not list.
fn records<V, R>(
    listed: bool,
    views: Option<Vec<V>>,
    convert: impl FnMut(V) -> Result<R, ReadError>,
) -> Result<Option<Vec<R>>, ReadError> {
    views
        .filter(|_| listed)
        .map(|views| views.into_iter().map(convert).collect())
        .transpose()
}

pub(super) fn id<T>(what: &str, index: usize, new: fn(usize) -> Option<T>) -> Result<T, ReadError> {
    new(index).ok_or_else(|| invalid(format!("{what} {index} out of range")))
}

/// A layer's records read back, to be set once the `Doc` is made.
type SetRecords = Box<dyn FnOnce(&mut Doc) -> Result<(), LayerError>>;

/// The field of a layer whose views [`RecordView`] reads back.
pub(super) trait ReadRecords {
    /// The records of the field's views, taken out of it, or `None` for a
    /// layer the document does not list.
    fn read(&mut self, listed: &[Layer], spans: &Spans) -> Result<Option<SetRecords>, ReadError>;
}

impl<'a, V: RecordView<'a>> ReadRecords for Option<Vec<V>> {
    fn read(&mut self, listed: &[Layer], spans: &Spans) -> Result<Option<SetRecords>, ReadError> {
        let Some(views) = self.take().filter(|_| listed.contains(&V::LAYER)) else {
            return Ok(None);
        };
        let records = views
            .into_iter()
            .map(|view| view.read(spans))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Some(Box::new(move |doc: &mut Doc| V::set(doc, records))))
    }
}

impl DocumentView<'_> {
    fn into_doc(mut self, remake: &dyn Remake) -> Result<Doc, ReadError> {
        let listed: Vec<Layer> = Layer::ALL
            .iter()
            .copied()
            .filter(|layer| self.layers.iter().any(|name| name == layer.name()))
            .collect();
        let has = |layer: Layer| listed.contains(&layer);
        let published = self
            .published
            .as_deref()
            .map(str::parse)
            .transpose()
            .map_err(|err| invalid(format!("published: {err}")))?;
        // Out of `self`, whose record layers are taken while spans read it.
        let text = std::mem::take(&mut self.text);
        let spans = Spans {
            geometry: Geometry::new(&text),
        };
        let record_layers = self
            .record_layers()
            .into_iter()
            .filter_map(|field| field.read(&listed, &spans).transpose())
            .collect::<Result<Vec<_>, _>>()?;
        let segmentation = has(Layer::Sentences)
            .then(|| segmentation(self.tokens, self.sentences, self.paragraphs, &spans, remake))
            .transpose()?;
        let pos = records(has(Layer::Pos), self.pos, |tag| {
            PosTag::from_name(&tag).ok_or_else(|| invalid(format!("unknown POS tag {tag:?}")))
        })?;
        let attributions = records(has(Layer::Attributions), self.attributions, |attribution| {
            Ok(Attribution {
                source: spans.all(&attribution.source)?,
                cue: spans.all(&attribution.cue)?,
                content: spans.all(&attribution.content)?,
                kind: attribution.kind,
                confidence: attribution.confidence.map_or(f32::NAN, |c| c as f32),
            })
        })?;
        let stances = records(has(Layer::Stances), self.stances, |stance| {
            Ok(Stance {
                attribution: id("attribution", stance.attribution, AttributionId::new)?,
                label: stance.label,
                evidence: spans.all(&stance.evidence)?,
            })
        })?;
        let sources = records(has(Layer::Sources), self.sources, |source| {
            let mentions = spans.all(&source.mentions)?;
            let merges = source
                .merges
                .iter()
                .map(|merge| {
                    Ok(Merge {
                        mention: *mentions.get(merge.mention).ok_or_else(|| {
                            invalid(format!("merge of mention {} out of range", merge.mention))
                        })?,
                        reason: merge.reason,
                    })
                })
                .collect::<Result<_, ReadError>>()?;
            Ok(Source {
                descriptors: spans.all(&source.descriptors)?,
                attributions: source
                    .attributions
                    .iter()
                    .map(|&a| id("attribution", a, AttributionId::new))
                    .collect::<Result<_, _>>()?,
                merges,
                mentions,
                name: source.name.into_owned(),
                kind: source.kind,
                gender: source.gender,
            })
        })?;
        let quotations = records(has(Layer::Quotations), self.quotations, |quotation| {
            Ok(Quotation {
                span: spans.one(&quotation.span)?,
                status: quotation.status,
                attribution: quotation
                    .attribution
                    .map(|a| id("attribution", a, AttributionId::new))
                    .transpose()?,
                source: quotation
                    .source
                    .map(|s| id("source", s, SourceId::new))
                    .transpose()?,
            })
        })?;

        let mut doc = Doc::new(Article {
            id: self.id.into_owned(),
            title: self.title.map(Cow::into_owned),
            text: text.into_owned(),
            outlet: self.outlet.map(Cow::into_owned),
            url: self.url.map(Cow::into_owned),
            published,
            language: self.language.map(Cow::into_owned),
        });
        if let Some(segmentation) = segmentation {
            doc.set_segmentation(segmentation)?;
        }
        match pos {
            Some(pos) => doc.set_pos(pos)?,
            // Tags are written only with the tokens: tagged again, as the
            // tokens were segmented again, so that the document is the one
            // analyse made.
            None if doc.has(Layer::Sentences) => {
                remake.tag(&mut doc).map_err(ReadError::Tagging)?;
            }
            None => {}
        }
        // In the order of `Layer::ALL`, each checked against those set before.
        attributions.map(|a| doc.set_attributions(a)).transpose()?;
        stances.map(|s| doc.set_stances(s)).transpose()?;
        sources.map(|s| doc.set_sources(s)).transpose()?;
        for set in record_layers {
            set(&mut doc)?;
        }
        quotations.map(|q| doc.set_quotations(q)).transpose()?;
        Ok(doc)
    }
}

/// The tokens, sentences and paragraphs: as the document gives them when it
/// has tokens, else segmented again and checked against the document's.
fn segmentation(
    tokens: Option<Vec<TokenView>>,
    sentences: Option<Vec<SentenceView>>,
    paragraphs: Option<Vec<ParagraphView>>,
    spans: &Spans,
    remake: &dyn Remake,
) -> Result<Segmentation, ReadError> {
    let (Some(sentences), Some(paragraphs)) = (sentences, paragraphs) else {
        return Err(invalid(
            "\"sentences\" and \"paragraphs\" are listed in \"layers\" but missing".into(),
        ));
    };
    let given_sentences = sentences
        .iter()
        .map(|s| {
            Ok(Sentence {
                span: spans.one(&s.span)?,
                tokens: id("token", s.token_start, TokenId::new)?
                    ..id("token", s.token_end, TokenId::new)?,
            })
        })
        .collect::<Result<Vec<_>, ReadError>>()?;
    let given_paragraphs = paragraphs
        .iter()
        .map(|p| {
            Ok(Paragraph {
                span: spans.one(&p.span)?,
                sentences: id("sentence", p.sentence_start, SentenceId::new)?
                    ..id("sentence", p.sentence_end, SentenceId::new)?,
                role: p.role,
            })
        })
        .collect::<Result<Vec<_>, ReadError>>()?;
    let text = spans.geometry.text();
    if let Some(tokens) = tokens {
        let tokens = tokens
            .iter()
            .map(|&TokenView(start, end, kind)| {
                Ok(Token {
                    span: Span::try_new_in(text, start, end)
                        .map_err(|err| invalid(format!("token {start}..{end}: {err}")))?,
                    kind,
                })
            })
            .collect::<Result<_, ReadError>>()?;
        return Ok(Segmentation {
            tokens,
            sentences: given_sentences,
            paragraphs: given_paragraphs,
        });
    }
    let again = remake.segment(text);
    if again.sentences != given_sentences || again.paragraphs != given_paragraphs {
        return Err(invalid(
            "its sentences or paragraphs differ from this attest's segmentation, and it has no \
             tokens: analyse again, or with --tokens"
                .into(),
        ));
    }
    Ok(again)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{full_doc, segment, segmented_doc, tag};
    use crate::{JsonConfig, write_json, write_jsonl};

    /// The fixtures' segmenter and tagger, as analyse's stand in for them.
    struct Fixtures;

    impl Remake for Fixtures {
        fn segment(&self, text: &str) -> Segmentation {
            segment(text)
        }

        fn tag(&self, doc: &mut Doc) -> Result<(), String> {
            tag(doc);
            Ok(())
        }
    }

    fn line(doc: &Doc, tokens: bool) -> String {
        let mut out = Vec::new();
        let config = JsonConfig {
            tokens,
            ..JsonConfig::default()
        };
        write_jsonl(doc, &config, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn read(json: &str) -> Result<Doc, ReadError> {
        read_json(json.as_bytes(), &Fixtures)
    }

    /// Every layer, written and read back, writes the same bytes, but for
    /// the diagnostics, which are not read.
    #[test]
    fn every_layer_reads_back_to_the_same_bytes() {
        let layers = |line: &str| line.split("\"diagnostics\":").next().map(str::to_owned);
        let bare = Doc::new(attest_doc::Article::new("b", ""));
        // Not `segmented_doc`: a document with tokens but no tags is tagged
        // again, as analyse tags every document it segments.
        for doc in [full_doc(), bare] {
            for tokens in [false, true] {
                let written = line(&doc, tokens);
                let back = read(&written).unwrap();
                assert_eq!(layers(&line(&back, tokens)), layers(&written));
                assert!(back.diagnostics().is_empty());
                assert_eq!(back.tokens(), doc.tokens());
                assert_eq!(back.pos(), doc.pos());
                let mut pretty = Vec::new();
                let config = JsonConfig {
                    tokens,
                    ..JsonConfig::default()
                };
                write_json(&doc, &config, &mut pretty).unwrap();
                let back = read_json(&pretty, &Fixtures).unwrap();
                assert_eq!(layers(&line(&back, tokens)), layers(&written));
            }
        }
    }

    #[test]
    fn another_schema_an_error_line_and_other_json_are_refused_as_such() {
        let written = line(&full_doc(), false);
        let err = read(&written.replace(SCHEMA, "attest.document/2")).unwrap_err();
        assert!(err.to_string().contains("\"attest.document/2\""), "{err}");
        let err = read(r#"{"id":"a","error":"too long"}"#).unwrap_err();
        assert!(matches!(err, ReadError::ErrorLine), "{err}");
        assert!(matches!(read("[1, 2]").unwrap_err(), ReadError::NotJson(_)));
        assert!(matches!(read("{}").unwrap_err(), ReadError::NoSchema));
        let err = read(&written.replacen("\"cp_start\":", "\"cp_begin\":", 1)).unwrap_err();
        assert!(
            err.to_string().contains("missing field `cp_start`"),
            "{err}"
        );
    }

    #[test]
    fn a_document_written_before_the_model_field_reads_back() {
        let written = line(&full_doc(), false);
        let mut older: serde_json::Value = serde_json::from_str(&written).unwrap();
        let fields = older.as_object_mut().unwrap();
        assert!(fields.remove("model").is_some() && fields.remove("diagnostics").is_some());
        let back = read(&older.to_string()).unwrap();
        assert_eq!(line(&back, false), line(&read(&written).unwrap(), false));
    }

    #[test]
    fn a_span_that_does_not_fit_its_text_fails_saying_how() {
        let written = line(&full_doc(), true);
        let cases = [
            (
                "\"text\":\"Mayor Lena Ortiz\"",
                "\"text\":\"Mayor Lena Ortis\"",
                "does not slice to the text it carries",
            ),
            ("\"cp_end\":", "\"cp_end\":9", "code points"),
            ("\"byte_end\":", "\"byte_end\":9999", "span"),
            (
                "\"cluster\":",
                "\"cluster\":99999999999999999999",
                "not a document",
            ),
            ("\"mention\":", "\"mention\":9", "merge of mention 9"),
            ("\"attribution\":", "\"attribution\":9", "attribution"),
        ];
        for (from, to, said) in cases {
            assert!(written.contains(from), "{from}");
            let err = read(&written.replacen(from, to, 1)).unwrap_err();
            assert!(err.to_string().contains(said), "{from}: {err}");
        }
    }

    #[test]
    fn sentences_unlike_a_segmentation_again_fail_without_tokens() {
        let written = line(&segmented_doc(), false);
        let edited = written.replacen("\"token_end\":", "\"token_end\":1", 1);
        let err = read(&edited).unwrap_err();
        assert!(err.to_string().contains("--tokens"), "{err}");
        let with_tokens = line(&segmented_doc(), true);
        assert!(read(&with_tokens).is_ok());
    }
}
