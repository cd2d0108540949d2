//! `POST /v1/analyze`: one article in, its document out.
//!
//! The body is read the way attest reads files, by the same readers, so the
//! API and `attest analyze` agree on what an article is:
//!
//! | `Content-Type` | read as |
//! |---|---|
//! | `application/json` | a JSON Lines record: `text` required; `id`, `title`, `url`, `outlet`, `published`, `language` optional |
//! | `text/plain` (or none) | the article text |
//! | `text/html` | an HTML page: main text and meta tags |
//!
//! The answer is the document in the JSON schema of `docs/schema.md`
//! (`?tokens=true` adds tokens and part-of-speech tags), or with
//! `?format=brat` its attributions as the brat `.ann` file, in code points,
//! that `attest analyze --format brat` writes (the page's download), or 413
//! when it would be over [`crate::Limits::output_bytes`], or 503 when the answers held for
//! clients that have not taken them would go over
//! [`crate::Limits::held_answer_bytes`].
//!
//! A POST that is not `application/json` needs the token of `GET /v1/token`
//! (see the `origin` module).

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use std::io::{self, Write};

use crate::{ApiError, AppState, CancelOnDrop, Params};

/// The id of an article that comes without one.
const REQUEST_ID: &str = "request";

/// The query of `POST /v1/analyze`.
#[derive(Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub(crate) struct AnalyzeQuery {
    /// Include tokens and part-of-speech tags.
    #[serde(default)]
    tokens: bool,
    /// The answer's format: the document as JSON, or its attributions as a
    /// brat `.ann` file (text/plain, offsets in code points).
    #[serde(default)]
    format: AnswerFormat,
}

/// What `POST /v1/analyze` answers with.
#[derive(Clone, Copy, Default, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub(crate) enum AnswerFormat {
    /// The document, in the attest.document/1 JSON schema.
    #[default]
    Json,
    /// The attributions as a brat `.ann` file.
    Brat,
}

impl AnswerFormat {
    fn content_type(self) -> &'static str {
        match self {
            AnswerFormat::Json => "application/json",
            AnswerFormat::Brat => "text/plain; charset=utf-8",
        }
    }
}

pub(crate) async fn analyze(
    State(state): State<AppState>,
    Params(query): Params<AnalyzeQuery>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let limit = state.limits.body_bytes;
    let bytes = read_body(&headers, body, limit).await?;
    let kind = BodyKind::of(&headers)?;
    // The slot stays with this request, so a request whose time is up gives
    // it back at once.
    let slot = slot(&state)?;
    // The thread's permit goes with the analysis until it has stopped: an
    // abandoned analysis is cancelled and stops at its stage's next check, and
    // while as many of them are stopping as there are slots, new requests wait.
    let thread = state
        .analysis_threads
        .clone()
        .try_acquire_owned()
        .map_err(|_| {
            ApiError::unavailable(
                "analyses whose requests timed out are still finishing; try again shortly",
            )
        })?;
    let budget = attest_doc::Budget::new(&attest_doc::Limits {
        article_seconds: state.limits.timeout.as_secs().max(1),
        ..attest_doc::Limits::DEFAULT
    });
    let abandoned = budget.canceller();
    let _abandon = CancelOnDrop(abandoned.clone());
    let pipeline = state.pipeline.clone();
    let limits = attest_doc::Limits {
        article_bytes: limit,
        ..attest_doc::Limits::DEFAULT
    };
    let json_config = attest_write::JsonConfig {
        tokens: query.tokens,
        ..attest_write::JsonConfig::default()
    };
    let output_bytes = state.limits.output_bytes;
    let format = query.format;
    let analysed = tokio::task::spawn_blocking(move || {
        let _thread = thread;
        let config = attest_read::ReadConfig { limits };
        let item = kind.read(bytes, &config, budget)?;
        if abandoned.is_cancelled() {
            return Err(ApiError::unavailable("the request was abandoned"));
        }
        let doc = pipeline.analyze_with(item.article, item.warnings, item.budget);
        if abandoned.is_cancelled() {
            return Err(ApiError::unavailable("the request was abandoned"));
        }
        // Written as `attest analyze --format jsonl` (or `brat`) writes it,
        // so the fields keep the schema's order.
        let mut answer = Capped::new(output_bytes);
        let written = match format {
            AnswerFormat::Json => attest_write::write_jsonl(&doc, &json_config, &mut answer),
            AnswerFormat::Brat => answer.write_all(attest_write::brat_ann(&doc).as_bytes()),
        };
        match written {
            Ok(()) => Ok(answer.bytes),
            Err(_) if answer.over => Err(ApiError::answer_too_large(output_bytes)),
            Err(error) => Err(ApiError::internal(format!("writing the document: {error}"))),
        }
    })
    .await
    .map_err(|_| ApiError::internal("the analysis stopped unexpectedly"))??;
    drop(slot);
    let answer = hold(&state, analysed)?;
    Ok(([(header::CONTENT_TYPE, format.content_type())], answer).into_response())
}

/// One of the server's analysis slots, or 503. Analysis is CPU-bound: a
/// bounded number run at once, and the rest are told so at once instead of
/// queueing without end.
pub(crate) fn slot(state: &AppState) -> Result<tokio::sync::OwnedSemaphorePermit, ApiError> {
    state.analyses.clone().try_acquire_owned().map_err(|_| {
        ApiError::unavailable(format!(
            "{} analyses are running, the most this server runs at once; try again shortly",
            state.limits.analyses
        ))
    })
}

/// The answer `json`, holding its bytes' share of
/// [`crate::Limits::held_answer_bytes`] until hyper has written the last of
/// them or dropped them with the connection; 503 when the answers held
/// already leave no room for it.
fn hold(state: &AppState, json: Vec<u8>) -> Result<Bytes, ApiError> {
    let share = u32::try_from(json.len())
        .ok()
        .and_then(|bytes| {
            state
                .held_answers
                .clone()
                .try_acquire_many_owned(bytes)
                .ok()
        })
        .ok_or_else(|| {
            ApiError::unavailable(format!(
                "answers not yet taken by their clients fill the {} bytes this server holds \
                 (attest serve --max-held-answer-bytes); try again shortly",
                state.limits.held_answer_bytes
            ))
        })?;
    Ok(Bytes::from_owner(Held {
        json,
        _share: share,
    }))
}

/// An answer's bytes and their share of the budget, given back when the last
/// [`Bytes`] of them is dropped.
struct Held {
    json: Vec<u8>,
    _share: tokio::sync::OwnedSemaphorePermit,
}

impl AsRef<[u8]> for Held {
    fn as_ref(&self) -> &[u8] {
        &self.json
    }
}

/// A buffer that refuses to grow past `limit` bytes, so that an answer over
/// the limit is never held whole.
struct Capped {
    bytes: Vec<u8>,
    limit: usize,
    over: bool,
}

impl Capped {
    fn new(limit: usize) -> Capped {
        Capped {
            bytes: Vec::new(),
            limit,
            over: false,
        }
    }
}

impl Write for Capped {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.bytes.len().saturating_add(buf.len()) > self.limit {
            self.over = true;
            self.bytes = Vec::new();
            return Err(io::Error::other("the answer is over its limit"));
        }
        self.bytes.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The body, or 413 when it is over `limit` bytes: at once when its
/// `Content-Length` says so, else as soon as that many bytes have come.
pub(crate) async fn read_body(
    headers: &HeaderMap,
    body: Body,
    limit: usize,
) -> Result<Bytes, ApiError> {
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse::<u64>().ok());
    if declared.is_some_and(|length| length > limit as u64) {
        return Err(ApiError::too_large(limit));
    }
    axum::body::to_bytes(body, limit).await.map_err(|error| {
        let too_large = std::error::Error::source(&error)
            .is_some_and(|source| source.is::<http_body_util::LengthLimitError>());
        if too_large {
            ApiError::too_large(limit)
        } else {
            ApiError::bad_request(format!("reading the request body: {error}"))
        }
    })
}

#[derive(Clone, Copy)]
enum BodyKind {
    Json,
    Text,
    Html,
}

impl BodyKind {
    fn of(headers: &HeaderMap) -> Result<BodyKind, ApiError> {
        let Some(value) = headers.get(header::CONTENT_TYPE) else {
            return Ok(BodyKind::Text);
        };
        let value = value
            .to_str()
            .map_err(|_| ApiError::bad_request("the Content-Type header is not ASCII"))?;
        let media = value.split(';').next().unwrap_or("").trim();
        match media.to_ascii_lowercase().as_str() {
            "application/json" => Ok(BodyKind::Json),
            "text/plain" | "" => Ok(BodyKind::Text),
            "text/html" => Ok(BodyKind::Html),
            other => Err(ApiError::unsupported(format!(
                "Content-Type {other} is not read here: send application/json, text/plain or text/html"
            ))),
        }
    }

    /// The article of the body, read within the request's `budget`, which
    /// the item carries on to the analysis.
    fn read(
        self,
        bytes: Bytes,
        config: &attest_read::ReadConfig,
        budget: attest_doc::Budget,
    ) -> Result<attest_read::ReadItem, ApiError> {
        let read = match self {
            BodyKind::Json => {
                attest_read::read_json_request(bytes.to_vec(), REQUEST_ID, config, budget)
            }
            BodyKind::Text => {
                attest_read::read_text_bytes(bytes.to_vec(), REQUEST_ID, config, budget)
            }
            BodyKind::Html => {
                let html = String::from_utf8_lossy(&bytes);
                attest_read::read_html_str(&html, REQUEST_ID, config, budget)
            }
        };
        read.map_err(|error| match error.kind() {
            // The request's time ran out, or it was abandoned, while its page was read.
            attest_read::ReadErrorKind::Exhausted(_) => ApiError::unavailable(error.to_string()),
            _ => ApiError::bad_request(error.to_string()),
        })
    }
}
