//! The attest corpus ledger: analysed articles stored in SQLite, and the
//! questions a corpus answers.
//!
//! A [`Ledger`] is one SQLite file or one PostgreSQL database, named by a
//! [`Location`]; both hold the same tables at the same schema version and
//! answer every question alike (the SQL is written once where the two
//! dialects agree; full-text search is FTS5 in SQLite and `tsvector` with GIN
//! indexes in PostgreSQL). [`Ledger::store`] writes a batch of analysed
//! [`Doc`]s in one transaction, each article with all its layers or not at all,
//! known by an [`ArticleKey`] so that storing it twice changes nothing
//! ([`OnConflict::Skip`]) or replaces it ([`OnConflict::Replace`]). Sources are
//! merged across articles by a conservative name rule ([`attest_lang::identity`]). Queries
//! return typed rows that serialize with serde and print as tables
//! ([`Tabular`]):
//!
//! - [`Ledger::top_sources`]: the most-quoted sources, by outlet, period and kind;
//! - [`Ledger::find_sources`], [`Ledger::said`] and [`Ledger::statements`]:
//!   everything a source said, with stance, date and article;
//! - [`Ledger::search`]: full-text search over attributed content and
//!   quotations, with the matches located;
//! - [`Ledger::stats`]: per-outlet or per-month shares of unnamed sources and
//!   direct quotes, stance mix and hedges per 1,000 words;
//! - [`Ledger::claims`], [`Ledger::claim`] and [`Ledger::trace`]: claims carried by several
//!   articles (attest-claims groups each article's statements as it is
//!   stored), with each appearance's role;
//! - [`Ledger::export`]: whole tables or any read-only query, row by row.
//!
//! Layers that no stage assigned are stored as not looked for, apart from
//! layers found empty: their counts are `NULL`, not 0, and statistics leave such
//! articles out of the shares concerned. Tokens, sentences and part-of-speech
//! tags are not stored row by row (the text is, and they follow from it); the
//! `layers` column of each article lists every layer that was assigned.
//!
//! PostgreSQL ledgers take many writers at once: each batch is one transaction
//! under an advisory lock, so articles are inserted or skipped by key exactly
//! as in SQLite, while readers go on reading.
//!
//! The file carries a schema version; a file from a newer attest, a file that
//! is no ledger, a locked or read-only file each give a [`LedgerError`] that says
//! so, and opening never changes a file it refuses. The file is in WAL mode, so
//! queries read while an ingest writes and a killed writer loses only its open
//! batch.
//!
//! ```
//! use attest_doc::{Article, Attribution, AttributionKind, Doc, Source, SourceKind, Span};
//! use attest_ledger::{ArticleKey, Entry, Filter, GroupBy, Ledger, OnConflict, Page, Stored};
//!
//! let text = "Dana Whitcombe said the port talks would resume. Officials declined to comment.";
//! let at = |s: &str| {
//!     let i = text.find(s).unwrap();
//!     Span::try_new_in(text, i, i + s.len()).unwrap()
//! };
//! let mut article = Article::new("harbor-1", text);
//! article.outlet = Some("Coast Herald".into());
//! let mut doc = Doc::new(article);
//! doc.set_attributions(vec![Attribution {
//!     source: vec![at("Dana Whitcombe")],
//!     cue: vec![at("said")],
//!     content: vec![at("the port talks would resume")],
//!     kind: AttributionKind::Indirect,
//!     confidence: 0.9,
//! }]).unwrap();
//! doc.set_sources(vec![Source {
//!     name: "Dana Whitcombe".into(),
//!     kind: SourceKind::Person,
//!     mentions: vec![at("Dana Whitcombe")],
//!     descriptors: vec![],
//!     gender: None,
//!     attributions: vec![attest_doc::AttributionId::must(0)],
//!     merges: vec![],
//! }]).unwrap();
//!
//! let path = std::env::temp_dir().join(format!("attest-ledger-doc-{}.db", std::process::id()));
//! # let _ = std::fs::remove_file(&path);
//! let mut ledger = Ledger::open(&path)?;
//! let key = ArticleKey::by_id(&doc.article().id);
//! let entry = Entry { doc: &doc, key: &key };
//! let outcomes = ledger.store(&[entry], OnConflict::Skip)?;
//! assert_eq!(outcomes[0].as_ref().ok(), Some(&Stored::Added));
//! let again = ledger.store(&[entry], OnConflict::Skip)?;
//! assert_eq!(again[0].as_ref().ok(), Some(&Stored::Skipped), "idempotent");
//!
//! let top = ledger.top_sources(&Filter::default(), Page::first(10))?;
//! assert_eq!((top[0].name.as_str(), top[0].statements), ("Dana Whitcombe", 1));
//! let said = ledger.said("Dana Whitcombe", &Filter::default(), 100)?;
//! assert_eq!(said[0].content, "the port talks would resume");
//! let hits = ledger.search("talk", &Filter::default(), 10)?;
//! let [start, end] = hits[0].matches[0];
//! assert_eq!(&hits[0].text[start..end], "talks", "stemmed, and located in bytes");
//! let stats = ledger.stats(GroupBy::Outlet, &Filter::default())?;
//! assert_eq!(stats[0].group.as_deref(), Some("Coast Herald"));
//! assert_eq!(stats[0].unnamed_share, Some(0.0));
//! assert_eq!(stats[0].hedges_per_1000_words, None, "hedges were not looked for");
//! # drop(ledger);
//! # for suffix in ["", "-wal", "-shm"] {
//! #     let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
//! # }
//! # Ok::<(), attest_ledger::LedgerError>(())
//! ```

#![deny(missing_docs)]

mod batch;
mod budget;
mod cells;
mod check;
mod claims;
mod corrections;
mod db;
mod error;
mod export;
mod grouping;
mod layers;
mod location;
mod pg;
mod query;
mod quotes;
mod rows;
mod schema;
mod store;
#[cfg(test)]
mod testing;
#[cfg(test)]
mod tests;

use std::cell::RefCell;

use attest_doc::Doc;
use rusqlite::Connection;

pub use attest_claims::Role;
pub use budget::Budget;
pub use check::CheckReport;
pub use claims::{ClaimAppearance, ClaimArticle, ClaimFilter, ClaimLine, ClaimRow};
pub use corrections::{
    CorrectionInput, GoldArticle, GoldAttribution, GoldCount, MAX_NAME_CHARS, MAX_NOTE_CHARS,
    SourceChoice,
};
pub use error::LedgerError;
pub use export::{
    Column, ColumnType, MONTH_COLUMN, RowSink, TABLES, dataset_query, dataset_tables,
};
pub use location::Location;
pub use query::{Filter, GroupBy, Page, plain_query};
pub use rows::{
    ArticleAttribution, ArticleDetail, ArticleRow, ArticleSource, ArticleSpan, Cell, Correction,
    Counts, Found, Review, RoleSpans, SearchHit, SourceRow, Statement, StatsRow, Tabular,
};
pub use schema::{OpenOptions, SCHEMA_VERSION};
pub use store::{ArticleKey, Entry, OnConflict, Stored, content_hash};

use db::{Conn, DbError, DbResult};
use schema::Access;

/// An open ledger: a SQLite file or a PostgreSQL database.
#[derive(Debug)]
pub struct Ledger {
    backend: Backend,
    location: Location,
    options: OpenOptions,
    access: Access,
    budget: Budget,
}

/// The one place that knows which database a ledger is in.
#[derive(Debug)]
enum Backend {
    Sqlite(Connection),
    Postgres(Box<RefCell<db::Pg>>),
}

impl Ledger {
    /// Opens the ledger at `location` (a path, or a [`Location`]) for reading
    /// and writing, creating it when there is none, upgrading an older schema,
    /// with the default options.
    pub fn open(location: impl Into<Location>) -> Result<Ledger, LedgerError> {
        Ledger::open_with(location, &OpenOptions::DEFAULT)
    }

    /// [`Ledger::open`] with options.
    pub fn open_with(
        location: impl Into<Location>,
        options: &OpenOptions,
    ) -> Result<Ledger, LedgerError> {
        Ledger::open_as(location.into(), options, Access::ReadWrite)
    }

    /// Opens an existing ledger for queries only; it is never written.
    pub fn open_read_only(
        location: impl Into<Location>,
        options: &OpenOptions,
    ) -> Result<Ledger, LedgerError> {
        Ledger::open_as(location.into(), options, Access::ReadOnly)
    }

    fn open_as(
        location: Location,
        options: &OpenOptions,
        access: Access,
    ) -> Result<Ledger, LedgerError> {
        let backend = match &location {
            Location::Sqlite(path) => Backend::Sqlite(schema::open(path, access, options)?),
            Location::Postgres(url) => {
                Backend::Postgres(Box::new(RefCell::new(pg::open(url, &location, access)?)))
            }
        };
        Ok(Ledger {
            backend,
            location,
            options: *options,
            access,
            budget: Budget::default(),
        })
    }

    /// Where the ledger is.
    pub fn location(&self) -> &Location {
        &self.location
    }

    fn conn(&self) -> Conn<'_> {
        match &self.backend {
            Backend::Sqlite(conn) => Conn::Sqlite(conn),
            Backend::Postgres(pg) => Conn::Postgres(pg),
        }
    }

    /// The error a user can act on for what the database said.
    fn fail(&self, error: DbError) -> LedgerError {
        fail(&self.location, &self.options, &self.budget, error)
    }

    /// Limits every question asked from now on (see [`Budget`]); its time
    /// limit counts from this call.
    pub fn set_budget(&mut self, budget: Budget) -> Result<(), LedgerError> {
        let installed = match &mut self.backend {
            Backend::Sqlite(conn) => budget.install(conn).map_err(DbError::from),
            Backend::Postgres(pg) => budget.install_pg(&Conn::Postgres(pg)),
        };
        installed.map_err(|err| self.fail(err))?;
        self.budget = budget;
        Ok(())
    }

    /// Closes the ledger. After writing a SQLite file, the write-ahead log is
    /// copied into the database file and emptied first, so that the `.db` file
    /// alone holds everything (a copy of it without its `-wal` file would
    /// otherwise miss the latest articles).
    pub fn close(self) -> Result<(), LedgerError> {
        let Backend::Sqlite(conn) = self.backend else {
            return Ok(());
        };
        let path = self.location.named();
        if self.access == Access::ReadWrite {
            conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))
                .map_err(|err| schema::classify(&path, &self.options, err))?;
        }
        conn.close()
            .map_err(|(_, err)| schema::classify(&path, &self.options, err))
    }

    fn ask<T>(&self, question: impl FnOnce(&Conn<'_>) -> DbResult<T>) -> Result<T, LedgerError> {
        question(&self.conn()).map_err(|err| self.fail(err))
    }

    /// Whether an article with this key is stored.
    pub fn contains(&self, key: &ArticleKey) -> Result<bool, LedgerError> {
        self.ask(|conn| store::contains(conn, key))
    }

    /// The [`content_hash`] of the article stored with this key, if one is: an
    /// input that gives a stored id to different content can be told apart
    /// from one read again.
    pub fn stored_hash(&self, key: &ArticleKey) -> Result<Option<String>, LedgerError> {
        self.ask(|conn| store::stored_hash(conn, key))
    }

    /// Stores a batch of documents in one transaction and returns what happened
    /// to each, in order.
    ///
    /// An article that cannot be stored is rolled back alone and reported in its
    /// slot; the others are stored. The whole batch fails only when the ledger
    /// cannot be written at all (locked, read-only, disk full, connection
    /// lost), and then nothing of it is stored.
    pub fn store(
        &mut self,
        batch: &[Entry<'_>],
        on_conflict: OnConflict,
    ) -> Result<Vec<Result<Stored, LedgerError>>, LedgerError> {
        store::store_batch(&self.conn(), batch, on_conflict, &|err| self.fail(err))
    }

    /// Stores one document in a transaction of its own.
    pub fn store_one(
        &mut self,
        doc: &Doc,
        key: &ArticleKey,
        on_conflict: OnConflict,
    ) -> Result<Stored, LedgerError> {
        let mut outcomes = self.store(&[Entry { doc, key }], on_conflict)?;
        outcomes.pop().unwrap_or(Ok(Stored::Skipped))
    }

    /// The most-quoted sources (by attributions), most first, ties by id:
    /// the page of them `page` asks for.
    pub fn top_sources(&self, filter: &Filter, page: Page) -> Result<Vec<SourceRow>, LedgerError> {
        self.ask(|conn| query::top_sources(conn, filter, page))
    }

    /// How many sources [`Ledger::top_sources`] ranks under `filter`, past any page.
    pub fn sources_total(&self, filter: &Filter) -> Result<u64, LedgerError> {
        self.ask(|conn| query::sources_total(conn, filter))
            .map(|total| u64::try_from(total).unwrap_or(0))
    }

    /// One source by its ledger id, with its counts over all articles.
    pub fn source(&self, id: i64) -> Result<Option<SourceRow>, LedgerError> {
        self.ask(|conn| query::source(conn, id))
    }

    /// Stored articles within the filter, newest first, from the `offset`-th.
    pub fn articles(
        &self,
        filter: &Filter,
        limit: usize,
        offset: usize,
    ) -> Result<Vec<ArticleRow>, LedgerError> {
        self.ask(|conn| query::articles(conn, filter, limit, offset))
    }

    /// One stored article with its text and attributions, by article id.
    pub fn article(&self, id: &str) -> Result<Option<ArticleDetail>, LedgerError> {
        self.ask(|conn| query::article(conn, id))
    }

    /// Stores an editor's correction of one attribution of the article `id`
    /// names (see [`CorrectionInput`]), beside what attest found, and returns
    /// it as stored.
    pub fn correct(
        &mut self,
        id: &str,
        input: &CorrectionInput,
    ) -> Result<Correction, LedgerError> {
        let created = now();
        match self.ask(|conn| corrections::add(conn, id, input, &created))? {
            Ok(correction) => Ok(correction),
            Err(corrections::Refusal::NoArticle) => {
                Err(LedgerError::NoArticle { id: id.to_string() })
            }
            Err(corrections::Refusal::Invalid(why)) => Err(LedgerError::BadCorrection { why }),
        }
    }

    /// Records that an editor reviewed the whole article `id` names, as it
    /// is stored now, and returns the review.
    pub fn review(&mut self, id: &str) -> Result<Review, LedgerError> {
        let created = now();
        self.ask(|conn| corrections::review(conn, id, &created))?
            .ok_or_else(|| LedgerError::NoArticle { id: id.to_string() })
    }

    /// Hands each article whose latest review applies to `each` as gold,
    /// attributions as its corrections leave them, and counts them and the
    /// corrected articles left out because nobody reviewed them as stored.
    pub fn reviewed_articles(
        &self,
        each: &mut dyn FnMut(GoldArticle) -> std::io::Result<()>,
    ) -> Result<GoldCount, LedgerError> {
        self.ask(|conn| corrections::gold(conn, each))?
            .map_err(LedgerError::Sink)
    }

    /// Every source stored under a name, compared as [`attest_lang::identity`] compares
    /// names: one merged identity, or the unmerged sources of many articles.
    pub fn find_sources(&self, name: &str) -> Result<Vec<SourceRow>, LedgerError> {
        self.ask(|conn| query::find_sources(conn, name))
    }

    /// What the sources named `name` said (see [`Ledger::find_sources`]), oldest
    /// first.
    pub fn said(
        &self,
        name: &str,
        filter: &Filter,
        limit: usize,
    ) -> Result<Vec<Statement>, LedgerError> {
        self.ask(|conn| query::statements(conn, query::Speakers::Named(name), filter, limit))
    }

    /// The claims that travelled (carried by at least
    /// [`ClaimFilter::min_articles`] articles) and match `filter`, most widely
    /// carried first, each with its appearances in order of publication and
    /// their roles.
    pub fn claims(&self, filter: &ClaimFilter, limit: usize) -> Result<Vec<ClaimRow>, LedgerError> {
        self.ask(|conn| claims::claims(conn, filter, limit))
    }

    /// One claim by its ledger id, with its appearances in order of
    /// publication and their roles; `None` when the ledger holds no such
    /// claim.
    pub fn claim(&self, id: i64) -> Result<Option<ClaimRow>, LedgerError> {
        self.ask(|conn| claims::find(conn, id))
    }

    /// The stored claims that the statements of an analysed text carry, each
    /// with its travel.
    pub fn trace(&self, doc: &Doc) -> Result<Vec<ClaimRow>, LedgerError> {
        self.ask(|conn| claims::trace(conn, doc))
    }

    /// What one source said, oldest first.
    pub fn statements(
        &self,
        source_id: i64,
        filter: &Filter,
        limit: usize,
    ) -> Result<Vec<Statement>, LedgerError> {
        self.ask(|conn| query::statements(conn, query::Speakers::Id(source_id), filter, limit))
    }

    /// Full-text search over attributed content and quotations no attribution
    /// covers, best matches first. `text` is read by [`plain_query`]: words,
    /// "phrases" and prefix* terms.
    pub fn search(
        &self,
        text: &str,
        filter: &Filter,
        limit: usize,
    ) -> Result<Vec<SearchHit>, LedgerError> {
        self.search_as(self.plain_search(text), text, filter, limit)
    }

    /// How many hits [`Ledger::search`] has in all, whatever its limit.
    pub fn search_total(&self, text: &str, filter: &Filter) -> Result<u64, LedgerError> {
        let query = self.plain_search(text);
        if query.is_empty() {
            return Ok(0);
        }
        query::search_total(&self.conn(), &query, filter)
            .map(|total| u64::try_from(total).unwrap_or(0))
            .map_err(|err| self.search_failed(err, text))
    }

    fn plain_search(&self, text: &str) -> query::Search {
        match self.backend {
            Backend::Sqlite(_) => query::Search::Fts5(plain_query(text)),
            Backend::Postgres(_) => query::Search::Tsquery(query::plain_tsquery(text)),
        }
    }

    /// Full-text search with a query in the database's own syntax: FTS5's in
    /// SQLite (`AND`, `OR`, `NOT`, `NEAR`, column filters), `websearch_to_tsquery`'s
    /// in PostgreSQL (`or`, `-word`, "phrases").
    pub fn search_fts(
        &self,
        fts_query: &str,
        filter: &Filter,
        limit: usize,
    ) -> Result<Vec<SearchHit>, LedgerError> {
        let query = match self.backend {
            Backend::Sqlite(_) => query::Search::Fts5(fts_query.to_string()),
            Backend::Postgres(_) => query::Search::Websearch(fts_query.to_string()),
        };
        self.search_as(query, fts_query, filter, limit)
    }

    fn search_as(
        &self,
        query: query::Search,
        given: &str,
        filter: &Filter,
        limit: usize,
    ) -> Result<Vec<SearchHit>, LedgerError> {
        if query.is_empty() {
            return Ok(Vec::new());
        }
        query::search(&self.conn(), &query, filter, limit)
            .map_err(|err| self.search_failed(err, given))
    }

    /// A failed search as the user can act on it: what the database said as
    /// a query it did not take, without the ledger's file or address (a
    /// server shows this to its clients); a time limit, a cancel, a lock or a
    /// damaged file as such.
    fn search_failed(&self, err: DbError, given: &str) -> LedgerError {
        let why = match self.fail(err) {
            LedgerError::Sqlite { path, error } => error::sqlite_message(&error, &path),
            LedgerError::Postgres { why, .. } => why,
            other => return other,
        };
        LedgerError::BadSearch {
            query: given.to_string(),
            why,
        }
    }

    /// Sourcing statistics per group of articles.
    pub fn stats(&self, by: GroupBy, filter: &Filter) -> Result<Vec<StatsRow>, LedgerError> {
        self.ask(|conn| query::stats(conn, by, filter))
    }

    /// How many rows each table holds.
    pub fn counts(&self) -> Result<Counts, LedgerError> {
        self.ask(|conn| {
            let count =
                |table: &str| conn.value::<i64>(&format!("SELECT count(*) FROM {table}"), &[]);
            Ok(Counts {
                articles: count("articles")?,
                sources: count("sources")?,
                appearances: count("appearances")?,
                attributions: count("attributions")?,
                quotes: count("quotes")?,
                hedges: count("hedges")?,
                entities: count("entities")?,
                quantities: count("quantities")?,
                times: count("times")?,
            })
        })
    }

    /// Checks the ledger and its own bookkeeping (see [`CheckReport`]).
    pub fn check(&self) -> Result<CheckReport, LedgerError> {
        self.ask(|conn| check::check(conn, self.access == Access::ReadWrite))
    }

    /// Streams a table of [`TABLES`], or the rows of a read-only SQL query, to
    /// `sink`, within the budget's row and time limits; returns the number of
    /// rows.
    pub fn export(&self, what: &str, sink: &mut dyn RowSink) -> Result<usize, LedgerError> {
        export::export(&self.conn(), what, sink, &self.budget, &|err| {
            self.fail(err)
        })
    }
}

/// The [`LedgerError`] for what either database said about `location`.
fn fail(
    location: &Location,
    options: &OpenOptions,
    budget: &Budget,
    error: DbError,
) -> LedgerError {
    match error {
        DbError::Sqlite(error) => budget
            .stopped(&error)
            .unwrap_or_else(|| schema::classify(&location.named(), options, error)),
        DbError::Postgres(error) => pg::classify(location, budget, error),
    }
}

/// Now, as corrections and reviews record it (RFC 3339, UTC, to the second).
fn now() -> String {
    jiff::Timestamp::now()
        .strftime("%Y-%m-%dT%H:%M:%SZ")
        .to_string()
}
