//! A played match written: each seat's result, stderr and problems, the stored replay,
//! and the ratings, in one transaction only the lease holder can commit.

use std::collections::HashMap;
use std::sync::Arc;

use engine::PlayerReport;
use game_interface::problems::{first_of_each_kind, Problem};
use game_interface::{Match, Numbers};

use super::{Claimed, Worker};
use crate::compress::gzip;
use crate::ids::{BotId, MatchId};
use crate::ranker::rating;
use crate::status::Outcome;

/// The first turn of `found` (a player's problems, by first turn): where its owner
/// should look in the replay.
pub fn first_turn(found: &[Problem]) -> Option<i32> {
    found.first().map(|p| p.first_turn as i32)
}

fn problems_json(found: &[Problem]) -> String {
    serde_json::to_string(&first_of_each_kind(found)).unwrap_or_else(|_| "[]".into())
}

/// A match as a worker records it, whatever its game: the outcome, each seat's
/// statistics and problems as the game gives them, the stored replay's JSON, and the
/// runner's report of each seat.
#[derive(Clone, Debug)]
pub struct Played {
    /// The rank of each seat, 1 the best.
    pub ranks: Vec<u32>,
    pub turns: u32,
    pub stats: Vec<Numbers>,
    pub problems: Vec<Vec<Problem>>,
    pub replay_json: String,
    pub players: Vec<PlayerReport>,
    /// What each remote seat would be sent of the finished game (its view after the
    /// end), by seat: a client that reads states by request is answered the last one.
    pub last_views: HashMap<usize, Vec<u8>>,
}

impl Played {
    /// What match `m`, over, gives; `players` is the runner's report.
    pub fn of(m: &dyn Match, players: Vec<PlayerReport>) -> Played {
        Played {
            ranks: m.outcome().ranks,
            turns: m.turn(),
            stats: m.stats(),
            problems: (0..m.seats()).map(|s| m.problems(s)).collect(),
            replay_json: m.replay_json(),
            players,
            last_views: HashMap::new(),
        }
    }

    /// The seat alone at rank 1, if one is.
    pub fn winner(&self) -> Option<usize> {
        game_interface::Outcome {
            ranks: self.ranks.clone(),
        }
        .winner()
    }
}

/// One field of every seat, as an array to bind.
fn column<'a, S, T>(seats: &'a [S], field: impl Fn(&'a S) -> T) -> Vec<T> {
    seats.iter().map(field).collect()
}

impl Worker {
    /// Records a match played (`started` when its play began): its replay compressed
    /// and its problems read off the async runtime with the lease kept meanwhile, then
    /// the result and ratings ([`Worker::record_prepared`]), and the tournament it
    /// belongs to moved on. False when the lease was lost before (nothing recorded).
    pub async fn record_played(
        &self,
        m: &Claimed,
        result: Arc<Played>,
        started: std::time::Instant,
    ) -> anyhow::Result<bool> {
        let (seats, shared) = (
            m.players.iter().map(|p| p.seat).collect::<Vec<_>>(),
            result.clone(),
        );
        // Compressing the replay and reading the problems take a while for a long
        // game: on a thread of its own, with the lease kept meanwhile.
        let work = crate::dedicated::spawn("match-record", move || prepare(&seats, &shared))?;
        let prepared = self.keeping_lease(m.id, work).await?;
        if !self.record_prepared(m, &result, prepared).await? {
            tracing::warn!(
                match_id = %m.id,
                "the lease was lost before recording; the result is dropped"
            );
            return Ok(false);
        }
        let seconds = started.elapsed().as_secs_f64();
        crate::metrics::global().match_seconds.observe(seconds);
        if let Some(t) = m.tournament {
            // The next Swiss round, or the end, as soon as the round is done.
            crate::tournaments::advance(&self.db, t).await?;
        }
        Ok(true)
    }

    /// Writes the result, every seat and the rating updates in one transaction, only
    /// if this worker still holds the match. False when it did not.
    pub async fn record(&self, m: &Claimed, r: &Played) -> anyhow::Result<bool> {
        let seats: Vec<i32> = m.players.iter().map(|p| p.seat).collect();
        self.record_prepared(m, r, prepare(&seats, r)).await
    }

    /// [`Worker::record`] with the replay compressed and the seats' problems read
    /// already ([`prepare`]).
    pub async fn record_prepared(
        &self,
        m: &Claimed,
        r: &Played,
        prepared: Prepared,
    ) -> anyhow::Result<bool> {
        let Prepared { replay, seats } = prepared;
        let turns = r.turns as i32;
        let winner = r.winner().map(|s| s as i32);
        let mut tx = self.db.begin().await?;
        let n = sqlx::query!(
            "update matches set status = 'finished', finished_at = now(), turns = $3, \
                 winner_seat = $4, replay = $5, lease_owner = null, lease_until = null \
             where id = $1 and status = 'running' and lease_owner = $2",
            m.id as MatchId,
            self.name,
            turns,
            winner,
            replay
        )
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if n != 1 {
            return Ok(false);
        }
        // The stored replay has every turn now.
        crate::live::forget(&mut *tx, m.id).await?;
        let before = if m.ranked {
            ratings_before(&mut tx, m).await?
        } else {
            vec![(rating::MU, rating::SIGMA); m.players.len()]
        };
        let after = rating::rate(&before, &r.ranks);
        record_seats(&mut tx, m, r, &seats, &before, &after).await?;
        if m.ranked {
            // A version that keeps crashing on the ladder is held off it.
            for (seat, p) in m.players.iter().zip(&r.players) {
                if p.error.is_some() || p.timeouts > 0 {
                    crate::crash_guard::check(&mut tx, seat.bot, seat.version).await?;
                }
            }
        }
        tx.commit().await?;
        tracing::info!(match_id = %m.id, turns, "recorded");
        Ok(true)
    }
}

/// What is written of one seat besides the runner's report: its outcome, its stderr
/// (gzip of the turns' text as JSON), its first problem's turn, and the first problem
/// of each kind (JSON, see `game_interface::problems::first_of_each_kind`).
struct SeatResult {
    outcome: Outcome,
    stderr: Vec<u8>,
    problem_turn: Option<i32>,
    problems: String,
    stats: String,
    /// Its reply times' summary (`remote::wire::Latency`) as JSON, `null` for none.
    reply_ms: String,
}

/// What is written of a match that takes time to make: its stored replay and each
/// seat's results. Made outside the transaction and its locks on the bots, and off the
/// async runtime ([`prepare`]).
pub struct Prepared {
    replay: Vec<u8>,
    seats: Vec<SeatResult>,
}

/// Compresses the replay and writes each seat's results; `seats` are the claimed
/// match's seat numbers, in order.
pub fn prepare(seats: &[i32], r: &Played) -> Prepared {
    Prepared {
        replay: gzip(r.replay_json.as_bytes()),
        seats: seat_results(seats, r),
    }
}

fn seat_results(seats: &[i32], r: &Played) -> Vec<SeatResult> {
    let winner = r.winner().map(|s| s as i32);
    seats
        .iter()
        .enumerate()
        .map(|(i, &seat)| {
            let p = &r.players[i];
            let outcome = match (winner, r.ranks[i]) {
                (Some(w), _) if w == seat => Outcome::Win,
                (None, 1) => Outcome::Draw,
                _ => Outcome::Loss,
            };
            let stderr: Vec<(u32, String)> = p
                .stderr
                .iter()
                .map(|(t, b)| (*t, String::from_utf8_lossy(b).into_owned()))
                .collect();
            let stderr = serde_json::to_string(&stderr).unwrap_or_default();
            let found = &r.problems[i];
            SeatResult {
                outcome,
                stderr: gzip(stderr.as_bytes()),
                problem_turn: first_turn(found),
                problems: problems_json(found),
                stats: stats_json(&r.stats[i]),
                reply_ms: serde_json::to_string(&crate::remote::wire::Latency::of(&p.reply_ms))
                    .unwrap_or_else(|_| "null".into()),
            }
        })
        .collect()
}

/// A seat's statistics as `match_players.stats` keeps them: `[[name, value], ...]`,
/// in the game's order.
pub fn stats_json(stats: &Numbers) -> String {
    serde_json::to_string(stats).unwrap_or_else(|_| "[]".into())
}

/// The players' (mu, sigma) before the match, by seat, their bots locked in id order
/// (no deadlock with other recorders). `no key update` is the lock the updates take
/// anyway: it lets the scheduler's inserts into match_players (whose foreign keys take
/// key-share locks on bots, in seat order) through, where `for update` deadlocked.
async fn ratings_before(
    tx: &mut sqlx::Transaction<'_, sqlx::Postgres>,
    m: &Claimed,
) -> sqlx::Result<Vec<(f64, f64)>> {
    let mut ids: Vec<i64> = m.players.iter().map(|p| p.bot.0).collect();
    ids.sort_unstable();
    let rows = sqlx::query!(
        r#"select id as "id: BotId", mu, sigma from bots where id = any($1)
           order by id for no key update"#,
        &ids
    )
    .fetch_all(&mut **tx)
    .await?;
    Ok(m.players
        .iter()
        .map(|p| {
            rows.iter()
                .find(|r| r.id == p.bot)
                .map_or((rating::MU, rating::SIGMA), |r| (r.mu, r.sigma))
        })
        .collect())
}

/// Every seat's result, its bot's rating and record, and the rating history, in one
/// statement over arrays: one round trip however many seats. An unranked match (a
/// challenge's) writes the seats' results alone.
async fn record_seats(
    tx: &mut sqlx::Transaction<'_, sqlx::Postgres>,
    m: &Claimed,
    r: &Played,
    seats: &[SeatResult],
    before: &[(f64, f64)],
    after: &[(f64, f64)],
) -> sqlx::Result<()> {
    let p = &r.players;
    debug_assert_eq!(p.len(), m.players.len(), "a result for every seat");
    sqlx::query!(
        r#"with s as (select * from unnest($2::int[], $3::bigint[], $4::bigint[], $5::text[],
                   $6::text[], $7::bigint[], $8::bigint[], $9::text[],
                   $10::bigint[], $11::bytea[], $12::float8[], $13::float8[], $14::float8[],
                   $15::float8[], $16::int[], $17::text[], $19::text[])
               s(seat, bot_id, rank, outcome, stats, warnings, timeouts, error,
                 cpu_ms, stderr, mu_before, sigma_before, mu_after, sigma_after, problem_turn,
                 problems, reply_ms)),
           players as (update match_players p set rank = s.rank, outcome = s.outcome,
                   stats = s.stats::jsonb, warnings = s.warnings,
                   timeouts = s.timeouts, error = s.error, cpu_ms = s.cpu_ms,
                   stderr = s.stderr, mu_before = case when $18 then s.mu_before end,
                   sigma_before = case when $18 then s.sigma_before end,
                   mu_after = case when $18 then s.mu_after end,
                   sigma_after = case when $18 then s.sigma_after end,
                   problem_turn = s.problem_turn, problems = s.problems::jsonb,
                   reply_ms = s.reply_ms::jsonb, finished_at = now()
               from s where p.match_id = $1 and p.seat = s.seat),
           ratings as (update bots b set mu = s.mu_after, sigma = s.sigma_after,
                   games = games + 1, version_games = version_games + 1,
                   wins = wins + (s.outcome = 'win')::int,
                   losses = losses + (s.outcome = 'loss')::int,
                   draws = draws + (s.outcome = 'draw')::int, last_game_at = now()
               from s where b.id = s.bot_id and $18)
           insert into rating_history (bot_id, match_id, mu, sigma)
           select bot_id, $1, mu_after, sigma_after from s where $18"#,
        m.id as MatchId,
        &column(&m.players, |s| s.seat),
        &column(&m.players, |s| s.bot.0),
        &column(&r.ranks, |&x| i64::from(x)),
        &column(seats, |s| s.outcome.as_str().to_string()),
        &column(seats, |s| s.stats.clone()),
        &column(p, |x| x.warnings as i64),
        &column(p, |x| i64::from(x.timeouts)),
        &column(p, |x| x.error.clone()) as &[Option<String>],
        &column(p, |x| x.time_used.as_millis() as i64),
        &column(seats, |s| s.stderr.clone()),
        &column(before, |b| b.0),
        &column(before, |b| b.1),
        &column(after, |a| a.0),
        &column(after, |a| a.1),
        &column(seats, |s| s.problem_turn) as &[Option<i32>],
        &column(seats, |s| s.problems.clone()),
        m.ranked,
        &column(seats, |s| s.reply_ms.clone())
    )
    .execute(&mut **tx)
    .await?;
    Ok(())
}
