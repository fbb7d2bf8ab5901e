//! The engine: one match of any game with real bot processes, played through the game
//! interface, with bots started by a [`process::Launcher`] (plain processes as the
//! 2016 arbiter ran them, or the [`sandbox`] for strangers' code).
//!
//! Architecture invariant: the runner decides nothing about the game; it plays any
//! game through the game interface (`game_interface::Match`), handing it each seat's
//! answer and the runner's own notes of the turn. Everything that touches the
//! operating system (processes, pipes, clocks, cgroups, namespaces) lives in this
//! crate, never in a game's. The engine depends on no game (its tests play Bottle Bats
//! and Vindinium as dev-dependencies); the server's `layers` tests hold that no module
//! here names one.

pub mod cause;
pub mod matches;
pub mod process;
pub mod sandbox;

pub use matches::{run_game, GameResult, MatchConfig, OnTimeout, PlayerReport, RunError};
