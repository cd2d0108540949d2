//! Whole tables, or any read-only query, as a stream of typed rows.
//!
//! Rows are pushed to a [`RowSink`] one at a time, so an export never holds a
//! table in memory. Tables are exported in the order of their primary key, which
//! makes the export of the same ledger the same bytes every time. The columns are
//! documented in `docs/ledger.md`.

use postgres::types::Type;
use rusqlite::types::{Value, ValueRef};

use crate::db::{Conn, DbError, pg_values, sqlite_values};
use crate::rows::Cell;
use crate::{Budget, LedgerError};

/// Rows fetched from PostgreSQL at a time: the export streams, holding at
/// most this many.
const PG_FETCH: i32 = 1_000;

/// The tables [`crate::Ledger::export`] knows by name.
pub const TABLES: [&str; 11] = [
    "articles",
    "article_stances",
    "sources",
    "appearances",
    "attributions",
    "quotes",
    "hedges",
    "entities",
    "quantities",
    "times",
    "corrections",
];

/// The type a column's values have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColumnType {
    /// 64-bit integers.
    Integer,
    /// 64-bit floats.
    Real,
    /// UTF-8 text.
    Text,
    /// Not declared: a computed column of a query, typed by its values.
    Unknown,
}

/// A column of an export.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Column {
    /// Its name.
    pub name: String,
    /// The type its table declares.
    pub declared: ColumnType,
}

/// Where exported rows go.
pub trait RowSink {
    /// Called once, before the first row.
    fn columns(&mut self, columns: &[Column]) -> std::io::Result<()>;
    /// Called for each row, with one cell per column.
    fn row(&mut self, cells: &[Cell]) -> std::io::Result<()>;
}

/// The query that exports a table, or `None` for a name that is no table.
fn table_query(name: &str) -> Option<String> {
    if name == "articles" {
        // The text sits in a table of its own so that scans of the counts stay
        // small; the export joins it back as the last column.
        return Some(
            "SELECT a.*, t.text FROM articles a JOIN article_texts t ON t.article = a.id \
             ORDER BY a.id"
                .to_string(),
        );
    }
    if name == "article_stances" {
        return Some("SELECT * FROM article_stances ORDER BY article, stance".to_string());
    }
    TABLES
        .contains(&name)
        .then(|| format!("SELECT * FROM {name} ORDER BY id"))
}

pub(crate) fn export(
    conn: &Conn<'_>,
    what: &str,
    sink: &mut dyn RowSink,
    budget: &Budget,
    fail: &dyn Fn(DbError) -> LedgerError,
) -> Result<usize, LedgerError> {
    let bad = |why: String| LedgerError::BadQuery {
        query: what.to_string(),
        why,
    };
    let failed = |err: DbError| match fail(err) {
        stopped @ (LedgerError::OverTime { .. } | LedgerError::Cancelled) => stopped,
        other => bad(other.to_string()),
    };
    let sql = match table_query(what) {
        Some(sql) => sql,
        None => {
            let first = what.split_whitespace().next().unwrap_or_default();
            if !(first.eq_ignore_ascii_case("select") || first.eq_ignore_ascii_case("with")) {
                return Err(bad(format!(
                    "neither a table ({}) nor a SELECT query",
                    TABLES.join(", ")
                )));
            }
            what.to_string()
        }
    };
    let mut rows = Rows {
        sink,
        budget,
        count: 0,
        cells: Vec::new(),
    };
    match conn {
        Conn::Sqlite(conn) => {
            let mut statement = conn.prepare(&sql).map_err(|err| failed(err.into()))?;
            if !statement.readonly() {
                return Err(bad(
                    "only queries that change nothing can be exported".to_string()
                ));
            }
            let columns: Vec<Column> = statement
                .columns()
                .map(|column| Column {
                    name: column.name().to_string(),
                    declared: declared_type(column.decl_type()),
                })
                .collect();
            rows.columns(&columns)?;
            let mut found = statement.query([]).map_err(|err| failed(err.into()))?;
            while let Some(row) = found.next().map_err(|err| failed(err.into()))? {
                rows.row(sqlite_values(row, columns.len()).map_err(failed)?)?;
            }
        }
        Conn::Postgres(pg) => {
            let mut pg = pg.borrow_mut();
            // A read-only transaction refuses whatever would write, as
            // SQLite's read-only statements do, and a portal streams.
            let mut tx = pg
                .client
                .build_transaction()
                .read_only(true)
                .start()
                .map_err(|err| failed(err.into()))?;
            let statement = tx.prepare(&sql).map_err(|err| failed(err.into()))?;
            let columns: Vec<Column> = statement
                .columns()
                .iter()
                .map(|column| Column {
                    name: column.name().to_string(),
                    declared: pg_type(column.type_()),
                })
                .collect();
            rows.columns(&columns)?;
            let portal = tx.bind(&statement, &[]).map_err(|err| failed(err.into()))?;
            loop {
                if budget.cancelled() {
                    return Err(LedgerError::Cancelled);
                }
                let fetched = tx
                    .query_portal(&portal, PG_FETCH)
                    .map_err(|err| failed(err.into()))?;
                if fetched.is_empty() {
                    break;
                }
                for row in &fetched {
                    rows.row(pg_values(row).map_err(failed)?)?;
                }
            }
        }
    }
    Ok(rows.count)
}

/// The rows of an export on their way to the sink, counted against the budget.
struct Rows<'a> {
    sink: &'a mut dyn RowSink,
    budget: &'a Budget,
    count: usize,
    cells: Vec<Cell>,
}

impl Rows<'_> {
    fn columns(&mut self, columns: &[Column]) -> Result<(), LedgerError> {
        self.sink.columns(columns).map_err(LedgerError::Sink)
    }

    fn row(&mut self, values: Vec<Value>) -> Result<(), LedgerError> {
        self.budget.allow_row(self.count + 1)?;
        self.cells.clear();
        self.cells
            .extend(values.iter().map(|value| cell(ValueRef::from(value))));
        self.sink.row(&self.cells).map_err(LedgerError::Sink)?;
        self.count += 1;
        Ok(())
    }
}

/// The column type of a PostgreSQL column, as SQLite would declare it.
fn pg_type(ty: &Type) -> ColumnType {
    match *ty {
        Type::INT2 | Type::INT4 | Type::INT8 | Type::OID | Type::BOOL => ColumnType::Integer,
        Type::FLOAT4 | Type::FLOAT8 => ColumnType::Real,
        Type::TEXT | Type::VARCHAR | Type::BPCHAR | Type::NAME => ColumnType::Text,
        _ => ColumnType::Unknown,
    }
}

fn declared_type(decl: Option<&str>) -> ColumnType {
    match decl.map(str::to_ascii_uppercase).as_deref() {
        Some("INTEGER") => ColumnType::Integer,
        Some("REAL") => ColumnType::Real,
        Some("TEXT") => ColumnType::Text,
        _ => ColumnType::Unknown,
    }
}

fn cell(value: ValueRef<'_>) -> Cell {
    match value {
        ValueRef::Null => Cell::Null,
        ValueRef::Integer(v) => Cell::Integer(v),
        ValueRef::Real(v) => Cell::Real(v),
        ValueRef::Text(bytes) => Cell::Text(String::from_utf8_lossy(bytes).into_owned()),
        // No ledger table holds blobs; a query that makes one gets it in hex,
        // which every format can carry.
        ValueRef::Blob(bytes) => Cell::Text(bytes.iter().map(|b| format!("{b:02x}")).collect()),
    }
}
