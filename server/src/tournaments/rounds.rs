//! A tournament moves on when its games are done: a Swiss tournament pairs its next
//! round from the points so far, and one with nothing left to play is finished. The
//! worker calls [`advance`] after recording a tournament's match; the scheduler calls
//! [`advance_all`] on every tick, so a worker that died between the two loses nothing.
//! Both take the tournament's row lock first, so a round is paired once.

use std::collections::HashSet;

use sqlx::{PgConnection, PgPool};

use super::create::{queue, Entrant, Format, MapPick};
use super::{plan, read, stats};
use crate::ids::{BotId, MapId, TournamentId, VersionId};

/// Pairs the next round or finishes the tournament, once its games so far are done.
/// True when it changed something.
pub async fn advance(db: &PgPool, id: TournamentId) -> anyhow::Result<bool> {
    let mut tx = db.begin().await?;
    let Some(t) = sqlx::query!(
        r#"select format as "format: Format", rounds, seed from tournaments
           where id = $1 and status = 'running' for update"#,
        id as TournamentId
    )
    .fetch_optional(&mut *tx)
    .await?
    else {
        return Ok(false);
    };
    let open = sqlx::query!(
        r#"select count(*) filter (where status in ('queued', 'running')) as "open!",
                  coalesce(max(round), -1) as "last_round!"
           from matches where tournament_id = $1"#,
        id as TournamentId
    )
    .fetch_one(&mut *tx)
    .await?;
    if open.open > 0 {
        return Ok(false);
    }
    let next = open.last_round + 1;
    let more = t.format == Format::Swiss && t.rounds.is_some_and(|r| next < r);
    if !(more && pair_round(&mut tx, id, next as u32, t.seed as u64).await?) {
        sqlx::query!(
            "update tournaments set status = 'finished', finished_at = now() where id = $1",
            id as TournamentId
        )
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(true)
}

/// [`advance`] for every running tournament with nothing queued or running.
pub async fn advance_all(db: &PgPool) -> anyhow::Result<()> {
    let idle = sqlx::query_scalar!(
        r#"select t.id as "id: TournamentId" from tournaments t
           where t.status = 'running' and not exists (
               select 1 from matches m
               where m.tournament_id = t.id and m.status in ('queued', 'running'))"#
    )
    .fetch_all(db)
    .await?;
    for id in idle {
        advance(db, id).await?;
    }
    Ok(())
}

/// Queues Swiss round `round` from the games so far; false when no pair is left to
/// play (fewer than two participants).
async fn pair_round(
    conn: &mut PgConnection,
    id: TournamentId,
    round: u32,
    seed: u64,
) -> anyhow::Result<bool> {
    let (entrants, picked, withdrawn) = entrants_and_maps(conn, id).await?;
    let n = entrants.len();
    let games = read::games(&mut *conn, id).await?;
    let scored: Vec<stats::Game> = games.iter().filter_map(|g| g.scored(n)).collect();
    let mut points = stats::points(n, &scored);
    // Bots of one owner count as met already: they never meet while avoidable.
    let mut met = super::create::same_owner(&entrants);
    let mut played = vec![HashSet::new(); round as usize];
    for g in &games {
        let places: Vec<usize> = g.seats.iter().map(|s| s.place).collect();
        if let [a, b] = places[..] {
            met.insert((a.min(b), a.max(b)));
        }
        if let Some(r) = played.get_mut(g.round as usize) {
            r.extend(places);
        }
    }
    // A participant left out of a round had the bye: it counts as a round won, for
    // pairing only (the standings count games played).
    let per_round = 2.0 * picked.len() as f64;
    let mut byes = Vec::new();
    for r in &played {
        for p in (0..n).filter(|p| !r.contains(p)) {
            byes.push(p);
            points[p] += per_round;
        }
    }
    // The withdrawn are paired no more: the others are paired among themselves (all of
    // them, in the same order, when nobody is withdrawn).
    let active: Vec<usize> = (0..n).filter(|&p| !withdrawn[p]).collect();
    let local = |p: usize| active.binary_search(&p).ok();
    let points: Vec<f64> = active.iter().map(|&p| points[p]).collect();
    let met: HashSet<(usize, usize)> = (met.iter())
        .filter_map(|&(a, b)| Some((local(a)?, local(b)?)))
        .collect();
    let byes: Vec<usize> = byes.iter().filter_map(|&p| local(p)).collect();
    let (pairs, _) = plan::swiss_pairs(&points, &met, &byes, seed.wrapping_add(round as u64));
    let pairs: Vec<(usize, usize)> = (pairs.into_iter())
        .map(|(a, b)| (active[a], active[b]))
        .collect();
    if pairs.is_empty() {
        return Ok(false);
    }
    let planned = plan::swiss_round(round, &pairs, picked.len());
    queue(conn, id, &planned, &entrants, &picked).await?;
    Ok(true)
}

/// A tournament's participants (by place, with their frozen versions), its maps, and
/// whether each participant was withdrawn (by place).
async fn entrants_and_maps(
    conn: &mut PgConnection,
    id: TournamentId,
) -> sqlx::Result<(Vec<Entrant>, Vec<MapPick>, Vec<bool>)> {
    let rows = sqlx::query!(
        r#"select p.bot_id as "bot: BotId", p.version_id as "version: VersionId",
               case when u.name <> $2 then b.owner_id end as "owner: crate::ids::UserId",
               p.withdrawn is not null as "withdrawn!"
           from tournament_participants p join bots b on b.id = p.bot_id
           join users u on u.id = b.owner_id
           where p.tournament_id = $1 order by p.place"#,
        id as TournamentId,
        crate::house::ACCOUNT
    )
    .fetch_all(&mut *conn)
    .await?;
    let withdrawn = rows.iter().map(|r| r.withdrawn).collect();
    let entrants = (rows.into_iter())
        .map(|r| Entrant {
            bot: r.bot,
            version: r.version,
            owner: r.owner,
        })
        .collect();
    let maps = sqlx::query_scalar!(
        r#"select map_id as "id: MapId" from tournament_maps
           where tournament_id = $1 order by place"#,
        id as TournamentId
    )
    .fetch_all(&mut *conn)
    .await?
    .into_iter()
    .map(|id| MapPick { id })
    .collect();
    Ok((entrants, maps, withdrawn))
}
