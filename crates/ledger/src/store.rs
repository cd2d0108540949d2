//! Writing analysed documents: one transaction per batch, one savepoint per
//! article, so an article is stored with all its layers or not at all.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::Path;

use attest_doc::{
    Article, AttributionKind, Doc, Layer, SourceKind, SourcingSummary, Span, StanceLabel,
    serde_name,
};
use rusqlite::types::Value;
use rusqlite::{Connection, OptionalExtension, params, params_from_iter};
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::schema::{OpenOptions, classify};
use crate::{LedgerError, cells, identity, quotes};

/// What makes two articles the same article for the ledger.
///
/// An article is known by its id when the input gave one, and by a hash of its
/// content when the id was made up by the reader (a file name, a line number),
/// since a made-up id says where an article was read, not which article it is.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ArticleKey(String);

impl ArticleKey {
    /// The key of an article whose id the input gave.
    pub fn by_id(id: &str) -> ArticleKey {
        ArticleKey(format!("id:{id}"))
    }

    /// The key of an article known by its content: [`content_hash`].
    pub fn by_content(article: &Article) -> ArticleKey {
        ArticleKey(format!("sha256:{}", content_hash(article)))
    }

    /// The key as stored in the `articles.key` column.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The SHA-256, in hex, of an article's text and metadata other than its id:
/// title, outlet, URL, publication time and language, each with its length, so
/// that the same wire story run by two outlets is two articles.
pub fn content_hash(article: &Article) -> String {
    let mut hasher = Sha256::new();
    let published = article.published.map(|p| p.to_string());
    for field in [
        Some(article.text.as_str()),
        article.title.as_deref(),
        article.outlet.as_deref(),
        article.url.as_deref(),
        published.as_deref(),
        article.language.as_deref(),
    ] {
        match field {
            Some(value) => {
                hasher.update([1]);
                hasher.update((value.len() as u64).to_le_bytes());
                hasher.update(value.as_bytes());
            }
            None => hasher.update([0]),
        }
    }
    let mut hex = String::with_capacity(64);
    for byte in hasher.finalize() {
        let _ = write!(hex, "{byte:02x}");
    }
    hex
}

/// One document to store, and the key it is known by.
#[derive(Clone, Copy, Debug)]
pub struct Entry<'a> {
    /// The analysed document.
    pub doc: &'a Doc,
    /// Its key.
    pub key: &'a ArticleKey,
}

/// What to do with an article the ledger already holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnConflict {
    /// Keep the stored article and skip the new one.
    Skip,
    /// Replace the stored article, with all its layers, by the new one.
    Replace,
}

/// What happened to one article.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Stored {
    /// It was new and is stored.
    Added,
    /// It was already stored and was left as it was.
    Skipped,
    /// It was already stored and was replaced.
    Replaced,
}

/// Stores a batch in one transaction, each article whole or not at all.
///
/// The batch is first written straight through: savepoints cost a copy of
/// every page an article touches and make FTS5 flush its index once per
/// article, which together more than double the cost of storing. Only when an
/// article fails is the transaction rolled back and the batch written again
/// with a savepoint per article, so that the failure stays its own.
///
/// For the same reason the full-text indexes are not kept by triggers: FTS5
/// flushes its pending terms at every statement savepoint, so the texts to
/// index are gathered in [`Pending`] and indexed by one statement per batch.
pub(crate) fn store_batch(
    conn: &mut Connection,
    path: &Path,
    options: &OpenOptions,
    batch: &[Entry<'_>],
    on_conflict: OnConflict,
) -> Result<Vec<Result<Stored, LedgerError>>, LedgerError> {
    let fail = |source| classify(path, options, source);
    let fatal = |err: &LedgerError| {
        matches!(
            err,
            LedgerError::Locked { .. } | LedgerError::ReadOnly { .. }
        )
    };
    {
        let tx = conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(fail)?;
        let mut outcomes = Vec::with_capacity(batch.len());
        let mut failed = false;
        let mut pending = Pending::default();
        for entry in batch {
            match store_one(&tx, entry, on_conflict, &mut pending) {
                Ok(stored) => outcomes.push(Ok(stored)),
                Err(err) => {
                    let err = fail(err);
                    if fatal(&err) {
                        return Err(err);
                    }
                    failed = true;
                    break;
                }
            }
        }
        if !failed {
            match pending.index(&tx) {
                Ok(()) => {
                    tx.commit().map_err(fail)?;
                    return Ok(outcomes);
                }
                Err(err) => {
                    let err = fail(err);
                    if fatal(&err) {
                        return Err(err);
                    }
                }
            }
        }
    }
    let mut tx = conn
        .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
        .map_err(fail)?;
    let mut outcomes = Vec::with_capacity(batch.len());
    for entry in batch {
        let savepoint = tx.savepoint().map_err(fail)?;
        let mut pending = Pending::default();
        let stored = store_one(&savepoint, entry, on_conflict, &mut pending)
            .and_then(|stored| pending.index(&savepoint).map(|()| stored));
        match stored {
            Ok(stored) => {
                savepoint.commit().map_err(fail)?;
                outcomes.push(Ok(stored));
            }
            Err(err) => {
                drop(savepoint);
                let err = fail(err);
                if fatal(&err) {
                    return Err(err);
                }
                outcomes.push(Err(LedgerError::Article {
                    id: entry.doc.article().id.clone(),
                    why: err.to_string(),
                }));
            }
        }
    }
    tx.commit().map_err(fail)?;
    Ok(outcomes)
}

/// Whether an article with this key is stored.
pub(crate) fn contains(conn: &Connection, key: &ArticleKey) -> rusqlite::Result<bool> {
    article_row(conn, key).map(|row| row.is_some())
}

fn article_row(conn: &Connection, key: &ArticleKey) -> rusqlite::Result<Option<i64>> {
    conn.prepare_cached("SELECT id FROM articles WHERE key = ?1")?
        .query_row([key.as_str()], |row| row.get(0))
        .optional()
}

/// Texts stored in this transaction and not yet in the full-text indexes.
#[derive(Default)]
struct Pending {
    /// `(attributions.id, content_text)`.
    attributions: Vec<(i64, String)>,
    /// `(quotes.id, text)`.
    quotes: Vec<(i64, String)>,
}

impl Pending {
    /// Indexes the pending texts, one statement per index.
    fn index(&mut self, tx: &Connection) -> rusqlite::Result<()> {
        for (rows, fts, column) in [
            (&mut self.attributions, "attributions_fts", "content_text"),
            (&mut self.quotes, "quotes_fts", "text"),
        ] {
            if rows.is_empty() {
                continue;
            }
            let json = serde_json::to_string(&*rows)
                .map_err(|err| rusqlite::Error::ToSqlConversionFailure(Box::new(err)))?;
            tx.prepare_cached(&format!(
                "INSERT INTO {fts}(rowid, {column}) \
                 SELECT value ->> 0, value ->> 1 FROM json_each(?1)"
            ))?
            .execute([json])?;
            rows.clear();
        }
        Ok(())
    }
}

fn store_one(
    tx: &Connection,
    entry: &Entry<'_>,
    on_conflict: OnConflict,
    pending: &mut Pending,
) -> rusqlite::Result<Stored> {
    let stored = match (article_row(tx, entry.key)?, on_conflict) {
        (None, _) => Stored::Added,
        (Some(_), OnConflict::Skip) => return Ok(Stored::Skipped),
        (Some(id), OnConflict::Replace) => {
            // The article may have been stored earlier in this batch: index
            // what is pending first, so that its removal finds it indexed.
            pending.index(tx)?;
            remove(tx, id)?;
            Stored::Replaced
        }
    };
    insert(tx, entry, pending)?;
    Ok(stored)
}

/// Removes an article and its layers, and takes it out of its sources' counts.
fn remove(tx: &Connection, article: i64) -> rusqlite::Result<()> {
    let touched: Vec<(i64, i64)> = tx
        .prepare_cached(
            "SELECT source, SUM(n_statements) FROM appearances WHERE article = ?1 GROUP BY source",
        )?
        .query_map([article], |row| Ok((row.get(0)?, row.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    for (source, statements) in &touched {
        tx.prepare_cached(
            "UPDATE sources SET n_articles = n_articles - 1, n_statements = n_statements - ?2 \
             WHERE id = ?1",
        )?
        .execute(params![source, statements])?;
    }
    // External-content FTS5 tables are told what to forget with the old text.
    tx.prepare_cached(
        "INSERT INTO attributions_fts(attributions_fts, rowid, content_text) \
         SELECT 'delete', id, content_text FROM attributions WHERE article = ?1",
    )?
    .execute([article])?;
    tx.prepare_cached(
        "INSERT INTO quotes_fts(quotes_fts, rowid, text) \
         SELECT 'delete', id, text FROM quotes WHERE article = ?1 AND attribution IS NULL",
    )?
    .execute([article])?;
    cells::count(tx, article, -1)?;
    tx.prepare_cached("DELETE FROM articles WHERE id = ?1")?
        .execute([article])?;
    for (source, _) in &touched {
        tx.prepare_cached("DELETE FROM sources WHERE id = ?1 AND n_articles = 0")?
            .execute([source])?;
    }
    Ok(())
}

fn insert(tx: &Connection, entry: &Entry<'_>, pending: &mut Pending) -> rusqlite::Result<()> {
    let doc = entry.doc;
    let article = doc.article();
    let text = doc.text();
    let counts = ArticleCounts::of(doc);
    let published = article.published.map(|p| p.to_string());
    let published_date = article.published.map(|p| p.date().to_string());
    let layers = doc
        .layers()
        .iter()
        .map(Layer::name)
        .collect::<Vec<_>>()
        .join(" ");
    tx.prepare_cached(
        "INSERT INTO articles (key, article_id, content_hash, title, outlet, url, published, \
         published_date, language, layers, bytes, words, n_sources, n_unnamed, n_attributions, \
         n_direct, n_mixed, n_stanced, n_asserts, n_confirms, n_denies, n_declines, n_claims, \
         n_reports, n_believes, n_intends, n_hedges, n_entities, n_quantities, n_times) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, \
         ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30)",
    )?
    .execute(params![
        entry.key.as_str(),
        article.id,
        content_hash(article),
        article.title,
        article.outlet,
        article.url,
        published,
        published_date,
        article.language,
        layers,
        text.len() as i64,
        counts.words,
        counts.sources,
        counts.unnamed,
        counts.attributions,
        counts.direct,
        counts.mixed,
        counts.stanced,
        counts.stances[0],
        counts.stances[1],
        counts.stances[2],
        counts.stances[3],
        counts.stances[4],
        counts.stances[5],
        counts.stances[6],
        counts.stances[7],
        counts.hedges,
        counts.entities,
        counts.quantities,
        counts.times,
    ])?;
    let article_row = tx.last_insert_rowid();
    cells::count(tx, article_row, 1)?;
    tx.prepare_cached("INSERT INTO article_texts (article, text) VALUES (?1, ?2)")?
        .execute(params![article_row, text])?;

    let appearance_of = insert_sources(tx, doc, article_row, published_date.as_deref())?;
    let attribution_rows = insert_attributions(tx, doc, article_row, &appearance_of, pending)?;
    insert_quotes(tx, doc, article_row, &attribution_rows, pending)?;

    let mut hedge = tx.prepare_cached(
        "INSERT INTO hedges (article, idx, cue_start, cue_end, cue_text, scope_start, scope_end, \
         scope_text) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?;
    for (idx, h) in doc.hedges().iter().enumerate() {
        hedge.execute(params![
            article_row,
            idx as i64,
            h.cue.byte_start() as i64,
            h.cue.byte_end() as i64,
            doc.span_text(h.cue),
            h.scope.byte_start() as i64,
            h.scope.byte_end() as i64,
            doc.span_text(h.scope),
        ])?;
    }
    let span_rows = SpanRows {
        tx,
        doc,
        article_row,
    };
    span_rows.insert(
        "entities",
        &["label", "cluster"],
        doc.entities().iter().map(|e| {
            (
                e.span,
                vec![
                    Value::Text(serde_name(&e.label)),
                    Value::Integer(e.cluster.index() as i64),
                ],
            )
        }),
    )?;
    let number = |v: Option<f64>| v.filter(|v| v.is_finite()).map_or(Value::Null, Value::Real);
    span_rows.insert(
        "quantities",
        &["low", "high", "unit"],
        doc.quantities().iter().map(|q| {
            (
                q.span,
                vec![number(q.low), number(q.high), Value::Text(q.unit.clone())],
            )
        }),
    )?;
    let text = |v: Option<String>| v.map_or(Value::Null, Value::Text);
    span_rows.insert(
        "times",
        &["value", "granularity", "unresolved"],
        doc.times().iter().map(|t| {
            (
                t.span,
                vec![
                    text(t.value.clone()),
                    text(t.granularity.map(|g| serde_name(&g))),
                    text(t.unresolved.clone()),
                ],
            )
        }),
    )?;
    Ok(())
}

/// Inserts the rows of layers whose records are one span and a few values:
/// entities, quantities, times.
struct SpanRows<'a> {
    tx: &'a Connection,
    doc: &'a Doc,
    article_row: i64,
}

impl SpanRows<'_> {
    fn insert(
        &self,
        table: &str,
        columns: &[&str],
        records: impl Iterator<Item = (Span, Vec<Value>)>,
    ) -> rusqlite::Result<()> {
        let placeholders: String = (6..6 + columns.len()).map(|i| format!(", ?{i}")).collect();
        let sql = format!(
            "INSERT INTO {table} (article, idx, byte_start, byte_end, text, {}) \
             VALUES (?1, ?2, ?3, ?4, ?5{placeholders})",
            columns.join(", ")
        );
        let mut statement = self.tx.prepare_cached(&sql)?;
        for (idx, (span, values)) in records.enumerate() {
            let mut params = vec![
                Value::Integer(self.article_row),
                Value::Integer(idx as i64),
                Value::Integer(span.byte_start() as i64),
                Value::Integer(span.byte_end() as i64),
                Value::Text(self.doc.span_text(span).to_string()),
            ];
            params.extend(values);
            statement.execute(params_from_iter(params))?;
        }
        Ok(())
    }
}

/// Stores the article's sources, merging each with its identity across articles,
/// and returns for each attribution the row of the source that speaks in it.
fn insert_sources(
    tx: &Connection,
    doc: &Doc,
    article_row: i64,
    published_date: Option<&str>,
) -> rusqlite::Result<Vec<Option<i64>>> {
    let mut appearance_of = vec![None; doc.attributions().len()];
    let mut counted = HashSet::new();
    for (idx, source) in doc.sources().iter().enumerate() {
        let kind = serde_name(&source.kind);
        let key = identity::identity_key(&source.name, source.kind);
        let existing: Option<i64> = match &key {
            Some(key) => tx
                .prepare_cached("SELECT id FROM sources WHERE key = ?1")?
                .query_row([key], |row| row.get(0))
                .optional()?,
            None => None,
        };
        let source_row = match existing {
            Some(id) => id,
            None => {
                tx.prepare_cached(
                    "INSERT INTO sources (key, name, name_norm, kind, n_articles, n_statements) \
                     VALUES (?1, ?2, ?3, ?4, 0, 0)",
                )?
                .execute(params![
                    key,
                    source.name,
                    identity::lookup_name(&source.name, source.kind),
                    kind,
                ])?;
                tx.last_insert_rowid()
            }
        };
        let statements = source.attributions.len() as i64;
        let new_article = i64::from(counted.insert(source_row));
        tx.prepare_cached(
            "UPDATE sources SET n_articles = n_articles + ?2, n_statements = n_statements + ?3 \
             WHERE id = ?1",
        )?
        .execute(params![source_row, new_article, statements])?;
        let attributions = serde_json::to_string(
            &source
                .attributions
                .iter()
                .map(|a| a.index())
                .collect::<Vec<_>>(),
        )
        .unwrap_or_else(|_| "[]".to_string());
        tx.prepare_cached(
            "INSERT INTO appearances (article, idx, source, name, kind, gender, mentions, \
             descriptors, attributions, n_statements, outlet, published_date) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
        )?
        .execute(params![
            article_row,
            idx as i64,
            source_row,
            source.name,
            kind,
            source.gender.map(|g| serde_name(&g)),
            spans_json(&source.mentions),
            spans_json(&source.descriptors),
            attributions,
            statements,
            doc.article().outlet,
            published_date,
        ])?;
        let appearance_row = tx.last_insert_rowid();
        for attribution in &source.attributions {
            // An attribution listed by two sources keeps the first for queries;
            // `appearances.attributions` keeps every link.
            if let Some(slot @ None) = appearance_of.get_mut(attribution.index()) {
                *slot = Some(appearance_row);
            }
        }
    }
    Ok(appearance_of)
}

fn insert_attributions(
    tx: &Connection,
    doc: &Doc,
    article_row: i64,
    appearance_of: &[Option<i64>],
    pending: &mut Pending,
) -> rusqlite::Result<Vec<i64>> {
    let mut stance_of = vec![None; doc.attributions().len()];
    for stance in doc.stances() {
        if let Some(slot @ None) = stance_of.get_mut(stance.attribution.index()) {
            *slot = Some(stance);
        }
    }
    let mut statement = tx.prepare_cached(
        "INSERT INTO attributions (article, idx, appearance, kind, confidence, stance, \
         stance_evidence, source_spans, cue_spans, content_spans, source_text, cue_text, \
         content_text) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
    )?;
    let mut rows = Vec::with_capacity(doc.attributions().len());
    for (idx, attribution) in doc.attributions().iter().enumerate() {
        let stance = stance_of[idx];
        let confidence = f64::from(attribution.confidence);
        let content = joined(doc, &attribution.content);
        statement.execute(params![
            article_row,
            idx as i64,
            appearance_of.get(idx).copied().flatten(),
            serde_name(&attribution.kind),
            confidence.is_finite().then_some(confidence),
            stance.map(|s| serde_name(&s.label)),
            stance.map(|s| spans_json(&s.evidence)),
            spans_json(&attribution.source),
            spans_json(&attribution.cue),
            spans_json(&attribution.content),
            joined(doc, &attribution.source),
            joined(doc, &attribution.cue),
            content,
        ])?;
        let row = tx.last_insert_rowid();
        rows.push(row);
        pending.attributions.push((row, content));
    }
    Ok(rows)
}

fn insert_quotes(
    tx: &Connection,
    doc: &Doc,
    article_row: i64,
    attribution_rows: &[i64],
    pending: &mut Pending,
) -> rusqlite::Result<()> {
    if !(doc.has(Layer::Tokens) && doc.has(Layer::Paragraphs)) {
        return Ok(());
    }
    let mut statement = tx.prepare_cached(
        "INSERT INTO quotes (article, idx, byte_start, byte_end, text, attribution) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?;
    let quotes = quotes::find_quotes(doc);
    let speaking = quotes::speaking_attribution(doc, &quotes);
    for (idx, (quote, speaking)) in quotes.into_iter().zip(speaking).enumerate() {
        let attribution = speaking.and_then(|position| attribution_rows.get(position).copied());
        statement.execute(params![
            article_row,
            idx as i64,
            quote.byte_start() as i64,
            quote.byte_end() as i64,
            doc.span_text(quote),
            attribution,
        ])?;
        if attribution.is_none() {
            pending
                .quotes
                .push((tx.last_insert_rowid(), doc.span_text(quote).to_string()));
        }
    }
    Ok(())
}

/// The counts stored next to an article; `None` where the layer was not looked for.
struct ArticleCounts {
    words: Option<i64>,
    sources: Option<i64>,
    unnamed: Option<i64>,
    attributions: Option<i64>,
    direct: Option<i64>,
    mixed: Option<i64>,
    stanced: Option<i64>,
    stances: [Option<i64>; 8],
    hedges: Option<i64>,
    entities: Option<i64>,
    quantities: Option<i64>,
    times: Option<i64>,
}

impl ArticleCounts {
    fn of(doc: &Doc) -> ArticleCounts {
        let has = |layer| doc.has(layer);
        let count = |layer, n: usize| has(layer).then_some(n as i64);
        let summary = SourcingSummary::of(doc);
        let from_summary = |layer, n: fn(&SourcingSummary) -> usize| {
            summary.as_ref().and_then(|s| count(layer, n(s)))
        };
        // The `n_asserts` ... `n_intends` columns follow `StanceLabel::ALL`.
        let stances = StanceLabel::ALL.map(|label| {
            summary
                .as_ref()
                .and_then(|s| count(Layer::Stances, s.stances.get(label)))
        });
        let mixed = doc
            .attributions()
            .iter()
            .filter(|a| a.kind == AttributionKind::Mixed)
            .count();
        ArticleCounts {
            words: count(Layer::Tokens, doc.word_count()),
            sources: count(Layer::Sources, doc.sources().len()),
            unnamed: from_summary(Layer::Sources, |s| {
                s.sources_by_kind.get(SourceKind::Unnamed)
            }),
            attributions: count(Layer::Attributions, doc.attributions().len()),
            direct: from_summary(Layer::Attributions, |s| s.direct_quotes),
            mixed: count(Layer::Attributions, mixed),
            stanced: count(Layer::Stances, doc.stances().len()),
            stances,
            hedges: count(Layer::Hedges, doc.hedges().len()),
            entities: count(Layer::Entities, doc.entities().len()),
            quantities: count(Layer::Quantities, doc.quantities().len()),
            times: count(Layer::Times, doc.times().len()),
        }
    }
}

/// Spans as a JSON array of `[byte_start, byte_end]` pairs.
fn spans_json(spans: &[Span]) -> String {
    let mut out = String::from("[");
    for (i, span) in spans.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "[{},{}]", span.byte_start(), span.byte_end());
    }
    out.push(']');
    out
}

/// The texts of a role's fragments joined by " … ", which marks where the
/// text skips.
fn joined(doc: &Doc, spans: &[Span]) -> String {
    spans
        .iter()
        .map(|span| doc.span_text(*span))
        .collect::<Vec<_>>()
        .join(" … ")
}
