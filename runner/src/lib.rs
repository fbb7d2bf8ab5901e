//! Games with real bot processes: one match of any game played through the game
//! interface, with bots started by a [`process::Launcher`] (plain processes as the
//! 2016 arbiter ran them, or the [`sandbox`] for strangers' code). [`bottlebats`] reads
//! a Bottle Bats match back in the engine's types.
//!
//! Architecture invariant: the runner decides nothing about the game; it plays any
//! game through the game interface (`game_interface::Match`), handing it each seat's
//! answer and the runner's own notes of the turn. Everything that touches the
//! operating system (processes, pipes, clocks, cgroups, namespaces) lives in this
//! crate, never in `engine`. The server's `layers` tests hold that no module here but
//! `bottlebats.rs` names a game's crate.

pub mod bottlebats;
pub mod matches;
pub mod process;
pub mod sandbox;

pub use bottlebats::{run_match, run_match_watched, MatchResult};
pub use matches::{
    run_game, wall_share, GameResult, MatchConfig, OnTimeout, PlayerReport, RunError,
};
