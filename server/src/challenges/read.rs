//! A challenge or an A/B test as its page and the API show it: its games as they
//! stand, and what they add up to.

use std::collections::BTreeMap;

use sqlx::PgPool;
use time::OffsetDateTime;

use super::stats::{self, Comparison};
use super::Kind;
use crate::ids::{ChallengeId, MatchId, UserId};
use crate::status::MatchStatus;

/// One game of a challenge.
#[derive(Clone, Debug)]
pub struct Game {
    pub id: MatchId,
    pub status: MatchStatus,
    pub map: String,
    /// An A/B test's scenario, and which version played (`a` or `b`).
    pub scenario: Option<i32>,
    pub arm: Option<String>,
    /// The bots by seat, their ranks and first statistics (`350 gold`) once finished.
    pub players: Vec<String>,
    pub ranks: Vec<Option<i32>>,
    pub firsts: Vec<String>,
    /// The challenger's seat.
    pub me: usize,
    /// When it ended, once it has.
    pub finished_at: Option<OffsetDateTime>,
}

impl Game {
    fn finished(&self) -> bool {
        self.status == MatchStatus::Finished && self.ranks.iter().all(Option::is_some)
    }

    fn ranks(&self) -> Vec<u32> {
        self.ranks.iter().map(|r| r.unwrap_or(0) as u32).collect()
    }

    /// The challenger's result: a win alone at first place, a draw sharing it.
    pub fn result(&self) -> Option<Tally> {
        if !self.finished() {
            return None;
        }
        let mine = self.ranks[self.me];
        let firsts = self.ranks.iter().filter(|r| **r == Some(1)).count();
        Some(match (mine, firsts) {
            (Some(1), 1) => Tally::win(),
            (Some(1), _) => Tally::draw(),
            _ => Tally::loss(),
        })
    }
}

/// Wins, draws and losses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Tally {
    fn win() -> Tally {
        Tally {
            wins: 1,
            ..Tally::default()
        }
    }
    fn draw() -> Tally {
        Tally {
            draws: 1,
            ..Tally::default()
        }
    }
    fn loss() -> Tally {
        Tally {
            losses: 1,
            ..Tally::default()
        }
    }
    fn add(&mut self, o: Tally) {
        self.wins += o.wins;
        self.draws += o.draws;
        self.losses += o.losses;
    }
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }
}

/// Where a challenge is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// No game started yet.
    Queued,
    Running,
    /// Every game finished or void.
    Finished,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Queued => "queued",
            Status::Running => "running",
            Status::Finished => "finished",
        }
    }
}

/// A challenge's results: against each opponent (the challenger's place against
/// theirs), and on each map.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub opponents: Vec<(String, Tally)>,
    pub maps: Vec<(String, Tally)>,
    pub total: Tally,
}

/// One side of an A/B test.
#[derive(Clone, Debug)]
pub struct Side {
    pub version: i32,
    pub tally: Tally,
}

/// A challenge or an A/B test.
#[derive(Clone, Debug)]
pub struct Challenge {
    pub id: ChallengeId,
    pub kind: Kind,
    pub owner_id: UserId,
    pub owner: String,
    pub bot: String,
    /// The version that plays (an A/B test's A).
    pub version: i32,
    /// An A/B test's B.
    pub candidate: Option<i32>,
    pub asked: String,
    pub created_at: OffsetDateTime,
    pub games: Vec<Game>,
}

impl Challenge {
    pub fn status(&self) -> Status {
        let done = |g: &Game| matches!(g.status, MatchStatus::Finished | MatchStatus::Void);
        if self.games.iter().all(done) {
            Status::Finished
        } else if self.games.iter().any(|g| g.status != MatchStatus::Queued) {
            Status::Running
        } else {
            Status::Queued
        }
    }

    /// Games finished or void.
    pub fn done(&self) -> usize {
        self.games
            .iter()
            .filter(|g| matches!(g.status, MatchStatus::Finished | MatchStatus::Void))
            .count()
    }

    /// About how long the games still to play will take, at the pace of the latest
    /// [`PACE_GAMES`] that finished; `None` before two have, or once all are done.
    pub fn time_left(&self) -> Option<time::Duration> {
        let mut ends: Vec<OffsetDateTime> =
            self.games.iter().filter_map(|g| g.finished_at).collect();
        ends.sort_unstable_by(|a, b| b.cmp(a));
        ends.truncate(PACE_GAMES);
        let left = self.games.len() - self.done();
        let (newest, oldest) = (ends.first()?, ends.last()?);
        if left == 0 || ends.len() < 2 {
            return None;
        }
        Some((*newest - *oldest) / (ends.len() - 1) as f64 * left as f64)
    }

    pub fn summary(&self) -> Summary {
        let mut opponents: BTreeMap<String, Tally> = BTreeMap::new();
        let mut maps: BTreeMap<String, Tally> = BTreeMap::new();
        let mut total = Tally::default();
        for g in &self.games {
            let Some(result) = g.result() else { continue };
            total.add(result);
            maps.entry(g.map.clone()).or_default().add(result);
            // Against each opponent's best seat: a bot in three seats is beaten when
            // the challenger is ahead of all three.
            let mine = g.ranks[g.me];
            let mut best: BTreeMap<&String, Option<i32>> = BTreeMap::new();
            for (i, name) in g.players.iter().enumerate().filter(|(i, _)| *i != g.me) {
                let rank = best.entry(name).or_insert(g.ranks[i]);
                *rank = (*rank).min(g.ranks[i]);
            }
            for (name, theirs) in best {
                let t = match theirs.cmp(&mine) {
                    std::cmp::Ordering::Greater => Tally::win(),
                    std::cmp::Ordering::Equal => Tally::draw(),
                    std::cmp::Ordering::Less => Tally::loss(),
                };
                opponents.entry(name.clone()).or_default().add(t);
            }
        }
        Summary {
            opponents: opponents.into_iter().collect(),
            maps: maps.into_iter().collect(),
            total,
        }
    }

    /// An A/B test's sides: A's and B's results.
    pub fn sides(&self) -> (Side, Side) {
        let mut a = Side {
            version: self.version,
            tally: Tally::default(),
        };
        let mut b = Side {
            version: self.candidate.unwrap_or(0),
            tally: Tally::default(),
        };
        for g in &self.games {
            if let Some(r) = g.result() {
                match g.arm.as_deref() {
                    Some("b") => b.tally.add(r),
                    _ => a.tally.add(r),
                }
            }
        }
        (a, b)
    }

    /// An A/B test's comparison over the scenarios both versions finished.
    pub fn comparison(&self) -> Option<Comparison> {
        let mut pairs: BTreeMap<i32, (Option<f64>, Option<f64>)> = BTreeMap::new();
        for g in self.games.iter().filter(|g| g.finished()) {
            let score = stats::score(&g.ranks(), g.me);
            let e = pairs.entry(g.scenario.unwrap_or(0)).or_default();
            match g.arm.as_deref() {
                Some("b") => e.1 = Some(score),
                _ => e.0 = Some(score),
            }
        }
        let complete: Vec<(f64, f64)> = pairs
            .into_values()
            .filter_map(|(a, b)| Some((a?, b?)))
            .collect();
        stats::compare(&complete, self.id.0 as u64)
    }
}

/// A challenge and its games, in the order they were queued.
pub async fn load(db: &PgPool, id: ChallengeId) -> sqlx::Result<Option<Challenge>> {
    let Some(c) = sqlx::query!(
        r#"select c.kind as "kind: Kind", c.owner_id as "owner_id: UserId", u.name as owner,
               b.name as bot, c.bot_id, v.number as version, cv.number as "candidate?",
               c.asked, c.created_at
           from challenges c join users u on u.id = c.owner_id join bots b on b.id = c.bot_id
           join bot_versions v on v.id = c.version_id
           left join bot_versions cv on cv.id = c.candidate_id
           where c.id = $1"#,
        id as ChallengeId
    )
    .fetch_optional(db)
    .await?
    else {
        return Ok(None);
    };
    let games = sqlx::query!(
        r#"select m.id as "id: MatchId", m.status as "status: MatchStatus", maps.name as map,
               m.scenario, m.arm, m.finished_at,
               array(select b.name from match_players p join bots b on b.id = p.bot_id
                     where p.match_id = m.id order by p.seat) as "players!",
               array(select p.rank from match_players p
                     where p.match_id = m.id order by p.seat) as "ranks!: Vec<Option<i32>>",
               array(select p.first_stat from match_players p
                     where p.match_id = m.id order by p.seat) as "firsts!: Vec<Option<i64>>",
               m.game,
               (select p.seat from match_players p
                where p.match_id = m.id and p.bot_id = $2) as "me!"
           from matches m join maps on maps.id = m.map_id
           where m.challenge_id = $1 order by m.id"#,
        id as ChallengeId,
        c.bot_id
    )
    .fetch_all(db)
    .await?;
    Ok(Some(Challenge {
        id,
        kind: c.kind,
        owner_id: c.owner_id,
        owner: c.owner,
        bot: c.bot,
        version: c.version,
        candidate: c.candidate,
        asked: c.asked,
        created_at: c.created_at,
        games: games
            .into_iter()
            .map(|g| Game {
                id: g.id,
                status: g.status,
                map: g.map,
                scenario: g.scenario,
                arm: g.arm,
                players: g.players,
                ranks: g.ranks,
                firsts: (g.firsts.into_iter())
                    .map(|v| crate::games::first_stat(&g.game, v))
                    .collect(),
                me: g.me.max(0) as usize,
                finished_at: g.finished_at,
            })
            .collect(),
    }))
}

/// The latest finished games whose pace [`Challenge::time_left`] goes by: the pace of
/// the workers now, not of an hour ago.
pub const PACE_GAMES: usize = 10;

/// A challenge in a list: what was asked, and how far it is.
#[derive(Clone, Debug)]
pub struct Listed {
    pub id: ChallengeId,
    pub kind: Kind,
    pub asked: String,
    pub games: i64,
    pub done: i64,
    pub created_at: OffsetDateTime,
}

/// The `limit` latest challenges and A/B tests of a bot.
pub async fn recent(db: &PgPool, bot: crate::ids::BotId, limit: i64) -> sqlx::Result<Vec<Listed>> {
    sqlx::query_as!(
        Listed,
        r#"select c.id as "id: ChallengeId", c.kind as "kind: Kind", c.asked,
               count(m.id) as "games!",
               count(m.id) filter (where m.status in ('finished', 'void')) as "done!",
               c.created_at
           from challenges c left join matches m on m.challenge_id = c.id
           where c.bot_id = $1 group by c.id order by c.id desc limit $2"#,
        bot as crate::ids::BotId,
        limit
    )
    .fetch_all(db)
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(players: &[&str], ranks: &[i32]) -> Game {
        Game {
            id: MatchId(1),
            status: MatchStatus::Finished,
            map: "m1".into(),
            scenario: None,
            arm: None,
            players: players.iter().map(|p| p.to_string()).collect(),
            ranks: ranks.iter().map(|&r| Some(r)).collect(),
            firsts: vec![String::new(); players.len()],
            me: 0,
            finished_at: None,
        }
    }

    #[test]
    fn an_opponent_in_several_seats_counts_once_a_game_by_its_best_seat() {
        let c = Challenge {
            id: ChallengeId(1),
            kind: Kind::Challenge,
            owner_id: UserId(1),
            owner: "alice".into(),
            bot: "me".into(),
            version: 1,
            candidate: None,
            asked: "3 × strong".into(),
            created_at: OffsetDateTime::UNIX_EPOCH,
            games: vec![
                // Second behind one of strong's three heroes: a loss to strong.
                game(&["me", "strong", "strong", "strong"], &[2, 1, 3, 4]),
                // Ahead of all three: a win.
                game(&["me", "strong", "strong", "strong"], &[1, 2, 3, 4]),
            ],
        };
        let s = c.summary();
        assert_eq!(s.opponents.len(), 1);
        let (name, t) = &s.opponents[0];
        assert_eq!(
            (name.as_str(), t.wins, t.draws, t.losses),
            ("strong", 1, 0, 1)
        );
        assert_eq!(s.total.games(), 2);
    }
}
