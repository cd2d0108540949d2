//! Claims in the ledger: each article's statements, as it is stored, joined to
//! the claims of the articles stored before it, and the claims read back with
//! each appearance's role.
//!
//! Grouping runs inside the batch's transaction, under the write lock both
//! backends take, so two writers never start the same claim twice. A new
//! statement's candidates come from `claim_bands` by index, read for a whole
//! run of articles at once, so storing an article costs the same at any
//! ledger size (see attest-claims); a band key
//! keeps only the rows a lookup reads, so the index grows with the keys, not
//! with the statements under each. Roles are
//! worked out when claims are read, from the order of publication, since an
//! article published earlier but stored later changes them.

use std::collections::{BTreeSet, HashMap};
use std::sync::LazyLock;

use attest_claims::{
    Appearance, BANDS, BandSlices, ClaimTraits, EXEMPLARS, Figure, Fingerprint, MOST_CANDIDATES,
    Role, Statement, best_match, in_grouping_order, publication_order, roles, statements,
};
use attest_doc::{Doc, OffsetIndex, Published, StanceLabel, from_serde_name};
use rusqlite::types::Value;
use serde::Serialize;

use crate::batch::Rows;
use crate::db::{Conn, DbResult, Row, values};
use crate::query::Filter;
use crate::rows::{ArticleSpan, Cell, Tabular};

/// The rows of `claim_bands` under the band keys of a run's statements
/// (the parameter, `j`, from [`Rows`]), in one statement through the
/// table's primary key. A key keeps at most [`PER_BAND_KEY`] rows, so this
/// reads a bounded slice of the index at any size.
pub(crate) fn band_slices_sql(db: &Conn<'_>) -> String {
    format!(
        "SELECT b.band_key, b.statement FROM claim_bands b \
         WHERE b.band_key IN (SELECT j.band_key FROM {})",
        Rows::new("claim_bands", &["band_key"]).source(db)
    )
}

/// Takes out the rows (the parameter's (key, statement) pairs) that a run's
/// new exemplars pushed out of their keys, in one statement through the
/// table's primary key.
pub(crate) fn trim_sql(db: &Conn<'_>) -> String {
    let pairs = Rows::new("claim_bands", &["band_key", "statement"]).source(db);
    format!(
        "DELETE FROM claim_bands WHERE band_key IN (SELECT j.band_key FROM {pairs}) \
         AND (band_key, statement) IN (SELECT j.band_key, j.statement FROM {pairs})"
    )
}

/// The candidates' statements and claims, by id: [`MOST_CANDIDATES`]
/// parameters, null where fewer were found.
pub(crate) static CANDIDATES_SQL: LazyLock<String> = LazyLock::new(|| {
    let ids: Vec<String> = (1..=MOST_CANDIDATES).map(|i| format!("?{i}")).collect();
    format!(
        "SELECT s.id, s.claim, s.stems, s.figures, s.names, s.years, c.names AS claim_names, \
         c.years AS claim_years, c.n_statements AS claim_statements \
         FROM statements s JOIN claims c ON c.id = s.claim \
         WHERE s.id IN ({}) ORDER BY s.id",
        ids.join(", ")
    )
});

/// A statement's text, cut from its article's (`t`) by code points, which
/// both databases' `substr` counts in (PostgreSQL's takes 32-bit integers).
const STATEMENT_TEXT: &str =
    "substr(t.text, CAST(s.cp_start + 1 AS INTEGER), CAST(s.cp_end - s.cp_start AS INTEGER))";

/// Groups the statements of a run of articles just stored (each with its
/// row) into claims, article by article, each one's statements that may start
/// a claim first, in text order, then the writer's sentences that only join
/// one.
///
/// The band rows the run's statements look up are read in one statement
/// before, and the run's own written in one after ([`RunBands`]): searched and
/// written a statement at a time, a key here and a key there, they made storing
/// an article cost half as much again in a ledger ten times larger, as each
/// search and each insert landed on a page of a larger B-tree, and every few
/// hundred articles had dirtied every page of the table.
pub(crate) fn store(tx: &Conn<'_>, articles: &[(&Doc, i64)]) -> DbResult<()> {
    let statements: Vec<Vec<(Statement, Vec<u64>)>> = articles
        .iter()
        .map(|(doc, _)| with_band_keys(in_grouping_order(doc)))
        .collect();
    let keys = statements.iter().flatten().flat_map(|(_, keys)| keys);
    let mut bands = RunBands::read(tx, keys)?;
    for (&(doc, article), statements) in articles.iter().zip(&statements) {
        store_article(tx, doc, article, statements, &mut bands)?;
    }
    bands.write(tx)
}

/// Each statement with its band keys.
fn with_band_keys(statements: Vec<Statement>) -> Vec<(Statement, Vec<u64>)> {
    statements
        .into_iter()
        .map(|statement| {
            let keys = statement.fingerprint.band_keys();
            (statement, keys)
        })
        .collect()
}

/// Groups one article's statements, as [`store`] says.
fn store_article(
    tx: &Conn<'_>,
    doc: &Doc,
    article: i64,
    statements: &[(Statement, Vec<u64>)],
    bands: &mut RunBands,
) -> DbResult<()> {
    let offsets = OffsetIndex::new(doc.text());
    let mut claims_of_article = BTreeSet::new();
    for (statement, keys) in statements {
        let Some(placed) = statement.placement(doc, &offsets) else {
            continue;
        };
        let print = &statement.fingerprint;
        let found = lookup(tx, print, bands.slices.candidates(keys))?;
        let (claim, mut traits, before) = match found {
            Some(claim) => claim,
            None if statement.may_start_a_claim() => (
                tx.insert(
                    "INSERT INTO claims (names, years, n_statements, n_articles) \
                     VALUES ('', '', 0, 0)",
                    values![],
                )?,
                ClaimTraits::default(),
                0,
            ),
            None => continue,
        };
        // Only the exemplars' names and years count, as only they are
        // compared: a claim's row stays small however often it is repeated.
        let exemplar = before < EXEMPLARS as i64;
        if exemplar {
            traits.add(print);
        }
        let (said, idx) = statement.said.layer();
        let row = tx.insert(
            "INSERT INTO statements (article, claim, said, idx, byte_start, byte_end, cp_start, \
             cp_end, source, source_key, stance, hedged, stems, figures, names, years) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)",
            values![
                article,
                claim,
                said,
                idx as i64,
                placed.extent.byte_start() as i64,
                placed.extent.byte_end() as i64,
                placed.chars.0 as i64,
                placed.chars.1 as i64,
                placed.source.map(|s| s.name.clone()),
                placed.source_key,
                statement.stance.map(|stance| stance.name()),
                i64::from(statement.hedged),
                Value::Blob(
                    print
                        .stems
                        .iter()
                        .flat_map(|stem| stem.to_le_bytes())
                        .collect()
                ),
                figures_text(&print.figures),
                joined(print.names.iter().cloned()),
                figures_text(&print.years),
            ],
        )?;
        if exemplar {
            bands.add(keys, row);
        }
        let new_article = i64::from(claims_of_article.insert(claim));
        tx.execute(
            "UPDATE claims SET names = ?2, years = ?3, n_statements = n_statements + 1, \
             n_articles = n_articles + ?4 WHERE id = ?1",
            values![
                claim,
                joined(traits.names.into_iter()),
                figures_text(&traits.years),
                new_article
            ],
        )?;
    }
    Ok(())
}

/// The band rows of a run of articles: the slices of `claim_bands` under
/// the run's band keys, read at once, with the run's exemplars added as they
/// are grouped, so that each statement finds what it would find were every
/// statement before it already written. [`RunBands::write`] then leaves the
/// table as adding them one by one would: each key with its latest
/// [`PER_BAND_KEY`] rows.
struct RunBands {
    slices: BandSlices<i64>,
    /// The rows read, in key order.
    read: Vec<(u64, i64)>,
    /// The rows of the run's exemplars.
    added: Vec<(u64, i64)>,
}

impl RunBands {
    /// Reads the rows under `keys` ([`band_slices_sql`]).
    fn read<'k>(tx: &Conn<'_>, keys: impl Iterator<Item = &'k u64>) -> DbResult<RunBands> {
        let mut keys: Vec<u64> = keys.copied().collect();
        keys.sort_unstable();
        keys.dedup();
        let mut wanted = Rows::new("claim_bands", &["band_key"]);
        for &key in &keys {
            wanted.push([Value::Integer(key as i64)])?;
        }
        let mut read = Vec::new();
        if !wanted.is_empty() {
            for row in tx.rows(&band_slices_sql(tx), &[wanted.into_param()?])? {
                read.push((row.get::<i64>("band_key")? as u64, row.get("statement")?));
            }
        }
        read.sort_unstable();
        let mut slices = BandSlices::new();
        for &(key, statement) in &read {
            slices.add(&[key], statement);
        }
        Ok(RunBands {
            slices,
            read,
            added: Vec::new(),
        })
    }

    /// Indexes a new exemplar under its keys.
    fn add(&mut self, keys: &[u64], statement: i64) {
        self.slices.add(keys, statement);
        self.added.extend(keys.iter().map(|&key| (key, statement)));
    }

    /// Takes out the rows read that the run's exemplars pushed out of their
    /// keys and inserts the run's rows that stayed, each in one statement,
    /// in key order.
    fn write(mut self, tx: &Conn<'_>) -> DbResult<()> {
        let pair = |&(key, statement): &(u64, i64)| {
            [Value::Integer(key as i64), Value::Integer(statement)]
        };
        let columns = ["band_key", "statement"];
        let mut gone = Rows::new("claim_bands", &columns);
        for row in &self.read {
            if !self.slices.slice(row.0).contains(&row.1) {
                gone.push(pair(row))?;
            }
        }
        if !gone.is_empty() {
            tx.execute(&trim_sql(tx), &[gone.into_param()?])?;
        }
        self.added.sort_unstable();
        self.added.dedup();
        let mut kept = Rows::new("claim_bands", &columns);
        for row in &self.added {
            if self.slices.slice(row.0).contains(&row.1) {
                kept.push(pair(row))?;
            }
        }
        kept.insert(tx)
    }
}
/// Takes an article's statements out of their claims before the article is
/// removed, and removes the claims left with none. A claim keeps the name
/// words the removed statements brought: they only ever keep statements
/// apart, and a replaced article brings its names back. `claim_bands` has no
/// index by statement, which would cost as much again as the table: each
/// statement's band keys are worked out again from its stored stems. A key
/// left with fewer than [`PER_BAND_KEY`] rows does not get back the older
/// rows that its removed ones pushed out.
pub(crate) fn remove(tx: &Conn<'_>, article: i64) -> DbResult<()> {
    let stored = tx.rows(
        "SELECT id, stems FROM statements WHERE article = ?1",
        values![article],
    )?;
    for row in stored {
        let print = Fingerprint {
            stems: stems(&row)?,
            figures: Vec::new(),
            names: Vec::new(),
            years: Vec::new(),
        };
        let mut keys = band_values(&print);
        keys.push(Value::Integer(row.get("id")?));
        tx.execute(&REMOVE_BANDS_SQL, &keys)?;
    }
    let touched = tx
        .rows(
            "SELECT claim, CAST(COUNT(*) AS BIGINT) AS n FROM statements WHERE article = ?1 \
             GROUP BY claim",
            values![article],
        )?
        .into_iter()
        .map(|row| Ok((row.get::<i64>("claim")?, row.get::<i64>("n")?)))
        .collect::<DbResult<Vec<_>>>()?;
    tx.execute(
        "DELETE FROM statements WHERE article = ?1",
        values![article],
    )?;
    for (claim, n) in touched {
        tx.execute(
            "UPDATE claims SET n_statements = n_statements - ?2, n_articles = n_articles - 1 \
             WHERE id = ?1",
            values![claim, n],
        )?;
        tx.execute(
            "DELETE FROM claims WHERE id = ?1 AND n_statements = 0",
            values![claim],
        )?;
    }
    Ok(())
}

/// Removes a statement's band rows, if it has any, by their keys.
static REMOVE_BANDS_SQL: LazyLock<String> = LazyLock::new(|| {
    let keys: Vec<String> = (1..=BANDS).map(|i| format!("?{i}")).collect();
    format!(
        "DELETE FROM claim_bands WHERE statement = ?{} AND band_key IN ({})",
        BANDS + 1,
        keys.join(", ")
    )
});

/// A fingerprint's band keys as SQL values.
fn band_values(print: &Fingerprint) -> Vec<Value> {
    print
        .band_keys()
        .iter()
        .map(|key| Value::Integer(*key as i64))
        .collect()
}

/// The stored claim that a statement of this fingerprint carries, with the
/// claim's names and years and its statements so far: the best of the
/// `candidates` ([`BandSlices::candidates`]), whose statements and claims are
/// read by id.
fn lookup(
    conn: &Conn<'_>,
    print: &Fingerprint,
    candidates: Vec<i64>,
) -> DbResult<Option<(i64, ClaimTraits, i64)>> {
    if candidates.is_empty() {
        return Ok(None);
    }
    let mut ids: Vec<Value> = candidates.into_iter().map(Value::Integer).collect();
    ids.resize(MOST_CANDIDATES, Value::Null);
    let mut candidates = Vec::new();
    let mut claims: HashMap<u64, (ClaimTraits, i64)> = HashMap::new();
    for row in conn.rows(&CANDIDATES_SQL, &ids)? {
        let claim = row.get::<i64>("claim")? as u64;
        candidates.push((claim, fingerprint(&row)?));
        let traits = ClaimTraits {
            names: words(&row.get::<String>("claim_names")?),
            years: figures(&row.get::<String>("claim_years")?),
        };
        claims.insert(claim, (traits, row.get("claim_statements")?));
    }
    let claim = best_match(
        print,
        candidates.iter().map(|(claim, print)| (*claim, print)),
        |claim| claims.get(&claim).map(|(traits, _)| traits),
    );
    Ok(claim.and_then(|claim| {
        let (traits, statements) = claims.remove(&claim)?;
        Some((claim as i64, traits, statements))
    }))
}

/// Figures as stored: their bits, space-separated.
fn figures_text(figures: &[Figure]) -> String {
    joined(figures.iter().map(|figure| figure.to_bits().to_string()))
}

fn figures(text: &str) -> Vec<Figure> {
    text.split_whitespace()
        .filter_map(|bits| bits.parse().ok().map(Figure::from_bits))
        .collect()
}

fn joined(words: impl Iterator<Item = String>) -> String {
    words.collect::<Vec<_>>().join(" ")
}

fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_string).collect()
}

/// A stored statement's fingerprint.
fn fingerprint(row: &Row) -> DbResult<Fingerprint> {
    Ok(Fingerprint {
        stems: stems(row)?,
        figures: figures(&row.get::<String>("figures")?),
        names: words(&row.get::<String>("names")?),
        years: figures(&row.get::<String>("years")?),
    })
}

/// A stored statement's stems.
fn stems(row: &Row) -> DbResult<Vec<u32>> {
    Ok(row
        .get::<Vec<u8>>("stems")?
        .chunks_exact(4)
        .map(|bytes| u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
        .collect())
}

/// Which claims [`crate::Ledger::claims`] lists.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClaimFilter {
    /// Claims with an appearance in an article of this outlet and period.
    pub articles: Filter,
    /// Claims with an appearance in the article of this id.
    pub article: Option<String>,
    /// Claims with an appearance credited to a source of this name (compared
    /// as `attest said` compares names).
    pub source: Option<String>,
    /// Claims with an appearance in this role.
    pub role: Option<Role>,
    /// Claims carried by at least this many articles.
    pub min_articles: usize,
}

/// A claim and its travel, first appearance first.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ClaimRow {
    /// The claim's id in the ledger.
    pub claim: i64,
    /// What the first appearance says.
    pub text: String,
    /// Where it first appeared.
    pub first: ClaimArticle,
    /// How many articles carry it, and in how many outlets.
    pub articles: i64,
    /// The outlets it appeared in.
    pub outlets: i64,
    /// Every appearance, in order of publication.
    pub appearances: Vec<ClaimAppearance>,
}

/// An article a claim appears in.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ClaimArticle {
    /// The article id.
    pub article: String,
    /// The outlet.
    pub outlet: Option<String>,
    /// When it was published, as the article gave it.
    pub published: Option<String>,
}

/// One appearance of a claim.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ClaimAppearance {
    /// The article id.
    pub article: String,
    /// The outlet.
    pub outlet: Option<String>,
    /// When it was published.
    pub published: Option<String>,
    /// What this appearance does to the claim.
    #[cfg_attr(feature = "schema", schemars(extend("enum" = role_names())))]
    pub role: String,
    /// The source it credits the claim to, as this article names it.
    pub source: Option<String>,
    /// The attribution's stance; none for a quotation or a sentence.
    pub stance: Option<String>,
    /// The attribution's index in its article (as `attest said` and the
    /// article's attributions number them); none for a quotation or a
    /// sentence in the writer's own voice.
    pub attribution: Option<i64>,
    /// Where it stands in its article.
    pub span: ArticleSpan,
}

/// The roles' names, which an appearance's `role` is one of.
#[cfg(feature = "schema")]
fn role_names() -> Vec<&'static str> {
    Role::ALL.iter().map(|role| role.name()).collect()
}

/// One appearance of a claim as a table row: `attest claims` prints a claim
/// as its appearances.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClaimLine {
    /// The claim's id.
    pub claim: i64,
    /// The appearance's role.
    pub role: String,
    /// The article id.
    pub article: String,
    /// The outlet.
    pub outlet: Option<String>,
    /// When it was published.
    pub published: Option<String>,
    /// Who it is credited to.
    pub source: Option<String>,
    /// The stance.
    pub stance: Option<String>,
    /// What it says.
    pub text: String,
}

impl ClaimRow {
    /// The claim as table rows, one per appearance.
    pub fn lines(&self) -> impl Iterator<Item = ClaimLine> + '_ {
        self.appearances.iter().map(|appearance| ClaimLine {
            claim: self.claim,
            role: appearance.role.clone(),
            article: appearance.article.clone(),
            outlet: appearance.outlet.clone(),
            published: appearance.published.clone(),
            source: appearance.source.clone(),
            stance: appearance.stance.clone(),
            text: appearance.span.text.clone(),
        })
    }
}

impl Tabular for ClaimLine {
    fn columns() -> &'static [&'static str] {
        &[
            "claim",
            "role",
            "article",
            "outlet",
            "published",
            "source",
            "stance",
            "text",
        ]
    }

    fn cells(&self) -> Vec<Cell> {
        vec![
            self.claim.into(),
            self.role.clone().into(),
            self.article.clone().into(),
            self.outlet.clone().into(),
            self.published.clone().into(),
            self.source.clone().into(),
            self.stance.clone().into(),
            self.text.clone().into(),
        ]
    }
}

/// How many claims are read at a time while a role filter picks among them.
const PAGE: i64 = 200;

/// The claims that match `filter`, most widely carried first (by articles,
/// then statements, then age).
pub(crate) fn claims(
    conn: &Conn<'_>,
    filter: &ClaimFilter,
    limit: usize,
) -> DbResult<Vec<ClaimRow>> {
    let mut conditions = vec!["c.n_articles >= ?".to_string()];
    let mut params = vec![Value::Integer(filter.min_articles.max(1) as i64)];
    let mut exists = Vec::new();
    if let Some(outlet) = &filter.articles.outlet {
        exists.push("a.outlet = ?");
        params.push(Value::Text(outlet.clone()));
    }
    if let Some(since) = filter.articles.since {
        exists.push("a.published_date >= ?");
        params.push(Value::Text(since.to_string()));
    }
    if let Some(until) = filter.articles.until {
        exists.push("a.published_date <= ?");
        params.push(Value::Text(until.to_string()));
    }
    if let Some(article) = &filter.article {
        exists.push("a.article_id = ?");
        params.push(Value::Text(article.clone()));
    }
    if let Some(source) = &filter.source {
        exists.push("lower(s.source) = lower(?)");
        params.push(Value::Text(source.clone()));
    }
    if !exists.is_empty() {
        conditions.push(format!(
            "EXISTS (SELECT 1 FROM statements s JOIN articles a ON a.id = s.article \
             WHERE s.claim = c.id AND {})",
            exists.join(" AND ")
        ));
    }
    let sql = format!(
        "SELECT c.id FROM claims c WHERE {} \
         ORDER BY c.n_articles DESC, c.n_statements DESC, c.id LIMIT ? OFFSET ?",
        conditions.join(" AND ")
    );
    let mut out = Vec::new();
    let mut offset = 0;
    while out.len() < limit {
        let mut page_params = params.clone();
        page_params.push(Value::Integer(PAGE));
        page_params.push(Value::Integer(offset));
        let ids: Vec<i64> = conn.column(&sql, &page_params)?;
        for id in &ids {
            let claim = claim(conn, *id)?;
            let wanted = filter
                .role
                .is_none_or(|role| claim.appearances.iter().any(|a| a.role == role.name()));
            if wanted && out.len() < limit {
                out.push(claim);
            }
        }
        if ids.len() < PAGE as usize {
            break;
        }
        offset += PAGE;
    }
    Ok(out)
}

/// The claim of this id with its appearances, if the ledger holds it: a
/// claim left without statements is removed, so one without appearances is
/// none.
pub(crate) fn find(conn: &Conn<'_>, id: i64) -> DbResult<Option<ClaimRow>> {
    let found = claim(conn, id)?;
    Ok((!found.appearances.is_empty()).then_some(found))
}

/// A claim with its appearances in order and their roles.
pub(crate) fn claim(conn: &Conn<'_>, id: i64) -> DbResult<ClaimRow> {
    let rows = conn.rows(
        &format!(
            "SELECT s.said, s.idx, s.byte_start, s.byte_end, s.cp_start, s.cp_end, \
             {STATEMENT_TEXT} AS text, s.source, s.source_key, s.stance, s.hedged, a.id AS article_row, a.article_id, \
             a.outlet, a.published FROM statements s JOIN articles a ON a.id = s.article \
             JOIN article_texts t ON t.article = s.article WHERE s.claim = ?1"
        ),
        values![id],
    )?;
    let mut appearances = rows
        .iter()
        .map(|row| {
            let published: Option<String> = row.get("published")?;
            let order = (
                publication_order(
                    published
                        .as_deref()
                        .and_then(|p| p.parse::<Published>().ok()),
                ),
                row.get::<i64>("article_row")?,
                row.get::<i64>("byte_start")?,
            );
            Ok((order, row))
        })
        .collect::<DbResult<Vec<_>>>()?;
    appearances.sort_by_key(|(order, _)| *order);
    let judged = appearances
        .iter()
        .map(|(_, row)| {
            let stance: Option<String> = row.get("stance")?;
            Ok(Appearance {
                source: row.get::<Option<String>>("source_key")?,
                stance: stance.and_then(|name| from_serde_name::<StanceLabel>(&name)),
                hedged: row.get::<i64>("hedged")? != 0,
            })
        })
        .collect::<DbResult<Vec<_>>>()?;
    let appearances = appearances
        .iter()
        .zip(roles(&judged))
        .map(|((_, row), role)| {
            Ok(ClaimAppearance {
                article: row.get("article_id")?,
                outlet: row.get("outlet")?,
                published: row.get("published")?,
                role: role.name().to_string(),
                source: row.get("source")?,
                stance: row.get("stance")?,
                attribution: if row.get::<String>("said")? == "attribution" {
                    Some(row.get("idx")?)
                } else {
                    None
                },
                span: ArticleSpan {
                    byte_start: row.get("byte_start")?,
                    byte_end: row.get("byte_end")?,
                    cp_start: row.get("cp_start")?,
                    cp_end: row.get("cp_end")?,
                    text: row.get("text")?,
                },
            })
        })
        .collect::<DbResult<Vec<_>>>()?;
    let first = appearances.first();
    let articles: BTreeSet<&str> = appearances.iter().map(|a| a.article.as_str()).collect();
    let outlets: BTreeSet<Option<&str>> = appearances.iter().map(|a| a.outlet.as_deref()).collect();
    let (text, first, articles, outlets) = (
        first.map(|a| a.span.text.clone()).unwrap_or_default(),
        ClaimArticle {
            article: first.map(|a| a.article.clone()).unwrap_or_default(),
            outlet: first.and_then(|a| a.outlet.clone()),
            published: first.and_then(|a| a.published.clone()),
        },
        articles.len() as i64,
        outlets.len() as i64,
    );
    Ok(ClaimRow {
        claim: id,
        text,
        first,
        articles,
        outlets,
        appearances,
    })
}

/// The claims the statements of `doc` carry, among those stored, each once,
/// in the order the statements come.
pub(crate) fn trace(conn: &Conn<'_>, doc: &Doc) -> DbResult<Vec<ClaimRow>> {
    let statements = with_band_keys(statements(doc));
    let bands = RunBands::read(conn, statements.iter().flat_map(|(_, keys)| keys))?;
    let mut found = Vec::new();
    for (statement, keys) in &statements {
        let candidates = bands.slices.candidates(keys);
        if let Some((claim, _, _)) = lookup(conn, &statement.fingerprint, candidates)?
            && !found.contains(&claim)
        {
            found.push(claim);
        }
    }
    found.into_iter().map(|id| claim(conn, id)).collect()
}
