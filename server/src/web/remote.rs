//! `GET /api/remote/v1/connect`: a remote bot's session, over a WebSocket
//! (docs/remote.md). The key comes in the `Bottlebats-Key` header; attempts are
//! limited per address (IPv6 by /64) and per key before the key is even looked up; the
//! hub (`crate::remote::hub`) takes the session or says why not (one per bot, its own
//! cap beside the site's connections, the site's `remote` setting, a disabled or paused
//! bot). Once upgraded, the connection no longer holds one of the listener's slots.
//!
//! This is one transport of a remote seat (`crate::remote::seat`): it shows the
//! client each match offered, passes on its answer, carries the seat's bytes in binary
//! frames both ways, and tells the end. It pings every 20 s, and a client silent for
//! three pings is gone.

use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use futures_util::{SinkExt, StreamExt};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use tokio::sync::{mpsc, oneshot};
use uuid::Uuid;

use super::guard::AddressKey;
use super::session::api_refusal;
use super::AppState;
use crate::remote::hub::{Answer, Session, Want};
use crate::remote::seat::{FromBot, SeatLink, ToBot, LOST};
use crate::remote::wire::{
    self, ClientMessage, Ending, ServerMessage, MAX_CHUNK, MAX_TEXT, STDERR, STDIN, STDOUT,
};
use crate::remote::{keys, PING};

pub fn router() -> Router<AppState> {
    Router::new()
        .route(wire::PATH, get(connect))
        .route("/docs/remote.md", get(protocol))
}

/// `GET /docs/remote.md`: how remote bots play, the protocol, the time rule and the
/// limits, as the program was built.
async fn protocol() -> Response {
    (
        [(header::CONTENT_TYPE, "text/markdown; charset=utf-8")],
        include_str!("../../../docs/remote.md"),
    )
        .into_response()
}

/// How much of a client's reason for declining a match its void keeps.
const DECLINE_REASON_CHARS: usize = 200;

/// Connection attempts one key may make at once, then one more every [`KEY_REFILL`]:
/// a client reconnecting with back-off never meets it, a loop without one does.
pub const KEY_BURST: u32 = 10;
const KEY_REFILL: Duration = Duration::from_secs(6);
/// Connection attempts from one address at once (a classroom behind one NAT), then
/// one more every [`ADDRESS_REFILL`].
pub const ADDRESS_BURST: u32 = 60;
const ADDRESS_REFILL: Duration = Duration::from_secs(1);
/// Most keys either table holds.
const MAX_KEYS: usize = 200_000;
/// A client that sends nothing (not even a pong) for this long is gone.
const SILENCE: Duration = Duration::from_secs(3 * PING.as_secs());

/// The limits on connection attempts, per address and per key (by the first 8 bytes
/// of its sha256: a fixed size whatever is sent).
pub struct Attempts {
    by_address: DefaultKeyedRateLimiter<AddressKey>,
    by_key: DefaultKeyedRateLimiter<u64>,
    checks: AtomicU64,
}

impl Default for Attempts {
    fn default() -> Self {
        let quota = |burst: u32, refill: Duration| {
            let burst = NonZeroU32::new(burst).unwrap_or(NonZeroU32::MIN);
            Quota::with_period(refill)
                .unwrap_or_else(|| Quota::per_minute(burst))
                .allow_burst(burst)
        };
        Attempts {
            by_address: RateLimiter::keyed(quota(ADDRESS_BURST, ADDRESS_REFILL)),
            by_key: RateLimiter::keyed(quota(KEY_BURST, KEY_REFILL)),
            checks: AtomicU64::new(0),
        }
    }
}

impl Attempts {
    fn check<K: std::hash::Hash + Eq + Clone>(
        &self,
        limiter: &DefaultKeyedRateLimiter<K>,
        key: K,
    ) -> Result<(), Duration> {
        if self.checks.fetch_add(1, Ordering::Relaxed) % 1024 == 0 {
            self.by_address.retain_recent();
            self.by_key.retain_recent();
        }
        if limiter.len() >= MAX_KEYS {
            limiter.retain_recent();
            if limiter.len() >= MAX_KEYS {
                return Err(Duration::from_secs(60));
            }
        }
        limiter.check_key(&key).map_err(|not_until| {
            not_until.wait_time_from(governor::clock::Clock::now(
                &governor::clock::DefaultClock::default(),
            ))
        })
    }

    /// Counts an attempt from `ip`, or says how long to wait.
    pub fn address(&self, ip: IpAddr) -> Result<(), Duration> {
        self.check(&self.by_address, AddressKey::from(ip))
    }

    /// Counts an attempt with `key`, or says how long to wait.
    pub fn key(&self, key: &str) -> Result<(), Duration> {
        let hash = crate::tokens::token_hash(key);
        let mut first = [0u8; 8];
        first.copy_from_slice(&hash[..8]);
        self.check(&self.by_key, u64::from_be_bytes(first))
    }
}

fn too_many(wait: Duration, what: &str) -> Response {
    let seconds = wait.as_secs().max(1);
    let mut r = api_refusal(
        StatusCode::TOO_MANY_REQUESTS,
        &format!("Too many connection attempts {what}; try again in {seconds} s."),
    );
    if let Ok(v) = HeaderValue::from_str(&seconds.to_string()) {
        r.headers_mut().insert(header::RETRY_AFTER, v);
    }
    r
}

#[derive(serde::Deserialize)]
pub struct Ask {
    mode: Option<String>,
}

async fn connect(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Query(ask): Query<Ask>,
    ws: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Response {
    let ip = state.client_ip(peer.ip(), &headers);
    if let Err(wait) = state.remote_attempts.address(ip) {
        return too_many(wait, "from your address");
    }
    let Some(key) = (headers.get(wire::KEY_HEADER)).and_then(|v| v.to_str().ok()) else {
        return api_refusal(
            StatusCode::UNAUTHORIZED,
            "Send the bot's key: `Bottlebats-Key: KEY` (made on the bot's page).",
        );
    };
    if let Err(wait) = state.remote_attempts.key(key) {
        return too_many(wait, "with this key");
    }
    let want = match ask.mode.as_deref() {
        None | Some("ladder") => Want::Ladder,
        Some("practice") => Want::Practice,
        Some(_) => {
            return api_refusal(
                StatusCode::BAD_REQUEST,
                "`mode` is `ladder` (the default) or `practice`.",
            )
        }
    };
    let bot =
        match keys::bot_of(&state.db, key).await {
            Ok(Some(bot)) => bot,
            Ok(None) => return api_refusal(
                StatusCode::UNAUTHORIZED,
                "No remote bot has this key: it was mistyped, revoked or replaced by a new one.",
            ),
            Err(e) => return super::api::ApiError::from(e).into_response(),
        };
    let Ok(ws) = ws else {
        return api_refusal(
            StatusCode::UPGRADE_REQUIRED,
            "This address takes a WebSocket: connect with `bottlebats connect` (docs/remote.md).",
        );
    };
    let session = match state.remote.open(bot, key, want).await {
        Ok(Ok(session)) => session,
        Ok(Err(refused)) => {
            let status = StatusCode::from_u16(refused.status).unwrap_or(StatusCode::FORBIDDEN);
            return api_refusal(status, &refused.message);
        }
        Err(e) => return super::api::ApiError::from(e).into_response(),
    };
    let site = state.site_address(&headers);
    ws.max_message_size(MAX_CHUNK + 1)
        .max_frame_size(MAX_CHUNK + 1)
        // Idle sessions are most of them: small buffers, grown when a match needs.
        .read_buffer_size(8 * 1024)
        .write_buffer_size(8 * 1024)
        .on_upgrade(move |socket| transport(socket, session, site))
}

/// The match offered to the session, or played by it.
struct Current {
    id: Uuid,
    /// The answer to give, until the client gave it.
    accept: Option<oneshot::Sender<Answer>>,
    /// Accepted: the seat's bytes are carried both ways.
    playing: bool,
    link: SeatLink,
}

fn text(m: &ServerMessage) -> Message {
    Message::Text(serde_json::to_string(m).unwrap_or_default().into())
}

fn binary(stream: u8, bytes: &[u8]) -> Message {
    let mut frame = Vec::with_capacity(bytes.len() + 1);
    frame.push(stream);
    frame.extend_from_slice(bytes);
    Message::Binary(frame.into())
}

/// Plays the session: hello, then matches as the hub assigns them, until the client
/// leaves, the hub ends the session, or the client breaks the protocol.
async fn transport(socket: WebSocket, mut session: Session, site: String) {
    let (mut sink, mut stream) = socket.split();
    let (out, mut out_rx) = mpsc::channel::<Message>(64);
    let writer = tokio::spawn(async move {
        while let Some(m) = out_rx.recv().await {
            let closing = matches!(m, Message::Close(_));
            if sink.send(m).await.is_err() || closing {
                break;
            }
        }
        let _ = sink.close().await;
    });
    let hello = ServerMessage::Hello {
        session: session.id,
        bot: session.bot.name.clone(),
        game: session.bot.game.clone(),
        mode: session.want.as_str().to_string(),
        ping_seconds: PING.as_secs(),
    };
    let _ = out.send(text(&hello)).await;
    session.idle();
    let mut current: Option<Current> = None;
    let mut ending: Option<oneshot::Receiver<Ending>> = None;
    let mut ping = tokio::time::interval(PING);
    ping.tick().await;
    let mut heard = Instant::now();
    let mut ended = session.ended.clone();
    let why: String = loop {
        tokio::select! {
            // A match's end goes out before the session's.
            biased;
            end = end_of(&mut ending) => {
                if let Ok(ending) = end {
                    let url = format!("{site}/matches/{}", ending.match_id);
                    let _ = out.send(text(&ServerMessage::End { ending, url })).await;
                }
                current = None;
                ending = None;
                session.idle();
            }
            changed = ended.changed() => {
                let bye = match changed {
                    Ok(()) => ended.borrow().clone(),
                    Err(_) => None,
                };
                let (reason, reconnect) = bye.map_or_else(
                    || ("the server is stopping".to_string(), true),
                    |b| (b.reason, b.reconnect),
                );
                let bye = ServerMessage::Bye { reason: reason.clone(), reconnect };
                let _ = out.send(text(&bye)).await;
                break reason;
            }
            _ = ping.tick() => {
                if heard.elapsed() > SILENCE {
                    break format!("nothing heard from the client for {} s", SILENCE.as_secs());
                }
                let _ = out.send(Message::Ping(Vec::new().into())).await;
            }
            assignment = session.assignments.recv(), if ending.is_none() => {
                let Some(a) = assignment else { break "the server is stopping".into() };
                let url = format!("{site}/matches/{}", a.offer.match_id);
                current = Some(Current {
                    id: a.offer.id,
                    accept: Some(a.accept),
                    playing: false,
                    link: a.link,
                });
                ending = Some(a.ending);
                let _ = out.send(text(&ServerMessage::Offer { offer: a.offer, url })).await;
            }
            sent = to_bot(&mut current) => {
                let message = match sent {
                    ToBot::Input(bytes) => binary(STDIN, &bytes),
                    ToBot::CloseInput => binary(STDIN, &[]),
                    ToBot::Kill => match &current {
                        Some(c) => text(&ServerMessage::Kill { id: c.id }),
                        None => continue,
                    },
                };
                let _ = out.send(message).await;
            }
            frame = stream.next() => {
                let Some(Ok(frame)) = frame else { break LOST.to_string() };
                heard = Instant::now();
                if let Err(reason) = from_client(frame, &mut current).await {
                    let bye = ServerMessage::Bye { reason: reason.clone(), reconnect: true };
                    let _ = out.send(text(&bye)).await;
                    break reason;
                }
            }
        }
    };
    if let Some(c) = current.as_ref().filter(|c| c.playing) {
        let _ = c.link.from_bot.send(FromBot::Gone(LOST.to_string())).await;
    }
    tracing::debug!(bot = %session.bot.name, "remote session ends: {why}");
    let _ = out.send(Message::Close(None)).await;
    drop(out);
    let _ = tokio::time::timeout(Duration::from_secs(2), writer).await;
}

/// The next thing for the bot, while a match is played (nothing more once the seat
/// is done with: what remains is its end).
async fn to_bot(current: &mut Option<Current>) -> ToBot {
    if let Some(c) = current.as_mut().filter(|c| c.playing) {
        if let Some(next) = c.link.to_bot.recv().await {
            return next;
        }
    }
    std::future::pending().await
}

/// The end of the match offered, once there is one.
async fn end_of(
    ending: &mut Option<oneshot::Receiver<Ending>>,
) -> Result<Ending, oneshot::error::RecvError> {
    match ending {
        Some(e) => e.await,
        None => std::future::pending().await,
    }
}

/// What the client sent; an error (in words) when it broke the protocol or left.
async fn from_client(frame: Message, current: &mut Option<Current>) -> Result<(), String> {
    match frame {
        Message::Binary(bytes) => {
            let Some(c) = current.as_mut().filter(|c| c.playing) else {
                // Bytes of a match over (or not begun): nobody reads them.
                return Ok(());
            };
            let (stream, rest) =
                (bytes.split_first()).ok_or("the client sent an empty binary frame")?;
            let event = match (*stream, rest.is_empty()) {
                (STDOUT, false) => FromBot::Output(rest.to_vec()),
                (STDOUT, true) => FromBot::CloseOutput,
                (STDERR, false) => FromBot::Errors(rest.to_vec()),
                (STDERR, true) => FromBot::CloseErrors,
                (other, _) => {
                    return Err(format!("the client sent a binary frame of stream {other}"))
                }
            };
            let _ = c.link.from_bot.send(event).await;
            Ok(())
        }
        Message::Text(text) => {
            if text.len() > MAX_TEXT {
                return Err(format!(
                    "the client sent a text frame over {MAX_TEXT} bytes"
                ));
            }
            let said: ClientMessage = serde_json::from_str(text.as_str()).map_err(|e| {
                format!("the client sent a message that is not the protocol's: {e}")
            })?;
            if let Some(c) = current.as_mut() {
                client_says(said, c).await;
            }
            Ok(())
        }
        Message::Close(_) => Err("the client closed the session".into()),
        Message::Ping(_) | Message::Pong(_) => Ok(()),
    }
}

/// A client's message about the match it was offered or plays; about another match
/// (one over), nothing.
async fn client_says(said: ClientMessage, c: &mut Current) {
    match said {
        ClientMessage::Accept { id } if id == c.id => {
            if let Some(accept) = c.accept.take() {
                let _ = accept.send(Ok(()));
                c.playing = true;
            }
        }
        // Declined, with the client's reason (one line of it, cut): the end (void) follows.
        ClientMessage::Decline { id, reason } if id == c.id => {
            if let Some(accept) = c.accept.take() {
                let reason: String = (reason.chars())
                    .map(|c| if c.is_control() { ' ' } else { c })
                    .take(DECLINE_REASON_CHARS)
                    .collect();
                let _ = accept.send(Err(reason.trim().to_string()));
            }
        }
        ClientMessage::InputClosed { id } if id == c.id && c.playing => {
            let _ = c.link.from_bot.send(FromBot::InputClosed).await;
        }
        ClientMessage::Exit { id, code, signal } if id == c.id && c.playing => {
            let raw = ClientMessage::wait_status(code, signal);
            let _ = c.link.from_bot.send(FromBot::Exited(raw)).await;
        }
        _ => {}
    }
}
