//! The questions people ask a ledger: who is quoted most, what did a source
//! say, where are these words, how does each outlet source its stories.
//!
//! Every query reads counts kept at ingest time or walks an index, so each
//! answers in milliseconds on a corpus of a hundred thousand articles (see
//! docs/benchmarks.md).

use std::collections::HashMap;
use std::sync::LazyLock;

use attest_doc::{AttributionKind, SourceKind, StanceLabel, from_serde_name, serde_name};
use rusqlite::types::Value;

use crate::db::{Conn, DbResult, Row, values};
use crate::rows::{
    ArticleAttribution, ArticleDetail, ArticleRow, ArticleSource, ArticleSpan, RoleSpans,
    SearchHit, SourceRow, Statement, StatsRow,
};
use attest_lang::identity;

use crate::corrections::{READ_SOURCE, READ_WRONG, READING_COLUMNS, READING_JOIN, RECOUNTED};
use crate::store::by_article_id;
use crate::{cells, corrections};

/// Which articles a query looks at. The default looks at all of them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    /// Only articles of this outlet (exactly as stored).
    pub outlet: Option<String>,
    /// Only articles published on or after this date.
    pub since: Option<jiff::civil::Date>,
    /// Only articles published on or before this date.
    pub until: Option<jiff::civil::Date>,
    /// Only sources of this kind (for [`crate::Ledger::top_sources`]).
    pub kind: Option<SourceKind>,
    /// Only sources whose name holds these words, in this order, compared
    /// as [`identity`] compares names (for [`crate::Ledger::top_sources`]).
    pub name: Option<String>,
}

/// How the statistics group articles.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum GroupBy {
    /// By outlet.
    #[default]
    Outlet,
    /// By month of publication (`YYYY-MM`).
    Month,
    /// Everything in one row.
    All,
}

/// SQL conditions over an article table aliased `alias`, and their parameters.
struct Conditions {
    sql: Vec<String>,
    params: Vec<Value>,
}

impl Conditions {
    fn new(filter: &Filter, outlet: &str, date: &str) -> Conditions {
        let mut conditions = Conditions {
            sql: Vec::new(),
            params: Vec::new(),
        };
        if let Some(name) = &filter.outlet {
            conditions.push(format!("{outlet} = ?"), Value::Text(name.clone()));
        }
        if let Some(since) = filter.since {
            conditions.push(format!("{date} >= ?"), Value::Text(since.to_string()));
        }
        if let Some(until) = filter.until {
            conditions.push(format!("{date} <= ?"), Value::Text(until.to_string()));
        }
        conditions
    }

    fn push(&mut self, sql: String, param: Value) {
        self.sql.push(sql);
        self.params.push(param);
    }

    fn is_empty(&self) -> bool {
        self.sql.is_empty()
    }

    /// `WHERE a AND b`, or nothing.
    fn where_clause(&self) -> String {
        if self.sql.is_empty() {
            String::new()
        } else {
            format!("WHERE {}", self.sql.join(" AND "))
        }
    }
}

fn limit_value(limit: usize) -> Value {
    Value::Integer(i64::try_from(limit).unwrap_or(i64::MAX))
}

pub(crate) fn top_sources(
    conn: &Conn<'_>,
    filter: &Filter,
    page: Page,
) -> DbResult<Vec<SourceRow>> {
    let (mut conditions, grouped) = source_conditions(filter);
    let sql = if grouped {
        // Counted from the appearances the filter keeps, with what the
        // corrections of the same articles move; only the kept rows meet `sources`.
        let moved = Conditions::new(filter, "a.outlet", "a.published_date");
        let sql = format!(
            "SELECT s.id, s.name, s.kind, s.key IS NOT NULL AS merged, r.n AS n_statements, \
             r.a AS n_articles FROM \
             (SELECT g.source AS source, g.n + coalesce(d.n, 0) AS n, g.a AS a FROM \
             (SELECT p.source AS source, CAST(SUM(p.n_statements) AS BIGINT) AS n, \
             COUNT(DISTINCT p.article) AS a FROM appearances p {} GROUP BY p.source) g \
             LEFT JOIN ({}) d ON d.source = g.source \
             ORDER BY n DESC, g.source LIMIT ? OFFSET ?) r \
             JOIN sources s ON s.id = r.source ORDER BY r.n DESC, s.id",
            conditions.where_clause(),
            corrections::moved_statements(&moved.sql.join(" AND "))
        );
        // The moved statements' conditions stand twice, once in each branch.
        conditions.params.extend(moved.params.iter().cloned());
        conditions.params.extend(moved.params);
        sql
    } else {
        // No article filter: the counts kept on each source, and what the
        // corrections move, answer directly.
        format!(
            "SELECT {SOURCE_COLUMNS} FROM {} {} ORDER BY n_statements DESC, s.id \
             LIMIT ? OFFSET ?",
            sources_from(conn)?,
            conditions.where_clause()
        )
    };
    conditions.params.push(limit_value(page.limit));
    conditions.params.push(limit_value(page.offset));
    conn.rows(&sql, &conditions.params)?
        .iter()
        .map(source_row)
        .collect()
}

/// How many sources [`top_sources`] ranks in all, past any page.
pub(crate) fn sources_total(conn: &Conn<'_>, filter: &Filter) -> DbResult<i64> {
    let (conditions, grouped) = source_conditions(filter);
    let sql = if grouped {
        format!(
            "SELECT COUNT(DISTINCT p.source) AS n FROM appearances p {}",
            conditions.where_clause()
        )
    } else {
        format!(
            "SELECT COUNT(*) AS n FROM sources {}",
            conditions.where_clause()
        )
    };
    conn.row(&sql, &conditions.params)?
        .map_or(Ok(0), |row| row.get("n"))
}

/// The conditions of [`top_sources`], and whether they filter articles, so
/// that sources are counted from their appearances (aliased `p`) rather than
/// from the totals kept on each source.
fn source_conditions(filter: &Filter) -> (Conditions, bool) {
    let mut conditions = Conditions::new(filter, "p.outlet", "p.published_date");
    let grouped = !conditions.is_empty();
    let column = |name: &str| {
        if grouped {
            format!("p.{name}")
        } else {
            name.to_string()
        }
    };
    if let Some(kind) = filter.kind {
        conditions.push(
            format!("{} = ?", column("kind")),
            Value::Text(serde_name(&kind)),
        );
    }
    if let Some(name) = filter.name.as_deref() {
        let pattern = format!("%{}%", like_escaped(&identity::normalize(name)));
        let matching = "name_norm LIKE ? ESCAPE '\\'";
        let sql = if grouped {
            format!("p.source IN (SELECT id FROM sources WHERE {matching})")
        } else {
            matching.to_string()
        };
        conditions.push(sql, Value::Text(pattern));
    }
    (conditions, grouped)
}

/// `text` with LIKE's wildcards and its escape character escaped, so that
/// a name with "%" or "_" in it matches only itself.
fn like_escaped(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '%' | '_' | '\\') {
            escaped.push('\\');
        }
        escaped.push(c);
    }
    escaped
}

/// A page of ranked rows: `limit` rows from the `offset`-th.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Page {
    /// How many rows come before the page.
    pub offset: usize,
    /// How many rows the page holds at most.
    pub limit: usize,
}

impl Page {
    /// The first `limit` rows.
    pub fn first(limit: usize) -> Page {
        Page { offset: 0, limit }
    }
}

/// What [`source_row`] reads, from [`SOURCES`]: the statements counted
/// at ingest, with what corrections moved.
const SOURCE_COLUMNS: &str = "s.id AS id, s.name AS name, s.kind AS kind, \
     s.key IS NOT NULL AS merged, s.n_statements + coalesce(d.n, 0) AS n_statements, \
     s.n_articles AS n_articles";

/// The sources (`s`), each beside what corrections moved to or from it (`d`).
static SOURCES: LazyLock<String> = LazyLock::new(|| {
    format!(
        "sources s LEFT JOIN ({}) d ON d.source = s.id",
        corrections::moved_statements("")
    )
});

/// [`SOURCES`], or where no editor corrected anything, the sources beside
/// nothing: probing every source for moved statements cost a ranking of
/// 10,000 sources four times as long.
fn sources_from(conn: &Conn<'_>) -> DbResult<&'static str> {
    let corrected: i64 = conn.value(
        "SELECT count(*) FROM (SELECT 1 FROM corrections LIMIT 1) c",
        values![],
    )?;
    Ok(if corrected > 0 {
        SOURCES.as_str()
    } else {
        "sources s LEFT JOIN (SELECT CAST(NULL AS BIGINT) AS source, \
         CAST(NULL AS BIGINT) AS n) d ON 1 = 0"
    })
}

fn source_row(row: &Row) -> DbResult<SourceRow> {
    Ok(SourceRow {
        id: row.get("id")?,
        name: row.get("name")?,
        kind: row.get("kind")?,
        merged: row.get("merged")?,
        statements: row.get("n_statements")?,
        articles: row.get("n_articles")?,
    })
}

/// One source by its ledger id, counted over all articles.
pub(crate) fn source(conn: &Conn<'_>, id: i64) -> DbResult<Option<SourceRow>> {
    conn.row(
        &format!(
            "SELECT {SOURCE_COLUMNS} FROM {} WHERE s.id = ?1",
            sources_from(conn)?
        ),
        values![id],
    )?
    .as_ref()
    .map(source_row)
    .transpose()
}

/// What [`article_row`] reads of an article `a`: its attributions and direct
/// quotes counted at ingest, as its corrections leave them.
static ARTICLE_COLUMNS: LazyLock<String> = LazyLock::new(|| {
    let recounted = |kind: &str| {
        format!("(SELECT coalesce(sum(m.sign), 0) FROM {RECOUNTED} m WHERE m.article = a.id{kind})")
    };
    format!(
        "a.article_id, a.title, a.outlet, a.url, a.published, a.words, \
         a.n_attributions + {} AS n_attributions, a.n_sources, a.n_unnamed, \
         a.n_direct + {} AS n_direct, a.n_hedges",
        recounted(""),
        recounted(" AND m.kind = 'direct'")
    )
});

fn article_row(row: &Row) -> DbResult<ArticleRow> {
    Ok(ArticleRow {
        id: row.get("article_id")?,
        title: row.get("title")?,
        outlet: row.get("outlet")?,
        url: row.get("url")?,
        published: row.get("published")?,
        words: row.get("words")?,
        attributions: row.get("n_attributions")?,
        sources: row.get("n_sources")?,
        unnamed_sources: row.get("n_unnamed")?,
        direct_quotes: row.get("n_direct")?,
        hedges: row.get("n_hedges")?,
    })
}

/// Stored articles, newest first (those without a date last), `offset` rows in.
pub(crate) fn articles(
    conn: &Conn<'_>,
    filter: &Filter,
    limit: usize,
    offset: usize,
) -> DbResult<Vec<ArticleRow>> {
    let mut conditions = Conditions::new(filter, "a.outlet", "a.published_date");
    conditions.params.push(limit_value(limit));
    conditions.params.push(limit_value(offset));
    let sql = format!(
        "SELECT {} FROM articles a {} \
         ORDER BY a.published_date IS NULL, a.published_date DESC, a.id DESC LIMIT ? OFFSET ?",
        *ARTICLE_COLUMNS,
        conditions.where_clause()
    );
    conn.rows(&sql, &conditions.params)?
        .iter()
        .map(article_row)
        .collect()
}

/// One stored article by its id (see [`by_article_id`]), its attributions as
/// its corrections leave them.
pub(crate) fn article(conn: &Conn<'_>, id: &str) -> DbResult<Option<ArticleDetail>> {
    let found = conn.row(
        &by_article_id(&format!("{}, a.id, a.key", *ARTICLE_COLUMNS)),
        values![id],
    )?;
    let Some(found) = found else {
        return Ok(None);
    };
    let rowid: i64 = found.get("id")?;
    let key: String = found.get("key")?;
    let article = article_row(&found)?;
    let text: String = conn.value(
        "SELECT text FROM article_texts WHERE article = ?1",
        values![rowid],
    )?;
    let offsets = attest_doc::OffsetIndex::new(&text);
    let sources = conn
        .rows(
            "SELECT idx, source, name, kind FROM appearances WHERE article = ?1 ORDER BY idx",
            values![rowid],
        )?
        .iter()
        .map(|row| {
            Ok(ArticleSource {
                index: row.get("idx")?,
                source_id: row.get("source")?,
                name: row.get("name")?,
                kind: row.get("kind")?,
            })
        })
        .collect::<DbResult<Vec<_>>>()?;
    let corrections = corrections::of_article(conn, rowid, &key)?;
    let attributions = conn
        .rows(
            &format!(
                "SELECT t.idx, t.cue_text, t.content_text, t.source_spans, t.cue_spans, \
                 t.content_spans, {} FROM attributions t \
                 LEFT JOIN appearances p ON p.id = t.appearance {READING_JOIN} \
                 WHERE t.article = ?1 ORDER BY t.idx",
                *READING_COLUMNS
            ),
            values![rowid],
        )?
        .iter()
        .map(|row| {
            let spans = |column: &str| -> DbResult<Vec<ArticleSpan>> {
                Ok(article_spans(&text, &offsets, &row.get::<String>(column)?))
            };
            let reading = corrections::reading(row)?;
            Ok(ArticleAttribution {
                index: row.get("idx")?,
                source_id: reading.source_id,
                source: reading.source,
                kind: reading.kind,
                stance: reading.stance,
                cue: row.get("cue_text")?,
                content: row.get("content_text")?,
                spans: RoleSpans {
                    source: spans("source_spans")?,
                    cue: spans("cue_spans")?,
                    content: spans("content_spans")?,
                },
                source_type: reading.source_type,
                correction: reading
                    .correction
                    .and_then(|id| corrections.iter().find(|c| c.id == id).cloned()),
                found: reading.found,
            })
        })
        .collect::<DbResult<Vec<_>>>()?;
    let review = corrections::latest_review(conn, rowid, &key)?;
    Ok(Some(ArticleDetail {
        article,
        text,
        attributions,
        sources,
        corrections,
        review,
    }))
}

/// A stored span list (a JSON array of `[start, end]` byte pairs) as spans of
/// `text`, with code points; a pair that is not a span of the text is left
/// out, as the ledger's check reports it.
fn article_spans(text: &str, offsets: &attest_doc::OffsetIndex, json: &str) -> Vec<ArticleSpan> {
    corrections::spans(json)
        .into_iter()
        .filter_map(|[start, end]| {
            Some(ArticleSpan {
                byte_start: i64::try_from(start).ok()?,
                byte_end: i64::try_from(end).ok()?,
                cp_start: i64::try_from(offsets.byte_to_cp(start)?).ok()?,
                cp_end: i64::try_from(offsets.byte_to_cp(end)?).ok()?,
                text: text.get(start..end)?.to_string(),
            })
        })
        .collect()
}

/// Every source whose name, compared as [`identity`] compares names, is `name`.
pub(crate) fn find_sources(conn: &Conn<'_>, name: &str) -> DbResult<Vec<SourceRow>> {
    let (plain, person) = query_names(name);
    conn.rows(
        &format!(
            "SELECT {SOURCE_COLUMNS} FROM {} \
             WHERE s.name_norm IN (?1, ?2) ORDER BY n_statements DESC, s.id",
            sources_from(conn)?
        ),
        values![plain, person],
    )?
    .iter()
    .map(source_row)
    .collect()
}

/// The two forms a queried name is looked up in: as an organization (without a
/// leading "the") and as a person (without titles), since "General Motors"
/// and "General Ada Moss" begin alike.
fn query_names(name: &str) -> (String, String) {
    let normalized = identity::normalize(name);
    let plain = normalized
        .strip_prefix("the ")
        .unwrap_or(&normalized)
        .to_string();
    (plain, identity::query_name(name))
}

/// Which sources [`statements`] reports.
pub(crate) enum Speakers<'a> {
    /// One source by id.
    Id(i64),
    /// Every source of a name (see [`find_sources`]).
    Named(&'a str),
}

/// What a source said, as corrections leave it: its own statements, less
/// those an editor gave another source or marked as not attributions, and
/// those an editor gave it.
pub(crate) fn statements(
    conn: &Conn<'_>,
    speakers: Speakers<'_>,
    filter: &Filter,
    limit: usize,
) -> DbResult<Vec<Statement>> {
    let (speaker, speaker_params) = match speakers {
        Speakers::Id(id) => ("= ?".to_string(), vec![Value::Integer(id)]),
        Speakers::Named(name) => {
            let (plain, person) = query_names(name);
            (
                "IN (SELECT id FROM sources WHERE name_norm IN (?, ?))".to_string(),
                vec![Value::Text(plain), Value::Text(person)],
            )
        }
    };
    let mut conditions = Conditions::new(filter, "a.outlet", "a.published_date");
    // The candidates walk the source's appearances, and the few corrections.
    conditions.sql.push(format!(
        "t.id IN (SELECT y.id FROM appearances o JOIN attributions y ON y.appearance = o.id \
         WHERE o.source {speaker} UNION SELECT attribution FROM corrected WHERE source {speaker})"
    ));
    conditions.params.extend(speaker_params.iter().cloned());
    conditions.params.extend(speaker_params.iter().cloned());
    conditions.sql.push(format!("{READ_SOURCE} {speaker}"));
    conditions.params.extend(speaker_params);
    conditions.sql.push(format!("{READ_WRONG} = 0"));
    conditions.params.push(limit_value(limit));
    let sql = format!(
        "SELECT a.article_id, t.idx, a.outlet, a.published_date, t.cue_text, t.content_text, \
         {} FROM attributions t JOIN articles a ON a.id = t.article \
         LEFT JOIN appearances p ON p.id = t.appearance {READING_JOIN} {} \
         ORDER BY a.published_date NULLS FIRST, a.id, t.idx LIMIT ?",
        *READING_COLUMNS,
        conditions.where_clause()
    );
    conn.rows(&sql, &conditions.params)?
        .iter()
        .map(|row| {
            let reading = corrections::reading(row)?;
            Ok(Statement {
                source_id: row.get("source_id")?,
                source: reading.source.unwrap_or_default(),
                article: row.get("article_id")?,
                attribution: row.get("idx")?,
                outlet: row.get("outlet")?,
                date: row.get("published_date")?,
                kind: reading.kind,
                stance: reading.stance,
                cue: row.get("cue_text")?,
                content: row.get("content_text")?,
                found: reading.found,
            })
        })
        .collect()
}

/// Marks FTS5's `highlight` puts around each match: control characters that
/// article text almost never holds (and when it does, matches are left out
/// rather than misplaced).
const OPEN: char = '\u{2}';
const CLOSE: char = '\u{3}';

/// Turns what a user types into an FTS5 query: each word must occur (stemmed,
/// so "bargain" finds "bargaining"), a "quoted phrase" must occur as a phrase,
/// and a word ending in `*` is a prefix. FTS5 operators are not interpreted.
pub fn plain_query(text: &str) -> String {
    let mut terms = Vec::new();
    for (i, part) in text.split('"').enumerate() {
        if i % 2 == 1 {
            if !part.trim().is_empty() {
                terms.push(format!("\"{}\"", part.trim()));
            }
            continue;
        }
        for word in part.split_whitespace() {
            let (stem, prefix) = match word.strip_suffix('*') {
                Some(stem) => (stem, "*"),
                None => (word, ""),
            };
            if !stem.is_empty() {
                terms.push(format!("\"{stem}\"{prefix}"));
            }
        }
    }
    terms.join(" ")
}

/// A full-text query in the syntax of the ledger's database.
pub(crate) enum Search {
    /// FTS5's syntax (SQLite).
    Fts5(String),
    /// `to_tsquery`'s syntax (PostgreSQL), as [`plain_tsquery`] writes it.
    Tsquery(String),
    /// `websearch_to_tsquery`'s syntax (PostgreSQL), as a user types it.
    Websearch(String),
}

impl Search {
    pub(crate) fn is_empty(&self) -> bool {
        match self {
            Search::Fts5(q) | Search::Tsquery(q) | Search::Websearch(q) => q.trim().is_empty(),
        }
    }
}

/// Turns what a user types into a PostgreSQL `tsquery` that finds what
/// [`plain_query`] finds in SQLite: each word must occur (stemmed), a "quoted
/// phrase" as a phrase, and a word ending in `*` is a prefix. Words are split
/// where FTS5 splits them, at anything that is not a letter or digit.
pub fn plain_tsquery(text: &str) -> String {
    let mut terms = Vec::new();
    let mut term = |part: &str, prefix: bool| {
        let lexemes: Vec<String> = part
            .split(|c: char| !c.is_alphanumeric())
            .filter(|lexeme| !lexeme.is_empty())
            .map(|lexeme| format!("'{lexeme}'"))
            .collect();
        if let Some(last) = lexemes.last() {
            let star = if prefix { ":*" } else { "" };
            let (init, _) = lexemes.split_at(lexemes.len() - 1);
            let mut joined = init.join(" <-> ");
            if !joined.is_empty() {
                joined.push_str(" <-> ");
            }
            terms.push(format!("{joined}{last}{star}"));
        }
    };
    for (i, part) in text.split('"').enumerate() {
        if i % 2 == 1 {
            term(part, false);
            continue;
        }
        for word in part.split_whitespace() {
            match word.strip_suffix('*') {
                Some(stem) => term(stem, true),
                None => term(word, false),
            }
        }
    }
    terms.join(" & ")
}

/// The texts searched: attributed content, and quotations no attribution
/// covers. Each is `(found_in, table, text column)`.
pub(crate) const SEARCHED: [(&str, &str, &str); 2] = [
    ("attribution", "attributions", "content_text"),
    ("quote", "quotes", "text"),
];

pub(crate) fn search(
    conn: &Conn<'_>,
    query: &Search,
    filter: &Filter,
    limit: usize,
) -> DbResult<Vec<SearchHit>> {
    let mut hits = Vec::new();
    for (found_in, table, content) in SEARCHED {
        let conditions = Conditions::new(filter, "a.outlet", "a.published_date");
        let (attribution, speaker_join) = if table == "attributions" {
            (
                format!(
                    "t.idx AS attribution, t.cue_text AS cue, {}",
                    *READING_COLUMNS
                ),
                // `t` is `x` again, under the name the reading is written over.
                format!(
                    "JOIN attributions t ON t.id = x.id \
                     LEFT JOIN appearances p ON p.id = t.appearance {READING_JOIN}"
                ),
            )
        } else {
            (
                "NULL AS attribution, NULL AS cue, NULL AS source, NULL AS source_id, \
                 NULL AS stance, NULL AS correction"
                    .to_string(),
                String::new(),
            )
        };
        let select = format!(
            "a.article_id, a.title, a.outlet, a.published_date, {attribution}, x.{content} AS text"
        );
        let sql = match query {
            Search::Fts5(_) => {
                let fts = format!("{table}_fts");
                // Rank first, then join and highlight only the rows kept:
                // ranking is cheap, highlighting every match of a common word
                // is not. The limit is written into the SQL so that the bare
                // `?` of the filter number on from ?2 in text order.
                let top = if conditions.is_empty() {
                    format!(
                        "SELECT rowid FROM {fts} WHERE {fts} MATCH ?1{} ORDER BY rank \
                         LIMIT {limit}",
                        unless_wrong(table, "rowid")
                    )
                } else {
                    format!(
                        "SELECT f.rowid FROM {fts} f JOIN {table} x ON x.id = f.rowid \
                         JOIN articles a ON a.id = x.article WHERE {fts} MATCH ?1 AND {}{} \
                         ORDER BY f.rank LIMIT {limit}",
                        conditions.sql.join(" AND "),
                        unless_wrong(table, "x.id")
                    )
                };
                format!(
                    "SELECT {select}, highlight({fts}, 0, char(2), char(3)) AS marked, \
                     {fts}.rank AS rank \
                     FROM {fts} JOIN {table} x ON x.id = {fts}.rowid \
                     JOIN articles a ON a.id = x.article {speaker_join} \
                     WHERE {fts} MATCH ?1 AND {fts}.rowid IN ({top}) ORDER BY {fts}.rank"
                )
            }
            Search::Tsquery(_) | Search::Websearch(_) => {
                let (parse, vector, matching) = pg_matching(query, table, content, &conditions);
                // Ranked higher is better in PostgreSQL: negated, it sorts
                // with SQLite's ranks, where lower is better.
                format!(
                    "WITH q AS (SELECT {parse}('english', ?1) AS query), \
                     top AS (SELECT x.id, CAST(-ts_rank({vector}, q.query) AS DOUBLE PRECISION) \
                     AS rank FROM {table} x JOIN articles a ON a.id = x.article CROSS JOIN q \
                     WHERE {matching} ORDER BY rank, x.id LIMIT {limit}) \
                     SELECT {select}, ts_headline('english', x.{content}, q.query, \
                     'StartSel=' || chr(2) || ', StopSel=' || chr(3) || ', HighlightAll=true') \
                     AS marked, top.rank AS rank FROM top JOIN {table} x ON x.id = top.id \
                     JOIN articles a ON a.id = x.article {speaker_join} CROSS JOIN q \
                     ORDER BY top.rank, x.id"
                )
            }
        };
        let params = search_params(query, conditions);
        for row in conn.rows(&sql, &params)? {
            let text: String = row.get("text")?;
            let marked: String = row.get("marked")?;
            let rank: f64 = row.get("rank")?;
            // A quote has no reading; `found` reads only what a correction set.
            let found = corrections::found(&row)?;
            hits.push((
                rank,
                SearchHit {
                    found_in: found_in.to_string(),
                    article: row.get("article_id")?,
                    title: row.get("title")?,
                    attribution: row.get("attribution")?,
                    outlet: row.get("outlet")?,
                    date: row.get("published_date")?,
                    source: row.get("source")?,
                    source_id: row.get("source_id")?,
                    stance: row.get("stance")?,
                    cue: row.get("cue")?,
                    matches: match_ranges(&text, &marked),
                    text,
                    found,
                },
            ));
        }
    }
    // Lower ranks are better; ties keep attributions before quotes and
    // each index's own order, so the output is the same on every run.
    hits.sort_by(|a, b| a.0.total_cmp(&b.0));
    Ok(hits.into_iter().take(limit).map(|(_, hit)| hit).collect())
}

/// For a search of attributions, the condition that leaves out those an
/// editor marked as not attributions, over their row id `column`.
fn unless_wrong(table: &str, column: &str) -> String {
    if table == "attributions" {
        format!(" AND {column} NOT IN (SELECT attribution FROM corrected WHERE wrong = 1)")
    } else {
        String::new()
    }
}

/// PostgreSQL's parser for `query`, the text vector of `table`'s searched
/// column, and the condition under which a row `x` of it matches `q.query`:
/// the same expressions as the GIN indexes, so that they are used.
fn pg_matching(
    query: &Search,
    table: &str,
    content: &str,
    conditions: &Conditions,
) -> (&'static str, String, String) {
    let parse = match query {
        Search::Websearch(_) => "websearch_to_tsquery",
        _ => "to_tsquery",
    };
    let vector = format!("to_tsvector('english', x.{content})");
    let mut matching = vec![format!(
        "{vector} @@ q.query{}",
        unless_wrong(table, "x.id")
    )];
    if table == "quotes" {
        matching.push("x.attribution IS NULL".to_string());
    }
    matching.extend(conditions.sql.iter().cloned());
    (parse, vector, matching.join(" AND "))
}

/// A search's parameters: the query as `?1`, then the filter's.
fn search_params(query: &Search, conditions: Conditions) -> Vec<Value> {
    let (Search::Fts5(text) | Search::Tsquery(text) | Search::Websearch(text)) = query;
    let mut params = vec![Value::Text(text.clone())];
    params.extend(conditions.params);
    params
}

/// How many rows [`search`] finds in all, past any limit: the page's "of N".
pub(crate) fn search_total(conn: &Conn<'_>, query: &Search, filter: &Filter) -> DbResult<i64> {
    let mut total = 0;
    for (_, table, content) in SEARCHED {
        let conditions = Conditions::new(filter, "a.outlet", "a.published_date");
        let sql = match query {
            Search::Fts5(_) => {
                let fts = format!("{table}_fts");
                if conditions.is_empty() {
                    format!(
                        "SELECT count(*) FROM {fts} WHERE {fts} MATCH ?1{}",
                        unless_wrong(table, "rowid")
                    )
                } else {
                    format!(
                        "SELECT count(*) FROM {fts} f JOIN {table} x ON x.id = f.rowid \
                         JOIN articles a ON a.id = x.article WHERE {fts} MATCH ?1 AND {}{}",
                        conditions.sql.join(" AND "),
                        unless_wrong(table, "x.id")
                    )
                }
            }
            Search::Tsquery(_) | Search::Websearch(_) => {
                let (parse, _, matching) = pg_matching(query, table, content, &conditions);
                format!(
                    "WITH q AS (SELECT {parse}('english', ?1) AS query) SELECT count(*) \
                     FROM {table} x JOIN articles a ON a.id = x.article CROSS JOIN q \
                     WHERE {matching}"
                )
            }
        };
        let params = search_params(query, conditions);
        total += conn.value::<i64>(&sql, &params)?;
    }
    Ok(total)
}

/// The byte ranges of `text` that `marked` (the same text with [`OPEN`] and
/// [`CLOSE`] around matches) marks; none when the two do not line up.
fn match_ranges(text: &str, marked: &str) -> Vec<[usize; 2]> {
    let mut ranges = Vec::new();
    let mut plain = 0;
    let mut start = None;
    for (i, ch) in marked.char_indices() {
        match ch {
            OPEN => start = Some(i),
            CLOSE => {
                if let Some(open) = start.take() {
                    let opened_at = plain - (i - open - OPEN.len_utf8());
                    ranges.push([opened_at, plain]);
                }
            }
            ch => plain += ch.len_utf8(),
        }
    }
    let stripped: String = marked
        .chars()
        .filter(|c| *c != OPEN && *c != CLOSE)
        .collect();
    if stripped != text || start.is_some() {
        return Vec::new();
    }
    ranges
}

pub(crate) fn stats(conn: &Conn<'_>, by: GroupBy, filter: &Filter) -> DbResult<Vec<StatsRow>> {
    let group = group_of(by, "");
    let conditions = Conditions::new(filter, "outlet", "published_date");
    let sums: Vec<String> = cells::COLUMNS
        .iter()
        .map(|(column, _)| format!("CAST(SUM({column}) AS BIGINT) AS {column}"))
        .collect();
    let sql = format!(
        "SELECT {group} AS grp, {} FROM stats_cells {} GROUP BY 1 ORDER BY 1 NULLS FIRST",
        sums.join(", "),
        conditions.where_clause()
    );
    let rows = conn.rows(&sql, &conditions.params)?;
    let stances_sql = format!(
        "SELECT {group} AS grp, stance, CAST(SUM(attributions) AS BIGINT) AS attributions \
         FROM stats_stances {} GROUP BY 1, 2",
        conditions.where_clause()
    );
    let mut stanced_as: HashMap<(Option<String>, StanceLabel), i64> = HashMap::new();
    for row in conn.rows(&stances_sql, &conditions.params)? {
        // A stance this build does not know (written by a newer attest into
        // a ledger of the same version) has no column to be shown in.
        if let Some(label) = from_serde_name(&row.get::<String>("stance")?) {
            stanced_as.insert((row.get("grp")?, label), row.get("attributions")?);
        }
    }
    let moved = moved_by_corrections(conn, by, filter)?;
    let unmoved = Moved::default();
    rows.iter()
        .map(|row| {
            let int = |column: &str| -> DbResult<i64> {
                Ok(row.get::<Option<i64>>(column)?.unwrap_or(0))
            };
            let group: Option<String> = row.get("grp")?;
            let moved = moved.get(&group).unwrap_or(&unmoved);
            let attributions = int("attributions")? + moved.attributions;
            let stanced = int("stanced")? + moved.stanced;
            let stances = StanceLabel::ALL
                .iter()
                .map(|label| {
                    let n = stanced_as
                        .get(&(group.clone(), *label))
                        .copied()
                        .unwrap_or(0);
                    let n = n + moved.stances.get(label).copied().unwrap_or(0);
                    (*label, share(n, stanced))
                })
                .collect();
            let hedges = int("hedges")?;
            let writers_voice_sentences = int("writers_voice_sentences")?;
            Ok(StatsRow {
                group,
                articles: int("articles")?,
                words: int("words")?,
                sources: int("sources")?,
                unnamed_share: share(int("unnamed")?, int("sources")?),
                attributions,
                direct_share: share(int("direct")? + moved.direct, attributions),
                mixed_share: share(int("mixed")? + moved.mixed, attributions),
                stances,
                hedges,
                hedges_per_1000_words: share(hedges * 1000, int("hedge_words")?),
                hedged_attribution_share: share(
                    int("hedged_attributions")?,
                    int("hedge_attributions")?,
                ),
                writers_voice_sentences,
                hedged_sentence_share: share(int("hedged_sentences")?, writers_voice_sentences),
            })
        })
        .collect()
}

/// The group a statistics row of `by` counts an article in, over its
/// columns `outlet` and `published_date` (after `prefix`, such as `a.`).
fn group_of(by: GroupBy, prefix: &str) -> String {
    match by {
        GroupBy::Outlet => format!("{prefix}outlet"),
        GroupBy::Month => format!("substr({prefix}published_date, 1, 7)"),
        GroupBy::All => "CAST(NULL AS TEXT)".to_string(),
    }
}

/// What editors' corrections change in a group's attribution counts: an
/// attribution counts as attest found it less, then as corrected more
/// (unless marked as not one).
#[derive(Debug, Default, PartialEq)]
struct Moved {
    attributions: i64,
    direct: i64,
    mixed: i64,
    stanced: i64,
    stances: HashMap<StanceLabel, i64>,
}

impl Moved {
    fn count(&mut self, kind: &str, stance: Option<&str>, sign: i64) {
        self.attributions += sign;
        match from_serde_name(kind) {
            Some(AttributionKind::Direct) => self.direct += sign,
            Some(AttributionKind::Mixed) => self.mixed += sign,
            _ => {}
        }
        if let Some(label) = stance.and_then(from_serde_name::<StanceLabel>) {
            self.stanced += sign;
            *self.stances.entry(label).or_default() += sign;
        }
    }
}

/// [`Moved`] for each group of [`stats`], from the corrected attributions
/// of the articles `filter` keeps: as few rows as there are corrections.
fn moved_by_corrections(
    conn: &Conn<'_>,
    by: GroupBy,
    filter: &Filter,
) -> DbResult<HashMap<Option<String>, Moved>> {
    let conditions = Conditions::new(filter, "a.outlet", "a.published_date");
    let sql = format!(
        "SELECT {} AS grp, m.sign, m.kind, m.stance FROM {RECOUNTED} m \
         JOIN articles a ON a.id = m.article {}",
        group_of(by, "a."),
        conditions.where_clause()
    );
    let mut moved: HashMap<Option<String>, Moved> = HashMap::new();
    for row in conn.rows(&sql, &conditions.params)? {
        let stance: Option<String> = row.get("stance")?;
        moved.entry(row.get("grp")?).or_default().count(
            &row.get::<String>("kind")?,
            stance.as_deref(),
            row.get("sign")?,
        );
    }
    Ok(moved)
}

/// `part / whole` rounded to 4 decimals, or `None` when nothing was counted.
fn share(part: i64, whole: i64) -> Option<f64> {
    (whole > 0).then(|| ((part as f64 / whole as f64) * 10_000.0).round() / 10_000.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_queries_quote_every_word_and_keep_phrases_and_prefixes() {
        assert_eq!(plain_query("bargain"), "\"bargain\"");
        assert_eq!(
            plain_query("anti-union NOT \"pay deal\" wage*"),
            "\"anti-union\" \"NOT\" \"pay deal\" \"wage\"*"
        );
        assert_eq!(plain_query("  "), "");
    }

    #[test]
    fn plain_tsqueries_find_what_plain_fts5_queries_find() {
        assert_eq!(plain_tsquery("bargain"), "'bargain'");
        assert_eq!(
            plain_tsquery("anti-union NOT \"pay deal\" wage* it's"),
            "'anti' <-> 'union' & 'NOT' & 'pay' <-> 'deal' & 'wage':* & 'it' <-> 's'"
        );
        assert_eq!(plain_tsquery("  \"\" * -- "), "");
    }

    #[test]
    fn match_ranges_are_byte_ranges_of_the_plain_text() {
        let text = "Café workers bargain hard";
        let marked = "Café workers \u{2}bargain\u{3} hard";
        assert_eq!(match_ranges(text, marked), [[14, 21]]);
        assert_eq!(&text[14..21], "bargain");
        assert!(match_ranges("other", marked).is_empty(), "misaligned");
    }

    #[test]
    fn shares_round_and_refuse_empty_wholes() {
        assert_eq!(share(1, 3), Some(0.3333));
        assert_eq!(share(0, 0), None);
    }
}
