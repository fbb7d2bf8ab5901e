//! The ladder's heart: the match queue in PostgreSQL, the scheduler that keeps a
//! small buffer of queued matches, and the organizer's controls.
//!
//! A match goes `queued → running → finished`, or `void` with a reason. Workers
//! claim with `FOR UPDATE SKIP LOCKED` and hold a lease they renew while playing; an
//! expired lease puts the match back in the queue, and after [`MAX_ATTEMPTS`] it is
//! voided. A result is recorded in one transaction, only by the worker that holds the
//! lease, so it is applied exactly once.

pub mod matchmaking;
pub mod rating;

use std::collections::HashMap;
use std::time::Duration;

use rand::SeedableRng;
use sqlx::{PgConnection, PgPool};

use matchmaking::{Candidate, MapChoice, Settings};

use crate::ids::{BotId, ChallengeId, MapId, MatchId, TournamentId, VersionId};
use crate::status::MatchStatus;

/// How long a claimed match is held without renewal.
pub const LEASE: Duration = Duration::from_secs(60);
/// Tries before a match is voided.
pub const MAX_ATTEMPTS: i32 = 3;
/// Matchmaking balances the maps over each bot's last this many matches.
pub const RECENT_MATCHES: i64 = 100;

/// Adds a map of `game` to the ladder (checked by the game first); false when a map
/// of that name exists.
pub async fn add_map(db: &PgPool, game: &str, name: &str, text: &str) -> anyhow::Result<bool> {
    let kind = crate::games::kind(game)?;
    let info = (kind.map_info(text)).map_err(|e| anyhow::anyhow!("map `{name}`: {e}"))?;
    let added = sqlx::query!(
        "insert into maps (game, name, text, seats, info) values ($1, $2, $3, $4, $5::text::jsonb) \
         on conflict (name) do nothing",
        game,
        name,
        text,
        info.seats as i32,
        crate::worker::stats_json(&info.numbers)
    )
    .execute(db)
    .await?
    .rows_affected();
    Ok(added == 1)
}

/// Loads the shipped maps of every open game that the ladder does not have yet.
pub async fn load_shipped_maps(db: &PgPool) -> anyhow::Result<()> {
    for game in crate::games::open(db).await? {
        for (name, text) in crate::games::content(&game)?.maps() {
            if add_map(db, &game, name, &text).await? {
                tracing::info!("{game} map `{name}` added to the ladder");
            }
        }
    }
    Ok(())
}

pub async fn is_paused(db: impl sqlx::PgExecutor<'_>) -> sqlx::Result<bool> {
    sqlx::query_scalar!("select paused from ranker")
        .fetch_one(db)
        .await
}

pub async fn set_paused(db: &PgPool, paused: bool) -> sqlx::Result<()> {
    sqlx::query!("update ranker set paused = $1", paused)
        .execute(db)
        .await?;
    Ok(())
}

/// Whether owners may ask for challenges and A/B tests, and their matches are played.
pub async fn challenges_on(db: impl sqlx::PgExecutor<'_>) -> sqlx::Result<bool> {
    sqlx::query_scalar!("select challenges from ranker")
        .fetch_one(db)
        .await
}

/// Turns challenges on or off: off, new ones are refused and the queued ones wait.
pub async fn set_challenges(db: &PgPool, on: bool) -> sqlx::Result<()> {
    sqlx::query!("update ranker set challenges = $1", on)
        .execute(db)
        .await?;
    Ok(())
}

/// The ladder's state as matchmaking sees it: the hosted bots of `game` that can play
/// (a remote bot plays only while its session is connected, `crate::remote`).
pub async fn candidates(conn: &mut PgConnection, game: &str) -> sqlx::Result<Vec<Candidate>> {
    // House bots are reference players: they may meet each other. The queued counts
    // in one pass over the queue (the view `bot_queue`), not one per bot.
    let rows = sqlx::query!(
        r#"select b.id as "bot_id: BotId", b.active_version_id as "version_id!: VersionId",
               case when u.name = 'house' then -b.id else b.owner_id end as "owner!",
               b.mu, b.sigma, b.version_games, b.last_game_at, coalesce(q.n, 0) as "queued!"
           from bots b join users u on u.id = b.owner_id
           left join bot_queue q
               on q.bot_id = b.id
           where b.active_version_id is not null and not b.disabled and b.game = $1
               and not b.remote"#,
        game
    )
    .fetch_all(&mut *conn)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| Candidate {
            bot_id: r.bot_id,
            version_id: r.version_id,
            owner: r.owner,
            mu: r.mu,
            sigma: r.sigma,
            load: (r.version_games.max(0) as u32).saturating_add(r.queued as u32),
            last_game: r.last_game_at.map(|t| t.unix_timestamp()),
            queued: r.queued as u32,
        })
        .collect())
}

/// The maps the bots `ids` played in their last [`RECENT_MATCHES`] matches, and how
/// often: only theirs, so the cost grows with neither the ladder nor its history.
pub async fn recent_maps(
    conn: &mut PgConnection,
    ids: &[i64],
) -> sqlx::Result<HashMap<(BotId, MapId), u32>> {
    let rows = sqlx::query!(
        r#"select p.bot_id as "bot_id!: BotId", m.map_id as "map_id: MapId", count(*) as "n!"
           from unnest($1::bigint[]) b(id)
           cross join lateral (select p.bot_id, p.match_id from match_players p
                               join matches r on r.id = p.match_id
                               where p.bot_id = b.id and r.ranked
                               order by p.match_id desc limit $2) p
           join matches m on m.id = p.match_id
           where m.status <> 'void'
           group by p.bot_id, m.map_id"#,
        ids,
        RECENT_MATCHES
    )
    .fetch_all(conn)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| ((r.bot_id, r.map_id), r.n as u32))
        .collect())
}

/// Which challenge a queued match belongs to (see `crate::challenges`).
#[derive(Clone, Copy, Debug)]
pub struct ChallengeGame {
    pub id: ChallengeId,
    /// An A/B test's scenario, and which version plays it (`a` or `b`).
    pub scenario: Option<(i32, &'static str)>,
}

/// What a queued match is played for.
#[derive(Clone, Copy, Debug)]
pub enum Purpose {
    /// The ladder: it rates its players.
    Ranked,
    /// A challenge or an A/B test: unranked.
    Challenge(ChallengeGame),
    /// A round of a tournament (see `crate::tournaments`): unranked.
    Tournament(TournamentId, i32),
}

/// Queues a match and its seats (each seat's bot and version) in one statement: one
/// round trip however many seats. Only a ladder match is ranked. Only a challenge
/// may seat a bot more than once ("me against 3 × strong"): ratings, records and
/// pairings are per bot.
pub async fn insert_match(
    conn: &mut PgConnection,
    map: MapId,
    seats: &[(BotId, VersionId)],
    purpose: Purpose,
) -> sqlx::Result<MatchId> {
    assert!(
        matches!(purpose, Purpose::Challenge(_))
            || seats
                .iter()
                .enumerate()
                .all(|(i, s)| seats[..i].iter().all(|o| o.0 != s.0)),
        "only a challenge seats a bot twice: {seats:?} for {purpose:?}"
    );
    let numbers: Vec<i32> = (0..seats.len() as i32).collect();
    let bots: Vec<i64> = seats.iter().map(|s| s.0 .0).collect();
    let versions: Vec<i64> = seats.iter().map(|s| s.1 .0).collect();
    let challenge = match purpose {
        Purpose::Challenge(c) => Some(c),
        _ => None,
    };
    let scenario = challenge.and_then(|c| c.scenario);
    let (tournament, round) = match purpose {
        Purpose::Tournament(t, r) => (Some(t), Some(r)),
        _ => (None, None),
    };
    sqlx::query_scalar!(
        r#"with m as (insert into matches (map_id, challenge_id, scenario, arm,
                   tournament_id, round)
               values ($1, $5, $6, $7, $8, $9) returning id),
           p as (insert into match_players (match_id, seat, bot_id, version_id)
               select m.id, s.seat, s.bot, s.version
               from m, unnest($2::int[], $3::bigint[], $4::bigint[]) s(seat, bot, version)
               order by s.seat)
           select id as "id: MatchId" from m"#,
        map as MapId,
        &numbers,
        &bots,
        &versions,
        challenge.map(|c| c.id) as Option<ChallengeId>,
        scenario.map(|s| s.0),
        scenario.map(|s| s.1),
        tournament as Option<TournamentId>,
        round
    )
    .fetch_one(conn)
    .await
}

/// Queues a planned ranked match.
async fn queue_match(
    conn: &mut PgConnection,
    p: &matchmaking::Plan,
    cands: &[Candidate],
) -> sqlx::Result<()> {
    let seats: Vec<(BotId, VersionId)> = p
        .seats
        .iter()
        .map(|&i| (cands[i].bot_id, cands[i].version_id))
        .collect();
    insert_match(conn, p.map_id, &seats, Purpose::Ranked).await?;
    Ok(())
}

/// Tops the queue up to `buffer` matches; returns how many were made. Only one
/// process schedules at a time (an advisory lock), so any number may call this.
/// Nothing while paused or frozen at the deadline (`crate::contest`).
pub async fn schedule(db: &PgPool, buffer: i64, settings: &Settings) -> anyhow::Result<usize> {
    let mut tx = db.begin().await?;
    let gate = sqlx::query!(
        r#"select pg_try_advisory_xact_lock(7331) as "locked!",
                  (select paused or (freeze_at_deadline and deadline <= now())
                   from ranker) as "stopped!""#
    )
    .fetch_one(&mut *tx)
    .await?;
    // Paused, or frozen at the deadline: the ladder schedules nothing.
    if !gate.locked || gate.stopped {
        return Ok(0);
    }
    let mut made = 0;
    for game in crate::games::open(&mut *tx).await? {
        made += schedule_game(&mut tx, &game, buffer, settings).await?;
    }
    tx.commit().await?;
    Ok(made)
}

/// Tops the queue of `game`'s ranked matches up to `buffer`, among its bots and maps.
async fn schedule_game(
    tx: &mut PgConnection,
    game: &str,
    buffer: i64,
    settings: &Settings,
) -> anyhow::Result<usize> {
    // Counted once the lock is held, so it sees what the previous holder queued (a
    // statement sees the matches committed before it began).
    let queued = sqlx::query_scalar!(
        r#"select count(*) as "n!" from matches
               where status = 'queued' and ranked and game = $1"#,
        game
    )
    .fetch_one(&mut *tx)
    .await?;
    if queued >= buffer {
        return Ok(0);
    }
    let mut cands = candidates(&mut *tx, game).await?;
    let maps: Vec<MapChoice> = sqlx::query!(
        r#"select id as "id: MapId", seats from maps where enabled and game = $1"#,
        game
    )
    .fetch_all(&mut *tx)
    .await?
    .into_iter()
    .map(|m| MapChoice {
        id: m.id,
        seats: m.seats as usize,
    })
    .collect();
    let mut rng = rand_chacha::ChaCha8Rng::from_entropy();
    let mut made = 0;
    for _ in queued..buffer {
        let Some(chosen) = matchmaking::players(&cands, &maps, settings, &mut rng) else {
            break;
        };
        // The maps these bots played lately (the matches planned above included).
        let ids: Vec<i64> = chosen.iter().map(|&i| cands[i].bot_id.0).collect();
        let plays = recent_maps(&mut *tx, &ids).await?;
        let Some(p) = matchmaking::map_for(chosen, &cands, &maps, &plays, &mut rng) else {
            break;
        };
        queue_match(&mut *tx, &p, &cands).await?;
        for &i in &p.seats {
            cands[i].load += 1;
            cands[i].queued += 1;
        }
        made += 1;
    }
    Ok(made)
}

/// Puts a match back in the queue (a running one's worker loses it).
pub async fn requeue(db: &PgPool, match_id: MatchId) -> sqlx::Result<bool> {
    let n = sqlx::query!(
        "update matches set status = 'queued', void_reason = null, lease_owner = null, \
             lease_until = null, attempts = 0 \
         where id = $1 and status in ('queued', 'running', 'void') \
           and not exists (select 1 from match_players p \
                           where p.match_id = $1 and p.mu_after is not null)",
        match_id as MatchId
    )
    .execute(db)
    .await?
    .rows_affected();
    Ok(n == 1)
}

/// Voids a match that has not finished; its result will never count.
pub async fn void(db: &PgPool, match_id: MatchId, reason: &str) -> sqlx::Result<bool> {
    let n = sqlx::query!(
        "update matches set status = 'void', void_reason = $2, lease_owner = null, \
             lease_until = null \
         where id = $1 and status in ('queued', 'running')",
        match_id as MatchId,
        reason
    )
    .execute(db)
    .await?
    .rows_affected();
    Ok(n == 1)
}

/// Most characters kept of the reason a bot was disabled.
pub const DISABLED_REASON_CHARS: usize = 200;

/// The reason given when an organizer gives none.
pub const DISABLED_REASON_DEFAULT: &str = "disabled by an organizer";

/// Takes a bot out of the ladder, saying why (`reason`, cut to
/// [`DISABLED_REASON_CHARS`]), or brings it back (`None`); false when there is no such
/// bot.
pub async fn set_bot_disabled(db: &PgPool, name: &str, reason: Option<&str>) -> sqlx::Result<bool> {
    let disabled = reason.is_some();
    let reason = reason.map(|r| {
        // Pages end the sentence themselves: "… reason: "cheating"." not "..".
        let r = r.trim().trim_end_matches(['.', ' ']);
        let r = if r.is_empty() {
            DISABLED_REASON_DEFAULT
        } else {
            r
        };
        r.chars().take(DISABLED_REASON_CHARS).collect::<String>()
    });
    let mut tx = db.begin().await?;
    let bots = sqlx::query_scalar!(
        r#"update bots set disabled = $2, disabled_reason = $3 where lower(name) = lower($1)
           returning id as "id: BotId""#,
        name,
        disabled,
        reason
    )
    .fetch_all(&mut *tx)
    .await?;
    let n = bots.len();
    if n == 1 && disabled {
        // Out of the tournaments running too: no later round pairs it.
        crate::tournaments::withdraw(&mut tx, &bots, crate::tournaments::WITHDRAWN_DISABLED)
            .await?;
        // Its queued matches would only wait for it.
        sqlx::query!(
            "update matches m set status = 'void', \
                 void_reason = 'a bot was disabled by an organizer' \
             where m.status = 'queued' and exists (select 1 from match_players p \
                 join bots b on b.id = p.bot_id \
                 where p.match_id = m.id and lower(b.name) = lower($1))",
            name
        )
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(n == 1)
}

/// Takes a map out of matchmaking or brings it back; false when there is no such map.
pub async fn set_map_enabled(db: &PgPool, name: &str, enabled: bool) -> sqlx::Result<bool> {
    let n = sqlx::query!(
        "update maps set enabled = $2 where name = $1",
        name,
        enabled
    )
    .execute(db)
    .await?
    .rows_affected();
    Ok(n == 1)
}

/// A match in the queue, as the organizer sees it.
#[derive(Debug)]
pub struct QueuedMatch {
    pub id: MatchId,
    pub status: MatchStatus,
    pub map: String,
    /// Its bots' names, by seat.
    pub players: Vec<String>,
    pub attempts: i32,
    pub lease_owner: Option<String>,
    /// Seconds until the lease runs out (negative: expired).
    pub lease_left: Option<f64>,
    pub void_reason: Option<String>,
}

/// A worker and when it was last heard of.
#[derive(Debug)]
pub struct WorkerRow {
    pub name: String,
    pub seconds_ago: f64,
    pub match_id: Option<MatchId>,
}

/// A map and how often it was played.
#[derive(Debug)]
pub struct MapRow {
    pub name: String,
    pub seats: i32,
    pub game: String,
    /// The game's facts of the map (forts; mines, ...), `[[name, value], ...]`.
    pub info: serde_json::Value,
    pub enabled: bool,
    pub matches: i64,
}

/// Everything the organizer's page and `admin status` show.
#[derive(Debug)]
pub struct Status {
    pub paused: bool,
    /// Whether challenges and A/B tests are taken and played.
    pub challenges: bool,
    /// The submission deadline and whether the ladder freezes at it.
    pub contest: crate::contest::Contest,
    /// Challenges' matches queued or running.
    pub challenge_matches: i64,
    pub queued: i64,
    pub finished: i64,
    pub voided: i64,
    /// Running and queued matches, then the latest voided ones.
    pub matches: Vec<QueuedMatch>,
    pub workers: Vec<WorkerRow>,
    pub maps: Vec<MapRow>,
    /// Disabled bots.
    pub disabled: Vec<String>,
}

/// Running and queued matches, then the 20 latest voided ones.
async fn queue(db: &PgPool) -> sqlx::Result<Vec<QueuedMatch>> {
    sqlx::query_as!(
        QueuedMatch,
        r#"select id as "id!: MatchId", status as "status!: MatchStatus", map as "map!",
               players as "players!", attempts as "attempts!", lease_owner, lease_left,
               void_reason
           from (
               select m.id, m.status, maps.name as map,
                   array(select b.name from match_players p join bots b on b.id = p.bot_id
                         where p.match_id = m.id order by p.seat) as players,
                   m.attempts, m.lease_owner,
                   extract(epoch from m.lease_until - now())::float8 as lease_left,
                   m.void_reason
               from matches m join maps on maps.id = m.map_id
               where m.status in ('running', 'queued')
               union all
               select * from (select m.id, m.status, maps.name,
                   array(select b.name from match_players p join bots b on b.id = p.bot_id
                         where p.match_id = m.id order by p.seat),
                   m.attempts, m.lease_owner, null::float8, m.void_reason
               from matches m join maps on maps.id = m.map_id
               where m.status = 'void' order by m.id desc limit 20) v
           ) x order by status = 'void', status = 'queued', id"#
    )
    .fetch_all(db)
    .await
}

pub async fn status(db: &PgPool) -> sqlx::Result<Status> {
    let counts = sqlx::query!(
        r#"select count(*) filter (where status = 'queued') as "queued!",
                  count(*) filter (where status in ('queued', 'running')
                                   and challenge_id is not null) as "challenge_matches!",
                  count(*) filter (where status = 'finished') as "finished!",
                  count(*) filter (where status = 'void') as "voided!"
           from matches"#
    )
    .fetch_one(db)
    .await?;
    let workers = sqlx::query_as!(
        WorkerRow,
        r#"select name, extract(epoch from now() - heartbeat_at)::float8 as "seconds_ago!",
               match_id as "match_id: MatchId"
           from workers where heartbeat_at > now() - make_interval(secs => $1)
           order by name"#,
        LEASE.as_secs_f64()
    )
    .fetch_all(db)
    .await?;
    let maps = sqlx::query_as!(
        MapRow,
        r#"select maps.name, maps.seats, maps.game, maps.info, maps.enabled,
               (select count(*) from matches m
                where m.map_id = maps.id and m.status = 'finished'
                  and m.ranked) as "matches!"
           from maps order by maps.game, maps.seats, maps.name"#
    )
    .fetch_all(db)
    .await?;
    let disabled = sqlx::query_scalar!("select name from bots where disabled order by lower(name)")
        .fetch_all(db)
        .await?;
    Ok(Status {
        paused: is_paused(db).await?,
        challenges: challenges_on(db).await?,
        contest: crate::contest::load(db).await?,
        challenge_matches: counts.challenge_matches,
        queued: counts.queued,
        finished: counts.finished,
        voided: counts.voided,
        matches: queue(db).await?,
        workers,
        maps,
        disabled,
    })
}

/// A game's shipped maps as matchmaking sees them (ids 1, 2, … in their order): for
/// the simulations of `server/benches/`.
pub fn map_choices(game: &str) -> anyhow::Result<Vec<matchmaking::MapChoice>> {
    let content = crate::games::content(game)?;
    (content.maps().into_iter().enumerate())
        .map(|(i, (name, text))| {
            let info = (content.kind.map_info(&text))
                .map_err(|e| anyhow::anyhow!("the shipped map {name}: {e}"))?;
            Ok(matchmaking::MapChoice {
                id: crate::ids::MapId(i as i64 + 1),
                seats: info.seats,
            })
        })
        .collect()
}
