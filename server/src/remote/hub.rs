//! The remote sessions this server holds, and the matchmaker that offers them matches.
//!
//! A session belongs to a transport (the WebSocket of `web/remote.rs`): the hub gives
//! it [`Assignment`]s, one at a time, while it is idle, and the transport plays each
//! (offer, accept, carry the seat's bytes, tell the end). One session per bot, here and
//! across servers (`remote_sessions`, renewed every [`RENEW`]); at most
//! `remote_sessions` at once, beside the site's HTTP connections. A session ends when
//! its transport lets go, when its key is revoked or replaced (at once: this process
//! is told directly, the others through `keys::CHANNEL`), when its bot is disabled or
//! paused, and when the server stops.
//!
//! The matchmaker wakes when a session becomes idle (and every [`TICK`]) and, while
//! fewer than `remote_matches` matches run, plans one for the session idle longest
//! (`play::plan`): its own waiting matches first (a challenge's, a tournament's), then
//! the ladder's (or a practice game), never against its owner's other bots.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use engine::MatchConfig;
use sqlx::PgPool;
use tokio::sync::{mpsc, oneshot, watch, Notify, Semaphore};
use uuid::Uuid;

use super::keys::{self, KeyedBot};
use super::play::Prefs;
use super::seat::SeatLink;
use super::wire::{Ending, Offer};
use super::{Mode, Settings};
use crate::builds::Builder;
use crate::ids::{BotId, UserId};

/// How often the matchmaker looks again with nothing new.
pub const TICK: Duration = Duration::from_secs(2);
/// How often this server renews its sessions' rows and checks their bots.
pub const RENEW: Duration = Duration::from_secs(10);

/// What a session asked for when it connected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Want {
    /// Rated games on the ladder (and its own waiting matches).
    Ladder,
    /// Unrated games against house bots only, one after another.
    Practice,
}

impl Want {
    pub fn as_str(self) -> &'static str {
        match self {
            Want::Ladder => "ladder",
            Want::Practice => "practice",
        }
    }
}

/// A client's answer to an offer: accepted, or declined with its reason.
pub type Answer = Result<(), String>;

/// A match offered to a session: what its transport shows the client, the answer it
/// gives, the seat's bytes, and the end.
#[derive(Debug)]
pub struct Assignment {
    pub offer: Offer,
    /// The client's answer, within [`super::ACCEPT`]; dropping it declines.
    pub accept: oneshot::Sender<Answer>,
    /// The seat's transport end, live once accepted.
    pub link: SeatLink,
    /// The match's end: its result, or why it was voided.
    pub ending: oneshot::Receiver<Ending>,
}

/// Why a session is not taken, with the HTTP status that says so.
#[derive(Debug, PartialEq, Eq)]
pub struct Refused {
    pub status: u16,
    pub message: String,
}

impl Refused {
    fn new(status: u16, message: impl Into<String>) -> Refused {
        Refused {
            status,
            message: message.into(),
        }
    }
}

/// What plays the matches on this server: its builder (hosted seats' builds and the
/// sandbox) and the ladder's match policy. Set when the server's bot work starts.
#[derive(Clone)]
pub struct Player {
    pub builder: Builder,
    pub match_config: MatchConfig,
    /// The ladder's matchmaking, as the scheduler has it.
    pub settings: crate::ranker::matchmaking::Settings,
}

struct Entry {
    session: Uuid,
    key_hash: Vec<u8>,
    owner: UserId,
    game: String,
    want: Want,
    prefs: Prefs,
    /// Since when it waits for a match; `None` while it plays one (or before it said
    /// it is ready).
    idle_since: Option<Instant>,
    connected: time::OffsetDateTime,
    assign: mpsc::Sender<Assignment>,
    end: watch::Sender<Option<Goodbye>>,
}

/// Why a session ends, and whether a new one may follow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Goodbye {
    pub reason: String,
    /// A new session would be taken (the server stopping), as opposed to refused
    /// the same way (a revoked key, a paused or disabled bot).
    pub reconnect: bool,
}

/// The remote sessions of this server.
pub struct Hub {
    pub db: PgPool,
    pub settings: Settings,
    /// The site's address, for the matches' addresses sent to clients.
    pub base_url: Option<String>,
    /// This process among the servers: the lease owner of its remote matches.
    pub holder: String,
    player: OnceLock<Player>,
    sessions: Mutex<HashMap<BotId, Entry>>,
    wake: Notify,
    running: Arc<Semaphore>,
    /// Set when the server stops: matches under way are given up (void).
    pub stop: Arc<AtomicBool>,
}

impl std::fmt::Debug for Hub {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hub")
            .field("holder", &self.holder)
            .finish_non_exhaustive()
    }
}

/// A session as its transport holds it. Dropping it ends the session.
pub struct Session {
    pub id: Uuid,
    pub bot: KeyedBot,
    pub want: Want,
    /// The matches offered, one at a time.
    pub assignments: mpsc::Receiver<Assignment>,
    /// Set (with the reason) when the session must end.
    pub ended: watch::Receiver<Option<Goodbye>>,
    hub: Arc<Hub>,
}

impl Session {
    /// Ends the session now, its row gone before this returns: a new session of the
    /// bot is taken at once (dropping it lets the row go a moment later).
    pub async fn close(self) {
        let (hub, bot, id) = (self.hub.clone(), self.bot.id, self.id);
        if hub.forget(bot, id) {
            let _ = sqlx::query!(
                "delete from remote_sessions where bot_id = $1 and session = $2",
                bot as BotId,
                id
            )
            .execute(&hub.db)
            .await;
        }
    }

    /// The transport is ready for a match.
    pub fn idle(&self) {
        self.hub.set_idle(self.bot.id, self.id, true);
    }

    /// The hub of this session.
    pub fn hub(&self) -> &Arc<Hub> {
        &self.hub
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.hub.close(self.bot.id, self.id);
    }
}

/// A connected bot, as pages show it.
#[derive(Clone, Debug)]
pub struct Connected {
    pub since: time::OffsetDateTime,
    pub want: Want,
    pub playing: bool,
}

impl Hub {
    pub fn new(db: PgPool, settings: Settings, base_url: Option<String>) -> Hub {
        let holder = format!(
            "{}-{}-remote",
            crate::worker::hostname(),
            std::process::id()
        );
        Hub {
            db,
            running: Arc::new(Semaphore::new(settings.matches.max(1))),
            settings,
            base_url,
            holder,
            player: OnceLock::new(),
            sessions: Mutex::new(HashMap::new()),
            wake: Notify::new(),
            stop: Arc::new(AtomicBool::new(false)),
        }
    }

    fn sessions(&self) -> std::sync::MutexGuard<'_, HashMap<BotId, Entry>> {
        self.sessions.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// What plays matches here, once the server's bot work started.
    pub fn player(&self) -> Option<&Player> {
        self.player.get()
    }

    /// Starts playing: the matchmaker, the renewal of sessions and the listener for
    /// keys revoked elsewhere. Without it (a server whose sandbox cannot run bots) every
    /// session is refused.
    pub fn start(self: &Arc<Self>, player: Player) {
        if self.player.set(player).is_err() {
            return;
        }
        tokio::spawn(self.clone().forget_the_dead());
        tokio::spawn(self.clone().matchmaker());
        tokio::spawn(self.clone().renewer());
        tokio::spawn(self.clone().listen());
    }

    /// Ends every session (the server is stopping): matches under way are void.
    pub fn shut_down(&self) {
        self.stop.store(true, Ordering::Relaxed);
        for e in self.sessions().values() {
            let _ = e.end.send(Some(Goodbye {
                reason: "the server is stopping".into(),
                reconnect: true,
            }));
        }
        self.wake.notify_one();
    }

    /// Sessions held now.
    pub fn count(&self) -> usize {
        self.sessions().len()
    }

    /// Whether `bot` has a session here, and what it does.
    pub fn connected(&self, bot: BotId) -> Option<Connected> {
        self.sessions().get(&bot).map(|e| Connected {
            since: e.connected,
            want: e.want,
            playing: e.idle_since.is_none(),
        })
    }

    /// Takes a session for the bot of `key` (already checked: `bot`), asking for
    /// `want`. The refusal says why, for the client to show.
    pub async fn open(
        self: &Arc<Self>,
        bot: KeyedBot,
        key: &str,
        want: Want,
    ) -> anyhow::Result<Result<Session, Refused>> {
        self.open_with(bot, key, want, Prefs::default()).await
    }

    /// [`Hub::open`] with what the session asks of its games ([`Prefs`]).
    pub async fn open_with(
        self: &Arc<Self>,
        bot: KeyedBot,
        key: &str,
        want: Want,
        prefs: Prefs,
    ) -> anyhow::Result<Result<Session, Refused>> {
        let mode = super::site_mode(&self.db).await?;
        match (mode, want) {
            (Mode::Off, _) => {
                return Ok(Err(Refused::new(
                    403,
                    "This site takes no remote bots now.",
                )))
            }
            (Mode::Practice, Want::Ladder) => {
                return Ok(Err(Refused::new(
                    403,
                    "This site lets remote bots play practice games only: connect with --practice.",
                )))
            }
            _ => {}
        }
        if let Some(why) = &bot.disabled {
            return Ok(Err(Refused::new(
                403,
                format!("`{}` was taken out of the ladder: {why}.", bot.name),
            )));
        }
        if let Some(why) = &bot.paused {
            return Ok(Err(Refused::new(403, format!("`{}` is {why}.", bot.name))));
        }
        if self.player().is_none() || self.stop.load(Ordering::Relaxed) {
            return Ok(Err(Refused::new(
                503,
                "This server cannot play matches now; try again later.",
            )));
        }
        let session = Uuid::new_v4();
        let (assign, assignments) = mpsc::channel(1);
        let (end, ended) = watch::channel(None);
        {
            let mut sessions = self.sessions();
            if let Some(e) = sessions.get(&bot.id) {
                return Ok(Err(already(&bot.name, e.connected, Some(e.prefs.polled))));
            }
            if sessions.len() >= self.settings.sessions {
                return Ok(Err(Refused::new(
                    503,
                    format!(
                        "This server holds {} remote sessions, the most it takes; try again in a minute.",
                        sessions.len()
                    ),
                )));
            }
            sessions.insert(
                bot.id,
                Entry {
                    session,
                    key_hash: crate::tokens::token_hash(key),
                    owner: bot.owner,
                    game: bot.game.clone(),
                    want,
                    prefs,
                    idle_since: None,
                    connected: time::OffsetDateTime::now_utc(),
                    assign,
                    end,
                },
            );
        }
        // One per bot across servers too: a live row of another session refuses this.
        let taken = sqlx::query_scalar!(
            r#"insert into remote_sessions (bot_id, session, holder, mode) values ($1, $2, $3, $4)
               on conflict (bot_id) do update set session = $2, holder = $3, mode = $4,
                   connected_at = now(), seen_at = now()
               where remote_sessions.seen_at < now() - interval '1 minute'
               returning connected_at"#,
            bot.id as BotId,
            session,
            self.holder,
            want.as_str()
        )
        .fetch_optional(&self.db)
        .await;
        let taken = match taken {
            Ok(t) => t,
            Err(e) => {
                self.forget(bot.id, session);
                return Err(e.into());
            }
        };
        if taken.is_none() {
            self.forget(bot.id, session);
            let since = sqlx::query_scalar!(
                "select connected_at from remote_sessions where bot_id = $1",
                bot.id as BotId
            )
            .fetch_optional(&self.db)
            .await?
            .unwrap_or_else(time::OffsetDateTime::now_utc);
            return Ok(Err(already(&bot.name, since, None)));
        }
        tracing::info!(bot = %bot.name, %session, want = want.as_str(), "remote session opened");
        Ok(Ok(Session {
            id: session,
            bot,
            want,
            assignments,
            ended,
            hub: self.clone(),
        }))
    }

    /// Removes a session from the table (not its row).
    fn forget(&self, bot: BotId, session: Uuid) -> bool {
        let mut sessions = self.sessions();
        if sessions.get(&bot).is_some_and(|e| e.session == session) {
            sessions.remove(&bot);
            return true;
        }
        false
    }

    fn close(self: &Arc<Self>, bot: BotId, session: Uuid) {
        if !self.forget(bot, session) {
            return;
        }
        tracing::info!(bot = %bot, %session, "remote session closed");
        let db = self.db.clone();
        // Dropped outside a runtime (a test's end): the row expires by itself.
        if let Ok(rt) = tokio::runtime::Handle::try_current() {
            rt.spawn(async move {
                let _ = sqlx::query!(
                    "delete from remote_sessions where bot_id = $1 and session = $2",
                    bot as BotId,
                    session
                )
                .execute(&db)
                .await;
            });
        }
    }

    fn set_idle(&self, bot: BotId, session: Uuid, idle: bool) {
        if let Some(e) = self.sessions().get_mut(&bot) {
            if e.session == session {
                e.idle_since = idle.then(Instant::now);
            }
        }
        if idle {
            self.wake.notify_one();
        }
    }

    /// Ends `bot`'s session, if it has one here, saying why (for good: a new session
    /// would be refused the same way).
    pub fn end(&self, bot: BotId, why: &str) {
        if let Some(e) = self.sessions().get(&bot) {
            let _ = e.end.send(Some(Goodbye {
                reason: why.to_string(),
                reconnect: false,
            }));
        }
    }

    /// Checks `bot`'s session against the database at once (its key was revoked or
    /// replaced, or it was disabled or paused): ends it when it may not go on.
    pub async fn check(&self, bot: BotId) {
        self.check_all(&[bot]).await;
    }

    /// [`Hub::check`] for `bots`, in one query.
    async fn check_all(&self, bots: &[BotId]) {
        if bots.is_empty() {
            return;
        }
        let ids: Vec<i64> = bots.iter().map(|b| b.0).collect();
        let rows = match sqlx::query!(
            r#"select b.id as "id: BotId", b.disabled, b.remote_paused,
                   (select k.key_hash from remote_keys k
                    where k.bot_id = b.id and k.revoked_at is null) as key_hash
               from bots b where b.id = any($1)"#,
            &ids
        )
        .fetch_all(&self.db)
        .await
        {
            Ok(rows) => rows,
            Err(e) => {
                tracing::debug!("remote sessions not checked: {e}");
                return;
            }
        };
        let sessions = self.sessions();
        for bot in bots {
            let Some(e) = sessions.get(bot) else {
                continue;
            };
            let row = rows.iter().find(|r| r.id == *bot);
            let why = match row {
                None => Some("the bot was deleted".to_string()),
                Some(r) if r.disabled => {
                    Some("the bot was taken out of the ladder by an organizer".into())
                }
                Some(r) if r.remote_paused.is_some() => Some(format!(
                    "the bot is {}",
                    r.remote_paused.clone().unwrap_or_default()
                )),
                Some(r) if r.key_hash.as_deref() != Some(&e.key_hash[..]) => {
                    Some("its key was revoked (a new key, or none, was made on its page)".into())
                }
                Some(_) => None,
            };
            if let Some(reason) = why {
                let _ = e.end.send(Some(Goodbye {
                    reason,
                    reconnect: false,
                }));
            }
        }
    }

    /// Forgets the sessions of this machine's servers that are gone (this one, started
    /// again, say): their bots may connect at once rather than in a minute.
    async fn forget_the_dead(self: Arc<Self>) {
        let host = crate::worker::hostname();
        let rows = sqlx::query_scalar!(
            "select distinct holder from remote_sessions where holder <> $1",
            self.holder
        )
        .fetch_all(&self.db)
        .await
        .unwrap_or_default();
        for holder in rows {
            let pid = (holder.strip_prefix(&format!("{host}-")))
                .and_then(|rest| rest.strip_suffix("-remote"))
                .and_then(|pid| pid.parse::<i32>().ok());
            // SAFETY: signal 0 only asks whether the process exists.
            if pid.is_some_and(|pid| unsafe { libc::kill(pid, 0) } != 0) {
                let _ = sqlx::query!("delete from remote_sessions where holder = $1", holder)
                    .execute(&self.db)
                    .await;
            }
        }
    }

    /// Renews this server's sessions' rows, checks their bots, and cleans what dead
    /// servers left, every [`RENEW`].
    async fn renewer(self: Arc<Self>) {
        let mut tick = tokio::time::interval(RENEW);
        loop {
            tick.tick().await;
            if self.stop.load(Ordering::Relaxed) {
                return;
            }
            let bots: Vec<BotId> = self.sessions().keys().copied().collect();
            let ids: Vec<i64> = bots.iter().map(|b| b.0).collect();
            let renewed = sqlx::query!(
                "update remote_sessions set seen_at = now() where holder = $1 and bot_id = any($2)",
                self.holder,
                &ids
            )
            .execute(&self.db)
            .await;
            if let Err(e) = renewed {
                tracing::debug!("remote sessions not renewed: {e}");
            }
            self.check_all(&bots).await;
            if let Err(e) = super::sweep(&self.db).await {
                tracing::debug!("remote matches not swept: {e}");
            }
        }
    }

    /// Listens for keys changed by other processes (the organizer's command, another
    /// server's page) and checks those bots' sessions.
    async fn listen(self: Arc<Self>) {
        loop {
            let listener = async {
                let mut l = sqlx::postgres::PgListener::connect_with(&self.db).await?;
                l.listen(keys::CHANNEL).await?;
                loop {
                    let n = l.recv().await?;
                    if let Ok(id) = n.payload().parse::<i64>() {
                        self.check(BotId(id)).await;
                    }
                }
                #[allow(unreachable_code)]
                Ok::<(), sqlx::Error>(())
            };
            if let Err(e) = listener.await {
                tracing::debug!("listening for remote keys: {e}; again in 5 s");
            }
            if self.stop.load(Ordering::Relaxed) {
                return;
            }
            tokio::time::sleep(Duration::from_secs(5)).await;
        }
    }

    /// Hands `bot`'s session a match, marking it busy; false when it has no session
    /// waiting (it left meanwhile).
    pub fn assign(&self, bot: BotId, assignment: Assignment) -> bool {
        let mut sessions = self.sessions();
        let Some(e) = sessions.get_mut(&bot) else {
            return false;
        };
        e.idle_since = None;
        e.assign.try_send(assignment).is_ok()
    }

    /// Whether `bot`'s session reads states by request ([`Prefs::polled`]).
    pub fn polled(&self, bot: BotId) -> bool {
        self.sessions().get(&bot).is_some_and(|e| e.prefs.polled)
    }

    /// The idle sessions, longest waiting first: (bot, owner, game, want, prefs).
    fn idle(&self) -> Vec<(BotId, UserId, String, Want, Prefs)> {
        let sessions = self.sessions();
        let mut idle: Vec<(&BotId, &Entry)> = (sessions.iter())
            .filter(|(_, e)| e.idle_since.is_some())
            .collect();
        idle.sort_by_key(|(_, e)| e.idle_since);
        (idle.into_iter())
            .map(|(b, e)| (*b, e.owner, e.game.clone(), e.want, e.prefs))
            .collect()
    }

    /// Whether `bot` has a session here that waits for a match.
    pub fn is_idle(&self, bot: BotId) -> bool {
        self.sessions()
            .get(&bot)
            .is_some_and(|e| e.idle_since.is_some())
    }

    /// Marks `bot`'s session busy (a match is being planned for it); false when it is
    /// not idle.
    pub fn reserve(&self, bot: BotId) -> bool {
        match self.sessions().get_mut(&bot) {
            Some(e) if e.idle_since.is_some() => {
                e.idle_since = None;
                true
            }
            _ => false,
        }
    }

    /// Gives back a session reserved for a match that was not made.
    pub fn unreserve(&self, bot: BotId) {
        if let Some(e) = self.sessions().get_mut(&bot) {
            if e.idle_since.is_none() {
                e.idle_since = Some(Instant::now());
            }
        }
    }

    /// Offers matches to idle sessions while there is room, on each wake and tick.
    async fn matchmaker(self: Arc<Self>) {
        loop {
            tokio::select! {
                _ = self.wake.notified() => {}
                _ = tokio::time::sleep(TICK) => {}
            }
            if self.stop.load(Ordering::Relaxed) {
                return;
            }
            if let Err(e) = self.offer_round().await {
                tracing::warn!("remote matchmaking failed: {e:#}");
            }
        }
    }

    /// One round: each idle session, longest waiting first, gets a match if one can be
    /// made and a match's room is free.
    async fn offer_round(self: &Arc<Self>) -> anyhow::Result<()> {
        let mut round = super::play::Round::default();
        for (bot, owner, game, want, prefs) in self.idle() {
            let Ok(permit) = self.running.clone().try_acquire_owned() else {
                return Ok(());
            };
            if !self.reserve(bot) {
                continue;
            }
            let planned =
                super::play::plan(self, &mut round, (bot, owner, &game, want, prefs)).await;
            match planned {
                Ok(Some(plan)) => {
                    let hub = self.clone();
                    tokio::spawn(async move {
                        super::play::run(hub, plan).await;
                        drop(permit);
                    });
                }
                Ok(None) => self.unreserve(bot),
                Err(e) => {
                    self.unreserve(bot);
                    return Err(e);
                }
            }
        }
        Ok(())
    }
}

/// The refusal of a second session of `name`, whose session started at `since`:
/// playing over a game's HTTP API (`polled`), through `bottlebats connect`, or either
/// (another server holds it).
fn already(name: &str, since: time::OffsetDateTime, polled: Option<bool>) -> Refused {
    let f = time::macros::format_description!("[year]-[month]-[day] [hour]:[minute] UTC");
    let since = (since.to_offset(time::UtcOffset::UTC))
        .format(&f)
        .unwrap_or_default();
    let (what, stop) = match polled {
        Some(true) => (
            "plays a game over the HTTP API already",
            "Let it end (a move that does not come in time ends it) and ask again",
        ),
        Some(false) => (
            "is connected already through `bottlebats connect`",
            "Stop the other `bottlebats connect` first",
        ),
        None => (
            "is connected already",
            "Stop the other `bottlebats connect` (or let its HTTP API game end) first",
        ),
    };
    Refused::new(
        409,
        format!(
            "`{name}` {what} (since {since}): one session or game at a time per bot. {stop}, \
             or make a new key on the bot's page to end it."
        ),
    )
}
