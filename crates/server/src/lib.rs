//! The attest HTTP API and web page.
//!
//! [`router`] builds the whole application over an [`AppState`]: the versioned
//! JSON API under `/v1` (documented by the OpenAPI file served at
//! `/v1/openapi.json`) and the page at `/`, whose assets are compiled into the
//! binary so that it works offline. The API analyses articles with the
//! pipeline it is given and, when [`AppState::with_ledger`] names a ledger
//! file, answers the ledger's questions from it (articles, sources, a source's
//! statements, full-text search, statistics). [`serve`] binds an address and runs the
//! router until SIGINT or SIGTERM, finishing the requests in flight.
//!
//! Every failure is a JSON error object with the status code that says what
//! went wrong ([`ApiError`]): 400 for bad input with the reason, 404, 413 for a
//! body over [`Limits::body_bytes`], 503 when [`Limits::analyses`] analyses are
//! already running or a request outlives [`Limits::timeout`]. A stage that
//! panics on an article is caught by the pipeline and reported in the
//! document's diagnostics, so no input takes the server down.
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
mod error;
mod ledger;
mod page;
mod routes;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use attest_pipeline::Pipeline;
use tokio::sync::Semaphore;

pub use error::{ApiError, ServerError};
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
    /// cores only makes every request slower.
    pub analyses: usize,
}

impl Limits {
    /// 2 MB bodies, 30 s per request, two analyses at once.
    pub const DEFAULT: Limits = Limits {
        body_bytes: 2 * 1024 * 1024,
        timeout: Duration::from_secs(30),
        analyses: 2,
    };
}

/// What every request handler shares.
#[derive(Clone, Debug)]
pub struct AppState {
    pipeline: Arc<Pipeline>,
    limits: Limits,
    analyses: Arc<Semaphore>,
    ledger: Option<PathBuf>,
}

impl AppState {
    /// A state that analyses with `pipeline` under `limits`, with no ledger.
    pub fn new(pipeline: Arc<Pipeline>, limits: Limits) -> AppState {
        AppState {
            pipeline,
            limits,
            analyses: Arc::new(Semaphore::new(limits.analyses.max(1))),
            ledger: None,
        }
    }

    /// The same state answering the ledger routes from the ledger file at
    /// `path`, which the server only reads.
    pub fn with_ledger(mut self, path: PathBuf) -> AppState {
        self.ledger = Some(path);
        self
    }
}

/// Serves `state` on `addr` until SIGINT or SIGTERM; `ready` is called with the
/// address bound (port 0 picks a free one) before the first request is taken.
pub fn serve(
    addr: SocketAddr,
    state: AppState,
    ready: impl FnOnce(SocketAddr),
) -> Result<(), ServerError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(ServerError::Runtime)?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|source| ServerError::Bind { addr, source })?;
        let bound = listener
            .local_addr()
            .map_err(|source| ServerError::Bind { addr, source })?;
        ready(bound);
        axum::serve(listener, router(state))
            .with_graceful_shutdown(shutdown_signal())
            .await
            .map_err(ServerError::Serve)
    })
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
