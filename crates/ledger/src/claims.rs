//! Claims in the ledger: each article's statements, as it is stored, joined to
//! the claims of the articles stored before it, and the claims read back with
//! each appearance's role.
//!
//! Grouping runs inside the batch's transaction, under the write lock both
//! backends take, so two writers never start the same claim twice. A new
//! statement's candidates come from `claim_bands` by index, so storing an
//! article costs the same at any ledger size (see attest-claims); a band key
//! keeps only the rows a lookup reads, so the index grows with the keys, not
//! with the statements under each. Roles are
//! worked out when claims are read, from the order of publication, since an
//! article published earlier but stored later changes them.

use std::collections::{BTreeSet, HashMap};
use std::sync::LazyLock;

use attest_claims::{
    Appearance, BANDS, ClaimTraits, EXEMPLARS, Figure, Fingerprint, MOST_CANDIDATES, PER_BAND_KEY,
    Role, best_match, in_grouping_order, publication_order, roles, statements,
};
use attest_doc::{Doc, OffsetIndex, Published, StanceLabel, from_serde_name};
use rusqlite::types::Value;
use serde::Serialize;

use crate::db::{Conn, DbResult, Row, values};
use crate::query::Filter;
use crate::rows::{ArticleSpan, Cell, Tabular};

/// The latest [`PER_BAND_KEY`] statements of each band key of a new
/// statement (only a claim's first [`EXEMPLARS`] statements have band keys),
/// each row with the place of its key (1 to [`BANDS`]): a bounded slice of
/// the index at any size, from which [`lookup`] keeps the
/// [`MOST_CANDIDATES`] found under the most keys and learns which keys are
/// full.
pub(crate) static BAND_SLICES_SQL: LazyLock<String> = LazyLock::new(|| {
    let per_key: Vec<String> = (1..=BANDS)
        .map(|i| {
            format!(
                "SELECT {i} AS band, statement FROM (SELECT statement FROM claim_bands \
                 WHERE band_key = ?{i} ORDER BY statement DESC LIMIT {PER_BAND_KEY}) AS k{i}"
            )
        })
        .collect();
    per_key.join(" UNION ALL ")
});

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

/// Takes the oldest row out of each band key that a new exemplar filled
/// past [`PER_BAND_KEY`]: a pair of parameters (key, statement) for each of
/// the [`BANDS`] keys, null for a key that was not full. A lookup never
/// reads past a key's latest [`PER_BAND_KEY`] rows, so older ones only
/// made the index larger, and every search and insert in it slower: at
/// 20,000 generated articles they were half its rows. (`OR` of the pairs,
/// which both databases search by the primary key; SQLite scans the table
/// for a row value `IN` a list.)
pub(crate) static TRIM_SQL: LazyLock<String> = LazyLock::new(|| {
    let pairs: Vec<String> = (0..BANDS)
        .map(|i| format!("(band_key = ?{} AND statement = ?{})", 2 * i + 1, 2 * i + 2))
        .collect();
    format!("DELETE FROM claim_bands WHERE {}", pairs.join(" OR "))
});

/// A statement's text, cut from its article's (`t`) by code points, which
/// both databases' `substr` counts in (PostgreSQL's takes 32-bit integers).
const STATEMENT_TEXT: &str =
    "substr(t.text, CAST(s.cp_start + 1 AS INTEGER), CAST(s.cp_end - s.cp_start AS INTEGER))";

/// A statement's band keys, in one statement. Two bands of one statement
/// whose keys collide give one row.
static BANDS_SQL: LazyLock<String> = LazyLock::new(|| {
    let statement = BANDS + 1;
    let rows: Vec<String> = (1..=BANDS)
        .map(|i| format!("(?{i}, ?{statement})"))
        .collect();
    format!(
        "INSERT INTO claim_bands (band_key, statement) VALUES {} ON CONFLICT DO NOTHING",
        rows.join(", ")
    )
});

/// Groups the statements of an article just stored (row `article`) into
/// claims: the statements that may start a claim first, in text order, then
/// the writer's sentences that only join one.
pub(crate) fn store(tx: &Conn<'_>, doc: &Doc, article: i64) -> DbResult<()> {
    let offsets = OffsetIndex::new(doc.text());
    let mut claims_of_article = BTreeSet::new();
    for statement in in_grouping_order(doc) {
        let Some(placed) = statement.placement(doc, &offsets) else {
            continue;
        };
        let print = &statement.fingerprint;
        let key_values = band_values(print);
        let found = lookup(tx, print, &key_values)?;
        let (claim, mut traits, before) = match found.claim {
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
            let mut bands = key_values;
            bands.push(Value::Integer(row));
            tx.execute(&BANDS_SQL, &bands)?;
            if found.full.iter().any(Option::is_some) {
                let trimmed: Vec<Value> = found
                    .full
                    .into_iter()
                    .flat_map(|pair| match pair {
                        Some((key, oldest)) => [key, Value::Integer(oldest)],
                        None => [Value::Null, Value::Null],
                    })
                    .collect();
                tx.execute(&TRIM_SQL, &trimmed)?;
            }
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

/// What the band keys of a statement found.
struct Found {
    /// The stored claim it carries, with the claim's names and years and
    /// its statements so far: the best of the candidates.
    claim: Option<(i64, ClaimTraits, i64)>,
    /// For each band key, in order, the key and its oldest statement if it
    /// holds [`PER_BAND_KEY`] already: the row that a new exemplar's row
    /// pushes out.
    full: Vec<Option<(Value, i64)>>,
}

/// Looks a statement of this fingerprint up: of the statements its band
/// keys find, the [`MOST_CANDIDATES`] found under the most keys, the latest
/// first among equals, are read and compared.
fn lookup(conn: &Conn<'_>, print: &Fingerprint, key_values: &[Value]) -> DbResult<Found> {
    let mut keys_found: HashMap<i64, usize> = HashMap::new();
    let mut slices = vec![(0, i64::MAX); key_values.len()];
    for row in conn.rows(&BAND_SLICES_SQL, key_values)? {
        let statement: i64 = row.get("statement")?;
        *keys_found.entry(statement).or_default() += 1;
        let band = usize::try_from(row.get::<i64>("band")? - 1)
            .ok()
            .and_then(|band| slices.get_mut(band));
        if let Some((rows, oldest)) = band {
            *rows += 1;
            *oldest = statement.min(*oldest);
        }
    }
    let mut ranked: Vec<(usize, i64)> = keys_found
        .into_iter()
        .map(|(statement, keys)| (keys, statement))
        .collect();
    ranked.sort_unstable_by(|a, b| b.cmp(a));
    let mut ids: Vec<Value> = ranked
        .iter()
        .take(MOST_CANDIDATES)
        .map(|&(_, statement)| Value::Integer(statement))
        .collect();
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
    let full = key_values
        .iter()
        .zip(slices)
        .map(|(key, (rows, oldest))| (rows >= PER_BAND_KEY).then(|| (key.clone(), oldest)))
        .collect();
    Ok(Found {
        claim: claim.and_then(|claim| {
            let (traits, statements) = claims.remove(&claim)?;
            Some((claim as i64, traits, statements))
        }),
        full,
    })
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
    let mut found = Vec::new();
    for statement in statements(doc) {
        let print = &statement.fingerprint;
        if let Some((claim, _, _)) = lookup(conn, print, &band_values(print))?.claim
            && !found.contains(&claim)
        {
            found.push(claim);
        }
    }
    found.into_iter().map(|id| claim(conn, id)).collect()
}
