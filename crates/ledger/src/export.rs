//! Whole tables, or any read-only query, as a stream of typed rows.
//!
//! Rows are pushed to a [`RowSink`] one at a time, so an export never holds a
//! table in memory. Tables are exported in the order of their primary key, which
//! makes the export of the same ledger the same bytes every time. The columns are
//! documented in `docs/ledger.md`.

use rusqlite::Connection;
use rusqlite::types::ValueRef;

use crate::rows::Cell;
use crate::{Budget, LedgerError};

/// The tables [`crate::Ledger::export`] knows by name.
pub const TABLES: [&str; 9] = [
    "articles",
    "sources",
    "appearances",
    "attributions",
    "quotes",
    "hedges",
    "entities",
    "quantities",
    "times",
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
    TABLES
        .contains(&name)
        .then(|| format!("SELECT * FROM {name} ORDER BY id"))
}

pub(crate) fn export(
    conn: &Connection,
    what: &str,
    sink: &mut dyn RowSink,
    budget: &Budget,
) -> Result<usize, LedgerError> {
    let bad = |why: String| LedgerError::BadQuery {
        query: what.to_string(),
        why,
    };
    let failed =
        |err: rusqlite::Error| budget.stopped(&err).unwrap_or_else(|| bad(err.to_string()));
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
    let mut statement = conn.prepare(&sql).map_err(failed)?;
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
    sink.columns(&columns).map_err(LedgerError::Sink)?;
    let mut rows = statement.query([]).map_err(failed)?;
    let mut cells = Vec::with_capacity(columns.len());
    let mut count = 0;
    while let Some(row) = rows.next().map_err(failed)? {
        budget.allow_row(count + 1)?;
        cells.clear();
        for i in 0..columns.len() {
            let value = row.get_ref(i).map_err(failed)?;
            cells.push(cell(value));
        }
        sink.row(&cells).map_err(LedgerError::Sink)?;
        count += 1;
    }
    Ok(count)
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
