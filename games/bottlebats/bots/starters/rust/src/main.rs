//! Bottle Bats starter bot (Rust, standard library only).
//!
//! Each turn the arbiter writes the state we can see on stdin (forts, roads, marches)
//! and we answer with our commands on stdout. This bot:
//!   * remembers every fort and road it has ever seen (a state only shows what is next
//!     to our own forts),
//!   * attacks from each fort the neighbour that is cheapest to take, sending just
//!     enough soldiers to win when they arrive,
//!   * moves the soldiers of forts surrounded by our own forts toward the frontier.
//!
//! Build with `cargo build --release`, or as one file: `rustc -O src/main.rs`.
//! Copy it, then make it smarter: see README.md for ideas.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::io::{self, BufRead, Write};

/// Soldiers sent on top of the exact number needed, in case the defender gets help.
const SAFETY: i64 = 2;

/// What we know about a fort: where it is, and its owner and garrison when we last saw
/// it (`seen` is the turn; forts far from ours are not in every state).
struct Fort {
    x: i64,
    y: i64,
    owner: String,
    garrison: i64,
    seen: u64,
}

/// A march on a road: `size` soldiers of `owner` walking from `origin` to
/// `destination`, arriving in `steps` steps.
#[allow(dead_code)] // not used by this simple strategy, but there for you
struct March {
    origin: String,
    destination: String,
    owner: String,
    size: i64,
    steps: i64,
}

// ------------------------------------------------------------------ reading a state

/// Reads the next line that is not blank or a comment; `None` at the end of input.
fn read_line(input: &mut impl BufRead) -> Option<String> {
    loop {
        let mut line = String::new();
        if input.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim();
        if !line.is_empty() && !line.starts_with('#') {
            return Some(line.to_string());
        }
    }
}

/// Reads one section: a header `COUNT WORD:` then COUNT lines (or `? WORD:` then lines
/// until `end`). Returns the lines split into fields; `None` at the end of input.
fn read_section(input: &mut impl BufRead) -> Option<Vec<Vec<String>>> {
    let header = read_line(input)?;
    let count = header.split_whitespace().next().unwrap_or("0").to_string();
    let mut rows = Vec::new();
    loop {
        if count != "?" && rows.len() >= count.parse::<usize>().unwrap_or(0) {
            break;
        }
        let line = read_line(input)?;
        if count == "?" && line == "end" {
            break;
        }
        rows.push(line.split_whitespace().map(String::from).collect());
    }
    Some(rows)
}

/// Steps to walk a road: the distance rounded up (3-4-5 is exactly 5).
fn road_length(a: &Fort, b: &Fort) -> i64 {
    let d2 = (a.x - b.x).pow(2) + (a.y - b.y).pow(2);
    let mut root = (d2 as f64).sqrt() as i64;
    while root * root > d2 {
        root -= 1;
    }
    while root * root < d2 {
        root += 1;
    }
    root
}

// ------------------------------------------------------------------ the bot

struct Bot {
    me: String,
    turn: u64,
    /// Everything we have ever seen, by name (a BTreeMap, so we walk it in name order).
    forts: BTreeMap<String, Fort>,
    /// Every road we have ever seen, as (a, b) with a < b.
    roads: BTreeSet<(String, String)>,
    /// This turn's marches. Enemy marches heading to our forts are the attacks we will
    /// have to survive.
    marches: Vec<March>,
}

impl Bot {
    fn neighbours(&self, name: &str) -> Vec<String> {
        let mut out = Vec::new();
        for (a, b) in &self.roads {
            if a == name {
                out.push(b.clone());
            } else if b == name {
                out.push(a.clone());
            }
        }
        out
    }

    /// Stores this turn's state in our memory.
    fn update(&mut self, forts: &[Vec<String>], roads: &[Vec<String>], marches: &[Vec<String>]) {
        for f in forts.iter().filter(|f| f.len() >= 5) {
            let fort = Fort {
                x: f[1].parse().unwrap_or(0),
                y: f[2].parse().unwrap_or(0),
                owner: f[3].clone(),
                garrison: f[4].parse().unwrap_or(0),
                seen: self.turn,
            };
            self.forts.insert(f[0].clone(), fort);
        }
        for r in roads.iter().filter(|r| r.len() >= 2) {
            let (a, b) = if r[0] < r[1] {
                (&r[0], &r[1])
            } else {
                (&r[1], &r[0])
            };
            self.roads.insert((a.clone(), b.clone()));
        }
        self.marches = marches
            .iter()
            .filter(|m| m.len() >= 5)
            .map(|m| March {
                origin: m[0].clone(),
                destination: m[1].clone(),
                owner: m[2].clone(),
                size: m[3].parse().unwrap_or(0),
                steps: m[4].parse().unwrap_or(0),
            })
            .collect();
    }

    /// True when we own the fort right now (it is in this turn's state).
    fn ours(&self, name: &str) -> bool {
        match self.forts.get(name) {
            Some(f) => f.owner == self.me && f.seen == self.turn,
            None => false,
        }
    }

    /// How many soldiers sent now from `source` take `target`: they arrive after the
    /// road's length in turns; a player's fort grows by 1 each turn meanwhile (neutral
    /// forts do not grow), and we must end with more than the defender.
    fn soldiers_needed(&self, source: &str, target: &str) -> i64 {
        let fort = &self.forts[target];
        let mut needed = fort.garrison + 1;
        if fort.owner != "neutral" {
            needed += road_length(&self.forts[source], fort) - 1;
        }
        needed + SAFETY
    }

    /// For each of our forts, how many roads away the nearest fort we do not own is,
    /// walking only through our own forts (a breadth-first search).
    fn distances_to_frontier(&self) -> HashMap<String, u32> {
        let mut dist = HashMap::new();
        let mut frontier = Vec::new();
        for name in self.forts.keys() {
            if self.ours(name) && self.neighbours(name).iter().any(|n| !self.ours(n)) {
                dist.insert(name.clone(), 1);
                frontier.push(name.clone());
            }
        }
        while !frontier.is_empty() {
            let mut next = Vec::new();
            for name in &frontier {
                let d = dist[name];
                for n in self.neighbours(name) {
                    if self.ours(&n) && !dist.contains_key(&n) {
                        dist.insert(n.clone(), d + 1);
                        next.push(n);
                    }
                }
            }
            frontier = next;
        }
        dist
    }

    /// This turn's orders: (origin, destination, size).
    fn commands(&self) -> Vec<(String, String, i64)> {
        let mut orders = Vec::new();
        let dist = self.distances_to_frontier();
        for (name, fort) in &self.forts {
            if !self.ours(name) {
                continue;
            }
            let neighbours = self.neighbours(name);
            let others: Vec<&String> = neighbours.iter().filter(|n| !self.ours(n)).collect();
            if !others.is_empty() {
                // Attack the cheapest neighbour, but only when we can win.
                let target = others
                    .iter()
                    .min_by_key(|n| (self.soldiers_needed(name, n), n.to_string()))
                    .unwrap();
                let needed = self.soldiers_needed(name, target);
                if fort.garrison >= needed {
                    orders.push((name.clone(), target.to_string(), needed));
                }
            } else if fort.garrison > 0 {
                // Surrounded by our own forts: walk toward the frontier.
                let here = dist.get(name).copied().unwrap_or(u32::MAX);
                let closer = neighbours
                    .iter()
                    .filter(|n| dist.get(*n).copied().unwrap_or(u32::MAX) < here)
                    .min();
                if let Some(n) = closer {
                    orders.push((name.clone(), n.clone(), fort.garrison));
                }
            }
        }
        orders
    }
}

fn main() {
    // The arbiter appends our player name to the command.
    let me = std::env::args().next_back().unwrap_or_default();
    let mut bot = Bot {
        me,
        turn: 0,
        forts: BTreeMap::new(),
        roads: BTreeSet::new(),
        marches: Vec::new(),
    };
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    loop {
        let forts = read_section(&mut input);
        let roads = read_section(&mut input);
        let marches = read_section(&mut input);
        let (forts, roads, marches) = match (forts, roads, marches) {
            (Some(f), Some(r), Some(m)) => (f, r, m),
            _ => return, // end of input: the game is over
        };
        bot.update(&forts, &roads, &marches);
        let orders = bot.commands();
        // The reply: a header with the count, then one `origin destination size` line
        // each. Flush, or the arbiter waits for our answer until we time out.
        let mut reply = format!("{} commands:\n", orders.len());
        for (origin, destination, size) in &orders {
            reply.push_str(&format!("{} {} {}\n", origin, destination, size));
        }
        if out.write_all(reply.as_bytes()).is_err() || out.flush().is_err() {
            return;
        }
        bot.turn += 1;
    }
}
