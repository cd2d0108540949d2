//! Writing analysed documents: one transaction per batch, one savepoint per
//! article, so an article is stored with all its layers or not at all.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::sync::LazyLock;

use attest_doc::{
    Article, AttributionKind, CertaintySummary, Doc, Layer, SourceKind, SourcingSummary, Span,
    StanceLabel, serde_name,
};
use rusqlite::ErrorCode;
use rusqlite::types::Value;
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::db::{Conn, DbError, DbResult, values};
use attest_lang::identity;

use crate::layers::{self, LAYER_TABLES};
use crate::{LedgerError, cells, claims, pg, quotes};

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

/// The query for `columns` of the article that the id `?1` names: the one
/// stored under that id when the input gave it, else the first stored whose
/// made-up id it is.
pub(crate) fn by_article_id(columns: &str) -> String {
    format!(
        "SELECT {columns} FROM articles a WHERE a.key = 'id:' || ?1 \
         UNION ALL SELECT * FROM (SELECT {columns} FROM articles a \
         WHERE a.article_id = ?1 ORDER BY a.id LIMIT 1) AS by_article_id LIMIT 1"
    )
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
/// For the same reason SQLite's full-text indexes are not kept by triggers:
/// FTS5 flushes its pending terms at every statement savepoint, so the texts to
/// index are gathered in [`Pending`] and indexed by one statement per batch.
/// PostgreSQL keeps its own (GIN indexes over expressions).
///
/// In PostgreSQL the transaction first takes the ledger's advisory lock
/// ([`pg::WRITE_LOCK`]), as SQLite's `BEGIN IMMEDIATE` takes the write lock:
/// concurrent writers store one batch at a time, each finding what the others
/// committed, so an article key is inserted once and skipped after.
pub(crate) fn store_batch(
    db: &Conn<'_>,
    batch: &[Entry<'_>],
    on_conflict: OnConflict,
    fail: &dyn Fn(DbError) -> LedgerError,
) -> Result<Vec<Result<Stored, LedgerError>>, LedgerError> {
    begin(db).map_err(fail)?;
    let straight = (|| {
        let mut outcomes = Vec::with_capacity(batch.len());
        let mut pending = Pending::default();
        for entry in batch {
            outcomes.push(Ok(store_one(db, entry, on_conflict, &mut pending)?));
        }
        pending.index(db)?;
        Ok(outcomes)
    })();
    match straight {
        Ok(outcomes) => return commit(db).map(|()| outcomes).map_err(fail),
        Err(err) => {
            rollback(db);
            if !per_article(&err) {
                return Err(fail(err));
            }
        }
    }
    begin(db).map_err(fail)?;
    let mut outcomes = Vec::with_capacity(batch.len());
    for entry in batch {
        let stored = db.batch("SAVEPOINT article").and_then(|()| {
            let mut pending = Pending::default();
            let stored = store_one(db, entry, on_conflict, &mut pending)?;
            pending.index(db)?;
            Ok(stored)
        });
        let stored = match stored {
            Ok(stored) => db.batch("RELEASE article").map(|()| stored),
            Err(err) if per_article(&err) => db
                .batch("ROLLBACK TO article; RELEASE article")
                .and(Err(err)),
            Err(err) => Err(err),
        };
        match stored {
            Ok(stored) => outcomes.push(Ok(stored)),
            Err(err) if per_article(&err) => outcomes.push(Err(LedgerError::Article {
                id: entry.doc.article().id.clone(),
                why: fail(err).to_string(),
            })),
            Err(err) => {
                rollback(db);
                return Err(fail(err));
            }
        }
    }
    commit(db).map(|()| outcomes).map_err(fail)
}

fn begin(db: &Conn<'_>) -> DbResult<()> {
    if db.is_postgres() {
        db.batch("BEGIN")?;
        db.rows(pg::WRITE_LOCK, values![]).map(drop)
    } else {
        // Immediate: take the write lock now, waiting the busy timeout for
        // it, rather than fail at the first write of a batch.
        db.batch("BEGIN IMMEDIATE")
    }
}

fn commit(db: &Conn<'_>) -> DbResult<()> {
    let committed = db.batch("COMMIT");
    if committed.is_err() {
        rollback(db);
    }
    committed
}

/// Ends a failed transaction. What failed is reported; a rollback that also
/// fails (the connection is gone, or SQLite already rolled back) adds nothing.
fn rollback(db: &Conn<'_>) {
    let _ = db.batch("ROLLBACK");
}

/// Whether a failed statement concerns the article being stored alone, and
/// the rest of the batch can be stored without it; not when the ledger is
/// locked, read-only or out of space, or the connection is lost.
fn per_article(error: &DbError) -> bool {
    match error {
        DbError::Sqlite(error) => !matches!(
            error.sqlite_error_code(),
            Some(
                ErrorCode::DatabaseBusy
                    | ErrorCode::DatabaseLocked
                    | ErrorCode::ReadOnly
                    | ErrorCode::PermissionDenied
                    | ErrorCode::DiskFull
                    | ErrorCode::SystemIoFailure
            )
        ),
        DbError::Postgres(error) => pg::per_article(error),
    }
}

/// Whether an article with this key is stored.
pub(crate) fn contains(db: &Conn<'_>, key: &ArticleKey) -> DbResult<bool> {
    article_row(db, key).map(|row| row.is_some())
}

/// The content hash of the article stored under `key`, if one is.
pub(crate) fn stored_hash(db: &Conn<'_>, key: &ArticleKey) -> DbResult<Option<String>> {
    db.row(
        "SELECT content_hash FROM articles WHERE key = ?1",
        values![key.as_str()],
    )?
    .map(|row| row.get("content_hash"))
    .transpose()
}

fn article_row(db: &Conn<'_>, key: &ArticleKey) -> DbResult<Option<i64>> {
    db.row(
        "SELECT id FROM articles WHERE key = ?1",
        values![key.as_str()],
    )?
    .map(|row| row.get("id"))
    .transpose()
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
    /// Indexes the pending texts, one statement per index (in SQLite;
    /// PostgreSQL's indexes keep themselves).
    fn index(&mut self, db: &Conn<'_>) -> DbResult<()> {
        if db.is_postgres() {
            return Ok(());
        }
        for (rows, fts, column) in [
            (&mut self.attributions, "attributions_fts", "content_text"),
            (&mut self.quotes, "quotes_fts", "text"),
        ] {
            if rows.is_empty() {
                continue;
            }
            let json = serde_json::to_string(&*rows)
                .map_err(|err| rusqlite::Error::ToSqlConversionFailure(Box::new(err)))?;
            db.execute(
                &format!(
                    "INSERT INTO {fts}(rowid, {column}) \
                     SELECT value ->> 0, value ->> 1 FROM json_each(?1)"
                ),
                values![json],
            )?;
            rows.clear();
        }
        Ok(())
    }
}

fn store_one(
    tx: &Conn<'_>,
    entry: &Entry<'_>,
    on_conflict: OnConflict,
    pending: &mut Pending,
) -> DbResult<Stored> {
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
fn remove(tx: &Conn<'_>, article: i64) -> DbResult<()> {
    let touched = tx
        .rows(
            "SELECT source, CAST(SUM(n_statements) AS BIGINT) AS n_statements FROM appearances \
             WHERE article = ?1 GROUP BY source",
            values![article],
        )?
        .into_iter()
        .map(|row| Ok((row.get::<i64>("source")?, row.get::<i64>("n_statements")?)))
        .collect::<DbResult<Vec<_>>>()?;
    for (source, statements) in &touched {
        tx.execute(
            "UPDATE sources SET n_articles = n_articles - 1, n_statements = n_statements - ?2 \
             WHERE id = ?1",
            values![source, statements],
        )?;
    }
    if !tx.is_postgres() {
        // External-content FTS5 tables are told what to forget with the old text.
        tx.execute(
            "INSERT INTO attributions_fts(attributions_fts, rowid, content_text) \
             SELECT 'delete', id, content_text FROM attributions WHERE article = ?1",
            values![article],
        )?;
        tx.execute(
            "INSERT INTO quotes_fts(quotes_fts, rowid, text) \
             SELECT 'delete', id, text FROM quotes WHERE article = ?1 AND attribution IS NULL",
            values![article],
        )?;
    }
    cells::count(tx, article, -1)?;
    claims::remove(tx, article)?;
    tx.execute("DELETE FROM articles WHERE id = ?1", values![article])?;
    for (source, _) in &touched {
        tx.execute(
            "DELETE FROM sources WHERE id = ?1 AND n_articles = 0",
            values![source],
        )?;
    }
    Ok(())
}

/// The `INSERT` of an article row, written once: the article's own columns,
/// then the count of each layer table.
static INSERT_ARTICLE_SQL: LazyLock<String> = LazyLock::new(|| {
    let columns = [
        "key",
        "article_id",
        "content_hash",
        "title",
        "outlet",
        "url",
        "published",
        "published_date",
        "language",
        "layers",
        "bytes",
        "words",
        "n_sources",
        "n_unnamed",
        "n_attributions",
        "n_direct",
        "n_mixed",
        "n_stanced",
        "n_hedged_attributions",
        "n_writers_voice_sentences",
        "n_hedged_sentences",
    ]
    .into_iter()
    .chain(LAYER_TABLES.iter().map(|table| table.count))
    .collect::<Vec<_>>();
    let placeholders: Vec<String> = (1..=columns.len()).map(|i| format!("?{i}")).collect();
    format!(
        "INSERT INTO articles ({}) VALUES ({})",
        columns.join(", "),
        placeholders.join(", ")
    )
});

fn insert(tx: &Conn<'_>, entry: &Entry<'_>, pending: &mut Pending) -> DbResult<()> {
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
    let layer_rows = layers::rows_of(doc);
    let mut params = values![
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
        counts.hedged_attributions,
        counts.writers_voice_sentences,
        counts.hedged_sentences,
    ]
    .to_vec();
    params.extend(layer_rows.iter().map(|rows| {
        rows.as_ref()
            .map_or(Value::Null, |rows| Value::Integer(rows.len() as i64))
    }));
    let article_row = tx.insert(&INSERT_ARTICLE_SQL, &params)?;
    for (label, n) in &counts.stances {
        tx.execute(
            "INSERT INTO article_stances (article, stance, attributions) VALUES (?1, ?2, ?3)",
            values![article_row, label.name(), n],
        )?;
    }
    cells::count(tx, article_row, 1)?;
    tx.execute(
        "INSERT INTO article_texts (article, text) VALUES (?1, ?2)",
        values![article_row, text],
    )?;

    let appearance_of = insert_sources(tx, doc, article_row, published_date.as_deref())?;
    let attribution_rows = insert_attributions(tx, doc, article_row, &appearance_of, pending)?;
    insert_quotes(tx, doc, article_row, &attribution_rows, pending)?;
    claims::store(tx, doc, article_row)?;

    layers::insert(tx, article_row, layer_rows)
}

/// Stores the article's sources, merging each with its identity across articles,
/// and returns for each attribution the row of the source that speaks in it.
fn insert_sources(
    tx: &Conn<'_>,
    doc: &Doc,
    article_row: i64,
    published_date: Option<&str>,
) -> DbResult<Vec<Option<i64>>> {
    let mut appearance_of = vec![None; doc.attributions().len()];
    let mut counted = HashSet::new();
    for (idx, source) in doc.sources().iter().enumerate() {
        let kind = serde_name(&source.kind);
        let key = identity::identity_key(&source.name, source.kind);
        let existing: Option<i64> = match &key {
            Some(key) => tx
                .row("SELECT id FROM sources WHERE key = ?1", values![key])?
                .map(|row| row.get("id"))
                .transpose()?,
            None => None,
        };
        let source_row = match existing {
            Some(id) => id,
            None => tx.insert(
                "INSERT INTO sources (key, name, name_norm, kind, n_articles, n_statements) \
                 VALUES (?1, ?2, ?3, ?4, 0, 0)",
                values![
                    key,
                    source.name,
                    identity::lookup_name(&source.name, source.kind),
                    kind,
                ],
            )?,
        };
        let statements = source.attributions.len() as i64;
        let new_article = i64::from(counted.insert(source_row));
        tx.execute(
            "UPDATE sources SET n_articles = n_articles + ?2, n_statements = n_statements + ?3 \
             WHERE id = ?1",
            values![source_row, new_article, statements],
        )?;
        let attributions = serde_json::to_string(
            &source
                .attributions
                .iter()
                .map(|a| a.index())
                .collect::<Vec<_>>(),
        )
        .unwrap_or_else(|_| "[]".to_string());
        let appearance_row = tx.insert(
            "INSERT INTO appearances (article, idx, source, name, kind, gender, mentions, \
             descriptors, attributions, n_statements, outlet, published_date) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
            values![
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
            ],
        )?;
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
    tx: &Conn<'_>,
    doc: &Doc,
    article_row: i64,
    appearance_of: &[Option<i64>],
    pending: &mut Pending,
) -> DbResult<Vec<i64>> {
    let mut stance_of = vec![None; doc.attributions().len()];
    for stance in doc.stances() {
        if let Some(slot @ None) = stance_of.get_mut(stance.attribution.index()) {
            *slot = Some(stance);
        }
    }
    let mut rows = Vec::with_capacity(doc.attributions().len());
    for (idx, attribution) in doc.attributions().iter().enumerate() {
        let stance = stance_of[idx];
        let confidence = f64::from(attribution.confidence);
        let content = joined(doc, &attribution.content);
        let row = tx.insert(
            "INSERT INTO attributions (article, idx, appearance, kind, confidence, stance, \
             stance_evidence, source_spans, cue_spans, content_spans, source_text, cue_text, \
             content_text) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
            values![
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
            ],
        )?;
        rows.push(row);
        pending.attributions.push((row, content));
    }
    Ok(rows)
}

fn insert_quotes(
    tx: &Conn<'_>,
    doc: &Doc,
    article_row: i64,
    attribution_rows: &[i64],
    pending: &mut Pending,
) -> DbResult<()> {
    if !(doc.has(Layer::Tokens) && doc.has(Layer::Paragraphs)) {
        return Ok(());
    }
    let quotes = quotes::find_quotes(doc);
    let speaking = quotes::speaking_attribution(doc, &quotes);
    for (idx, (quote, speaking)) in quotes.into_iter().zip(speaking).enumerate() {
        let attribution = speaking.and_then(|position| attribution_rows.get(position).copied());
        let row = tx.insert(
            "INSERT INTO quotes (article, idx, byte_start, byte_end, text, attribution) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            values![
                article_row,
                idx as i64,
                quote.byte_start() as i64,
                quote.byte_end() as i64,
                doc.span_text(quote),
                attribution,
            ],
        )?;
        if attribution.is_none() {
            pending.quotes.push((row, doc.span_text(quote).to_string()));
        }
    }
    Ok(())
}

/// The counts stored next to an article; `None` where the layer was not
/// looked for. Those of the layer tables are their rows' (`layers`).
struct ArticleCounts {
    words: Option<i64>,
    sources: Option<i64>,
    unnamed: Option<i64>,
    attributions: Option<i64>,
    direct: Option<i64>,
    mixed: Option<i64>,
    stanced: Option<i64>,
    /// The stances that some attributions take, and how many; none when
    /// stances were not looked for (which `stanced` tells from none taken).
    stances: Vec<(StanceLabel, i64)>,
    hedged_attributions: Option<i64>,
    writers_voice_sentences: Option<i64>,
    hedged_sentences: Option<i64>,
}

impl ArticleCounts {
    fn of(doc: &Doc) -> ArticleCounts {
        let has = |layer| doc.has(layer);
        let count = |layer, n: usize| has(layer).then_some(n as i64);
        let summary = SourcingSummary::of(doc);
        let from_summary = |layer, n: fn(&SourcingSummary) -> usize| {
            summary.as_ref().and_then(|s| count(layer, n(s)))
        };
        let certainty = summary.as_ref().and_then(|s| s.certainty.as_ref());
        let from_certainty = |n: fn(&CertaintySummary) -> usize| certainty.map(|c| n(c) as i64);
        let stances = StanceLabel::ALL
            .iter()
            .filter_map(|label| {
                let n = summary
                    .as_ref()
                    .and_then(|s| count(Layer::Stances, s.stances.get(*label)))?;
                (n > 0).then_some((*label, n))
            })
            .collect();
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
            hedged_attributions: from_certainty(|c| c.hedged_attributions),
            writers_voice_sentences: from_certainty(|c| c.writers_voice_sentences),
            hedged_sentences: from_certainty(|c| c.hedged_sentences),
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
