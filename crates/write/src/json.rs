//! JSON and JSON Lines, schema `attest.document/1`, written and read.
//!
//! One article becomes one JSON object; [`write_json`] prints it pretty (arrays
//! of numbers and strings, such as the tokens, stay on one line),
//! [`write_jsonl`] on one line. The object is built from private view structs
//! whose field order fixes the byte order of the output, so the same document
//! always gives the same bytes. The same structs are deserialised to read a
//! document back ([`read_json`], in `read`), and give the JSON Schema
//! (`json_schema`), so that the format is said once, here. The full field
//! reference is `docs/schema.md`.
//!
//! Layers that no stage assigned are left out, not written as `[]`: `"layers"`
//! lists exactly the layer fields the object holds, so a reader can tell
//! "none found" (an empty array) from "not looked for" (no field).

use std::borrow::Cow;
use std::collections::HashMap;
use std::io::{self, Write};

use attest_doc::{
    AttributionKind, Certainty, ClusterId, Doc, Entity, EntityLabel, Gender, Granularity, Hedge,
    Layer, LayerError, MergeReason, ParagraphRole, Quantity, QuoteStatus, Source, SourceKind,
    SourcingSummary, Span, StanceLabel, TimeExpr, TokenKind,
};
use serde::{Deserialize, Serialize};

use crate::offsets::{Geometry, Placed};
use crate::pretty::ScalarArrays;

mod read;

use read::{ReadRecords, Spans};

pub use read::{ReadError, Remake, read_json};

/// The schema name and version written as `"schema"` in every object.
///
/// Additive changes (a new optional field, a new layer, a new enum value) keep
/// the version; renaming, removing or retyping a field bumps it.
pub const SCHEMA: &str = "attest.document/1";

/// Which model analysed a document, written as `"model"`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum AnalysisModel {
    /// The linear models (the default).
    #[default]
    Fast,
    /// The fine-tuned encoder for attributions.
    Accurate,
}

impl AnalysisModel {
    /// Its name, as the JSON and the `--model` flag spell it.
    pub fn name(self) -> &'static str {
        match self {
            AnalysisModel::Fast => "fast",
            AnalysisModel::Accurate => "accurate",
        }
    }
}

/// What the JSON writers include beyond the default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JsonConfig {
    /// Write the tokens (and part-of-speech tags, when assigned). They are as
    /// many as the words of the article, so they are off by default.
    pub tokens: bool,
    /// The model that analysed the document.
    pub model: AnalysisModel,
}

/// Writes `doc` as one pretty-printed JSON object and a trailing newline.
pub fn write_json(doc: &Doc, config: &JsonConfig, out: &mut dyn Write) -> io::Result<()> {
    let geometry = Geometry::new(doc.text());
    let view = DocumentView::new(doc, config, &geometry);
    let mut serializer = serde_json::Serializer::with_formatter(&mut *out, ScalarArrays::new());
    view.serialize(&mut serializer).map_err(io::Error::from)?;
    out.write_all(b"\n")
}

/// Writes `doc` as one compact JSON object on one line, ending in `\n`.
///
/// JSON escapes every newline inside strings, so the line holds the whole
/// article however many lines its text has.
pub fn write_jsonl(doc: &Doc, config: &JsonConfig, out: &mut dyn Write) -> io::Result<()> {
    let geometry = Geometry::new(doc.text());
    let view = DocumentView::new(doc, config, &geometry);
    serde_json::to_writer(&mut *out, &view).map_err(io::Error::from)?;
    out.write_all(b"\n")
}

/// The object [`write_json`] writes, as a value to inspect (its maps are
/// sorted by key, so write with [`write_json`] when field order matters).
pub fn to_json_value(doc: &Doc, config: &JsonConfig) -> serde_json::Value {
    let geometry = Geometry::new(doc.text());
    let view = DocumentView::new(doc, config, &geometry);
    // The views hold only strings, integers, options and sequences, whose
    // conversion cannot fail; Null stands in should that ever change.
    serde_json::to_value(&view).unwrap_or(serde_json::Value::Null)
}

/// A field that is written but not read: skipped over, whatever it holds.
/// (`skip_deserializing` would mark it read-only in the JSON Schema.)
fn unread<'de, D: serde::Deserializer<'de>, T: Default>(field: D) -> Result<T, D::Error> {
    serde::de::IgnoredAny::deserialize(field)?;
    Ok(T::default())
}

/// The view of one layer's record whose JSON has the record's own shape: its
/// fields, under their names and in their order, each converted by its
/// [`Field`]. [`record_view!`] declares it, and writing it and reading it
/// back follow from that one list of fields.
trait RecordView<'a>: Sized {
    /// The record it views.
    type Record: 'static;
    /// The layer of the records.
    const LAYER: Layer;
    /// The layer's records in `doc`.
    fn records(doc: &'a Doc) -> &'a [Self::Record];
    /// Sets the layer's records on `doc`, checked as `Doc::set_*` checks them.
    fn set(doc: &mut Doc, records: Vec<Self::Record>) -> Result<(), LayerError>;
    /// The view of one record.
    fn new(record: &'a Self::Record, geometry: &Geometry<'a>) -> Self;
    /// The record of one view, its spans checked against the text.
    fn read(self, spans: &Spans<'_>) -> Result<Self::Record, ReadError>;
}

/// A record's field as its view writes it (`Self`) and reads it back (`R`).
trait Field<'a, R>: Sized {
    fn write(record: &'a R, geometry: &Geometry<'a>) -> Self;
    fn read(self, spans: &Spans<'_>) -> Result<R, ReadError>;
}

/// A value JSON writes as the record holds it: a label, a number. A bound
/// of a quantity that is no number (infinite, NaN) is written `null` by
/// serde_json, and so read back as none.
impl<'a, T: Copy> Field<'a, T> for T {
    fn write(record: &'a T, _: &Geometry<'a>) -> T {
        *record
    }

    fn read(self, _: &Spans<'_>) -> Result<T, ReadError> {
        Ok(self)
    }
}

impl<'a> Field<'a, Span> for SpanView<'a> {
    fn write(record: &'a Span, geometry: &Geometry<'a>) -> SpanView<'a> {
        geometry.place(*record).into()
    }

    fn read(self, spans: &Spans<'_>) -> Result<Span, ReadError> {
        spans.one(&self)
    }
}

impl<'a> Field<'a, ClusterId> for usize {
    fn write(record: &'a ClusterId, _: &Geometry<'a>) -> usize {
        record.index()
    }

    fn read(self, _: &Spans<'_>) -> Result<ClusterId, ReadError> {
        read::id("cluster", self, ClusterId::new)
    }
}

impl<'a> Field<'a, String> for Cow<'a, str> {
    fn write(record: &'a String, _: &Geometry<'a>) -> Cow<'a, str> {
        record.as_str().into()
    }

    fn read(self, _: &Spans<'_>) -> Result<String, ReadError> {
        Ok(self.into_owned())
    }
}

impl<'a> Field<'a, Option<String>> for Option<Cow<'a, str>> {
    fn write(record: &'a Option<String>, _: &Geometry<'a>) -> Option<Cow<'a, str>> {
        record.as_deref().map(Cow::from)
    }

    fn read(self, _: &Spans<'_>) -> Result<Option<String>, ReadError> {
        Ok(self.map(Cow::into_owned))
    }
}

/// Declares a [`RecordView`]: the view struct, with the record's fields and
/// their JSON types, and its layer with the `Doc`'s getter and setter of it.
macro_rules! record_view {
    (
        $(#[$meta:meta])*
        struct $view:ident<$a:lifetime> for $record:ident in $layer:expr, $get:path, $set:path {
            $($field:ident: $ty:ty),* $(,)?
        }
    ) => {
        #[derive(Serialize, Deserialize)]
        $(#[$meta])*
        struct $view<$a> {
            $($field: $ty,)*
        }

        impl<$a> RecordView<$a> for $view<$a> {
            type Record = $record;
            const LAYER: Layer = $layer;

            fn records(doc: &$a Doc) -> &$a [$record] {
                $get(doc)
            }

            fn set(doc: &mut Doc, records: Vec<$record>) -> Result<(), LayerError> {
                $set(doc, records)
            }

            fn new(record: &$a $record, geometry: &Geometry<$a>) -> Self {
                $view {
                    $($field: <$ty as Field<$a, _>>::write(&record.$field, geometry),)*
                }
            }

            fn read(self, spans: &Spans<'_>) -> Result<$record, ReadError> {
                Ok($record {
                    $($field: <$ty as Field<$a, _>>::read(self.$field, spans)?,)*
                })
            }
        }
    };
}

/// The views of a layer's records, or `None` where it was not looked for.
fn record_views<'a, V: RecordView<'a>>(doc: &'a Doc, geometry: &Geometry<'a>) -> Option<Vec<V>> {
    doc.has(V::LAYER).then(|| {
        let records = V::records(doc).iter();
        records.map(|record| V::new(record, geometry)).collect()
    })
}

/// One analysed article as written by attest's JSON and JSON Lines writers.
/// See docs/schema.md.
#[derive(Serialize, Deserialize)]
#[cfg_attr(
    feature = "schema",
    derive(schemars::JsonSchema),
    schemars(
        rename = "Document",
        title = "attest.document/1",
        transform = schema::omitted_is_not_null
    )
)]
struct DocumentView<'a> {
    #[cfg_attr(feature = "schema", schemars(schema_with = "schema::version"))]
    schema: Cow<'a, str>,
    // Read as the default when absent: documents of this schema written
    // before the field was added leave it out.
    #[serde(default)]
    model: AnalysisModel,
    id: Cow<'a, str>,
    title: Option<Cow<'a, str>>,
    url: Option<Cow<'a, str>>,
    outlet: Option<Cow<'a, str>>,
    #[cfg_attr(feature = "schema", schemars(schema_with = "schema::published"))]
    published: Option<String>,
    language: Option<Cow<'a, str>>,
    text: Cow<'a, str>,
    #[cfg_attr(feature = "schema", schemars(schema_with = "schema::layers"))]
    layers: Vec<Cow<'a, str>>,
    /// How the article sources what it reports; present when attributions
    /// were looked for.
    // Not read: the layers give it again.
    #[serde(
        skip_serializing_if = "Option::is_none",
        default,
        deserialize_with = "unread"
    )]
    summary: Option<SourcingSummary>,
    /// `[byte_start, byte_end, kind]`: a compact array (tokens are many); byte
    /// offsets only; `kind` one of `word`, `clitic`, `number`, `quote`, `dash`,
    /// `punct`, `symbol`, `url`, `email`, `hashtag`, `handle`, `markup`
    #[serde(skip_serializing_if = "Option::is_none")]
    tokens: Option<Vec<TokenView>>,
    /// a string per token, parallel to `tokens`: Penn Treebank tags as CoreNLP
    /// writes them (`NNP`, `VBD`, `-LRB-`, `HYPH`, …)
    #[serde(skip_serializing_if = "Option::is_none")]
    pos: Option<Vec<Cow<'a, str>>>,
    /// `span`; `token_start`, `token_end`: the range of `tokens` (valid even
    /// when tokens are not written); `hedged_by_writer`: for a sentence in the
    /// writer's own voice (see [Certainty](#certainty)), whether a hedge lies
    /// in it; null for any other sentence, and when attributions or hedges were
    /// not looked for
    #[serde(skip_serializing_if = "Option::is_none")]
    sentences: Option<Vec<SentenceView<'a>>>,
    /// `span`; `role`: `headline`, `byline` or `body`; `sentence_start`,
    /// `sentence_end`: the range of `sentences`
    #[serde(skip_serializing_if = "Option::is_none")]
    paragraphs: Option<Vec<ParagraphView<'a>>>,
    /// `index` (its position, for reading by eye); `kind`: `direct` (content
    /// wholly quoted), `mixed` (partly quoted), `indirect`, `according_to`;
    /// `confidence`: number in [0, 1] rounded to 4 decimals, null if not a
    /// number; `source`, `cue`, `content`: arrays of spans (PolNeAR roles);
    /// `hedged_by_writer`: whether a hedge of the writer's lies in the cue or
    /// content ([Certainty](#certainty)), null when sentences or hedges were
    /// not looked for
    #[serde(skip_serializing_if = "Option::is_none")]
    attributions: Option<Vec<AttributionView<'a>>>,
    /// `attribution`: index; `label`: `asserts`, `confirms`, `denies`,
    /// `declines`, `claims`, `reports`, `believes`, `intends`; `evidence`:
    /// spans that decided it
    #[serde(skip_serializing_if = "Option::is_none")]
    stances: Option<Vec<StanceView<'a>>>,
    /// `name`: the fullest name given; `kind`: `person`, `organization`,
    /// `unnamed`, `document`, `media_outlet`, `social_media`; `gender`:
    /// `masculine`, `feminine` or null (only where the article states it);
    /// `mentions`, `descriptors`: spans; `attributions`: indices; `merges`: for
    /// each mention that joined a source named or described before it (in text
    /// order), `{mention, reason}`, the mention an index into `mentions` and
    /// the reason one of `same_name`, `surname` ("Smalls" for "Chris Smalls"),
    /// `honorific` ("Mr. Smalls"), `shortened_name` ("Brightwater" and
    /// "Brightwater Terminals Inc."), `acronym`, `pronoun`, `description` ("the
    /// company" for the one company in play), `spokesperson` (a spokesperson or
    /// lawyer for it)
    #[serde(skip_serializing_if = "Option::is_none")]
    sources: Option<Vec<SourceView<'a>>>,
    /// `cue`: span of the hedging words ("reportedly"); `scope`: span of what
    /// they hedge
    #[serde(skip_serializing_if = "Option::is_none")]
    hedges: Option<Vec<HedgeView<'a>>>,
    /// `span`; `label`: `person`, `organization`, `location`, `other`;
    /// `cluster`: mentions of one entity share a cluster number, numbered from
    /// 0 in the order of first mention ([entities.md](entities.md))
    #[serde(skip_serializing_if = "Option::is_none")]
    entities: Option<Vec<EntityView<'a>>>,
    /// `span`; `low`, `high`: numbers or null (equal for an exact value; `high`
    /// null for a lower bound such as "more than 300" or "hundreds of"; `low`
    /// null for an upper bound); `unit`: ISO 4217 code, `percent`, `percentage
    /// points`, `fraction`, an age (`years of age`), a duration (`years`,
    /// `minutes`, ...), or the counted noun; conventions in
    /// `crates/numbers/src/quantity.rs`
    #[serde(skip_serializing_if = "Option::is_none")]
    quantities: Option<Vec<QuantityView<'a>>>,
    /// `span`; `value`: ISO 8601 value or interval (`2026-03-02`, `2026-W09`,
    /// `2026-03-02T20:00/2026-03-03T06:00`, `P4Y`), or null; `granularity`:
    /// `year`, `month`, `week`, `day`, `part_of_day`, `minute` or null;
    /// `unresolved`: why it has no value, or null; conventions in
    /// `crates/numbers/src/time.rs`
    #[serde(skip_serializing_if = "Option::is_none")]
    times: Option<Vec<TimeView<'a>>>,
    /// `span`: the quoted words without their marks (to the paragraph's end
    /// when the quotation runs on into the next paragraph); `status`:
    /// `attributed` (the content of an attribution), `floating` (a quote
    /// paragraph with no cue of its own that continues the speaker before it),
    /// `title`, `scare`, `slogan` or `unattributed` (why it has no speaker);
    /// `attribution`: index or null; `source`: index of the source whose words
    /// it is, or null; rules in `crates/sources/src/quote.rs`
    #[serde(skip_serializing_if = "Option::is_none")]
    quotations: Option<Vec<QuotationView<'a>>>,
    // Not read: a diagnostic is about one run of the pipeline, and the
    // ledger keeps none.
    #[serde(default, deserialize_with = "unread")]
    diagnostics: Vec<DiagnosticView<'a>>,
}

#[derive(Serialize, Deserialize)]
#[cfg_attr(
    feature = "schema",
    derive(schemars::JsonSchema),
    schemars(rename = "Quotation")
)]
struct QuotationView<'a> {
    span: SpanView<'a>,
    status: QuoteStatus,
    attribution: Option<usize>,
    source: Option<usize>,
}

/// `Doc::set_sources` checks that every merged mention is one of the
/// source's mentions, so none is left out here.
fn merge_views(source: &Source) -> Vec<MergeView> {
    let index_of: HashMap<Span, usize> = source
        .mentions
        .iter()
        .enumerate()
        .map(|(index, mention)| (*mention, index))
        .collect();
    source
        .merges
        .iter()
        .filter_map(|merge| {
            Some(MergeView {
                mention: *index_of.get(&merge.mention)?,
                reason: merge.reason,
            })
        })
        .collect()
}

/// A span: byte offsets (UTF-8, what attest stores), code-point offsets (what
/// brat, PolNeAR and Python count) and the exact text, to check by eye.
#[derive(Serialize, Deserialize, Debug, PartialEq)]
#[cfg_attr(
    feature = "schema",
    derive(schemars::JsonSchema),
    schemars(rename = "Span")
)]
struct SpanView<'a> {
    byte_start: usize,
    byte_end: usize,
    cp_start: usize,
    cp_end: usize,
    text: Cow<'a, str>,
}

impl<'a> From<Placed<'a>> for SpanView<'a> {
    fn from(placed: Placed<'a>) -> SpanView<'a> {
        SpanView {
            byte_start: placed.byte_start,
            byte_end: placed.byte_end,
            cp_start: placed.cp_start,
            cp_end: placed.cp_end,
            text: placed.text.into(),
        }
    }
}

/// `[byte_start, byte_end, kind]`: tokens are many, so they go without names.
#[derive(Serialize, Deserialize)]
#[cfg_attr(
    feature = "schema",
    derive(schemars::JsonSchema),
    schemars(rename = "Token")
)]
struct TokenView(usize, usize, TokenKind);

#[derive(Serialize, Deserialize)]
#[cfg_attr(
    feature = "schema",
    derive(schemars::JsonSchema),
    schemars(rename = "Sentence")
)]
struct SentenceView<'a> {
    span: SpanView<'a>,
    token_start: usize,
    token_end: usize,
    /// For a sentence in the writer's own voice, whether a hedge lies in
    /// it; null for any other sentence (it attributes or quotes someone, has
    /// no word, or is in a byline) and when attributions or hedges were not
    /// looked for.
    hedged_by_writer: Option<bool>,
}

#[derive(Serialize, Deserialize)]
#[cfg_attr(
    feature = "schema",
    derive(schemars::JsonSchema),
    schemars(rename = "Paragraph")
)]
struct ParagraphView<'a> {
    span: SpanView<'a>,
    role: ParagraphRole,
    sentence_start: usize,
    sentence_end: usize,
}

#[derive(Serialize, Deserialize)]
#[cfg_attr(
    feature = "schema",
    derive(schemars::JsonSchema),
    schemars(rename = "Attribution")
)]
struct AttributionView<'a> {
    index: usize,
    kind: AttributionKind,
    #[cfg_attr(feature = "schema", schemars(range(min = 0.0, max = 1.0)))]
    confidence: Option<f64>,
    source: Vec<SpanView<'a>>,
    cue: Vec<SpanView<'a>>,
    content: Vec<SpanView<'a>>,
    /// Whether a hedge of the writer's lies in the cue or content
    /// ("reportedly said"); null when sentences or hedges were not looked
    /// for.
    hedged_by_writer: Option<bool>,
}

#[derive(Serialize, Deserialize)]
#[cfg_attr(
    feature = "schema",
    derive(schemars::JsonSchema),
    schemars(rename = "Stance")
)]
struct StanceView<'a> {
    attribution: usize,
    label: StanceLabel,
    evidence: Vec<SpanView<'a>>,
}

#[derive(Serialize, Deserialize)]
#[cfg_attr(
    feature = "schema",
    derive(schemars::JsonSchema),
    schemars(rename = "Source")
)]
struct SourceView<'a> {
    name: Cow<'a, str>,
    kind: SourceKind,
    gender: Option<Gender>,
    mentions: Vec<SpanView<'a>>,
    descriptors: Vec<SpanView<'a>>,
    attributions: Vec<usize>,
    merges: Vec<MergeView>,
}

/// A merge names its mention by index into the source's `mentions`, which
/// already carry the span: a source mentioned a thousand times would
/// otherwise write every span twice.
#[derive(Serialize, Deserialize)]
#[cfg_attr(
    feature = "schema",
    derive(schemars::JsonSchema),
    schemars(rename = "Merge")
)]
struct MergeView {
    mention: usize,
    reason: MergeReason,
}

record_view! {
    #[cfg_attr(feature = "schema", derive(schemars::JsonSchema), schemars(rename = "Hedge"))]
    struct HedgeView<'a> for Hedge in Layer::Hedges, Doc::hedges, Doc::set_hedges {
        cue: SpanView<'a>,
        scope: SpanView<'a>,
    }
}

record_view! {
    #[cfg_attr(feature = "schema", derive(schemars::JsonSchema), schemars(rename = "Entity"))]
    struct EntityView<'a> for Entity in Layer::Entities, Doc::entities, Doc::set_entities {
        span: SpanView<'a>,
        label: EntityLabel,
        cluster: usize,
    }
}

record_view! {
    #[cfg_attr(feature = "schema", derive(schemars::JsonSchema), schemars(rename = "Quantity"))]
    struct QuantityView<'a> for Quantity in Layer::Quantities, Doc::quantities, Doc::set_quantities {
        span: SpanView<'a>,
        low: Option<f64>,
        high: Option<f64>,
        unit: Cow<'a, str>,
    }
}

record_view! {
    #[cfg_attr(feature = "schema", derive(schemars::JsonSchema), schemars(rename = "Time"))]
    struct TimeView<'a> for TimeExpr in Layer::Times, Doc::times, Doc::set_times {
        span: SpanView<'a>,
        value: Option<Cow<'a, str>>,
        granularity: Option<Granularity>,
        unresolved: Option<Cow<'a, str>>,
    }
}

#[derive(Serialize)]
#[cfg_attr(
    feature = "schema",
    derive(schemars::JsonSchema),
    schemars(rename = "Diagnostic")
)]
struct DiagnosticView<'a> {
    origin: &'a str,
    message: &'a str,
}

impl DocumentView<'_> {
    /// The fields of the layers whose views [`record_view!`] declares, each
    /// read back as it says.
    fn record_layers(&mut self) -> [&mut dyn ReadRecords; 4] {
        [
            &mut self.hedges,
            &mut self.entities,
            &mut self.quantities,
            &mut self.times,
        ]
    }
}

impl<'a> DocumentView<'a> {
    fn new(doc: &'a Doc, config: &JsonConfig, geometry: &Geometry<'a>) -> DocumentView<'a> {
        let article = doc.article();
        let span = |span: Span| SpanView::from(geometry.place(span));
        let spans = |spans: &[Span]| spans.iter().map(|s| span(*s)).collect::<Vec<_>>();
        let written = |layer: Layer| match layer {
            Layer::Tokens => config.tokens && doc.has(Layer::Tokens),
            Layer::Pos => config.tokens && doc.has(Layer::Tokens) && doc.has(Layer::Pos),
            other => doc.has(other),
        };
        let layer = |layer: Layer| written(layer).then_some(());
        let certainty = Certainty::of(doc);

        DocumentView {
            schema: SCHEMA.into(),
            model: config.model,
            id: article.id.as_str().into(),
            title: article.title.as_deref().map(Cow::from),
            url: article.url.as_deref().map(Cow::from),
            outlet: article.outlet.as_deref().map(Cow::from),
            published: article.published.map(|published| published.to_string()),
            language: article.language.as_deref().map(Cow::from),
            text: geometry.text().into(),
            layers: Layer::ALL
                .iter()
                .copied()
                .filter(|l| written(*l))
                .map(|l| l.name().into())
                .collect(),
            summary: SourcingSummary::with_certainty(doc, certainty.as_ref()),
            tokens: layer(Layer::Tokens).map(|()| {
                doc.tokens()
                    .iter()
                    .map(|token| {
                        let placed = geometry.place(token.span);
                        TokenView(placed.byte_start, placed.byte_end, token.kind)
                    })
                    .collect()
            }),
            pos: layer(Layer::Pos)
                .map(|()| doc.pos().iter().map(|tag| tag.name().into()).collect()),
            sentences: layer(Layer::Sentences).map(|()| {
                doc.sentences()
                    .iter()
                    .enumerate()
                    .map(|(index, sentence)| SentenceView {
                        span: span(sentence.span),
                        token_start: sentence.tokens.start.index(),
                        token_end: sentence.tokens.end.index(),
                        hedged_by_writer: certainty
                            .as_ref()
                            .and_then(|c| c.sentences.get(index).copied().flatten()),
                    })
                    .collect()
            }),
            paragraphs: layer(Layer::Paragraphs).map(|()| {
                doc.paragraphs()
                    .iter()
                    .map(|paragraph| ParagraphView {
                        span: span(paragraph.span),
                        role: paragraph.role,
                        sentence_start: paragraph.sentences.start.index(),
                        sentence_end: paragraph.sentences.end.index(),
                    })
                    .collect()
            }),
            attributions: layer(Layer::Attributions).map(|()| {
                doc.attributions()
                    .iter()
                    .enumerate()
                    .map(|(index, attribution)| AttributionView {
                        index,
                        kind: attribution.kind,
                        confidence: rounded_confidence(attribution.confidence),
                        source: spans(&attribution.source),
                        cue: spans(&attribution.cue),
                        content: spans(&attribution.content),
                        hedged_by_writer: certainty
                            .as_ref()
                            .and_then(|c| c.attributions.get(index).copied()),
                    })
                    .collect()
            }),
            stances: layer(Layer::Stances).map(|()| {
                doc.stances()
                    .iter()
                    .map(|stance| StanceView {
                        attribution: stance.attribution.index(),
                        label: stance.label,
                        evidence: spans(&stance.evidence),
                    })
                    .collect()
            }),
            sources: layer(Layer::Sources).map(|()| {
                doc.sources()
                    .iter()
                    .map(|source| SourceView {
                        name: source.name.as_str().into(),
                        kind: source.kind,
                        gender: source.gender,
                        mentions: spans(&source.mentions),
                        descriptors: spans(&source.descriptors),
                        attributions: source.attributions.iter().map(|a| a.index()).collect(),
                        merges: merge_views(source),
                    })
                    .collect()
            }),
            hedges: record_views(doc, geometry),
            entities: record_views(doc, geometry),
            quantities: record_views(doc, geometry),
            times: record_views(doc, geometry),
            quotations: layer(Layer::Quotations).map(|()| {
                doc.quotations()
                    .iter()
                    .map(|quotation| QuotationView {
                        span: span(quotation.span),
                        status: quotation.status,
                        attribution: quotation.attribution.map(|a| a.index()),
                        source: quotation.source.map(|s| s.index()),
                    })
                    .collect()
            }),
            diagnostics: doc
                .diagnostics()
                .iter()
                .map(|diagnostic| DiagnosticView {
                    origin: diagnostic.origin,
                    message: &diagnostic.message,
                })
                .collect(),
        }
    }
}

/// The JSON Schema of the object [`write_json`] writes, derived from the
/// types it serializes. `docs/attest.document.schema.json` is this schema;
/// `cargo run -p attest-write --features schema --example schema >
/// docs/attest.document.schema.json` writes it again.
#[cfg(feature = "schema")]
pub fn json_schema() -> serde_json::Value {
    let generator = schemars::generate::SchemaSettings::draft2020_12()
        .for_serialize()
        .into_generator();
    let mut schema = generator.into_root_schema_for::<DocumentView<'static>>();
    schema.insert(
        "$id".into(),
        format!("https://attest.invalid/schema/{SCHEMA}").into(),
    );
    schema.to_value()
}

/// The schema of the object [`write_json`] writes, as `generator` refers to
/// it: a `$ref` to its definition `Document`, added to the generator's
/// definitions with those of the types it names, for a document that holds
/// it among others, as the server's OpenAPI document does.
#[cfg(feature = "schema")]
pub fn document_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
    generator.subschema_for::<DocumentView<'static>>()
}

/// The fields whose Rust type says less than the JSON does.
#[cfg(feature = "schema")]
mod schema {
    use attest_doc::Layer;
    use schemars::{Schema, SchemaGenerator, json_schema};
    use serde_json::Value;

    pub(super) fn version(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "const": super::SCHEMA })
    }

    /// `Published`'s `Display`: a date, or a time with its offset.
    pub(super) fn published(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": ["string", "null"],
            "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}:[0-9]{2}(Z|[+-][0-9]{2}:[0-9]{2}))?$",
        })
    }

    /// The writer leaves out a layer not assigned rather than writing null,
    /// so a field that may be missing is never null.
    pub(super) fn omitted_is_not_null(schema: &mut Schema) {
        let required: Vec<Value> = schema
            .get("required")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let Some(properties) = schema.get_mut("properties").and_then(Value::as_object_mut) else {
            return;
        };
        for (name, property) in properties {
            if required.contains(&Value::from(name.as_str())) {
                continue;
            }
            let Some(property) = property.as_object_mut() else {
                continue;
            };
            if let Some(Value::Array(types)) = property.get_mut("type") {
                types.retain(|t| t != "null");
                if let [only] = types.as_mut_slice() {
                    let only = only.take();
                    property.insert("type".into(), only);
                }
            }
            if let Some(Value::Array(options)) = property.remove("anyOf") {
                let mut rest: Vec<Value> = options
                    .into_iter()
                    .filter(|option| option.get("type") != Some(&Value::from("null")))
                    .collect();
                if let [Value::Object(only)] = rest.as_mut_slice() {
                    let only = std::mem::take(only);
                    property.extend(only);
                } else {
                    property.insert("anyOf".into(), rest.into());
                }
            }
        }
    }

    pub(super) fn layers(_: &mut SchemaGenerator) -> Schema {
        let names: Vec<&str> = Layer::ALL.iter().map(|layer| layer.name()).collect();
        json_schema!({
            "description": "The layer fields this object holds: the layers a stage assigned.",
            "type": "array",
            "uniqueItems": true,
            "items": { "enum": names },
        })
    }
}

/// A confidence rounded to 4 decimals, so that the shortest decimal of the
/// `f32`-to-`f64` widening (0.8999999761581421) does not leak into the output.
/// `None` (JSON `null`) for a confidence that is not a number.
pub(crate) fn rounded_confidence(confidence: f32) -> Option<f64> {
    let wide = f64::from(confidence);
    wide.is_finite()
        .then(|| (wide * 10_000.0).round() / 10_000.0)
}

#[cfg(test)]
#[path = "../../../tests/generated_docs.rs"]
mod generated_docs;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{full_doc, segmented_doc, text_and_spans};
    use proptest::prelude::*;

    fn json(doc: &Doc, config: &JsonConfig) -> String {
        let mut out = Vec::new();
        write_json(doc, config, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn leaves_out_unassigned_layers_and_lists_the_written_ones() {
        let doc = segmented_doc();
        let value = to_json_value(&doc, &JsonConfig::default());
        assert_eq!(value["schema"], SCHEMA);
        assert_eq!(
            value["layers"],
            serde_json::json!(["sentences", "paragraphs"])
        );
        assert!(value.get("tokens").is_none(), "tokens only on request");
        assert!(value.get("attributions").is_none(), "not looked for");
        assert!(value["diagnostics"].as_array().is_some_and(Vec::is_empty));

        let with_tokens = to_json_value(
            &doc,
            &JsonConfig {
                tokens: true,
                ..JsonConfig::default()
            },
        );
        assert_eq!(
            with_tokens["layers"],
            serde_json::json!(["tokens", "sentences", "paragraphs"])
        );
        assert_eq!(with_tokens["tokens"][0], serde_json::json!([0, 7, "word"]));
    }

    #[test]
    fn an_assigned_empty_layer_is_an_empty_array() {
        let mut doc = segmented_doc();
        doc.set_attributions(Vec::new()).unwrap();
        let value = to_json_value(&doc, &JsonConfig::default());
        assert_eq!(value["attributions"], serde_json::json!([]));
        assert!(
            value["layers"]
                .as_array()
                .is_some_and(|l| l.contains(&"attributions".into()))
        );
    }

    #[test]
    fn full_document_snapshot() {
        let doc = full_doc();
        insta::assert_snapshot!(json(&doc, &JsonConfig::default()));
    }

    #[test]
    fn part_of_speech_runs_parallel_to_the_tokens() {
        let doc = full_doc();
        let value = to_json_value(
            &doc,
            &JsonConfig {
                tokens: true,
                ..JsonConfig::default()
            },
        );
        let tokens = value["tokens"].as_array().map_or(0, Vec::len);
        assert_eq!(tokens, doc.tokens().len());
        assert_eq!(value["pos"].as_array().map_or(0, Vec::len), tokens);
        assert_eq!(value["pos"][0], "NN");
        let without = to_json_value(&doc, &JsonConfig::default());
        assert!(
            without.get("pos").is_none(),
            "tags without their tokens mean nothing"
        );
    }

    #[test]
    fn json_lines_is_the_same_object_on_one_line() {
        let doc = full_doc();
        let config = JsonConfig {
            tokens: true,
            ..JsonConfig::default()
        };
        let mut line = Vec::new();
        write_jsonl(&doc, &config, &mut line).unwrap();
        let line = String::from_utf8(line).unwrap();
        assert!(line.ends_with('\n'));
        assert_eq!(line.matches('\n').count(), 1, "one line per article");
        let parsed: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(parsed, to_json_value(&doc, &config));
        let pretty: serde_json::Value = serde_json::from_str(&json(&doc, &config)).unwrap();
        assert_eq!(parsed, pretty);
    }

    #[test]
    fn output_bytes_are_deterministic() {
        let doc = full_doc();
        let config = JsonConfig {
            tokens: true,
            ..JsonConfig::default()
        };
        assert_eq!(json(&doc, &config), json(&doc.clone(), &config));
    }

    #[test]
    fn confidence_is_rounded_and_non_numbers_are_null() {
        assert_eq!(rounded_confidence(0.9), Some(0.9));
        assert_eq!(rounded_confidence(0.123_456), Some(0.1235));
        assert_eq!(rounded_confidence(f32::NAN), None);
    }

    #[test]
    fn a_bound_that_is_no_number_is_written_null() {
        let mut doc = Doc::new(attest_doc::Article::new("q", "more than 5"));
        let quantity = attest_doc::Quantity {
            span: Span::try_new_in(doc.text(), 0, 11).unwrap(),
            low: Some(f64::INFINITY),
            high: Some(f64::NAN),
            unit: "things".into(),
        };
        doc.set_quantities(vec![quantity]).unwrap();
        let written = json(&doc, &JsonConfig::default());
        assert!(written.contains("\"low\": null,\n") && written.contains("\"high\": null,\n"));
        let value = to_json_value(&doc, &JsonConfig::default());
        assert_eq!(value["quantities"][0]["low"], serde_json::Value::Null);
    }

    /// The documented example outputs, checked against
    /// `docs/attest.document.schema.json` with a real validator.
    #[test]
    fn outputs_validate_against_the_json_schema() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../docs/attest.document.schema.json");
        let schema: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let validator = jsonschema::validator_for(&schema).unwrap();
        let mut empty = segmented_doc();
        empty.set_attributions(Vec::new()).unwrap();
        let bare = Doc::new(attest_doc::Article::new("bare", ""));
        let mut outputs = Vec::new();
        for doc in [full_doc(), segmented_doc(), empty, bare] {
            for tokens in [false, true] {
                outputs.push(to_json_value(
                    &doc,
                    &JsonConfig {
                        tokens,
                        ..JsonConfig::default()
                    },
                ));
            }
        }
        let known = schema["properties"].as_object().unwrap();
        for output in &outputs {
            let errors: Vec<String> = validator
                .iter_errors(output)
                .map(|e| e.to_string())
                .collect();
            assert!(errors.is_empty(), "{errors:#?}");
            for key in output.as_object().unwrap().keys() {
                assert!(known.contains_key(key), "{key} is not in the schema");
            }
        }
        let mut broken = outputs[0].clone();
        broken["attributions"][0]["cue"][0]["cp_start"] = serde_json::json!(-1);
        assert!(!validator.is_valid(&broken), "the schema checks spans");
    }

    /// The committed schema is the generated one, so that it changes with
    /// the types (a new stance, layer or field) without an edit by hand.
    #[test]
    fn the_committed_json_schema_is_the_generated_one() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../docs/attest.document.schema.json");
        let committed = std::fs::read_to_string(path).unwrap();
        let generated = format!(
            "{}\n",
            serde_json::to_string_pretty(&json_schema()).unwrap()
        );
        assert!(
            committed == generated,
            "docs/attest.document.schema.json is out of date; write it again with \
             `cargo run -p attest-write --features schema --example schema > docs/attest.document.schema.json`"
        );
    }

    /// docs/schema.md's table of the layers is their fields' descriptions in
    /// the JSON Schema, in the order of `Layer::ALL`, so that a new layer is
    /// written there, not by hand.
    #[test]
    fn the_docs_list_the_generated_layers() {
        let schema = json_schema();
        let mut table = String::from("| layer | each record |\n|---|---|\n");
        for layer in Layer::ALL {
            let field = &schema["properties"][layer.name()];
            let description = field["description"]
                .as_str()
                .expect("a layer's field says what it holds");
            table.push_str(&format!(
                "| `{layer}` | {} |\n",
                description.replace('\n', " ")
            ));
        }
        generated_docs::check("docs/schema.md", &table);
    }

    /// Every span object in a JSON value, wherever it is nested.
    fn span_objects(value: &serde_json::Value, found: &mut Vec<serde_json::Value>) {
        match value {
            serde_json::Value::Object(map) => {
                if map.contains_key("cp_start") {
                    found.push(value.clone());
                }
                map.values().for_each(|v| span_objects(v, found));
            }
            serde_json::Value::Array(items) => items.iter().for_each(|v| span_objects(v, found)),
            _ => {}
        }
    }

    proptest! {
        #[test]
        fn span_texts_match_both_byte_and_code_point_offsets((text, pairs) in text_and_spans()) {
            let mut doc = Doc::new(attest_doc::Article::new("p", text.clone()));
            let entities = pairs
                .iter()
                .filter_map(|(a, b)| Span::try_new_in(&text, *a, *b).ok())
                .map(|span| attest_doc::Entity {
                    span,
                    label: EntityLabel::Other,
                    cluster: attest_doc::ClusterId::must(0),
                })
                .collect::<Vec<_>>();
            prop_assert_eq!(entities.len(), pairs.len());
            prop_assert!(doc.set_entities(entities).is_ok());
            let value = to_json_value(&doc, &JsonConfig::default());
            let mut found = Vec::new();
            span_objects(&value, &mut found);
            prop_assert_eq!(found.len(), pairs.len());
            let chars: Vec<char> = text.chars().collect();
            for (span, (a, b)) in found.iter().zip(&pairs) {
                let get = |key: &str| span[key].as_u64().map(|v| v as usize);
                let (Some(bs), Some(be), Some(cs), Some(ce)) =
                    (get("byte_start"), get("byte_end"), get("cp_start"), get("cp_end"))
                else {
                    return Err(TestCaseError::fail("span object without offsets"));
                };
                prop_assert_eq!((bs, be), (*a, *b));
                let written = span["text"].as_str().unwrap_or("\u{0}missing");
                prop_assert_eq!(Some(written), text.get(bs..be));
                let by_cp: String = chars.get(cs..ce).unwrap_or_default().iter().collect();
                prop_assert_eq!(written, by_cp.as_str());
            }
        }
    }
}
