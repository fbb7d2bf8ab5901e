//! The builder's side of the database: taking the next version to build in turn by
//! owner, moving it through its statuses, recording the verdict, and the loop that
//! runs it all ([`run`]).

use std::time::{Duration, Instant};

use sqlx::PgPool;

use super::{Builder, Job, Verdict, MAX_ATTEMPTS};
use crate::ids::{BotId, VersionId};
use crate::status::VersionStatus;

impl Builder {
    /// Takes the next version to build, if any: in turn by owner, the one whose
    /// owner's last build started longest ago (or never), then the oldest upload.
    pub async fn claim(&self) -> sqlx::Result<Option<Job>> {
        sqlx::query_as!(
            Job,
            r#"update bot_versions v set status = 'building',
                   lease_until = now() + interval '15 minutes',
                   attempts = v.attempts + 1, build_started_at = now()
               from bots b
               where b.id = v.bot_id and v.id = (
                   select c.id from bot_versions c join bots cb on cb.id = c.bot_id
                   where c.status = 'pending'
                      or (c.status in ('building', 'testing') and c.lease_until < now())
                   order by (select max(o.build_started_at) from bot_versions o
                             join bots ob on ob.id = o.bot_id
                             where ob.owner_id = cb.owner_id) nulls first, c.id
                   for update of c skip locked limit 1)
               returning v.id as "id: VersionId", b.name as bot_name, b.game, v.language,
                   v.entry, v.compile_command, v.run_command, v.archive, v.archive_name,
                   v.attempts"#
        )
        .fetch_optional(&self.db)
        .await
    }

    /// Marks a version as playing its test game.
    async fn set_status(db: &PgPool, id: VersionId, status: VersionStatus) -> sqlx::Result<()> {
        // A test game starts again from its first turn.
        sqlx::query!(
            "update bot_versions set status = $2,
                 test_turn = case when $2 = 'testing' then 0 else test_turn end
             where id = $1",
            id as VersionId,
            status as VersionStatus
        )
        .execute(db)
        .await
        .map(drop)
    }

    /// How far the version's test game is.
    async fn set_test_turn(db: &PgPool, id: VersionId, turn: u32) -> sqlx::Result<()> {
        sqlx::query!(
            "update bot_versions set test_turn = $2 where id = $1",
            id as VersionId,
            turn as i32
        )
        .execute(db)
        .await
        .map(drop)
    }

    /// Builds one version from the queue; false when there was none.
    pub async fn build_next(&self) -> anyhow::Result<bool> {
        let Some(job) = self.claim().await? else {
            return Ok(false);
        };
        tracing::info!(version = %job.id, bot = %job.bot_name, "building");
        if job.attempts > MAX_ATTEMPTS {
            let v = Verdict {
                failure: Some(format!(
                    "the build was interrupted {MAX_ATTEMPTS} times by a problem of the platform; upload it again"
                )),
                ..Verdict::default()
            };
            self.record(job.id, v).await?;
            return Ok(true);
        }
        let me = self.clone();
        let db = self.db.clone();
        let id = job.id;
        // A version that fails is tried in the other open games: a bot uploaded for
        // the wrong game is told so.
        let others: Vec<String> = (crate::games::open(&self.db).await?.into_iter())
            .filter(|g| *g != job.game)
            .collect();
        let handle = tokio::runtime::Handle::current();
        // On a thread of its own, which no web request can take (`crate::dedicated`).
        let verdict = crate::dedicated::run("build", move || {
            let testing = || {
                let _ = handle.block_on(Self::set_status(&db, id, VersionStatus::Testing));
            };
            // The page shows how far the test game is: one write every few turns.
            let on_turn = |turn: u32| {
                if turn % TEST_TURN_STEP == 0 {
                    let _ = handle.block_on(Self::set_test_turn(&db, id, turn));
                }
            };
            me.build_and_test(&job, &others, testing, on_turn)
        })
        .await;
        match verdict {
            Ok(Ok(v)) => self.record(id, v).await?,
            Ok(Err(e)) => {
                // The platform's fault: give the version back to the queue.
                tracing::error!(version = %id, "building failed on our side: {e:#}");
                sqlx::query!(
                    "update bot_versions set status = 'pending', lease_until = null where id = $1",
                    id as VersionId
                )
                .execute(&self.db)
                .await?;
            }
            Err(e) => anyhow::bail!("the build could not run: {e:#}"),
        }
        Ok(true)
    }

    /// Writes the outcome; a passing version becomes its bot's active one, unless it
    /// is a candidate and another version plays (then it is ready).
    async fn record(&self, id: VersionId, v: Verdict) -> sqlx::Result<()> {
        let mut tx = self.db.begin().await?;
        // The bot first, as a hand-made activation locks it (one order, no deadlock).
        let waits = sqlx::query_scalar!(
            r#"select v.candidate and b.active_version_id is not null as "waits!"
               from bot_versions v join bots b on b.id = v.bot_id where v.id = $1
               for update of b"#,
            id as VersionId
        )
        .fetch_one(&mut *tx)
        .await?;
        let status = match (&v.failure, waits) {
            (Some(_), _) => VersionStatus::Failed,
            (None, true) => VersionStatus::Ready,
            (None, false) => VersionStatus::Active,
        };
        // Only a version still being built: a builder whose lease ran out while another
        // finished it must not overwrite that verdict.
        let bot = sqlx::query_scalar!(
            r#"update bot_versions set status = $2, failure = $3, build_log = $4,
                   smoke_replay = $5, smoke_stderr = $6, lease_until = null, finished_at = now()
               where id = $1 and status in ('building', 'testing')
               returning bot_id as "bot_id: BotId""#,
            id as VersionId,
            status as VersionStatus,
            v.failure,
            v.log,
            v.replay_gz,
            v.stderr
        )
        .fetch_optional(&mut *tx)
        .await?;
        let Some(bot) = bot else {
            tracing::warn!(version = %id, "built, but another builder had already recorded it");
            return Ok(());
        };
        if status == VersionStatus::Active {
            activate(&mut tx, bot, id).await?;
        }
        tx.commit().await?;
        tracing::info!(
            version = %id,
            %status,
            failure = v.failure.as_deref().unwrap_or(""),
            "built"
        );
        Ok(())
    }

    /// Keeps the build cache under its size, and its metric up to date.
    pub async fn upkeep(&self) {
        let cache = self.cache.clone();
        if let Ok(bytes) = crate::dedicated::run("build-cache", move || cache.evict()).await {
            crate::metrics::global()
                .build_cache_bytes
                .set(i64::try_from(bytes).unwrap_or(i64::MAX));
        }
    }
}

/// Makes version `id` (built and tested) the one `bot` plays; the active one retires
/// (its owner can make it active again). The bot keeps its mu, but the new version is
/// not known yet: its sigma starts over, and it is scheduled first.
pub async fn activate(tx: &mut sqlx::PgConnection, bot: BotId, id: VersionId) -> sqlx::Result<()> {
    sqlx::query!(
        "update bot_versions set status = case when id = $2 then 'active' else 'retired' end \
         where bot_id = $1 and (id = $2 or status = 'active')",
        bot as BotId,
        id as VersionId
    )
    .execute(&mut *tx)
    .await?;
    sqlx::query!(
        "update bots set active_version_id = $2, sigma = $3, version_games = 0 where id = $1",
        bot as BotId,
        id as VersionId,
        crate::ranker::rating::SIGMA
    )
    .execute(&mut *tx)
    .await?;
    Ok(())
}

/// How often the build cache is trimmed when nothing is being built.
/// The test game's progress is written every this many turns.
const TEST_TURN_STEP: u32 = 5;

const UPKEEP_EVERY: Duration = Duration::from_secs(600);

/// Builds queued versions until `stop` resolves; errors are logged and retried. The
/// build cache is swept of what interrupted builds left at start, and trimmed after
/// every build and every [`UPKEEP_EVERY`].
pub async fn run(builder: Builder, mut stop: tokio::sync::watch::Receiver<bool>) {
    let cache = builder.cache.clone();
    let _ = crate::dedicated::run("build-cache", move || cache.sweep()).await;
    builder.upkeep().await;
    let mut last_upkeep = Instant::now();
    loop {
        if *stop.borrow() {
            return;
        }
        let outcome = builder.build_next().await;
        if matches!(outcome, Ok(true)) || last_upkeep.elapsed() >= UPKEEP_EVERY {
            builder.upkeep().await;
            last_upkeep = Instant::now();
        }
        let idle = match outcome {
            Ok(true) => false,
            Ok(false) => true,
            Err(e) => {
                tracing::warn!("the builder will retry: {e:#}");
                true
            }
        };
        if idle {
            tokio::select! {
                _ = tokio::time::sleep(Duration::from_millis(500)) => {}
                _ = stop.changed() => {}
            }
        }
    }
}
