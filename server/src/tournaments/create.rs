//! Making a tournament: the request checked, its participants (with the versions they
//! play now, frozen) and maps chosen, its schedule laid out (`plan.rs`) and queued, in
//! one transaction; and cancelling one.

use std::collections::HashSet;

use rand::{RngCore, SeedableRng};
use sqlx::{PgConnection, PgPool};

pub use super::ask::{Ask, Format, Part, Participants, GROUP_PLAYERS};
use super::{plan, Refusal, MAX_GAMES, MAX_PARTICIPANTS, MAX_ROUNDS, MAX_RUNNING};
use crate::challenges::{Failure, Step};
use crate::ids::{BotId, MapId, TournamentId, UserId, VersionId};
use crate::ranker::{insert_match, Purpose};
use game_interface::GameKind;

/// A tournament made.
#[derive(Clone, Debug)]
pub struct Created {
    pub id: TournamentId,
    /// Games queued now (a Swiss tournament queues one round at a time).
    pub queued: usize,
}

/// A refusal, with the part of the request it is about when it is about one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pointed {
    pub part: Option<Part>,
    pub refusal: Refusal,
}

impl Part {
    /// `refusal`, about this part.
    pub fn refused(self, refusal: Refusal) -> Pointed {
        Pointed {
            part: Some(self),
            refusal,
        }
    }

    /// A step's failure as [`create`]'s: a refusal is about this part.
    fn of(self) -> impl FnOnce(Failure) -> Stop {
        move |f| match f {
            Failure::Refused(r) => Stop::Refused(self.refused(r)),
            Failure::Broken(e) => Stop::Broken(e),
        }
    }
}

/// Why making a tournament stopped: a refusal, or the database's trouble.
enum Stop {
    Refused(Pointed),
    Broken(anyhow::Error),
}

impl From<Pointed> for Stop {
    fn from(p: Pointed) -> Stop {
        Stop::Refused(p)
    }
}

/// A refusal about no one part (too many running, too many games in all).
impl From<Refusal> for Stop {
    fn from(refusal: Refusal) -> Stop {
        Stop::Refused(Pointed {
            part: None,
            refusal,
        })
    }
}

impl From<sqlx::Error> for Stop {
    fn from(e: sqlx::Error) -> Stop {
        Stop::Broken(e.into())
    }
}

/// A participant as chosen.
#[derive(Clone)]
pub(crate) struct Entrant {
    pub bot: BotId,
    pub version: VersionId,
    /// Its owner: bots of one owner never meet in a tournament (the house's bots,
    /// with none, each stand for themselves).
    pub owner: Option<UserId>,
}

/// A map as chosen.
pub(crate) struct MapPick {
    pub id: MapId,
}

/// Checks the request's shape: name, players a game, games and rounds.
fn check(ask: &Ask) -> Result<(Option<u32>, Option<u32>), Pointed> {
    let name = ask.name.trim();
    if name.is_empty() || name.chars().count() > 100 {
        return Err(Part::Name.refused(Refusal::Invalid(
            "Give the tournament a name of 1 to 100 characters.".into(),
        )));
    }
    match (ask.format, ask.players_per_game) {
        (Format::Groups, Some(k)) if !GROUP_PLAYERS.contains(&k) => {
            return Err(Part::Players.refused(Refusal::Invalid(format!(
                "Groups are games of {} to {} players (`players_per_game`).",
                GROUP_PLAYERS.start(),
                GROUP_PLAYERS.end()
            ))))
        }
        (Format::RoundRobin | Format::Swiss, Some(k)) if k != 2 => {
            return Err(Part::Players.refused(Refusal::Invalid(format!(
                "A {} is played in duels: `players_per_game` is 2.",
                ask.format.words().to_lowercase()
            ))))
        }
        _ => {}
    }
    let games =
        match (ask.format, ask.games) {
            (Format::Groups, Some(g)) if g == 0 || g as usize > MAX_GAMES => {
                return Err(Part::Games
                    .refused(Refusal::Invalid(format!("Ask for 1 to {MAX_GAMES} games."))))
            }
            (Format::Groups, g) => g,
            (_, Some(_)) => return Err(Part::Games.refused(Refusal::Invalid(
                "`games` is for groups; a round robin plays every pair, and Swiss counts `rounds`."
                    .into(),
            ))),
            (_, None) => None,
        };
    let rounds = match (ask.format, ask.rounds) {
        (Format::Swiss, Some(r)) if r == 0 || r > MAX_ROUNDS => {
            return Err(Part::Rounds.refused(Refusal::Invalid(format!(
                "Ask for 1 to {MAX_ROUNDS} rounds."
            ))))
        }
        (Format::Swiss, r) => r,
        (_, Some(_)) => {
            return Err(Part::Rounds.refused(Refusal::Invalid(
                "`rounds` is for Swiss tournaments.".into(),
            )))
        }
        (_, None) => None,
    };
    Ok((games, rounds))
}

/// The players a game of `format` seats in `kind`'s games: the number asked for, else
/// the fewest that format may seat there (2 for duels, the game's fewest for groups).
fn players_in(kind: &dyn GameKind, format: Format, asked: Option<u32>) -> Result<u32, Pointed> {
    let seats = kind.defaults().seats;
    let (fewest, most) = seats;
    let has = match fewest == most {
        true => format!("{fewest} players"),
        false => format!("{fewest} to {most} players"),
    };
    let Some(fit) = format.players_for(seats) else {
        let groups = Format::Groups.players_for(seats);
        return Err(Part::Format.refused(Refusal::Invalid(format!(
            "A game of {} has {has}, and {} is played in duels: {}.",
            kind.title(),
            match format {
                Format::Swiss => "a Swiss tournament".to_string(),
                f => format!("a {}", f.words().to_lowercase()),
            },
            match groups {
                Some(g) => format!("play free-for-all groups of {}", g.start()),
                None => "no format of tournament plays it".into(),
            }
        ))));
    };
    let k = asked.unwrap_or(*fit.start());
    if !fit.contains(&k) {
        return Err(Part::Players.refused(Refusal::Invalid(format!(
            "A game of {} has {has}: play groups of that size.",
            kind.title()
        ))));
    }
    Ok(k)
}

/// The participants asked for, in seeding order.
async fn participants(
    conn: &mut PgConnection,
    asked: &Participants,
    game: &str,
) -> Step<Vec<Entrant>> {
    let all: Vec<(String, Entrant)> = crate::standings::playing_bots(conn, game, true)
        .await?
        .into_iter()
        .map(|b| {
            let e = Entrant {
                bot: b.id,
                version: b.version,
                owner: b.owner,
            };
            (b.name, e)
        })
        .collect();
    // "all" and the top K take each owner's best bot: copies of one strong bot, or a
    // sparring bot that throws its games, do not get in unless named.
    let mut owners = HashSet::new();
    let mut best_of_each = || {
        all.iter()
            .filter(|(_, e)| e.owner.is_none_or(|o| owners.insert(o)))
            .map(|(_, e)| e.clone())
            .collect::<Vec<_>>()
    };
    let chosen: Vec<Entrant> = match asked {
        Participants::Word(w) if w.trim().eq_ignore_ascii_case("all") => best_of_each(),
        Participants::Word(w) => {
            return Err(Refusal::Invalid(format!(
                "`{w}` is not a choice of participants: write \"all\", {{\"top\": K}} or a list of bot names."
            ))
            .into())
        }
        Participants::Top { top } => best_of_each().into_iter().take(*top as usize).collect(),
        Participants::Named(names) => named(all, names)?,
    };
    if chosen.len() < 2 {
        return Err(Refusal::Conflict(
            "A tournament needs at least 2 bots that play (an active version, not disabled)."
                .into(),
        )
        .into());
    }
    if chosen.len() > MAX_PARTICIPANTS {
        return Err(Refusal::Invalid(format!(
            "A tournament has at most {MAX_PARTICIPANTS} participants; ask for the top {MAX_PARTICIPANTS}."
        ))
        .into());
    }
    Ok(chosen)
}

/// The bots of `names` among those that play, in the order given.
fn named(all: Vec<(String, Entrant)>, names: &[String]) -> Result<Vec<Entrant>, Refusal> {
    if names.len() > MAX_PARTICIPANTS {
        return Err(Refusal::Invalid(format!(
            "A tournament has at most {MAX_PARTICIPANTS} participants."
        )));
    }
    let mut all: Vec<Option<(String, Entrant)>> = all.into_iter().map(Some).collect();
    let mut chosen = Vec::new();
    for n in names.iter().map(|n| n.trim()).filter(|n| !n.is_empty()) {
        let found = all.iter_mut().find(|e| {
            e.as_ref()
                .is_some_and(|(name, _)| name.eq_ignore_ascii_case(n))
        });
        match found.and_then(Option::take) {
            Some((_, e)) => chosen.push(e),
            None => {
                let shown: String = n.chars().take(40).collect();
                return Err(Refusal::Conflict(format!(
                    "`{shown}` is not a bot that plays (no such bot, named twice, disabled, or no active version)."
                )));
            }
        }
    }
    Ok(chosen)
}

/// The maps of `game` asked for, or every enabled map of it for `k` players.
async fn maps(conn: &mut PgConnection, names: &[String], k: u32, game: &str) -> Step<Vec<MapPick>> {
    let rows = sqlx::query!(
        r#"select id as "id: MapId", name, seats, enabled from maps where game = $1
           order by name"#,
        game
    )
    .fetch_all(&mut *conn)
    .await?;
    if names.is_empty() {
        let picked: Vec<MapPick> = rows
            .iter()
            .filter(|m| m.enabled && m.seats == k as i32)
            .map(|m| MapPick { id: m.id })
            .collect();
        if picked.is_empty() {
            return Err(Refusal::Conflict(format!("No enabled map is for {k} players.")).into());
        }
        return Ok(picked);
    }
    if names.len() > 50 {
        return Err(Refusal::Invalid("Name at most 50 maps.".into()).into());
    }
    let mut picked: Vec<MapPick> = Vec::new();
    for n in names {
        let Some(m) = rows.iter().find(|m| m.name == n.trim()) else {
            let shown: String = n.chars().take(64).collect();
            return Err(Refusal::Invalid(format!("There is no map `{shown}`.")).into());
        };
        if m.seats != k as i32 {
            return Err(Refusal::Invalid(format!(
                "Map `{}` is for {} players; this tournament's games have {k}.",
                m.name, m.seats
            ))
            .into());
        }
        if picked.iter().any(|p| p.id == m.id) {
            return Err(Refusal::Invalid(format!("Map `{}` is named twice.", m.name)).into());
        }
        picked.push(MapPick { id: m.id });
    }
    Ok(picked)
}

/// The games to queue now, and the games and rounds the whole tournament plays.
struct Schedule {
    now: Vec<plan::Planned>,
    games: Option<u32>,
    rounds: Option<u32>,
}

/// The pairs of participants (by place, the smaller first) that have one owner: they
/// never meet.
pub(crate) fn same_owner(entrants: &[Entrant]) -> HashSet<(usize, usize)> {
    let mut kin = HashSet::new();
    for (a, x) in entrants.iter().enumerate() {
        for (b, y) in entrants.iter().enumerate().skip(a + 1) {
            if x.owner.is_some() && x.owner == y.owner {
                kin.insert((a, b));
            }
        }
    }
    kin
}

/// Whether a planned game seats two participants of one owner.
fn meets_kin(game: &plan::Planned, kin: &HashSet<(usize, usize)>) -> bool {
    let p = &game.seats;
    p.iter().enumerate().any(|(i, &a)| {
        p[i + 1..]
            .iter()
            .any(|&b| kin.contains(&(a.min(b), a.max(b))))
    })
}

fn schedule(
    format: Format,
    n: usize,
    k: usize,
    maps: usize,
    (games, rounds): (Option<u32>, Option<u32>),
    kin: &HashSet<(usize, usize)>,
    seed: u64,
) -> Result<Schedule, Pointed> {
    let (s, total) = match format {
        Format::RoundRobin => {
            let mut now = plan::round_robin(n, maps);
            now.retain(|g| !meets_kin(g, kin));
            let total = now.len();
            let s = Schedule {
                now,
                // Every pair's games, less those of one owner's bots.
                games: Some(total as u32),
                rounds: None,
            };
            (s, total)
        }
        Format::Groups => {
            let g = games.map_or_else(|| default_groups_games(n, k), |g| g as usize);
            let s = Schedule {
                now: plan::groups(n, k, maps, g, seed),
                games: Some(g as u32),
                rounds: None,
            };
            (s, g)
        }
        Format::Swiss => {
            let r = rounds.unwrap_or_else(|| default_rounds(n));
            let (pairs, _) = plan::swiss_pairs(&vec![0.0; n], kin, &[], seed);
            let now = plan::swiss_round(0, &pairs, maps);
            let total = now.len() * r as usize;
            let s = Schedule {
                now,
                games: None,
                rounds: Some(r),
            };
            (s, total)
        }
    };
    if total == 0 {
        return Err(Part::Participants.refused(Refusal::Conflict(
            "Every pair of these bots has one owner, and bots of one owner never meet: name bots of different owners.".into(),
        )));
    }
    if total > MAX_GAMES {
        // Any of several parts makes it too many: none is pointed at.
        return Err(Pointed {
            part: None,
            refusal: Refusal::Invalid(format!(
                "That is {total} games; a tournament plays at most {MAX_GAMES}. Fewer participants, maps, games or rounds."
            )),
        });
    }
    Ok(s)
}

/// Groups' games when not given: every pair meets about twice, and there are enough
/// seats for every participant to sit at each seat once (`n` games of `k`).
fn default_groups_games(n: usize, k: usize) -> usize {
    let pairs = n * (n - 1) / 2;
    let per_game = k * (k - 1) / 2;
    (2 * pairs).div_ceil(per_game).max(n).min(MAX_GAMES)
}

/// Swiss rounds when not given: enough for one undefeated leader, plus one.
fn default_rounds(n: usize) -> u32 {
    (usize::BITS - (n.max(2) - 1).leading_zeros()) + 1
}

/// Makes a tournament and queues its (first) games; a refusal says which part of the
/// request it is about, when it is about one. The outer error is the platform's.
pub async fn create(
    db: &PgPool,
    by: UserId,
    ask: &Ask,
) -> anyhow::Result<Result<Created, Pointed>> {
    match create_steps(db, by, ask).await {
        Ok(made) => Ok(Ok(made)),
        Err(Stop::Refused(p)) => Ok(Err(p)),
        Err(Stop::Broken(e)) => Err(e),
    }
}

async fn create_steps(db: &PgPool, by: UserId, ask: &Ask) -> Result<Created, Stop> {
    let (games, rounds) = check(ask)?;
    let mut tx = db.begin().await?;
    // One at a time: the cap on running tournaments holds.
    sqlx::query!("select id from ranker for update")
        .fetch_one(&mut *tx)
        .await?;
    let running =
        sqlx::query_scalar!(r#"select count(*) as "n!" from tournaments where status = 'running'"#)
            .fetch_one(&mut *tx)
            .await?;
    if running >= MAX_RUNNING {
        return Err(Refusal::TooMany(format!(
            "{running} tournaments are running; at most {MAX_RUNNING} run at once. Cancel one or wait for one to end."
        ))
        .into());
    }
    let open = crate::games::open(&mut *tx).await?;
    let game = crate::games::chosen(ask.game.as_deref(), &open)
        .map_err(|e| Part::Game.refused(Refusal::Invalid(format!("{e}."))))?
        .to_string();
    let kind = crate::games::kind(&game)
        .map_err(|e| Part::Game.refused(Refusal::Conflict(e.to_string())))?;
    let k = players_in(kind, ask.format, ask.players_per_game)?;
    let entrants = participants(&mut tx, &ask.participants, &game)
        .await
        .map_err(Part::Participants.of())?;
    let kin = same_owner(&entrants);
    if ask.format == Format::Groups && !kin.is_empty() {
        return Err(Part::Participants.refused(Refusal::Conflict(
            "Some of the bots named have one owner, and in groups they would meet: name one bot per owner, or play a round robin or Swiss rounds (where they never meet).".into(),
        ))
        .into());
    }
    if (k as usize) > entrants.len() {
        return Err(Part::Participants
            .refused(Refusal::Conflict(format!(
                "Games of {k} need at least {k} participants; there are {}.",
                entrants.len()
            )))
            .into());
    }
    let picked = maps(&mut tx, &ask.maps, k, &game)
        .await
        .map_err(Part::Maps.of())?;
    let seed = ask
        .seed
        .unwrap_or_else(|| rand_chacha::ChaCha8Rng::from_entropy().next_u64() >> 1);
    let Schedule { now, games, rounds } = schedule(
        ask.format,
        entrants.len(),
        k as usize,
        picked.len(),
        (games, rounds),
        &kin,
        seed,
    )?;
    let id = sqlx::query_scalar!(
        r#"insert into tournaments (name, format, players_per_game, games, rounds, seed, asked,
               created_by, game)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning id as "id: TournamentId""#,
        ask.name.trim(),
        ask.format.as_str(),
        k as i32,
        games.map(|g| g as i32),
        rounds.map(|r| r as i32),
        seed as i64,
        ask.participants
            .words()
            .chars()
            .take(400)
            .collect::<String>(),
        by as UserId,
        game
    )
    .fetch_one(&mut *tx)
    .await?;
    store_entrants(&mut tx, id, &entrants, &picked).await?;
    queue(&mut tx, id, &now, &entrants, &picked).await?;
    tx.commit().await?;
    Ok(Created {
        id,
        queued: now.len(),
    })
}

/// Keeps the participants (in seeding order, with their versions) and the maps.
async fn store_entrants(
    conn: &mut PgConnection,
    id: TournamentId,
    entrants: &[Entrant],
    picked: &[MapPick],
) -> sqlx::Result<()> {
    let bots: Vec<i64> = entrants.iter().map(|e| e.bot.0).collect();
    let versions: Vec<i64> = entrants.iter().map(|e| e.version.0).collect();
    sqlx::query!(
        "insert into tournament_participants (tournament_id, place, bot_id, version_id)
         select $1, p.place - 1, p.bot, p.version
         from unnest($2::bigint[], $3::bigint[]) with ordinality p(bot, version, place)",
        id as TournamentId,
        &bots,
        &versions
    )
    .execute(&mut *conn)
    .await?;
    let ids: Vec<i64> = picked.iter().map(|m| m.id.0).collect();
    sqlx::query!(
        "insert into tournament_maps (tournament_id, place, map_id)
         select $1, m.place - 1, m.id from unnest($2::bigint[]) with ordinality m(id, place)",
        id as TournamentId,
        &ids
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Queues planned games, each seat with its participant's frozen version.
pub(crate) async fn queue(
    conn: &mut PgConnection,
    id: TournamentId,
    games: &[plan::Planned],
    entrants: &[Entrant],
    picked: &[MapPick],
) -> sqlx::Result<()> {
    for g in games {
        let seats: Vec<(BotId, VersionId)> = g
            .seats
            .iter()
            .map(|&p| (entrants[p].bot, entrants[p].version))
            .collect();
        let purpose = Purpose::Tournament(id, g.round as i32);
        insert_match(&mut *conn, picked[g.map].id, &seats, purpose).await?;
    }
    Ok(())
}

/// Cancels a running tournament: its games not yet started are voided, and it plans
/// no more rounds. False when there is no running tournament `id`.
pub async fn cancel(db: &PgPool, id: TournamentId) -> sqlx::Result<bool> {
    let mut tx = db.begin().await?;
    let n = sqlx::query!(
        "update tournaments set status = 'cancelled', finished_at = now()
         where id = $1 and status = 'running'",
        id as TournamentId
    )
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if n == 1 {
        sqlx::query!(
            "update matches set status = 'void', void_reason = 'the tournament was cancelled',
                 lease_owner = null, lease_until = null
             where tournament_id = $1 and status = 'queued'",
            id as TournamentId
        )
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(n == 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_give_every_pair_a_couple_of_meetings_and_enough_swiss_rounds() {
        // 8 bots, 4 a game: 28 pairs, 6 a game: 10 games for two meetings each.
        assert_eq!(default_groups_games(8, 4), 10);
        assert_eq!(default_rounds(2), 2);
        assert_eq!(default_rounds(8), 4);
        assert_eq!(default_rounds(9), 5);
    }

    #[test]
    fn the_shape_of_a_request_is_checked_before_the_database() {
        let ask = |format, k, games, rounds| Ask {
            name: "Final".into(),
            game: None,
            participants: Participants::Word("all".into()),
            maps: vec![],
            format,
            players_per_game: k,
            games,
            rounds,
            seed: None,
        };
        assert!(check(&ask(Format::RoundRobin, None, None, None)).is_ok());
        assert!(check(&ask(Format::RoundRobin, Some(3), None, None)).is_err());
        assert!(check(&ask(Format::Groups, Some(9), Some(10), None)).is_err());
        assert!(check(&ask(Format::Groups, Some(4), Some(0), None)).is_err());
        assert!(check(&ask(Format::Swiss, None, None, Some(51))).is_err());
        assert!(check(&ask(Format::Swiss, None, Some(3), None)).is_err());
        let mut nameless = ask(Format::Swiss, None, None, Some(3));
        nameless.name = "  ".into();
        assert!(check(&nameless).is_err());
    }
}
