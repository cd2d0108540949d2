//! Rows of one table gathered over a batch and written by one statement, and
//! the ids they are given beforehand.
//!
//! The rows travel as one parameter, a JSON array of objects keyed by column,
//! which PostgreSQL reads into rows of the table's own type with
//! `json_populate_recordset` and SQLite with `json_each`. JSON rather than
//! `unnest` of typed arrays, which would name every column's type again in
//! the statement, and rather than `COPY`, which needs an encoding of each type
//! of its own and a staging table before it can update: with JSON the table's
//! declaration stays the one place that says a column's type, and the same
//! rows and the same statement serve both databases. A batch of a hundred
//! articles is then one round trip a table instead of one a row, which was
//! most of PostgreSQL's time per article (docs/benchmarks.md).

use std::collections::HashMap;
use std::io::Write as _;

use rusqlite::types::Value;

use crate::db::{Conn, DbResult, values};

/// Rows for one table, as the JSON parameter they travel in.
pub(crate) struct Rows {
    table: &'static str,
    columns: Vec<&'static str>,
    /// The JSON array so far, without its closing bracket.
    json: Vec<u8>,
    len: usize,
    /// Which columns were given bytes, which travel as hexadecimal text.
    bytes: Vec<bool>,
}

impl Rows {
    /// No rows yet for `columns` of `table`.
    pub(crate) fn new(table: &'static str, columns: &[&'static str]) -> Rows {
        Rows {
            table,
            columns: columns.to_vec(),
            json: Vec::new(),
            len: 0,
            bytes: vec![false; columns.len()],
        }
    }

    /// Adds a row: one value per column, in the columns' order.
    pub(crate) fn push(&mut self, values: impl IntoIterator<Item = Value>) -> DbResult<()> {
        self.json.push(if self.len == 0 { b'[' } else { b',' });
        self.json.push(b'{');
        for (i, (column, value)) in self.columns.iter().zip(values).enumerate() {
            if i > 0 {
                self.json.push(b',');
            }
            if let (Value::Blob(_), Some(bytes)) = (&value, self.bytes.get_mut(i)) {
                *bytes = true;
            }
            write_json(&mut self.json, column, &value)?;
        }
        self.json.push(b'}');
        self.len += 1;
        Ok(())
    }

    /// Whether there are no rows.
    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The rows as a `FROM` item named `j`, with a column for each of
    /// [`Rows::new`]'s, read from the parameter `?1` ([`Rows::param`]).
    pub(crate) fn source(&self, db: &Conn<'_>) -> String {
        if db.is_postgres() {
            format!("json_populate_recordset(NULL::{}, ?1) AS j", self.table)
        } else {
            let columns: Vec<String> = self
                .columns
                .iter()
                .zip(&self.bytes)
                .map(|(column, &bytes)| {
                    if bytes {
                        format!("unhex(substr(value ->> '{column}', 3)) AS {column}")
                    } else {
                        format!("value ->> '{column}' AS {column}")
                    }
                })
                .collect();
            format!("(SELECT {} FROM json_each(?1)) AS j", columns.join(", "))
        }
    }

    /// A condition that `expression` is one of the rows' `column`, which
    /// both databases look up through an index on `expression`: PostgreSQL
    /// as `= ANY` of an array, since for `IN` of the rows it may rather
    /// hash them and scan the table when it guesses the table small.
    pub(crate) fn holds(&self, db: &Conn<'_>, expression: &str, column: &str) -> String {
        let source = self.source(db);
        if db.is_postgres() {
            format!("{expression} = ANY(ARRAY(SELECT j.{column} FROM {source}))")
        } else {
            format!("{expression} IN (SELECT j.{column} FROM {source})")
        }
    }

    /// The parameter that [`Rows::source`] reads. It takes the rows, so
    /// that a batch's JSON, the largest value a statement sends, is closed
    /// in place rather than copied.
    pub(crate) fn into_param(mut self) -> DbResult<Value> {
        self.json
            .extend_from_slice(if self.len == 0 { b"[]" } else { b"]" });
        let json = String::from_utf8(self.json)
            .map_err(|err| rusqlite::Error::ToSqlConversionFailure(Box::new(err)))?;
        Ok(Value::Text(json))
    }

    /// Inserts the rows into their table, in one statement.
    pub(crate) fn insert(self, db: &Conn<'_>) -> DbResult<()> {
        if self.len == 0 {
            return Ok(());
        }
        let (sql, param) = self.insert_statement(db)?;
        db.execute(&sql, &[param]).map(drop)
    }

    /// The statement that inserts the rows into their table, and its
    /// parameter.
    pub(crate) fn insert_statement(self, db: &Conn<'_>) -> DbResult<(String, Value)> {
        let columns = self.columns.join(", ");
        let sql = format!(
            "INSERT INTO {} ({columns}) SELECT {columns} FROM {}",
            self.table,
            self.source(db)
        );
        Ok((sql, self.into_param()?))
    }
}

/// Writes `"column":value` for a row's JSON object.
fn write_json(out: &mut Vec<u8>, column: &str, value: &Value) -> DbResult<()> {
    let fail = |err: Box<dyn std::error::Error + Send + Sync>| {
        rusqlite::Error::ToSqlConversionFailure(err)
    };
    write!(out, "\"{column}\":").map_err(|err| fail(Box::new(err)))?;
    match value {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Integer(v) => write!(out, "{v}").map_err(|err| fail(Box::new(err)))?,
        // JSON has no NaN or infinity; neither has a column that compares.
        Value::Real(v) if v.is_finite() => {
            serde_json::to_writer(&mut *out, v).map_err(|err| fail(Box::new(err)))?;
        }
        Value::Text(v) => serde_json::to_writer(&mut *out, v).map_err(|err| fail(Box::new(err)))?,
        // PostgreSQL's text form of `bytea`, which SQLite's `unhex` reads
        // after the prefix ([`Rows::source`]).
        Value::Blob(bytes) => {
            out.extend_from_slice(b"\"\\\\x");
            for byte in bytes {
                write!(out, "{byte:02x}").map_err(|err| fail(Box::new(err)))?;
            }
            out.push(b'"');
        }
        Value::Real(_) => {
            return Err(
                fail(format!("a value of column {column} that JSON cannot carry").into()).into(),
            );
        }
    }
    Ok(())
}

/// The ids of the rows of `table` whose `key` is one of `keys`, by key, in
/// one statement ([`by_key`]).
pub(crate) fn ids_by_key<'k>(
    db: &Conn<'_>,
    table: &'static str,
    keys: impl Iterator<Item = &'k str>,
) -> DbResult<HashMap<String, i64>> {
    let (sql, param) = by_key(db, table, keys)?;
    db.rows(&sql, &[param])?
        .into_iter()
        .map(|row| Ok((row.get("key")?, row.get("id")?)))
        .collect()
}

/// The query of [`ids_by_key`] and its parameter. It reads `table` (`t`)
/// through its index of keys, a row a key asked for, never the whole table
/// (test `finds_stored_articles_and_sources_by_key_through_their_index`).
pub(crate) fn by_key<'k>(
    db: &Conn<'_>,
    table: &'static str,
    keys: impl Iterator<Item = &'k str>,
) -> DbResult<(String, Value)> {
    let mut wanted = Rows::new(table, &["key"]);
    for key in keys {
        wanted.push([Value::Text(key.to_string())])?;
    }
    let sql = format!(
        "SELECT t.id, t.key FROM {table} t WHERE {}",
        wanted.holds(db, "t.key", "key")
    );
    Ok((sql, wanted.into_param()?))
}

/// Takes `n` new ids of `table`, in increasing order, in one round trip, so
/// that rows which later rows refer to can be written together: from the
/// table's sequence in PostgreSQL, and after the largest id in SQLite, which
/// is the id SQLite would give each row (the caller holds the write lock).
pub(crate) fn next_ids(db: &Conn<'_>, table: &str, n: usize) -> DbResult<Vec<i64>> {
    if n == 0 {
        return Ok(Vec::new());
    }
    if db.is_postgres() {
        let mut ids: Vec<i64> = db.column(
            &format!(
                "SELECT nextval(pg_get_serial_sequence('{table}', 'id')) AS id \
                 FROM generate_series(1, CAST(?1 AS BIGINT))"
            ),
            values![n as i64],
        )?;
        ids.sort_unstable();
        Ok(ids)
    } else {
        let last: i64 = db.value(
            &format!("SELECT coalesce(max(id), 0) FROM {table}"),
            values![],
        )?;
        Ok((1..=n as i64).map(|i| last + i).collect())
    }
}
