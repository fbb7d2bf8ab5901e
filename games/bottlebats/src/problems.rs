//! What went wrong for one player in a game, in words, read from its replay: each kind
//! of problem with the turn it first happened, so that a contestant is sent to the right
//! turn with the right message.
//!
//! Turns are those of the state the bot was answering: the problems of turn `t` are in
//! the events of the replay's row `t` (what followed the snapshot of turn `t`), next to
//! the stderr the bot wrote while it answered that state.

use std::collections::HashMap;

pub use game_interface::problems::{first_of_each_kind, Collector, Kind, Problem};

use crate::game::MAX_REPORTED;
use crate::replay::{Replay, DEFEATED};

/// The text of a timeout, the same for all.
pub const TIMEOUT: &str = "no reply within the turn's time limit: its commands were ignored";

/// The problems of player `p` in `replay`: each distinct warning, limit and removal
/// with its first turn and count (a warning's count is 1: see [`counted`]), and the
/// timeouts as one problem listing their turns; by first turn, then kind. Linear in the
/// replay's events: each problem is found again through an index, not a scan.
pub fn of_player(replay: &Replay, p: usize) -> Vec<Problem> {
    let mut found = Collector::default();
    for (t, turn) in replay.turns.iter().enumerate() {
        let (t, ev) = (t as u32, &turn.events);
        let warnings = ev
            .warnings
            .iter()
            .filter(|w| w.0 == p)
            .map(|w| (Kind::Warning, w.1.as_str()));
        let timeouts = ev
            .timeouts
            .iter()
            .filter(|&&s| s == p)
            .map(|_| (Kind::Timeout, TIMEOUT));
        let limits = ev
            .limits
            .iter()
            .filter(|l| l.0 == p)
            .map(|l| (Kind::Limit, l.1.as_str()));
        let removed = ev.removed.iter().filter(|r| r.0 == p && r.1 != DEFEATED);
        let removed = removed.map(|r| (Kind::Removed, r.1.as_str()));
        for (kind, text) in warnings.chain(timeouts).chain(limits).chain(removed) {
            found.add(kind, text, t);
        }
    }
    found.finish()
}

/// The problems of player `p` as [`of_player`] reads them, each warning counted as often
/// as its text happened (`counts`: the replay reports a warning text once, the first
/// time; see `game::Player::warning_counts`). Warnings beyond the texts a game keeps
/// (`total` counts them all) are one more problem that says how many there were.
pub fn counted(
    replay: &Replay,
    p: usize,
    counts: &HashMap<String, u64>,
    total: u64,
) -> Vec<Problem> {
    let mut found = of_player(replay, p);
    for x in found.iter_mut().filter(|x| x.kind == Kind::Warning) {
        if let Some(&n) = counts.get(&x.text) {
            x.count = n as u32;
        }
    }
    let more = total.saturating_sub(counts.values().sum());
    let last = found
        .iter()
        .filter(|x| x.kind == Kind::Warning)
        .map(|x| x.first_turn)
        .max();
    if let (true, Some(from)) = (more > 0, last) {
        found.push(Problem {
            kind: Kind::Warning,
            text: format!(
                "{more} more invalid commands with other texts, from turn {from} on (a game \
                 keeps the first {MAX_REPORTED} distinct texts of each player)"
            ),
            first_turn: from,
            count: more.min(u32::MAX as u64) as u32,
            turns: Vec::new(),
        });
        found.sort_by_key(|x| (x.first_turn, x.kind));
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::{Events, Turn};

    fn replay(events: Vec<Events>) -> Replay {
        let turns = events
            .into_iter()
            .map(|events| Turn {
                events,
                ..Turn::default()
            })
            .collect();
        let mut r = Replay::from_json(
            r#"{"format":"bottlebats-replay","version":1,"map":{"forts":[],"roads":[]},
                "players":["a","b"],"max_steps":500,"turns":[],"result":null}"#,
        )
        .unwrap();
        r.turns = turns;
        r
    }

    /// The scenario of a real report: a bad command every 15 turns from turn 60, a late
    /// reply at 70, a crash at 95. Each kind keeps its own first turn and message.
    #[test]
    fn each_kind_of_problem_has_its_own_first_turn_and_message() {
        let mut events = vec![Events::default(); 100];
        for t in (60..100).step_by(15) {
            events[t].warnings = vec![(0, format!("ignored `x y {t}`: there is no fort `x`"))];
        }
        events[61].warnings = vec![(1, "someone else's".into())];
        events[70].timeouts = vec![0];
        events[80].timeouts = vec![0, 1];
        events[95].removed = vec![(0, "its output ended: the bot exited with status 1".into())];
        events[96].removed = vec![(1, DEFEATED.into())];
        let r = replay(events);
        let all = of_player(&r, 0);
        assert_eq!(
            all.len(),
            5,
            "three distinct warnings, the timeouts, the removal"
        );
        assert_eq!((all[0].kind, all[0].first_turn), (Kind::Warning, 60));
        let timeouts = all.iter().find(|p| p.kind == Kind::Timeout).unwrap();
        assert_eq!(timeouts.turns, vec![70, 80]);
        let firsts = first_of_each_kind(&all);
        let line = |k: Kind| firsts.iter().find(|p| p.kind == k).unwrap();
        assert_eq!(line(Kind::Warning).first_turn, 60);
        assert_eq!(line(Kind::Warning).count, 3);
        assert!(line(Kind::Warning).text.contains("x y 60"));
        assert_eq!(
            (line(Kind::Timeout).first_turn, line(Kind::Timeout).count),
            (70, 2)
        );
        assert_eq!(line(Kind::Removed).first_turn, 95);
        assert!(line(Kind::Removed).text.contains("status 1"));
        // Defeat is not a problem of the bot's.
        assert!(of_player(&r, 1).iter().all(|p| p.kind != Kind::Removed));
    }

    #[test]
    fn a_repeated_warning_is_one_problem_with_its_count() {
        let mut events = vec![Events::default(); 10];
        for e in events.iter_mut().skip(3) {
            e.warnings = vec![(0, "ignored `a b 1`: no road from `a` to `b`".into())];
        }
        let all = of_player(&replay(events), 0);
        assert_eq!(all.len(), 1);
        assert_eq!((all[0].first_turn, all[0].count), (3, 7));
    }
}
