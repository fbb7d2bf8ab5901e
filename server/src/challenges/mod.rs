//! Challenges and A/B tests: unranked matches a bot's owner asks for.
//!
//! A challenge plays up to [`MAX_GAMES`] games of the owner's bot (its active version
//! or another built one) against chosen opponents (by name, the top K, or the K
//! nearest in rating) on chosen or random maps, seats rotating (`plan.rs`). An A/B
//! test plays a candidate (B) and the active version (A) in pairs of games that differ
//! only in the version, and compares them (`stats.rs`).
//!
//! Their matches go through the ladder's queue and workers with `challenge_id` set:
//! the workers give them at most [`crate::worker::CHALLENGE_SHARE`] of their time while
//! ranked matches wait, and record them without touching ratings or records. Owners
//! are held to [`Limits`]; organizers can turn challenges off
//! ([`crate::ranker::set_challenges`]).

mod create;
pub mod plan;
mod read;
pub mod stats;

pub use create::{
    create_abtest, create_challenge, more_abtest_games, split_names, AbAsk, Ask, Opponents,
};
pub use read::{load, recent, Challenge, Game, Listed, Side, Status, Summary, Tally};

use sqlx::PgConnection;

use crate::ids::{BotId, UserId, VersionId};

/// Most games of one challenge.
pub const MAX_GAMES: u32 = 20;
/// Most games of one A/B test asked for at once (two a scenario).
pub const MAX_AB_GAMES: u32 = 100;
/// Most games of one A/B test with the games added to it.
pub const MAX_AB_TOTAL: u32 = 400;
/// Most opponents named in a challenge.
pub const MAX_OPPONENTS: usize = 15;
/// Most players of a game.
pub const MAX_PLAYERS: u32 = 8;
/// The opponents an A/B test draws from: the bots nearest in rating.
pub const AB_POOL: usize = 6;

/// What kind of request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, sqlx::Type, serde::Serialize)]
#[sqlx(type_name = "text", rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Challenge,
    Abtest,
}

/// An owner's allowance, from the configuration.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Games asked for in the last hour, challenges and A/B tests together.
    pub games_per_hour: u32,
    /// Challenges and A/B tests with games still to play.
    pub at_once: u32,
    /// Minutes the workers spent on the owner's games started in the last hour: past
    /// them, new requests are refused and the owner's queued games wait
    /// ([`crate::worker::Worker::claim`]). A few slow games count as many quick ones.
    pub minutes_per_hour: u32,
}

/// Seconds the workers spent on `owner`'s challenge and A/B test games started in the
/// last hour (a game still running counts until now).
pub async fn seconds_played(conn: &mut PgConnection, owner: UserId) -> sqlx::Result<f64> {
    sqlx::query_scalar!(
        r#"select coalesce(sum(extract(epoch from coalesce(m.finished_at, now()) - m.started_at)),
                  0)::float8 as "seconds!"
           from matches m join challenges c on c.id = m.challenge_id
           where c.owner_id = $1 and m.started_at > now() - interval '1 hour'
             and m.status in ('running', 'finished')"#,
        owner as UserId
    )
    .fetch_one(conn)
    .await
}

/// Why a request was refused, in words for its owner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The request itself is wrong: fix it.
    Invalid(String),
    /// Another's bot.
    NotYours(String),
    /// It cannot be done now (no such version built, no opponent, no map).
    Conflict(String),
    /// Past the owner's limits.
    TooMany(String),
    /// Turned off by the organizers.
    Off,
    /// Past the submission deadline, or the bot's game is closed on this site.
    Closed(String),
}

impl Refusal {
    pub fn message(&self) -> String {
        match self {
            Refusal::Invalid(m)
            | Refusal::NotYours(m)
            | Refusal::Conflict(m)
            | Refusal::TooMany(m)
            | Refusal::Closed(m) => m.clone(),
            Refusal::Off => {
                "Challenges and A/B tests are turned off by the organizers for now.".into()
            }
        }
    }
}

/// The result of an operation that may be refused.
pub type Outcome<T> = anyhow::Result<Result<T, Refusal>>;

/// Why a step of this module stopped: a refusal, or the database's trouble. Steps
/// return [`Step`] so that both travel with `?`; the public operations turn it into an
/// [`Outcome`].
pub(crate) enum Failure {
    Refused(Refusal),
    Broken(anyhow::Error),
}

pub(crate) type Step<T> = Result<T, Failure>;

impl From<Refusal> for Failure {
    fn from(r: Refusal) -> Failure {
        Failure::Refused(r)
    }
}

impl From<sqlx::Error> for Failure {
    fn from(e: sqlx::Error) -> Failure {
        Failure::Broken(e.into())
    }
}

/// A step's result as the public operations give it.
pub(crate) fn outcome<T>(step: Step<T>) -> Outcome<T> {
    match step {
        Ok(t) => Ok(Ok(t)),
        Err(Failure::Refused(r)) => Ok(Err(r)),
        Err(Failure::Broken(e)) => Err(e),
    }
}

/// The owner's bot a request is for, with the versions it may play.
pub(crate) struct OwnBot {
    pub id: BotId,
    pub name: String,
    /// Its game: its opponents and maps are of it.
    pub game: String,
    pub active: Option<VersionId>,
    /// Its rating as the leaderboard sorts it.
    pub rating: f64,
}

impl OwnBot {
    /// Its game's name as people say it ("Bottle Bats").
    pub fn game_title(&self) -> &'static str {
        crate::games::kind(&self.game).map_or("this game", |k| k.title())
    }
}

/// Finds `name`, which must be `user`'s and in the ladder.
pub(crate) async fn own_bot(conn: &mut PgConnection, user: UserId, name: &str) -> Step<OwnBot> {
    let Some(b) = sqlx::query!(
        r#"select id as "id: BotId", name, owner_id as "owner: UserId",
               active_version_id as "active: VersionId", disabled, mu, sigma, game
           from bots where lower(name) = lower($1)"#,
        name.trim()
    )
    .fetch_optional(&mut *conn)
    .await?
    else {
        return Err(Refusal::Invalid(format!("There is no bot called `{}`.", name.trim())).into());
    };
    if b.owner != user {
        return Err(Refusal::NotYours(format!(
            "`{}` is not yours: only its owner can ask for its games.",
            b.name
        ))
        .into());
    }
    if b.disabled {
        return Err(Refusal::Conflict(format!(
            "`{}` was taken out of the ladder by an organizer.",
            b.name
        ))
        .into());
    }
    // A closed game's matches wait until it opens again: asked for, they would only
    // hold one of the owner's places.
    if !crate::games::open(&mut *conn).await?.contains(&b.game) {
        let title = crate::games::kind(&b.game).map_or(b.game.as_str(), |k| k.title());
        return Err(Refusal::Closed(format!(
            "{title} is closed on this site: its bots play no challenges or A/B tests until \
             the organizers open it again."
        ))
        .into());
    }
    Ok(OwnBot {
        id: b.id,
        name: b.name,
        game: b.game,
        active: b.active,
        rating: crate::ranker::rating::conservative(b.mu, b.sigma),
    })
}

/// Holds `user` to `limits` for `games` more games, within the transaction that
/// queues them: the user's row is locked, so two requests at once are counted one
/// after the other.
pub(crate) async fn within_limits(
    conn: &mut PgConnection,
    limits: Limits,
    user: UserId,
    games: u32,
) -> Step<()> {
    sqlx::query!(
        "select id from users where id = $1 for update",
        user as UserId
    )
    .fetch_one(&mut *conn)
    .await?;
    // Games queued in the last hour, an A/B test's added games too (`asked_at` keeps
    // the challenges to read few).
    let used = sqlx::query!(
        r#"with recent as (
               select m.created_at from matches m join challenges c on c.id = m.challenge_id
               where c.owner_id = $1 and c.asked_at > now() - interval '1 hour'
                 and m.created_at > now() - interval '1 hour')
           select (select count(*) from recent) as "games!",
               (select count(*) from challenges c where c.owner_id = $1 and exists
                   (select 1 from matches m where m.challenge_id = c.id
                    and m.status in ('queued', 'running'))) as "open!",
               (select extract(epoch from min(created_at) + interval '1 hour' - now())
                from recent)::float8 as wait"#,
        user as UserId
    )
    .fetch_one(&mut *conn)
    .await?;
    if used.open >= i64::from(limits.at_once) {
        return Err(Refusal::TooMany(format!(
            "You have {} challenges or A/B tests still playing, the most at once: wait for one to finish.",
            used.open
        )).into());
    }
    let played = seconds_played(&mut *conn, user).await?;
    let most = f64::from(limits.minutes_per_hour) * 60.0;
    if played >= most {
        return Err(Refusal::TooMany(format!(
            "Your challenge and A/B test games started in the last hour took {:.0} minutes \
             of the workers' time, the most is {}: ask again later (your games still queued \
             wait meanwhile).",
            played / 60.0,
            limits.minutes_per_hour
        ))
        .into());
    }
    if used.games + i64::from(games) > i64::from(limits.games_per_hour) {
        let left = (i64::from(limits.games_per_hour) - used.games).max(0);
        let minutes = (used.wait.unwrap_or(0.0) / 60.0).ceil().max(1.0);
        return Err(Refusal::TooMany(format!(
            "You may ask for {} games an hour and have {left} left: ask for fewer, or in {minutes} minutes.",
            limits.games_per_hour
        )).into());
    }
    Ok(())
}
