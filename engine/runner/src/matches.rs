//! One match with real bot processes (docs/rules.md §7): states out, replies in, timing,
//! protocol errors, stderr, and making sure nothing outlives the game.
//!
//! Architecture invariant: the runner decides nothing about the game. It turns bot
//! output into [`Orders`] and hands them to [`Game::step`].
//!
//! Each bot gets three threads: a writer (so a bot that never reads cannot block the
//! runner), a stdout reader that cuts the output into replies (so the k-th reply
//! always answers the k-th state, and a late reply is read and dropped), and a stderr
//! reader that drains continuously within caps. The match loop only waits on one
//! channel with a deadline.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::ExitStatus;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Condvar, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crate::process::{BotProcess, BotSpec, Launcher};
use engine::game::{Game, Orders, Outcome, SetupError};
use engine::map::{is_ignored, parse_header, Count, Map, Seat};
use engine::replay::{Events, Replay};

/// What happens to a bot that does not reply in time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OnTimeout {
    /// The turn's commands are empty; the late reply is read and thrown away.
    Skip,
    /// The bot is removed, as in 2016.
    Eliminate,
}

/// The runner's policy for one match (docs/rules.md §7 table).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchConfig {
    pub max_steps: u32,
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
            max_steps: 500,
            turn_timeout: Duration::from_millis(2000),
            startup_timeout: Duration::from_millis(10_000),
            on_timeout: OnTimeout::Skip,
            max_consecutive_timeouts: 10,
            wall_factor: 3,
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
    /// Forts owned and soldiers (garrisons and marches) at the end.
    pub forts: u64,
    pub soldiers: u64,
    /// Warnings, each occurrence counted.
    pub warnings: u64,
    /// The fatal protocol error that removed the player, if any.
    pub error: Option<String>,
    pub timeouts: u32,
    /// Late replies read and thrown away.
    pub late_replies: u32,
    /// Time the player's replies took, summed over the game (CPU where measured).
    pub time_used: Duration,
    /// Whether `time_used` is CPU time (else wall clock).
    pub cpu_measured: bool,
    /// The exit status of the bot's main process, if it ended on its own.
    pub exit_status: Option<ExitStatus>,
    /// Stderr kept per turn (turn, bytes), within the caps.
    pub stderr: Vec<(u32, Vec<u8>)>,
    /// Stderr bytes beyond the caps, counted and dropped.
    pub stderr_dropped: u64,
    /// Sandbox limits the bot ran into, in words.
    pub incidents: Vec<String>,
}

/// A played match.
#[derive(Clone, Debug)]
pub struct MatchResult {
    pub replay: Replay,
    pub outcome: Outcome,
    pub players: Vec<PlayerReport>,
}

/// What the reader threads tell the match loop.
enum BotEvent {
    Reply(Vec<String>),
    Fatal(String),
    Eof,
    StdinClosed,
}

/// Replies a bot may have read ahead of the match loop; past this its stdout reader
/// stops reading, so a bot spamming replies cannot grow the runner's memory.
const MAX_AHEAD: u32 = 4;

/// Counts the replies read but not yet taken by the match loop.
#[derive(Default)]
struct Credit {
    /// (replies ahead, closed)
    state: Mutex<(u32, bool)>,
    cv: Condvar,
}

impl Credit {
    /// Waits for room for one more reply; false once the bot was closed.
    fn acquire(&self) -> bool {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        while s.0 >= MAX_AHEAD && !s.1 {
            s = self.cv.wait(s).unwrap_or_else(|e| e.into_inner());
        }
        s.0 += 1;
        !s.1
    }

    fn release(&self) {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        s.0 = s.0.saturating_sub(1);
        self.cv.notify_all();
    }

    fn close(&self) {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).1 = true;
        self.cv.notify_all();
    }
}

#[derive(Default)]
struct StderrBuf {
    turn: Vec<u8>,
    kept: usize,
    dropped: u64,
    /// The pipe reached its end: everything the bot wrote has been read.
    done: bool,
}

struct Bot {
    process: Box<dyn BotProcess>,
    stdin: Option<Sender<Arc<str>>>,
    stderr: Arc<Mutex<StderrBuf>>,
    /// The read end of the bot's stderr, also held by its reader thread.
    stderr_pipe: Arc<std::fs::File>,
    credit: Arc<Credit>,
    queue: VecDeque<BotEvent>,
    /// Late replies still to be read and dropped.
    owed: u32,
    consecutive_timeouts: u32,
    /// Set when the bot left the game: kill its tree at this moment.
    kill_at: Option<Instant>,
    killed: bool,
    report: PlayerReport,
}

impl Bot {
    fn close_stdin(&mut self, grace: Duration) {
        if self.stdin.is_some() {
            self.process.prepare_end();
        }
        self.stdin = None;
        if self.kill_at.is_none() {
            self.kill_at = Some(Instant::now() + grace);
        }
    }

    /// Lets the stderr reader take in what the bot wrote before its reply, so that it is
    /// filed under this turn: waits (at most a few milliseconds) while the pipe still
    /// holds unread bytes.
    fn settle_stderr(&self) {
        use std::os::fd::AsRawFd;
        for _ in 0..20 {
            let mut unread: libc::c_int = 0;
            // SAFETY: FIONREAD on a pipe we hold open, into a c_int.
            let ok =
                unsafe { libc::ioctl(self.stderr_pipe.as_raw_fd(), libc::FIONREAD, &mut unread) }
                    == 0;
            if !ok || unread == 0 {
                return;
            }
            thread::sleep(Duration::from_micros(250));
        }
    }

    /// Incidents not reported before.
    fn new_incidents(&mut self) -> Vec<String> {
        if self.killed {
            return Vec::new();
        }
        let fresh: Vec<String> = self
            .process
            .incidents()
            .into_iter()
            .filter(|i| !self.report.incidents.contains(i))
            .collect();
        self.report.incidents.extend(fresh.iter().cloned());
        fresh
    }

    /// Kills the bot's processes; returns the incidents not reported before.
    fn kill_now(&mut self) -> Vec<String> {
        if self.killed {
            return Vec::new();
        }
        let fresh = self.new_incidents();
        self.killed = true;
        self.stdin = None;
        self.report.exit_status = self.process.try_wait();
        self.process.kill();
        self.credit.close();
        fresh
    }
}

/// Adds limits a bot ran into after its turn's events were taken (while it was ended,
/// or in the last turn) to the last turn played.
fn note_late_limits(replay: &mut Replay, player: usize, fresh: Vec<String>) {
    let played = replay.turns.len().saturating_sub(2);
    if let Some(turn) = replay.turns.get_mut(played) {
        turn.events
            .limits
            .extend(fresh.into_iter().map(|text| (player, text)));
    }
}

/// Plays one match. `progress` is called with the turn number before each turn and
/// returns false to stop the match there ([`RunError::Cancelled`]).
pub fn run_match(
    map: Arc<Map>,
    specs: &[BotSpec],
    launcher: &dyn Launcher,
    config: &MatchConfig,
    progress: &mut dyn FnMut(u32) -> bool,
) -> Result<MatchResult, RunError> {
    let names: Vec<String> = specs.iter().map(|s| s.name.clone()).collect();
    let mut game = Game::new(map, &names, config.max_steps)?;
    let (tx, rx) = mpsc::channel::<(usize, BotEvent)>();
    let mut bots: Vec<Bot> = Vec::with_capacity(specs.len());
    for (i, spec) in specs.iter().enumerate() {
        match start_bot(i, spec, launcher, config, &tx) {
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
    drop(tx);

    let mut replay = Replay::start(&game);
    while !game.is_over() {
        let turn = game.turn();
        if !progress(turn) {
            for b in &mut bots {
                b.kill_now();
            }
            return Err(RunError::Cancelled);
        }
        let (orders, mut events) = collect_replies(&game, &mut bots, &rx, config);
        for b in bots.iter_mut() {
            b.settle_stderr();
            let text = std::mem::take(&mut b.stderr.lock().unwrap_or_else(|e| e.into_inner()).turn);
            if !text.is_empty() {
                b.report.stderr.push((turn, text));
            }
        }
        for (p, b) in bots.iter_mut().enumerate() {
            for text in b.new_incidents() {
                events.limits.push((p, text));
            }
        }
        let played = game.step(&orders);
        let game_events = Events::of(&played);
        events.battles = game_events.battles;
        events.captures = game_events.captures;
        events.removed = game_events.removed;
        events.warnings = game_events.warnings;
        for (seat, reason) in &played.removals {
            let bot = &mut bots[seat.0];
            if let engine::game::RemovalReason::Fatal(why) = reason {
                bot.report.error = Some(why.clone());
            }
            bot.close_stdin(config.kill_grace);
        }
        replay.push(events, &game);
        let now = Instant::now();
        for (p, b) in bots.iter_mut().enumerate() {
            if b.kill_at.is_some_and(|t| t <= now) {
                note_late_limits(&mut replay, p, b.kill_now());
            }
        }
    }

    // The end: close every stdin, give the bots the grace period, then kill.
    for b in &mut bots {
        b.close_stdin(config.kill_grace);
    }
    let deadline = Instant::now() + config.kill_grace;
    while Instant::now() < deadline && bots.iter_mut().any(|b| b.process.try_wait().is_none()) {
        thread::sleep(Duration::from_millis(5));
    }
    for (p, b) in bots.iter_mut().enumerate() {
        note_late_limits(&mut replay, p, b.kill_now());
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

    let outcome = game.outcome();
    replay.finish(&game, &outcome);
    let holdings = game.holdings();
    let players = bots
        .into_iter()
        .enumerate()
        .map(|(i, b)| {
            let mut r = b.report;
            r.rank = outcome.ranks[i];
            (r.forts, r.soldiers) = holdings[i];
            r.warnings = game.players()[i].warnings;
            let buf = b.stderr.lock().unwrap_or_else(|e| e.into_inner());
            if !buf.turn.is_empty() {
                r.stderr.push((game.turn(), buf.turn.clone()));
            }
            r.stderr_dropped = buf.dropped;
            r
        })
        .collect();
    Ok(MatchResult {
        replay,
        outcome,
        players,
    })
}

fn start_bot(
    index: usize,
    spec: &BotSpec,
    launcher: &dyn Launcher,
    config: &MatchConfig,
    tx: &Sender<(usize, BotEvent)>,
) -> std::io::Result<Bot> {
    let mut process = launcher.launch(spec)?;
    let (stdin, stdout, stderr) = process
        .take_stdio()
        .ok_or_else(|| std::io::Error::other("the launcher gave no pipes"))?;
    let thread_name = |what: &str| format!("bot-{index}-{what}");

    let (in_tx, in_rx) = mpsc::channel::<Arc<str>>();
    let events = tx.clone();
    thread::Builder::new()
        .name(thread_name("stdin"))
        .spawn(move || write_states(index, stdin, in_rx, events))?;

    let events = tx.clone();
    let (max_line, max_lines) = (config.max_line_bytes, config.max_reply_lines);
    let credit = Arc::new(Credit::default());
    let room = credit.clone();
    thread::Builder::new()
        .name(thread_name("stdout"))
        .spawn(move || read_replies(index, stdout, max_line, max_lines, &room, events))?;

    let buf = Arc::new(Mutex::new(StderrBuf::default()));
    let sink = buf.clone();
    let (turn_cap, game_cap) = (config.stderr_turn_bytes, config.stderr_game_bytes);
    // Shared, so the match loop can see whether the pipe still holds unread bytes.
    let stderr_pipe = Arc::new(std::fs::File::from(std::os::fd::OwnedFd::from(stderr)));
    let pipe = stderr_pipe.clone();
    thread::Builder::new()
        .name(thread_name("stderr"))
        .spawn(move || drain_stderr(&pipe, sink, turn_cap, game_cap))?;

    Ok(Bot {
        process,
        stdin: Some(in_tx),
        stderr: buf,
        stderr_pipe,
        credit,
        queue: VecDeque::new(),
        owed: 0,
        consecutive_timeouts: 0,
        kill_at: None,
        killed: false,
        report: PlayerReport {
            name: spec.name.clone(),
            ..PlayerReport::default()
        },
    })
}

fn write_states(
    index: usize,
    mut stdin: std::process::ChildStdin,
    states: Receiver<Arc<str>>,
    events: Sender<(usize, BotEvent)>,
) {
    for state in states {
        if stdin
            .write_all(state.as_bytes())
            .and_then(|()| stdin.flush())
            .is_err()
        {
            let _ = events.send((index, BotEvent::StdinClosed));
            return;
        }
    }
}

/// Reads one line of at most `max` bytes (without its newline). `Ok(None)` at the end.
fn read_line(
    r: &mut impl BufRead,
    buf: &mut Vec<u8>,
    max: usize,
) -> Result<Option<String>, String> {
    buf.clear();
    let n = r
        .by_ref()
        .take(max as u64 + 1)
        .read_until(b'\n', buf)
        .map_err(|e| format!("reading its output failed: {e}"))?;
    if n == 0 {
        return Ok(None);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
    } else if buf.len() > max {
        return Err(format!("wrote a line longer than {max} bytes"));
    }
    if buf.last() == Some(&b'\r') {
        buf.pop();
    }
    Ok(Some(String::from_utf8_lossy(buf).into_owned()))
}

fn read_replies(
    index: usize,
    stdout: std::process::ChildStdout,
    max_line: usize,
    max_lines: usize,
    credit: &Credit,
    events: Sender<(usize, BotEvent)>,
) {
    let mut r = BufReader::with_capacity(64 * 1024, stdout);
    let mut buf = Vec::new();
    let send = |ev: BotEvent| events.send((index, ev)).is_ok();
    // Reads the next line that the format does not ignore.
    let mut next = |r: &mut BufReader<_>| -> Result<Option<String>, String> {
        loop {
            match read_line(r, &mut buf, max_line)? {
                Some(l) if is_ignored(&l) => continue,
                other => return Ok(other),
            }
        }
    };
    loop {
        let header = match next(&mut r) {
            Ok(Some(h)) => h,
            Ok(None) => {
                send(BotEvent::Eof);
                return;
            }
            Err(e) => {
                send(BotEvent::Fatal(e));
                return;
            }
        };
        let count = match parse_header(&header) {
            Some(Count::Exactly(n)) if n > max_lines => {
                send(BotEvent::Fatal(format!(
                    "promised {n} command lines; at most {max_lines} are allowed"
                )));
                return;
            }
            Some(c) => c,
            None => {
                send(BotEvent::Fatal(format!(
                    "invalid reply header `{}`: expected `COUNT WORD:` or `? WORD:`",
                    shorten(&header)
                )));
                return;
            }
        };
        let mut lines = Vec::new();
        loop {
            if count == Count::Exactly(lines.len()) {
                break;
            }
            let line = match next(&mut r) {
                Ok(Some(l)) => l,
                Ok(None) => {
                    let got = lines.len();
                    send(BotEvent::Fatal(match count {
                        Count::Exactly(n) => format!(
                            "output ended after {got} of the {n} command lines its header promised"
                        ),
                        Count::UntilEnd => {
                            format!("output ended after {got} command lines without `end`")
                        }
                    }));
                    return;
                }
                Err(e) => {
                    send(BotEvent::Fatal(e));
                    return;
                }
            };
            if count == Count::UntilEnd && line.trim() == "end" {
                break;
            }
            if lines.len() == max_lines {
                send(BotEvent::Fatal(format!(
                    "sent more than {max_lines} command lines in one reply"
                )));
                return;
            }
            lines.push(line);
        }
        if !credit.acquire() || !send(BotEvent::Reply(lines)) {
            return;
        }
    }
}

fn shorten(s: &str) -> String {
    let s = s.trim();
    match s.char_indices().nth(80) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

fn drain_stderr(
    stderr: &std::fs::File,
    buf: Arc<Mutex<StderrBuf>>,
    turn_cap: usize,
    game_cap: usize,
) {
    let mut chunk = vec![0u8; 16 * 1024];
    loop {
        let n = match (&*stderr).read(&mut chunk) {
            Ok(0) | Err(_) => {
                buf.lock().unwrap_or_else(|e| e.into_inner()).done = true;
                return;
            }
            Ok(n) => n,
        };
        let mut b = buf.lock().unwrap_or_else(|e| e.into_inner());
        let room = turn_cap
            .saturating_sub(b.turn.len())
            .min(game_cap.saturating_sub(b.kept));
        let keep = n.min(room);
        b.turn.extend_from_slice(&chunk[..keep]);
        b.kept += keep;
        b.dropped += (n - keep) as u64;
    }
}

/// Sends every active player its state at once, then gathers one reply from each
/// within its time limit. Returns the orders and the runner's part of the events.
fn collect_replies(
    game: &Game,
    bots: &mut [Bot],
    rx: &Receiver<(usize, BotEvent)>,
    config: &MatchConfig,
) -> (Vec<Orders>, Events) {
    let n = bots.len();
    let limit = if game.turn() == 0 {
        config.startup_timeout
    } else {
        config.turn_timeout
    };
    let mut orders = vec![Orders::none(); n];
    let mut events = Events {
        ms: vec![None; n],
        ..Events::default()
    };
    let mut pending: Vec<usize> = game.active_players().map(|Seat(s)| s).collect();
    let start = Instant::now();
    let mut cpu_start = vec![None; n];
    for &p in &pending {
        let state: Arc<str> = game.state_for(Seat(p)).into();
        if let Some(tx) = &bots[p].stdin {
            let _ = tx.send(state);
        }
        cpu_start[p] = bots[p].process.cpu_time();
    }

    let wall_cap = |p: usize| {
        if cpu_start[p].is_some() {
            limit * config.wall_factor
        } else {
            limit
        }
    };
    while !pending.is_empty() {
        // Wait for the next event or the nearest deadline; poll CPU time meanwhile.
        let elapsed = start.elapsed();
        let nearest = pending.iter().map(|&p| wall_cap(p)).min().unwrap_or(limit);
        let mut wait = nearest.saturating_sub(elapsed);
        if pending.iter().any(|&p| cpu_start[p].is_some()) {
            wait = wait.min(Duration::from_millis(5));
        }
        match rx.recv_timeout(wait) {
            Ok((p, ev)) => bots[p].queue.push_back(ev),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => thread::sleep(wait),
        }
        while let Ok((p, ev)) = rx.try_recv() {
            bots[p].queue.push_back(ev);
        }

        pending.retain(|&p| {
            let bot = &mut bots[p];
            let used = match (cpu_start[p], bot.process.cpu_time()) {
                (Some(a), Some(b)) => b.saturating_sub(a),
                _ => start.elapsed(),
            };
            while let Some(ev) = bot.queue.pop_front() {
                match ev {
                    BotEvent::Reply(_) if bot.owed > 0 => {
                        bot.credit.release();
                        bot.owed -= 1;
                        bot.report.late_replies += 1;
                    }
                    BotEvent::Reply(lines) => {
                        bot.credit.release();
                        orders[p] = Orders::Commands(lines);
                        bot.consecutive_timeouts = 0;
                        record_time(bot, &mut events, p, used, cpu_start[p].is_some());
                        return false;
                    }
                    BotEvent::Fatal(why) => {
                        orders[p] = Orders::Fatal(why);
                        record_time(bot, &mut events, p, used, cpu_start[p].is_some());
                        return false;
                    }
                    BotEvent::Eof => {
                        orders[p] = Orders::Fatal(ended(bot.process.as_mut(), "its output ended"));
                        return false;
                    }
                    BotEvent::StdinClosed => {
                        orders[p] =
                            Orders::Fatal(ended(bot.process.as_mut(), "it closed its input"));
                        return false;
                    }
                }
            }
            if used > limit || start.elapsed() > wall_cap(p) {
                record_time(bot, &mut events, p, limit, cpu_start[p].is_some());
                bot.report.timeouts += 1;
                bot.consecutive_timeouts += 1;
                let ms = limit.as_millis();
                orders[p] = match config.on_timeout {
                    OnTimeout::Eliminate => {
                        Orders::Fatal(format!("timed out: no reply within {ms} ms"))
                    }
                    OnTimeout::Skip
                        if bot.consecutive_timeouts >= config.max_consecutive_timeouts =>
                    {
                        Orders::Fatal(format!(
                            "unresponsive: no reply within {ms} ms for {} turns in a row",
                            bot.consecutive_timeouts
                        ))
                    }
                    OnTimeout::Skip => {
                        bot.owed += 1;
                        events.timeouts.push(p);
                        Orders::none()
                    }
                };
                return false;
            }
            true
        });
    }
    (orders, events)
}

fn record_time(bot: &mut Bot, events: &mut Events, p: usize, used: Duration, cpu: bool) {
    bot.report.time_used += used;
    bot.report.cpu_measured = cpu;
    events.ms[p] = Some(used.as_millis().min(u32::MAX as u128) as u32);
}

/// The reason for a bot whose pipes closed: its exit status if it has ended.
fn ended(process: &mut dyn BotProcess, what: &str) -> String {
    let why = exit_reason(process, what);
    match process.incidents().last() {
        Some(incident) => format!("{why} ({incident})"),
        None => why,
    }
}

fn exit_reason(process: &mut dyn BotProcess, what: &str) -> String {
    // The pipe often closes a moment before the process can be reaped.
    let deadline = Instant::now() + Duration::from_millis(100);
    loop {
        if let Some(status) = process.try_wait() {
            return match (
                status.code(),
                std::os::unix::process::ExitStatusExt::signal(&status),
            ) {
                (Some(code), _) => format!("{what}: the bot exited with status {code}"),
                (None, Some(sig)) => format!("{what}: the bot was killed by signal {sig}"),
                _ => format!("{what}: the bot exited"),
            };
        }
        if Instant::now() >= deadline {
            return format!("{what} while the bot kept running");
        }
        thread::sleep(Duration::from_millis(2));
    }
}
