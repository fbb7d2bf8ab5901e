//! Bottle Bats, the game: rules, map formats and generator, fog of war, replays, and
//! the runner that plays a match with real bot processes.
//!
//! Architecture invariant: the engine knows nothing of SQL, HTML or HTTP. The server
//! stores and shows what the engine produces; it never parses game text itself.

pub mod command;
pub mod game;
pub mod generate;
pub mod geometry;
pub mod map;
pub mod process;
pub mod replay;
pub mod runner;
pub mod sandbox;
pub mod scripted;
pub mod view;

pub use game::{Game, Orders, Outcome, TurnEvents};
pub use map::{Map, MapError, Owner, Seat};
pub use replay::Replay;
