//! Errors: the JSON error a client gets, and the errors that stop the server.

use std::net::SocketAddr;

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

/// A request that failed, answered as
/// `{"error": {"status": 413, "message": "…"}}` with that status code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    status: StatusCode,
    message: String,
}

impl ApiError {
    /// 400: the request is wrong, and `message` says how.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// 404: nothing is at this address.
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, message)
    }

    /// 405: the route exists, but not for this method.
    pub fn method_not_allowed(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::METHOD_NOT_ALLOWED, message)
    }

    /// 413: the body is over the limit.
    pub fn too_large(limit: usize) -> ApiError {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "the request body is over the limit of {limit} bytes (attest serve --max-body-bytes)"
            ),
        )
    }

    /// 413: the answer would be over the limit.
    pub fn answer_too_large(limit: usize) -> ApiError {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "the answer would be over the limit of {limit} bytes (attest serve --max-output-bytes); send a shorter article"
            ),
        )
    }

    /// 403: a request the server does not take from where it may come from.
    pub fn forbidden(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::FORBIDDEN, message)
    }

    /// 414: the address is over the limit.
    pub fn uri_too_long(limit: usize) -> ApiError {
        ApiError::new(
            StatusCode::URI_TOO_LONG,
            format!(
                "the path and query are over the limit of {limit} bytes (attest serve --max-query-bytes)"
            ),
        )
    }

    /// 421: the request names a `Host` this server does not answer to.
    pub fn misdirected(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::MISDIRECTED_REQUEST, message)
    }

    /// 415: a body type the route does not read.
    pub fn unsupported(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNSUPPORTED_MEDIA_TYPE, message)
    }

    /// 503: the server cannot take the request now; trying later may work.
    pub fn unavailable(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::SERVICE_UNAVAILABLE, message)
    }

    /// 500: the server failed; `message` says where.
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, message)
    }

    pub(crate) fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }

    /// The status code.
    pub fn status(&self) -> StatusCode {
        self.status
    }

    /// What went wrong.
    pub fn message(&self) -> &str {
        &self.message
    }
}

/// Every failure's answer, with the status code it names.
#[derive(Serialize)]
#[cfg_attr(
    feature = "schema",
    derive(schemars::JsonSchema),
    schemars(rename = "Error")
)]
pub(crate) struct ErrorBody<'a> {
    error: ErrorFields<'a>,
}

#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema), schemars(inline))]
struct ErrorFields<'a> {
    /// The HTTP status code.
    status: u16,
    /// What went wrong.
    message: &'a str,
}

impl ApiError {
    /// The answer's body, which is also the body of the answers hyper writes
    /// itself (see `head_errors`).
    pub(crate) fn json(&self) -> Vec<u8> {
        let body = ErrorBody {
            error: ErrorFields {
                status: self.status.as_u16(),
                message: &self.message,
            },
        };
        // A number and a string always serialise.
        serde_json::to_vec(&body).unwrap_or_default()
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (
            self.status,
            [(axum::http::header::CONTENT_TYPE, "application/json")],
            self.json(),
        )
            .into_response();
        if self.status == StatusCode::SERVICE_UNAVAILABLE {
            response.headers_mut().insert(
                axum::http::header::RETRY_AFTER,
                axum::http::HeaderValue::from_static("1"),
            );
        }
        response
    }
}

/// Why the server could not start or stopped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ServerError {
    /// The async runtime could not start.
    #[error("starting the server runtime: {0}")]
    Runtime(std::io::Error),
    /// The address could not be bound.
    #[error("listening on {addr}")]
    Bind {
        /// The address asked for.
        addr: SocketAddr,
        /// Why it failed: its `source()`, so the message leaves it to the chain.
        source: std::io::Error,
    },
    /// Serving failed.
    #[error("serving: {0}")]
    Serve(std::io::Error),
}
