//! Bottle Bats with real bot processes: one match played through the pure rules of the
//! `engine` crate, with bots started by a [`process::Launcher`] (plain processes as the
//! 2016 arbiter ran them, or the [`sandbox`] for strangers' code).
//!
//! Architecture invariant: the runner decides nothing about the game; it plays any
//! game through the game interface (`game_interface::Match`), handing it each seat's
//! answer and the runner's own notes of the turn. Everything that touches the
//! operating system (processes, pipes, clocks, cgroups, namespaces) lives in this
//! crate, never in `engine`.

pub mod matches;
pub mod process;
pub mod sandbox;

pub use matches::{
    run_game, run_match, run_match_watched, GameResult, MatchConfig, MatchResult, OnTimeout,
    PlayerReport, RunError,
};
