//! Seeded random maps as the original draws them (games/vindinium/rules.md §13; the
//! original's `Generator.scala`, `Traverser.scala` and `Config.random`).
//!
//! The draws come from a ChaCha8 generator seeded with the caller's seed, so a seed
//! gives the same map on every machine; they are not the original's draws (that was
//! `scala.util.Random`), but each step draws the same things for the same purpose.

use std::collections::{HashSet, VecDeque};

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use thiserror::Error;

use crate::board::{Board, Tile};
use crate::map::Map;
use crate::pos::Pos;

/// How many times a whole map, and within one map a spawn square, is drawn before
/// giving up (the original's `maxAttempts`).
pub const MAX_ATTEMPTS: usize = 100;

/// The parameters of a random map (the original's `Config.GenMap`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GenConfig {
    /// Rows and columns; even, at least 8.
    pub size: usize,
    /// Share of wood among the squares of the drawn quadrant, in percent.
    pub wall_percent: u32,
    /// Share of mines among the squares of the drawn quadrant, in percent.
    pub mine_percent: u32,
}

impl GenConfig {
    /// The original's `Config.random` (used by its arena): size 10 to 28 in steps of 2,
    /// wood 10–41 %, mines 3–9 %.
    pub fn random(rng: &mut impl Rng) -> GenConfig {
        GenConfig {
            size: 10 + rng.gen_range(0..10) * 2,
            wall_percent: 10 + rng.gen_range(0..32),
            mine_percent: 3 + rng.gen_range(0..7),
        }
    }
}

/// Why no map came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum GenError {
    /// The size is below 8.
    #[error("board size {0} is too small (at least 8)")]
    TooSmall(usize),
    /// The size is odd.
    #[error("board size {0} is odd")]
    Odd(usize),
    /// Every attempt failed; the reason of the last one.
    #[error("no map after {MAX_ATTEMPTS} attempts: {0}")]
    GaveUp(&'static str),
}

/// A map of the original arena's random parameters, from `seed`.
pub fn generate(seed: u64) -> Result<Map, GenError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let config = GenConfig::random(&mut rng);
    generate_with(&config, &mut rng)
}

/// A map of `config` drawn with `rng` (the original's `Generator.apply`): a quadrant of
/// random tiles mirrored on both axes, a spawn square for hero 1 that reaches its two
/// mirrors, every square the spawn cannot reach turned to wood (but mines next to a
/// reachable square), at least one mine, and four mirrored taverns that cut nothing
/// off. Heroes 2, 3 and 4 start on the spawn mirrored across the rows, both axes and
/// the columns. A failed attempt starts again, up to [`MAX_ATTEMPTS`] times.
pub fn generate_with(config: &GenConfig, rng: &mut impl Rng) -> Result<Map, GenError> {
    if config.size < 8 {
        return Err(GenError::TooSmall(config.size));
    }
    if config.size % 2 != 0 {
        return Err(GenError::Odd(config.size));
    }
    let mut reason = "";
    for _ in 0..MAX_ATTEMPTS {
        match attempt(config, rng) {
            Ok(map) => return Ok(map),
            Err(why) => reason = why,
        }
    }
    Err(GenError::GaveUp(reason))
}

fn attempt(config: &GenConfig, rng: &mut impl Rng) -> Result<Map, &'static str> {
    let draft = draw_board(config, rng);
    let spawn = spawn_pos(&draft, rng)?;
    let board = fill_board(&draft, spawn);
    if board.count_mines() == 0 {
        return Err("board has no mine");
    }
    let board = place_taverns(&board, spawn, rng)?;
    let starts = [
        spawn,
        board.mirror_x(spawn),
        board.mirror_xy(spawn),
        board.mirror_y(spawn),
    ];
    if !all_reachable(&board, &starts) {
        // Not in the original, whose tavern check makes this impossible but in
        // contrived cases; a guard so that every map handed out is playable.
        return Err("a square is cut off");
    }
    Ok(Map { board, starts })
}

/// The original's `generateBoard`: a random quadrant (`sector`), each row followed by
/// its reverse, the rows followed by their reverse (`replicate`).
fn draw_board(config: &GenConfig, rng: &mut impl Rng) -> Board {
    let half = config.size / 2;
    let quadrant: Vec<Tile> = (0..half * half)
        .map(|_| {
            let roll = rng.gen_range(0..100);
            if roll < config.mine_percent {
                Tile::Mine(None)
            } else if roll < config.mine_percent + config.wall_percent {
                Tile::Wall
            } else {
                Tile::Air
            }
        })
        .collect();
    let rows: Vec<Vec<Tile>> = quadrant
        .chunks(half)
        .map(|row| row.iter().chain(row.iter().rev()).copied().collect())
        .collect();
    let tiles = rows
        .iter()
        .chain(rows.iter().rev())
        .flatten()
        .copied()
        .collect();
    Board::new(config.size, tiles).expect("size × size tiles")
}

/// The original's `generateSpawnPos`: a square of the top left `size/2 - 2` ×
/// `size/2 - 2`, open, from which both its mirrors can be reached.
fn spawn_pos(board: &Board, rng: &mut impl Rng) -> Result<Pos, &'static str> {
    let range = board.size() / 2 - 2;
    for _ in 0..MAX_ATTEMPTS {
        let pos = Pos::new(
            rng.gen_range(0..range) as i32,
            rng.gen_range(0..range) as i32,
        );
        if board.get(pos) == Some(Tile::Air) {
            let reach: HashSet<Pos> = traverse(board, pos).into_iter().collect();
            if reach.contains(&board.mirror_x(pos)) && reach.contains(&board.mirror_y(pos)) {
                return Ok(pos);
            }
        }
    }
    Err("can't find a good starting position")
}

/// The original's `fillBoard`: what `spawn` cannot reach becomes wood, but for mines
/// next to a reachable square.
fn fill_board(board: &Board, spawn: Pos) -> Board {
    let reach: HashSet<Pos> = traverse(board, spawn).into_iter().collect();
    let mut out = board.clone();
    for pos in board.positions().filter(|p| !reach.contains(p)) {
        let keep = matches!(board.get(pos), Some(Tile::Mine(_)))
            && pos.neighbors().iter().any(|n| reach.contains(n));
        if !keep {
            out.set(pos, Tile::Wall);
        }
    }
    out
}

/// The original's `placeTaverns`: candidates are the squares reachable from the spawn
/// on the original's `Board.section`, shuffled; the first whose four mirrors, made
/// taverns, take exactly four squares from those the spawn reaches and leave every
/// reachable mine reachable is taken.
fn place_taverns(board: &Board, spawn: Pos, rng: &mut impl Rng) -> Result<Board, &'static str> {
    let reachable = traverse(board, spawn).len() as i64;
    let mines = reachable_mines(board);
    let mut candidates = traverse(&section(board), spawn);
    candidates.shuffle(rng);
    for pos in candidates {
        let mut with = board.clone();
        for p in [
            pos,
            board.mirror_x(pos),
            board.mirror_xy(pos),
            board.mirror_y(pos),
        ] {
            with.set(p, Tile::Tavern);
        }
        if traverse(&with, spawn).len() as i64 == reachable - 4 && reachable_mines(&with) == mines {
            return Ok(with);
        }
    }
    Err("no place found for a tavern")
}

/// The original's `Board.section`, faithfully: the left half of every row (size × size/2
/// tiles), read as a square board of side ⌊√(size²/2)⌋ — so its squares are not where
/// they were, which only changes which tavern squares get tried.
fn section(board: &Board) -> Board {
    let size = board.size();
    let tiles: Vec<Tile> = board
        .tiles()
        .iter()
        .enumerate()
        .filter(|(i, _)| i % size < size / 2)
        .map(|(_, t)| *t)
        .collect();
    let side = isqrt(tiles.len());
    Board::new(side, tiles[..side * side].to_vec()).expect("side × side tiles")
}

fn isqrt(n: usize) -> usize {
    let mut r = (n as f64).sqrt() as usize;
    while r * r > n {
        r -= 1;
    }
    while (r + 1) * (r + 1) <= n {
        r += 1;
    }
    r
}

/// The original's `nbReachableMines`: mines with an open square next to them.
fn reachable_mines(board: &Board) -> usize {
    board
        .positions()
        .filter(|p| matches!(board.get(*p), Some(Tile::Mine(_))))
        .filter(|p| {
            p.neighbors()
                .iter()
                .any(|n| board.get(*n) == Some(Tile::Air))
        })
        .count()
}

/// The original's `Traverser`: `from` and every open square reachable from it through
/// open squares, breadth first.
pub fn traverse(board: &Board, from: Pos) -> Vec<Pos> {
    let mut seen = HashSet::from([from]);
    let mut queue = VecDeque::from([from]);
    let mut out = Vec::new();
    while let Some(pos) = queue.pop_front() {
        out.push(pos);
        for next in pos.neighbors() {
            if board.get(next) == Some(Tile::Air) && seen.insert(next) {
                queue.push_back(next);
            }
        }
    }
    out
}

/// Every start is open, and every open square is reachable from the first.
fn all_reachable(board: &Board, starts: &[Pos; 4]) -> bool {
    let reach: HashSet<Pos> = traverse(board, starts[0]).into_iter().collect();
    starts
        .iter()
        .all(|s| board.get(*s) == Some(Tile::Air) && reach.contains(s))
        && board
            .positions()
            .filter(|p| board.get(*p) == Some(Tile::Air))
            .all(|p| reach.contains(&p))
}
