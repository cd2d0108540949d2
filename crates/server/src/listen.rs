//! Accepting connections: at most [`Limits::connections`] at once and
//! [`Limits::client_connections`] from one address, each closed when it takes
//! longer than [`Limits::header_timeout`] to send a request's head or leaves an
//! answer untaken that long. On shutdown, the connections that are sending an
//! answer get [`Limits::grace`] to finish it; the others are closed at once.
//!
//! `axum::serve` has none of these bounds, so connections are served here with
//! hyper's HTTP/1 connection builder, whose header read timeout starts when the
//! connection waits for a head: on opening, and again after each answer, which
//! makes it the keep-alive idle timeout as well.

use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use hyper::server::conn::http1;
use hyper::service::{Service, service_fn};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::AsyncWrite;
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};

use crate::Limits;
use crate::head_errors::JsonErrors;

/// The most a connection buffers of a request's head (and of its body at a
/// time): far more than any browser sends, and it bounds what each open
/// connection costs.
pub(crate) const BUFFER_BYTES: usize = 64 * 1024;

/// The most header fields a request may have: hyper's default, far more than
/// any browser sends.
pub(crate) const HEADER_FIELDS: usize = 100;

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
    let clients = Arc::new(Clients::default());
    let (stop, stopping) = watch::channel(false);
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_buf_size(BUFFER_BYTES)
        .max_headers(HEADER_FIELDS);
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
        let (stream, peer) = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(_) => {
                    tokio::time::sleep(ACCEPT_PAUSE).await;
                    continue;
                }
            },
        };
        // One client must not take every slot: past its share, its
        // connection is closed unanswered and the slot is free again.
        let Some(client) = clients.admit(peer.ip(), limits.client_connections) else {
            continue;
        };
        // Both wrappers act on what is written alone, so they wrap the write
        // half only and need no read pass-through.
        let (read, write) = stream.into_split();
        let asked = Arc::new(AtomicBool::new(false));
        let service = {
            let asked = Arc::clone(&asked);
            let app = TowerToHyperService::new(app.clone());
            service_fn(move |request| {
                asked.store(true, Ordering::Relaxed);
                app.call(request)
            })
        };
        let connection = builder.serve_connection(
            TokioIo::new(tokio::io::join(
                read,
                JsonErrors::new(StallLimit::new(write, limits.header_timeout)),
            )),
            service,
        );
        let mut stopping = stopping.clone();
        tokio::spawn(async move {
            let _slots = (permit, client);
            tokio::pin!(connection);
            tokio::select! {
                _ = connection.as_mut() => {}
                // A connection that has not yet sent a whole request is
                // closed now: hyper would wait for its first head. One that
                // has finishes the answer it is sending, if any, and closes;
                // hyper closes it at once when it waits for its next head.
                _ = stopping.changed() => if asked.load(Ordering::Relaxed) {
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

/// How many connections each client address has open.
#[derive(Default)]
struct Clients(Mutex<HashMap<IpAddr, usize>>);

impl Clients {
    /// A place for one more connection from `ip`, or `None` when it has
    /// `limit` open already.
    fn admit(self: &Arc<Self>, ip: IpAddr, limit: usize) -> Option<ClientSlot> {
        // The map is whole after any panic: each change is one statement.
        let mut open = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let count = open.entry(ip).or_insert(0);
        if *count >= limit.max(1) {
            return None;
        }
        *count += 1;
        Some(ClientSlot {
            clients: Arc::clone(self),
            ip,
        })
    }
}

/// One connection's place in its client's count, given back when dropped.
struct ClientSlot {
    clients: Arc<Clients>,
    ip: IpAddr,
}

impl Drop for ClientSlot {
    fn drop(&mut self) {
        let mut open = self
            .clients
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = open.get_mut(&self.ip) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.ip);
            }
        }
    }
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

    /// Reads what comes on `stream` until it closes, for at most a minute;
    /// `None` when it stays open.
    async fn closed(stream: &mut tokio::net::TcpStream) -> Option<Vec<u8>> {
        let mut taken = Vec::new();
        match tokio::time::timeout(Duration::from_secs(60), stream.read_to_end(&mut taken)).await {
            Ok(_) => Some(taken),
            Err(_) => None,
        }
    }

    #[tokio::test]
    async fn a_client_over_its_connection_limit_is_closed_and_others_are_served() {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
        let addr = listener.local_addr().expect("its address");
        let limits = Limits {
            connections: 3,
            client_connections: 2,
            header_timeout: Duration::from_secs(600),
            ..Limits::DEFAULT
        };
        let app = Router::new().route("/", axum::routing::get(|| async { "ok" }));
        tokio::spawn(async move { run(listener, app, &limits, std::future::pending()).await });
        let connect = || tokio::net::TcpStream::connect(addr);
        let _held = [connect().await.expect("one"), connect().await.expect("two")];
        let mut third = connect().await.expect("the kernel accepts");
        assert_eq!(
            closed(&mut third).await,
            Some(Vec::new()),
            "a third connection from the same address is closed unanswered"
        );
        let socket = tokio::net::TcpSocket::new_v4().expect("a socket");
        socket
            .bind("127.0.0.2:0".parse().expect("an address"))
            .expect("loopback has 127.0.0.2");
        let mut other = socket.connect(addr).await.expect("the server accepts");
        other
            .write_all(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            .await
            .expect("a request is sent");
        let answer = closed(&mut other).await.expect("the answer ends");
        assert!(answer.starts_with(b"HTTP/1.1 200"), "{answer:?}");
    }

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
