//! The ledger routes: articles, sources, a source's statements, search,
//! claims and statistics, read from the ledger `attest serve --db` names.
//!
//! A SQLite connection serves one thread at a time, so each request opens the
//! file read-only in a blocking task, asks its question and closes it: opening
//! costs well under a millisecond next to the queries, and no lock is held
//! between requests, so an `attest ingest` can write to the same file meanwhile.

use std::io::Write;

use attest_doc::Canceller;
use attest_doc::{SourceKind, from_serde_name, serde_name};
use attest_ledger::{Budget, ClaimRow, Filter, GroupBy, Ledger, LedgerError, OpenOptions, Role};
use axum::extract::{Request, State};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};

use crate::{ApiError, AppState, CancelOnDrop, Params, PathId};

/// The most rows one request may ask for; a larger `limit` gets 400.
const MAX_ROWS: usize = 1_000;

/// The articles a ledger route looks at, as query parameters every ledger
/// route with a query takes.
#[derive(Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
struct Articles {
    /// Only articles of this outlet, exactly as stored.
    outlet: Option<String>,
    /// Only articles published on or after this date.
    // A string, so that a wrong date is refused with a message that names
    // the parameter as the page's form names its field.
    #[cfg_attr(feature = "schema", schemars(extend("format" = "date")))]
    since: Option<String>,
    /// Only articles published on or before this date.
    #[cfg_attr(feature = "schema", schemars(extend("format" = "date")))]
    until: Option<String>,
}

impl Articles {
    /// The ledger's filter for these articles and, where the route takes
    /// one, the kind of source.
    fn filter(&self, kind: Option<SourceKind>) -> Result<Filter, ApiError> {
        let date = |name: &str, value: &Option<String>| -> Result<_, ApiError> {
            value
                .as_deref()
                .map(|text| {
                    text.parse::<jiff::civil::Date>().map_err(|_| {
                        ApiError::bad_request(format!(
                            "{name}={text:?} is not a date such as 2026-03-04"
                        ))
                    })
                })
                .transpose()
        };
        Ok(Filter {
            outlet: self.outlet.clone(),
            since: date("since", &self.since)?,
            until: date("until", &self.until)?,
            kind,
            name: None,
        })
    }
}

/// The query of `GET /v1/articles`.
#[derive(Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub(crate) struct ArticlesQuery {
    #[serde(flatten)]
    articles: Articles,
    #[serde(default)]
    limit: Limit<50>,
    /// Skip this many rows first.
    #[serde(default)]
    offset: usize,
}

/// The query of `GET /v1/sources`.
#[derive(Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub(crate) struct SourcesQuery {
    #[serde(flatten)]
    articles: Articles,
    /// Only sources of this kind.
    // A string, so that an unknown kind is refused with the list of kinds.
    #[serde(rename = "type")]
    #[cfg_attr(feature = "schema", schemars(with = "Option<SourceKind>"))]
    kind: Option<String>,
    /// Only sources whose name holds these words, in this order; case and
    /// accents do not matter.
    name: Option<String>,
    #[serde(default)]
    limit: Limit<20>,
    /// Skip this many sources of the ranking first.
    #[serde(default)]
    offset: usize,
}

impl SourcesQuery {
    fn kind(&self) -> Result<Option<SourceKind>, ApiError> {
        self.kind
            .as_deref()
            .map(|name| {
                from_serde_name::<SourceKind>(name).ok_or_else(|| {
                    let names: Vec<String> = SourceKind::ALL.iter().map(serde_name).collect();
                    ApiError::bad_request(format!(
                        "type={name:?} is not one of {}",
                        names.join(", ")
                    ))
                })
            })
            .transpose()
    }
}

/// The query of `GET /v1/sources/{id}`.
#[derive(Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub(crate) struct StatementsQuery {
    #[serde(flatten)]
    articles: Articles,
    #[serde(default)]
    limit: Limit<MAX_ROWS>,
}

/// The query of `GET /v1/search`.
#[derive(Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub(crate) struct SearchQuery {
    /// The words to search for.
    // Optional to serde, so that the route refuses a missing `q` with a
    // message that says how to give it; required all the same.
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    q: Option<String>,
    #[serde(flatten)]
    articles: Articles,
    #[serde(default)]
    limit: Limit<50>,
    // Described from the constant the route checks, which a doc comment
    // cannot name.
    #[serde(default)]
    #[cfg_attr(
        feature = "schema",
        schemars(description = format!(
            "Skip this many hits first; offset + limit is at most {MAX_SEARCH_DEPTH}."
        ))
    )]
    offset: usize,
}

/// The query of `GET /v1/claims`: the filters of `attest claims`.
#[derive(Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub(crate) struct ClaimsQuery {
    #[serde(flatten)]
    articles: Articles,
    /// Only claims with an appearance in the article of this id.
    article: Option<String>,
    /// Only claims with an appearance credited to a source of this name, as
    /// the article names it (case does not matter).
    source: Option<String>,
    /// Only claims with an appearance in this role.
    // A string, so that an unknown role is refused with the list of roles.
    #[cfg_attr(feature = "schema", schemars(extend("enum" = role_names())))]
    role: Option<String>,
    /// Only claims carried by at least this many articles (1 lists every
    /// statement stored as a claim of its own).
    #[serde(default = "travelled")]
    min_articles: usize,
    #[serde(default)]
    limit: Limit<50>,
}

/// `min_articles` when not given: the claims that travelled.
fn travelled() -> usize {
    2
}

/// The roles' names, which `role=` takes.
fn role_names() -> Vec<&'static str> {
    Role::ALL.iter().map(|role| role.name()).collect()
}

impl ClaimsQuery {
    fn role(&self) -> Result<Option<Role>, ApiError> {
        self.role
            .as_deref()
            .map(|name| {
                name.parse::<Role>().map_err(|_| {
                    ApiError::bad_request(format!(
                        "role={name:?} is not one of {}",
                        role_names().join(", ")
                    ))
                })
            })
            .transpose()
    }
}

/// The most characters of text `GET /v1/trace` analyses: a paragraph or
/// two, which is what a trace is asked about; the text is analysed on each
/// request, so a longer one is refused rather than slow.
const MAX_TRACE_CHARS: usize = 1_000;

/// The query of `GET /v1/trace`.
#[derive(Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub(crate) struct TraceQuery {
    /// The text whose claims to find: a sentence or a paragraph.
    // Optional to serde, so that the route refuses a missing `q` with a
    // message that says how to give it; required all the same.
    #[cfg_attr(
        feature = "schema",
        schemars(with = "String", extend("maxLength" = MAX_TRACE_CHARS))
    )]
    q: Option<String>,
}

/// The query of `GET /v1/stats`.
#[derive(Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub(crate) struct StatsQuery {
    #[serde(flatten)]
    articles: Articles,
    /// How to group articles.
    #[serde(default)]
    by: GroupBy,
}

/// `limit`: at most this many rows, `DEFAULT` when not given.
#[derive(Deserialize)]
#[serde(transparent)]
struct Limit<const DEFAULT: usize>(usize);

impl<const DEFAULT: usize> Default for Limit<DEFAULT> {
    fn default() -> Self {
        Limit(DEFAULT)
    }
}

impl<const DEFAULT: usize> Limit<DEFAULT> {
    /// The rows asked for, refused when over [`MAX_ROWS`].
    fn rows(&self) -> Result<usize, ApiError> {
        let Limit(limit) = *self;
        if limit > MAX_ROWS {
            return Err(ApiError::bad_request(format!(
                "limit={limit} is over {MAX_ROWS}, the most rows one request gives"
            )));
        }
        Ok(limit)
    }
}

#[cfg(feature = "schema")]
impl<const DEFAULT: usize> schemars::JsonSchema for Limit<DEFAULT> {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        format!("Limit{DEFAULT}").into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let mut schema = generator.subschema_for::<usize>();
        schema.insert("maximum".into(), MAX_ROWS.into());
        schema.insert("default".into(), DEFAULT.into());
        schema.insert(
            "description".into(),
            "At most this many rows; more than the maximum gets 400.".into(),
        );
        schema
    }
}

/// The ledger routes, each refusing a path and query over
/// [`crate::Limits::query_bytes`] before anything else.
pub(crate) fn routes(state: &AppState) -> Router<AppState> {
    Router::new()
        .route("/v1/articles", get(articles))
        .route("/v1/articles/{id}", get(article))
        .route(
            "/v1/articles/{id}/corrections",
            post(crate::corrections::correct),
        )
        .route("/v1/articles/{id}/review", post(crate::corrections::review))
        .route("/v1/sources", get(sources))
        .route("/v1/sources/{id}", get(source))
        .route("/v1/search", get(search))
        .route("/v1/claims", get(claims))
        .route("/v1/claims/{id}", get(claim))
        .route("/v1/trace", get(trace))
        .route("/v1/stats", get(stats))
        .route_layer(middleware::from_fn_with_state(state.clone(), question_size))
}

async fn question_size(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let limit = state.limits.query_bytes;
    let asked = request
        .uri()
        .path_and_query()
        .map_or(0, |pq| pq.as_str().len());
    if asked > limit {
        return ApiError::uri_too_long(limit).into_response();
    }
    next.run(request).await
}

/// Whether a ledger question only reads.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Access {
    Read,
    Write,
}

/// Runs `question` against a read-only ledger (see [`ask_as`]).
async fn ask<T: Send + 'static>(
    state: &AppState,
    question: impl FnOnce(&mut Ledger) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    ask_as(state, Access::Read, question).await
}

/// Runs `question` against the ledger in a blocking task, under the
/// server's statement timeout; a request that is dropped meanwhile (its time
/// is up, its client gone) stops the statement through the budget's flag.
/// Writes open the ledger for writing, which SQLite locks for the time of the
/// statement alone.
pub(crate) async fn ask_as<T: Send + 'static>(
    state: &AppState,
    access: Access,
    question: impl FnOnce(&mut Ledger) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let location = state.ledger.clone().ok_or_else(|| {
        ApiError::not_found("this server has no ledger: start it with attest serve --db PATH")
    })?;
    // The permit goes with the thread, so the cap bounds threads and SQLite
    // connections, not only requests.
    let permit = state
        .ledger_queries
        .clone()
        .try_acquire_owned()
        .map_err(|_| {
            ApiError::unavailable(format!(
                "{} ledger queries are running, the most this server runs at once; try again shortly",
                state.limits.ledger_queries
            ))
        })?;
    let cancel = Canceller::new();
    let _stop = CancelOnDrop(cancel.clone());
    let budget = Budget {
        time: Some(state.limits.query_timeout),
        rows: None,
        cancel: Some(cancel),
    };
    tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let opened = match access {
            Access::Read => Ledger::open_read_only(location, &OpenOptions::DEFAULT),
            Access::Write => Ledger::open_with(location, &OpenOptions::DEFAULT),
        };
        let mut ledger = opened.map_err(ledger_error)?;
        ledger.set_budget(budget).map_err(ledger_error)?;
        question(&mut ledger)
    })
    .await
    .map_err(|_| ApiError::internal("the ledger query stopped unexpectedly"))?
}

pub(crate) fn ledger_error(error: LedgerError) -> ApiError {
    match error {
        LedgerError::BadSearch { .. } | LedgerError::BadCorrection { .. } => {
            ApiError::bad_request(error.to_string())
        }
        LedgerError::NoArticle { .. } => ApiError::not_found(error.to_string()),
        // The ledger's own message names its file, which is the server's
        // business, not its clients'.
        LedgerError::Locked { .. } => ApiError::unavailable(
            "the ledger is locked by another process (an attest ingest?); try again shortly",
        ),
        LedgerError::OverTime { limit } => ApiError::unavailable(format!(
            "the ledger query was stopped at the statement timeout of {} s (attest serve --query-timeout-ms)",
            limit.as_secs_f64()
        )),
        LedgerError::Cancelled => ApiError::unavailable("the ledger query was cancelled"),
        other => {
            // Only the server's log sees the file; a closed standard error
            // is no reason to fail the answer.
            let _ = writeln!(std::io::stderr(), "attest: the ledger failed: {other}");
            ApiError::internal("the ledger failed; the server's log says why")
        }
    }
}

/// Rows of a ledger table.
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema), schemars(inline))]
pub(crate) struct Rows<T> {
    rows: Vec<T>,
}

pub(crate) async fn articles(
    State(state): State<AppState>,
    Params(query): Params<ArticlesQuery>,
) -> Result<Json<Rows<attest_ledger::ArticleRow>>, ApiError> {
    let filter = query.articles.filter(None)?;
    let (limit, offset) = (query.limit.rows()?, query.offset);
    let rows = ask(&state, move |ledger| {
        ledger
            .articles(&filter, limit, offset)
            .map_err(ledger_error)
    })
    .await?;
    Ok(Json(Rows { rows }))
}

pub(crate) async fn article(
    State(state): State<AppState>,
    PathId(id): PathId,
) -> Result<Json<attest_ledger::ArticleDetail>, ApiError> {
    let detail = ask(&state, move |ledger| {
        ledger
            .article(&id)
            .map_err(ledger_error)?
            .ok_or_else(|| ApiError::not_found(format!("no article {id:?} in the ledger")))
    })
    .await?;
    Ok(Json(detail))
}

/// A page of the most-quoted sources, and how many sources the ranking holds.
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema), schemars(inline))]
pub(crate) struct SourcesPage {
    rows: Vec<attest_ledger::SourceRow>,
    /// The offset asked for.
    offset: usize,
    /// How many sources the ranking holds in all.
    total: u64,
}

pub(crate) async fn sources(
    State(state): State<AppState>,
    Params(query): Params<SourcesQuery>,
) -> Result<Json<SourcesPage>, ApiError> {
    let mut filter = query.articles.filter(query.kind()?)?;
    filter.name = query
        .name
        .map(|name| words(Some(name), "find sources by"))
        .transpose()?;
    let page = attest_ledger::Page {
        offset: query.offset,
        limit: query.limit.rows()?,
    };
    let sources = ask(&state, move |ledger| {
        Ok(SourcesPage {
            rows: ledger.top_sources(&filter, page).map_err(ledger_error)?,
            offset: page.offset,
            total: ledger.sources_total(&filter).map_err(ledger_error)?,
        })
    })
    .await?;
    Ok(Json(sources))
}

/// The ledger id of a `what` (a source, a claim) in a route's path.
fn row_id(id: &str, what: &str) -> Result<i64, ApiError> {
    id.parse()
        .map_err(|_| ApiError::bad_request(format!("{what} id {id:?} is not a number")))
}

/// A source and what it said.
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema), schemars(inline))]
pub(crate) struct SourcePage {
    source: attest_ledger::SourceRow,
    statements: Vec<attest_ledger::Statement>,
}

pub(crate) async fn source(
    State(state): State<AppState>,
    PathId(id): PathId,
    Params(query): Params<StatementsQuery>,
) -> Result<Json<SourcePage>, ApiError> {
    let id = row_id(&id, "source")?;
    let filter = query.articles.filter(None)?;
    let limit = query.limit.rows()?;
    let page = ask(&state, move |ledger| {
        let source = ledger
            .source(id)
            .map_err(ledger_error)?
            .ok_or_else(|| ApiError::not_found(format!("no source {id} in the ledger")))?;
        let statements = ledger
            .statements(id, &filter, limit)
            .map_err(ledger_error)?;
        Ok(SourcePage { source, statements })
    })
    .await?;
    Ok(Json(page))
}

/// The deepest a search may page: `offset + limit` hits are ranked and
/// highlighted for each page, so paging past this is refused rather than slow.
const MAX_SEARCH_DEPTH: usize = 10_000;

/// A page of search hits, whether more follow it, and how many there are.
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema), schemars(inline))]
pub(crate) struct SearchPage {
    rows: Vec<attest_ledger::SearchHit>,
    /// The offset asked for.
    offset: usize,
    /// Whether hits follow this page.
    more: bool,
    /// How many hits the search has in all.
    total: u64,
}

/// The words of `q`, refused when missing or without a word, which would
/// find nothing whatever the ledger holds; `what` says what the words are
/// for. A quotation mark left open is read as a phrase to the end, as
/// [`attest_ledger::plain_query`] reads it.
fn words(q: Option<String>, what: &str) -> Result<String, ApiError> {
    let text = q
        .filter(|q| !q.trim().is_empty())
        .ok_or_else(|| ApiError::bad_request(format!("give the words to {what} as q=...")))?;
    if !text.chars().any(char::is_alphanumeric) {
        return Err(ApiError::bad_request(format!(
            "q={text:?} holds no word to {what}"
        )));
    }
    Ok(text)
}

pub(crate) async fn search(
    State(state): State<AppState>,
    Params(query): Params<SearchQuery>,
) -> Result<Json<SearchPage>, ApiError> {
    let filter = query.articles.filter(None)?;
    let limit = query.limit.rows()?;
    let offset = query.offset;
    let text = words(query.q, "search for")?;
    let depth = offset.saturating_add(limit);
    if depth > MAX_SEARCH_DEPTH {
        return Err(ApiError::bad_request(format!(
            "offset={offset} with limit={limit} pages past hit {MAX_SEARCH_DEPTH}, the deepest a search goes; narrow the search"
        )));
    }
    let page = ask(&state, move |ledger| {
        let mut hits = ledger
            .search(&text, &filter, depth + 1)
            .map_err(ledger_error)?;
        let more = hits.len() > depth;
        hits.truncate(depth);
        let total = ledger.search_total(&text, &filter).map_err(ledger_error)?;
        let rows = hits.into_iter().skip(offset).collect();
        Ok(SearchPage {
            rows,
            offset,
            more,
            total,
        })
    })
    .await?;
    Ok(Json(page))
}

pub(crate) async fn claims(
    State(state): State<AppState>,
    Params(query): Params<ClaimsQuery>,
) -> Result<Json<Rows<ClaimRow>>, ApiError> {
    let filter = attest_ledger::ClaimFilter {
        articles: query.articles.filter(None)?,
        role: query.role()?,
        article: query.article,
        source: query.source,
        min_articles: query.min_articles,
    };
    let limit = query.limit.rows()?;
    let rows = ask(&state, move |ledger| {
        ledger.claims(&filter, limit).map_err(ledger_error)
    })
    .await?;
    Ok(Json(Rows { rows }))
}

pub(crate) async fn claim(
    State(state): State<AppState>,
    PathId(id): PathId,
) -> Result<Json<ClaimRow>, ApiError> {
    let id = row_id(&id, "claim")?;
    let claim = ask(&state, move |ledger| {
        ledger
            .claim(id)
            .map_err(ledger_error)?
            .ok_or_else(|| ApiError::not_found(format!("no claim {id} in the ledger")))
    })
    .await?;
    Ok(Json(claim))
}

/// Analyses the text in one of the server's analysis slots, on the ledger
/// question's thread, and looks its statements up among the stored claims.
pub(crate) async fn trace(
    State(state): State<AppState>,
    Params(query): Params<TraceQuery>,
) -> Result<Json<Rows<ClaimRow>>, ApiError> {
    let text = words(query.q, "trace")?;
    let chars = text.chars().count();
    if chars > MAX_TRACE_CHARS {
        return Err(ApiError::bad_request(format!(
            "q is {chars} characters long, over the {MAX_TRACE_CHARS} a trace reads; give a sentence or a paragraph"
        )));
    }
    let slot = crate::analyze::slot(&state)?;
    let pipeline = state.pipeline.clone();
    let rows = ask(&state, move |ledger| {
        let _slot = slot;
        let doc = pipeline.analyze(attest_doc::Article::new("trace", text));
        ledger.trace(&doc).map_err(ledger_error)
    })
    .await?;
    Ok(Json(Rows { rows }))
}

pub(crate) async fn stats(
    State(state): State<AppState>,
    Params(query): Params<StatsQuery>,
) -> Result<Json<Rows<attest_ledger::StatsRow>>, ApiError> {
    let filter = query.articles.filter(None)?;
    let by = query.by;
    let rows = ask(&state, move |ledger| {
        ledger.stats(by, &filter).map_err(ledger_error)
    })
    .await?;
    Ok(Json(Rows { rows }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refusal(text: &str) -> Option<String> {
        words(Some(text.to_string()), "search for")
            .err()
            .map(|error| error.message().to_string())
    }

    #[test]
    fn a_search_without_words_is_refused_in_words() {
        for fine in [
            "bargain",
            "\"press release\" strik*",
            "“curly” quotes",
            "2026",
            "\"press release",
        ] {
            assert_eq!(refusal(fine), None, "{fine}");
        }
        let wordless = refusal("** \"\"").expect("no word is refused");
        assert!(wordless.contains("no word"), "{wordless}");
        let blank = refusal("  ").expect("a blank query is refused");
        assert!(blank.contains("q=..."), "{blank}");
    }
}
