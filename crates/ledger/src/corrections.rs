//! Editors' corrections of attributions, and their reviews of articles.
//!
//! A correction is a row of its own: what attest found stays as it was
//! stored, and every view reads each attribution as its latest applying
//! correction leaves it (the `corrected` view of schema version 8), with
//! what attest found beside it: the article view, statements, search,
//! rankings and statistics. Counts kept at ingest stay what attest found;
//! the queries add what corrections change.
//!
//! A review says an editor read the whole article: only reviewed articles
//! are gold for training ([`crate::Ledger::reviewed_articles`]), since an
//! article with one correction may hold other attributions nobody checked.

use std::sync::LazyLock;

use attest_doc::{AttributionKind, SourceKind, StanceLabel, from_serde_name, serde_name};
use serde::Deserialize;

use crate::db::{Conn, DbResult, Row, values};
use crate::rows::{Correction, Found, Review};
use crate::store::by_article_id;

/// The longest note a correction keeps, in characters.
pub const MAX_NOTE_CHARS: usize = 2_000;

/// The longest source name a correction may type, in characters.
pub const MAX_NAME_CHARS: usize = 200;

/// What an editor says about one attribution of a stored article.
///
/// Every field left out keeps what attest found; a correction with no change
/// at all records that an editor checked the attribution and found it right.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CorrectionInput {
    /// The attribution's index in its article.
    pub attribution: i64,
    /// The attribution is not one: nothing else may be given with it.
    #[serde(default)]
    pub wrong: bool,
    /// Who said it instead.
    pub source: Option<SourceChoice>,
    /// The stance instead.
    pub stance: Option<StanceLabel>,
    /// The kind instead.
    pub kind: Option<AttributionKind>,
    /// Why, in the editor's words.
    #[cfg_attr(feature = "schema", schemars(length(max = MAX_NOTE_CHARS)))]
    pub note: Option<String>,
}

/// The source a correction gives an attribution.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum SourceChoice {
    /// Another source of the same article, by its index in the article.
    Pick(i64),
    /// A source typed by the editor.
    Named {
        /// Its name.
        #[cfg_attr(feature = "schema", schemars(length(min = 1, max = MAX_NAME_CHARS)))]
        name: String,
        /// Its type.
        #[serde(rename = "type")]
        kind: SourceKind,
    },
}

/// Why a correction was refused.
pub(crate) enum Refusal {
    /// No article of that id.
    NoArticle,
    /// The input is not a correction of this article.
    Invalid(String),
}

/// Checks `input` against the article stored under `key` and stores it.
pub(crate) fn add(
    conn: &Conn<'_>,
    article_id: &str,
    input: &CorrectionInput,
    created: &str,
) -> DbResult<Result<Correction, Refusal>> {
    let Some((rowid, key, stored_id)) = find_article(conn, article_id)? else {
        return Ok(Err(Refusal::NoArticle));
    };
    if let Err(why) = check_input(input) {
        return Ok(Err(Refusal::Invalid(why)));
    }
    let Some(cue_spans) = conn
        .row(
            "SELECT cue_spans FROM attributions WHERE article = ?1 AND idx = ?2",
            values![rowid, input.attribution],
        )?
        .map(|row| row.get::<String>("cue_spans"))
        .transpose()?
    else {
        return Ok(Err(Refusal::Invalid(format!(
            "article {stored_id} has no attribution {}",
            input.attribution
        ))));
    };
    let (pick, name, source_type) = match &input.source {
        None => (None, None, None),
        Some(SourceChoice::Named { name, kind }) => {
            (None, Some(name.trim().to_string()), Some(serde_name(kind)))
        }
        Some(SourceChoice::Pick(index)) => {
            let picked = conn.row(
                "SELECT name, kind FROM appearances WHERE article = ?1 AND idx = ?2",
                values![rowid, *index],
            )?;
            let Some(picked) = picked else {
                return Ok(Err(Refusal::Invalid(format!(
                    "article {stored_id} has no source {index}"
                ))));
            };
            (
                Some(*index),
                Some(picked.get::<String>("name")?),
                Some(picked.get::<String>("kind")?),
            )
        }
    };
    let note = input
        .note
        .as_deref()
        .map(str::trim)
        .filter(|note| !note.is_empty())
        .map(str::to_string);
    let stance = input.stance.map(|s| serde_name(&s));
    let kind = input.kind.map(|k| serde_name(&k));
    let id = conn.insert(
        "INSERT INTO corrections (article_key, article_id, attribution_idx, cue_spans, created, \
         wrong, source_pick, source_name, source_type, stance, kind, note) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
        values![
            key,
            stored_id.clone(),
            input.attribution,
            cue_spans,
            created.to_string(),
            i64::from(input.wrong),
            pick,
            name.clone(),
            source_type.clone(),
            stance.clone(),
            kind.clone(),
            note.clone()
        ],
    )?;
    Ok(Ok(Correction {
        id,
        article: stored_id,
        attribution: input.attribution,
        created: created.to_string(),
        wrong: input.wrong,
        source: name,
        source_type,
        source_index: pick,
        stance,
        kind,
        note,
        applies: true,
    }))
}

/// Records that an editor reviewed the article `article_id` names as it is
/// stored now; `None` when there is no such article.
pub(crate) fn review(conn: &Conn<'_>, article_id: &str, created: &str) -> DbResult<Option<Review>> {
    let Some((rowid, key, stored_id)) = find_article(conn, article_id)? else {
        return Ok(None);
    };
    conn.insert(
        "INSERT INTO reviews (article_key, article_id, created, analysis) VALUES (?1, ?2, ?3, ?4)",
        values![
            key,
            stored_id.clone(),
            created.to_string(),
            analysis(conn, rowid)?
        ],
    )?;
    Ok(Some(Review {
        article: stored_id,
        created: created.to_string(),
        applies: true,
    }))
}

/// The latest review of the article stored under `key` (row `rowid`), and
/// whether it applies to the attributions stored now.
pub(crate) fn latest_review(conn: &Conn<'_>, rowid: i64, key: &str) -> DbResult<Option<Review>> {
    let Some(row) = conn.row(
        "SELECT article_id, created, analysis FROM reviews WHERE article_key = ?1 \
         ORDER BY id DESC LIMIT 1",
        values![key.to_string()],
    )?
    else {
        return Ok(None);
    };
    Ok(Some(Review {
        article: row.get("article_id")?,
        created: row.get("created")?,
        applies: row.get::<String>("analysis")? == analysis(conn, rowid)?,
    }))
}

/// What a review vouches for: the cue spans of the article's attributions,
/// in order, one line each; a new analysis that moves, adds or drops a cue
/// changes it.
fn analysis(conn: &Conn<'_>, rowid: i64) -> DbResult<String> {
    let cues: Vec<String> = conn.column(
        "SELECT cue_spans FROM attributions WHERE article = ?1 ORDER BY idx",
        values![rowid],
    )?;
    Ok(cues.join("\n"))
}

/// What a correction must be whatever its article holds.
fn check_input(input: &CorrectionInput) -> Result<(), String> {
    if input.wrong && (input.source.is_some() || input.stance.is_some() || input.kind.is_some()) {
        return Err(
            "an attribution marked wrong takes no source, stance or kind: it is not one".into(),
        );
    }
    if let Some(SourceChoice::Named { name, .. }) = &input.source {
        let chars = name.trim().chars().count();
        if chars == 0 {
            return Err("the source's name is empty".into());
        }
        if chars > MAX_NAME_CHARS {
            return Err(format!(
                "the source's name has {chars} characters, over {MAX_NAME_CHARS}"
            ));
        }
    }
    if let Some(note) = &input.note {
        let chars = note.chars().count();
        if chars > MAX_NOTE_CHARS {
            return Err(format!(
                "the note has {chars} characters, over {MAX_NOTE_CHARS}"
            ));
        }
    }
    Ok(())
}

/// The row id, key and id of the article `id` names, as [`crate::Ledger::article`] finds it.
pub(crate) fn find_article(conn: &Conn<'_>, id: &str) -> DbResult<Option<(i64, String, String)>> {
    conn.row(&by_article_id("a.id, a.key, a.article_id"), values![id])?
        .map(|row| Ok((row.get("id")?, row.get("key")?, row.get("article_id")?)))
        .transpose()
}

/// Every correction of the article stored under `key`, oldest first, each
/// marked as applying or not to the attributions stored now.
pub(crate) fn of_article(conn: &Conn<'_>, rowid: i64, key: &str) -> DbResult<Vec<Correction>> {
    conn.rows(
        "SELECT c.id, c.article_id, c.attribution_idx, c.created, c.wrong, c.source_name, \
         c.source_type, c.source_pick, c.stance, c.kind, c.note, \
         t.cue_spans IS NOT NULL AND t.cue_spans = c.cue_spans AS applies \
         FROM corrections c LEFT JOIN attributions t \
         ON t.article = ?1 AND t.idx = c.attribution_idx \
         WHERE c.article_key = ?2 ORDER BY c.id",
        values![rowid, key.to_string()],
    )?
    .iter()
    .map(correction)
    .collect()
}

fn correction(row: &Row) -> DbResult<Correction> {
    Ok(Correction {
        id: row.get("id")?,
        article: row.get("article_id")?,
        attribution: row.get("attribution_idx")?,
        created: row.get("created")?,
        wrong: row.get::<i64>("wrong")? != 0,
        source: row.get("source_name")?,
        source_type: row.get("source_type")?,
        source_index: row.get("source_pick")?,
        stance: row.get("stance")?,
        kind: row.get("kind")?,
        note: row.get("note")?,
        applies: row.get::<i64>("applies")? != 0,
    })
}

/// Joins `k`, the row of the `corrected` view (schema version 8) of the
/// attribution `t`, when an editor corrected it: every query that reads an
/// attribution as corrected joins it so, after `p`, the appearance attest
/// found speaking in `t`.
pub(crate) const READING_JOIN: &str = "LEFT JOIN corrected k ON k.attribution = t.id";

/// The ledger id of the source of `t` as corrected: the source the editor
/// picked, null for one typed, or the one attest found.
pub(crate) const READ_SOURCE: &str = "CASE WHEN k.moved = 1 THEN k.source ELSE p.source END";

/// Whether an editor marked `t` as not an attribution.
pub(crate) const READ_WRONG: &str = "coalesce(k.wrong, 0)";

/// The columns [`reading`] reads, over `t`, `p` and `k` (see [`READING_JOIN`]).
pub(crate) static READING_COLUMNS: LazyLock<String> = LazyLock::new(|| {
    format!(
        "{READ_SOURCE} AS source_id, \
         CASE WHEN k.moved = 1 THEN k.source_name ELSE p.name END AS source, \
         CASE WHEN k.moved = 1 THEN k.source_type ELSE p.kind END AS source_type, \
         coalesce(k.kind, t.kind) AS kind, coalesce(k.stance, t.stance) AS stance, \
         k.correction AS correction, p.source AS found_source_id, \
         p.name AS found_source, p.kind AS found_source_type, t.kind AS found_kind, \
         t.stance AS found_stance"
    )
});

/// An attribution as its latest applying correction leaves it.
pub(crate) struct Reading {
    pub(crate) source_id: Option<i64>,
    pub(crate) source: Option<String>,
    pub(crate) source_type: Option<String>,
    pub(crate) kind: String,
    pub(crate) stance: Option<String>,
    /// The ledger id of the correction, if one applies.
    pub(crate) correction: Option<i64>,
    /// What attest found, if a correction applies.
    pub(crate) found: Option<Found>,
}

/// Reads the [`READING_COLUMNS`] of a row.
pub(crate) fn reading(row: &Row) -> DbResult<Reading> {
    Ok(Reading {
        source_id: row.get("source_id")?,
        source: row.get("source")?,
        source_type: row.get("source_type")?,
        kind: row.get("kind")?,
        stance: row.get("stance")?,
        correction: row.get("correction")?,
        found: found(row)?,
    })
}

/// What attest found, from the `found_` columns of [`READING_COLUMNS`],
/// when a correction applies (a row's `correction` is not null).
pub(crate) fn found(row: &Row) -> DbResult<Option<Found>> {
    if row.get::<Option<i64>>("correction")?.is_none() {
        return Ok(None);
    }
    Ok(Some(Found {
        source_id: row.get("found_source_id")?,
        source: row.get("found_source")?,
        source_type: row.get("found_source_type")?,
        kind: row.get("found_kind")?,
        stance: row.get("found_stance")?,
    }))
}

/// Each corrected attribution twice, as rows `article, sign, kind, stance`:
/// as attest found it, counted out (`sign` -1), and as corrected, counted in
/// (+1) unless an editor marked it as not an attribution. Summed, `sign`
/// gives what the corrections change in a count kept at ingest; the article
/// rows and the statistics both read it.
pub(crate) const RECOUNTED: &str = "(SELECT k.article AS article, -1 AS sign, t.kind AS kind, \
     t.stance AS stance FROM corrected k JOIN attributions t ON t.id = k.attribution \
     UNION ALL SELECT k.article, 1, coalesce(k.kind, t.kind), coalesce(k.stance, t.stance) \
     FROM corrected k JOIN attributions t ON t.id = k.attribution WHERE k.wrong = 0)";

/// Per source, how many statements the corrections take from it (negative)
/// or give it, over the articles `conditions` keeps (on `a`): a statement
/// moves when an editor gives it another source or marks it as not an
/// attribution. What the counts kept on sources and appearances lack.
pub(crate) fn moved_statements(conditions: &str) -> String {
    let and = if conditions.is_empty() {
        String::new()
    } else {
        format!("AND {conditions}")
    };
    format!(
        "SELECT d.source AS source, CAST(SUM(d.n) AS BIGINT) AS n FROM (\
         SELECT p.source AS source, -1 AS n FROM corrected k \
         JOIN attributions t ON t.id = k.attribution JOIN appearances p ON p.id = t.appearance \
         JOIN articles a ON a.id = k.article WHERE (k.wrong = 1 OR (k.moved = 1 \
         AND (k.source IS NULL OR k.source <> p.source))) {and} \
         UNION ALL SELECT k.source AS source, 1 AS n FROM corrected k \
         JOIN attributions t ON t.id = k.attribution \
         LEFT JOIN appearances p ON p.id = t.appearance JOIN articles a ON a.id = k.article \
         WHERE k.wrong = 0 AND k.moved = 1 AND k.source IS NOT NULL \
         AND (p.source IS NULL OR p.source <> k.source) {and}) d GROUP BY d.source"
    )
}

/// A reviewed article as gold for training: its text and its attributions
/// as its corrections leave them, spans in bytes.
#[derive(Clone, Debug, PartialEq)]
pub struct GoldArticle {
    /// The article id.
    pub id: String,
    /// The text as analysed.
    pub text: String,
    /// Its attributions, in text order, without those marked wrong.
    pub attributions: Vec<GoldAttribution>,
}

/// One attribution of a [`GoldArticle`]; each role is a list of byte ranges.
#[derive(Clone, Debug, PartialEq)]
pub struct GoldAttribution {
    /// The source's fragments; empty when its source is named nowhere in the text.
    pub source: Vec<[usize; 2]>,
    /// The cue's fragments.
    pub cue: Vec<[usize; 2]>,
    /// The content's fragments.
    pub content: Vec<[usize; 2]>,
    /// Its kind.
    pub kind: AttributionKind,
    /// Its stance, when known.
    pub stance: Option<StanceLabel>,
}

/// How many reviewed articles [`crate::Ledger::reviewed_articles`] handed
/// on, and how many articles it passed over because they have corrections
/// but no review that applies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GoldCount {
    /// Reviewed articles handed on.
    pub reviewed: usize,
    /// Corrected articles not handed on: nobody reviewed them as stored.
    pub unreviewed: usize,
}

/// Hands every article whose latest review applies to `each`, in the order
/// of their keys, as its corrections leave it, and counts the corrected
/// articles left out for want of a review.
pub(crate) fn gold(
    conn: &Conn<'_>,
    each: &mut dyn FnMut(GoldArticle) -> std::io::Result<()>,
) -> DbResult<Result<GoldCount, std::io::Error>> {
    let keys: Vec<String> = conn.column(
        "SELECT article_key FROM reviews UNION SELECT article_key FROM corrections \
         ORDER BY article_key",
        values![],
    )?;
    let mut count = GoldCount::default();
    for key in keys {
        let Some(rowid) = conn
            .row(
                "SELECT id FROM articles WHERE key = ?1",
                values![key.clone()],
            )?
            .map(|row| row.get::<i64>("id"))
            .transpose()?
        else {
            continue;
        };
        if !latest_review(conn, rowid, &key)?.is_some_and(|review| review.applies) {
            let corrections = of_article(conn, rowid, &key)?;
            if corrections.iter().any(|c| c.applies) {
                count.unreviewed += 1;
            }
            continue;
        }
        let Some(article) = gold_article(conn, rowid)? else {
            continue;
        };
        if let Err(error) = each(article) {
            return Ok(Err(error));
        }
        count.reviewed += 1;
    }
    Ok(Ok(count))
}

/// The article of row `rowid`, stored under `key`, as gold.
fn gold_article(conn: &Conn<'_>, rowid: i64) -> DbResult<Option<GoldArticle>> {
    let Some(found) = conn.row(
        "SELECT a.article_id, t.text FROM articles a JOIN article_texts t ON t.article = a.id \
         WHERE a.id = ?1",
        values![rowid],
    )?
    else {
        return Ok(None);
    };
    let text: String = found.get("text")?;
    let mut attributions = Vec::new();
    for row in conn.rows(
        &format!(
            "SELECT coalesce(k.kind, t.kind) AS kind, \
             coalesce(k.stance, t.stance) AS stance, {READ_WRONG} AS wrong, k.moved, \
             k.source_name, q.mentions, t.source_spans, t.cue_spans, t.content_spans \
             FROM attributions t {READING_JOIN} LEFT JOIN appearances q ON q.id = k.appearance \
             WHERE t.article = ?1 ORDER BY t.idx"
        ),
        values![rowid],
    )? {
        if row.get::<i64>("wrong")? != 0 {
            continue;
        }
        let cue = spans(&row.get::<String>("cue_spans")?);
        let mut source = spans(&row.get::<String>("source_spans")?);
        if row.get::<Option<i64>>("moved")? == Some(1) {
            // The editor's source, where the text names it nearest the cue.
            let mentions = match row.get::<Option<String>>("mentions")? {
                Some(json) => spans(&json),
                None => occurrences(&text, &row.get::<String>("source_name")?),
            };
            let near = cue.first().map_or(0, |[start, _]| *start);
            source = nearest(&mentions, near).into_iter().collect();
        }
        attributions.push(GoldAttribution {
            source,
            content: spans(&row.get::<String>("content_spans")?),
            kind: from_serde_name(&row.get::<String>("kind")?).unwrap_or(AttributionKind::Indirect),
            stance: row
                .get::<Option<String>>("stance")?
                .and_then(|s| from_serde_name(&s)),
            cue,
        });
    }
    Ok(Some(GoldArticle {
        id: found.get("article_id")?,
        text,
        attributions,
    }))
}

/// Spans stored as a JSON array of `[start, end]` byte pairs.
pub(crate) fn spans(json: &str) -> Vec<[usize; 2]> {
    serde_json::from_str(json).unwrap_or_default()
}

/// Where `name` occurs in `text`, as byte ranges.
fn occurrences(text: &str, name: &str) -> Vec<[usize; 2]> {
    text.match_indices(name)
        .map(|(start, found)| [start, start + found.len()])
        .collect()
}

/// The span closest to the byte offset `at`.
fn nearest(spans: &[[usize; 2]], at: usize) -> Option<[usize; 2]> {
    spans
        .iter()
        .copied()
        .min_by_key(|[start, end]| start.abs_diff(at).min(end.abs_diff(at)))
}
