//! One turn's gathering of replies: every awaited seat sent its view at once, then each
//! reply taken within its time limit, on CPU time where it is measured and the wall
//! clock else.

use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use super::bot::Bot;
use super::pipes::BotEvent;
use super::{MatchConfig, OnTimeout};
use crate::process::BotProcess;
use game_interface::{Answer, Match, RunnerNotes, Seat};

/// Sends every seat the match awaits its view at once, then gathers one reply from
/// each within its time limit. Returns the answers and the runner's notes of the turn.
pub(super) fn collect_replies(
    m: &dyn Match,
    bots: &mut [Bot],
    rx: &Receiver<(usize, BotEvent)>,
    config: &MatchConfig,
) -> (Vec<(Seat, Answer)>, RunnerNotes) {
    let mut pending: Vec<usize> = m.to_answer();
    let awaited = pending.clone();
    let mut turn = Gathering::new(bots.len(), config);
    turn.send_views(m, bots, &pending);
    while !pending.is_empty() {
        turn.wait(bots, rx, &pending);
        pending.retain(|&p| {
            let done = turn.settle(p, &mut bots[p]);
            if done {
                bots[p].waited += turn.start.elapsed();
            }
            !done
        });
    }
    let answers = (awaited.into_iter())
        .map(|p| (p, turn.answers[p].take().unwrap_or(Answer::NoReply)))
        .collect();
    (answers, turn.notes)
}

/// One turn's clock and what each player sent in it.
struct Gathering<'a> {
    config: &'a MatchConfig,
    /// The time each seat is allowed for its reply this turn.
    limits: Vec<Duration>,
    /// When the states were sent.
    start: Instant,
    /// What is left of each player's wall-clock budget for the game, if it has one.
    budget_left: Vec<Option<Duration>>,
    /// Each player's CPU time when its state was sent, where it can be measured.
    cpu_start: Vec<Option<Duration>>,
    /// Each player's CPU time when last seen to change, and when (for `idle_cap`).
    last_busy: Vec<(Option<Duration>, Instant)>,
    answers: Vec<Option<Answer>>,
    notes: RunnerNotes,
}

impl<'a> Gathering<'a> {
    fn new(n: usize, config: &'a MatchConfig) -> Gathering<'a> {
        Gathering {
            config,
            limits: vec![config.turn_timeout; n],
            start: Instant::now(),
            budget_left: vec![None; n],
            cpu_start: vec![None; n],
            last_busy: vec![(None, Instant::now()); n],
            answers: vec![None; n],
            notes: RunnerNotes {
                ms: vec![None; n],
                ..RunnerNotes::default()
            },
        }
    }

    /// Sends each pending seat its view, and notes its CPU time. A seat's first
    /// reply has the first reply's time limit.
    fn send_views(&mut self, m: &dyn Match, bots: &mut [Bot], pending: &[usize]) {
        for &p in pending {
            let view: Arc<str> = String::from_utf8_lossy(&m.view(p)).into();
            if bots[p].asked == 0 {
                self.limits[p] = self.config.startup_timeout;
            }
            bots[p].asked += 1;
            if let Some(tx) = &bots[p].stdin {
                let _ = tx.send(view);
            }
            self.budget_left[p] =
                (self.config.game_wall_budget).map(|b| b.saturating_sub(bots[p].waited));
            self.cpu_start[p] = bots[p].process.cpu_time();
            self.last_busy[p] = (self.cpu_start[p], Instant::now());
        }
    }

    /// Whether player `p` has used no CPU for longer than the idle cap.
    fn idle_too_long(&mut self, p: usize, cpu: Option<Duration>) -> bool {
        let (Some(cap), Some(now)) = (self.config.idle_cap, cpu) else {
            return false;
        };
        if self.last_busy[p].0 != Some(now) {
            self.last_busy[p] = (Some(now), Instant::now());
            return false;
        }
        self.last_busy[p].1.elapsed() > cap
    }

    /// How long player `p` may take on the wall clock: with CPU accounting, a multiple
    /// of the limit.
    fn wall_cap(&self, p: usize) -> Duration {
        let cap = if self.cpu_start[p].is_some() {
            self.limits[p] * self.config.wall_factor
        } else {
            self.limits[p]
        };
        self.budget_left[p].map_or(cap, |left| cap.min(left))
    }

    /// Whether player `p` ran out of its wall-clock budget for the game this turn.
    fn over_budget(&self, p: usize) -> bool {
        self.budget_left[p].is_some_and(|left| self.start.elapsed() >= left)
    }

    /// Waits for the next event or the nearest deadline, at most a few milliseconds
    /// while CPU time is to be polled, and queues whatever came with its bot.
    fn wait(&self, bots: &mut [Bot], rx: &Receiver<(usize, BotEvent)>, pending: &[usize]) {
        let elapsed = self.start.elapsed();
        let nearest = pending
            .iter()
            .map(|&p| self.wall_cap(p))
            .min()
            .unwrap_or(self.config.turn_timeout);
        let mut wait = nearest.saturating_sub(elapsed);
        if pending.iter().any(|&p| self.cpu_start[p].is_some()) {
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
    }

    /// Whether player `p` is done for this turn: it replied, failed, or ran out of
    /// time.
    fn settle(&mut self, p: usize, bot: &mut Bot) -> bool {
        let cpu = bot.process.cpu_time();
        let used = match (self.cpu_start[p], cpu) {
            (Some(a), Some(b)) => b.saturating_sub(a),
            _ => self.start.elapsed(),
        };
        if self.take_events(p, bot, used) {
            return true;
        }
        if self.over_budget(p) {
            let budget = self
                .config
                .game_wall_budget
                .unwrap_or_default()
                .as_secs_f64();
            self.answers[p] = Some(Answer::Crashed(format!(
                "out of time for the game: its replies took {budget:.0} s on the clock in \
                 all, the most one game allows (a bot that sleeps or waits while its reply \
                 is awaited uses it up)"
            )));
            self.record_time(p, bot, used);
            return true;
        }
        if used > self.limits[p] || self.start.elapsed() > self.wall_cap(p) {
            self.time_out(p, bot, None);
            return true;
        }
        if self.idle_too_long(p, cpu) {
            let idle = self.config.idle_cap.unwrap_or_default().as_secs_f64();
            self.time_out(
                p,
                bot,
                Some(format!("no reply, and no CPU used for {idle:.0} s")),
            );
            return true;
        }
        false
    }

    /// Takes the bot's events in order, late replies dropped, until one settles its
    /// turn; false if none did.
    fn take_events(&mut self, p: usize, bot: &mut Bot, used: Duration) -> bool {
        while let Some(ev) = bot.queue.pop_front() {
            match ev {
                BotEvent::Reply(_) if bot.owed > 0 => {
                    bot.credit.release();
                    bot.owed -= 1;
                    bot.report.late_replies += 1;
                    self.notes.late_replies.push(p);
                }
                BotEvent::Reply(lines) => {
                    bot.credit.release();
                    self.answers[p] = Some(Answer::Lines(lines));
                    bot.consecutive_timeouts = 0;
                    self.record_time(p, bot, used);
                    return true;
                }
                BotEvent::Fatal(why) => {
                    self.answers[p] = Some(Answer::Crashed(why));
                    self.record_time(p, bot, used);
                    return true;
                }
                BotEvent::Eof => {
                    let why = ended(bot.process.as_mut(), "its output ended");
                    self.answers[p] = Some(Answer::Crashed(with_cause(bot, why)));
                    return true;
                }
                BotEvent::StdinClosed => {
                    // A bot that exited closed both pipes; whichever was seen first,
                    // its exit is what its owner is told.
                    let what = match exit_status(bot.process.as_mut()) {
                        Some(_) => "its output ended",
                        None => "it closed its input",
                    };
                    let why = ended(bot.process.as_mut(), what);
                    self.answers[p] = Some(Answer::Crashed(with_cause(bot, why)));
                    return true;
                }
            }
        }
        false
    }

    /// No reply in time (`idle` says why when it is not the time limit): the turn
    /// skipped (its reply owed, to be dropped when it comes), or the bot removed.
    fn time_out(&mut self, p: usize, bot: &mut Bot, idle: Option<String>) {
        let limit = self.limits[p];
        self.record_time(p, bot, limit);
        bot.report.timeouts += 1;
        bot.consecutive_timeouts += 1;
        let ms = limit.as_millis();
        self.answers[p] = Some(match self.config.on_timeout {
            OnTimeout::Eliminate => Answer::Crashed(format!(
                "timed out: {}",
                idle.unwrap_or_else(|| format!("no reply within {ms} ms"))
            )),
            OnTimeout::Skip if bot.consecutive_timeouts >= self.config.max_consecutive_timeouts => {
                Answer::Crashed(format!(
                    "unresponsive: no reply within {ms} ms for {} turns in a row",
                    bot.consecutive_timeouts
                ))
            }
            OnTimeout::Skip => {
                bot.owed += 1;
                self.notes.timeouts.push(p);
                Answer::NoReply
            }
        });
    }

    fn record_time(&mut self, p: usize, bot: &mut Bot, used: Duration) {
        bot.report.time_used += used;
        bot.report.cpu_measured = self.cpu_start[p].is_some();
        self.notes.ms[p] = Some(used.as_millis().min(u32::MAX as u128) as u32);
    }
}

/// The reason of a crash led by its cause, when the bot's stderr names one:
/// `IndexError: string index out of range, at bot.py line 86 (its output ended: the
/// bot exited with status 1)`.
fn with_cause(bot: &Bot, why: String) -> String {
    match bot.stderr_cause() {
        Some(cause) => format!("{cause} ({why})"),
        None => why,
    }
}

/// The reason for a bot whose pipes closed: its exit status if it has ended.
fn ended(process: &mut dyn BotProcess, what: &str) -> String {
    let why = exit_reason(process, what);
    match process.incidents().last() {
        Some(incident) => format!("{why} ({incident})"),
        None => why,
    }
}

/// The bot's exit status, waiting a moment for it: the pipe often closes a moment
/// before the process can be reaped. `None` while it keeps running.
fn exit_status(process: &mut dyn BotProcess) -> Option<std::process::ExitStatus> {
    let deadline = Instant::now() + Duration::from_millis(100);
    loop {
        if let Some(status) = process.try_wait() {
            return Some(status);
        }
        if Instant::now() >= deadline {
            return None;
        }
        thread::sleep(Duration::from_millis(2));
    }
}

fn exit_reason(process: &mut dyn BotProcess, what: &str) -> String {
    let Some(status) = exit_status(process) else {
        return format!("{what} while the bot kept running");
    };
    match (
        status.code(),
        std::os::unix::process::ExitStatusExt::signal(&status),
    ) {
        (Some(code), _) => format!("{what}: the bot exited with status {code}"),
        (None, Some(sig)) => format!(
            "{what}: the bot was killed: {}",
            crate::cause::signal_words(sig)
        ),
        _ => format!("{what}: the bot exited"),
    }
}
