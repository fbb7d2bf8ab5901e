//! Workers: claim a queued match, fetch the bots' builds (from this machine's cache,
//! or rebuilt from the database), play it through `runner` in the sandbox,
//! and record the result and the rating updates in one transaction.
//!
//! `play.rs` plays a claimed match (builds fetched, remote seats joined, the lease
//! kept); `record.rs` writes its result.
//!
//! Who is at fault: a failure of the platform (sandbox set-up, a build that cannot be
//! fetched, a worker dying) gives the match back to the queue and never counts
//! against a bot; a bot's own crash, timeout or bad output is part of the game.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use engine::MatchConfig;
use sqlx::PgPool;

use crate::builds::Builder;
use crate::ids::{BotId, MatchId, TournamentId, VersionId};
use crate::ranker::{self, LEASE, MAX_ATTEMPTS};

mod play;
mod record;

pub use record::{first_turn, prepare, stats_json, Played, Prepared};

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
