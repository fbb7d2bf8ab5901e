//! Vindinium, the 2014 bot game of four heroes, gold mines and taverns, with the rules
//! of the original server (github.com/ornicar/vindinium, MIT) as it plays them:
//! games/vindinium/rules.md says each rule in our words, with the original file it comes
//! from and the test that holds it.
//!
//! Architecture invariant: pure. No files, processes, threads, clock or network; the
//! only randomness is the map generator's, from a seed passed in. Same state and move,
//! same next state.
//!
//! - `pos`: squares (`x` is the row) and directions, and reading a bot's answer;
//! - `board`, `map`: tiles, the map text format and the six original maps;
//! - `hero`, `game`, `arbiter`: the state, one move (`Game::step`), outcome and stats;
//! - `view`: the JSON a bot is sent;
//! - `generate`: seeded random maps;
//! - `plugin`: the game as the platform's game interface sees it, and its replay.

mod arbiter;
pub mod board;
pub mod game;
pub mod generate;
pub mod hero;
pub mod http;
pub mod map;
pub mod plugin;
pub mod pos;
mod view;

pub use arbiter::StepError;
pub use board::{Board, HeroId, Tile};
pub use game::{Game, HeroStats, Outcome, Status, DEFAULT_MAX_TURNS};
pub use generate::{generate, generate_with, GenConfig, GenError};
pub use hero::Hero;
pub use map::{Map, MapError, MAX_SIZE, ORIGINAL_MAPS};
pub use pos::{Dir, Move, Pos};
