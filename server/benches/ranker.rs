//! `cargo bench -p server --bench ranker`: the ladder's database side, with no bot
//! processes: matches per second through scheduling (`ranker::schedule`), claiming
//! (`Worker::claim`) and recording with the rating updates (`Worker::record`).
//!
//! An embedded PostgreSQL in `target/tmp/bench-pg` (as the tests start theirs) holds a
//! fresh database with 50 bots of 50 owners, each with an active version, and the
//! shipped maps. The results recorded are real games of the engine's in-process
//! random players, one per shipped map: 500 turns at most, as ranked games, for
//! replays of a realistic size, or cut after 1 turn to measure the database alone.
//!
//! 1. Scheduling, one match per call as the workers do (each call reads the ladder).
//! 2. Claiming, then recording, the matches one after another; recording also with
//!    the 500-turn replays, whose JSON and gzip `record` makes on the worker's CPU.
//! 3. Claiming and recording from 2 concurrent tasks.
//! 4. The worker loop's database work (heartbeat, schedule, claim, heartbeat, record
//!    per match, as `Worker::run`), from 1 and from 2 tasks.
//!
//! The phases take turns in rounds of 200 matches, and each prints its overall rate
//! and its best round: other work on the machine slows some rounds, and the best one
//! is what the database can do. Then 50,000 finished 2-player matches are added (a
//! ladder that has run for a while) and every phase runs again.
//!
//! The cluster is stopped at the end.

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use bottlebats::game::Game;
use bottlebats::replay::{Events, Replay};
use engine::{MatchConfig, PlayerReport};
use server::builds::Builder;
use server::db::{EmbeddedPg, MIGRATOR};
use server::ids::UserId;
use server::ranker::{self, matchmaking::Settings};
use server::worker::{Played, Worker};
use sha2::Digest;
use sqlx::postgres::PgPoolOptions;
use sqlx::{ConnectOptions, Executor, PgPool};

const BOTS: usize = 50;
/// Each phase runs in rounds of M matches, the phases taking turns, so that a burst
/// of other work on the machine slows a round of each rather than one whole phase.
const ROUNDS: usize = 5;
const M: usize = 200;
/// Finished matches added before scheduling is measured again.
const HISTORY: i64 = 50_000;
const DATABASE: &str = "ranker_bench";

/// A game of random players on each shipped map (`max_steps` turns at most), by map
/// text, with the size of its gzipped replay.
fn games(max_steps: u32) -> anyhow::Result<HashMap<String, (Played, usize)>> {
    let mut out = HashMap::new();
    for (i, (name, text)) in server::games::content("bottlebats")
        .unwrap()
        .maps()
        .into_iter()
        .enumerate()
    {
        let map =
            Arc::new(bottlebats::Map::parse(&text).map_err(|e| anyhow::anyhow!("{name}: {e}"))?);
        let names: Vec<String> = (1..=map.seats.len()).map(|s| format!("p{s}")).collect();
        let mut game = Game::new(map.clone(), &names, max_steps)
            .map_err(|e| anyhow::anyhow!("{name}: {e:?}"))?;
        let mut replay = Replay::start(&game);
        bottlebats::scripted::play_random_game(&mut game, i as u64, |g, ev| {
            replay.push(Events::of(ev), g)
        });
        let outcome = game.outcome();
        replay.finish(&game, &outcome);
        let holdings = game.holdings();
        let players: Vec<PlayerReport> = names
            .iter()
            .enumerate()
            .map(|(s, n)| PlayerReport {
                name: n.clone(),
                rank: outcome.ranks[s],
                stats: vec![
                    ("forts", game_interface::number(holdings[s].0)),
                    ("soldiers", game_interface::number(holdings[s].1)),
                ],
                stderr: vec![(1, b"thinking...\n".to_vec())],
                ..PlayerReport::default()
            })
            .collect();
        let gz = {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            e.write_all(replay.to_json().as_bytes())?;
            e.finish()?.len()
        };
        out.insert(
            text.to_string(),
            (
                Played {
                    ranks: outcome.ranks.clone(),
                    turns: replay.result.as_ref().map_or(0, |x| x.turns),
                    stats: players.iter().map(|p| p.stats.clone()).collect(),
                    problems: (0..players.len())
                        .map(|s| bottlebats::problems::counted(&replay, s, &Default::default(), 0))
                        .collect(),
                    replay_json: bottlebats::replay_v2::encode(&replay).to_json(),
                    players,
                    last_views: Default::default(),
                },
                gz,
            ),
        );
    }
    Ok(out)
}

/// A fresh database with the bots and the maps.
async fn ladder(pg: &EmbeddedPg) -> anyhow::Result<PgPool> {
    let mut admin = pg.options("postgres").connect().await?;
    admin
        .execute(sqlx::AssertSqlSafe(format!(
            "drop database if exists {DATABASE} with (force)"
        )))
        .await?;
    admin
        .execute(sqlx::AssertSqlSafe(format!("create database {DATABASE}")))
        .await?;
    let db = PgPoolOptions::new()
        .max_connections(8)
        .connect_with(pg.options(DATABASE))
        .await?;
    MIGRATOR.run(&db).await?;
    let archive = b"print('0 commands:')\n".to_vec();
    let sha = sha2::Sha256::digest(&archive).to_vec();
    for i in 0..BOTS {
        let user: i64 = sqlx::query_scalar(
            "insert into users (name, password_hash) values ($1, 'x') returning id",
        )
        .bind(format!("owner{i}"))
        .fetch_one(&db)
        .await?;
        let bot = server::uploads::create_bot(&db, UserId(user), &format!("bot{i}"), "bottlebats")
            .await?
            .0;
        let version: i64 = sqlx::query_scalar(
            "insert into bot_versions (bot_id, number, language, entry, archive, archive_name, archive_sha256, status) \
             values ($1, 1, 'python', 'bot.py', $2, 'bot.py', $3, 'active') returning id",
        )
        .bind(bot)
        .bind(&archive)
        .bind(&sha)
        .fetch_one(&db)
        .await?;
        sqlx::query("update bots set active_version_id = $2 where id = $1")
            .bind(bot)
            .bind(version)
            .execute(&db)
            .await?;
    }
    ranker::load_shipped_maps(&db).await?;
    Ok(db)
}

fn worker(db: &PgPool, name: &str) -> anyhow::Result<Worker> {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("bench-ranker");
    Ok(Worker {
        name: name.into(),
        db: db.clone(),
        builder: Builder::new(
            db.clone(),
            Arc::new(engine::sandbox::Sandbox::new(Default::default())),
            Arc::new(server::languages::Languages::load(None)?),
            server::build_cache::BuildCache::new(dir.join("builds"), 256 << 20, 10 << 30)?,
            dir.join("house"),
        ),
        match_config: MatchConfig::default(),
        stop: Arc::new(AtomicBool::new(false)),
        challenge_minutes_per_hour: 30,
    })
}

/// Matches per second of one phase, over its rounds.
struct Phase {
    what: &'static str,
    n: usize,
    took: Duration,
    /// The fastest round, matches per second.
    best: f64,
}

impl Phase {
    fn new(what: &'static str) -> Phase {
        Phase {
            what,
            n: 0,
            took: Duration::ZERO,
            best: 0.0,
        }
    }

    fn add(&mut self, n: usize, took: Duration) {
        self.n += n;
        self.took += took;
        self.best = self.best.max(n as f64 / took.as_secs_f64());
    }

    fn print(&self) {
        println!(
            "{:<58} {:>6.0} /s overall, {:>6.0} /s best round  ({:.2} ms each, {} matches)",
            self.what,
            self.n as f64 / self.took.as_secs_f64(),
            self.best,
            self.took.as_secs_f64() * 1e3 / self.n as f64,
            self.n
        );
    }
}

async fn queued(db: &PgPool) -> anyhow::Result<i64> {
    Ok(
        sqlx::query_scalar("select count(*) from matches where status = 'queued'")
            .fetch_one(db)
            .await?,
    )
}

/// Schedules `n` matches, one per call; returns the time taken.
async fn schedule_one_by_one(db: &PgPool, n: usize) -> anyhow::Result<Duration> {
    let settings = Settings::default();
    let base = queued(db).await?;
    let t = Instant::now();
    for i in 0..n {
        let made = ranker::schedule(db, base + i as i64 + 1, &settings).await?;
        anyhow::ensure!(made == 1, "one match per call");
    }
    Ok(t.elapsed())
}

type Results = Arc<HashMap<String, (Played, usize)>>;

/// Claims and records until the queue is empty; returns the matches done.
async fn drain(w: Worker, results: Results) -> anyhow::Result<usize> {
    let mut done = 0;
    while let Some(m) = w.claim().await? {
        let (r, _) = results.get(&m.map_text).context("a shipped map")?;
        anyhow::ensure!(w.record(&m, r).await?, "recorded");
        done += 1;
    }
    Ok(done)
}

/// The worker loop's database work for `n` matches, as `Worker::run` does it:
/// heartbeat, schedule, claim, heartbeat, record (and a heartbeat every 20 s of play,
/// which these matches do not take).
async fn worker_loop(w: Worker, results: Results, buffer: i64, n: usize) -> anyhow::Result<()> {
    let settings = Settings::default();
    for _ in 0..n {
        w.heartbeat(None).await?;
        ranker::schedule(&w.db, buffer, &settings).await?;
        let Some(m) = w.claim().await? else {
            continue;
        };
        w.heartbeat(Some(m.id)).await?;
        let (r, _) = results.get(&m.map_text).context("a shipped map")?;
        anyhow::ensure!(w.record(&m, r).await?, "recorded");
    }
    Ok(())
}

async fn finished(db: &PgPool) -> anyhow::Result<i64> {
    Ok(
        sqlx::query_scalar("select count(*) from matches where status = 'finished'")
            .fetch_one(db)
            .await?,
    )
}

/// Every phase, in ROUNDS rounds.
async fn phases(db: &PgPool, results: &Results, tiny: &Results) -> anyhow::Result<()> {
    let mut schedule = Phase::new("schedule (one match per call)");
    let mut claim = Phase::new("claim");
    let mut record = Phase::new("record (result, seats, ratings, history; 1-turn replay)");
    let mut record_big = Phase::new("record with the 500-turn replays (JSON, gzip)");
    let mut concurrent = Phase::new("claim + record, 2 concurrent tasks");
    let mut loops = [
        Phase::new("worker loop (schedule, claim, record, 2 heartbeats)"),
        Phase::new("worker loop, 2 concurrent tasks"),
    ];
    let w = worker(db, "bench-1")?;
    for _ in 0..ROUNDS {
        schedule.add(M, schedule_one_by_one(db, M).await?);
        let (n, claiming, recording) = claim_then_record(&w, tiny).await?;
        claim.add(n, claiming);
        record.add(n, recording);

        schedule_one_by_one(db, M / 4).await?;
        let (n, _, recording) = claim_then_record(&w, results).await?;
        record_big.add(n, recording);

        schedule_one_by_one(db, M).await?;
        let (n, took) = claim_and_record_in_two_tasks(db, tiny).await?;
        concurrent.add(n, took);

        for (tasks, phase) in [1, 2].into_iter().zip(loops.iter_mut()) {
            let (n, took) = worker_loops(db, tiny, tasks).await?;
            phase.add(n, took);
        }
    }
    let each = [&schedule, &claim, &record, &record_big, &concurrent];
    for phase in each.into_iter().chain(&loops) {
        phase.print();
    }
    Ok(())
}

/// Claims every queued match, then records them with the games of `results`: the
/// matches, the time claiming took and the time recording took.
async fn claim_then_record(
    w: &Worker,
    results: &Results,
) -> anyhow::Result<(usize, Duration, Duration)> {
    let mut claimed = Vec::new();
    let t = Instant::now();
    while let Some(m) = w.claim().await? {
        claimed.push(m);
    }
    let claiming = t.elapsed();
    let t = Instant::now();
    for m in &claimed {
        let (r, _) = results.get(&m.map_text).context("a shipped map")?;
        anyhow::ensure!(w.record(m, r).await?, "recorded");
    }
    Ok((claimed.len(), claiming, t.elapsed()))
}

/// Two tasks claim and record until the queue is empty: the matches and the time.
async fn claim_and_record_in_two_tasks(
    db: &PgPool,
    tiny: &Results,
) -> anyhow::Result<(usize, Duration)> {
    let t = Instant::now();
    let tasks: Vec<_> = (0..2)
        .map(|i| {
            let w = worker(db, &format!("bench-c{i}"));
            let tiny = tiny.clone();
            tokio::spawn(async move { drain(w?, tiny).await })
        })
        .collect();
    let mut done = 0;
    for task in tasks {
        done += task.await??;
    }
    Ok((done, t.elapsed()))
}

/// The worker loop in `tasks` tasks, M matches in all: the matches finished and the
/// time; then what the loop left queued is drained.
async fn worker_loops(
    db: &PgPool,
    tiny: &Results,
    tasks: usize,
) -> anyhow::Result<(usize, Duration)> {
    let before = finished(db).await?;
    let t = Instant::now();
    let handles: Vec<_> = (0..tasks)
        .map(|i| {
            let w = worker(db, &format!("bench-w{tasks}-{i}"));
            let tiny = tiny.clone();
            tokio::spawn(async move { worker_loop(w?, tiny, 2 * tasks as i64, M / tasks).await })
        })
        .collect();
    for h in handles {
        h.await??;
    }
    let took = t.elapsed();
    let done = (finished(db).await? - before) as usize;
    // What the loop left queued.
    drain(worker(db, "bench-drain")?, tiny.clone()).await?;
    Ok((done, took))
}

async fn run(pg: &EmbeddedPg) -> anyhow::Result<()> {
    let t = Instant::now();
    let results: Results = Arc::new(tokio::task::spawn_blocking(|| games(500)).await??);
    // The same with 1-turn replays: what `record` costs the database alone.
    let tiny: Results = Arc::new(tokio::task::spawn_blocking(|| games(1)).await??);
    let n = results.len();
    let json: usize = results.values().map(|(r, _)| r.replay_json.len()).sum();
    let gz: usize = results.values().map(|(_, gz)| gz).sum();
    let turns: u32 = results.values().map(|(r, _)| r.turns).sum();
    println!(
        "{n} games of random players in {:.1} s: {} turns, {:.0} KB of JSON, {:.0} KB gzipped on average",
        t.elapsed().as_secs_f64(),
        turns / n as u32,
        json as f64 / 1e3 / n as f64,
        gz as f64 / 1e3 / n as f64
    );
    let t = Instant::now();
    for (r, _) in results.values() {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(r.replay_json.as_bytes())?;
        std::hint::black_box(e.finish()?);
    }
    println!(
        "JSON and gzip of such a replay, which `record` does on the worker's CPU: {:.1} ms",
        t.elapsed().as_secs_f64() * 1e3 / n as f64
    );

    let db = ladder(pg).await?;
    println!(
        "{BOTS} bots, {} maps, a fresh database; {ROUNDS} rounds of {M} matches a phase\n",
        server::games::content("bottlebats").unwrap().maps().len()
    );
    phases(&db, &results, &tiny).await?;

    // A ladder that has been running for a while.
    let two: i64 = sqlx::query_scalar("select id from maps where seats = 2 order by id limit 1")
        .fetch_one(&db)
        .await?;
    let t = Instant::now();
    let mut tx = db.begin().await?;
    sqlx::query(
        "insert into matches (status, map_id, finished_at, turns, replay) \
         select 'finished', $1, now(), 100, '\\x00'::bytea from generate_series(1, $2)",
    )
    .bind(two)
    .bind(HISTORY)
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "with b as (select id, active_version_id as version_id, row_number() over (order by id) - 1 as k from bots), \
         m as (select id, finished_at, row_number() over (order by id) as i from matches where replay = '\\x00'::bytea) \
         insert into match_players (match_id, seat, bot_id, version_id, rank, finished_at) \
         select m.id, s.seat, b.id, b.version_id, s.seat + 1, m.finished_at from m \
         cross join lateral (values (0, m.i % 50), (1, (m.i % 50 + 1 + (m.i / 50) % 49) % 50)) s(seat, k) \
         join b on b.k = s.k",
    )
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    sqlx::query("vacuum analyze").execute(&db).await?;
    let total = finished(&db).await?;
    println!(
        "\n(added {HISTORY} finished 2-player matches in {:.1} s: {total} finished in all)",
        t.elapsed().as_secs_f64()
    );
    phases(&db, &results, &tiny).await?;
    db.close().await;
    Ok(())
}

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        println!("ranker benchmarks: run with `cargo bench -p server --bench ranker`");
        return;
    }
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("bench-pg");
    let pg = match EmbeddedPg::start(&dir, None) {
        Ok(pg) => pg,
        Err(e) => {
            eprintln!("the embedded PostgreSQL did not start: {e:#}");
            std::process::exit(1);
        }
    };
    let outcome = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(anyhow::Error::from)
        .and_then(|rt| rt.block_on(run(&pg)));
    pg.stop();
    if let Err(e) = outcome {
        eprintln!("{e:#}");
        std::process::exit(1);
    }
}
