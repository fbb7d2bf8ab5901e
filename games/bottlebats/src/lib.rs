//! Bottle Bats, the game: rules, map formats and generator, fog of war and replays.
//!
//! Architecture invariants: the engine knows nothing of SQL, HTML or HTTP, and does no
//! I/O of its own: no processes, files, clock or `libc` (the `runner` crate plays
//! matches with real processes). The server stores and shows what the engine
//! produces; it never parses game text itself.

pub mod command;
pub mod game;
pub mod generate;
pub mod geometry;
pub mod map;
pub mod plugin;
pub mod problems;
pub mod replay;
pub mod replay_v2;
pub mod scripted;
pub mod view;

pub use game::{Game, Orders, Outcome, TurnEvents};
pub use map::{Map, MapError, Owner, Seat};
pub use replay::Replay;
