//! Tournaments: the contest's final. An organizer picks the participants (their
//! versions frozen when it is made), the maps and a format; the schedule (`plan.rs`,
//! fixed by a seed) is queued as matches on the ladder's workers, which play them
//! before ranked and challenge matches, exactly once, without changing any rating
//! (`matches.ranked` is false). A Swiss tournament's next round is paired once the
//! round before has finished (`rounds.rs`). The standings (`stats.rs`) are points and
//! a strength fitted on all the games at once, each with how sure it is.
//!
//! Requests are refused with [`Refusal`], as challenges' are.

mod ask;
pub mod create;
pub mod plan;
pub mod read;
pub mod rounds;
pub mod stats;

pub use create::{cancel, create, Ask, Created, Format, Participants};
pub use read::{
    load, points_through, standings_of, Game, PointsSoFar, Progress, Row, Table, Tournament,
};
pub use rounds::{advance, advance_all};

pub use crate::challenges::{Outcome, Refusal};

/// Most participants in one tournament.
pub const MAX_PARTICIPANTS: usize = 64;
/// Most games one tournament may plan (all its rounds).
pub const MAX_GAMES: usize = 5000;
/// Most rounds of a Swiss tournament.
pub const MAX_ROUNDS: u32 = 50;
/// Most tournaments running at once.
pub const MAX_RUNNING: i64 = 4;
