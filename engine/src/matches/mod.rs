//! One match with real bot processes (games/bottlebats/rules.md §7): states out, replies in, timing,
//! protocol errors, stderr, and making sure nothing outlives the game.
//!
//! Architecture invariant: the runner decides nothing about the game. It plays any
//! game through the game interface ([`run_game`]: a `game_interface::Match`): it sends
//! each awaited seat its view, cuts its reply as the game frames it, and hands the
//! game its answers with the runner's own notes of the turn (timeouts, limits, times).
//!
//! Each bot gets three threads: a writer (so a bot that never reads cannot block the
//! runner), a stdout reader that cuts the output into replies (so the k-th reply
//! always answers the k-th state, and a late reply is read and dropped), and a stderr
//! reader that drains continuously within caps. The match loop only waits on one
//! channel with a deadline.
//!
//! This file holds the match's policy and results and the match loop, a step at a
//! time; `bot.rs` a bot as the loop sees it, `pipes.rs` its three threads, `replies.rs`
//! one turn's gathering of replies.

mod bot;
mod pipes;
mod replies;

use std::process::ExitStatus;
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread;
use std::time::{Duration, Instant};

use crate::process::{BotSpec, Launcher};
use bot::{start_bot, Bot};
use game_interface::{Answer, Framing, Match, Numbers, SetupError};
use pipes::BotEvent;
use replies::collect_replies;

/// What happens to a bot that does not reply in time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OnTimeout {
    /// The turn's commands are empty; the late reply is read and thrown away.
    Skip,
    /// The bot is removed, as in 2016.
    Eliminate,
}

/// The runner's policy for one match (games/bottlebats/rules.md §7 table).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchConfig {
    /// Turns a match lasts at most.
    pub max_turns: u32,
    /// Time allowed per reply.
    pub turn_timeout: Duration,
    /// Time allowed for the first reply (interpreter or JVM start included).
    pub startup_timeout: Duration,
    pub on_timeout: OnTimeout,
    /// With `skip`, a bot that misses this many turns in a row is removed as
    /// unresponsive, so a hung bot cannot stretch a game for hours.
    pub max_consecutive_timeouts: u32,
    /// With CPU accounting, the wall clock still stops a reply at this multiple.
    pub wall_factor: u32,
    /// Most time on the wall clock the replies of a whole game may take; a bot past its
    /// share is removed (games/bottlebats/rules.md §7). Seats that answer together wait
    /// at the same time and each has it all; seats that answer in turn (Vindinium) wait
    /// one after the other and share it ([`wall_share`]). Replies limited in CPU time
    /// can still sleep: this bounds how long a game holds its worker. `None`: no
    /// budget, as in 2016.
    pub game_wall_budget: Option<Duration>,
    /// With CPU accounting, a bot that uses no CPU at all for this long while its
    /// reply is awaited is blocked (most often on its own unflushed output) and times
    /// out then. `None` in ladder games, whose rules have no such clause; the smoke
    /// test uses it so that a silent bot fails in seconds.
    pub idle_cap: Option<Duration>,
    pub max_line_bytes: usize,
    pub max_reply_lines: usize,
    pub stderr_turn_bytes: usize,
    pub stderr_game_bytes: usize,
    /// Between closing a bot's stdin and killing its process tree.
    pub kill_grace: Duration,
}

impl Default for MatchConfig {
    fn default() -> Self {
        MatchConfig {
            max_turns: 500,
            turn_timeout: Duration::from_millis(2000),
            startup_timeout: Duration::from_millis(10_000),
            on_timeout: OnTimeout::Skip,
            max_consecutive_timeouts: 10,
            wall_factor: 3,
            game_wall_budget: None,
            idle_cap: None,
            max_line_bytes: 64 * 1024,
            max_reply_lines: 100_000,
            stderr_turn_bytes: 64 * 1024,
            stderr_game_bytes: 1024 * 1024,
            kill_grace: Duration::from_millis(200),
        }
    }
}

/// A match that could not be played at all.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error(transparent)]
    Setup(#[from] SetupError),
    #[error("player `{name}` could not be started: {error}")]
    Launch { name: String, error: std::io::Error },
    /// `progress` asked to stop; every bot has been ended.
    #[error("the match was stopped before its end")]
    Cancelled,
}

/// How one player did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayerReport {
    pub name: String,
    pub rank: u32,
    /// The seat's statistics at the end, as the game names them.
    pub stats: Numbers,
    /// Warnings, each occurrence counted.
    pub warnings: u64,
    /// How often each distinct warning text happened (the replay holds each once), in
    /// a Bottle Bats match.
    pub warning_counts: std::collections::HashMap<String, u64>,
    /// The fatal protocol error that removed the player, if any.
    pub error: Option<String>,
    pub timeouts: u32,
    /// Late replies read and thrown away.
    pub late_replies: u32,
    /// Time the player's replies took, summed over the game (CPU where measured).
    pub time_used: Duration,
    /// Whether `time_used` is CPU time (else wall clock).
    pub cpu_measured: bool,
    /// Each reply's time in milliseconds, in order (a timeout counts its limit).
    pub reply_ms: Vec<u32>,
    /// The exit status of the bot's main process, if it ended on its own.
    pub exit_status: Option<ExitStatus>,
    /// Stderr kept per turn (turn, bytes), within the caps.
    pub stderr: Vec<(u32, Vec<u8>)>,
    /// Stderr bytes beyond the caps, counted and dropped.
    pub stderr_dropped: u64,
    /// Time the runner waited, after this bot's replies, for what it wrote on stderr to
    /// be read (at most a few milliseconds a reply, and none for bytes past the caps).
    pub stderr_waited: Duration,
    /// Sandbox limits the bot ran into, in words.
    pub incidents: Vec<String>,
}

impl PlayerReport {
    /// The statistic called `name` at the end, if the game has one.
    pub fn stat(&self, name: &str) -> Option<i64> {
        self.stats.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
    }
}

/// A match played through the game interface: the match itself, over (its outcome,
/// statistics and replay are the game's), and the runner's report of each seat.
pub struct GameResult {
    pub game: Box<dyn Match>,
    pub players: Vec<PlayerReport>,
}

/// Plays match `m` of a game whose replies are framed as `framing`, with a bot
/// process per seat (`specs`, in seat order). `watch` sees the match before every
/// turn and returns false to stop it ([`RunError::Cancelled`]). The runner decides
/// nothing about the game: it sends each awaited seat its view, cuts its reply from
/// its output, times it, and hands the game the answers with its own notes.
pub fn run_game(
    mut m: Box<dyn Match>,
    framing: Framing,
    specs: &[BotSpec],
    launcher: &dyn Launcher,
    config: &MatchConfig,
    watch: &mut dyn FnMut(&dyn Match) -> bool,
) -> Result<GameResult, RunError> {
    let (tx, rx) = mpsc::channel::<(usize, BotEvent)>();
    let mut bots = start_bots(specs, launcher, (config, framing), tx)?;
    let share = (config.game_wall_budget).map(|b| wall_share(b, m.to_answer().len(), m.seats()));
    while !m.is_over() {
        if !watch(&*m) {
            for b in &mut bots {
                b.kill_now();
            }
            return Err(RunError::Cancelled);
        }
        play_turn(&mut *m, &mut bots, &rx, (config, share));
    }
    end_bots(&mut bots, &mut *m, config.kill_grace);
    Ok(finish(m, bots))
}

/// Each seat's share of a game's wall-clock `budget`, when `at_once` of its `seats`
/// answer at the first turn: the whole budget when every seat answers together (they
/// wait at the same time), `budget * at_once / seats` when they answer in turn, so that
/// the game's replies never take longer than the budget in all.
pub fn wall_share(budget: Duration, at_once: usize, seats: usize) -> Duration {
    let (at_once, seats) = (at_once.max(1).min(seats.max(1)), seats.max(1));
    budget * at_once as u32 / seats as u32
}

/// Starts every bot, or none: when one cannot be started, those already running are
/// ended. `tx` is dropped once each bot's threads hold a copy of their own.
fn start_bots(
    specs: &[BotSpec],
    launcher: &dyn Launcher,
    how: (&MatchConfig, Framing),
    tx: Sender<(usize, BotEvent)>,
) -> Result<Vec<Bot>, RunError> {
    let mut bots: Vec<Bot> = Vec::with_capacity(specs.len());
    for (i, spec) in specs.iter().enumerate() {
        match start_bot(i, spec, launcher, how, &tx) {
            Ok(bot) => bots.push(bot),
            Err(error) => {
                for b in &mut bots {
                    b.kill_now();
                }
                return Err(RunError::Launch {
                    name: spec.name.clone(),
                    error,
                });
            }
        }
    }
    Ok(bots)
}

/// One turn: the replies gathered, the stderr and limits of the turn filed under it,
/// the game's step, seats that crashed or left told the game is over for them, and
/// bots whose grace period ran out killed.
fn play_turn(
    m: &mut dyn Match,
    bots: &mut [Bot],
    rx: &Receiver<(usize, BotEvent)>,
    (config, share): (&MatchConfig, Option<Duration>),
) {
    let turn = m.turn();
    let (answers, mut notes) = collect_replies(&*m, bots, rx, (config, share));
    for (p, b) in bots.iter_mut().enumerate() {
        b.file_stderr(turn, answers.iter().any(|(s, _)| *s == p));
    }
    for (p, b) in bots.iter_mut().enumerate() {
        for text in b.new_incidents() {
            notes.limits.push((p, text));
        }
    }
    let report = m.step(&answers, &notes);
    // A seat that crashed answers no more, whatever the game makes of it.
    for (seat, answer) in &answers {
        if let Answer::Crashed(why) = answer {
            bots[*seat].report.error = Some(why.clone());
            bots[*seat].close_stdin(config.kill_grace);
        }
    }
    for (seat, _) in &report.removals {
        bots[*seat].close_stdin(config.kill_grace);
    }
    let now = Instant::now();
    for (p, b) in bots.iter_mut().enumerate() {
        if b.kill_at.is_some_and(|t| t <= now) {
            for text in b.kill_now() {
                m.note_late_limit(p, text);
            }
        }
    }
}

/// The end: close every stdin, give the bots the grace period, then kill; and let the
/// stderr readers take in what was still in the pipes.
fn end_bots(bots: &mut [Bot], m: &mut dyn Match, grace: Duration) {
    for b in bots.iter_mut() {
        b.close_stdin(grace);
    }
    let deadline = Instant::now() + grace;
    while Instant::now() < deadline && bots.iter_mut().any(|b| b.process.try_wait().is_none()) {
        thread::sleep(Duration::from_millis(5));
    }
    for (p, b) in bots.iter_mut().enumerate() {
        for text in b.kill_now() {
            m.note_late_limit(p, text);
        }
    }
    // Let the stderr readers take in what was still in the pipes.
    let deadline = Instant::now() + Duration::from_millis(500);
    while Instant::now() < deadline
        && !bots
            .iter()
            .all(|b| b.stderr.lock().unwrap_or_else(|e| e.into_inner()).done)
    {
        thread::sleep(Duration::from_millis(2));
    }
}

/// The played match and each seat's report: its rank, statistics and warnings as the
/// game has them, and what the runner saw.
fn finish(m: Box<dyn Match>, bots: Vec<Bot>) -> GameResult {
    let ranks = m.outcome().ranks;
    let (stats, warnings) = (m.stats(), m.warnings());
    let turn = m.turn();
    let players = bots
        .into_iter()
        .enumerate()
        .map(|(i, b)| {
            let mut r = b.report;
            r.rank = ranks[i];
            r.stats = stats[i].clone();
            r.warnings = warnings[i];
            let buf = b.stderr.lock().unwrap_or_else(|e| e.into_inner());
            if !buf.turn.is_empty() {
                r.stderr.push((turn, buf.turn.clone()));
            }
            r.stderr_dropped = buf.dropped;
            r
        })
        .collect();
    GameResult { game: m, players }
}
