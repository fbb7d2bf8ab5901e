//! What a game is to the platform, the first layer of the game interface: how its
//! replies are framed ([`Framing`]), its defaults, the game itself ([`GameKind`]), one
//! match in progress ([`Match`]) and the games a server hosts ([`Registry`]).
//! docs/adding-a-game.md says how a new game joins.
//!
//! Architecture invariant: pure, like the games. No I/O, no clock, no threads; the
//! runner plays a [`Match`] with real processes and decides nothing about the game: it
//! cuts replies with the game's [`Framing`], hands them to [`Match::step`] with its own
//! observations ([`RunnerNotes`]), and reads the views, outcome, statistics and replay
//! the match gives.

#![deny(missing_docs)]

pub mod conformance;
mod describe;
mod framing;
mod game;
mod http;
pub mod problems;
mod registry;

pub use describe::{Defaults, Description, LogFormat, Maps, Order, Smoke, Word};
pub use framing::{is_ignored, parse_header, Count, Cutter, Framing};
pub use game::{
    number, Answer, GameKind, GenerateError, MapInfo, Match, Numbers, Outcome, RunnerNotes, Seat,
    SetupError, StepReport, Stream,
};
pub use http::{Addresses, HttpApi, Refusals};
pub use registry::{DuplicateName, Registry};
