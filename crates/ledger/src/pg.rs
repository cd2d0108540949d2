//! Opening a PostgreSQL ledger: the same checks as for a SQLite file, before
//! anything is written.
//!
//! The schema version and the attest mark live in a one-row table,
//! `attest_ledger`, in the connection's current schema. Opening refuses a
//! ledger from a newer attest and a schema that holds tables but no ledger,
//! and upgrades an older ledger (or makes a new one in an empty schema) in one
//! transaction under an advisory lock, the lock every writer of the ledger
//! takes for each batch, so that processes opening one new database do not
//! both create it.

use std::cell::RefCell;
use std::time::Duration;

use postgres::error::SqlState;

use crate::db::{Conn, DbError, DbResult, Pg, values};
use crate::schema::{self, APPLICATION_ID, Access};
use crate::{Budget, LedgerError, Location, SCHEMA_VERSION};

/// The advisory lock that writers of a ledger take, one transaction at a
/// time, as SQLite's `BEGIN IMMEDIATE` takes its write lock.
pub(crate) const WRITE_LOCK: &str = "SELECT pg_advisory_xact_lock(1635021684)";

const _: () = assert!(APPLICATION_ID == 1_635_021_684, "WRITE_LOCK names the mark");

pub(crate) fn open(url: &str, location: &Location, access: Access) -> Result<Pg, LedgerError> {
    let fail = |error: postgres::Error| classify(location, &Budget::default(), error);
    let mut config: postgres::Config = url.parse().map_err(fail)?;
    config.application_name("attest");
    if config.get_connect_timeout().is_none() {
        config.connect_timeout(Duration::from_secs(10));
    }
    let client = config.connect(postgres::NoTls).map_err(fail)?;
    let pg = RefCell::new(Pg::new(client));
    let conn = Conn::Postgres(&pg);
    let mistake = |error: DbError| match error {
        DbError::Postgres(error) => fail(error),
        DbError::Sqlite(error) => LedgerError::Postgres {
            db: location.to_string(),
            why: error.to_string(),
        },
    };
    match access {
        Access::ReadOnly => {
            let found = inspect(&conn).map_err(mistake)?;
            refuse(&found, location)?;
            if !found.ledger {
                return Err(LedgerError::Missing {
                    path: location.named(),
                });
            }
            if found.version < SCHEMA_VERSION {
                return Err(LedgerError::OlderSchema {
                    path: location.named(),
                    found: found.version,
                    supported: SCHEMA_VERSION,
                });
            }
            conn.batch("SET default_transaction_read_only = on")
                .map_err(mistake)?;
        }
        Access::ReadWrite => {
            conn.batch("BEGIN").map_err(mistake)?;
            let migrated = migrate(&conn, location);
            let end = if migrated.is_ok() {
                "COMMIT"
            } else {
                "ROLLBACK"
            };
            let ended = conn.batch(end).map_err(mistake);
            migrated?;
            ended?;
        }
    }
    Ok(pg.into_inner())
}

/// What [`inspect`] found in the current schema.
struct Found {
    ledger: bool,
    application_id: i64,
    version: i64,
    tables: i64,
}

fn inspect(conn: &Conn<'_>) -> DbResult<Found> {
    let tables = conn.value(
        "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()",
        values![],
    )?;
    let ledger: bool = conn.value("SELECT to_regclass('attest_ledger') IS NOT NULL", values![])?;
    let (application_id, version) = if ledger {
        let row = conn.row(
            "SELECT application_id, schema_version FROM attest_ledger",
            values![],
        )?;
        match row {
            Some(row) => (row.get("application_id")?, row.get("schema_version")?),
            None => (0, 0),
        }
    } else {
        (0, 0)
    };
    Ok(Found {
        ledger,
        application_id,
        version,
        tables,
    })
}

/// Refuses a schema that is no ledger, and a ledger from a newer attest.
fn refuse(found: &Found, location: &Location) -> Result<(), LedgerError> {
    let db = || location.to_string();
    if found.ledger && found.application_id != APPLICATION_ID {
        return Err(LedgerError::Postgres {
            db: db(),
            why: "its attest_ledger table does not carry attest's mark; nothing was changed"
                .to_string(),
        });
    }
    if !found.ledger && found.tables > 0 {
        return Err(LedgerError::Postgres {
            db: db(),
            why: format!(
                "the schema holds {} tables and no attest ledger; use an empty database or \
                 schema (nothing was changed)",
                found.tables
            ),
        });
    }
    if found.version > SCHEMA_VERSION {
        return Err(LedgerError::NewerSchema {
            path: location.named(),
            found: found.version,
            supported: SCHEMA_VERSION,
        });
    }
    Ok(())
}

/// Makes or upgrades the ledger, inside the caller's transaction.
fn migrate(conn: &Conn<'_>, location: &Location) -> Result<(), LedgerError> {
    let fail = |error: DbError| match error {
        DbError::Postgres(error) => classify(location, &Budget::default(), error),
        DbError::Sqlite(error) => LedgerError::Postgres {
            db: location.to_string(),
            why: error.to_string(),
        },
    };
    conn.rows(WRITE_LOCK, values![]).map_err(fail)?;
    let found = inspect(conn).map_err(fail)?;
    refuse(&found, location)?;
    if !found.ledger {
        conn.batch(&format!(
            "CREATE TABLE attest_ledger (application_id BIGINT NOT NULL, \
             schema_version BIGINT NOT NULL); \
             INSERT INTO attest_ledger VALUES ({APPLICATION_ID}, 0)"
        ))
        .map_err(fail)?;
    }
    for version in found.version + 1..=SCHEMA_VERSION {
        conn.batch(&schema::step(version).postgres())
            .map_err(fail)?;
    }
    conn.execute(
        "UPDATE attest_ledger SET schema_version = ?1",
        values![SCHEMA_VERSION],
    )
    .map_err(fail)?;
    Ok(())
}

/// Turns what PostgreSQL said into the variant a user can act on.
pub(crate) fn classify(
    location: &Location,
    budget: &Budget,
    error: postgres::Error,
) -> LedgerError {
    if let Some(stopped) = budget.stopped_pg(&error) {
        return stopped;
    }
    let why = DbError::Postgres(error);
    match why_code(&why) {
        Some(code) if code == &SqlState::READ_ONLY_SQL_TRANSACTION => LedgerError::ReadOnly {
            path: location.named(),
            why: why.to_string(),
        },
        _ => LedgerError::Postgres {
            db: location.to_string(),
            why: why.to_string(),
        },
    }
}

fn why_code(error: &DbError) -> Option<&SqlState> {
    match error {
        DbError::Postgres(error) => error.code(),
        DbError::Sqlite(_) => None,
    }
}

/// Whether a failed statement concerns only the article being stored (bad
/// data: SQLSTATE classes 22 and 23) rather than the database or connection.
pub(crate) fn per_article(error: &postgres::Error) -> bool {
    error
        .code()
        .is_some_and(|code| code.code().starts_with("22") || code.code().starts_with("23"))
}
