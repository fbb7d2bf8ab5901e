//! A remote seat read by request (long polling): the transport of a game's own HTTP
//! API (`game_interface::HttpApi`; Vindinium's 2014 API, `web/poll.rs`).
//!
//! A client starts a game with its key: the hub takes a session for its bot as for
//! `bottlebats connect` (one per bot, the site's `remote` setting, its caps), the
//! matchmaker makes it a match (a practice game on the map and turns asked for, or a
//! ladder game), the seat is accepted at once, and the request is answered with the
//! seat's first state. Each move is a request: its reply goes to the runner as a
//! process's line would, and the request is answered with the seat's next state, or
//! the last one once the game is over. The runner times the seat as any other (with no
//! network allowance: the original timed a move on the server), so a client that is
//! late or gone crashes as a process would, and the game goes on without it.
//!
//! A seat's token is its secret; its entry outlives the match by [`KEEP`], so that a
//! late request is told the game is over rather than that it never was.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{oneshot, watch};

use super::hub::{Hub, Refused, Session, Want};
use super::keys::KeyedBot;
use super::play::Prefs;
use super::seat::{FromBot, SeatLink, ToBot};
use super::wire::Ending;
use crate::ids::{BotId, MatchId};

/// How long a finished seat's token still answers (that the game is over).
pub const KEEP: Duration = Duration::from_secs(60);
/// The most bytes of one state (a view) a seat holds before its line ends.
const MAX_STATE: usize = 4 * 1024 * 1024;

/// The seats played by request on this server, by token.
#[derive(Default)]
pub struct Polls {
    seats: Mutex<HashMap<String, Arc<PollSeat>>>,
}

/// One seat played by request.
pub struct PollSeat {
    pub match_id: MatchId,
    /// Its game, by registry name.
    pub game: String,
    pub bot: BotId,
    pub token: String,
    inner: tokio::sync::Mutex<Inner>,
    ended: watch::Receiver<Option<Ending>>,
}

struct Inner {
    link: SeatLink,
    /// What came of the next state so far.
    buf: Vec<u8>,
    phase: Phase,
    /// The runner closed the seat's input or ended it (the game is over for it).
    closed: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Its move was sent; the next state is on its way.
    Waiting,
    /// Its state was answered; its move is awaited.
    Awaiting,
    /// Its move came too late: it crashed.
    TimedOut,
    /// The game is over and its last state was answered.
    Over,
}

/// What a request is answered.
#[derive(Debug)]
pub enum Reply {
    /// The seat's state (a view, its line break cut).
    State(Vec<u8>),
    /// The game is over: its end, with the seat's last view when it was played.
    Ended(Box<Ending>),
    /// The API's refusal (one of `HttpApi::refusals`; a 400, as the original's).
    Refused(Refusal),
    /// No state within the wait: the game goes on (the next request may get it).
    Slow(String),
}

/// Which of the API's refusals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    NotYourTurn,
    TimedOut,
    Finished,
}

impl Polls {
    /// The seat of `token`, if it is one here.
    pub fn seat(&self, token: &str) -> Option<Arc<PollSeat>> {
        self.lock().get(token).cloned()
    }

    /// Whether match `id` has a seat here (to tell a wrong token from a wrong game).
    pub fn has_match(&self, id: MatchId) -> bool {
        self.lock().values().any(|s| s.match_id == id)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<PollSeat>>> {
        self.seats.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Starts a game for `bot` (its session asked `want` and `prefs`) and answers its
    /// first state, within `wait`. Refused as the hub refuses a session; a game that
    /// cannot be made in time is a 503.
    pub async fn start(
        self: &Arc<Self>,
        hub: &Arc<Hub>,
        (bot, key): (KeyedBot, &str),
        want: Want,
        prefs: Prefs,
        wait: Duration,
    ) -> anyhow::Result<Result<(Arc<PollSeat>, Reply), Refused>> {
        let prefs = Prefs {
            polled: true,
            ..prefs
        };
        let mut session = match hub.open_with(bot, key, want, prefs).await? {
            Ok(s) => s,
            Err(refused) => return Ok(Err(refused)),
        };
        session.idle();
        let deadline = tokio::time::Instant::now() + wait;
        let mut ended = session.ended.clone();
        let assignment = tokio::select! {
            a = session.assignments.recv() => a,
            _ = ended.changed() => None,
            _ = tokio::time::sleep_until(deadline) => {
                return Ok(Err(Refused {
                    status: 503,
                    message: format!(
                        "No game could be made for `{}` within {} s (no opponents, or every \
                         match slot of the site is taken); try again in a minute.",
                        session.bot.name,
                        wait.as_secs()
                    ),
                }));
            }
        };
        let Some(a) = assignment else {
            let why = (session.ended.borrow().clone())
                .map_or_else(|| "the server is stopping".into(), |b| b.reason);
            return Ok(Err(Refused {
                status: 503,
                message: format!("The game could not start: {why}."),
            }));
        };
        let _ = a.accept.send(Ok(()));
        let token = crate::tokens::random_token();
        let (ended_tx, ended_rx) = watch::channel(None);
        let seat = Arc::new(PollSeat {
            match_id: a.offer.match_id,
            game: a.offer.game.clone(),
            bot: session.bot.id,
            token: token.clone(),
            inner: tokio::sync::Mutex::new(Inner {
                link: a.link,
                buf: Vec::new(),
                phase: Phase::Waiting,
                closed: false,
            }),
            ended: ended_rx,
        });
        self.lock().insert(token.clone(), seat.clone());
        tokio::spawn(self.clone().reap(token, session, a.ending, ended_tx));
        let first = seat.next_reply(deadline).await;
        Ok(Ok((seat, first)))
    }

    /// Waits for the seat's match to end: its end is kept for requests, the session
    /// let go (the bot may start another game), and the token forgotten [`KEEP`] later.
    async fn reap(
        self: Arc<Self>,
        token: String,
        session: Session,
        ending: oneshot::Receiver<Ending>,
        ended: watch::Sender<Option<Ending>>,
    ) {
        let mut session_ended = session.ended.clone();
        let end = tokio::select! {
            e = ending => e.ok(),
            // The session ended (a revoked key, the server stopping): the match is
            // given up by its play, whose end follows.
            _ = session_ended.changed() => None,
        };
        // The bot may start its next game as soon as it is told this one ended.
        session.close().await;
        let _ = ended.send(end);
        tokio::time::sleep(KEEP).await;
        self.lock().remove(&token);
    }
}

impl PollSeat {
    /// Plays `reply` (the bot's move, a line) and answers the next state, within
    /// `wait`.
    pub async fn play(&self, reply: Vec<u8>, wait: Duration) -> Reply {
        let deadline = tokio::time::Instant::now() + wait;
        // One request at a time: another one in flight is the seat's move already.
        let Ok(mut inner) = self.inner.try_lock() else {
            return Reply::Refused(Refusal::NotYourTurn);
        };
        inner.drain();
        // Ended while its move was awaited: it was late (a training game ends there).
        if inner.phase == Phase::Awaiting && inner.closed {
            inner.phase = Phase::TimedOut;
        }
        if self.ended.borrow().is_some() && inner.phase != Phase::TimedOut {
            inner.phase = Phase::Over;
        }
        match inner.phase {
            Phase::Over => return Reply::Refused(Refusal::Finished),
            Phase::TimedOut => return Reply::Refused(Refusal::TimedOut),
            // Its last request gave up waiting: this one waits on (its move is sent).
            Phase::Waiting => {
                drop(inner);
                return self.next_reply(deadline).await;
            }
            Phase::Awaiting => {}
        }
        if inner
            .link
            .from_bot
            .send(FromBot::Output(reply))
            .await
            .is_err()
        {
            inner.closed = true;
        }
        inner.phase = Phase::Waiting;
        drop(inner);
        self.next_reply(deadline).await
    }

    /// The seat's next state, or its end, by `deadline`.
    async fn next_reply(&self, deadline: tokio::time::Instant) -> Reply {
        let mut inner = self.inner.lock().await;
        let mut ended = self.ended.clone();
        while !inner.closed {
            if let Some(line) = inner.line() {
                inner.phase = Phase::Awaiting;
                return Reply::State(line);
            }
            tokio::select! {
                got = inner.link.to_bot.recv() => inner.take(got),
                _ = ended.wait_for(Option::is_some) => break,
                _ = tokio::time::sleep_until(deadline) => {
                    return Reply::Slow("the game's next state took too long".into());
                }
            }
        }
        // The game is over for the seat: its end follows at once, unless it crashed
        // (late or gone) while the others play on.
        let end = tokio::select! {
            e = ended.wait_for(Option::is_some) => e.ok().and_then(|e| e.clone()),
            _ = tokio::time::sleep_until(deadline) => None,
        };
        match end {
            Some(e) if e.status == "finished" && e.last_view.is_some() => {
                inner.phase = Phase::Over;
                Reply::Ended(Box::new(e))
            }
            Some(e) => {
                inner.phase = Phase::Over;
                Reply::Slow(format!(
                    "the game was void: {}",
                    e.reason.unwrap_or_else(|| "it was not played".into())
                ))
            }
            None => {
                inner.phase = Phase::TimedOut;
                Reply::Refused(Refusal::TimedOut)
            }
        }
    }
}

impl Inner {
    /// What the runner sent meanwhile, without waiting.
    fn drain(&mut self) {
        while !self.closed {
            match self.link.to_bot.try_recv() {
                Ok(got) => self.take(Some(got)),
                Err(tokio::sync::mpsc::error::TryRecvError::Empty) => return,
                Err(_) => self.take(None),
            }
        }
    }

    fn take(&mut self, got: Option<ToBot>) {
        match got {
            Some(ToBot::Input(bytes)) if self.buf.len() + bytes.len() <= MAX_STATE => {
                self.buf.extend_from_slice(&bytes)
            }
            // A state past any game's size: the seat cannot be answered.
            Some(ToBot::Input(_)) => self.closed = true,
            Some(ToBot::CloseInput) | Some(ToBot::Kill) | None => self.closed = true,
        }
    }

    /// The next whole state, its line break cut.
    fn line(&mut self) -> Option<Vec<u8>> {
        let end = self.buf.iter().position(|&b| b == b'\n')?;
        let mut line: Vec<u8> = self.buf.drain(..=end).collect();
        line.pop();
        Some(line)
    }
}
