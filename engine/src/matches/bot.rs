//! A bot as the match loop sees it: its process, the ends of its three threads, what
//! it still owes, when it is to be killed, and its report.

use std::collections::VecDeque;
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use super::pipes::{drain_stderr, read_replies, write_states, BotEvent, Credit, StderrBuf};
use super::{MatchConfig, PlayerReport};
use crate::process::{BotProcess, BotSpec, Launcher};
use game_interface::Framing;

/// One player's bot in a match.
pub(super) struct Bot {
    pub(super) process: Box<dyn BotProcess>,
    pub(super) stdin: Option<Sender<Arc<str>>>,
    pub(super) stderr: Arc<Mutex<StderrBuf>>,
    /// The read end of the bot's stderr, also held by its reader thread.
    stderr_pipe: Arc<std::fs::File>,
    pub(super) credit: Arc<Credit>,
    pub(super) queue: VecDeque<BotEvent>,
    /// Late replies still to be read and dropped.
    pub(super) owed: u32,
    pub(super) consecutive_timeouts: u32,
    /// States sent so far: the first has the first reply's time limit.
    pub(super) asked: u32,
    /// Wall-clock time spent waiting for its replies so far, over the whole game.
    pub(super) waited: Duration,
    /// Set when the bot left the game: kill its tree at this moment.
    pub(super) kill_at: Option<Instant>,
    killed: bool,
    pub(super) report: PlayerReport,
}

impl Bot {
    /// Tells the bot the game is over for it (its stdin closed) and, unless it is set
    /// already, sets its kill for when `grace` has passed.
    pub(super) fn close_stdin(&mut self, grace: Duration) {
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

    /// Why the bot crashed, as what it wrote on stderr says (this turn's and the end of
    /// the game's so far): an exception and its line ([`crate::cause`]).
    pub(super) fn stderr_cause(&self) -> Option<String> {
        // The bot has ended: its last words come through the pipe in a moment.
        for _ in 0..40 {
            let done = self.stderr.lock().unwrap_or_else(|e| e.into_inner()).done;
            if done {
                break;
            }
            thread::sleep(Duration::from_micros(500));
        }
        self.settle_stderr();
        let mut tail: Vec<u8> = Vec::new();
        for (_, text) in self.report.stderr.iter().rev() {
            if tail.len() >= crate::cause::TAIL_BYTES {
                break;
            }
            tail.splice(0..0, text.iter().copied());
        }
        tail.extend_from_slice(&self.stderr.lock().unwrap_or_else(|e| e.into_inner()).turn);
        crate::cause::of_stderr(&String::from_utf8_lossy(&tail))
    }

    /// Files what the bot wrote on stderr this turn under `turn`.
    pub(super) fn file_stderr(&mut self, turn: u32) {
        self.settle_stderr();
        let text = std::mem::take(&mut self.stderr.lock().unwrap_or_else(|e| e.into_inner()).turn);
        if !text.is_empty() {
            self.report.stderr.push((turn, text));
        }
    }

    /// Incidents not reported before.
    pub(super) fn new_incidents(&mut self) -> Vec<String> {
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
    pub(super) fn kill_now(&mut self) -> Vec<String> {
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

/// Starts a bot and its three threads.
pub(super) fn start_bot(
    index: usize,
    spec: &BotSpec,
    launcher: &dyn Launcher,
    (config, framing): (&MatchConfig, Framing),
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
        .spawn(move || {
            read_replies(index, stdout, (framing, max_line, max_lines), &room, events)
        })?;

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
        asked: 0,
        waited: Duration::ZERO,
        kill_at: None,
        killed: false,
        report: PlayerReport {
            name: spec.name.clone(),
            ..PlayerReport::default()
        },
    })
}
