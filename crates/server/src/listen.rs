//! Accepting connections: at most [`Limits::connections`] at once, each closed
//! when it takes longer than [`Limits::header_timeout`] to send a request's
//! head or leaves an answer untaken that long, and all of them given
//! [`Limits::grace`] to finish on shutdown.
//!
//! `axum::serve` has none of these bounds, so connections are served here with
//! hyper's HTTP/1 connection builder, whose header read timeout starts when the
//! connection waits for a head: on opening, and again after each answer, which
//! makes it the keep-alive idle timeout as well.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};

use crate::Limits;

/// The most a connection buffers of a request's head (and of its body at a
/// time): far more than any browser sends, and it bounds what each open
/// connection costs.
const BUFFER_BYTES: usize = 64 * 1024;

/// How long to wait before accepting again after `accept` failed (out of file
/// descriptors, say), so that the loop does not spin while nothing changes.
const ACCEPT_PAUSE: Duration = Duration::from_millis(50);

/// Serves `app` on `listener` until `shutdown` resolves, then gives the open
/// connections [`Limits::grace`] to finish their requests and returns.
pub(crate) async fn run(
    listener: TcpListener,
    app: Router,
    limits: &Limits,
    shutdown: impl Future<Output = ()>,
) {
    // Whole, so that `acquire_many` can wait for all of them at the end.
    let slots = limits
        .connections
        .clamp(1, Semaphore::MAX_PERMITS.min(u32::MAX as usize));
    let connections = Arc::new(Semaphore::new(slots));
    let (stop, stopping) = watch::channel(false);
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_buf_size(BUFFER_BYTES);
    tokio::pin!(shutdown);
    loop {
        // A connection slot first: past the limit, clients wait in the
        // kernel's accept queue instead of costing memory here.
        let permit = tokio::select! {
            () = &mut shutdown => break,
            permit = connections.clone().acquire_owned() => match permit {
                Ok(permit) => permit,
                Err(_) => break,
            },
        };
        let stream = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(_) => {
                    tokio::time::sleep(ACCEPT_PAUSE).await;
                    continue;
                }
            },
        };
        let connection = builder.serve_connection(
            TokioIo::new(StallLimit::new(stream, limits.header_timeout)),
            TowerToHyperService::new(app.clone()),
        );
        let mut stopping = stopping.clone();
        tokio::spawn(async move {
            let _permit = permit;
            tokio::pin!(connection);
            tokio::select! {
                _ = connection.as_mut() => {}
                _ = stopping.changed() => {
                    // Finish the request in flight, if any, then close.
                    connection.as_mut().graceful_shutdown();
                    let _ = connection.await;
                }
            }
        });
    }
    drop(listener);
    let _ = stop.send(true);
    // Every slot back means every connection closed; after the grace period
    // the caller drops the runtime, and with it whatever is still open.
    let all = u32::try_from(slots).unwrap_or(u32::MAX);
    let _ = tokio::time::timeout(limits.grace, connections.acquire_many(all)).await;
}

/// A connection whose writes fail once the client has taken nothing of them
/// for `limit`: a client that stops reading would otherwise hold its
/// connection, and the answer waiting for it, for ever.
struct StallLimit<T> {
    inner: T,
    limit: Duration,
    stalled: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl<T> StallLimit<T> {
    fn new(inner: T, limit: Duration) -> StallLimit<T> {
        StallLimit {
            inner,
            limit,
            stalled: None,
        }
    }

    /// What a write that could not go on returns: pending until the limit,
    /// then an error that ends the connection.
    fn wait<R>(
        &mut self,
        cx: &mut Context<'_>,
        progress: Poll<io::Result<R>>,
    ) -> Poll<io::Result<R>> {
        if progress.is_ready() {
            self.stalled = None;
            return progress;
        }
        let limit = self.limit;
        let stalled = self
            .stalled
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
        match stalled.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client took nothing of the answer for too long",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for StallLimit<T> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for StallLimit<T> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let progress = Pin::new(&mut this.inner).poll_write(cx, buf);
        this.wait(cx, progress)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let progress = Pin::new(&mut this.inner).poll_write_vectored(cx, bufs);
        this.wait(cx, progress)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let progress = Pin::new(&mut this.inner).poll_flush(cx);
        this.wait(cx, progress)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let progress = Pin::new(&mut this.inner).poll_shutdown(cx);
        this.wait(cx, progress)
    }
}

#[cfg(test)]
mod tests {
    use tokio::io::{AsyncReadExt, AsyncWriteExt, duplex};

    use super::*;

    #[tokio::test]
    async fn a_write_nobody_takes_fails_at_the_limit() {
        let (near, _far) = duplex(16);
        let mut stream = StallLimit::new(near, Duration::from_millis(50));
        let error = stream
            .write_all(&[0; 64])
            .await
            .expect_err("nobody reads the far end");
        assert_eq!(error.kind(), io::ErrorKind::TimedOut);
    }

    #[tokio::test]
    async fn a_write_that_is_taken_goes_through() {
        let (near, mut far) = duplex(16);
        let reader = tokio::spawn(async move {
            let mut taken = Vec::new();
            far.read_to_end(&mut taken).await.map(|_| taken)
        });
        let mut stream = StallLimit::new(near, Duration::from_secs(60));
        stream
            .write_all(&[7; 64])
            .await
            .expect("the reader takes it");
        stream.shutdown().await.expect("the stream closes");
        drop(stream);
        let taken = reader.await.expect("the reader ends").expect("it reads");
        assert_eq!(taken, [7; 64]);
    }
}
