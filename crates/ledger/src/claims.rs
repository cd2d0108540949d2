//! Claims read back from the ledger, each appearance with its role (the
//! grouping that makes them is in `grouping.rs`). Roles are worked out when
//! claims are read, from the order of publication, since an article published
//! earlier but stored later changes them.

use std::collections::BTreeSet;

use attest_claims::{Appearance, Role, publication_order, roles};
use attest_doc::{Doc, Published, StanceLabel, from_serde_name};
use rusqlite::types::Value;
use serde::Serialize;

use crate::db::{Conn, DbResult, values};
use crate::grouping;
use crate::query::Filter;
use crate::rows::{ArticleSpan, Cell, Tabular};

/// A statement's text, cut from its article's (`t`) by code points, which
/// both databases' `substr` counts in (PostgreSQL's takes 32-bit integers).
const STATEMENT_TEXT: &str =
    "substr(t.text, CAST(s.cp_start + 1 AS INTEGER), CAST(s.cp_end - s.cp_start AS INTEGER))";

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
    grouping::carried(conn, doc)?
        .into_iter()
        .map(|id| claim(conn, id))
        .collect()
}
