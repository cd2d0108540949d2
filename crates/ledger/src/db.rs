//! One connection, to SQLite or to PostgreSQL, behind the few operations the
//! ledger's SQL needs: run a statement, read its rows, insert and learn the
//! new row's id.
//!
//! The SQL is written once, in the dialect both databases read: `?N` and `?`
//! parameters (numbered for PostgreSQL as SQLite numbers them), `CAST(... AS
//! BIGINT)` around sums (PostgreSQL sums integers into `numeric`), `IS NULL`
//! or `=` as a compared value is missing or not (never `IS NOT DISTINCT FROM`,
//! which PostgreSQL cannot look up in an index) and explicit `NULLS FIRST`
//! (SQLite's order, which PostgreSQL reverses). Values travel as SQLite's
//! [`Value`] both ways; PostgreSQL's are converted by the type of each
//! parameter and column, so the same statement and the same row mapping
//! serve both databases.

use std::cell::RefCell;
use std::collections::HashMap;
use std::error::Error;
use std::rc::Rc;

use bytes::BytesMut;
use postgres::types::{FromSql, IsNull, ToSql, Type, to_sql_checked};
use rusqlite::types::{FromSql as _, Value, ValueRef};

/// What a statement of either database can fail with.
#[derive(Debug)]
pub(crate) enum DbError {
    Sqlite(rusqlite::Error),
    Postgres(postgres::Error),
}

impl From<rusqlite::Error> for DbError {
    fn from(error: rusqlite::Error) -> DbError {
        DbError::Sqlite(error)
    }
}

impl From<postgres::Error> for DbError {
    fn from(error: postgres::Error) -> DbError {
        DbError::Postgres(error)
    }
}

impl std::fmt::Display for DbError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DbError::Sqlite(error) => error.fmt(f),
            DbError::Postgres(error) => match error.as_db_error() {
                Some(db) => f.write_str(db.message()),
                None => match error.source() {
                    Some(cause) => write!(f, "{error}: {cause}"),
                    None => error.fmt(f),
                },
            },
        }
    }
}

pub(crate) type DbResult<T> = Result<T, DbError>;

/// A row read by either database, whose columns are read by name: the
/// statement's `SELECT` list, with an `AS` name for every expression, is the
/// one place that says what each column is.
pub(crate) struct Row {
    columns: Rc<[String]>,
    values: Vec<Value>,
}

impl Row {
    /// Column `name` as `T`, converted as rusqlite converts SQLite's values.
    pub(crate) fn get<T: rusqlite::types::FromSql>(&self, name: &str) -> DbResult<T> {
        let i = self
            .columns
            .iter()
            .position(|column| column == name)
            .ok_or_else(|| rusqlite::Error::InvalidColumnName(name.to_owned()))?;
        self.at(i)
    }

    fn at<T: rusqlite::types::FromSql>(&self, i: usize) -> DbResult<T> {
        let value = self
            .values
            .get(i)
            .ok_or(rusqlite::Error::InvalidColumnIndex(i))?;
        T::column_result(ValueRef::from(value)).map_err(|error| {
            DbError::Sqlite(rusqlite::Error::FromSqlConversionFailure(
                i,
                ValueRef::from(value).data_type(),
                Box::new(error),
            ))
        })
    }

    /// The values in `SELECT` order, for tests that read a plan whatever its
    /// columns are called.
    #[cfg(test)]
    pub(crate) fn into_values(self) -> Vec<Value> {
        self.values
    }
}

/// A parameter of the shared SQL.
pub(crate) trait Param {
    fn value(&self) -> Value;
}

impl Param for i64 {
    fn value(&self) -> Value {
        Value::Integer(*self)
    }
}

impl Param for f64 {
    fn value(&self) -> Value {
        Value::Real(*self)
    }
}

impl Param for str {
    fn value(&self) -> Value {
        Value::Text(self.to_string())
    }
}

impl Param for String {
    fn value(&self) -> Value {
        Value::Text(self.clone())
    }
}

impl Param for Value {
    fn value(&self) -> Value {
        self.clone()
    }
}

impl<T: Param> Param for Option<T> {
    fn value(&self) -> Value {
        self.as_ref().map_or(Value::Null, Param::value)
    }
}

impl<T: Param + ?Sized> Param for &T {
    fn value(&self) -> Value {
        (**self).value()
    }
}

/// The parameters of a statement, each converted with [`Param`].
macro_rules! values {
    ($($value:expr),* $(,)?) => {
        &[$($crate::db::Param::value(&$value)),*][..]
    };
}
pub(crate) use values;

/// A PostgreSQL connection and the statements it has prepared, by their SQL.
pub(crate) struct Pg {
    pub(crate) client: postgres::Client,
    prepared: HashMap<String, postgres::Statement>,
}

impl std::fmt::Debug for Pg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pg")
            .field("prepared", &self.prepared.len())
            .finish_non_exhaustive()
    }
}

impl Pg {
    pub(crate) fn new(client: postgres::Client) -> Pg {
        Pg {
            client,
            prepared: HashMap::new(),
        }
    }

    /// The statement for `sql` (in the shared dialect), prepared once per
    /// connection: preparing costs a round trip to the server.
    fn prepare(&mut self, sql: &str) -> DbResult<postgres::Statement> {
        if let Some(statement) = self.prepared.get(sql) {
            return Ok(statement.clone());
        }
        let statement = self.client.prepare(&numbered(sql))?;
        self.prepared.insert(sql.to_string(), statement.clone());
        Ok(statement)
    }
}

/// A connection to either database, for one operation of the ledger.
pub(crate) enum Conn<'a> {
    Sqlite(&'a rusqlite::Connection),
    Postgres(&'a RefCell<Pg>),
}

impl Conn<'_> {
    pub(crate) fn is_postgres(&self) -> bool {
        matches!(self, Conn::Postgres(_))
    }

    /// Runs statements without parameters or results (transaction control).
    pub(crate) fn batch(&self, sql: &str) -> DbResult<()> {
        match self {
            Conn::Sqlite(conn) => Ok(conn.execute_batch(sql)?),
            Conn::Postgres(pg) => Ok(pg.borrow_mut().client.batch_execute(sql)?),
        }
    }

    /// Runs a statement and returns how many rows it changed.
    pub(crate) fn execute(&self, sql: &str, params: &[Value]) -> DbResult<u64> {
        match self {
            Conn::Sqlite(conn) => {
                let changed = conn
                    .prepare_cached(sql)?
                    .execute(rusqlite::params_from_iter(params))?;
                Ok(changed as u64)
            }
            Conn::Postgres(pg) => {
                let mut pg = pg.borrow_mut();
                let statement = pg.prepare(sql)?;
                let params = pg_params(params);
                Ok(pg.client.execute(&statement, &as_refs(&params))?)
            }
        }
    }

    /// Runs an `INSERT` into a table with an `id` key and returns the new id.
    pub(crate) fn insert(&self, sql: &str, params: &[Value]) -> DbResult<i64> {
        match self {
            Conn::Sqlite(conn) => {
                conn.prepare_cached(sql)?
                    .execute(rusqlite::params_from_iter(params))?;
                Ok(conn.last_insert_rowid())
            }
            Conn::Postgres(_) => {
                let returning = format!("{sql} RETURNING id");
                self.value(&returning, params)
            }
        }
    }

    /// Every row of a query.
    pub(crate) fn rows(&self, sql: &str, params: &[Value]) -> DbResult<Vec<Row>> {
        match self {
            Conn::Sqlite(conn) => {
                let mut statement = conn.prepare_cached(sql)?;
                let columns: Rc<[String]> = statement.column_names().map(str::to_owned).collect();
                let mut rows = statement.query(rusqlite::params_from_iter(params))?;
                let mut out = Vec::new();
                while let Some(row) = rows.next()? {
                    out.push(Row {
                        columns: Rc::clone(&columns),
                        values: sqlite_values(row, columns.len())?,
                    });
                }
                Ok(out)
            }
            Conn::Postgres(pg) => {
                let mut pg = pg.borrow_mut();
                let statement = pg.prepare(sql)?;
                let columns: Rc<[String]> = statement
                    .columns()
                    .iter()
                    .map(|column| column.name().to_owned())
                    .collect();
                let params = pg_params(params);
                pg.client
                    .query(&statement, &as_refs(&params))?
                    .iter()
                    .map(|row| {
                        Ok(Row {
                            columns: Rc::clone(&columns),
                            values: pg_values(row)?,
                        })
                    })
                    .collect()
            }
        }
    }

    /// The first row of a query, if it gives one.
    pub(crate) fn row(&self, sql: &str, params: &[Value]) -> DbResult<Option<Row>> {
        Ok(self.rows(sql, params)?.into_iter().next())
    }

    /// The one column of the first row of a query that gives one row of one
    /// column, which needs no name.
    pub(crate) fn value<T: rusqlite::types::FromSql>(
        &self,
        sql: &str,
        params: &[Value],
    ) -> DbResult<T> {
        self.row(sql, params)?
            .ok_or(rusqlite::Error::QueryReturnedNoRows)?
            .at(0)
    }

    /// The one column of every row of a query.
    pub(crate) fn column<T: rusqlite::types::FromSql>(
        &self,
        sql: &str,
        params: &[Value],
    ) -> DbResult<Vec<T>> {
        self.rows(sql, params)?
            .iter()
            .map(|row| row.at(0))
            .collect()
    }
}

pub(crate) fn sqlite_values(row: &rusqlite::Row<'_>, width: usize) -> DbResult<Vec<Value>> {
    let mut values = Vec::with_capacity(width);
    for i in 0..width {
        values.push(Value::column_result(row.get_ref(i)?).map_err(rusqlite::Error::from)?);
    }
    Ok(values)
}

pub(crate) fn pg_values(row: &postgres::Row) -> DbResult<Vec<Value>> {
    let mut values = Vec::with_capacity(row.len());
    for i in 0..row.len() {
        values.push(row.try_get::<_, PgCell>(i)?.0);
    }
    Ok(values)
}

/// `sql` with SQLite's `?N` and `?` parameters written as PostgreSQL's `$N`:
/// a bare `?` is one more than the highest number before it, as in SQLite.
/// Quoted text and identifiers are copied as they are.
pub(crate) fn numbered(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len() + 8);
    let mut highest = 0u32;
    let mut quote: Option<char> = None;
    let mut chars = sql.chars().peekable();
    while let Some(ch) = chars.next() {
        match (quote, ch) {
            (Some(open), _) => {
                out.push(ch);
                if ch == open {
                    quote = None;
                }
            }
            (None, '\'' | '"') => {
                quote = Some(ch);
                out.push(ch);
            }
            (None, '?') => {
                let mut digits = String::new();
                while let Some(digit) = chars.next_if(char::is_ascii_digit) {
                    digits.push(digit);
                }
                let number = digits.parse().unwrap_or(highest + 1);
                highest = highest.max(number);
                out.push('$');
                out.push_str(&number.to_string());
            }
            (None, _) => out.push(ch),
        }
    }
    out
}

/// A SQLite value bound to a PostgreSQL parameter of whatever type the
/// server inferred for it.
#[derive(Debug)]
struct PgValue(Value);

fn pg_params(params: &[Value]) -> Vec<PgValue> {
    params.iter().cloned().map(PgValue).collect()
}

fn as_refs(params: &[PgValue]) -> Vec<&(dyn ToSql + Sync)> {
    params.iter().map(|p| p as &(dyn ToSql + Sync)).collect()
}

type BoxError = Box<dyn Error + Sync + Send>;

impl ToSql for PgValue {
    fn to_sql(&self, ty: &Type, out: &mut BytesMut) -> Result<IsNull, BoxError> {
        match &self.0 {
            Value::Null => Ok(IsNull::Yes),
            Value::Integer(v) => match *ty {
                Type::INT2 => i16::try_from(*v)?.to_sql(ty, out),
                Type::INT4 => i32::try_from(*v)?.to_sql(ty, out),
                Type::FLOAT8 => (*v as f64).to_sql(ty, out),
                Type::BOOL => (*v != 0).to_sql(ty, out),
                Type::TEXT | Type::VARCHAR => v.to_string().to_sql(ty, out),
                _ => v.to_sql(ty, out),
            },
            Value::Real(v) => match *ty {
                Type::FLOAT4 => (*v as f32).to_sql(ty, out),
                Type::TEXT | Type::VARCHAR => v.to_string().to_sql(ty, out),
                _ => v.to_sql(ty, out),
            },
            Value::Text(v) => v.as_str().to_sql(ty, out),
            Value::Blob(v) => v.as_slice().to_sql(ty, out),
        }
    }

    fn accepts(_: &Type) -> bool {
        true
    }

    to_sql_checked!();
}

/// A PostgreSQL column value as the SQLite value it stands for.
struct PgCell(Value);

impl<'a> FromSql<'a> for PgCell {
    fn from_sql(ty: &Type, raw: &'a [u8]) -> Result<PgCell, BoxError> {
        let value = match *ty {
            Type::INT2 => Value::Integer(i16::from_sql(ty, raw)?.into()),
            Type::INT4 => Value::Integer(i32::from_sql(ty, raw)?.into()),
            Type::INT8 => Value::Integer(i64::from_sql(ty, raw)?),
            Type::OID => Value::Integer(u32::from_sql(ty, raw)?.into()),
            Type::BOOL => Value::Integer(bool::from_sql(ty, raw)?.into()),
            Type::FLOAT4 => Value::Real(f32::from_sql(ty, raw)?.into()),
            Type::FLOAT8 => Value::Real(f64::from_sql(ty, raw)?),
            Type::BYTEA => Value::Blob(<Vec<u8>>::from_sql(ty, raw)?),
            Type::VOID => Value::Null,
            _ if <String as FromSql>::accepts(ty) => Value::Text(String::from_sql(ty, raw)?),
            _ => {
                return Err(format!(
                    "a column of type {ty} (cast it to bigint, double precision or text)"
                )
                .into());
            }
        };
        Ok(PgCell(value))
    }

    fn from_sql_null(_: &Type) -> Result<PgCell, BoxError> {
        Ok(PgCell(Value::Null))
    }

    fn accepts(_: &Type) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_numbered_as_sqlite_numbers_them() {
        assert_eq!(
            numbered("a = ?1 AND b = ? AND c = ?3 AND d = ? AND e = '?' AND \"?\" = ?2"),
            "a = $1 AND b = $2 AND c = $3 AND d = $4 AND e = '?' AND \"?\" = $2"
        );
    }
}
