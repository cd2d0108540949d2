//! A full consistency check: SQLite's own checks, the full-text indexes, and the
//! counts the ledger keeps beside its rows. PostgreSQL keeps its tables, keys
//! and indexes sound itself; for it only the counts are checked.
//!
//! A ledger written only by attest passes it whatever happened to the writing
//! process, even a `kill -9` in the middle of a batch.

use serde::Serialize;

use crate::db::{Conn, DbResult, values};
use crate::layers::LAYER_TABLES;

/// What [`crate::Ledger::check`] found; [`CheckReport::is_ok`] when nothing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CheckReport {
    /// The lines of `PRAGMA integrity_check`: `["ok"]` for a sound file (and
    /// always for PostgreSQL, which checks itself).
    pub integrity: Vec<String>,
    /// Rows whose foreign key points nowhere.
    pub foreign_key_violations: i64,
    /// Problems of the full-text indexes, one line each (checked only on a
    /// ledger opened for writing).
    pub search_index: Vec<String>,
    /// Counts kept beside the rows that disagree with the rows, one line each.
    pub count_mismatches: Vec<String>,
}

impl CheckReport {
    /// Whether the ledger is sound.
    pub fn is_ok(&self) -> bool {
        self.integrity == ["ok"]
            && self.foreign_key_violations == 0
            && self.search_index.is_empty()
            && self.count_mismatches.is_empty()
    }
}

/// Per-article counts and the tables whose rows they count, besides those
/// of the layer tables.
const ARTICLE_COUNTS: [(&str, &str); 2] = [
    ("n_sources", "appearances"),
    ("n_attributions", "attributions"),
];

pub(crate) fn check(conn: &Conn<'_>, writable: bool) -> DbResult<CheckReport> {
    let (integrity, foreign_key_violations) = if conn.is_postgres() {
        (vec!["ok".to_string()], 0)
    } else {
        let integrity: Vec<String> = conn.column("PRAGMA integrity_check", values![])?;
        let violations = conn.rows("PRAGMA foreign_key_check", values![])?.len() as i64;
        (integrity, violations)
    };
    let mut search_index = Vec::new();
    // FTS5 runs its check as an INSERT command, which a read-only
    // connection refuses; such a caller gets the other checks.
    let indexes: &[&str] = if writable && !conn.is_postgres() {
        &["attributions_fts", "quotes_fts"]
    } else {
        &[]
    };
    for fts in indexes {
        let sql = format!("INSERT INTO {fts}({fts}, rank) VALUES ('integrity-check', 1)");
        if let Err(err) = conn.execute(&sql, values![]) {
            search_index.push(format!("{fts}: {err}"));
        }
    }
    let mut count_mismatches = Vec::new();
    let layer_counts = LAYER_TABLES.iter().map(|table| (table.count, table.name));
    for (column, table) in ARTICLE_COUNTS.into_iter().chain(layer_counts) {
        if let Some(wrong) = article_count_mismatch(conn, column, table)? {
            count_mismatches.push(wrong);
        }
    }
    for (sql, what) in MISMATCHES {
        let wrong: i64 = conn.value(sql, values![])?;
        if wrong > 0 {
            count_mismatches.push(format!("{wrong} {what}"));
        }
    }
    let cells = crate::cells::mismatches(conn)?;
    if cells > 0 {
        count_mismatches.push(format!(
            "{cells} statistics cells that are not their articles' sums"
        ));
    }
    let bands = crate::grouping::unsound_band_keys(conn)?;
    if bands > 0 {
        count_mismatches.push(format!(
            "{bands} band keys that hold no statement, too many, or one not stored"
        ));
    }
    Ok(CheckReport {
        integrity,
        foreign_key_violations,
        search_index,
        count_mismatches,
    })
}

/// How many articles' count `column` is not their rows of `table`, said in
/// a line, if any are.
pub(crate) fn article_count_mismatch(
    conn: &Conn<'_>,
    column: &str,
    table: &str,
) -> DbResult<Option<String>> {
    let wrong: i64 = conn.value(
        &format!(
            "SELECT count(*) FROM articles a WHERE coalesce(a.{column}, 0) != \
             (SELECT count(*) FROM {table} x WHERE x.article = a.id)"
        ),
        values![],
    )?;
    Ok((wrong > 0).then(|| format!("{wrong} articles whose {column} is not their {table} rows")))
}

/// Counts of rows at odds with the rows they stand for, each with what such
/// a row is.
const MISMATCHES: [(&str, &str); 3] = [
    (
        "SELECT count(*) FROM articles a WHERE NOT EXISTS \
         (SELECT 1 FROM article_texts t WHERE t.article = a.id)",
        "articles without their text",
    ),
    (
        "SELECT count(*) FROM sources s WHERE \
         s.n_articles != (SELECT count(DISTINCT p.article) FROM appearances p WHERE p.source = s.id) \
         OR s.n_statements != (SELECT coalesce(sum(p.n_statements), 0) FROM appearances p \
         WHERE p.source = s.id) OR s.n_articles = 0",
        "sources whose counts are not their appearances",
    ),
    (
        "SELECT count(*) FROM claims c WHERE \
         c.n_statements != (SELECT count(*) FROM statements s WHERE s.claim = c.id) \
         OR c.n_articles != (SELECT count(DISTINCT s.article) FROM statements s WHERE s.claim = c.id) \
         OR c.n_statements = 0",
        "claims whose counts are not their statements",
    ),
];
