//! Writing analysed documents: one transaction per batch, one savepoint per
//! article, so an article is stored with all its layers or not at all.

use std::collections::{HashMap, HashSet};
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

use crate::batch::{self, Rows};
use crate::layers::{self, ArticleRows, LAYER_TABLES};
use crate::{LedgerError, cells, grouping, pg, quotes};

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
/// Straight through, the batch's rows go in one statement a table
/// ([`insert`]); in the second pass each article is a batch of its own.
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
    let straight: DbResult<Vec<Result<Stored, LedgerError>>> = (|| {
        let mut pending = Pending::default();
        let outcomes = store_entries(db, batch, on_conflict, &mut pending)?;
        pending.index(db)?;
        Ok(outcomes.into_iter().map(Ok).collect())
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
            let stored = store_entries(db, std::slice::from_ref(entry), on_conflict, &mut pending)?;
            pending.index(db)?;
            stored
                .into_iter()
                .next()
                .ok_or(DbError::Sqlite(rusqlite::Error::QueryReturnedNoRows))
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

/// Stores entries in order, as [`store_run`] does, in runs of distinct keys:
/// an article given twice in a batch is looked up again after its first
/// copy is written, and skipped or replaced as it would be in a later batch.
fn store_entries(
    tx: &Conn<'_>,
    entries: &[Entry<'_>],
    on_conflict: OnConflict,
    pending: &mut Pending,
) -> DbResult<Vec<Stored>> {
    let mut outcomes = Vec::with_capacity(entries.len());
    let mut rest = entries;
    while !rest.is_empty() {
        let mut keys = HashSet::new();
        let run = rest
            .iter()
            .take_while(|entry| keys.insert(entry.key))
            .count();
        let (now, later) = rest.split_at(run);
        outcomes.extend(store_run(tx, now, on_conflict, pending)?);
        rest = later;
    }
    Ok(outcomes)
}

/// Stores entries of distinct keys: those already stored are skipped or
/// removed first, and the new ones written together ([`insert`]).
fn store_run(
    tx: &Conn<'_>,
    run: &[Entry<'_>],
    on_conflict: OnConflict,
    pending: &mut Pending,
) -> DbResult<Vec<Stored>> {
    let stored = batch::ids_by_key(tx, "articles", run.iter().map(|entry| entry.key.as_str()))?;
    let mut outcomes = Vec::with_capacity(run.len());
    let mut new = Vec::with_capacity(run.len());
    for entry in run {
        let outcome = match (stored.get(entry.key.as_str()), on_conflict) {
            (None, _) => Stored::Added,
            (Some(_), OnConflict::Skip) => {
                outcomes.push(Stored::Skipped);
                continue;
            }
            (Some(&id), OnConflict::Replace) => {
                // The article may have been stored earlier in this batch:
                // index what is pending first, so that its removal finds it
                // indexed.
                pending.index(tx)?;
                remove(tx, id)?;
                Stored::Replaced
            }
        };
        outcomes.push(outcome);
        new.push(*entry);
    }
    insert(tx, &new, pending)?;
    Ok(outcomes)
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
    cells::count(tx, &[article], -1)?;
    grouping::remove(tx, article)?;
    tx.execute("DELETE FROM articles WHERE id = ?1", values![article])?;
    for (source, _) in &touched {
        tx.execute(
            "DELETE FROM sources WHERE id = ?1 AND n_articles = 0",
            values![source],
        )?;
    }
    Ok(())
}

/// The columns of an article row: its id and own columns, then the count of
/// each layer table, as [`article_values`] gives them.
static ARTICLE_COLUMNS: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
    [
        "id",
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
    .collect()
});

/// The values of an article's row, stored as `id`, for [`ARTICLE_COLUMNS`].
fn article_values(
    entry: &Entry<'_>,
    id: i64,
    counts: &ArticleCounts,
    layer_rows: &ArticleRows,
) -> Vec<Value> {
    let doc = entry.doc;
    let article = doc.article();
    let layers = doc
        .layers()
        .iter()
        .map(Layer::name)
        .collect::<Vec<_>>()
        .join(" ");
    let mut values = values![
        id,
        entry.key.as_str(),
        article.id,
        content_hash(article),
        article.title,
        article.outlet,
        article.url,
        article.published.map(|p| p.to_string()),
        published_date(doc),
        article.language,
        layers,
        doc.text().len() as i64,
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
    values.extend(layer_rows.iter().map(|rows| {
        rows.as_ref()
            .map_or(Value::Null, |rows| Value::Integer(rows.len() as i64))
    }));
    values
}

/// The article's publication date (`YYYY-MM-DD`), as stored beside it and
/// its appearances.
fn published_date(doc: &Doc) -> Option<String> {
    doc.article().published.map(|p| p.date().to_string())
}

/// Writes new articles with all their rows: one statement a table for the
/// whole batch ([`Rows`]), with the ids that rows refer to taken beforehand
/// ([`batch::next_ids`]); then counts each in its statistics cell and groups
/// its statements into claims, which depend on the articles before it.
fn insert(tx: &Conn<'_>, entries: &[Entry<'_>], pending: &mut Pending) -> DbResult<()> {
    if entries.is_empty() {
        return Ok(());
    }
    let ids = batch::next_ids(tx, "articles", entries.len())?;
    let mut articles = Rows::new("articles", &ARTICLE_COLUMNS);
    let mut texts = Rows::new("article_texts", &["article", "text"]);
    let mut stances = Rows::new("article_stances", &["article", "stance", "attributions"]);
    let mut layers = layers::BatchRows::of(&LAYER_TABLES);
    for (entry, &id) in entries.iter().zip(&ids) {
        let counts = ArticleCounts::of(entry.doc);
        let layer_rows = layers::rows_of(entry.doc);
        articles.push(article_values(entry, id, &counts, &layer_rows))?;
        texts.push(values![id, entry.doc.text()].to_vec())?;
        for (label, n) in &counts.stances {
            stances.push(values![id, label.name(), n].to_vec())?;
        }
        layers.add(id, layer_rows)?;
    }
    articles.insert(tx)?;
    texts.insert(tx)?;
    stances.insert(tx)?;
    let appearance_of = insert_sources(tx, entries, &ids)?;
    let attribution_rows = insert_attributions(tx, entries, &ids, &appearance_of, pending)?;
    insert_quotes(tx, entries, &ids, &attribution_rows, pending)?;
    layers.insert(tx)?;
    cells::count(tx, &ids, 1)?;
    let articles: Vec<(&Doc, i64)> = entries.iter().map(|entry| entry.doc).zip(ids).collect();
    grouping::store(tx, &articles)
}

/// A source row that a batch adds to or makes, and what the batch adds to
/// its counts.
struct SourceCounts {
    id: i64,
    /// The values of a new row after its id (key, name, name_norm, kind);
    /// `None` for a row stored before the batch.
    new: Option<Vec<Value>>,
    articles: i64,
    statements: i64,
}

/// Stores the batch's sources, merging each with its identity across
/// articles, and returns for each article, for each attribution, the row of
/// the appearance that speaks in it.
fn insert_sources(
    tx: &Conn<'_>,
    entries: &[Entry<'_>],
    article_ids: &[i64],
) -> DbResult<Vec<Vec<Option<i64>>>> {
    let keys: Vec<Vec<Option<String>>> = entries
        .iter()
        .map(|entry| {
            let sources = entry.doc.sources().iter();
            sources
                .map(|source| identity::identity_key(&source.name, source.kind))
                .collect()
        })
        .collect();
    let asked: HashSet<&String> = keys.iter().flatten().flatten().collect();
    let mut row_of = batch::ids_by_key(tx, "sources", asked.iter().map(|key| key.as_str()))?;
    // A source without a key is a row of its own; a key is one row.
    let unkeyed = keys.iter().flatten().filter(|key| key.is_none()).count();
    let new_keys = asked
        .iter()
        .filter(|key| !row_of.contains_key(**key))
        .count();
    let mut new_ids = batch::next_ids(tx, "sources", unkeyed + new_keys)?.into_iter();
    let n_appearances = keys.iter().map(Vec::len).sum();
    let mut appearance_ids = batch::next_ids(tx, "appearances", n_appearances)?.into_iter();

    let mut sources: Vec<SourceCounts> = Vec::new();
    let mut position: HashMap<i64, usize> = HashMap::new();
    let mut appearances = Rows::new(
        "appearances",
        &[
            "id",
            "article",
            "idx",
            "source",
            "name",
            "kind",
            "gender",
            "mentions",
            "descriptors",
            "attributions",
            "n_statements",
            "outlet",
            "published_date",
        ],
    );
    let mut appearance_of = Vec::with_capacity(entries.len());
    for ((entry, &article), keys) in entries.iter().zip(article_ids).zip(keys) {
        let doc = entry.doc;
        let published_date = published_date(doc);
        let mut speaks = vec![None; doc.attributions().len()];
        let mut counted = HashSet::new();
        for ((idx, source), key) in doc.sources().iter().enumerate().zip(keys) {
            let kind = serde_name(&source.kind);
            let stored = key.as_ref().and_then(|key| row_of.get(key)).copied();
            let source_row = match stored {
                Some(id) => id,
                None => {
                    let id = new_ids.next().ok_or(rusqlite::Error::QueryReturnedNoRows)?;
                    let new = values![
                        key,
                        source.name,
                        identity::lookup_name(&source.name, source.kind),
                        kind,
                    ]
                    .to_vec();
                    if let Some(key) = key {
                        row_of.insert(key, id);
                    }
                    position.insert(id, sources.len());
                    sources.push(SourceCounts {
                        id,
                        new: Some(new),
                        articles: 0,
                        statements: 0,
                    });
                    id
                }
            };
            let at = *position.entry(source_row).or_insert_with(|| {
                sources.push(SourceCounts {
                    id: source_row,
                    new: None,
                    articles: 0,
                    statements: 0,
                });
                sources.len() - 1
            });
            let statements = source.attributions.len() as i64;
            if let Some(counts) = sources.get_mut(at) {
                counts.statements += statements;
                counts.articles += i64::from(counted.insert(source_row));
            }
            let attributions = serde_json::to_string(
                &source
                    .attributions
                    .iter()
                    .map(|a| a.index())
                    .collect::<Vec<_>>(),
            )
            .unwrap_or_else(|_| "[]".to_string());
            let appearance_row = appearance_ids
                .next()
                .ok_or(rusqlite::Error::QueryReturnedNoRows)?;
            appearances.push(
                values![
                    appearance_row,
                    article,
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
                ]
                .to_vec(),
            )?;
            for attribution in &source.attributions {
                // An attribution listed by two sources keeps the first for
                // queries; `appearances.attributions` keeps every link.
                if let Some(slot @ None) = speaks.get_mut(attribution.index()) {
                    *slot = Some(appearance_row);
                }
            }
        }
        appearance_of.push(speaks);
    }

    let mut new_rows = Rows::new(
        "sources",
        &[
            "id",
            "key",
            "name",
            "name_norm",
            "kind",
            "n_articles",
            "n_statements",
        ],
    );
    let mut added = Rows::new("sources", &["id", "n_articles", "n_statements"]);
    for counts in sources {
        let tally = values![counts.articles, counts.statements].to_vec();
        match counts.new {
            Some(new) => new_rows.push(
                std::iter::once(Value::Integer(counts.id))
                    .chain(new)
                    .chain(tally),
            )?,
            None => added.push(std::iter::once(Value::Integer(counts.id)).chain(tally))?,
        }
    }
    new_rows.insert(tx)?;
    if !added.is_empty() {
        let sql = format!(
            "UPDATE sources SET n_articles = sources.n_articles + j.n_articles, \
             n_statements = sources.n_statements + j.n_statements FROM {} \
             WHERE sources.id = j.id",
            added.source(tx)
        );
        tx.execute(&sql, &[added.into_param()?])?;
    }
    appearances.insert(tx)?;
    Ok(appearance_of)
}

fn insert_attributions(
    tx: &Conn<'_>,
    entries: &[Entry<'_>],
    article_ids: &[i64],
    appearance_of: &[Vec<Option<i64>>],
    pending: &mut Pending,
) -> DbResult<Vec<Vec<i64>>> {
    let total = entries.iter().map(|e| e.doc.attributions().len()).sum();
    let mut ids = batch::next_ids(tx, "attributions", total)?.into_iter();
    let mut rows = Rows::new(
        "attributions",
        &[
            "id",
            "article",
            "idx",
            "appearance",
            "kind",
            "confidence",
            "stance",
            "stance_evidence",
            "source_spans",
            "cue_spans",
            "content_spans",
            "source_text",
            "cue_text",
            "content_text",
        ],
    );
    let mut ids_of = Vec::with_capacity(entries.len());
    for ((entry, &article), speaks) in entries.iter().zip(article_ids).zip(appearance_of) {
        let doc = entry.doc;
        let mut stance_of = vec![None; doc.attributions().len()];
        for stance in doc.stances() {
            if let Some(slot @ None) = stance_of.get_mut(stance.attribution.index()) {
                *slot = Some(stance);
            }
        }
        let mut article_rows = Vec::with_capacity(doc.attributions().len());
        for (idx, (attribution, stance)) in doc.attributions().iter().zip(stance_of).enumerate() {
            let id = ids.next().ok_or(rusqlite::Error::QueryReturnedNoRows)?;
            let confidence = f64::from(attribution.confidence);
            let content = joined(doc, &attribution.content);
            rows.push(
                values![
                    id,
                    article,
                    idx as i64,
                    speaks.get(idx).copied().flatten(),
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
                ]
                .to_vec(),
            )?;
            article_rows.push(id);
            pending.attributions.push((id, content));
        }
        ids_of.push(article_rows);
    }
    rows.insert(tx)?;
    Ok(ids_of)
}

fn insert_quotes(
    tx: &Conn<'_>,
    entries: &[Entry<'_>],
    article_ids: &[i64],
    attribution_rows: &[Vec<i64>],
    pending: &mut Pending,
) -> DbResult<()> {
    let found: Vec<_> = entries
        .iter()
        .map(|entry| {
            let doc = entry.doc;
            if !(doc.has(Layer::Tokens) && doc.has(Layer::Paragraphs)) {
                return Vec::new();
            }
            let quotes = quotes::find_quotes(doc);
            let speaking = quotes::speaking_attribution(doc, &quotes);
            quotes.into_iter().zip(speaking).collect()
        })
        .collect();
    let mut ids = batch::next_ids(tx, "quotes", found.iter().map(Vec::len).sum())?.into_iter();
    let mut rows = Rows::new(
        "quotes",
        &[
            "id",
            "article",
            "idx",
            "byte_start",
            "byte_end",
            "text",
            "attribution",
        ],
    );
    for (((entry, &article), quotes), attributions) in entries
        .iter()
        .zip(article_ids)
        .zip(found)
        .zip(attribution_rows)
    {
        let doc = entry.doc;
        for (idx, (quote, speaking)) in quotes.into_iter().enumerate() {
            let id = ids.next().ok_or(rusqlite::Error::QueryReturnedNoRows)?;
            let attribution = speaking.and_then(|position| attributions.get(position).copied());
            let text = doc.span_text(quote);
            rows.push(
                values![
                    id,
                    article,
                    idx as i64,
                    quote.byte_start() as i64,
                    quote.byte_end() as i64,
                    text,
                    attribution,
                ]
                .to_vec(),
            )?;
            if attribution.is_none() {
                pending.quotes.push((id, text.to_string()));
            }
        }
    }
    rows.insert(tx)
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
