//! `POST /v1/articles/{id}/corrections`: an editor's correction of one
//! attribution of a ledger article; `POST /v1/articles/{id}/review`: an
//! editor's word that the whole article was read.
//!
//! Only a server started with `attest serve --allow-corrections` takes
//! corrections; by default the server never writes. A correction is JSON
//! ([`attest_ledger::CorrectionInput`]) of at most [`BODY_BYTES`], and needs
//! the token and the same-origin signs [`crate::origin::check_write`] asks
//! for. The ledger keeps it beside what attest found (see
//! `attest_ledger::Ledger::correct`), and `GET /v1/articles/{id}` shows it.

use attest_ledger::{Correction, CorrectionInput, Review};
use axum::Json;
use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};

use crate::analyze::read_body;
use crate::ledger::{Access, ask_as, ledger_error};
use crate::{ApiError, AppState, PathId, origin};

/// The largest correction body, in bytes: a note of the most characters
/// the ledger keeps, each four bytes, escaped, and the rest.
pub(crate) const BODY_BYTES: usize = 16 * 1024;

pub(crate) async fn correct(
    State(state): State<AppState>,
    PathId(id): PathId,
    headers: HeaderMap,
    body: Body,
) -> Result<(StatusCode, Json<Correction>), ApiError> {
    check_editor(&state, &headers, "a correction")?;
    let bytes = read_body(&headers, body, BODY_BYTES).await?;
    let input: CorrectionInput = serde_json::from_slice(&bytes)
        .map_err(|error| ApiError::bad_request(format!("the correction: {error}")))?;
    let correction = ask_as(&state, Access::Write, move |ledger| {
        ledger.correct(&id, &input).map_err(ledger_error)
    })
    .await?;
    Ok((StatusCode::CREATED, Json(correction)))
}

/// Marks the whole article reviewed as it is stored now. The body is an
/// empty JSON object: what is reviewed is the article, not anything sent.
pub(crate) async fn review(
    State(state): State<AppState>,
    PathId(id): PathId,
    headers: HeaderMap,
    body: Body,
) -> Result<(StatusCode, Json<Review>), ApiError> {
    check_editor(&state, &headers, "a review")?;
    let bytes = read_body(&headers, body, BODY_BYTES).await?;
    let empty: serde_json::Map<String, serde_json::Value> = serde_json::from_slice(&bytes)
        .map_err(|error| ApiError::bad_request(format!("the review: {error}")))?;
    if let Some(key) = empty.keys().next() {
        return Err(ApiError::bad_request(format!(
            "the review is an empty JSON object {{}}: {key:?} is not one of its fields"
        )));
    }
    let review = ask_as(&state, Access::Write, move |ledger| {
        ledger.review(&id).map_err(ledger_error)
    })
    .await?;
    Ok((StatusCode::CREATED, Json(review)))
}

/// What an editor's write (`what`) needs: a server that takes them, the
/// signs of its own page, and a JSON body.
fn check_editor(state: &AppState, headers: &HeaderMap, what: &str) -> Result<(), ApiError> {
    if !state.corrections {
        return Err(ApiError::forbidden(
            "this server takes no corrections: start it with attest serve --allow-corrections",
        ));
    }
    origin::check_write(&state.origin, headers)?;
    if !origin::is_json_type(headers) {
        return Err(ApiError::unsupported(format!(
            "{what} is a JSON object: send Content-Type: application/json"
        )));
    }
    Ok(())
}
