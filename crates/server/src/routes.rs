//! The routes, and the middleware every request passes through.

use axum::Router;
use axum::extract::{Request, State};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Serialize;

use crate::{ApiError, AppState, analyze, ledger, origin, page};

/// Every API route as `(method, path)` with OpenAPI's `{parameter}` syntax; a
/// test checks this list and `assets/openapi.json` against each other.
pub const ROUTES: &[(&str, &str)] = &[
    ("get", "/v1/health"),
    ("get", "/v1/openapi.json"),
    ("get", "/v1/token"),
    ("post", "/v1/analyze"),
    ("get", "/v1/articles"),
    ("get", "/v1/articles/{id}"),
    ("post", "/v1/articles/{id}/corrections"),
    ("post", "/v1/articles/{id}/review"),
    ("get", "/v1/sources"),
    ("get", "/v1/sources/{id}"),
    ("get", "/v1/search"),
    ("get", "/v1/claims"),
    ("get", "/v1/claims/{id}"),
    ("get", "/v1/trace"),
    ("get", "/v1/stats"),
];

/// The OpenAPI document of the API.
pub(crate) const OPENAPI: &str = include_str!("../assets/openapi.json");

/// The whole application: the API under `/v1` and the page at `/`.
pub fn router(state: AppState) -> Router {
    let api = Router::new()
        .route("/v1/health", get(health))
        .route("/v1/openapi.json", get(openapi))
        .route("/v1/token", get(token))
        .route("/v1/analyze", post(analyze::analyze))
        .merge(ledger::routes(&state))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed);
    Router::new()
        .merge(api)
        .merge(page::routes())
        .layer(middleware::from_fn_with_state(state.clone(), time_limit))
        .layer(middleware::from_fn_with_state(state.clone(), origin::check))
        .with_state(state)
}

/// What `GET /v1/health` answers while the server is up.
const UP: &str = "ok";

/// The server's state.
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema), schemars(inline))]
pub(crate) struct Health {
    #[cfg_attr(feature = "schema", schemars(extend("const" = UP)))]
    status: &'static str,
    version: &'static str,
    stages: Vec<&'static str>,
    /// Whether the ledger routes answer.
    ledger: bool,
    /// Whether the server takes corrections (attest serve --allow-corrections).
    corrections: bool,
    /// The largest request body the server reads, in bytes (attest serve
    /// --max-body-bytes): the page refuses a longer article before sending it.
    max_body_bytes: usize,
}

async fn health(State(state): State<AppState>) -> axum::Json<Health> {
    axum::Json(Health {
        status: UP,
        version: env!("CARGO_PKG_VERSION"),
        stages: state.pipeline.stages().iter().map(|s| s.name()).collect(),
        ledger: state.ledger.is_some(),
        corrections: state.ledger.is_some() && state.corrections,
        max_body_bytes: state.limits.body_bytes,
    })
}

/// The token a POST of another type than JSON carries, and its header.
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema), schemars(inline))]
pub(crate) struct Token<'a> {
    token: &'a str,
    #[cfg_attr(feature = "schema", schemars(extend("const" = origin::TOKEN_HEADER)))]
    header: &'static str,
}

/// The token that lets a POST of another type than JSON through; only pages
/// of this server's own origin can read it.
async fn token(State(state): State<AppState>) -> Response {
    axum::Json(Token {
        token: state.origin.token(),
        header: origin::TOKEN_HEADER,
    })
    .into_response()
}

async fn openapi() -> Response {
    (
        [(axum::http::header::CONTENT_TYPE, "application/json")],
        OPENAPI,
    )
        .into_response()
}

async fn not_found(request: Request) -> ApiError {
    ApiError::not_found(format!(
        "no route for {} {}",
        request.method(),
        request.uri().path()
    ))
}

async fn method_not_allowed(request: Request) -> ApiError {
    ApiError::method_not_allowed(format!(
        "{} is not allowed on {}",
        request.method(),
        request.uri().path()
    ))
}

/// Answers 503 for a request that takes longer than the limit, reading its
/// body included, so a slow client cannot hold a connection's worker forever.
async fn time_limit(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let limit = state.limits.timeout;
    match tokio::time::timeout(limit, next.run(request)).await {
        Ok(response) => response,
        Err(_) => ApiError::unavailable(format!(
            "the request took longer than {} s (attest serve --timeout-secs)",
            limit.as_secs_f64()
        ))
        .into_response(),
    }
}
