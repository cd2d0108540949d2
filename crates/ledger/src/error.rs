//! What can go wrong with a ledger, each case naming the file.
//!
//! The cases a user can meet on a real machine (a file from a newer attest, a
//! locked or read-only file, a file that is no SQLite database) get their own
//! variant with a message that says what to do; everything else SQLite reports
//! is carried with the path it concerns.

use std::path::PathBuf;
use std::time::Duration;

/// An error of the ledger.
///
/// Every error raised while opening a ledger leaves the file as it was: the
/// checks that can fail run before anything is written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LedgerError {
    /// The file was written by a newer attest, whose schema this one does not know.
    #[error(
        "{path}: ledger schema version {found} is newer than this attest reads (up to {supported}); \
         use a newer attest (the file was not changed)"
    )]
    NewerSchema {
        /// The ledger file.
        path: PathBuf,
        /// The version in the file.
        found: i64,
        /// The newest version this build knows.
        supported: i64,
    },
    /// The file is an older ledger, which a read-only opening cannot upgrade.
    #[error(
        "{path}: ledger schema version {found} is older than this attest's ({supported}); \
         run `attest ingest --db {path}` once to upgrade it"
    )]
    OlderSchema {
        /// The ledger file.
        path: PathBuf,
        /// The version in the file.
        found: i64,
        /// The version this build writes.
        supported: i64,
    },
    /// The file is a SQLite database, but not an attest ledger.
    #[error(
        "{path}: a SQLite database that is not an attest ledger ({why}); the file was not changed"
    )]
    NotALedger {
        /// The file.
        path: PathBuf,
        /// What gave it away.
        why: String,
    },
    /// The file is not a SQLite database, or is damaged.
    #[error("{path}: not a SQLite database, or a damaged one ({why}); the file was not changed")]
    NotSqlite {
        /// The file.
        path: PathBuf,
        /// What SQLite or the header check said.
        why: String,
    },
    /// No ledger at the path (for commands that only read).
    #[error("{path}: no ledger here; `attest ingest --db {path} INPUT...` makes one")]
    Missing {
        /// The path looked at.
        path: PathBuf,
    },
    /// Another process holds the lock for longer than the busy timeout.
    #[error(
        "{path}: the ledger is locked by another process (another `attest ingest`?); \
         gave up after {timeout:?} (raise it with --busy-timeout)"
    )]
    Locked {
        /// The ledger file.
        path: PathBuf,
        /// How long attest waited.
        timeout: Duration,
    },
    /// The file, or its directory, cannot be written.
    #[error(
        "{path}: the ledger is read-only (the file or its directory cannot be written: {why}); \
         the file was not changed"
    )]
    ReadOnly {
        /// The ledger file.
        path: PathBuf,
        /// What said so.
        why: String,
    },
    /// A search query that FTS5 does not accept.
    #[error("search query {query:?} is not valid: {why}")]
    BadSearch {
        /// The query as given.
        query: String,
        /// What SQLite said.
        why: String,
    },
    /// An export query that is not a single read-only SELECT, or fails.
    #[error("query {query:?} cannot be exported: {why}")]
    BadQuery {
        /// The query as given.
        query: String,
        /// Why.
        why: String,
    },
    /// An article that could not be stored; the rest of its batch is stored.
    #[error("article {id}: not stored: {why}")]
    Article {
        /// The article id.
        id: String,
        /// Why.
        why: String,
    },
    /// No stored article has this id.
    #[error("no article {id} in the ledger")]
    NoArticle {
        /// The id asked for.
        id: String,
    },
    /// A correction that does not fit its article or breaks a limit.
    #[error("correction refused: {why}")]
    BadCorrection {
        /// Why.
        why: String,
    },
    /// A question ran past its budget's time limit and was stopped.
    #[error("the query was stopped at its time limit of {limit:?} (--time-limit)")]
    OverTime {
        /// The limit.
        limit: Duration,
    },
    /// A question was cancelled by its budget's flag (see [`attest_doc::Canceller`]).
    #[error("the query was cancelled")]
    Cancelled,
    /// An export query gives more rows than its budget allows; what was
    /// written is incomplete.
    #[error("the query gives more rows than its limit of {limit} (--max-rows)")]
    TooManyRows {
        /// The limit.
        limit: usize,
    },
    /// The consumer of exported rows failed (a closed pipe, a full disk).
    #[error("writing rows: {0}")]
    Sink(std::io::Error),
    /// Any other SQLite error, with the file it concerns.
    #[error("{path}: {}", sqlite_message(error, path))]
    Sqlite {
        /// The ledger file.
        path: PathBuf,
        /// What SQLite said.
        error: rusqlite::Error,
    },
    /// What PostgreSQL said, or that it could not be reached, with the database
    /// (its URL without password) it concerns.
    #[error("{db}: {why}")]
    Postgres {
        /// The database.
        db: String,
        /// What went wrong.
        why: String,
    },
    /// The file could not be inspected before opening.
    #[error("{path}: {error}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        error: std::io::Error,
    },
}

// Every variant's message includes its cause, so no variant also returns it
// as `source()`: printed with its chain, a cause would show twice ("disk I/O
// error: disk I/O error"), and a SQLite error three times, since
// `rusqlite::Error` chains to the bare SQLite code of the same text.

/// What SQLite said about `path`, saying the path once: when opening fails,
/// rusqlite appends the path it was given ("unable to open database file:
/// /data/x.db", or the `file:` URI of a read-only opening), which the ledger's
/// message names already.
pub(crate) fn sqlite_message(error: &rusqlite::Error, path: &std::path::Path) -> String {
    let message = error.to_string();
    let given = format!(": {}", path.display());
    if let Some(plain) = message.strip_suffix(&given) {
        return plain.to_string();
    }
    match message.find(": file:") {
        Some(at) => message[..at].to_string(),
        None => message,
    }
}

impl LedgerError {
    /// The I/O error behind this one, if any (a closed pipe while exporting).
    pub fn io_error(&self) -> Option<&std::io::Error> {
        match self {
            LedgerError::Sink(error) | LedgerError::Io { error, .. } => Some(error),
            _ => None,
        }
    }
}
