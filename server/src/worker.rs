//! Workers: claim a queued match, fetch the bots' builds (from this machine's cache,
//! or rebuilt from the database), play it through `runner` in the sandbox,
//! and record the result and the rating updates in one transaction.
//!
//! Who is at fault: a failure of the platform (sandbox set-up, a build that cannot be
//! fetched, a worker dying) gives the match back to the queue and never counts
//! against a bot; a bot's own crash, timeout or bad output is part of the game.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use engine::process::BotProcess;
use engine::process::BotSpec;
use engine::remote::Seats;
use engine::sandbox::Limits;
use engine::{run_game, MatchConfig, PlayerReport, RunError};
use game_interface::problems::{first_of_each_kind, Problem};
use game_interface::{Match, Numbers};
use sqlx::PgPool;

use crate::builds::Builder;
use crate::compress::gzip;
use crate::ids::{BotId, MatchId, TournamentId, VersionId};
use crate::ranker::{self, rating, LEASE, MAX_ATTEMPTS};
use crate::status::Outcome;

/// Most of the workers' time challenges get while ranked matches wait: ranked
/// matches keep at least three quarters of it, with a margin (the share is measured
/// over matches already started, so it overshoots a little: 0.2 gave challenges 21%
/// of the time in `bench/ladder.sh`).
pub const CHALLENGE_SHARE: f64 = 0.15;
/// The latest matches started over which that share is measured, by time played.
pub const SHARE_WINDOW: i64 = 20;

/// How often a worker looks for tournaments left waiting (see `run`).
const SWEEP_EVERY: Duration = Duration::from_secs(10);

/// How often the turns played are written for live viewers.
const LIVE_EVERY: Duration = Duration::from_millis(250);

/// One worker of this process.
#[derive(Clone)]
pub struct Worker {
    /// Unique among all workers: host, process and index.
    pub name: String,
    pub db: PgPool,
    pub builder: Builder,
    /// Runner policy of ranked games; each game's own turn limit and times replace
    /// its turn limit and times, and its `max_turns` is a cap over every game's limit
    /// (`u32::MAX` on a site: tests play short games).
    pub match_config: MatchConfig,
    /// Set to stop: the match being played is given back to the queue.
    pub stop: Arc<AtomicBool>,
    /// Minutes of the workers' time one owner's challenge games started in the last
    /// hour may take; past them the owner's queued games wait (`challenge_minutes_per_hour`).
    pub challenge_minutes_per_hour: u32,
}

/// A match taken from the queue.
#[derive(Debug)]
pub struct Claimed {
    pub id: MatchId,
    /// False for a challenge's or a tournament's match: it changes no rating or record.
    pub ranked: bool,
    /// The tournament it belongs to, whose next round may follow it.
    pub tournament: Option<TournamentId>,
    pub attempts: i32,
    /// Its game, by registry name (`crate::games`).
    pub game: String,
    pub map_text: String,
    /// Its players, by seat.
    pub players: Vec<ClaimedSeat>,
    /// A practice game (house bots only, unrated): played by the game's practice rules
    /// (`GameKind::setup_practice`).
    pub practice: bool,
    /// A turn limit below the game's, asked for by a remote bot's practice session.
    pub max_turns: Option<u32>,
}

/// One seat of a claimed match.
#[derive(Debug)]
pub struct ClaimedSeat {
    pub seat: i32,
    pub bot: BotId,
    pub name: String,
    pub version: VersionId,
    /// The bot is out of the ladder (its owner deleted the account, or an organizer
    /// disabled it): the match is voided, never played.
    pub out: bool,
}

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

/// The name of this host, for worker names.
pub fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .unwrap_or_else(|_| "host".into())
}

impl Worker {
    /// Says this worker is alive (and what it plays).
    pub async fn heartbeat(&self, match_id: Option<MatchId>) -> sqlx::Result<()> {
        // Workers silent for longer than a lease are gone (killed, their machine
        // down): they are forgotten, and their matches are taken again anyway.
        sqlx::query!(
            "with gone as (delete from workers
                 where heartbeat_at < now() - make_interval(secs => $3) and name <> $1)
             insert into workers (name, match_id) values ($1, $2) \
             on conflict (name) do update set heartbeat_at = now(), match_id = $2",
            self.name,
            match_id as Option<MatchId>,
            LEASE.as_secs_f64()
        )
        .execute(&self.db)
        .await?;
        Ok(())
    }

    /// Takes the next match of the queue (or one whose lease ran out). Tournaments'
    /// matches come first; then ranked matches (none while the ladder is frozen at the
    /// deadline), but a challenge's when challenges had less than
    /// [`CHALLENGE_SHARE`] of the workers' time over the last [`SHARE_WINDOW`] matches
    /// started and fewer than that share of the live workers play one; with no ranked
    /// match waiting, a challenge's in any case. Challenges
    /// turned off wait in the queue, and so does a match with a bot that plays
    /// another match now, and a challenge's whose owner's games started in the last hour
    /// took [`Worker::challenge_minutes_per_hour`] already.
    pub async fn claim(&self) -> sqlx::Result<Option<Claimed>> {
        let mut tx = self.db.begin().await?;
        let gate = sqlx::query!(
            r#"select paused as "paused!", challenges as "challenges!",
                   coalesce(freeze_at_deadline and deadline <= now(), false) as "frozen!",
                   (select coalesce(sum(t) filter (where c) / nullif(sum(t), 0), 0)
                    from (select challenge_id is not null as c,
                              extract(epoch from coalesce(finished_at, now()) - started_at)
                                  as t
                          from matches
                          where started_at is not null and status in ('running', 'finished')
                          order by started_at desc limit $1) r)::float8 as "share!",
                   (select count(*) from matches
                    where status = 'running' and challenge_id is not null) as "running!",
                   (select count(*) from workers
                    where heartbeat_at > now() - interval '2 minutes') as "workers!"
               from ranker"#,
            SHARE_WINDOW
        )
        .fetch_one(&mut *tx)
        .await?;
        if gate.paused {
            return Ok(None);
        }
        // Matches just started weigh nothing in the share yet: with many workers freed
        // at once each would take a challenge's game, so their number is capped too.
        let most_running = (CHALLENGE_SHARE * gate.workers as f64).ceil().max(1.0) as i64;
        let challenges_first = gate.share < CHALLENGE_SHARE && gate.running < most_running;
        let claimed = sqlx::query!(
            r#"update matches m set status = 'running', lease_owner = $1,
                   lease_until = now() + make_interval(secs => $2),
                   attempts = m.attempts + 1, started_at = now()
               from maps where maps.id = m.map_id and m.id = (
                   select id from matches q
                   where (status = 'queued' or (status = 'running' and lease_until < now()))
                     -- A closed game's matches wait until it opens again.
                     and exists (select 1 from ranker where q.game = any(ranker.games))
                     and (challenge_id is null or $3)
                     -- A remote bot's match is played by the server holding its session.
                     and not q.remote
                     -- An owner whose challenge games took their time this hour waits.
                     and (q.challenge_id is null or (
                         select coalesce(sum(extract(epoch from
                                    coalesce(m2.finished_at, now()) - m2.started_at)), 0)
                         from challenges c0
                         join challenges c2 on c2.owner_id = c0.owner_id
                         join matches m2 on m2.challenge_id = c2.id
                         where c0.id = q.challenge_id
                           and m2.started_at > now() - interval '1 hour'
                           and m2.status in ('running', 'finished'))::float8 < $6::float8)
                     and (not ranked or not $5)
                     -- One match at a time for a bot: a slow one holds one worker.
                     and not exists (
                         select 1 from match_players p
                         where p.match_id = q.id and p.bot_id in (
                             select o.bot_id from matches r
                             join match_players o on o.match_id = r.id
                             where r.status = 'running' and r.lease_until >= now()))
                   order by tournament_id is not null desc,
                       (challenge_id is not null) = $4 desc, id
                   for update skip locked limit 1)
               returning m.id as "id: MatchId", m.attempts, maps.text, m.game,
                   m.ranked as "ranked!", m.tournament_id as "tournament: TournamentId""#,
            self.name,
            LEASE.as_secs_f64(),
            gate.challenges,
            challenges_first,
            gate.frozen,
            f64::from(self.challenge_minutes_per_hour) * 60.0
        )
        .fetch_optional(&mut *tx)
        .await?;
        let Some(claimed) = claimed else {
            return Ok(None);
        };
        let players = sqlx::query_as!(
            ClaimedSeat,
            r#"select p.seat, p.bot_id as "bot: BotId", b.name, p.version_id as "version: VersionId",
                   b.disabled as out
               from match_players p join bots b on b.id = p.bot_id
               where p.match_id = $1 order by p.seat"#,
            claimed.id as MatchId
        )
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Some(Claimed {
            id: claimed.id,
            ranked: claimed.ranked,
            tournament: claimed.tournament,
            attempts: claimed.attempts,
            game: claimed.game,
            map_text: claimed.text,
            players,
            practice: false,
            max_turns: None,
        }))
    }

    /// Extends the lease; false when the match is no longer ours.
    async fn renew(&self, id: MatchId) -> sqlx::Result<bool> {
        let n = sqlx::query!(
            "update matches set lease_until = now() + make_interval(secs => $3) \
             where id = $1 and status = 'running' and lease_owner = $2",
            id as MatchId,
            self.name,
            LEASE.as_secs_f64()
        )
        .execute(&self.db)
        .await?
        .rows_affected();
        Ok(n == 1)
    }

    /// Gives a match back to the queue (the platform's fault, or we are stopping).
    async fn release(&self, id: MatchId, why: &str) -> sqlx::Result<()> {
        tracing::warn!(match_id = %id, "giving the match back to the queue: {why}");
        // Its live turns, unless another worker plays it already.
        sqlx::query!(
            "delete from live_matches l using matches m
             where l.match_id = $1 and m.id = $1 and m.lease_owner = $2",
            id as MatchId,
            self.name
        )
        .execute(&self.db)
        .await?;
        sqlx::query!(
            "update matches set status = 'queued', lease_owner = null, lease_until = null \
             where id = $1 and status = 'running' and lease_owner = $2",
            id as MatchId,
            self.name
        )
        .execute(&self.db)
        .await?;
        Ok(())
    }

    /// Plays one match from the queue; false when there was none.
    pub async fn run_one(&self) -> anyhow::Result<bool> {
        let Some(m) = self.claim().await? else {
            return Ok(false);
        };
        self.heartbeat(Some(m.id)).await?;
        if m.attempts > MAX_ATTEMPTS {
            ranker::void(
                &self.db,
                m.id,
                &format!(
                    "could not be played in {MAX_ATTEMPTS} attempts (a problem of the platform)"
                ),
            )
            .await?;
            return Ok(true);
        }
        if let Some(out) = m.players.iter().find(|p| p.out) {
            // Queued before its bot left the ladder, or paired by a path that missed
            // it: never played, and its builds leave this machine's cache.
            ranker::void(
                &self.db,
                m.id,
                &format!("`{}` is out of the ladder and does not play", out.name),
            )
            .await?;
            let gone: Vec<VersionId> = (m.players.iter().filter(|p| p.out))
                .map(|p| p.version)
                .collect();
            let cache = self.builder.cache.clone();
            let _ = crate::dedicated::run("build-cache", move || {
                gone.into_iter().for_each(|v| cache.forget(v))
            })
            .await;
            if let Some(t) = m.tournament {
                crate::tournaments::advance(&self.db, t).await?;
            }
            return Ok(true);
        }
        tracing::info!(match_id = %m.id, attempt = m.attempts, "playing");
        let started = std::time::Instant::now();
        match self.play(&m).await {
            Ok(Some(result)) => {
                self.record_played(&m, Arc::new(result), started).await?;
            }
            Ok(None) => self.release(m.id, "the worker is stopping").await?,
            Err(e) => self.release(m.id, &format!("{e:#}")).await?,
        }
        // `run` says it is free again before its next match.
        Ok(true)
    }

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

    /// Fetches the builds and plays the match through its game's interface (its map,
    /// framing and defaults), renewing the lease meanwhile. `None` when stopped; an
    /// error is the platform's.
    pub async fn play(&self, m: &Claimed) -> anyhow::Result<Option<Played>> {
        self.play_seated(m, HashMap::new()).await
    }

    /// [`Worker::play`] with some seats remote (`crate::remote`): `remote` holds
    /// their processes, by seat number; every other seat's build is fetched and run in
    /// the sandbox.
    pub async fn play_seated(
        &self,
        m: &Claimed,
        mut remote: HashMap<i32, Box<dyn BotProcess>>,
    ) -> anyhow::Result<Option<Played>> {
        let kind = crate::games::kind(&m.game)?;
        let mut specs = Vec::new();
        let mut remote_seats = HashMap::new();
        let remote_at: Vec<usize> = (m.players.iter().enumerate())
            .filter(|(_, p)| remote.contains_key(&p.seat))
            .map(|(i, _)| i)
            .collect();
        let names = crate::games::seat_names(m.players.iter().map(|p| p.name.as_str()));
        for (p, name) in m.players.iter().zip(names) {
            if let Some(process) = remote.remove(&p.seat) {
                // Played elsewhere: nothing to fetch, and no folder of ours.
                remote_seats.insert(name.clone(), process);
                specs.push(BotSpec {
                    name,
                    command: String::new(),
                    dir: std::path::PathBuf::new(),
                });
                continue;
            }
            let (root, recipe) = self
                .builder
                .artifact(p.version)
                .await
                .with_context(|| format!("the build of `{}` could not be fetched", p.name))?;
            specs.push(BotSpec {
                name,
                command: recipe.run,
                dir: root,
            });
        }
        let roots: Vec<std::path::PathBuf> = specs.iter().map(|s| s.dir.clone()).collect();
        let mut config = crate::games::match_config(kind, &self.match_config);
        // The worker's own cap on turns (tests play short games); the site's is none.
        config.max_turns = (config.max_turns.min(self.match_config.max_turns))
            .min(m.max_turns.unwrap_or(u32::MAX));
        let names: Vec<String> = specs.iter().map(|s| s.name.clone()).collect();
        let game = if m.practice {
            kind.setup_practice(&m.map_text, &names, config.max_turns)
        } else {
            kind.setup(&m.map_text, &names, config.max_turns)
        }
        .map_err(|e| anyhow::anyhow!("the match could not be set up: {e}"))?;
        let framing = kind.framing();
        let sandbox = self.builder.sandbox.launcher(Limits::game());
        let stop = self.stop.clone();
        let lost = Arc::new(AtomicBool::new(false));
        let lost_flag = lost.clone();
        // The turns as they are played, for live viewers (`crate::live`).
        let recorder = crate::live::Recorder::default();
        let mut watcher = recorder.watcher();
        // On a thread of its own, which no web request can take (`crate::dedicated`).
        // What is recorded is read off the match there too: a long game's replay and
        // problems take a while.
        let mut game = crate::dedicated::spawn("match", move || {
            let launcher = Seats::new(&sandbox, remote_seats);
            let played = run_game(game, framing, &specs, &launcher, &config, &mut |m| {
                watcher.saw(m);
                !stop.load(Ordering::Relaxed) && !lost_flag.load(Ordering::Relaxed)
            })?;
            let mut p = Played::of(&*played.game, played.players);
            for seat in remote_at {
                p.last_views.insert(seat, played.game.view(seat));
            }
            Ok::<_, RunError>(p)
        })?;
        let mut renew = tokio::time::interval(LEASE / 3);
        renew.tick().await;
        let mut live = tokio::time::interval(LIVE_EVERY);
        let result = loop {
            tokio::select! {
                done = &mut game => break done?,
                _ = live.tick() => {
                    // A viewer's trouble never stops the match.
                    if let Err(e) = recorder.flush(&self.db, m.id).await {
                        tracing::debug!(match_id = %m.id, "live turns not written: {e}");
                    }
                }
                _ = renew.tick() => {
                    if !self.keep_alive(m.id).await {
                        lost.store(true, Ordering::Relaxed);
                    }
                }
            }
        };
        match result {
            Ok(mut r) => {
                // Its owner sees paths relative to the bot's folder, not the server's.
                for (p, root) in r.players.iter_mut().zip(&roots) {
                    if root.as_os_str().is_empty() {
                        continue;
                    }
                    for (_, text) in &mut p.stderr {
                        *text = crate::builds::relative_paths(text, root);
                    }
                }
                Ok(Some(r))
            }
            Err(RunError::Cancelled) if lost.load(Ordering::Relaxed) => {
                anyhow::bail!("the lease was lost")
            }
            Err(RunError::Cancelled) => Ok(None),
            Err(e) => Err(anyhow::Error::from(e).context("the match could not be run")),
        }
    }

    /// Renews the lease and says this worker is alive (for /admin and /metrics,
    /// however long the match); false when the match is no longer ours.
    async fn keep_alive(&self, id: MatchId) -> bool {
        let ours = self.renew(id).await.unwrap_or(true);
        let _ = self.heartbeat(Some(id)).await;
        ours
    }

    /// Waits for `work` (done on a thread of its own), renewing the lease meanwhile.
    async fn keeping_lease<T>(
        &self,
        id: MatchId,
        mut work: crate::dedicated::Dedicated<T>,
    ) -> anyhow::Result<T> {
        let mut renew = tokio::time::interval(LEASE / 3);
        renew.tick().await;
        loop {
            tokio::select! {
                done = &mut work => return done,
                _ = renew.tick() => {
                    self.keep_alive(id).await;
                }
            }
        }
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

    /// Plays matches until stopped; database trouble is logged and waited out.
    pub async fn run(self, buffer: i64, settings: ranker::matchmaking::Settings) {
        let mut backoff = Duration::from_millis(500);
        let mut swept: Option<std::time::Instant> = None;
        while !self.stop.load(Ordering::Relaxed) {
            // Tournaments whose last games ended without a worker moving them on
            // (voided, or their worker died after recording), now and then: a worker
            // moves its own tournament on as soon as it records a game.
            let sweep = swept.is_none_or(|t| t.elapsed() >= SWEEP_EVERY);
            if sweep {
                swept = Some(std::time::Instant::now());
            }
            let step = async {
                self.heartbeat(None).await?;
                ranker::schedule(&self.db, buffer, &settings).await?;
                if sweep {
                    crate::tournaments::advance_all(&self.db).await?;
                }
                self.run_one().await
            };
            match step.await {
                Ok(true) => backoff = Duration::from_millis(500),
                Ok(false) => tokio::time::sleep(Duration::from_millis(500)).await,
                Err(e) => {
                    tracing::warn!(worker = %self.name, "the worker will retry in {:?}: {e:#}", backoff);
                    tokio::time::sleep(backoff).await;
                    backoff = (backoff * 2).min(Duration::from_secs(30));
                }
            }
        }
        let _ = sqlx::query!("delete from workers where name = $1", self.name)
            .execute(&self.db)
            .await;
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
