//! The typed rows queries return, and their cells for tables and files.
//!
//! Every row type serializes with serde (for JSON and the HTTP server) and
//! implements [`Tabular`] (for terminal tables, CSV and Parquet), with the same
//! field names in the same order either way.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use attest_doc::StanceLabel;
use serde::Serialize;

/// One value of a table cell.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Cell {
    /// No value.
    Null,
    /// An integer.
    Integer(i64),
    /// A floating-point number.
    Real(f64),
    /// Text.
    Text(String),
}

impl From<Option<String>> for Cell {
    fn from(value: Option<String>) -> Cell {
        value.map_or(Cell::Null, Cell::Text)
    }
}

impl From<String> for Cell {
    fn from(value: String) -> Cell {
        Cell::Text(value)
    }
}

impl From<i64> for Cell {
    fn from(value: i64) -> Cell {
        Cell::Integer(value)
    }
}

impl From<Option<i64>> for Cell {
    fn from(value: Option<i64>) -> Cell {
        value.map_or(Cell::Null, Cell::Integer)
    }
}

impl From<Option<f64>> for Cell {
    fn from(value: Option<f64>) -> Cell {
        value.map_or(Cell::Null, Cell::Real)
    }
}

/// A row that can be shown as a table or written as CSV.
pub trait Tabular {
    /// The column names, which are also the serde field names, in order.
    fn columns() -> &'static [&'static str];

    /// The cells, one per column.
    fn cells(&self) -> Vec<Cell>;
}

/// A source, merged across articles or standing for one article, and how much it
/// is quoted.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SourceRow {
    /// Its id in the ledger, by which `Ledger::statements` finds what it said.
    pub id: i64,
    /// The name as first stored.
    pub name: String,
    /// `person`, `organization`, `unnamed`, `document`, `media_outlet` or `social_media`.
    pub kind: String,
    /// Whether it is an identity merged across articles by full name (see
    /// the `identity` module), rather than a source of one article that is
    /// never merged.
    pub merged: bool,
    /// Attributions it speaks in, within the filter.
    pub statements: i64,
    /// Articles it appears in, within the filter.
    pub articles: i64,
}

impl Tabular for SourceRow {
    fn columns() -> &'static [&'static str] {
        &["id", "name", "kind", "merged", "statements", "articles"]
    }

    fn cells(&self) -> Vec<Cell> {
        vec![
            self.id.into(),
            self.name.clone().into(),
            self.kind.clone().into(),
            Cell::Integer(i64::from(self.merged)),
            self.statements.into(),
            self.articles.into(),
        ]
    }
}

/// One thing a source said: an attribution with its article.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Statement {
    /// The source's id in the ledger.
    pub source_id: i64,
    /// The source's name in this article.
    pub source: String,
    /// The article id.
    pub article: String,
    /// The attribution's index in its article (`Ledger::article` lists them).
    pub attribution: i64,
    /// The outlet.
    pub outlet: Option<String>,
    /// The publication date (`YYYY-MM-DD`, local to the article).
    pub date: Option<String>,
    /// `direct`, `mixed`, `indirect` or `according_to`.
    pub kind: String,
    /// The stance label; null (`None`) when stances were not looked for.
    pub stance: Option<String>,
    /// The cue, fragments joined by " … ".
    pub cue: String,
    /// The content, fragments joined by " … ".
    pub content: String,
    /// What attest found, when an editor's correction changed it: the
    /// fields above are then as the correction leaves them.
    pub found: Option<Found>,
}

impl Tabular for Statement {
    fn columns() -> &'static [&'static str] {
        &[
            "source_id",
            "source",
            "article",
            "attribution",
            "outlet",
            "date",
            "kind",
            "stance",
            "cue",
            "content",
            "found",
        ]
    }

    fn cells(&self) -> Vec<Cell> {
        vec![
            self.source_id.into(),
            self.source.clone().into(),
            self.article.clone().into(),
            self.attribution.into(),
            self.outlet.clone().into(),
            self.date.clone().into(),
            self.kind.clone().into(),
            self.stance.clone().into(),
            self.cue.clone().into(),
            self.content.clone().into(),
            self.found.as_ref().map(Found::summary).into(),
        ]
    }
}

/// An article stored in the ledger, with its sourcing counts; a count is
/// null (`None`) when its layer was not looked for.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ArticleRow {
    /// The article id.
    pub id: String,
    /// The headline.
    pub title: Option<String>,
    /// The outlet.
    pub outlet: Option<String>,
    /// Where it was published.
    pub url: Option<String>,
    /// The publication time as given (RFC 3339 or a date).
    pub published: Option<String>,
    /// Words.
    pub words: Option<i64>,
    /// Attributions.
    pub attributions: Option<i64>,
    /// Canonical sources.
    pub sources: Option<i64>,
    /// Unnamed or anonymous sources among them.
    pub unnamed_sources: Option<i64>,
    /// Direct quotes.
    pub direct_quotes: Option<i64>,
    /// Unattributed hedges.
    pub hedges: Option<i64>,
}

/// One attribution of a stored article, in text order.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ArticleAttribution {
    /// Its position among the article's attributions.
    pub index: i64,
    /// The ledger id of its source, when it has one.
    pub source_id: Option<i64>,
    /// Its source's name in this article.
    pub source: Option<String>,
    /// `direct`, `mixed`, `indirect` or `according_to`.
    pub kind: String,
    /// The stance label; null (`None`) when stances were not looked for.
    pub stance: Option<String>,
    /// The cue, fragments joined by " … ".
    pub cue: String,
    /// The content, fragments joined by " … ".
    pub content: String,
    /// Where its source, cue and content lie in the text, as attest found
    /// them (a correction changes who said it, not where).
    pub spans: RoleSpans,
    /// Its source's type (`person`, `organization`, …), when it has a source.
    pub source_type: Option<String>,
    /// The latest correction that applies to it, if any: the fields above
    /// are then as the correction leaves them.
    pub correction: Option<Correction>,
    /// What attest found, when a correction changed it.
    pub found: Option<Found>,
}

/// A span of an article: bytes of its UTF-8 text, code points, and the text.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ArticleSpan {
    /// Byte offset of the start.
    pub byte_start: i64,
    /// Byte offset of the end.
    pub byte_end: i64,
    /// Code-point offset of the start.
    pub cp_start: i64,
    /// Code-point offset of the end.
    pub cp_end: i64,
    /// The text.
    pub text: String,
}

/// The fragments of an attribution's roles, each in text order.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RoleSpans {
    /// The source words' fragments; empty when the text names no source.
    pub source: Vec<ArticleSpan>,
    /// The cue's fragments.
    pub cue: Vec<ArticleSpan>,
    /// The content's fragments.
    pub content: Vec<ArticleSpan>,
}

/// What attest found for an attribution that an editor corrected.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Found {
    /// The ledger id of its source.
    pub source_id: Option<i64>,
    /// Its source's name in the article.
    pub source: Option<String>,
    /// Its source's type.
    pub source_type: Option<String>,
    /// Its kind.
    pub kind: String,
    /// Its stance.
    pub stance: Option<String>,
}

impl Found {
    /// What attest found in a line for a table cell: "Ann Lee (person),
    /// indirect, asserts"; "no source" for an attribution it found none for.
    pub fn summary(&self) -> String {
        let source = match (&self.source, &self.source_type) {
            (Some(name), Some(kind)) => format!("{name} ({kind})"),
            (Some(name), None) => name.clone(),
            (None, _) => "no source".to_string(),
        };
        match &self.stance {
            Some(stance) => format!("{source}, {}, {stance}", self.kind),
            None => format!("{source}, {}", self.kind),
        }
    }
}

/// A canonical source of a stored article, which a correction can pick.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ArticleSource {
    /// Its index among the article's sources.
    pub index: i64,
    /// Its ledger id.
    pub source_id: i64,
    /// Its name in the article.
    pub name: String,
    /// Its type.
    pub kind: String,
}

/// A stored article whole: its row, its text and its attributions.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ArticleDetail {
    /// The article and its counts.
    pub article: ArticleRow,
    /// The text as analysed.
    pub text: String,
    /// Its attributions, in text order, as the corrections leave them.
    pub attributions: Vec<ArticleAttribution>,
    /// Its canonical sources.
    pub sources: Vec<ArticleSource>,
    /// Every correction made to it, oldest first, including those that no
    /// longer apply.
    pub corrections: Vec<Correction>,
    /// Its latest review by an editor, if any.
    pub review: Option<Review>,
}

/// One match of a full-text search.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SearchHit {
    /// `attribution` (attributed content) or `quote` (a quotation no attribution covers).
    #[cfg_attr(feature = "schema", schemars(schema_with = "found_in"))]
    pub found_in: String,
    /// The article id.
    pub article: String,
    /// The article's title, when it has one.
    pub title: Option<String>,
    /// The attribution's index in its article (`Ledger::article` lists
    /// them); null for a quote.
    pub attribution: Option<i64>,
    /// The outlet.
    pub outlet: Option<String>,
    /// The publication date.
    pub date: Option<String>,
    /// Who said it, when known.
    pub source: Option<String>,
    /// The source's ledger id, when it has one.
    pub source_id: Option<i64>,
    /// The stance, when known.
    pub stance: Option<String>,
    /// The attribution's cue, fragments joined by " … "; null for a quote.
    pub cue: Option<String>,
    /// The matching text.
    pub text: String,
    /// The matched words, as byte ranges `[start, end)` of `text`.
    pub matches: Vec<[usize; 2]>,
    /// What attest found, when an editor's correction changed who said it
    /// or how: `source`, `source_id` and `stance` are then as corrected.
    pub found: Option<Found>,
}

impl Tabular for SearchHit {
    fn columns() -> &'static [&'static str] {
        &[
            "found_in",
            "article",
            "title",
            "attribution",
            "outlet",
            "date",
            "source",
            "source_id",
            "stance",
            "cue",
            "text",
            "matches",
            "found",
        ]
    }

    fn cells(&self) -> Vec<Cell> {
        let matches = self
            .matches
            .iter()
            .map(|[start, end]| format!("{start}-{end}"))
            .collect::<Vec<_>>()
            .join(" ");
        vec![
            self.found_in.clone().into(),
            self.article.clone().into(),
            self.title.clone().into(),
            self.attribution.into(),
            self.outlet.clone().into(),
            self.date.clone().into(),
            self.source.clone().into(),
            self.source_id.into(),
            self.stance.clone().into(),
            self.cue.clone().into(),
            self.text.clone().into(),
            matches.into(),
            self.found.as_ref().map(Found::summary).into(),
        ]
    }
}

/// Sourcing statistics of one group of articles (an outlet, a month).
///
/// Shares are fractions in `[0, 1]` rounded to 4 decimals, null (`None`) when
/// nothing was counted (no attributions, or the layer was never looked for).
/// Each share counts only articles in which its layer was looked for.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct StatsRow {
    /// The outlet or month (`YYYY-MM`); null (`None`) for articles without one,
    /// or for the single row of grouping by all (`GroupBy::All`).
    pub group: Option<String>,
    /// Articles.
    pub articles: i64,
    /// Words (tokens that are words or numbers).
    pub words: i64,
    /// Sources found (one per source per article).
    pub sources: i64,
    /// The share of those sources that are unnamed.
    pub unnamed_share: Option<f64>,
    /// Attributions found.
    pub attributions: i64,
    /// The share of attributions that are direct quotes.
    pub direct_share: Option<f64>,
    /// The share that are partly quoted.
    pub mixed_share: Option<f64>,
    /// Stance mix: for every stance, the share of the attributions whose
    /// stance was looked for that take it; one field per stance, named as
    /// the stance.
    #[serde(flatten)]
    #[cfg_attr(feature = "schema", schemars(schema_with = "stance_shares"))]
    pub stances: BTreeMap<StanceLabel, Option<f64>>,
    /// Unattributed hedges found.
    pub hedges: i64,
    /// Hedges per 1,000 words, rounded to 4 decimals.
    pub hedges_per_1000_words: Option<f64>,
    /// The share of attributions that the writer hedged ("reportedly
    /// said"), of the articles whose certainty was looked for.
    pub hedged_attribution_share: Option<f64>,
    /// Sentences in the writer's own voice: with a word, none of it
    /// attributed or quoting someone, and not in a byline.
    pub writers_voice_sentences: i64,
    /// The share of those sentences that the writer hedged.
    pub hedged_sentence_share: Option<f64>,
}

/// The values of [`SearchHit::found_in`], from the texts the search reads.
#[cfg(feature = "schema")]
fn found_in(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    let names: Vec<&str> = crate::query::SEARCHED
        .iter()
        .map(|(found_in, _, _)| *found_in)
        .collect();
    schemars::json_schema!({ "type": "string", "enum": names })
}

/// The stance fields [`StatsRow`] flattens, one per [`StanceLabel::ALL`] and
/// every one written, so that a new stance appears in the schema with no edit.
#[cfg(feature = "schema")]
fn stance_shares(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
    let names: Vec<&str> = StanceLabel::ALL.iter().map(|label| label.name()).collect();
    let mut share = generator.subschema_for::<Option<f64>>().to_value();
    share["description"] =
        "The share of the attributions whose stance was looked for that take this stance.".into();
    let properties: serde_json::Map<String, serde_json::Value> = names
        .iter()
        .map(|name| ((*name).to_string(), share.clone()))
        .collect();
    schemars::json_schema!({
        "type": "object",
        "properties": properties,
        "required": names,
    })
}

/// The columns of [`StatsRow`]: a stance's between `mixed_share` and
/// `hedges`, in [`StanceLabel::ALL`] order, as serde writes the map.
static STATS_COLUMNS: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
    let before = [
        "group",
        "articles",
        "words",
        "sources",
        "unnamed_share",
        "attributions",
        "direct_share",
        "mixed_share",
    ];
    let after = [
        "hedges",
        "hedges_per_1000_words",
        "hedged_attribution_share",
        "writers_voice_sentences",
        "hedged_sentence_share",
    ];
    before
        .into_iter()
        .chain(StanceLabel::ALL.iter().map(|label| label.name()))
        .chain(after)
        .collect()
});

impl Tabular for StatsRow {
    fn columns() -> &'static [&'static str] {
        &STATS_COLUMNS
    }

    fn cells(&self) -> Vec<Cell> {
        let mut cells = vec![
            self.group.clone().into(),
            self.articles.into(),
            self.words.into(),
            self.sources.into(),
            self.unnamed_share.into(),
            self.attributions.into(),
            self.direct_share.into(),
            self.mixed_share.into(),
        ];
        cells.extend(
            StanceLabel::ALL
                .iter()
                .map(|label| self.stances.get(label).copied().flatten().into()),
        );
        cells.extend([
            self.hedges.into(),
            self.hedges_per_1000_words.into(),
            self.hedged_attribution_share.into(),
            self.writers_voice_sentences.into(),
            self.hedged_sentence_share.into(),
        ]);
        cells
    }
}

/// How many rows each table holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Articles.
    pub articles: i64,
    /// Source identities.
    pub sources: i64,
    /// Sources of single articles.
    pub appearances: i64,
    /// Attributions.
    pub attributions: i64,
    /// Quotations.
    pub quotes: i64,
    /// Hedges.
    pub hedges: i64,
    /// Entity mentions.
    pub entities: i64,
    /// Quantities.
    pub quantities: i64,
    /// Time expressions.
    pub times: i64,
}

/// An editor's correction of one attribution, stored beside what attest found.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Correction {
    /// Its ledger id; a later correction of the same attribution wins.
    pub id: i64,
    /// The article id.
    pub article: String,
    /// The attribution's index in its article.
    pub attribution: i64,
    /// When it was made (RFC 3339, UTC).
    pub created: String,
    /// The attribution is not one.
    pub wrong: bool,
    /// The source's name, when the correction gives one.
    pub source: Option<String>,
    /// The source's type, when the correction gives one.
    pub source_type: Option<String>,
    /// The index of the article's source the editor picked, if one was.
    pub source_index: Option<i64>,
    /// The stance, when the correction gives one.
    pub stance: Option<String>,
    /// The kind, when the correction gives one.
    pub kind: Option<String>,
    /// The editor's note.
    pub note: Option<String>,
    /// Whether it applies to the article as stored: `false` once the article
    /// was stored again with a different analysis that moved the
    /// attribution's cue, so that it would now name another statement.
    pub applies: bool,
}

/// An editor's review of a whole stored article.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Review {
    /// The article id.
    pub article: String,
    /// When it was made (RFC 3339, UTC).
    pub created: String,
    /// Whether it applies to the article as stored: `false` once the article
    /// was stored again with attributions whose cues moved, which nobody
    /// has reviewed.
    pub applies: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The serde names and the table columns must agree, or JSON and CSV of the
    /// same query would disagree on what a column is called.
    fn check<T: Tabular + Serialize>(row: &T) {
        let value = serde_json::to_value(row).unwrap();
        let keys: Vec<&str> = value
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let mut columns = T::columns().to_vec();
        columns.sort_unstable();
        assert_eq!(keys, columns, "serde_json sorts keys, so compare sorted");
        assert_eq!(row.cells().len(), T::columns().len());
    }

    #[test]
    fn columns_match_the_serde_fields() {
        check(&SourceRow {
            id: 1,
            name: "n".into(),
            kind: "person".into(),
            merged: true,
            statements: 2,
            articles: 1,
        });
        check(&Statement {
            source_id: 1,
            source: "s".into(),
            article: "a".into(),
            attribution: 0,
            outlet: None,
            date: None,
            kind: "direct".into(),
            stance: None,
            cue: "said".into(),
            content: "c".into(),
            found: None,
        });
        check(&SearchHit {
            found_in: "quote".into(),
            article: "a".into(),
            title: None,
            attribution: None,
            outlet: None,
            date: None,
            source: None,
            source_id: None,
            stance: None,
            cue: None,
            text: "t".into(),
            matches: vec![[0, 1]],
            found: None,
        });
        check(&StatsRow {
            group: None,
            articles: 0,
            words: 0,
            sources: 0,
            unnamed_share: None,
            attributions: 0,
            direct_share: None,
            mixed_share: None,
            stances: StanceLabel::ALL
                .iter()
                .map(|label| (*label, None))
                .collect(),
            hedges: 0,
            hedges_per_1000_words: None,
            hedged_attribution_share: None,
            writers_voice_sentences: 0,
            hedged_sentence_share: None,
        });
    }
}
