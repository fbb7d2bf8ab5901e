//! The conformance suite every game of the registry passes, as OpenSpiel's
//! `RandomSimTest`: whole matches on generated maps (or the game's board), every seat
//! played by random answers ([`GameKind::sample_reply`]) mixed with fuzzed ones
//! (garbage lines, huge and empty replies, silence, crashes), to the end. What it
//! holds, for every match:
//!
//! - the turn count goes up every step (by more than one where the game plays a
//!   seat's turns by itself, as Vindinium plays a crashed hero's) and never past the
//!   limit, and the match ends;
//! - the seats asked are seats still playing, and a removed seat is never asked again;
//! - the live rows, gathered as the match is played, are the stored replay's rows
//!   ([`GameKind::stored_stream`]), with the same head, one row per board;
//! - the statistics carry the names the description declares, for every seat;
//! - the ranks are valid (1 the best, ties sharing a rank, the next rank skipped);
//! - the stored replay reads back through the game's own log writer
//!   ([`GameKind::write_log`]);
//! - the problems agree with the warnings: every seat warned has a warning problem, the
//!   problems never count more warnings than the match did, and every silence the
//!   runner noted is a timeout problem of that seat.
//!
//! Pure and deterministic: the same seed plays the same matches.

use crate::describe::Maps;
use crate::game::{Answer, GameKind, RunnerNotes, Seat};
use crate::problems::Kind;

/// What a run of the suite played.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Matches played to the end.
    pub matches: usize,
    /// Turns played in all.
    pub turns: u64,
}

/// A small deterministic generator (SplitMix64): the suite needs no crate for it.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }
}

/// Lines a fuzzed reply is made of: what a broken bot writes.
const GARBAGE: &[&str] = &[
    "",
    " ",
    "#",
    "?",
    "end",
    "-1",
    "99999999999999999999",
    "0 commands:",
    "3 commands:",
    "? commands:",
    "North",
    "stay",
    "{\"dir\": \"North\"}",
    "\u{0}\u{7f}",
    "é🦇\u{200b}",
    "a b c d e f g h i j k l m n o p",
    "null",
];

/// A reply a broken bot might give: a few garbage lines, words of its view, or a
/// long line.
fn fuzzed(rng: &mut Rng, view: &[u8]) -> Vec<String> {
    let words: Vec<&str> = std::str::from_utf8(view)
        .unwrap_or("")
        .split_whitespace()
        .take(200)
        .collect();
    let n = rng.below(6) as usize;
    (0..n)
        .map(|_| match rng.below(4) {
            0 if !words.is_empty() => {
                let k = 1 + rng.below(4) as usize;
                (0..k)
                    .map(|_| words[rng.below(words.len() as u64) as usize])
                    .collect::<Vec<_>>()
                    .join(" ")
            }
            1 => "x".repeat(1 + rng.below(5000) as usize),
            _ => GARBAGE[rng.below(GARBAGE.len() as u64) as usize].to_string(),
        })
        .collect()
}

/// Plays `matches` matches of `kind` to the end with random and fuzzed answers and
/// checks each as the module says; the first broken promise is the error, naming the
/// match (its seed) and the turn.
pub fn check(kind: &dyn GameKind, matches: usize, seed: u64) -> Result<Report, String> {
    let d = kind.describe();
    let (fewest, most) = d.defaults.seats;
    if fewest == 0 || fewest > most {
        return Err(format!("{}: seats {fewest}..={most}", d.name));
    }
    let mut report = Report::default();
    for i in 0..matches {
        let seats = fewest + i % (most - fewest + 1);
        let match_seed = seed.wrapping_add(i as u64);
        let turns = play_one(kind, seats, match_seed)
            .map_err(|e| format!("{} (seed {match_seed}, {seats} seats): {e}", d.name))?;
        report.matches += 1;
        report.turns += u64::from(turns);
    }
    Ok(report)
}

/// One match of [`check`]; its turns.
fn play_one(kind: &dyn GameKind, seats: usize, seed: u64) -> Result<u32, String> {
    let d = kind.describe();
    let map = match d.maps {
        Maps::Board => kind.generate(0, seats),
        Maps::Files { .. } => kind.generate(seed, seats),
    }
    .map_err(|e| format!("generating a map: {e}"))?;
    let info = kind
        .map_info(&map)
        .map_err(|e| format!("a generated map: {e}"))?;
    if info.seats != seats {
        return Err(format!("a map for {seats} seats has {}", info.seats));
    }
    let players: Vec<String> = (1..=seats).map(|s| format!("player{s}")).collect();
    let limit = d.defaults.max_turns;
    let mut m = kind
        .setup(&map, &players, limit)
        .map_err(|e| format!("setting up: {e}"))?;
    let mut rng = Rng::new(seed ^ 0x5EED);
    let mut rows = m.rows_since(0);
    let head = m.replay_head();
    let mut removed = vec![false; seats];
    let mut warned = vec![0u64; seats];
    let mut silences = vec![0u32; seats];
    while !m.is_over() {
        let turn = m.turn();
        if turn >= limit {
            return Err(format!(
                "turn {turn}: still playing at the limit of {limit}"
            ));
        }
        let asked = m.to_answer();
        if asked.is_empty() {
            return Err(format!("turn {turn}: not over, and nobody is asked"));
        }
        if let Some(&s) = asked.iter().find(|&&s| s >= seats || removed[s]) {
            return Err(format!(
                "turn {turn}: seat {s} is asked, and it is not playing"
            ));
        }
        let mut answers: Vec<(Seat, Answer)> = Vec::new();
        let mut notes = RunnerNotes {
            ms: vec![None; seats],
            ..RunnerNotes::default()
        };
        for &s in &asked {
            let answer = match rng.below(100) {
                0..=74 => Answer::Lines(kind.sample_reply(&*m, s, rng.next_u64())),
                75..=94 => Answer::Lines(fuzzed(&mut rng, &m.view(s))),
                95..=98 => {
                    notes.timeouts.push(s);
                    silences[s] += 1;
                    Answer::NoReply
                }
                _ => Answer::Crashed("the conformance suite's crash".into()),
            };
            if matches!(answer, Answer::Lines(_)) {
                notes.ms[s] = Some(rng.below(50) as u32);
            }
            answers.push((s, answer));
        }
        let report = m.step(&answers, &notes);
        if m.turn() <= turn {
            return Err(format!("a step from turn {turn} led to turn {}", m.turn()));
        }
        for (s, _) in &report.warnings {
            warned[*s] += 1;
        }
        for (s, _) in &report.removals {
            removed[*s] = true;
        }
        // The live rows as a viewer gets them: in pieces, at random moments.
        if rng.below(7) == 0 || m.is_over() {
            rows.extend(m.rows_since(rows.len()));
        }
    }
    let turns = m.turn();
    if turns > limit {
        return Err(format!("{turns} turns played, over the limit of {limit}"));
    }
    rows.extend(m.rows_since(rows.len()));
    if rows.len() != turns as usize + 1 {
        return Err(format!("{} live rows for {turns} turns", rows.len()));
    }
    let stored = m.replay_json();
    let stream = kind
        .stored_stream(&stored)
        .map_err(|e| format!("the stored replay's stream: {e}"))?;
    if stream.head != head {
        return Err("the stored replay's head is not the live head".into());
    }
    if let Some(t) =
        (0..rows.len().max(stream.rows.len())).find(|&t| rows.get(t) != stream.rows.get(t))
    {
        return Err(format!(
            "live row {t} is not the stored replay's ({} live rows, {} stored): {} against {}",
            rows.len(),
            stream.rows.len(),
            rows.get(t).map_or("none", |r| cut(r)),
            stream.rows.get(t).map_or("none", |r| cut(r)),
        ));
    }
    let mut log = Vec::new();
    kind.write_log(&stored, &mut log)
        .map_err(|e| format!("the log of the stored replay: {e}"))?;
    if log.is_empty() {
        return Err("the log of the stored replay is empty".into());
    }
    let stats = m.stats();
    if stats.len() != seats {
        return Err(format!("statistics for {} seats of {seats}", stats.len()));
    }
    for (s, numbers) in stats.iter().enumerate() {
        let names: Vec<&str> = numbers.iter().map(|(n, _)| *n).collect();
        if names != d.stats {
            return Err(format!(
                "seat {s}'s statistics are {names:?}, not {:?}",
                d.stats
            ));
        }
    }
    let ranks = m.outcome().ranks;
    if ranks.len() != seats {
        return Err(format!("{} ranks for {seats} seats", ranks.len()));
    }
    for (s, &r) in ranks.iter().enumerate() {
        let better = ranks.iter().filter(|&&o| o < r).count() as u32;
        if r != better + 1 {
            return Err(format!(
                "seat {s} is ranked {r} with {better} seats ahead: {ranks:?}"
            ));
        }
    }
    let warnings = m.warnings();
    for s in 0..seats {
        let problems = m.problems(s);
        let counted: u64 = (problems.iter())
            .filter(|p| p.kind == Kind::Warning)
            .map(|p| u64::from(p.count))
            .sum();
        if warned[s] > 0 && counted == 0 {
            return Err(format!(
                "seat {s} was warned {} times and has no warning problem",
                warned[s]
            ));
        }
        if counted > warnings[s] {
            return Err(format!(
                "seat {s}'s problems count {counted} warnings of {}",
                warnings[s]
            ));
        }
        let timeouts: u32 = (problems.iter())
            .filter(|p| p.kind == Kind::Timeout)
            .map(|p| p.count)
            .sum();
        if timeouts != silences[s] {
            return Err(format!(
                "seat {s} was silent {} times and has {timeouts} timeouts",
                silences[s]
            ));
        }
    }
    Ok(turns)
}

/// A row cut to a length that fits in a message.
fn cut(row: &str) -> &str {
    match row.char_indices().nth(300) {
        Some((i, _)) => &row[..i],
        None => row,
    }
}

#[cfg(test)]
mod tests {
    use super::Rng;

    #[test]
    fn the_generator_is_deterministic_and_spread() {
        let (mut a, mut b) = (Rng::new(7), Rng::new(7));
        let xs: Vec<u64> = (0..100).map(|_| a.below(10)).collect();
        let ys: Vec<u64> = (0..100).map(|_| b.below(10)).collect();
        assert_eq!(xs, ys);
        assert!((0..10).all(|d| xs.contains(&d)), "{xs:?}");
    }
}
