//! Reading a tournament: what it is, its games, its progress, and its standings with
//! the cross table of head-to-head records (`stats.rs` does the sums).

use sqlx::{PgConnection, PgPool};
use time::OffsetDateTime;

use super::create::Format;
use super::stats;
use crate::ids::{MatchId, TournamentId};
use crate::status::MatchStatus;

/// A tournament as its page shows it.
#[derive(Clone, Debug)]
pub struct Tournament {
    pub id: TournamentId,
    pub name: String,
    pub format: Format,
    pub players_per_game: i32,
    pub games: Option<i32>,
    pub rounds: Option<i32>,
    pub seed: i64,
    /// The participants as asked for, in words.
    pub asked: String,
    /// `running`, `finished` or `cancelled`.
    pub status: String,
    pub created_at: OffsetDateTime,
    pub finished_at: Option<OffsetDateTime>,
    /// Bot names and version numbers, in seeding order (a participant's `place`).
    pub participants: Vec<(String, i32)>,
    /// Why each participant was withdrawn, if it was (by place).
    pub withdrawn: Vec<Option<String>>,
    pub maps: Vec<String>,
}

impl Tournament {
    /// The games the whole tournament plays (a Swiss tournament's rounds to come
    /// included; a cancelled one's as they were).
    pub fn planned(&self) -> usize {
        let n = self.participants.len();
        let m = self.maps.len();
        match self.format {
            // Stored when made: every pair's games, less those of one owner's bots.
            Format::RoundRobin => self
                .games
                .map_or(n * n.saturating_sub(1) * m, |g| g as usize),
            Format::Groups => self.games.unwrap_or(0) as usize,
            Format::Swiss => self.rounds.unwrap_or(0) as usize * (n / 2) * 2 * m,
        }
    }

    pub fn running(&self) -> bool {
        self.status == "running"
    }
}

/// The name shown for a participant whose bot is gone.
pub const GONE: &str = "(deleted)";

/// Loads a tournament.
pub async fn load(db: &PgPool, id: TournamentId) -> sqlx::Result<Option<Tournament>> {
    let Some(t) = sqlx::query!(
        r#"select id as "id: TournamentId", name, format as "format: Format", players_per_game,
               games, rounds, seed, asked, status, created_at, finished_at
           from tournaments where id = $1"#,
        id as TournamentId
    )
    .fetch_optional(db)
    .await?
    else {
        return Ok(None);
    };
    let rows = sqlx::query!(
        r#"select p.place, b.name, v.number, p.withdrawn from tournament_participants p
           join bots b on b.id = p.bot_id join bot_versions v on v.id = p.version_id
           where p.tournament_id = $1 order by p.place"#,
        id as TournamentId
    )
    .fetch_all(db)
    .await?;
    // By place: a place whose row is gone still has its slot, so that every game's
    // places name the right participants (and none points past the list).
    let places = rows.last().map_or(0, |r| r.place as usize + 1);
    let mut participants = vec![(GONE.to_string(), 0); places];
    let mut withdrawn = vec![None; places];
    for r in rows {
        participants[r.place as usize] = (r.name, r.number);
        withdrawn[r.place as usize] = r.withdrawn;
    }
    let maps = sqlx::query_scalar!(
        "select m.name from tournament_maps t join maps m on m.id = t.map_id
         where t.tournament_id = $1 order by t.place",
        id as TournamentId
    )
    .fetch_all(db)
    .await?;
    Ok(Some(Tournament {
        id: t.id,
        name: t.name,
        format: t.format,
        players_per_game: t.players_per_game,
        games: t.games,
        rounds: t.rounds,
        seed: t.seed,
        asked: t.asked,
        status: t.status,
        created_at: t.created_at,
        finished_at: t.finished_at,
        participants,
        withdrawn,
        maps,
    }))
}

/// A tournament's seat: the participant's place and, once finished, its rank.
#[derive(Clone, Debug)]
pub struct Seat {
    pub place: usize,
    pub rank: Option<i32>,
    /// Its first statistic in words (`350 gold`) once finished, else empty.
    pub first: String,
}

/// One of a tournament's games.
#[derive(Clone, Debug)]
pub struct Game {
    pub id: MatchId,
    pub round: i32,
    pub map: String,
    pub status: MatchStatus,
    pub seconds: Option<f64>,
    /// By seat.
    pub seats: Vec<Seat>,
}

impl Game {
    /// The game as the standings of `n` participants count it: finished, every seat
    /// ranked and one of the `n`.
    pub fn scored(&self, n: usize) -> Option<stats::Game> {
        if self.status != MatchStatus::Finished {
            return None;
        }
        let ranks = self
            .seats
            .iter()
            .map(|s| Some((s.place, s.rank? as u32)).filter(|&(place, _)| place < n))
            .collect::<Option<Vec<_>>>()?;
        Some(stats::Game { ranks })
    }
}

/// Every game of a tournament, in the order queued.
pub async fn games(conn: &mut PgConnection, id: TournamentId) -> sqlx::Result<Vec<Game>> {
    let rows = sqlx::query!(
        r#"select m.id as "id: MatchId", m.round as "round!", maps.name as map,
               m.status as "status: MatchStatus",
               extract(epoch from m.finished_at - m.started_at)::float8 as seconds,
               array_agg(tp.place order by p.seat) as "places!: Vec<i32>",
               array_agg(p.rank order by p.seat) as "ranks!: Vec<Option<i32>>",
               array_agg(p.first_stat order by p.seat) as "firsts!: Vec<Option<i64>>", m.game
           from matches m join maps on maps.id = m.map_id
           join match_players p on p.match_id = m.id
           join tournament_participants tp
               on tp.tournament_id = m.tournament_id and tp.bot_id = p.bot_id
           where m.tournament_id = $1
           group by m.id, maps.name order by m.id"#,
        id as TournamentId
    )
    .fetch_all(conn)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| Game {
            id: r.id,
            round: r.round,
            map: r.map,
            status: r.status,
            seconds: r.seconds,
            seats: r
                .places
                .iter()
                .zip(&r.ranks)
                .zip(&r.firsts)
                .map(|((&place, &rank), &first)| Seat {
                    place: place as usize,
                    rank,
                    first: crate::games::first_stat(&r.game, first),
                })
                .collect(),
        })
        .collect())
}

/// How far a tournament is.
#[derive(Clone, Debug, Default)]
pub struct Progress {
    /// Games finished or voided.
    pub done: usize,
    /// Games the tournament plays in all.
    pub total: usize,
    pub running: usize,
    /// Seconds until the last game ends, at the pace of the games so far and the
    /// workers alive now.
    pub seconds_left: Option<f64>,
}

impl Progress {
    pub fn of(t: &Tournament, games: &[Game], workers: usize) -> Progress {
        let done = games
            .iter()
            .filter(|g| matches!(g.status, MatchStatus::Finished | MatchStatus::Void))
            .count();
        let running = games
            .iter()
            .filter(|g| g.status == MatchStatus::Running)
            .count();
        let total = if t.running() {
            t.planned().max(games.len())
        } else {
            games.len()
        };
        let times: Vec<f64> = games.iter().filter_map(|g| g.seconds).collect();
        let seconds_left = (!times.is_empty() && t.running()).then(|| {
            let mean = times.iter().sum::<f64>() / times.len() as f64;
            mean * total.saturating_sub(done) as f64 / workers.max(1) as f64
        });
        Progress {
            done,
            total,
            running,
            seconds_left,
        }
    }

    /// Done as a share of the total, 0 to 100.
    pub fn percent(&self) -> u32 {
        (100 * self.done)
            .checked_div(self.total)
            .map_or(0, |p| p.min(100) as u32)
    }
}

/// A participant's line of the standings.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Row {
    pub place: usize,
    pub bot: String,
    pub version: i32,
    pub games: usize,
    pub points: f64,
    pub strength: f64,
    pub interval: (f64, f64),
    /// Why it was withdrawn, if it was: it was paired no more.
    #[serde(default)]
    pub withdrawn: Option<String>,
}

/// A pair's head-to-head record, from the row's participant's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Cell {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Cell {
    pub fn played(&self) -> bool {
        self.wins + self.draws + self.losses > 0
    }
}

/// The standings: rows best first, the chance that the leader is the strongest, and
/// the cross table (by place, both ways).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Table {
    pub rows: Vec<Row>,
    pub leader_strongest: Option<f64>,
    /// The participant the fit puts strongest (its place).
    pub leader: Option<usize>,
    pub cross: Vec<Vec<Cell>>,
}

/// The standings of `t` from its games: sorted by points, then strength.
pub fn standings_of(t: &Tournament, games: &[Game]) -> Table {
    let n = t.participants.len();
    let scored: Vec<stats::Game> = games.iter().filter_map(|g| g.scored(n)).collect();
    let s = stats::standings(n, &scored, stats::RESAMPLES, t.seed as u64);
    let mut played = vec![0usize; n];
    for g in &scored {
        for &(p, _) in &g.ranks {
            played[p] += 1;
        }
    }
    let mut rows: Vec<Row> = s
        .rows
        .iter()
        .enumerate()
        .map(|(place, r)| Row {
            place,
            bot: t.participants[place].0.clone(),
            version: t.participants[place].1,
            games: played[place],
            points: r.points,
            strength: r.strength,
            interval: r.interval,
            withdrawn: t.withdrawn.get(place).cloned().flatten(),
        })
        .collect();
    rows.sort_by(|a, b| {
        b.points
            .total_cmp(&a.points)
            .then(b.strength.total_cmp(&a.strength))
            .then(a.place.cmp(&b.place))
    });
    Table {
        rows,
        leader_strongest: s.leader.map(|_| s.leader_strongest),
        leader: s.leader,
        cross: cross_table(n, &scored),
    }
}

/// A participant's points over the games up to one (what a big screen showing the
/// games in order says between them, before the later results are shown).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct PointsSoFar {
    pub bot: String,
    pub points: f64,
    pub games: usize,
}

/// The points of `t`'s participants over its games up to `last` (ids in the order
/// queued), most first, then by seeding.
pub fn points_through(t: &Tournament, games: &[Game], last: MatchId) -> Vec<PointsSoFar> {
    let n = t.participants.len();
    let scored: Vec<stats::Game> = (games.iter().filter(|g| g.id <= last))
        .filter_map(|g| g.scored(n))
        .collect();
    let points = stats::points(n, &scored);
    let mut played = vec![0usize; n];
    for &(p, _) in scored.iter().flat_map(|g| &g.ranks) {
        played[p] += 1;
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| points[b].total_cmp(&points[a]).then(a.cmp(&b)));
    order
        .into_iter()
        .map(|p| PointsSoFar {
            bot: t.participants[p].0.clone(),
            points: points[p],
            games: played[p],
        })
        .collect()
}

/// Each pair's wins, draws and losses over the games both finished (in a game of
/// more, who finished ahead of whom).
fn cross_table(n: usize, games: &[stats::Game]) -> Vec<Vec<Cell>> {
    let mut cross = vec![vec![Cell::default(); n]; n];
    for g in games {
        for &(a, ra) in &g.ranks {
            for &(b, rb) in &g.ranks {
                if a == b {
                    continue;
                }
                let cell = &mut cross[a][b];
                match ra.cmp(&rb) {
                    std::cmp::Ordering::Less => cell.wins += 1,
                    std::cmp::Ordering::Equal => cell.draws += 1,
                    std::cmp::Ordering::Greater => cell.losses += 1,
                }
            }
        }
    }
    cross
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cross_table_counts_who_finished_ahead_of_whom_both_ways() {
        let games = [
            stats::Game {
                ranks: vec![(0, 1), (1, 2)],
            },
            stats::Game {
                ranks: vec![(1, 1), (0, 1)],
            },
            stats::Game {
                ranks: vec![(2, 1), (0, 2), (1, 3)],
            },
        ];
        let c = cross_table(3, &games);
        let cell = |w, d, l| Cell {
            wins: w,
            draws: d,
            losses: l,
        };
        assert_eq!(c[0][1], cell(2, 1, 0));
        assert_eq!(c[1][0], cell(0, 1, 2));
        assert_eq!(c[2][0], cell(1, 0, 0));
        assert_eq!(c[0][2], cell(0, 0, 1));
        assert!(!c[0][0].played());
    }

    #[test]
    fn the_points_so_far_leave_out_the_games_after_the_one_shown() {
        let t = Tournament {
            id: TournamentId(1),
            name: "Cup".into(),
            format: Format::RoundRobin,
            players_per_game: 2,
            games: None,
            rounds: None,
            seed: 1,
            asked: String::new(),
            status: "running".into(),
            created_at: OffsetDateTime::UNIX_EPOCH,
            finished_at: None,
            participants: vec![("ann".into(), 1), ("ben".into(), 1)],
            withdrawn: vec![None, None],
            maps: vec![],
        };
        let game = |id, status, ranks: [i32; 2]| Game {
            id: MatchId(id),
            round: 0,
            map: "m".into(),
            status,
            seconds: None,
            seats: (0..2)
                .map(|place| Seat {
                    place,
                    rank: Some(ranks[place]),
                    first: String::new(),
                })
                .collect(),
        };
        let games = [
            game(5, MatchStatus::Finished, [2, 1]),
            game(6, MatchStatus::Void, [1, 2]),
            game(7, MatchStatus::Finished, [1, 2]),
            game(8, MatchStatus::Finished, [1, 2]),
        ];
        let so_far = |last| {
            points_through(&t, &games, MatchId(last))
                .into_iter()
                .map(|r| (r.bot, r.points, r.games))
                .collect::<Vec<_>>()
        };
        assert_eq!(so_far(5), [("ben".into(), 1.0, 1), ("ann".into(), 0.0, 1)]);
        assert_eq!(so_far(7), [("ann".into(), 1.0, 2), ("ben".into(), 1.0, 2)]);
        assert_eq!(so_far(8), [("ann".into(), 2.0, 3), ("ben".into(), 1.0, 3)]);
    }
}
