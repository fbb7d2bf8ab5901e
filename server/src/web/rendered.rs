//! Bodies written as they are made: a game's log, printed a state at a time from its
//! replay on a thread of its own ([`crate::dedicated`]) and sent to the client through
//! a bounded channel, gzipped for clients that take gzip. Memory is the channel's few
//! chunks and what the writer holds (one state), however long the game.
//!
//! The writer waits while its client does not read, so a slow reader would hold its
//! thread: renders under way are few ([`RENDERS_AT_ONCE`] on the site, a place taken
//! before the thread starts), a reader that takes nothing for [`STALL`] is let go, and
//! no render lasts longer than [`WHOLE`]. The thread then ends and its place is free
//! again; the body, cut short, ends with its connection. Bodies being sent hold a place
//! of their own ([`BODIES_AT_ONCE`], [`BODIES_PER_ADDRESS`]) until their connection
//! ends, which bounds the chunks written ahead of their readers.

use std::io::{self, Write};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use tokio::sync::mpsc;

use super::byte_cache::ByteCache;
use super::guard::Held;

/// Renders under way on the whole site (threads writing).
pub const RENDERS_AT_ONCE: usize = 4;
/// Bodies being sent, from one address and on the whole site.
pub const BODIES_PER_ADDRESS: usize = 2;
pub const BODIES_AT_ONCE: usize = 32;
/// A reader that takes nothing for this long is let go.
pub const STALL: Duration = Duration::from_secs(10);
/// The longest a render may take, its reader's time included.
pub const WHOLE: Duration = Duration::from_secs(120);
/// Bytes sent at once, and chunks written ahead of the reader at most.
const CHUNK: usize = 64 * 1024;
const AHEAD: usize = 8;
/// A gzipped body up to this size is kept in the cache once whole.
const KEEP_UP_TO: usize = 2 * 1024 * 1024;

/// Where a finished gzipped body is kept, by key.
pub struct Keep {
    pub cache: Arc<ByteCache>,
    pub key: i64,
}

/// The channel's end, as what the writer writes to: full chunks are sent, waiting at
/// most [`STALL`] for the reader each time and never past the render's deadline.
struct ToClient {
    tx: mpsc::Sender<Bytes>,
    buf: Vec<u8>,
    runtime: tokio::runtime::Handle,
    deadline: Instant,
    /// The bytes sent so far, while they are few enough to keep.
    kept: Option<Vec<u8>>,
}

impl ToClient {
    fn send(&mut self) -> io::Result<()> {
        if self.buf.is_empty() {
            return Ok(());
        }
        let chunk = Bytes::from(std::mem::replace(&mut self.buf, Vec::with_capacity(CHUNK)));
        if let Some(kept) = &mut self.kept {
            if kept.len() + chunk.len() <= KEEP_UP_TO {
                kept.extend_from_slice(&chunk);
            } else {
                self.kept = None;
            }
        }
        let left = self.deadline.saturating_duration_since(Instant::now());
        let wait = STALL.min(left);
        let sent = self
            .runtime
            .block_on(async { tokio::time::timeout(wait, self.tx.send(chunk)).await });
        match sent {
            Ok(Ok(())) => Ok(()),
            Ok(Err(_)) => Err(io::Error::new(
                io::ErrorKind::BrokenPipe,
                "the client went away",
            )),
            Err(_) if wait < STALL => Err(io::Error::new(
                io::ErrorKind::TimedOut,
                format!("not sent within {} s", WHOLE.as_secs()),
            )),
            Err(_) => Err(io::Error::new(
                io::ErrorKind::TimedOut,
                format!("the client read nothing for {} s", STALL.as_secs()),
            )),
        }
    }
}

impl Write for ToClient {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        self.buf.extend_from_slice(data);
        if self.buf.len() >= CHUNK {
            self.send()?;
        }
        Ok(data.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.send()
    }
}

/// Plain text to the client, and a gzipped copy of it for the cache while the copy is
/// small enough to keep.
struct Tee {
    to: ToClient,
    copy: Option<flate2::write::GzEncoder<Vec<u8>>>,
}

impl Write for Tee {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        self.to.write_all(data)?;
        if let Some(copy) = &mut self.copy {
            if copy.write_all(data).is_err() || copy.get_ref().len() > KEEP_UP_TO {
                self.copy = None;
            }
        }
        Ok(data.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.to.flush()
    }
}

/// The chunks as a body's stream; holds the render's place until the body is done.
/// A body whose writer did not finish ends in an error, never as if it were whole.
struct Chunks {
    rx: mpsc::Receiver<Bytes>,
    whole: Arc<AtomicBool>,
    ended: bool,
    _place: Held,
}

impl futures_core::Stream for Chunks {
    type Item = io::Result<Bytes>;
    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if self.ended {
            return Poll::Ready(None);
        }
        match self.rx.poll_recv(cx) {
            Poll::Ready(Some(chunk)) => Poll::Ready(Some(Ok(chunk))),
            Poll::Ready(None) => {
                self.ended = true;
                if self.whole.load(Ordering::Acquire) {
                    Poll::Ready(None)
                } else {
                    Poll::Ready(Some(Err(io::Error::other("cut short"))))
                }
            }
            Poll::Pending => Poll::Pending,
        }
    }
}

/// A body written by `write` on a thread of its own called `name`, gzipped when
/// `gzip`; the whole written, gzipped, is put in `keep` once done when it is small
/// enough (for a plain body, from a gzipped copy made as it goes). `render` is held
/// until the writing ends, `body` until the body is sent or dropped. An error of
/// `write` (other than its client going away or stalling) is logged and cuts the body
/// short.
pub fn stream(
    name: &str,
    (body, render): (Held, tokio::sync::OwnedSemaphorePermit),
    gzip: bool,
    keep: Option<Keep>,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()> + Send + 'static,
) -> io::Result<Body> {
    let (tx, rx) = mpsc::channel(AHEAD);
    let whole = Arc::new(AtomicBool::new(false));
    let finished = whole.clone();
    let to = ToClient {
        tx,
        buf: Vec::with_capacity(CHUNK),
        runtime: tokio::runtime::Handle::current(),
        deadline: Instant::now() + WHOLE,
        kept: (gzip && keep.is_some()).then(Vec::new),
    };
    let what = name.to_string();
    crate::dedicated::spawn(name, move || {
        let _render = render;
        let written = if gzip {
            let mut gz = flate2::write::GzEncoder::new(to, flate2::Compression::default());
            write(&mut gz)
                .and_then(|()| gz.finish())
                .map(|mut to| (to.kept.take(), to))
        } else {
            let copy = keep
                .is_some()
                .then(|| flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default()));
            let mut tee = Tee { to, copy };
            write(&mut tee).map(|()| {
                let kept = (tee.copy.take())
                    .and_then(|gz| gz.finish().ok())
                    .filter(|gz| gz.len() <= KEEP_UP_TO);
                (kept, tee.to)
            })
        };
        // Whole before the channel closes (as `to` is dropped), so the reader that
        // sees it closed sees the body whole.
        let done = written.and_then(|(kept, mut to)| {
            to.flush()?;
            finished.store(true, Ordering::Release);
            Ok(kept)
        });
        match done {
            Ok(kept) => {
                if let (Some(bytes), Some(keep)) = (kept, keep) {
                    keep.cache.put(keep.key, Arc::new(bytes));
                }
            }
            Err(e) => {
                if matches!(
                    e.kind(),
                    io::ErrorKind::BrokenPipe | io::ErrorKind::TimedOut
                ) {
                    tracing::debug!("{what} cut short: {e}");
                } else {
                    tracing::warn!("{what} could not be written: {e}");
                }
            }
        }
    })?;
    Ok(Body::from_stream(Chunks {
        rx,
        whole,
        ended: false,
        _place: body,
    }))
}
