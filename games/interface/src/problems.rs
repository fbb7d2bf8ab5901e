//! What went wrong for one player in a game, in words: each kind of problem with the
//! turn it first happened, so that a contestant is sent to the right turn with the
//! right message. Every game reports its players' problems in these terms
//! ([`crate::Match::problems`]); the server stores them and the error board, the bot
//! page and the match page show them, whatever the game.
//!
//! Turns are those of the state the bot was answering: the problems of turn `t` are
//! those of its reply to the view of turn `t`, next to the stderr it wrote meanwhile.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

/// The kinds of problem, in the order a contestant should read them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A command was ignored (the bot's warning).
    Warning,
    /// A reply came too late; its commands were ignored.
    Timeout,
    /// The sandbox held the bot to a limit (memory, processes).
    Limit,
    /// The bot was removed from the game for something it did (not for defeat).
    Removed,
}

impl Kind {
    /// Its name in JSON and as a CSS class.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Warning => "warning",
            Kind::Timeout => "timeout",
            Kind::Limit => "limit",
            Kind::Removed => "removed",
        }
    }

    /// A few words for the kind, for tables and summaries.
    pub fn label(self) -> &'static str {
        match self {
            Kind::Warning => "invalid command",
            Kind::Timeout => "timeout",
            Kind::Limit => "limit",
            Kind::Removed => "removed",
        }
    }
}

/// One distinct problem: its text, the first turn it happened in, and how often.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Problem {
    /// What kind of problem it is.
    pub kind: Kind,
    /// What happened, in words, as the owner is shown it.
    pub text: String,
    /// The first turn it happened in.
    pub first_turn: u32,
    /// How often it happened.
    pub count: u32,
    /// Every turn it happened in, for timeouts (a handful; the game stops a bot after a
    /// few in a row); empty for the other kinds.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub turns: Vec<u32>,
}

/// The first problem of each kind, for boards that give one line per kind: its first
/// turn, its text, and how many problems of that kind there were in all.
pub fn first_of_each_kind(problems: &[Problem]) -> Vec<Problem> {
    let mut firsts: Vec<Problem> = Vec::new();
    for p in problems {
        match firsts.iter_mut().find(|f| f.kind == p.kind) {
            Some(f) => {
                f.count += p.count;
                if p.first_turn < f.first_turn {
                    (f.first_turn, f.text) = (p.first_turn, p.text.clone());
                }
            }
            None => firsts.push(Problem {
                turns: Vec::new(),
                ..p.clone()
            }),
        }
    }
    firsts.sort_by_key(|x| (x.first_turn, x.kind));
    firsts
}

/// Problems gathered one occurrence at a time, each distinct (kind, text) once with its
/// first turn and count: linear in the occurrences, each found again through an index.
#[derive(Debug, Default)]
pub struct Collector {
    found: Vec<Problem>,
    index: HashMap<Kind, HashMap<String, usize>>,
}

impl Collector {
    /// Counts one occurrence of `text` in `turn` (turns come in order).
    pub fn add(&mut self, kind: Kind, text: &str, turn: u32) {
        let texts = self.index.entry(kind).or_default();
        let i = match texts.get(text) {
            Some(&i) => i,
            None => {
                self.found.push(Problem {
                    kind,
                    text: text.to_string(),
                    first_turn: turn,
                    count: 0,
                    turns: Vec::new(),
                });
                texts.insert(text.to_string(), self.found.len() - 1);
                self.found.len() - 1
            }
        };
        let p = &mut self.found[i];
        p.count += 1;
        if kind == Kind::Timeout {
            p.turns.push(turn);
        }
    }

    /// The problems, by first turn, then kind.
    pub fn finish(mut self) -> Vec<Problem> {
        self.found.sort_by_key(|x| (x.first_turn, x.kind));
        self.found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_collector_counts_each_distinct_problem_once_with_its_first_turn() {
        let mut c = Collector::default();
        c.add(Kind::Warning, "bad", 3);
        c.add(Kind::Timeout, "late", 4);
        c.add(Kind::Warning, "bad", 5);
        c.add(Kind::Timeout, "late", 9);
        c.add(Kind::Warning, "worse", 2);
        let found = c.finish();
        let seen: Vec<(Kind, &str, u32, u32)> = (found.iter())
            .map(|p| (p.kind, p.text.as_str(), p.first_turn, p.count))
            .collect();
        assert_eq!(
            seen,
            [
                (Kind::Warning, "worse", 2, 1),
                (Kind::Warning, "bad", 3, 2),
                (Kind::Timeout, "late", 4, 2)
            ]
        );
        assert_eq!(found[2].turns, [4, 9], "a timeout lists its turns");
        assert!(found[1].turns.is_empty());
    }
}
