//! Whole tables, or any read-only query, as a stream of typed rows.
//!
//! Rows are pushed to a [`RowSink`] one at a time, so an export never holds a
//! table in memory. Tables are exported in the order of their primary key, which
//! makes the export of the same ledger the same bytes every time. The columns are
//! documented in `docs/ledger.md`.

use std::sync::LazyLock;

use postgres::types::Type;
use rusqlite::types::{Value, ValueRef};

use crate::corrections::READING_COLUMNS;
use crate::db::{Conn, DbError, pg_values, sqlite_values};
use crate::layers::NAMES as LAYER_NAMES;
use crate::rows::Cell;
use crate::{Budget, LedgerError};

/// Rows fetched from PostgreSQL at a time: the export streams, holding at
/// most this many.
const PG_FETCH: i32 = 1_000;

/// The tables [`crate::Ledger::export`] knows by name: the articles', the
/// sources' and the attributions' tables, the layer tables (after the
/// quotations, where version 1 made them), then the editors' (corrections,
/// reviews, and the corrected reading they give) and the claims'.
pub const TABLES: [&str; 11 + LAYER_NAMES.len()] = {
    let head = [
        "articles",
        "article_stances",
        "sources",
        "appearances",
        "attributions",
        "quotes",
    ];
    let tail = [
        "corrections",
        "reviews",
        "corrected",
        "claims",
        "statements",
    ];
    let mut tables = [""; 11 + LAYER_NAMES.len()];
    let mut i = 0;
    while i < tables.len() {
        tables[i] = if i < head.len() {
            head[i]
        } else if i < head.len() + LAYER_NAMES.len() {
            LAYER_NAMES[i - head.len()]
        } else {
            tail[i - head.len() - LAYER_NAMES.len()]
        };
        i += 1;
    }
    tables
};

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

/// The tables of a dataset (`attest export dataset`), in the order of
/// [`TABLES`]: all but `corrections`, `reviews` and `corrected`, which hold
/// editors' work rather than analyses.
pub fn dataset_tables() -> impl Iterator<Item = &'static str> {
    TABLES
        .into_iter()
        .filter(|table| !EDITORS_TABLES.contains(table))
}

/// The tables of editors' work, which belong to no one article's row.
const EDITORS_TABLES: [&str; 3] = ["corrections", "reviews", "corrected"];

/// The name of the column [`dataset_query`] adds: the month of the article a
/// row belongs to.
pub const MONTH_COLUMN: &str = "month";

/// How a table is read: what is selected, from where, in which order, and
/// the row id of the article a row belongs to. One description serves the
/// whole-table export and the dataset's monthly one, so that both carry the
/// same columns in the same order.
struct TableRead {
    columns: &'static str,
    from: String,
    order: &'static str,
    /// `None` for a table whose rows belong to no one article.
    article: Option<&'static str>,
}

/// The columns of the `corrected` export: the attribution, the correction,
/// and the attribution as read with it, what attest found included.
static CORRECTED_COLUMNS: LazyLock<String> = LazyLock::new(|| {
    format!(
        "a.article_id, k.idx AS attribution, k.created, k.wrong, k.note, t.cue_text AS cue, \
         t.content_text AS content, {}",
        *READING_COLUMNS
    )
});

fn table_read(name: &str) -> Option<TableRead> {
    Some(match name {
        // The text sits in a table of its own so that scans of the counts stay
        // small; the export joins it back as the last column.
        "articles" => TableRead {
            columns: "a.*, t.text",
            from: "articles a JOIN article_texts t ON t.article = a.id".to_string(),
            order: "a.id",
            article: Some("a.id"),
        },
        "article_stances" => TableRead {
            columns: "r.*",
            from: "article_stances r".to_string(),
            order: "r.article, r.stance",
            article: Some("r.article"),
        },
        // What a reader of the claims wants; the fingerprints that grouping
        // compares (stems, figures, names, the source's key) stay inside.
        "claims" => TableRead {
            columns: "r.id, r.n_statements, r.n_articles",
            from: "claims r".to_string(),
            order: "r.id",
            article: None,
        },
        "statements" => TableRead {
            columns: "s.id, s.article, s.claim, s.said, s.idx, s.byte_start, s.byte_end, \
                      s.cp_start, s.cp_end, substr(t.text, CAST(s.cp_start + 1 AS INTEGER), CAST(s.cp_end - s.cp_start AS INTEGER)) \
                      AS text, s.source, s.stance, s.hedged",
            from: "statements s JOIN article_texts t ON t.article = s.article".to_string(),
            order: "s.id",
            article: Some("s.article"),
        },
        // Each corrected attribution as corrected, beside what attest found.
        "corrected" => TableRead {
            columns: CORRECTED_COLUMNS.as_str(),
            from: "corrected k JOIN attributions t ON t.id = k.attribution \
                   JOIN articles a ON a.id = k.article \
                   LEFT JOIN appearances p ON p.id = t.appearance"
                .to_string(),
            order: "a.key, k.idx",
            article: None,
        },
        // A name of TABLES, never the caller's text, goes into the query.
        _ => {
            let name = TABLES.iter().find(|table| **table == name)?;
            TableRead {
                columns: "r.*",
                from: format!("{name} r"),
                order: "r.id",
                article: (*name != "sources" && !EDITORS_TABLES.contains(name))
                    .then_some("r.article"),
            }
        }
    })
}

/// The query that exports a table, or `None` for a name that is no table.
fn table_query(name: &str) -> Option<String> {
    let read = table_read(name)?;
    Some(format!(
        "SELECT {} FROM {} ORDER BY {}",
        read.columns, read.from, read.order
    ))
}

/// The query that exports a table of [`dataset_tables`] for a dataset
/// partitioned by month, and whether it is: the table's columns as
/// [`crate::Ledger::export`] gives them, then [`MONTH_COLUMN`], the first
/// seven characters (`YYYY-MM`) of the `published_date` of the row's
/// article, null when it has none; in the order of that month, then of the
/// table's export, so that each month's rows come together and in the same
/// order as in the whole table. `sources` and `claims`, whose rows belong to
/// no one article, are the table's plain export and not partitioned. `None` for a
/// name that is not a dataset table.
pub fn dataset_query(name: &str) -> Option<(String, bool)> {
    if !dataset_tables().any(|table| table == name) {
        return None;
    }
    let read = table_read(name)?;
    let Some(article) = read.article else {
        return Some((table_query(name)?, false));
    };
    let (from, date) = if name == "articles" {
        (read.from, "a.published_date")
    } else {
        (
            format!("{} JOIN articles m ON m.id = {article}", read.from),
            "m.published_date",
        )
    };
    Some((
        format!(
            "SELECT {}, substr({date}, 1, 7) AS {MONTH_COLUMN} FROM {from} \
             ORDER BY {MONTH_COLUMN}, {}",
            read.columns, read.order
        ),
        true,
    ))
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
