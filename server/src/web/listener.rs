//! Accepting connections with limits a slow or hostile client cannot get around:
//! at most `max_connections` at once (more wait in the kernel's backlog), of which at
//! most `max_connections_per_address` from one address (IPv6 by /64; past that a new
//! connection is closed as soon as it is accepted, and the log says so at most every
//! [`CAP_LOG_EVERY`]; the trusted proxy, which speaks for many, is not capped), the headers
//! of a request within `header_timeout` (hyper's timer, which also bounds how long a
//! kept-alive connection waits for its next request), no connection left without a
//! byte moving either way for `idle_timeout` (a client that stops reading its answer
//! lets go of it), and every request answered within `request_timeout` (a layer of the
//! app, see [`super::app`]).

use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::extract::ConnectInfo;
use axum::{Extension, Router};
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::time::{Instant, Sleep};
use tower::ServiceBuilder;

/// The limits of the listener.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub max_connections: usize,
    pub max_connections_per_address: usize,
    /// Its connections are not capped per address: it forwards many clients'.
    pub trusted_proxy: Option<IpAddr>,
    pub header_timeout: Duration,
    pub idle_timeout: Duration,
}

/// How long the requests in flight have to finish once the server is asked to stop.
const DRAIN: Duration = Duration::from_secs(5);

/// The log says that connections were refused at most this often.
pub const CAP_LOG_EVERY: Duration = Duration::from_secs(10);

/// Connections refused past the cap per address since the log last said so.
#[derive(Default)]
struct Refused {
    said: Option<Instant>,
    since: u64,
    addresses: std::collections::HashSet<super::guard::AddressKey>,
}

impl Refused {
    /// Notes a connection from `peer` refused; a line in the log now and then.
    fn note(&mut self, peer: IpAddr, cap: usize) {
        self.since += 1;
        // Bounded: a few addresses are enough to say what happens.
        if self.addresses.len() < 1000 {
            self.addresses.insert(peer.into());
        }
        if self.said.is_some_and(|t| t.elapsed() < CAP_LOG_EVERY) {
            return;
        }
        tracing::warn!(
            %peer,
            "refused {} connections from {} addresses (this one the latest) past \
             max_connections_per_address = {cap} (said at most every {} s)",
            self.since,
            self.addresses.len(),
            CAP_LOG_EVERY.as_secs()
        );
        self.said = Some(Instant::now());
        self.since = 0;
        self.addresses.clear();
    }
}

/// A connection that fails once no byte has moved either way for `idle` while it
/// waits to read or write. A byte moving only notes the time; the timer is set when
/// the connection has to wait, which keeps it off the path of busy connections.
struct Idle {
    inner: TcpStream,
    idle: Duration,
    last_moved: Instant,
    deadline: Pin<Box<Sleep>>,
}

impl Idle {
    fn new(inner: TcpStream, idle: Duration) -> Idle {
        let now = Instant::now();
        Idle {
            inner,
            idle,
            last_moved: now,
            deadline: Box::pin(tokio::time::sleep_until(now + idle)),
        }
    }

    fn moved(&mut self) {
        self.last_moved = Instant::now();
    }

    /// On a wait: an error once `idle` passed since a byte last moved.
    fn waiting<T>(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<T>> {
        let due = self.last_moved + self.idle;
        if self.deadline.deadline() != due {
            self.deadline.as_mut().reset(due);
        }
        match self.deadline.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the connection was idle for too long",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl AsyncRead for Idle {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        match Pin::new(&mut self.inner).poll_read(cx, buf) {
            Poll::Ready(r) => {
                if buf.filled().len() > before {
                    self.moved();
                }
                Poll::Ready(r)
            }
            Poll::Pending => self.waiting(cx),
        }
    }
}

impl AsyncWrite for Idle {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        match Pin::new(&mut self.inner).poll_write(cx, data) {
            Poll::Ready(r) => {
                if matches!(r, Ok(n) if n > 0) {
                    self.moved();
                }
                Poll::Ready(r)
            }
            Poll::Pending => self.waiting(cx),
        }
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match Pin::new(&mut self.inner).poll_flush(cx) {
            Poll::Pending => self.waiting(cx),
            ready => ready,
        }
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        match Pin::new(&mut self.inner).poll_write_vectored(cx, bufs) {
            Poll::Ready(r) => {
                if matches!(r, Ok(n) if n > 0) {
                    self.moved();
                }
                Poll::Ready(r)
            }
            Poll::Pending => self.waiting(cx),
        }
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}

/// Serves `app` on `listener` until `shutdown` resolves, then gives the requests in
/// flight [`DRAIN`] to finish.
pub async fn serve(
    app: Router,
    listener: TcpListener,
    limits: Limits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    let permits = Arc::new(tokio::sync::Semaphore::new(limits.max_connections));
    // Told to every connection at the stop: each finishes its request and closes.
    let (stopping, stop) = tokio::sync::watch::channel(false);
    let per_address =
        super::guard::InFlight::new(limits.max_connections_per_address, limits.max_connections);
    let mut refused = Refused::default();
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .keep_alive(true);
    tokio::pin!(shutdown);
    loop {
        // Wait for room before taking the next connection off the backlog.
        let permit = tokio::select! {
            p = permits.clone().acquire_owned() => p.map_err(io::Error::other)?,
            () = &mut shutdown => break,
        };
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    // Out of descriptors, say: wait a moment rather than spin.
                    tracing::warn!("accepting a connection failed: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let place = if limits.trusted_proxy == Some(peer.ip()) {
            None
        } else {
            match per_address.take(peer.ip().into()) {
                Ok(place) => Some(place),
                Err(_) => {
                    // Closed at once: this address holds its share already.
                    drop(stream);
                    drop(permit);
                    refused.note(peer.ip(), limits.max_connections_per_address);
                    continue;
                }
            }
        };
        let _ = stream.set_nodelay(true);
        let service = ServiceBuilder::new()
            .layer(Extension(ConnectInfo::<SocketAddr>(peer)))
            .service(app.clone());
        let io = TokioIo::new(Idle::new(stream, limits.idle_timeout));
        // Upgrades (a remote bot's WebSocket, `web/remote.rs`) leave this connection's
        // slot when they take the socket over: their sessions have a cap of their own.
        let connection = builder
            .serve_connection(io, TowerToHyperService::new(service))
            .with_upgrades();
        let mut stop = stop.clone();
        tokio::spawn(async move {
            tokio::pin!(connection);
            let ended = tokio::select! {
                ended = connection.as_mut() => ended,
                () = async { let _ = stop.wait_for(|s| *s).await; } => {
                    connection.as_mut().graceful_shutdown();
                    connection.await
                }
            };
            if let Err(e) = ended {
                tracing::debug!(%peer, "connection ended: {e}");
            }
            drop(place);
            drop(permit);
        });
    }
    drop(listener);
    let _ = stopping.send(true);
    // Every connection gives its slot back once it is done.
    let all = permits.acquire_many(limits.max_connections.min(u32::MAX as usize) as u32);
    if tokio::time::timeout(DRAIN, all).await.is_err() {
        tracing::warn!(
            "requests still in flight after {} s were cut short",
            DRAIN.as_secs()
        );
    }
    Ok(())
}
