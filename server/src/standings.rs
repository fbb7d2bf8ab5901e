//! The ladder as spectators read it: each bot's record, the standings, and the lists
//! of finished matches with their filters. The web pages and the API show these; the
//! ranker writes them.

use std::collections::HashMap;
use std::sync::Arc;

use serde::Deserialize;
use sqlx::PgPool;
use time::OffsetDateTime;

use crate::ids::{BotId, MatchId, VersionId};
use crate::ranker::matchmaking::line_key;
use crate::ranker::rating::conservative;

/// A bot's rating and results, as its row in `bots` holds them.
#[derive(Clone, Copy, Debug)]
pub struct Record {
    pub mu: f64,
    pub sigma: f64,
    pub games: i32,
    pub wins: i32,
    pub losses: i32,
    pub draws: i32,
}

/// The [`Record`] of a query's row that selected `mu, sigma, games, wins, losses,
/// draws` of `bots` (each `query!` row is its own type).
#[macro_export]
macro_rules! record_of {
    ($row:expr) => {
        $crate::standings::Record {
            mu: $row.mu,
            sigma: $row.sigma,
            games: $row.games,
            wins: $row.wins,
            losses: $row.losses,
            draws: $row.draws,
        }
    };
}

impl Record {
    /// What the leaderboard sorts by ([`conservative`]).
    pub fn rating(&self) -> f64 {
        conservative(self.mu, self.sigma)
    }

    /// `mu ± sigma`, as pages show it.
    pub fn mu_sigma(&self) -> String {
        format!("{:.2} ± {:.2}", self.mu, self.sigma)
    }

    pub fn win_rate(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            f64::from(self.wins) / f64::from(self.games)
        }
    }
}

/// A bot on the leaderboard.
#[derive(Debug)]
pub struct Standing {
    pub name: String,
    pub owner: String,
    /// Its active version's language key.
    pub language: String,
    pub record: Record,
    pub last_game_at: Option<OffsetDateTime>,
    /// Games of its active version plus matches queued or running for it: matchmaking
    /// seeds the least loaded first, then the one that waited longest.
    pub load: i64,
    /// A remote bot: it plays from its owner's machine (`crate::remote`).
    pub remote: bool,
}

impl Standing {
    /// Whether matchmaking would seed `self` before `other`.
    pub fn before_in_line(&self, other: &Standing) -> bool {
        let key = |s: &Standing| line_key(s.load, s.last_game_at.map(|t| t.unix_timestamp()));
        key(self) < key(other)
    }
}

/// Every bot of `game` that plays, best first: by [`Record::rating`], then by name.
pub async fn standings(db: &PgPool, game: &str) -> sqlx::Result<Vec<Standing>> {
    let rows = sqlx::query!(
        r#"select b.name, u.name as owner, v.language, b.mu, b.sigma, b.games, b.wins,
               b.losses, b.draws, b.last_game_at, b.version_games + coalesce(q.n, 0) as "load!",
               b.remote
           from bots b join users u on u.id = b.owner_id
           join bot_versions v on v.id = b.active_version_id
           left join bot_queue q on q.bot_id = b.id
           where not b.disabled and b.game = $1"#,
        game
    )
    .fetch_all(db)
    .await?;
    let mut all: Vec<Standing> = rows
        .into_iter()
        .map(|r| Standing {
            name: r.name,
            owner: r.owner,
            language: r.language,
            record: crate::record_of!(r),
            last_game_at: r.last_game_at,
            load: r.load,
            remote: r.remote,
        })
        .collect();
    all.sort_by(|a, b| best_first((a.record.rating(), &a.name), (b.record.rating(), &b.name)));
    Ok(all)
}

/// The leaderboard's order of two bots given as (rating, name): the better rated
/// first, then by name whatever the case.
pub fn best_first(a: (f64, &str), b: (f64, &str)) -> std::cmp::Ordering {
    b.0.total_cmp(&a.0)
        .then_with(|| a.1.to_lowercase().cmp(&b.1.to_lowercase()))
}

/// A bot that plays (an active version, not disabled), with the version it plays
/// now and its rating as the leaderboard sorts it.
#[derive(Clone, Debug)]
pub struct PlayingBot {
    pub id: BotId,
    pub version: VersionId,
    pub name: String,
    pub rating: f64,
    /// Its owner; none for the house's bots, each of which stands for itself.
    pub owner: Option<crate::ids::UserId>,
}

/// Every bot of `game` that plays, best rated first (the leaderboard's order). Remote
/// bots only `for_tournament`, when the site lets them enter tournaments
/// (`crate::remote`): a challenge's opponents are hosted.
pub async fn playing_bots(
    conn: &mut sqlx::PgConnection,
    game: &str,
    for_tournament: bool,
) -> sqlx::Result<Vec<PlayingBot>> {
    let rows = sqlx::query!(
        r#"select b.id as "id: BotId", b.active_version_id as "version!: VersionId", b.name, b.mu,
               b.sigma, case when u.name <> $1 then b.owner_id end as "owner: crate::ids::UserId"
           from bots b join users u on u.id = b.owner_id
           where b.active_version_id is not null and not b.disabled and b.game = $2
               and (not b.remote or ($3 and (select remote_tournaments from ranker)))"#,
        crate::house::ACCOUNT,
        game,
        for_tournament
    )
    .fetch_all(&mut *conn)
    .await?;
    let mut all: Vec<PlayingBot> = rows
        .into_iter()
        .map(|r| PlayingBot {
            id: r.id,
            version: r.version,
            name: r.name,
            rating: conservative(r.mu, r.sigma),
            owner: r.owner,
        })
        .collect();
    all.sort_by(|a, b| best_first((a.rating, &a.name), (b.rating, &b.name)));
    Ok(all)
}

/// Where a bot stands and when it plays: its place on the leaderboard now and a day ago,
/// when it last played, and its place in matchmaking's line (least played first, then
/// longest waiting) with how many matches the ladder finished in the last 10 minutes.
#[derive(Debug, Default)]
pub struct BotStanding {
    /// (place, bots ranked), when it is on the leaderboard.
    pub rank: Option<(i64, i64)>,
    /// Its place a day ago, when it was on the leaderboard then (ratings as they were).
    pub rank_day_ago: Option<i64>,
    pub last_game_at: Option<OffsetDateTime>,
    /// (place, bots in line) on the hosted ladder, for a hosted bot that can play.
    pub line: Option<(i64, i64)>,
    pub finished_lately: i64,
    /// Why no ranked match starts now, when none does: paused, or frozen at the
    /// deadline.
    pub stopped: Option<&'static str>,
    /// Bots that play and that it may meet (of other owners).
    pub opponents: usize,
    /// The mean gap between a bot's ranked games over the last 10 minutes (or since
    /// the ladder began, if later), in minutes: bots that play over the seats of the
    /// matches finished, times the minutes they took.
    pub gap_minutes: Option<f64>,
}

/// Seats of `game`'s ranked matches finished in the last 10 minutes, and the minutes
/// they were played over: since the first of them started, when the ladder began less
/// than 10 minutes ago (a new site's first game is not a pace of one game in ten
/// minutes).
pub async fn seats_lately(db: &PgPool, game: &str) -> sqlx::Result<(i64, f64)> {
    let r = sqlx::query!(
        r#"select count(*) as "seats!",
               coalesce(extract(epoch from now() - min(m.started_at)), 0)::float8 as "seconds!"
           from match_players p join matches m on m.id = p.match_id
           where m.status = 'finished' and m.finished_at > now() - interval '10 minutes'
             and m.ranked and m.game = $1"#,
        game
    )
    .fetch_one(db)
    .await?;
    Ok((r.seats, (r.seconds / 60.0).clamp(1.0, 10.0)))
}

/// The mean gap between a bot's ranked games, in minutes, when `seats` of ranked
/// matches were played over `minutes` by a ladder of `bots`; `None` when none was.
fn gap_minutes(bots: i64, (seats, minutes): (i64, f64)) -> Option<f64> {
    (seats > 0).then(|| minutes * bots as f64 / seats as f64)
}

/// The leaderboards' places of a day ago (ratings as `rating_history` had them then;
/// each bot's among its own game's bots), by bot: one index lookup per bot, so it is
/// made at most every [`DAY_AGO_FOR`] and shared by the bot pages meanwhile.
#[derive(Default)]
pub struct DayAgoRanks(std::sync::Mutex<Option<DayAgo>>);

/// The places of a day ago, and when they were read.
type DayAgo = (std::time::Instant, Arc<HashMap<BotId, i64>>);

/// How long the places of a day ago are kept.
pub const DAY_AGO_FOR: std::time::Duration = std::time::Duration::from_secs(600);

impl DayAgoRanks {
    pub async fn get(&self, db: &PgPool) -> sqlx::Result<Arc<HashMap<BotId, i64>>> {
        if let Some((at, ranks)) = &*self.0.lock().unwrap_or_else(|e| e.into_inner()) {
            if at.elapsed() < DAY_AGO_FOR {
                return Ok(ranks.clone());
            }
        }
        let rows = sqlx::query!(
            r#"with then_ as (
                   select b.id, b.name, b.game, coalesce(
                       (select h.mu - 3 * h.sigma from rating_history h
                        where h.bot_id = b.id and h.at < now() - interval '1 day'
                        order by h.at desc limit 1),
                       case when b.created_at < now() - interval '1 day' then $1::float8 end) as r
                   from bots b where b.active_version_id is not null and not b.disabled)
               select id as "id!: BotId",
                   row_number() over (partition by game order by r desc, lower(name)) as "place!"
               from then_ where r is not null"#,
            crate::ranker::rating::conservative(
                crate::ranker::rating::MU,
                crate::ranker::rating::SIGMA
            )
        )
        .fetch_all(db)
        .await?;
        let ranks: Arc<HashMap<BotId, i64>> =
            Arc::new(rows.into_iter().map(|r| (r.id, r.place)).collect());
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) =
            Some((std::time::Instant::now(), ranks.clone()));
        Ok(ranks)
    }
}

/// How many of `game`'s ranked matches finished in the last 10 minutes: its ladder's
/// pace.
pub async fn finished_lately(db: &PgPool, game: &str) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        r#"select count(*) as "n!" from matches
           where status = 'finished' and finished_at > now() - interval '10 minutes'
             and ranked and game = $1"#,
        game
    )
    .fetch_one(db)
    .await
}

/// One game's ladder of the moment, as the leaderboard has it.
pub struct LadderNow<'a> {
    pub game: &'a str,
    /// Every bot of the game that plays, best first.
    pub board: &'a [Standing],
    /// Its matches finished in the last 10 minutes: its pace.
    pub finished_lately: i64,
}

/// The standing of the bot `bot` named `name`, from its game's ladder of the moment
/// (`ladder`) and the contest's phase (`contest`, paused or frozen): queries only the
/// seats played lately and the places of a day ago, which are kept for 10 minutes.
pub async fn bot_standing(
    db: &PgPool,
    day_ago: &DayAgoRanks,
    bot: BotId,
    name: &str,
    ladder: LadderNow<'_>,
    contest: &crate::contest::Contest,
) -> sqlx::Result<BotStanding> {
    let LadderNow {
        game,
        board,
        finished_lately: lately,
    } = ladder;
    let me = board.iter().position(|s| s.name.eq_ignore_ascii_case(name));
    let of = board.len() as i64;
    let last_game_at = match me {
        Some(i) => board[i].last_game_at,
        // Off the leaderboard (disabled, or no version plays): asked of the database.
        None => {
            sqlx::query_scalar!("select last_game_at from bots where id = $1", bot as BotId)
                .fetch_one(db)
                .await?
        }
    };
    let owner = me.map(|i| board[i].owner.as_str());
    let opponents = board
        .iter()
        .filter(|s| Some(s.owner.as_str()) != owner || s.owner == crate::house::ACCOUNT)
        .count()
        .saturating_sub(usize::from(owner == Some(crate::house::ACCOUNT)));
    let seats = seats_lately(db, game).await?;
    let stopped = if contest.paused {
        Some("paused")
    } else if contest.frozen() {
        Some("frozen")
    } else {
        None
    };
    Ok(BotStanding {
        rank: me.map(|i| (i as i64 + 1, of)),
        rank_day_ago: day_ago.get(db).await?.get(&bot).copied(),
        last_game_at,
        // The hosted ladder's line: a remote bot is not in it (it plays whenever its
        // session waits, and its page says whether it is connected).
        line: me.filter(|&i| !board[i].remote).map(|i| {
            let hosted = || board.iter().filter(|s| !s.remote);
            let ahead = hosted().filter(|s| s.before_in_line(&board[i])).count();
            (ahead as i64 + 1, hosted().count() as i64)
        }),
        finished_lately: lately,
        stopped,
        opponents,
        gap_minutes: gap_minutes(of, seats),
    })
}

/// Filters of a match list; `cursor` is the last match of the previous page: the list
/// goes on with matches that finished before it, so pages stay stable while new
/// matches arrive.
#[derive(Debug, Default, Deserialize)]
pub struct MatchFilter {
    /// One game's matches (a list's own filter); every game's when `None`.
    pub game: Option<String>,
    pub bot: Option<String>,
    pub user: Option<String>,
    pub map: Option<String>,
    /// `ranked` or `unranked` (challenges' and tournaments' games); both if not given.
    pub kind: Option<String>,
    pub cursor: Option<MatchId>,
}

impl MatchFilter {
    /// `Some(true)` for ranked matches only, `Some(false)` for unranked ones only.
    pub fn ranked(&self) -> Option<bool> {
        match self.kind.as_deref().map(str::trim) {
            Some("ranked") => Some(true),
            Some("unranked") => Some(false),
            _ => None,
        }
    }
}

/// A finished match in a list.
#[derive(Debug, sqlx::FromRow)]
pub struct MatchRow {
    pub id: MatchId,
    /// Its game, by registry name.
    pub game: String,
    pub map: String,
    pub turns: Option<i32>,
    pub seconds: Option<f64>,
    pub finished_at: Option<OffsetDateTime>,
    /// Its players' ranks and bots, best first.
    pub ranks: Vec<i32>,
    pub bots: Vec<String>,
    /// Each one's first statistic (its game's headline number: gold, forts), and its
    /// seat, in the same order.
    pub firsts: Vec<Option<i64>>,
    pub seats: Vec<i32>,
    /// The challenge it was played for: an unranked match.
    pub challenge_id: Option<i64>,
    /// The tournament it was played in: an unranked match.
    pub tournament_id: Option<i64>,
    /// A remote bot's practice game: unranked (`crate::remote`).
    pub practice: bool,
}

impl MatchRow {
    /// (rank, bot), best first.
    pub fn ranked(&self) -> Vec<(u32, String)> {
        self.ranks
            .iter()
            .zip(&self.bots)
            .map(|(r, b)| (*r as u32, b.clone()))
            .collect()
    }

    /// Each one's name in the game, best first: its bot's, or `strong-2` for a bot a
    /// challenge seated again ([`crate::games::seat_names`]).
    pub fn names(&self) -> Vec<String> {
        let players: Vec<(i32, &str)> = (self.bots.iter().enumerate())
            .map(|(i, b)| (self.seats.get(i).copied().unwrap_or(i32::MAX), b.as_str()))
            .collect();
        crate::games::seat_names_of(&players)
    }

    /// Each one's first statistic with its name (`350 gold`), best first; empty where
    /// none was kept.
    pub fn firsts_text(&self) -> Vec<String> {
        (0..self.bots.len())
            .map(|i| crate::games::first_stat(&self.game, self.firsts.get(i).copied().flatten()))
            .collect()
    }
}

/// Matches per page.
pub const PAGE: i64 = 50;

/// A page of finished matches of a filter.
pub async fn finished_matches(db: &PgPool, f: &MatchFilter) -> sqlx::Result<Vec<MatchRow>> {
    latest_matches(db, f, PAGE).await
}

/// A filter's text, trimmed, if given.
fn given(s: &Option<String>) -> Option<String> {
    s.as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
}

/// The `limit` latest finished matches of a filter (the pages of bots and users show a
/// few: each match costs its players' lookup).
///
/// The one query written at run time: only the conditions of the filters given, so
/// that each combination is its own prepared statement whose plan uses the indexes.
/// With catch-all conditions (`$1 is null or ...`) the cached generic plan read a deep
/// page by filtering the newer matches one by one, and a bot's matches by walking all
/// matches. The page's ids are found first, from an index in the list's order (a bot's
/// seats, each of an owner's bots' seats, a map's matches or all matches); the rest is
/// read for those ids only. Parameters: cursor, bot, user, map, those given. The limit
/// is written in: with a parameter there, PostgreSQL's generic plan of the statement
/// expected 10% of all matches and read them all, so it planned every request afresh
/// instead (about 1 ms of the database's CPU per page). A match's players are sorted
/// once and both arrays aggregated in that order: two `array_agg(... order by ...)`
/// sorted them twice, which cost the match lists 2-11% of the database's CPU
/// (`bench/pages.sh`).
pub async fn latest_matches(
    db: &PgPool,
    f: &MatchFilter,
    limit: i64,
) -> sqlx::Result<Vec<MatchRow>> {
    let (bot, user, map) = (given(&f.bot), given(&f.user), given(&f.map));
    // A bot's and a map's matches are of their game already.
    let game = given(&f.game).filter(|_| bot.is_none() && map.is_none());
    let page = page_ids(
        f.cursor.is_some(),
        [&bot, &user, &map, &game],
        f.ranked(),
        limit,
    );
    let sql = format!(
        "select m.id, m.game, maps.name as map, m.turns, \
             extract(epoch from m.finished_at - m.started_at)::float8 as seconds, m.finished_at, \
             coalesce(pl.ranks, '{{}}') as ranks, coalesce(pl.bots, '{{}}') as bots, \
             coalesce(pl.firsts, '{{}}') as firsts, coalesce(pl.seats, '{{}}') as seats, \
             m.challenge_id, m.tournament_id, m.practice \
         from ({page}) page join matches m on m.id = page.id join maps on maps.id = m.map_id \
         cross join lateral (select array_agg(s.rank) as ranks, array_agg(s.name) as bots, \
                 array_agg(s.first) as firsts, array_agg(s.seat) as seats \
             from (select p.rank, b.name, p.first_stat as first, p.seat \
                 from match_players p join bots b on b.id = p.bot_id \
                 where p.match_id = m.id order by p.rank, p.seat) s) pl \
         order by m.finished_at desc, m.id desc"
    );
    let mut query = sqlx::query_as::<_, MatchRow>(sqlx::AssertSqlSafe(sql));
    if let Some(cursor) = f.cursor {
        query = query.bind(cursor);
    }
    for value in [bot, user, map, game].into_iter().flatten() {
        query = query.bind(value);
    }
    query.fetch_all(db).await
}

/// The condition that the match `id` is ranked (`Some(true)`) or unranked.
fn kind_of(ranked: Option<bool>, id: &str) -> String {
    ranked
        .map(|r| {
            let not = if r { "" } else { "not " };
            format!(" and exists (select 1 from matches k where k.id = {id} and {not}k.ranked)")
        })
        .unwrap_or_default()
}

/// The statement that finds a page's match ids (see [`latest_matches`]).
fn page_ids(
    has_cursor: bool,
    [bot, user, map, game]: [&Option<String>; 4],
    ranked: Option<bool>,
    limit: i64,
) -> String {
    let mut n = 0;
    let mut param = |given: bool| {
        given.then(|| {
            n += 1;
            n
        })
    };
    let c = param(has_cursor);
    let (b, u, m) = (
        param(bot.is_some()),
        param(user.is_some()),
        param(map.is_some()),
    );
    let g = param(game.is_some());
    let of_game = |id: &str| {
        g.map(|g| {
            format!(" and exists (select 1 from matches g where g.id = {id} and g.game = ${g})")
        })
        .unwrap_or_default()
    };
    // Conditions on a seat `p` (its match finished), or on a match `m`.
    let cursor = |on: &str| {
        c.map(|c| {
            format!(" and ({on}) < (select finished_at, id from matches where id = ${c} and status = 'finished')")
        })
        .unwrap_or_default()
    };
    let owner_played = |id: &str| {
        u.map(|u| {
            format!(
                " and exists (select 1 from match_players o join bots ob on ob.id = o.bot_id \
                   join users ou on ou.id = ob.owner_id where o.match_id = {id} and lower(ou.name) = lower(${u}))"
            )
        })
        .unwrap_or_default()
    };
    let on_map = |id: &str| {
        let map = m.map(|m| {
            format!(" and exists (select 1 from matches x join maps xm on xm.id = x.map_id where x.id = {id} and xm.name = ${m})")
        });
        map.unwrap_or_default() + &kind_of(ranked, id)
    };
    match (b, u) {
        (Some(b), _) => format!(
            // Distinct: a challenge may seat the bot more than once.
            "select distinct p.finished_at, p.match_id as id from match_players p \
             where p.bot_id = (select id from bots where lower(name) = lower(${b})) and p.finished_at is not null{}{}{} \
             order by p.finished_at desc, p.match_id desc limit {limit}",
            cursor("p.finished_at, p.match_id"),
            owner_played("p.match_id"),
            on_map("p.match_id"),
        ),
        (None, Some(u)) => format!(
            // The newest of each of the owner's bots, then the newest of those; a
            // match of two of its bots (house bots share an owner) counts once.
            "select s.id from bots ob join users ou on ou.id = ob.owner_id cross join lateral ( \
                 select p.match_id as id, p.finished_at from match_players p \
                 where p.bot_id = ob.id and p.finished_at is not null{}{}{} \
                 order by p.finished_at desc, p.match_id desc limit {limit}) s \
             where lower(ou.name) = lower(${u}) \
             group by s.id, s.finished_at order by s.finished_at desc, s.id desc limit {limit}",
            cursor("p.finished_at, p.match_id"),
            on_map("p.match_id"),
            of_game("p.match_id"),
        ),
        (None, None) => format!(
            "select m.id from matches m where m.status = 'finished'{}{}{} \
             order by m.finished_at desc, m.id desc limit {limit}",
            cursor("m.finished_at, m.id"),
            m.map(|m| format!(" and m.map_id = (select id from maps where name = ${m})"))
                .unwrap_or_default()
                + &kind_of(ranked, "m.id"),
            g.map(|g| format!(" and m.game = ${g}")).unwrap_or_default(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::gap_minutes;

    #[test]
    fn a_new_ladders_pace_is_measured_over_the_minutes_it_has_played() {
        // Ten minutes of a steady ladder: 5 bots, 20 seats played, a game every 2.5 min.
        assert_eq!(gap_minutes(5, (20, 10.0)), Some(2.5));
        // A new site's first duel, one minute in: not a game every 25 minutes.
        assert_eq!(gap_minutes(5, (2, 1.0)), Some(2.5));
        assert_eq!(gap_minutes(5, (0, 1.0)), None);
    }
}
