//! Asking for a challenge or an A/B test: the request checked, its opponents and maps
//! chosen, its games laid out (`plan.rs`) and queued, in one transaction.

use rand::seq::SliceRandom;
use serde::Deserialize;
use sqlx::PgConnection;

use super::{
    outcome, own_bot, plan, within_limits, Kind, Limits, Outcome, Refusal, Step, AB_POOL,
    MAX_AB_GAMES, MAX_AB_TOTAL, MAX_GAMES, MAX_OPPONENTS, MAX_PLAYERS,
};
use crate::ids::{BotId, ChallengeId, MapId, UserId, VersionId};
use crate::ranker::{insert_match, ChallengeGame, Purpose};
use crate::status::VersionStatus;

/// Whom a challenge plays against.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(
    untagged,
    expecting = "a list of bot names, {\"top\": K} or {\"near\": K}"
)]
pub enum Opponents {
    /// Bots by name.
    Named(Vec<String>),
    /// The first K of the leaderboard (`{"top": K}`).
    Top { top: u32 },
    /// The K bots nearest in rating (`{"near": K}`).
    Near { near: u32 },
}

impl Opponents {
    fn words(&self) -> String {
        match self {
            Opponents::Named(names) => named_words(names),
            Opponents::Top { top } => format!("the top {top}"),
            Opponents::Near { near } => format!("the {near} nearest in rating"),
        }
    }
}

/// A challenge as asked for (the API's JSON; the form makes the same).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ask {
    pub bot: String,
    /// A built version to play; the active one if not given.
    pub version: Option<i32>,
    pub opponents: Opponents,
    /// Maps by name; random ones of the right size if none.
    #[serde(default)]
    pub maps: Vec<String>,
    /// Signed, so that `-1` is refused with the range rather than by the JSON parser.
    pub games: i64,
    /// Players a game; the bot and every opponent (at most [`MAX_PLAYERS`]) if not
    /// given.
    pub players: Option<u32>,
}

/// An A/B test as asked for.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AbAsk {
    pub bot: String,
    /// The candidate's version number (B).
    pub candidate: i32,
    /// Signed, so that `-4` is refused with the range rather than by the JSON parser.
    pub games: i64,
}

// A bot that plays, as a possible opponent.
use crate::standings::PlayingBot as Rival;

/// Every bot that plays but `me`, best rated first.
/// The bots of `me`'s game that play, but `me`.
async fn rivals(conn: &mut PgConnection, me: &super::OwnBot) -> sqlx::Result<Vec<Rival>> {
    let mut all = crate::standings::playing_bots(conn, &me.game, false).await?;
    all.retain(|r| r.id != me.id);
    Ok(all)
}

/// The `k` rivals nearest to `rating`.
fn nearest(mut all: Vec<Rival>, rating: f64, k: usize) -> Vec<Rival> {
    all.sort_by(|a, b| {
        (a.rating - rating)
            .abs()
            .total_cmp(&(b.rating - rating).abs())
    });
    all.truncate(k);
    all
}

/// The opponents asked for, each with the version it plays now.
async fn opponents(
    conn: &mut PgConnection,
    me: &super::OwnBot,
    asked: &Opponents,
) -> Step<Vec<Rival>> {
    let all = rivals(conn, me).await?;
    let max = (MAX_PLAYERS - 1) as usize;
    let chosen = match asked {
        Opponents::Top { top: k } | Opponents::Near { near: k } if *k == 0 || *k as usize > max => {
            return Err(Refusal::Invalid(format!(
                "Ask for 1 to {max} opponents at the top or near your rating."
            ))
            .into())
        }
        Opponents::Top { top } => all.into_iter().take(*top as usize).collect(),
        Opponents::Near { near } => nearest(all, me.rating, *near as usize),
        Opponents::Named(names) => named(all, me, names)?,
    };
    if chosen.is_empty() {
        return Err(Refusal::Conflict(
            "No other bot plays yet: there is nobody to challenge.".into(),
        )
        .into());
    }
    Ok(chosen)
}

/// One name of a list of opponents as typed: `strong`, or `3 × strong` (also `3x
/// strong`, `3 * strong`, `3*strong`) for one opponent in three seats. The count is refused past
/// [`MAX_OPPONENTS`], before anything is repeated.
fn counted(entry: &str) -> Result<(usize, &str), Refusal> {
    let entry = entry.trim();
    let digits = entry.bytes().take_while(u8::is_ascii_digit).count();
    let rest = entry[digits..].trim_start();
    // `x` is a letter of names too (`3x-bot`): as a sign, a space follows it.
    let after_x = (rest.strip_prefix(['x', 'X'])).filter(|n| n.starts_with(char::is_whitespace));
    let name = (rest.strip_prefix(['×', '*']).or(after_x))
        .map(str::trim_start)
        .filter(|name| digits > 0 && !name.is_empty());
    let Some(name) = name else {
        return Ok((1, entry));
    };
    match entry[..digits].parse::<usize>() {
        Ok(n @ 1..=MAX_OPPONENTS) => Ok((n, name)),
        _ => Err(Refusal::Invalid(format!(
            "Name 1 to {MAX_OPPONENTS} opponents, not `{}`.",
            entry.chars().take(40).collect::<String>()
        ))),
    }
}

/// The names in a field of the challenge form: a list split at commas, spaces and
/// lines, a `3 × strong` kept whole.
pub fn split_names(field: &str) -> Vec<&str> {
    field
        .split([',', '\n', '\t'])
        .map(str::trim)
        .flat_map(|entry| match counted(entry) {
            Ok((1, _)) => entry.split(' ').collect(),
            _ => vec![entry],
        })
        .filter(|n| !n.is_empty())
        .collect()
}

/// The opponents named, in words, a bot named again counted once: `3 × strong,
/// greedy` for `strong, 2 × Strong, greedy`.
fn named_words<S: AsRef<str>>(names: &[S]) -> String {
    let mut counts: Vec<(usize, &str)> = Vec::new();
    for (n, name) in
        (names.iter().filter_map(|n| counted(n.as_ref()).ok())).filter(|(_, name)| !name.is_empty())
    {
        match counts
            .iter_mut()
            .find(|(_, c)| c.eq_ignore_ascii_case(name))
        {
            Some((count, _)) => *count += n,
            None => counts.push((n, name)),
        }
    }
    let entries: Vec<String> = (counts.into_iter())
        .map(|(n, name)| match n {
            1 => name.to_string(),
            n => format!("{n} × {name}"),
        })
        .collect();
    entries.join(", ")
}

/// The bots of `names` among those that play (`all`), in the order given; a bot named
/// again (or `3 × strong`) sits in as many seats.
fn named(all: Vec<Rival>, me: &super::OwnBot, names: &[String]) -> Result<Vec<Rival>, Refusal> {
    let how_many = || Refusal::Invalid(format!("Name 1 to {MAX_OPPONENTS} opponents."));
    let mut wanted: Vec<&str> = Vec::new();
    for entry in names.iter().filter(|n| !n.trim().is_empty()) {
        let (n, name) = counted(entry)?;
        if wanted.len() + n > MAX_OPPONENTS {
            return Err(how_many());
        }
        wanted.extend(std::iter::repeat_n(name, n));
    }
    if wanted.is_empty() {
        return Err(how_many());
    }
    if wanted.iter().any(|w| w.eq_ignore_ascii_case(&me.name)) {
        return Err(Refusal::Invalid(format!(
            "`{}` cannot play against itself: an A/B test compares two of its versions.",
            me.name
        )));
    }
    let mut found = Vec::new();
    let mut missing: Vec<&str> = Vec::new();
    for w in wanted {
        match all.iter().find(|r| r.name.eq_ignore_ascii_case(w)) {
            Some(r) => found.push(r.clone()),
            None if missing.iter().any(|m| m.eq_ignore_ascii_case(w)) => {}
            None => missing.push(w),
        }
    }
    // Each with the nearest name that plays when one is a slip of the keyboard away.
    let missing: Vec<String> = (missing.iter().enumerate())
        .map(
            |(i, m)| match nearest_name(&all, m).filter(|_| i < NEAR_NAMES) {
                Some(near) => format!("`{m}` (did you mean `{near}`?)"),
                None => format!("`{m}`"),
            },
        )
        .collect();
    match missing.as_slice() {
        [] => {}
        [one] => {
            return Err(Refusal::Invalid(format!(
                "No bot of {} plays under the name {one}: pick opponents from the list of bots that play.",
                me.game_title()
            )))
        }
        [first @ .., last] => {
            return Err(Refusal::Invalid(format!(
                "No bot of {} plays under the names {} and {last}: pick opponents from the list of bots that play.",
                me.game_title(),
                first.join(", ")
            )))
        }
    }
    Ok(found)
}

/// The first missing names a refusal looks for near matches of: with a name's length
/// bounded and names of other lengths skipped, the work stays a few milliseconds
/// against 10,000 bots.
const NEAR_NAMES: usize = 3;

/// The name among `all` nearest to `typed`, if it is a few keys away (two edits, or
/// one in four letters of a long name).
fn nearest_name<'a>(all: &'a [Rival], typed: &str) -> Option<&'a str> {
    let typed = typed.to_ascii_lowercase();
    if typed.len() > 64 {
        return None;
    }
    let most = (typed.len() / 4).max(2);
    (all.iter())
        .filter(|r| r.name.len().abs_diff(typed.len()) <= most)
        .map(|r| {
            (
                strsim::levenshtein(&typed, &r.name.to_ascii_lowercase()),
                &r.name,
            )
        })
        .filter(|(d, _)| *d <= most)
        .min_by_key(|(d, _)| *d)
        .map(|(_, name)| name.as_str())
}

/// The version `number` of `bot` if it was built and passed its test game; the active
/// one if `None`.
async fn playable_version(
    conn: &mut PgConnection,
    me: &super::OwnBot,
    number: Option<i32>,
) -> Step<VersionId> {
    let Some(number) = number else {
        return Ok(me.active.ok_or_else(|| {
            Refusal::Conflict(format!("`{}` has no version that plays yet.", me.name))
        })?);
    };
    let v = sqlx::query!(
        r#"select id as "id: VersionId", status as "status: VersionStatus"
           from bot_versions where bot_id = $1 and number = $2"#,
        me.id as BotId,
        number
    )
    .fetch_optional(&mut *conn)
    .await?;
    match v {
        None => Err(Refusal::Invalid(format!("`{}` has no version {number}.", me.name)).into()),
        Some(v)
            if matches!(
                v.status,
                VersionStatus::Active | VersionStatus::Ready | VersionStatus::Retired
            ) =>
        {
            Ok(v.id)
        }
        Some(v) => Err(Refusal::Conflict(format!(
            "Version {number} is {}: only a version that passed its build and test game can play.",
            v.status
        ))
        .into()),
    }
}

/// A map that can be played.
struct MapRow {
    id: MapId,
    name: String,
    seats: usize,
}

/// The maps of `game` in play.
async fn enabled_maps(conn: &mut PgConnection, game: &str) -> sqlx::Result<Vec<MapRow>> {
    let rows = sqlx::query!(
        r#"select id as "id: MapId", name, seats from maps where enabled and game = $1
           order by name"#,
        game
    )
    .fetch_all(conn)
    .await?;
    Ok(rows
        .into_iter()
        .map(|m| MapRow {
            id: m.id,
            name: m.name,
            seats: m.seats as usize,
        })
        .collect())
}

/// The maps named, each for `players`; all such maps, shuffled, if none is named.
fn maps_for(all: Vec<MapRow>, names: &[String], players: usize) -> Result<Vec<MapRow>, Refusal> {
    let names: Vec<&str> = names
        .iter()
        .map(|n| n.trim())
        .filter(|n| !n.is_empty())
        .collect();
    if names.len() > 50 {
        return Err(Refusal::Invalid("Name at most 50 maps.".into()));
    }
    if names.is_empty() {
        let mut fit: Vec<MapRow> = all.into_iter().filter(|m| m.seats == players).collect();
        if fit.is_empty() {
            return Err(Refusal::Conflict(format!(
                "The ladder has no map for {players} players."
            )));
        }
        fit.shuffle(&mut <rand_chacha::ChaCha8Rng as rand::SeedableRng>::from_entropy());
        return Ok(fit);
    }
    let mut chosen = Vec::new();
    let mut all = all;
    for n in names {
        match all.iter().position(|m| m.name == n) {
            Some(i) if all[i].seats != players => {
                return Err(Refusal::Invalid(format!(
                    "Map `{n}` is for {} players, not {players}.",
                    all[i].seats
                )))
            }
            Some(i) => chosen.push(all.swap_remove(i)),
            None if chosen.iter().any(|m: &MapRow| m.name == n) => {}
            None => return Err(Refusal::Invalid(format!("There is no map `{n}` in play."))),
        }
    }
    Ok(chosen)
}

/// Queues a challenge for `user`; its id, or why not.
pub async fn create_challenge(
    db: &sqlx::PgPool,
    limits: Limits,
    user: UserId,
    ask: &Ask,
) -> Outcome<ChallengeId> {
    outcome(challenge(db, limits, user, ask).await)
}

async fn challenge(
    db: &sqlx::PgPool,
    limits: Limits,
    user: UserId,
    ask: &Ask,
) -> Step<ChallengeId> {
    let mut tx = db.begin().await?;
    if !crate::ranker::challenges_on(&mut *tx).await? {
        return Err(Refusal::Off.into());
    }
    let games = match u32::try_from(ask.games) {
        Ok(g @ 1..=MAX_GAMES) => g,
        _ => return Err(Refusal::Invalid(format!("Ask for 1 to {MAX_GAMES} games.")).into()),
    };
    let me = own_bot(&mut tx, user, &ask.bot).await?;
    let version = playable_version(&mut tx, &me, ask.version).await?;
    let rivals = opponents(&mut tx, &me, &ask.opponents).await?;
    let kind = crate::games::kind(&me.game).map_err(|e| Refusal::Conflict(e.to_string()))?;
    let (fewest, most_seats) = kind.defaults().seats;
    let seats = (MAX_PLAYERS as usize).min(most_seats);
    let most = (rivals.len() + 1).min(seats);
    // More opponents than seats take turns, game by game; but copies of one bot taking
    // turns would play fewer seats than were asked for, so they must all fit.
    let repeated = (1..rivals.len()).any(|i| rivals[..i].iter().any(|r| r.id == rivals[i].id));
    if repeated && rivals.len() + 1 > seats {
        return Err(Refusal::Invalid(format!(
            "A game of {} has at most {seats} players: with a bot in several seats, name at most {} opponents in all, not {}.",
            kind.title(),
            seats - 1,
            rivals.len()
        ))
        .into());
    }
    if most < fewest {
        // The first opponent takes the seats left: `2 × strong, greedy`.
        let several = match &ask.opponents {
            Opponents::Named(_) => {
                let more = (fewest - 1).saturating_sub(rivals.len());
                let names: Vec<&str> = (std::iter::repeat_n(rivals[0].name.as_str(), more))
                    .chain(rivals.iter().map(|r| r.name.as_str()))
                    .collect();
                format!(
                    " (one bot may take several seats: `{}`)",
                    named_words(&names)
                )
            }
            _ => String::new(),
        };
        return Err(Refusal::Invalid(format!(
            "A game of {} has at least {fewest} players: ask for {} opponents or more{several}.",
            kind.title(),
            fewest - 1
        ))
        .into());
    }
    let players = ask.players.map_or(most, |p| p as usize);
    if players < fewest.max(2) || players > most {
        return Err(Refusal::Invalid(format!(
            "A game of this challenge can have {} to {most} players.",
            fewest.max(2)
        ))
        .into());
    }
    let maps = maps_for(enabled_maps(&mut tx, &me.game).await?, &ask.maps, players)?;
    within_limits(&mut tx, limits, user, games).await?;
    let id = insert(
        &mut tx,
        Kind::Challenge,
        user,
        &me,
        version,
        None,
        games,
        &ask.opponents.words(),
    )
    .await?;
    let everyone: Vec<(BotId, VersionId)> = std::iter::once((me.id, version))
        .chain(rivals.iter().map(|r| (r.id, r.version)))
        .collect();
    let game = ChallengeGame { id, scenario: None };
    for p in plan::challenge(rivals.len(), players, maps.len(), games as usize) {
        let seats: Vec<_> = p.seats.iter().map(|&i| everyone[i]).collect();
        insert_match(&mut tx, maps[p.map].id, &seats, Purpose::Challenge(game)).await?;
    }
    tx.commit().await?;
    tracing::info!(challenge = %id, bot = %me.name, games, "challenge queued");
    Ok(id)
}

/// Writes the challenge's own row.
#[allow(clippy::too_many_arguments)]
async fn insert(
    conn: &mut PgConnection,
    kind: Kind,
    user: UserId,
    me: &super::OwnBot,
    version: VersionId,
    candidate: Option<VersionId>,
    games: u32,
    asked: &str,
) -> sqlx::Result<ChallengeId> {
    let asked: String = asked.chars().take(400).collect();
    sqlx::query_scalar!(
        r#"insert into challenges (kind, owner_id, bot_id, version_id, candidate_id, games, asked)
           values ($1, $2, $3, $4, $5, $6, $7) returning id as "id: ChallengeId""#,
        kind as Kind,
        user as UserId,
        me.id as BotId,
        version as VersionId,
        candidate as Option<VersionId>,
        games as i32,
        asked
    )
    .fetch_one(conn)
    .await
}

/// The games of an A/B test asked for, or the range they must be in.
fn ab_games(games: i64) -> Result<u32, Refusal> {
    match u32::try_from(games) {
        Ok(g @ 2..=MAX_AB_GAMES) if g % 2 == 0 => Ok(g),
        _ => Err(Refusal::Invalid(format!(
            "Ask for an even number of games from 2 to {MAX_AB_GAMES}, not {games}: each scenario is played once by each version."
        ))),
    }
}

/// Queues an A/B test of version `candidate` (B) against the active version (A).
pub async fn create_abtest(
    db: &sqlx::PgPool,
    limits: Limits,
    user: UserId,
    ask: &AbAsk,
) -> Outcome<ChallengeId> {
    outcome(abtest(db, limits, user, ask).await)
}

async fn abtest(db: &sqlx::PgPool, limits: Limits, user: UserId, ask: &AbAsk) -> Step<ChallengeId> {
    let mut tx = db.begin().await?;
    if !crate::ranker::challenges_on(&mut *tx).await? {
        return Err(Refusal::Off.into());
    }
    if crate::contest::closed_now(&mut *tx).await?.is_some() {
        return Err(Refusal::Closed(crate::contest::FIXED_AFTER_DEADLINE.into()).into());
    }
    let games = ab_games(ask.games)?;
    let me = own_bot(&mut tx, user, &ask.bot).await?;
    let Some(a) = me.active else {
        return Err(Refusal::Conflict(format!(
            "`{}` has no active version to compare with.",
            me.name
        ))
        .into());
    };
    let b = playable_version(&mut tx, &me, Some(ask.candidate)).await?;
    if b == a {
        return Err(Refusal::Conflict(format!(
            "Version {} is the active one: upload a candidate to compare with it.",
            ask.candidate
        ))
        .into());
    }
    let (pool, maps) = opponents_and_maps(&mut tx, &me).await?;
    within_limits(&mut tx, limits, user, games).await?;
    let asked = format!(
        "candidate version {} against the active version, near {}'s rating",
        ask.candidate, me.name
    );
    let id = insert(&mut tx, Kind::Abtest, user, &me, a, Some(b), games, &asked).await?;
    queue_scenarios(&mut tx, id, &me, (a, b), &pool, &maps, 0..games / 2).await?;
    tx.commit().await?;
    tracing::info!(abtest = %id, bot = %me.name, games, "A/B test queued");
    Ok(id)
}

/// The opponents an A/B test's scenarios draw from (the bots nearest `me` in rating)
/// and the maps they fit, shuffled.
async fn opponents_and_maps(
    tx: &mut PgConnection,
    me: &super::OwnBot,
) -> Step<(Vec<Rival>, Vec<MapRow>)> {
    let pool = nearest(rivals(&mut *tx, me).await?, me.rating, AB_POOL);
    if pool.is_empty() {
        return Err(Refusal::Conflict(
            "No other bot plays yet: there is nobody to test against.".into(),
        )
        .into());
    }
    let mut maps: Vec<MapRow> = enabled_maps(&mut *tx, &me.game)
        .await?
        .into_iter()
        .filter(|m| m.seats <= pool.len() + 1)
        .collect();
    if maps.is_empty() {
        return Err(Refusal::Conflict("The ladder has no map for so few bots.".into()).into());
    }
    maps.shuffle(&mut <rand_chacha::ChaCha8Rng as rand::SeedableRng>::from_entropy());
    Ok((pool, maps))
}

/// Adds `games` to A/B test `id` of `user`, played on where its scenarios stopped,
/// by the same two versions: the games its verdict says would tell.
pub async fn more_abtest_games(
    db: &sqlx::PgPool,
    limits: Limits,
    user: UserId,
    id: ChallengeId,
    games: i64,
) -> Outcome<u32> {
    outcome(more_games(db, limits, user, id, games).await)
}

async fn more_games(
    db: &sqlx::PgPool,
    limits: Limits,
    user: UserId,
    id: ChallengeId,
    games: i64,
) -> Step<u32> {
    let mut tx = db.begin().await?;
    if !crate::ranker::challenges_on(&mut *tx).await? {
        return Err(Refusal::Off.into());
    }
    if crate::contest::closed_now(&mut *tx).await?.is_some() {
        return Err(Refusal::Closed(crate::contest::FIXED_AFTER_DEADLINE.into()).into());
    }
    let games = ab_games(games)?;
    let Some(t) = sqlx::query!(
        r#"select c.owner_id as "owner: UserId", b.name, c.version_id as "a: VersionId",
               c.candidate_id as "b!: VersionId",
               (select count(*) from matches m where m.challenge_id = c.id) as "games!"
           from challenges c join bots b on b.id = c.bot_id
           where c.id = $1 and c.kind = 'abtest' for update of c"#,
        id as ChallengeId
    )
    .fetch_optional(&mut *tx)
    .await?
    else {
        return Err(Refusal::Invalid(format!("There is no A/B test {id}.")).into());
    };
    if t.owner != user {
        return Err(Refusal::NotYours(
            "This A/B test is not yours: only its owner can add games to it.".into(),
        )
        .into());
    }
    let played = t.games as u32;
    if played + games > MAX_AB_TOTAL {
        return Err(Refusal::Invalid(format!(
            "An A/B test plays at most {MAX_AB_TOTAL} games, and this one has {played}: start another to go on."
        ))
        .into());
    }
    let me = own_bot(&mut tx, user, &t.name).await?;
    let (pool, maps) = opponents_and_maps(&mut tx, &me).await?;
    within_limits(&mut tx, limits, user, games).await?;
    sqlx::query!(
        "update challenges set games = games + $2, asked_at = now() where id = $1",
        id as ChallengeId,
        games as i32
    )
    .execute(&mut *tx)
    .await?;
    let (from, to) = (played / 2, (played + games) / 2);
    queue_scenarios(&mut tx, id, &me, (t.a, t.b), &pool, &maps, from..to).await?;
    tx.commit().await?;
    tracing::info!(abtest = %id, bot = %me.name, games, "games added to an A/B test");
    Ok(games)
}

/// Queues an A/B test's `scenarios` (numbers: more games go on where the first
/// stopped), each played once by each of `versions` (A, B).
async fn queue_scenarios(
    tx: &mut PgConnection,
    id: ChallengeId,
    me: &super::OwnBot,
    (a, b): (VersionId, VersionId),
    pool: &[Rival],
    maps: &[MapRow],
    scenarios: std::ops::Range<u32>,
) -> sqlx::Result<()> {
    let seats_of: Vec<usize> = maps.iter().map(|m| m.seats).collect();
    for (s, p) in plan::abtest(pool.len(), &seats_of, scenarios.end as usize)
        .iter()
        .enumerate()
        .skip(scenarios.start as usize)
    {
        for (arm, version) in [("a", a), ("b", b)] {
            let seats: Vec<(BotId, VersionId)> = p
                .seats
                .iter()
                .map(|&i| match i {
                    0 => (me.id, version),
                    i => (pool[i - 1].id, pool[i - 1].version),
                })
                .collect();
            let game = ChallengeGame {
                id,
                scenario: Some((s as i32, arm)),
            };
            insert_match(tx, maps[p.map].id, &seats, Purpose::Challenge(game)).await?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_opponent_is_named_for_several_seats_in_words_a_person_types() {
        for typed in [
            "3 × strong",
            "3x strong",
            "3 X strong",
            "3 * strong",
            "3*strong",
        ] {
            assert_eq!(counted(typed), Ok((3, "strong")), "{typed}");
        }
        // Names that only look like counts stay names.
        assert_eq!(counted("3x-bot"), Ok((1, "3x-bot")));
        assert_eq!(counted("42"), Ok((1, "42")));
        assert!(counted("99 × strong").is_err());
        assert!(counted("100000000000000000000000 × strong").is_err());
        assert_eq!(
            split_names("3 × strong, greedy idle\n2x rusty"),
            ["3 × strong", "greedy", "idle", "2x rusty"]
        );
        assert_eq!(named_words(&["3 * strong", "greedy"]), "3 × strong, greedy");
        assert_eq!(
            named_words(&["strong", "greedy", "2x Strong"]),
            "3 × strong, greedy"
        );
    }
}
