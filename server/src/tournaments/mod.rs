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

pub use create::{cancel, create, Ask, Created, Format, Part, Participants, Pointed};
pub use read::{
    load, points_through, standings_of, Game, PointsSoFar, Progress, Row, Table, Tournament,
};
pub use rounds::{advance, advance_all};

use crate::ids::BotId;

/// What the standings say of a participant whose owner deleted the account.
pub const WITHDRAWN_DELETED: &str = "its owner deleted the account";
/// What they say of one an organizer disabled (the reason is its owner's to read).
pub const WITHDRAWN_DISABLED: &str = "disabled by an organizer";

/// Withdraws `bots` from the tournaments running, saying why (`reason`, for
/// everyone): they are paired no more, and their games still queued there are voided
/// (so that a round robin's or a round's end does not wait for them). Their games
/// played so far count as they were.
pub async fn withdraw(
    conn: &mut sqlx::PgConnection,
    bots: &[BotId],
    reason: &str,
) -> sqlx::Result<()> {
    let ids: Vec<i64> = bots.iter().map(|b| b.0).collect();
    sqlx::query!(
        "update tournament_participants p set withdrawn = $2
         from tournaments t
         where t.id = p.tournament_id and t.status = 'running' and p.bot_id = any($1)
           and p.withdrawn is null",
        &ids,
        reason
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query!(
        "update matches m set status = 'void', void_reason = 'a player was withdrawn: ' || $2
         where m.status = 'queued' and m.tournament_id is not null and exists (
             select 1 from match_players p where p.match_id = m.id and p.bot_id = any($1))",
        &ids,
        reason
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}

pub use crate::challenges::{Outcome, Refusal};

/// Most participants in one tournament.
pub const MAX_PARTICIPANTS: usize = 64;
/// Most games one tournament may plan (all its rounds).
pub const MAX_GAMES: usize = 5000;
/// Most rounds of a Swiss tournament.
pub const MAX_ROUNDS: u32 = 50;
/// Most tournaments running at once.
pub const MAX_RUNNING: i64 = 4;
