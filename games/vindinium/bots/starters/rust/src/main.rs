//! Bottle Bats Vindinium starter bot (Rust, standard library only).
//!
//! Before each of our moves the arbiter writes one line of JSON on stdin, the game as
//! our hero sees it, and we answer one line on stdout: Stay, North, South, East or
//! West. This bot walks to the nearest mine it does not own and takes it; when its
//! life is low it walks to the nearest tavern and drinks. `json.rs` reads the JSON.
//!
//! Build with `cargo build --release`, or as the platform does:
//! `rustc -O --edition 2021 -o bot src/main.rs` (it finds `src/json.rs` by itself).
//! Run: `./bot NAME`. Copy it, then make it smarter: see README.md for ideas.

mod json;

use std::collections::VecDeque;
use std::io::{self, BufRead, Write};

/// The four directions: answer, row change, column change. `x` is the row: North is
/// x - 1.
const DIRS: [(&str, i64, i64); 4] = [
    ("North", -1, 0),
    ("South", 1, 0),
    ("East", 0, 1),
    ("West", 0, -1),
];
/// Taking a mine costs 20 life; with 20 or less, the hero dies.
const MINE_LIFE: i64 = 20;
/// At or below this, go and drink.
const LOW_LIFE: i64 = 30;
/// A beer costs 2 gold, for 50 life.
const BEER_GOLD: i64 = 2;

/// Breadth-first search over open ground ("  ") from `start` to a square next to a
/// tile that `wanted` accepts: (first step, steps including the final bump), or None
/// when no such tile can be reached. Heroes, wood, mines and taverns cannot be walked
/// through: walking into a mine or a tavern is how you use it.
fn nearest(
    tiles: &[&str],
    size: i64,
    start: (i64, i64),
    wanted: impl Fn(&str) -> bool,
) -> Option<(&'static str, i64)> {
    let mut seen = vec![false; (size * size) as usize];
    seen[(start.0 * size + start.1) as usize] = true;
    let mut queue = VecDeque::from([(start.0, start.1, None::<&'static str>, 0)]);
    while let Some((x, y, first, dist)) = queue.pop_front() {
        for (name, dx, dy) in DIRS {
            let (nx, ny) = (x + dx, y + dy);
            if nx < 0 || nx >= size || ny < 0 || ny >= size || seen[(nx * size + ny) as usize] {
                continue;
            }
            seen[(nx * size + ny) as usize] = true;
            let tile = tiles[(nx * size + ny) as usize];
            let first = first.unwrap_or(name);
            if wanted(tile) {
                return Some((first, dist + 1));
            }
            if tile == "  " {
                queue.push_back((nx, ny, Some(first), dist + 1));
            }
        }
    }
    None
}

/// Our move for one state: {"game": {...}, "hero": {...}}.
fn decide(state: &json::Value) -> &'static str {
    let (game, hero) = (&state["game"], &state["hero"]);
    let size = game["board"]["size"].num();
    let text = game["board"]["tiles"].str();
    // Two characters a square, row by row: "  " open, "##" wood, "[]" tavern,
    // "$-" neutral mine, "$1".."$4" a hero's mine, "@1".."@4" a hero.
    let tiles: Vec<&str> = (0..text.len() / 2)
        .map(|i| text.get(2 * i..2 * i + 2).unwrap_or("##"))
        .collect();
    if size <= 0 || tiles.len() as i64 != size * size {
        return "Stay";
    }
    let start = (hero["pos"]["x"].num(), hero["pos"]["y"].num());
    let own = format!("${}", hero["id"].num());
    let mine = nearest(&tiles, size, start, |t| t.starts_with('$') && t != own);
    let tavern = nearest(&tiles, size, start, |t| t == "[]");
    let life = hero["life"].num();
    // Thirst costs 1 life a move, so the walk to the mine costs its length too.
    let thirsty = life <= LOW_LIFE || mine.map_or(false, |(_, steps)| life - steps <= MINE_LIFE);
    match (tavern, mine) {
        (Some((first, _)), _) if hero["gold"].num() >= BEER_GOLD && (thirsty || mine.is_none()) => {
            first
        }
        (_, Some((first, _))) => first,
        _ => "Stay",
    }
}

fn main() {
    // The first argument is our hero's name; the state tells us our hero's id as well.
    let stdin = io::stdin();
    let mut out = io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = match line {
            Ok(line) => line,
            Err(_) => break,
        };
        if line.trim().is_empty() {
            continue;
        }
        let answer = match json::parse(&line) {
            Ok(state) => decide(&state),
            Err(e) => {
                eprintln!("{e}");
                "Stay"
            }
        };
        // Flush, or the arbiter waits for our answer until we time out.
        if writeln!(out, "{answer}").is_err() || out.flush().is_err() {
            break;
        }
    }
}
