//! The ledger's tables, their versions and how a file is opened safely.
//!
//! The schema version lives in SQLite's `user_version` and the file is marked as
//! an attest ledger by `application_id`. Opening checks the header, the mark and
//! the version *before* writing anything, so a file from a newer attest, a foreign
//! database or a file that is no database at all is refused untouched. Upgrades run
//! the missing [`MIGRATIONS`] in one immediate transaction.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, ErrorCode, OpenFlags};

use crate::LedgerError;
use crate::error::sqlite_message;

/// `application_id` of attest ledgers: "atst" in ASCII.
pub(crate) const APPLICATION_ID: i64 = 0x6174_7374;

/// The schema version this build writes: the number of migrations.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// Migration `i` takes a ledger from version `i` to `i + 1`.
const MIGRATIONS: &[&str] = &[V1];

/// Version 1. Counts per article are kept next to the article (and per source
/// next to the source) so that rankings and statistics over a large corpus
/// read a few small rows instead of grouping millions; `NULL` in a count means
/// the layer was not looked for, which is not the same as zero. The two indexes
/// of appearances by outlet and date cover the rankings by outlet and period,
/// which then never read the wide appearance rows. Only quotations that no
/// attribution covers are indexed (the content of the others is), which keeps
/// the quotation index small and its searches free of a join. Sources have no index by
/// count: each article changes the counts of several sources, and scanning the
/// counts for a ranking costs less than keeping such an index. The full-text
/// indexes are external-content FTS5 tables kept by the writer (see `store`).
const V1: &str = r#"
CREATE TABLE articles (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    article_id TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    title TEXT,
    outlet TEXT,
    url TEXT,
    published TEXT,
    published_date TEXT,
    language TEXT,
    layers TEXT NOT NULL,
    bytes INTEGER NOT NULL,
    words INTEGER,
    n_sources INTEGER,
    n_unnamed INTEGER,
    n_attributions INTEGER,
    n_direct INTEGER,
    n_mixed INTEGER,
    n_stanced INTEGER,
    n_asserts INTEGER,
    n_confirms INTEGER,
    n_denies INTEGER,
    n_declines INTEGER,
    n_claims INTEGER,
    n_reports INTEGER,
    n_believes INTEGER,
    n_intends INTEGER,
    n_hedges INTEGER,
    n_entities INTEGER,
    n_quantities INTEGER,
    n_times INTEGER
);

CREATE TABLE stats_cells (
    outlet TEXT,
    published_date TEXT,
    articles INTEGER NOT NULL,
    words INTEGER NOT NULL,
    sources INTEGER NOT NULL,
    unnamed INTEGER NOT NULL,
    attributions INTEGER NOT NULL,
    direct INTEGER NOT NULL,
    mixed INTEGER NOT NULL,
    stanced INTEGER NOT NULL,
    asserts INTEGER NOT NULL,
    confirms INTEGER NOT NULL,
    denies INTEGER NOT NULL,
    declines INTEGER NOT NULL,
    claims INTEGER NOT NULL,
    reports INTEGER NOT NULL,
    believes INTEGER NOT NULL,
    intends INTEGER NOT NULL,
    hedges INTEGER NOT NULL,
    hedge_words INTEGER NOT NULL
);
CREATE INDEX stats_cells_key ON stats_cells(outlet, published_date);

CREATE TABLE article_texts (
    article INTEGER PRIMARY KEY REFERENCES articles(id) ON DELETE CASCADE,
    text TEXT NOT NULL
);

CREATE TABLE sources (
    id INTEGER PRIMARY KEY,
    key TEXT UNIQUE,
    name TEXT NOT NULL,
    name_norm TEXT NOT NULL,
    kind TEXT NOT NULL,
    n_articles INTEGER NOT NULL,
    n_statements INTEGER NOT NULL
);
CREATE INDEX sources_name ON sources(name_norm);

CREATE TABLE appearances (
    id INTEGER PRIMARY KEY,
    article INTEGER NOT NULL REFERENCES articles(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    source INTEGER NOT NULL REFERENCES sources(id),
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    gender TEXT,
    mentions TEXT NOT NULL,
    descriptors TEXT NOT NULL,
    attributions TEXT NOT NULL,
    n_statements INTEGER NOT NULL,
    outlet TEXT,
    published_date TEXT,
    UNIQUE (article, idx)
);
CREATE INDEX appearances_source ON appearances(source);
CREATE INDEX appearances_outlet
    ON appearances(outlet, published_date, source, n_statements, article);
CREATE INDEX appearances_date ON appearances(published_date, source, n_statements, article);

CREATE TABLE attributions (
    id INTEGER PRIMARY KEY,
    article INTEGER NOT NULL REFERENCES articles(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    appearance INTEGER REFERENCES appearances(id) ON DELETE SET NULL,
    kind TEXT NOT NULL,
    confidence REAL,
    stance TEXT,
    stance_evidence TEXT,
    source_spans TEXT NOT NULL,
    cue_spans TEXT NOT NULL,
    content_spans TEXT NOT NULL,
    source_text TEXT NOT NULL,
    cue_text TEXT NOT NULL,
    content_text TEXT NOT NULL,
    UNIQUE (article, idx)
);
CREATE INDEX attributions_appearance ON attributions(appearance);

CREATE TABLE quotes (
    id INTEGER PRIMARY KEY,
    article INTEGER NOT NULL REFERENCES articles(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    byte_start INTEGER NOT NULL,
    byte_end INTEGER NOT NULL,
    text TEXT NOT NULL,
    attribution INTEGER REFERENCES attributions(id) ON DELETE SET NULL,
    UNIQUE (article, idx)
);
CREATE INDEX quotes_attribution ON quotes(attribution);

CREATE TABLE hedges (
    id INTEGER PRIMARY KEY,
    article INTEGER NOT NULL REFERENCES articles(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    cue_start INTEGER NOT NULL,
    cue_end INTEGER NOT NULL,
    cue_text TEXT NOT NULL,
    scope_start INTEGER NOT NULL,
    scope_end INTEGER NOT NULL,
    scope_text TEXT NOT NULL,
    UNIQUE (article, idx)
);

CREATE TABLE entities (
    id INTEGER PRIMARY KEY,
    article INTEGER NOT NULL REFERENCES articles(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    byte_start INTEGER NOT NULL,
    byte_end INTEGER NOT NULL,
    text TEXT NOT NULL,
    label TEXT NOT NULL,
    cluster INTEGER NOT NULL,
    UNIQUE (article, idx)
);

CREATE TABLE quantities (
    id INTEGER PRIMARY KEY,
    article INTEGER NOT NULL REFERENCES articles(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    byte_start INTEGER NOT NULL,
    byte_end INTEGER NOT NULL,
    text TEXT NOT NULL,
    low REAL,
    high REAL,
    unit TEXT NOT NULL,
    UNIQUE (article, idx)
);

CREATE TABLE times (
    id INTEGER PRIMARY KEY,
    article INTEGER NOT NULL REFERENCES articles(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    byte_start INTEGER NOT NULL,
    byte_end INTEGER NOT NULL,
    text TEXT NOT NULL,
    value TEXT,
    granularity TEXT,
    unresolved TEXT,
    UNIQUE (article, idx)
);

CREATE VIRTUAL TABLE attributions_fts USING fts5(
    content_text,
    content = 'attributions', content_rowid = 'id',
    tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE VIEW unattributed_quotes AS SELECT id, text FROM quotes WHERE attribution IS NULL;
CREATE VIRTUAL TABLE quotes_fts USING fts5(
    text,
    content = 'unattributed_quotes', content_rowid = 'id',
    tokenize = 'porter unicode61 remove_diacritics 2'
);
"#;

/// How a ledger file is opened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpenOptions {
    /// How long to wait for another process's lock before failing with
    /// [`LedgerError::Locked`]. A concurrent `attest ingest` holds the write lock
    /// for one batch at a time, well under the default of 5 s.
    pub busy_timeout: Duration,
}

impl OpenOptions {
    /// The defaults described on each field.
    pub const DEFAULT: OpenOptions = OpenOptions {
        busy_timeout: Duration::from_secs(5),
    };
}

/// Whether the connection may write.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Access {
    ReadWrite,
    ReadOnly,
}

/// Opens (and for [`Access::ReadWrite`] creates or upgrades) the ledger at `path`.
pub(crate) fn open(
    path: &Path,
    access: Access,
    options: &OpenOptions,
) -> Result<Connection, LedgerError> {
    let exists = check_file(path, access)?;
    let fail = |source| classify(path, options, source);
    let conn = match access {
        Access::ReadWrite => {
            let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
                | OpenFlags::SQLITE_OPEN_CREATE
                | OpenFlags::SQLITE_OPEN_NO_MUTEX;
            let conn = Connection::open_with_flags(path, flags).map_err(fail)?;
            conn.busy_timeout(options.busy_timeout).map_err(fail)?;
            conn
        }
        Access::ReadOnly => open_read_only(path, options)?,
    };
    let found = inspect(&conn, path, options)?;
    if found.version > SCHEMA_VERSION {
        return Err(LedgerError::NewerSchema {
            path: path.to_path_buf(),
            found: found.version,
            supported: SCHEMA_VERSION,
        });
    }
    match access {
        Access::ReadOnly => {
            if !exists || found.is_empty() {
                return Err(LedgerError::Missing {
                    path: path.to_path_buf(),
                });
            }
            if found.version < SCHEMA_VERSION {
                return Err(LedgerError::OlderSchema {
                    path: path.to_path_buf(),
                    found: found.version,
                    supported: SCHEMA_VERSION,
                });
            }
            conn.pragma_update(None, "query_only", true).map_err(fail)?;
        }
        Access::ReadWrite => {
            // WAL lets queries read while an ingest writes, and a process killed
            // mid-write leaves its last transaction uncommitted, never half-applied.
            // NORMAL synchronisation is safe against corruption in WAL mode; only
            // the last commits before a power cut (not a crash) can be lost.
            conn.pragma_update(None, "journal_mode", "WAL")
                .map_err(fail)?;
            conn.pragma_update(None, "synchronous", "NORMAL")
                .map_err(fail)?;
            // A batch touches pages all over the indexes; a page cache of 256 MiB
            // (instead of 2) keeps them in memory instead of spilling and
            // reading them back, which made storing a third slower.
            conn.pragma_update(None, "cache_size", -262_144)
                .map_err(fail)?;
            // Checkpoints copy the WAL into the database and sync it; at the
            // default of every 1,000 pages they took a tenth of an ingest's
            // storing. Every 16,384 pages (64 MiB of WAL) copies hot pages once
            // where it copied them many times.
            conn.pragma_update(None, "wal_autocheckpoint", 16_384)
                .map_err(fail)?;
            migrate(&conn, path, options)?;
        }
    }
    conn.pragma_update(None, "foreign_keys", true)
        .map_err(fail)?;
    Ok(conn)
}

/// How a file is opened for reading only.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum ReadMode {
    /// Read-only, with locking: sees what a concurrent writer commits. For a
    /// file in WAL mode SQLite must open, or create, the `-shm` file beside it.
    Shared,
    /// Read-only, as a file no one changes: no locks, no `-shm`, and no
    /// `-wal` read. For a ledger in a directory the user cannot write.
    Immutable,
}

/// The `file:` URI SQLite opens `path` by in `mode` (the path percent-encoded,
/// since `?`, `#` and `%` mean something in a URI).
fn read_only_uri(path: &Path, mode: ReadMode) -> String {
    let mut uri = String::from("file:");
    for &byte in path.as_os_str().as_encoded_bytes() {
        if byte.is_ascii_alphanumeric() || b"/-._~".contains(&byte) {
            uri.push(char::from(byte));
        } else {
            uri.push_str(&format!("%{byte:02X}"));
        }
    }
    uri.push_str(match mode {
        ReadMode::Shared => "?mode=ro",
        ReadMode::Immutable => "?mode=ro&immutable=1",
    });
    uri
}

/// Opens an existing ledger for reading, wherever the file is readable.
///
/// A ledger is in WAL mode, and SQLite reads a WAL file only beside a `-shm`
/// file that it opens or creates; in a directory the user cannot write (a
/// shared corpus, a read-only mount) there is none to open, and SQLite fails
/// with "unable to open database file". The file is then opened immutable,
/// which needs no `-shm`, provided its `-wal` holds nothing: attest empties
/// the `-wal` into the file when an ingest closes, and a non-empty one means
/// a writer is at work or was killed, whose last batches an immutable reading
/// would silently miss.
fn open_read_only(path: &Path, options: &OpenOptions) -> Result<Connection, LedgerError> {
    let fail = |source| classify(path, options, source);
    let connect = |mode| -> Result<Connection, rusqlite::Error> {
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY
            | OpenFlags::SQLITE_OPEN_URI
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(read_only_uri(path, mode), flags)?;
        conn.busy_timeout(options.busy_timeout)?;
        // Opening is lazy: the first read is what meets a missing `-shm`.
        conn.query_row("SELECT count(*) FROM sqlite_schema", [], |_| Ok(()))?;
        Ok(conn)
    };
    let error = match connect(ReadMode::Shared) {
        Ok(conn) => return Ok(conn),
        Err(error) => error,
    };
    let cannot_open = matches!(
        error.sqlite_error_code(),
        Some(ErrorCode::CannotOpen | ErrorCode::ReadOnly)
    );
    if !cannot_open {
        return Err(fail(error));
    }
    let mut wal = path.as_os_str().to_owned();
    wal.push("-wal");
    if fs::metadata(&wal).is_ok_and(|wal| wal.len() > 0) {
        return Err(LedgerError::ReadOnly {
            path: path.to_path_buf(),
            why: format!(
                "SQLite cannot create its -shm file beside it ({}), and without one \
                 it cannot read the unmerged changes in {}; a run of `attest ingest` by \
                 someone who can write there merges them",
                sqlite_message(&error, path),
                Path::new(&wal).display()
            ),
        });
    }
    connect(ReadMode::Immutable).map_err(fail)
}

/// What [`inspect`] found in a file.
struct Found {
    version: i64,
    application_id: i64,
    objects: i64,
}

impl Found {
    fn is_empty(&self) -> bool {
        self.objects == 0 && self.application_id == 0 && self.version == 0
    }
}

/// Checks the file before SQLite opens it: a file that does not start with
/// SQLite's header is refused without SQLite ever touching it, and a file that
/// its permissions mark read-only is refused for writing (SQLite running as root
/// would write it anyway). Returns whether the file exists.
fn check_file(path: &Path, access: Access) -> Result<bool, LedgerError> {
    let io = |error| LedgerError::Io {
        path: path.to_path_buf(),
        error,
    };
    let metadata = match fs::metadata(path) {
        Ok(metadata) => metadata,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            return match access {
                Access::ReadOnly => Err(LedgerError::Missing {
                    path: path.to_path_buf(),
                }),
                Access::ReadWrite => Ok(false),
            };
        }
        Err(err) => return Err(io(err)),
    };
    if !metadata.is_file() {
        return Err(LedgerError::NotSqlite {
            path: path.to_path_buf(),
            why: "not a regular file".to_string(),
        });
    }
    if access == Access::ReadWrite && metadata.permissions().readonly() {
        return Err(LedgerError::ReadOnly {
            path: path.to_path_buf(),
            why: "its permissions allow no writing".to_string(),
        });
    }
    let mut header = Vec::with_capacity(16);
    fs::File::open(path)
        .and_then(|file| file.take(16).read_to_end(&mut header))
        .map_err(io)?;
    if !header.is_empty() && header.as_slice() != b"SQLite format 3\0" {
        return Err(LedgerError::NotSqlite {
            path: path.to_path_buf(),
            why: "the file does not start with the SQLite header".to_string(),
        });
    }
    Ok(true)
}

/// Reads the version and mark, and refuses databases that are not ledgers.
fn inspect(conn: &Connection, path: &Path, options: &OpenOptions) -> Result<Found, LedgerError> {
    let fail = |source| classify(path, options, source);
    let found = Found {
        version: conn
            .pragma_query_value(None, "user_version", |row| row.get(0))
            .map_err(fail)?,
        application_id: conn
            .pragma_query_value(None, "application_id", |row| row.get(0))
            .map_err(fail)?,
        objects: conn
            .query_row("SELECT count(*) FROM sqlite_schema", [], |row| row.get(0))
            .map_err(fail)?,
    };
    if found.application_id != APPLICATION_ID && !found.is_empty() {
        let why = if found.application_id == 0 {
            format!("it has {} schema objects and no attest mark", found.objects)
        } else {
            format!("its application id is {:#x}", found.application_id)
        };
        return Err(LedgerError::NotALedger {
            path: path.to_path_buf(),
            why,
        });
    }
    Ok(found)
}

/// Applies the migrations the file lacks, all in one transaction.
fn migrate(conn: &Connection, path: &Path, options: &OpenOptions) -> Result<(), LedgerError> {
    let fail = |source| classify(path, options, source);
    // Immediate, so that two processes opening one new file do not both migrate.
    conn.execute_batch("BEGIN IMMEDIATE").map_err(fail)?;
    let outcome = (|| {
        let found = inspect(conn, path, options)?;
        if found.version > SCHEMA_VERSION {
            return Err(LedgerError::NewerSchema {
                path: path.to_path_buf(),
                found: found.version,
                supported: SCHEMA_VERSION,
            });
        }
        let start = usize::try_from(found.version).unwrap_or(0);
        for migration in &MIGRATIONS[start..] {
            conn.execute_batch(migration).map_err(fail)?;
        }
        if start < MIGRATIONS.len() {
            conn.pragma_update(None, "application_id", APPLICATION_ID)
                .map_err(fail)?;
            conn.pragma_update(None, "user_version", SCHEMA_VERSION)
                .map_err(fail)?;
        }
        Ok(())
    })();
    match outcome {
        Ok(()) => conn.execute_batch("COMMIT").map_err(fail),
        Err(err) => {
            let _ = conn.execute_batch("ROLLBACK");
            Err(err)
        }
    }
}

/// Turns a SQLite error into the variant a user can act on.
pub(crate) fn classify(path: &Path, options: &OpenOptions, source: rusqlite::Error) -> LedgerError {
    let path: PathBuf = path.to_path_buf();
    match source.sqlite_error_code() {
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => LedgerError::Locked {
            path,
            timeout: options.busy_timeout,
        },
        Some(ErrorCode::ReadOnly | ErrorCode::PermissionDenied) => LedgerError::ReadOnly {
            why: sqlite_message(&source, &path),
            path,
        },
        Some(ErrorCode::NotADatabase | ErrorCode::DatabaseCorrupt) => LedgerError::NotSqlite {
            why: sqlite_message(&source, &path),
            path,
        },
        _ => LedgerError::Sqlite {
            path,
            error: source,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_only_uris_encode_what_a_uri_would_read() {
        assert_eq!(
            read_only_uri(Path::new("/data/a b/x?y#z%.db"), ReadMode::Shared),
            "file:/data/a%20b/x%3Fy%23z%25.db?mode=ro"
        );
        assert_eq!(
            read_only_uri(Path::new("rel/attest.db"), ReadMode::Immutable),
            "file:rel/attest.db?mode=ro&immutable=1"
        );
    }

    #[test]
    fn an_immutable_opening_reads_a_ledger_in_wal_mode() {
        let path = crate::testing::temp_ledger("odd ?#% name");
        let conn = open(&path, Access::ReadWrite, &OpenOptions::DEFAULT).unwrap();
        let mode: String = conn
            .pragma_query_value(None, "journal_mode", |row| row.get(0))
            .unwrap();
        assert_eq!(mode, "wal");
        conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE)")
            .unwrap();
        drop(conn);
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_URI;
        let conn =
            Connection::open_with_flags(read_only_uri(&path, ReadMode::Immutable), flags).unwrap();
        let version: i64 = conn
            .pragma_query_value(None, "user_version", |row| row.get(0))
            .unwrap();
        assert_eq!(version, SCHEMA_VERSION);
        drop(conn);
        crate::testing::remove_ledger(&path);
    }
}
