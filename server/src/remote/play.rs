//! One remote match: made for an idle session ([`plan`]), offered to each remote seat's
//! session and accepted within `ACCEPT` or voided as a no-show, played by
//! `Worker::play_seated` with the remote seats' processes (`seat.rs`) beside the
//! hosted ones in the sandbox, and recorded as any match ([`run`]).
//!
//! What a match is for: its bot's own waiting matches first (a challenge's games, a
//! tournament's when remote bots may enter them), then a ladder match chosen by the
//! ladder's matchmaking with the bot as the seed (opponents near it in rating from
//! other owners, the map they played least), or, for a practice session, an unrated
//! game against house bots only. The match is made `running` at once, leased by this
//! server, and never claimed by a worker (`matches.remote`); a server that dies
//! mid-match leaves it to `super::sweep`, which voids it.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use engine::process::BotProcess;
use rand::SeedableRng;
use sqlx::PgConnection;
use tokio::sync::oneshot;
use uuid::Uuid;

use super::hub::{Assignment, Hub, Want};
use super::wire::{Ending, Latency, Offer};
use super::{seat, ACCEPT};
use crate::ids::{BotId, MapId, MatchId, TournamentId, UserId, VersionId};
use crate::ranker::matchmaking::{self, Candidate, MapChoice};
use crate::ranker::{self, Purpose, LEASE};
use crate::worker::{Claimed, ClaimedSeat, Played, Worker};

/// What one matchmaking round read once for every session it serves.
#[derive(Default)]
pub struct Round {
    gate: Option<Gate>,
    games: HashMap<String, Arc<Ladder>>,
}

#[derive(Clone)]
struct Gate {
    paused: bool,
    frozen: bool,
    open: Vec<String>,
    mode: super::Mode,
}

/// A game's hosted bots and maps.
struct Ladder {
    cands: Vec<Candidate>,
    maps: Vec<MapChoice>,
}

impl Round {
    async fn gate(&mut self, hub: &Hub) -> sqlx::Result<Gate> {
        if let Some(g) = &self.gate {
            return Ok(g.clone());
        }
        let row = sqlx::query!(
            r#"select paused, coalesce(freeze_at_deadline and deadline <= now(), false)
                   as "frozen!", games, remote
               from ranker"#
        )
        .fetch_one(&hub.db)
        .await?;
        let gate = Gate {
            paused: row.paused,
            frozen: row.frozen,
            open: row.games,
            mode: super::Mode::parse(&row.remote),
        };
        self.gate = Some(gate.clone());
        Ok(gate)
    }

    async fn ladder(&mut self, hub: &Hub, game: &str) -> sqlx::Result<Arc<Ladder>> {
        if let Some(l) = self.games.get(game) {
            return Ok(l.clone());
        }
        let mut conn = hub.db.acquire().await?;
        let cands = ranker::candidates(&mut conn, game).await?;
        let maps = sqlx::query!(
            r#"select id as "id: MapId", seats from maps where enabled and game = $1"#,
            game
        )
        .fetch_all(&mut *conn)
        .await?
        .into_iter()
        .map(|m| MapChoice {
            id: m.id,
            seats: m.seats as usize,
        })
        .collect();
        let l = Arc::new(Ladder { cands, maps });
        self.games.insert(game.to_string(), l.clone());
        Ok(l)
    }
}

/// A match made for remote sessions, running and leased by this server.
#[derive(Debug)]
pub struct Planned {
    pub claimed: Claimed,
    /// The remote seats: (seat, bot).
    pub remote: Vec<(i32, BotId)>,
    pub practice: bool,
    pub map: String,
}

/// What a session asked of its games besides ladder or practice: a practice game's
/// map and turn limit (the 2014 HTTP API's `map` and `turns`), and whether its client
/// reads states by request, whose replies get no network allowance (the original
/// timed a move on the server, from the answer to the next request).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Prefs {
    pub map: Option<MapId>,
    pub max_turns: Option<u32>,
    pub polled: bool,
}

/// Plans a match for the idle session of `bot` (reserved by the caller), or `None`
/// when none can be made now. Other sessions a match needs are reserved here.
pub async fn plan(
    hub: &Arc<Hub>,
    round: &mut Round,
    (bot, owner, game, want, prefs): (BotId, UserId, &str, Want, Prefs),
) -> anyhow::Result<Option<Planned>> {
    let gate = round.gate(hub).await?;
    if gate.paused || !gate.open.iter().any(|g| g == game) || gate.mode == super::Mode::Off {
        return Ok(None);
    }
    if want == Want::Ladder {
        if let Some(p) = waiting(hub, bot, gate.frozen).await? {
            return Ok(Some(p));
        }
    }
    let ladder_ok = want == Want::Ladder && gate.mode == super::Mode::Ladder && !gate.frozen;
    if want == Want::Ladder && !ladder_ok {
        return Ok(None);
    }
    let ladder = round.ladder(hub, game).await?;
    let Some(me) = candidate(hub, bot, owner).await? else {
        return Ok(None);
    };
    // A practice game seats house bots only (each its own owner, negative).
    let mut cands: Vec<Candidate> = (ladder.cands.iter())
        .filter(|c| ladder_ok || c.owner < 0)
        .cloned()
        .collect();
    cands.push(me);
    let seed = cands.len() - 1;
    let mut rng = rand_chacha::ChaCha8Rng::from_entropy();
    let settings = hub.player().map(|p| p.settings).unwrap_or_default();
    // A practice game on the map its session asked for.
    let asked: Vec<MapChoice>;
    let maps = match prefs.map {
        Some(id) if want == Want::Practice => {
            asked = vec![MapChoice {
                id,
                seats: crate::games::kind(game)?.defaults().seats.1,
            }];
            &asked
        }
        _ => &ladder.maps,
    };
    let Some(chosen) = matchmaking::players_for(seed, &cands, maps, &settings, &mut rng) else {
        return Ok(None);
    };
    let plays = if ladder_ok {
        let ids: Vec<i64> = chosen.iter().map(|&i| cands[i].bot_id.0).collect();
        let mut conn = hub.db.acquire().await?;
        ranker::recent_maps(&mut conn, &ids).await?
    } else {
        HashMap::new()
    };
    let Some(mut p) = matchmaking::map_for(chosen, &cands, maps, &plays, &mut rng) else {
        return Ok(None);
    };
    if !ladder_ok {
        // A practice game's trainee plays the first seat, as the original's training.
        if let Some(at) = p.seats.iter().position(|&i| i == seed) {
            p.seats[..=at].rotate_right(1);
        }
    }
    let seats: Vec<(BotId, VersionId)> = (p.seats.iter())
        .map(|&i| (cands[i].bot_id, cands[i].version_id))
        .collect();
    let mut tx = hub.db.begin().await?;
    let id = ranker::insert_match(&mut tx, p.map_id, &seats, Purpose::Ranked).await?;
    sqlx::query!(
        "update matches set practice = $2 where id = $1",
        id as MatchId,
        !ladder_ok
    )
    .execute(&mut *tx)
    .await?;
    let mut planned = take(&mut tx, hub, id, !ladder_ok).await?;
    tx.commit().await?;
    if let Some(p) = planned.as_mut().filter(|p| p.practice) {
        p.claimed.max_turns = prefs.max_turns;
    }
    Ok(planned)
}

/// The remote bot `bot` as matchmaking sees it, or `None` when it may not play.
async fn candidate(hub: &Hub, bot: BotId, owner: UserId) -> sqlx::Result<Option<Candidate>> {
    let row = sqlx::query!(
        r#"select active_version_id as "version: VersionId", mu, sigma, version_games,
               last_game_at, disabled, remote_paused
           from bots where id = $1"#,
        bot as BotId
    )
    .fetch_optional(&hub.db)
    .await?;
    let Some(r) = row else {
        hub.end(bot, "the bot was deleted");
        return Ok(None);
    };
    if r.disabled || r.remote_paused.is_some() {
        hub.check(bot).await;
        return Ok(None);
    }
    let Some(version) = r.version else {
        return Ok(None);
    };
    Ok(Some(Candidate {
        bot_id: bot,
        version_id: version,
        owner: owner.0,
        mu: r.mu,
        sigma: r.sigma,
        load: r.version_games.max(0) as u32,
        last_game: r.last_game_at.map(|t| t.unix_timestamp()),
        queued: 0,
    }))
}

/// A match of `bot`'s own that waits for it (a challenge's game, a tournament's), if
/// every other remote bot it seats is idle here too: taken, with them reserved.
async fn waiting(hub: &Arc<Hub>, bot: BotId, frozen: bool) -> anyhow::Result<Option<Planned>> {
    let queued = sqlx::query!(
        r#"select m.id as "id: MatchId", m.ranked as "ranked!",
               array(select p.bot_id from match_players p join bots b on b.id = p.bot_id
                     where p.match_id = m.id and b.remote and p.bot_id <> $1) as "others!"
           from matches m join match_players me on me.match_id = m.id and me.bot_id = $1
           where m.status = 'queued' and m.remote
           order by m.tournament_id is not null desc, m.id limit 20"#,
        bot as BotId
    )
    .fetch_all(&hub.db)
    .await?;
    for q in queued {
        if q.ranked && frozen {
            continue;
        }
        let others: Vec<BotId> = q.others.into_iter().map(BotId).collect();
        let mut reserved = Vec::new();
        for &o in &others {
            if hub.reserve(o) {
                reserved.push(o);
            }
        }
        if reserved.len() == others.len() {
            let mut tx = hub.db.begin().await?;
            let taken = take(&mut tx, hub, q.id, false).await?;
            tx.commit().await?;
            if taken.is_some() {
                return Ok(taken);
            }
        }
        for o in reserved {
            hub.unreserve(o);
        }
    }
    Ok(None)
}

/// Makes match `id` running under this server's lease (if it is still queued) and
/// reads it as a worker would have claimed it.
async fn take(
    tx: &mut PgConnection,
    hub: &Hub,
    id: MatchId,
    practice: bool,
) -> sqlx::Result<Option<Planned>> {
    let m = sqlx::query!(
        r#"update matches m set status = 'running', lease_owner = $2,
               lease_until = now() + make_interval(secs => $3), attempts = m.attempts + 1,
               started_at = now()
           from maps where maps.id = m.map_id and m.id = $1 and m.status = 'queued'
           returning m.attempts, maps.text, maps.name, m.game, m.ranked as "ranked!",
               m.tournament_id as "tournament: TournamentId""#,
        id as MatchId,
        hub.holder,
        LEASE.as_secs_f64()
    )
    .fetch_optional(&mut *tx)
    .await?;
    let Some(m) = m else {
        return Ok(None);
    };
    let players = sqlx::query!(
        r#"select p.seat, p.bot_id as "bot: BotId", b.name,
               p.version_id as "version: VersionId", b.remote, b.disabled as out
           from match_players p join bots b on b.id = p.bot_id
           where p.match_id = $1 order by p.seat"#,
        id as MatchId
    )
    .fetch_all(&mut *tx)
    .await?;
    let remote = (players.iter())
        .filter(|p| p.remote)
        .map(|p| (p.seat, p.bot))
        .collect();
    Ok(Some(Planned {
        claimed: Claimed {
            id,
            ranked: m.ranked,
            tournament: m.tournament,
            attempts: m.attempts,
            game: m.game,
            map_text: m.text,
            players: (players.into_iter())
                .map(|p| ClaimedSeat {
                    seat: p.seat,
                    bot: p.bot,
                    name: p.name,
                    version: p.version,
                    out: p.out,
                })
                .collect(),
            practice,
            max_turns: None,
        },
        remote,
        practice,
        map: m.name,
    }))
}

/// A remote seat being offered: its bot, seat, and where its end goes.
struct Offered {
    bot: BotId,
    seat: usize,
    offer: Uuid,
    accept: oneshot::Receiver<super::hub::Answer>,
    ending: oneshot::Sender<Ending>,
}

/// Offers the match to its remote seats, plays it once all accepted, records it, and
/// tells each seat how it ended. Whatever goes wrong, every seat is told, and a match
/// that was not played is void.
pub async fn run(hub: Arc<Hub>, plan: Planned) {
    let id = plan.claimed.id;
    let mut offered = Vec::new();
    let mut paused = Vec::new();
    let outcome = play(&hub, &plan, &mut offered, &mut paused).await;
    let endings: Vec<Ending> = match outcome {
        Ok(Some((played, recorded))) => offered
            .iter()
            .map(|o| finished(&plan, o, &played, recorded))
            .collect(),
        Ok(None) => {
            // Told already (a no-show): each seat gets its void below.
            let reason = void_reason(&hub, id).await;
            offered.iter().map(|o| void(&plan, o, &reason)).collect()
        }
        Err(e) => {
            let reason = format!("a problem of the platform, not the bots': {e:#}");
            tracing::warn!(match_id = %id, "remote match void: {reason}");
            let _ = ranker::void(&hub.db, id, &reason).await;
            offered.iter().map(|o| void(&plan, o, &reason)).collect()
        }
    };
    for (o, e) in offered.into_iter().zip(endings) {
        let _ = o.ending.send(e);
    }
    // After their end: a session is told of its void match before it is closed.
    for (bot, why) in paused {
        hub.end(bot, &format!("the bot is {why}"));
    }
}

/// Why match `id` was voided, as stored.
async fn void_reason(hub: &Hub, id: MatchId) -> String {
    sqlx::query_scalar!(
        "select void_reason from matches where id = $1",
        id as MatchId
    )
    .fetch_one(&hub.db)
    .await
    .ok()
    .flatten()
    .unwrap_or_else(|| "the match was not played".into())
}

fn players(plan: &Planned) -> Vec<String> {
    plan.claimed
        .players
        .iter()
        .map(|p| p.name.clone())
        .collect()
}

fn void(plan: &Planned, o: &Offered, reason: &str) -> Ending {
    Ending {
        id: o.offer,
        match_id: plan.claimed.id,
        status: "void".into(),
        reason: Some(reason.to_string()),
        turns: None,
        seat: o.seat,
        players: players(plan),
        ranks: Vec::new(),
        outcome: None,
        error: None,
        timeouts: 0,
        warnings: 0,
        latency: None,
        last_view: None,
    }
}

fn finished(plan: &Planned, o: &Offered, played: &Played, recorded: bool) -> Ending {
    let me = &played.players[o.seat];
    let outcome = match (played.winner(), played.ranks[o.seat]) {
        (Some(w), _) if w == o.seat => "win",
        (None, 1) => "draw",
        _ => "loss",
    };
    Ending {
        id: o.offer,
        match_id: plan.claimed.id,
        status: if recorded { "finished" } else { "void" }.into(),
        reason: (!recorded).then(|| "the server lost the match's lease before recording it".into()),
        turns: Some(played.turns),
        seat: o.seat,
        players: players(plan),
        ranks: played.ranks.clone(),
        outcome: Some(outcome.into()),
        error: me.error.clone(),
        timeouts: me.timeouts,
        warnings: me.warnings,
        latency: Latency::of(&me.reply_ms),
        last_view: played.last_views.get(&o.seat).cloned(),
    }
}

/// Offers, waits for every acceptance, plays and records. `Ok(None)`: not played (a
/// seat did not accept; the match is void and the no-shows counted, the bots they
/// paused in `paused`).
async fn play(
    hub: &Arc<Hub>,
    plan: &Planned,
    offered: &mut Vec<Offered>,
    paused: &mut Vec<(BotId, String)>,
) -> anyhow::Result<Option<(Played, bool)>> {
    let player = (hub.player().cloned()).ok_or_else(|| anyhow::anyhow!("no player here"))?;
    let m = &plan.claimed;
    let kind = crate::games::kind(&m.game)?;
    let config = crate::games::match_config(kind, &player.match_config);
    let site_allowance = hub.settings.allowance(&m.game);
    let mut processes: HashMap<i32, Box<dyn BotProcess>> = HashMap::new();
    let mut gone = Vec::new();
    // Seats played over a game's HTTP API, which carries no stderr.
    let mut polled = Vec::new();
    for &(seat, bot) in &plan.remote {
        let allowance = if hub.polled(bot) {
            polled.push(seat);
            std::time::Duration::ZERO
        } else {
            site_allowance
        };
        let (process, link) = seat::open(allowance)?;
        let (accept, accepted) = oneshot::channel();
        let (ending, ended) = oneshot::channel();
        let offer = Offer {
            id: Uuid::new_v4(),
            match_id: m.id,
            game: m.game.clone(),
            map: plan.map.clone(),
            seat: seat as usize,
            players: players(plan),
            args: vec![m.players[seat as usize].name.clone()],
            ranked: m.ranked,
            practice: plan.practice,
            tournament: m.tournament,
            reply_ms: (config.turn_timeout + allowance).as_millis() as u64,
            first_reply_ms: (config.startup_timeout + allowance).as_millis() as u64,
            allowance_ms: allowance.as_millis() as u64,
            max_turns: config.max_turns,
            accept_ms: ACCEPT.as_millis() as u64,
        };
        offered.push(Offered {
            bot,
            seat: seat as usize,
            offer: offer.id,
            accept: accepted,
            ending,
        });
        processes.insert(seat, Box::new(process));
        let assignment = Assignment {
            offer,
            accept,
            link,
            ending: ended,
        };
        if !hub.assign(bot, assignment) {
            gone.push(bot);
        }
    }
    // Every seat answers within the same 10 s.
    let deadline = tokio::time::Instant::now() + ACCEPT;
    let mut no_shows = Vec::new();
    let mut declined = Vec::new();
    for o in offered.iter_mut() {
        match tokio::time::timeout_at(deadline, &mut o.accept).await {
            Ok(Ok(Ok(()))) => {}
            // Declined: a no-show too, with the client's reason.
            Ok(Ok(Err(why))) => declined.push((o.bot, why)),
            // Its session went away: not a no-show, the match is off all the same.
            Ok(Err(_)) if hub.connected(o.bot).is_none() => gone.push(o.bot),
            _ => no_shows.push(o.bot),
        }
    }
    if !no_shows.is_empty() || !gone.is_empty() || !declined.is_empty() {
        let names = |bots: &[BotId]| -> String {
            (m.players.iter())
                .filter(|p| bots.contains(&p.bot))
                .map(|p| format!("`{}`", p.name))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut reasons = Vec::new();
        for (bot, why) in &declined {
            let why = if why.is_empty() {
                "no reason given"
            } else {
                why
            };
            reasons.push(format!(
                "{} declined the match, which counts as a no-show ({why})",
                names(&[*bot])
            ));
        }
        if !no_shows.is_empty() {
            reasons.push(format!(
                "{} did not accept the match within {} s (a no-show)",
                names(&no_shows),
                ACCEPT.as_secs()
            ));
        }
        if !gone.is_empty() {
            reasons.push(format!(
                "the session of {} ended before the match began",
                names(&gone)
            ));
        }
        ranker::void(&hub.db, m.id, &reasons.join("; ")).await?;
        no_shows.extend(declined.into_iter().map(|(bot, _)| bot));
        for bot in no_shows {
            if let Some(why) = super::no_show(&hub.db, bot).await? {
                paused.push((bot, why));
            }
        }
        return Ok(None);
    }
    for &(_, bot) in &plan.remote {
        super::showed_up(&hub.db, bot).await?;
    }
    let worker = Worker {
        name: hub.holder.clone(),
        db: hub.db.clone(),
        builder: player.builder.clone(),
        match_config: player.match_config.clone(),
        // Its games are the session's, not a challenge's queue.
        challenge_minutes_per_hour: u32::MAX,
        stop: hub.stop.clone(),
    };
    let started = Instant::now();
    tracing::info!(match_id = %m.id, practice = plan.practice, "playing a remote match");
    match worker.play_seated(m, processes).await? {
        Some(played) => {
            let played = Arc::new(played);
            let recorded = worker.record_played(m, played.clone(), started).await?;
            if recorded && !polled.is_empty() {
                // None kept, rather than an empty one: the page says why there is none.
                sqlx::query!(
                    "update match_players set stderr = null where match_id = $1 and seat = any($2)",
                    m.id as crate::ids::MatchId,
                    &polled
                )
                .execute(&hub.db)
                .await?;
            }
            let played = Arc::try_unwrap(played).unwrap_or_else(|p| (*p).clone());
            Ok(Some((played, recorded)))
        }
        None => {
            ranker::void(&hub.db, m.id, "the server stopped during the match").await?;
            Ok(None)
        }
    }
}
