//! One turn's gathering of replies: every state sent at once, then each reply taken
//! within its time limit, on CPU time where it is measured and the wall clock else.

use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use super::bot::Bot;
use super::pipes::BotEvent;
use super::{MatchConfig, OnTimeout};
use crate::process::BotProcess;
use engine::game::{Game, Orders};
use engine::map::Seat;
use engine::replay::Events;

/// Sends every active player its state at once, then gathers one reply from each
/// within its time limit. Returns the orders and the runner's part of the events.
pub(super) fn collect_replies(
    game: &Game,
    bots: &mut [Bot],
    rx: &Receiver<(usize, BotEvent)>,
    config: &MatchConfig,
) -> (Vec<Orders>, Events) {
    let limit = if game.turn() == 0 {
        config.startup_timeout
    } else {
        config.turn_timeout
    };
    let mut pending: Vec<usize> = game.active_players().map(|Seat(s)| s).collect();
    let mut turn = Gathering::new(bots.len(), limit, config);
    turn.send_states(game, bots, &pending);
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
    (turn.orders, turn.events)
}

/// One turn's clock and what each player sent in it.
struct Gathering<'a> {
    config: &'a MatchConfig,
    /// The time allowed for a reply this turn.
    limit: Duration,
    /// When the states were sent.
    start: Instant,
    /// What is left of each player's wall-clock budget for the game, if it has one.
    budget_left: Vec<Option<Duration>>,
    /// Each player's CPU time when its state was sent, where it can be measured.
    cpu_start: Vec<Option<Duration>>,
    /// Each player's CPU time when last seen to change, and when (for `idle_cap`).
    last_busy: Vec<(Option<Duration>, Instant)>,
    orders: Vec<Orders>,
    events: Events,
}

impl<'a> Gathering<'a> {
    fn new(n: usize, limit: Duration, config: &'a MatchConfig) -> Gathering<'a> {
        Gathering {
            config,
            limit,
            start: Instant::now(),
            budget_left: vec![None; n],
            cpu_start: vec![None; n],
            last_busy: vec![(None, Instant::now()); n],
            orders: vec![Orders::none(); n],
            events: Events {
                ms: vec![None; n],
                ..Events::default()
            },
        }
    }

    /// Sends each pending player its state, and notes its CPU time.
    fn send_states(&mut self, game: &Game, bots: &mut [Bot], pending: &[usize]) {
        for &p in pending {
            let state: Arc<str> = game.state_for(Seat(p)).into();
            if let Some(tx) = &bots[p].stdin {
                let _ = tx.send(state);
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
            self.limit * self.config.wall_factor
        } else {
            self.limit
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
            .unwrap_or(self.limit);
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
            self.orders[p] = Orders::Fatal(format!(
                "out of time for the game: its replies took {budget:.0} s on the clock in \
                 all, the most one game allows (a bot that sleeps or waits while its reply \
                 is awaited uses it up)"
            ));
            self.record_time(p, bot, used);
            return true;
        }
        if used > self.limit || self.start.elapsed() > self.wall_cap(p) {
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
                }
                BotEvent::Reply(lines) => {
                    bot.credit.release();
                    self.orders[p] = Orders::Commands(lines);
                    bot.consecutive_timeouts = 0;
                    self.record_time(p, bot, used);
                    return true;
                }
                BotEvent::Fatal(why) => {
                    self.orders[p] = Orders::Fatal(why);
                    self.record_time(p, bot, used);
                    return true;
                }
                BotEvent::Eof => {
                    self.orders[p] = Orders::Fatal(ended(bot.process.as_mut(), "its output ended"));
                    return true;
                }
                BotEvent::StdinClosed => {
                    self.orders[p] =
                        Orders::Fatal(ended(bot.process.as_mut(), "it closed its input"));
                    return true;
                }
            }
        }
        false
    }

    /// No reply in time (`idle` says why when it is not the time limit): the turn
    /// skipped (its reply owed, to be dropped when it comes), or the bot removed.
    fn time_out(&mut self, p: usize, bot: &mut Bot, idle: Option<String>) {
        let limit = self.limit;
        self.record_time(p, bot, limit);
        bot.report.timeouts += 1;
        bot.consecutive_timeouts += 1;
        let ms = limit.as_millis();
        self.orders[p] = match self.config.on_timeout {
            OnTimeout::Eliminate => Orders::Fatal(format!(
                "timed out: {}",
                idle.unwrap_or_else(|| format!("no reply within {ms} ms"))
            )),
            OnTimeout::Skip if bot.consecutive_timeouts >= self.config.max_consecutive_timeouts => {
                Orders::Fatal(format!(
                    "unresponsive: no reply within {ms} ms for {} turns in a row",
                    bot.consecutive_timeouts
                ))
            }
            OnTimeout::Skip => {
                bot.owed += 1;
                self.events.timeouts.push(p);
                Orders::none()
            }
        };
    }

    fn record_time(&mut self, p: usize, bot: &mut Bot, used: Duration) {
        bot.report.time_used += used;
        bot.report.cpu_measured = self.cpu_start[p].is_some();
        self.events.ms[p] = Some(used.as_millis().min(u32::MAX as u128) as u32);
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
