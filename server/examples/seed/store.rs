//! The simulated ladder into the database: the replays once in a temporary table, the
//! matches and seats with `COPY`, the rating history and the bots' ratings and records
//! in set-based statements, then `vacuum analyze`.

use crate::ladder::Bot;
use crate::replays::Played;
use crate::Tx;

/// The matches, each with its replay.
pub async fn add_matches(
    tx: &mut Tx<'_>,
    replays: &[Played],
    matches_copy: String,
) -> anyhow::Result<()> {
    sqlx::query(
        "create temp table seed_replays (k int primary key, replay bytea not null) on commit drop",
    )
    .execute(&mut **tx)
    .await?;
    sqlx::query("insert into seed_replays select * from unnest($1::int[], $2::bytea[])")
        .bind((0..replays.len() as i32).collect::<Vec<_>>())
        .bind(replays.iter().map(|r| r.gz.clone()).collect::<Vec<_>>())
        .execute(&mut **tx)
        .await?;
    sqlx::query(
        "create temp table seed_matches (id bigint, map_id bigint, k int, finished float8, \
             seconds float8, waited float8, turns int, winner_seat int) on commit drop",
    )
    .execute(&mut **tx)
    .await?;
    copy(tx, "copy seed_matches from stdin", matches_copy).await?;
    sqlx::query(
        "insert into matches (id, status, map_id, attempts, created_at, started_at, finished_at, turns, \
             winner_seat, replay) overriding system value \
         select s.id, 'finished', s.map_id, 1, to_timestamp(s.finished - s.seconds - s.waited), \
             to_timestamp(s.finished - s.seconds), to_timestamp(s.finished), s.turns, s.winner_seat, r.replay \
         from seed_matches s join seed_replays r on r.k = s.k order by s.id",
    )
    .execute(&mut **tx)
    .await?;
    sqlx::query(
        "select setval(pg_get_serial_sequence('matches', 'id'), (select max(id) from matches))",
    )
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The seats of the matches from `first_id` on, with their finish times.
pub async fn add_seats(tx: &mut Tx<'_>, players_copy: String, first_id: i64) -> anyhow::Result<()> {
    copy(
        tx,
        "copy match_players (match_id, seat, bot_id, version_id, rank, outcome, stats, warnings, \
             timeouts, error, cpu_ms, stderr, mu_before, sigma_before, mu_after, sigma_after, problem_turn) from stdin",
        players_copy,
    )
    .await?;
    sqlx::query(
        "update match_players p set finished_at = m.finished_at from matches m \
         where m.id = p.match_id and p.match_id >= $1",
    )
    .bind(first_id)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The rating history of the matches from `first_id` on, and each bot's rating and
/// record.
pub async fn add_ratings(tx: &mut Tx<'_>, first_id: i64, bots: &[Bot]) -> anyhow::Result<()> {
    sqlx::query(
        "insert into rating_history (bot_id, match_id, mu, sigma, at) \
         select p.bot_id, p.match_id, p.mu_after, p.sigma_after, m.finished_at \
         from match_players p join matches m on m.id = p.match_id where p.match_id >= $1",
    )
    .bind(first_id)
    .execute(&mut **tx)
    .await?;
    sqlx::query(
        "update bots b set mu = x.mu, sigma = x.sigma, games = x.games, wins = x.wins, losses = x.losses, \
             draws = x.draws, version_games = x.vg, last_game_at = to_timestamp(x.last), disabled = x.disabled \
         from unnest($1::bigint[], $2::float8[], $3::float8[], $4::int[], $5::int[], $6::int[], $7::int[], \
             $8::int[], $9::float8[], $10::bool[]) as x(id, mu, sigma, games, wins, losses, draws, vg, last, disabled) \
         where b.id = x.id",
    )
    .bind(bots.iter().map(|b| b.id).collect::<Vec<_>>())
    .bind(bots.iter().map(|b| b.mu).collect::<Vec<_>>())
    .bind(bots.iter().map(|b| b.sigma).collect::<Vec<_>>())
    .bind(bots.iter().map(|b| b.games).collect::<Vec<_>>())
    .bind(bots.iter().map(|b| b.wins).collect::<Vec<_>>())
    .bind(bots.iter().map(|b| b.losses).collect::<Vec<_>>())
    .bind(bots.iter().map(|b| b.draws).collect::<Vec<_>>())
    .bind(bots.iter().map(|b| b.version_games).collect::<Vec<_>>())
    .bind(bots.iter().map(|b| b.last_game).collect::<Vec<_>>())
    .bind(bots.iter().map(|b| b.disabled).collect::<Vec<_>>())
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// As autovacuum would soon: planner statistics and the visibility map.
pub async fn vacuum(pool: &sqlx::PgPool) -> anyhow::Result<()> {
    for table in [
        "users",
        "bots",
        "bot_versions",
        "matches",
        "match_players",
        "rating_history",
    ] {
        sqlx::query(sqlx::AssertSqlSafe(format!("vacuum analyze {table}")))
            .execute(pool)
            .await?;
    }
    Ok(())
}

/// Streams COPY text into the database.
async fn copy(tx: &mut Tx<'_>, statement: &str, data: String) -> anyhow::Result<()> {
    let conn: &mut sqlx::PgConnection = tx;
    let mut copy = conn.copy_in_raw(statement).await?;
    for chunk in data.as_bytes().chunks(1 << 20) {
        copy.send(chunk).await?;
    }
    copy.finish().await?;
    Ok(())
}
