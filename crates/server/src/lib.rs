//! The attest HTTP API and web page.
//!
//! [`router`] builds the whole application over an [`AppState`]: the versioned
//! JSON API under `/v1` (documented by the OpenAPI file served at
//! `/v1/openapi.json`) and the page at `/`, whose assets are compiled into the
//! binary so that it works offline. The API analyses articles with the
//! pipeline it is given and, when [`AppState::with_ledger`] names a ledger
//! file, answers the ledger's questions from it (articles, sources, a source's
//! statements, full-text search, statistics). [`serve`] binds an address and runs the
//! router until SIGINT or SIGTERM, finishing the requests in flight for at most
//! [`Limits::grace`].
//!
//! Every failure is a JSON error object with the status code that says what
//! went wrong ([`ApiError`]): 400 for bad input with the reason (a request
//! that is not HTTP/1.1 included), 403 for a POST
//! that is neither JSON nor carries the page's token, 404, 413 for a body over
//! [`Limits::body_bytes`] or an answer over [`Limits::output_bytes`], 414 for a
//! ledger question over [`Limits::query_bytes`] or a path hyper does not
//! read, 431 for a request head over 64 KiB or 100 header fields, 421 for a `Host` the server
//! does not answer to, 503 when the analyses or ledger queries that may run at
//! once are running, the answers not yet taken by their clients fill
//! [`Limits::held_answer_bytes`], or a request outlives its time limit. A stage that panics
//! on an article is caught by the pipeline and reported in the document's
//! diagnostics, so no input takes the server down.
//!
//! Every resource a client can hold is bounded by a field of [`Limits`]:
//! connections (from one address and in all), the time to send a request's head, the time of a request and
//! of a ledger statement, the threads that analyse and query, and the bytes of
//! a body, a ledger question, an answer and all answers held. ARCHITECTURE.md lists the
//! invariants.
//!
//! ```
//! use std::sync::Arc;
//! use attest_server::{AppState, Limits, router};
//!
//! let pipeline = attest_pipeline::Pipeline::standard(&attest_doc::Limits::DEFAULT)?;
//! let state = AppState::new(Arc::new(pipeline), Limits::DEFAULT);
//! let app = router(state);
//! # let _ = app;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs)]

mod analyze;
mod corrections;
mod error;
mod head_errors;
mod ledger;
mod listen;
#[cfg(feature = "schema")]
mod openapi;
mod origin;
mod page;
mod routes;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use attest_pipeline::Pipeline;
use tokio::sync::Semaphore;

pub use error::{ApiError, ServerError};
#[cfg(feature = "schema")]
pub use openapi::{OpenApiError, openapi};
pub use routes::{ROUTES, router};

/// The limits that keep one client from taking the server down.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The largest request body, in bytes; a larger one gets 413 before it is
    /// read whole. Articles are rarely over 100 kB: 2 MB leaves room for long
    /// HTML pages.
    pub body_bytes: usize,
    /// How long a request may take, reading its body included; a slower one
    /// gets 503. Analysis runs at several MB/s, so 30 s only cuts off what
    /// would tie up a worker for good.
    pub timeout: Duration,
    /// How many analyses run at once; one more request gets 503 at once rather
    /// than queueing without bound. Analysis is CPU-bound: more than the
    /// cores only makes every request slower. A request that outlives
    /// [`Limits::timeout`] gives its slot back at once and cancels its
    /// analysis, which stops at its stage's next check. At most as many such
    /// analyses may be stopping at a time as there are slots, so no more than
    /// twice this many analysis threads ever exist.
    pub analyses: usize,
    /// The largest answer of one analysis, in bytes of JSON; a larger one gets
    /// 413 and is not kept. The JSON of an article is some ten to forty times
    /// its text: 64 MB holds any article under the body limit but pathological
    /// ones.
    pub output_bytes: usize,
    /// The most bytes of analysis answers held at once, server-wide, from
    /// when an answer is made until its client has taken the last of it (or
    /// its connection is closed, at the latest [`Limits::header_timeout`]
    /// after the client stops reading). An analysis whose answer would go over
    /// gets 503 at once. Without it, clients that do not read could hold
    /// [`Limits::connections`] × [`Limits::output_bytes`]. Keep it at least
    /// [`Limits::output_bytes`], or the largest answers are never sent.
    pub held_answer_bytes: usize,
    /// How many ledger questions run at once; one more gets 503 at once.
    /// Each holds a thread and a database connection while it runs.
    pub ledger_queries: usize,
    /// How long one ledger question may run (the statement timeout): SQLite's
    /// progress handler stops it then, or PostgreSQL's `statement_timeout`,
    /// and the client gets 503. Every route
    /// answers in milliseconds on a corpus of a hundred thousand articles.
    pub query_timeout: Duration,
    /// The longest path and query string of a ledger route, in bytes; a longer
    /// one gets 414. Search words and filters fit in far less.
    pub query_bytes: usize,
    /// How long a client may take to send a request's head, counted from when
    /// the connection opens or its previous answer was sent; the connection is
    /// closed then. This is also how long an idle keep-alive connection stays
    /// open, and how long a client may leave an answer untaken before the
    /// connection is closed.
    pub header_timeout: Duration,
    /// How many connections are open at once; more wait in the kernel's
    /// accept queue until one closes. Each costs a task and buffers of at most
    /// 64 kB while it waits for a request.
    pub connections: usize,
    /// How many connections one client address may have open at once; one
    /// more is closed unanswered at once, so that a client cannot take every
    /// one of [`Limits::connections`] and keep the others waiting.
    pub client_connections: usize,
    /// How long the requests in flight may take to finish after SIGINT or
    /// SIGTERM; the process exits then, whatever the clients do.
    pub grace: Duration,
}

impl Limits {
    /// 2 MB bodies, 30 s per request, two analyses at once with answers of at
    /// most 64 MB and 256 MB of answers held in all, four ledger questions at once of 10 s and 2,000 bytes each,
    /// 10 s to send a head, 256 connections of which 32 from one address, 10 s
    /// to finish on a signal.
    pub const DEFAULT: Limits = Limits {
        body_bytes: 2 * 1024 * 1024,
        timeout: Duration::from_secs(30),
        analyses: 2,
        output_bytes: 64 * 1024 * 1024,
        held_answer_bytes: 256 * 1024 * 1024,
        ledger_queries: 4,
        query_timeout: Duration::from_secs(10),
        query_bytes: 2_000,
        header_timeout: Duration::from_secs(10),
        connections: 256,
        client_connections: 32,
        grace: Duration::from_secs(10),
    };

    /// The most threads that analyse or ask the ledger at once: the slots,
    /// the analyses finishing after their request gave up, and the ledger
    /// questions.
    fn blocking_threads(&self) -> usize {
        2 * self.analyses.max(1) + self.ledger_queries.max(1)
    }
}

/// What every request handler shares.
#[derive(Clone, Debug)]
pub struct AppState {
    pipeline: Arc<Pipeline>,
    limits: Limits,
    /// Analyses running for a request that waits for them.
    analyses: Arc<Semaphore>,
    /// Threads analysing, including those whose request has given up.
    analysis_threads: Arc<Semaphore>,
    ledger_queries: Arc<Semaphore>,
    /// A permit for each byte of the answers made and not yet taken.
    held_answers: Arc<Semaphore>,
    ledger: Option<attest_ledger::Location>,
    /// Whether editors may correct the ledger's attributions.
    corrections: bool,
    origin: Arc<origin::Origin>,
}

impl AppState {
    /// A state that analyses with `pipeline` under `limits`, with no ledger,
    /// answering to the `Host` names of loopback.
    pub fn new(pipeline: Arc<Pipeline>, limits: Limits) -> AppState {
        let analyses = limits.analyses.max(1);
        AppState {
            pipeline,
            limits,
            analyses: Arc::new(Semaphore::new(analyses)),
            analysis_threads: Arc::new(Semaphore::new(2 * analyses)),
            ledger_queries: Arc::new(Semaphore::new(limits.ledger_queries.max(1))),
            held_answers: Arc::new(Semaphore::new(
                limits.held_answer_bytes.min(Semaphore::MAX_PERMITS),
            )),
            ledger: None,
            corrections: false,
            origin: Arc::new(origin::Origin::new(
                IpAddr::V4(Ipv4Addr::LOCALHOST),
                Vec::new(),
            )),
        }
    }

    /// The same state answering the ledger routes from the ledger at
    /// `location` (a SQLite file or a PostgreSQL database), which the server
    /// only reads.
    pub fn with_ledger(mut self, location: impl Into<attest_ledger::Location>) -> AppState {
        self.ledger = Some(location.into());
        self
    }

    /// The same state taking editors' corrections of the ledger's attributions
    /// (`POST /v1/articles/{id}/corrections`), which it then writes.
    pub fn with_corrections(mut self, allowed: bool) -> AppState {
        self.corrections = allowed;
        self
    }

    /// The same state answering to `Host` values that match `bind` (see
    /// [`serve`]) and to the names in `allowed`, besides.
    pub fn with_hosts(mut self, bind: IpAddr, allowed: Vec<String>) -> AppState {
        self.origin = Arc::new(origin::Origin::new(bind, allowed));
        self
    }
}

/// Raises its flag when dropped: when a request is done, or abandoned because
/// its time is up or its client is gone, so that the work it started on
/// another thread stops or skips what is left.
struct CancelOnDrop(attest_doc::Canceller);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

/// A route's query parameters, parsed as `T`; an unknown or malformed one
/// gets 400 with serde's reason, as every failure is an [`ApiError`].
struct Params<T>(T);

impl<T: serde::de::DeserializeOwned, S: Send + Sync> axum::extract::FromRequestParts<S>
    for Params<T>
{
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &S,
    ) -> Result<Self, ApiError> {
        axum::extract::Query::from_request_parts(parts, state)
            .await
            .map(|axum::extract::Query(params)| Params(params))
            .map_err(|rejection: axum::extract::rejection::QueryRejection| {
                ApiError::bad_request(rejection.body_text())
            })
    }
}

/// A route's one path parameter (an article's or a source's id); a segment
/// that does not decode (`/v1/articles/%ff%fe`, not UTF-8) gets a 400 in JSON
/// like every other failure, not axum's plain text.
struct PathId(String);

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for PathId {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &S,
    ) -> Result<Self, ApiError> {
        axum::extract::Path::<String>::from_request_parts(parts, state)
            .await
            .map(|axum::extract::Path(id)| PathId(id))
            .map_err(|rejection: axum::extract::rejection::PathRejection| {
                ApiError::bad_request(rejection.body_text())
            })
    }
}

/// Serves `state` on `addr` until SIGINT or SIGTERM; `ready` is called with the
/// address bound (port 0 picks a free one) before the first request is taken.
///
/// On a signal the server stops accepting, closes the connections that wait
/// for a request or are still sending its head, lets the requests in flight
/// finish for at most [`Limits::grace`], and returns; analyses still running then are
/// abandoned with the runtime.
pub fn serve(
    addr: SocketAddr,
    state: AppState,
    ready: impl FnOnce(SocketAddr),
) -> Result<(), ServerError> {
    let limits = state.limits;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .max_blocking_threads(limits.blocking_threads())
        .build()
        .map_err(ServerError::Runtime)?;
    let served = runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|source| ServerError::Bind { addr, source })?;
        let bound = listener
            .local_addr()
            .map_err(|source| ServerError::Bind { addr, source })?;
        ready(bound);
        listen::run(listener, router(state), &limits, shutdown_signal()).await;
        Ok(())
    });
    // The grace period is over: threads still analysing or querying are not
    // waited for.
    runtime.shutdown_background();
    served
}

/// Resolves on SIGINT (Ctrl-C) or SIGTERM, whichever comes first.
async fn shutdown_signal() {
    let interrupt = async {
        // Without a handler there is nothing to wait for; the other signal still counts.
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {}
        () = terminate => {}
    }
}
