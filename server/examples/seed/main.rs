//! Fills a database with a big finished ladder, for the spectator pages' benchmark
//! (`bench/pages.sh`): users, bots with versions, finished matches with every seat's
//! result and rating change, the rating history, and a real gzipped replay per match.
//!
//! ```text
//! cargo run --release -p server --example seed -- --data-dir DIR   # a data folder's embedded database
//! cargo run --release -p server --example seed -- postgres://...   # any PostgreSQL (or DATABASE_URL)
//! ```
//!
//! Options: `--users 300 --bots 1000 --matches 100000 --full-replays 2000
//! --short-turns 80 --seed 1`. The database must hold no match yet; the schema is
//! migrated and the shipped maps loaded first.
//!
//! How it stays fast: a few dozen real replays are played with the engine's in-process
//! random players (two games per shipped map for 2 to 6 players) and stored once in a
//! temporary table; the whole ladder is simulated in memory (hidden skills, the
//! worker's Weng-Lin updates, a new version resetting sigma); then everything goes in
//! with a few set-based statements and `COPY`, in one transaction, and the tables are
//! vacuumed and analyzed. A module a phase: `replays`, `people` (users, bots and
//! versions), `ladder` (the simulation), `store` (the rest into the database).
//!
//! Replays are shared by many matches and tell another game than the match's (other
//! names, other ranks); a match's turns are its replay's. The newest `--full-replays`
//! matches, the ones spectators open, get whole games (up to 500 turns, 30 to 360 KB
//! gzipped); older ones get the same games stopped at `--short-turns` (a few KB), since
//! 100,000 whole games are 7 GB, which take minutes to write. Deterministic for a
//! `--seed`, except for the timestamps, which end a minute before now.

mod ladder;
mod people;
mod replays;
mod store;

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::bail;
use clap::Parser;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

#[derive(Parser, Debug)]
#[command(about = "Seeds a database with a big finished ladder for bench/pages.sh")]
struct Args {
    /// PostgreSQL URL; without it, the embedded database of --data-dir
    #[arg(env = "DATABASE_URL", hide_env_values = true)]
    database_url: Option<String>,
    /// Data folder of `bottlebats serve` (its embedded database, running or not)
    #[arg(long)]
    data_dir: Option<PathBuf>,
    #[arg(long, default_value_t = 300)]
    users: usize,
    #[arg(long, default_value_t = 1000)]
    bots: usize,
    #[arg(long, default_value_t = 100_000)]
    matches: usize,
    /// The newest matches get whole replays (up to 500 turns); older ones short ones
    #[arg(long, default_value_t = 2000)]
    full_replays: usize,
    /// Turn limit of the games of the older matches' replays
    #[arg(long, default_value_t = 80)]
    short_turns: u32,
    /// The same seed gives the same ladder
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// Turn limit of ranked games.
const MAX_STEPS: u32 = 500;
/// Mean time between two finished matches: 100,000 matches span about 100 days.
const EVERY_S: f64 = 86.4;

/// The transaction everything goes in with.
type Tx<'a> = sqlx::Transaction<'a, sqlx::Postgres>;

fn step(what: &str, since: &mut Instant) {
    println!("  {what}: {:.1} s", since.elapsed().as_secs_f64());
    *since = Instant::now();
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    // sqlx warns of every slow statement: seeding is made of them.
    server::serve::init_logging("warn,sqlx=error");
    if args.database_url.is_none() && args.data_dir.is_none() {
        bail!("give a DATABASE_URL or --data-dir DIR");
    }
    if args.users == 0 || args.bots < 6 || args.matches == 0 {
        bail!("seed at least one user, 6 bots (for the 6-player maps) and one match");
    }
    let started = Instant::now();
    let mut since = Instant::now();
    let db = open_an_empty_ladder(&args).await?;
    let pool = db.pool.clone();
    let map_ids: HashMap<String, i64> =
        sqlx::query_as::<_, (String, i64)>("select name, id from maps")
            .fetch_all(&pool)
            .await?
            .into_iter()
            .collect();

    let replays = replays::play_all(args.short_turns.clamp(1, MAX_STEPS), args.seed)?;
    step("played the replays", &mut since);

    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    let now = time::OffsetDateTime::now_utc().unix_timestamp() as f64;
    let end = now - 60.0;
    let start = end - args.matches as f64 * EVERY_S;

    let mut tx = pool.begin().await?;
    sqlx::query("set local synchronous_commit = off")
        .execute(&mut *tx)
        .await?;
    let user_ids = people::add_users(&mut tx, args.users, start).await?;
    let mut bots = people::add_bots(&mut tx, &mut rng, &user_ids, args.bots, (start, end)).await?;
    let versions = people::add_versions(&mut tx, &mut rng, &mut bots, end).await?;
    step("added the users, bots and versions", &mut since);

    let first_id: i64 = 1 + sqlx::query_scalar::<_, Option<i64>>("select max(id) from matches")
        .fetch_one(&mut *tx)
        .await?
        .unwrap_or(0);
    let ladder = ladder::Simulation {
        rng: &mut rng,
        bots: &mut bots,
        replays: &replays,
        map_ids: &map_ids,
        first_id,
        start,
    }
    .run(args.matches, args.full_replays)?;
    step("simulated the ladder", &mut since);

    store::add_matches(&mut tx, &replays, ladder.matches_copy).await?;
    step("added the matches", &mut since);
    store::add_seats(&mut tx, ladder.players_copy, first_id).await?;
    step("added the seats", &mut since);
    store::add_ratings(&mut tx, first_id, &bots).await?;
    tx.commit().await?;
    step("added the rating history and ratings", &mut since);
    store::vacuum(&pool).await?;
    step("vacuumed and analyzed", &mut since);

    println!(
        "seeded {} users, {} bots ({} versions), {} matches ({} seats, {} with whole replays), {} distinct replays in {:.1} s",
        args.users,
        args.bots,
        versions,
        args.matches,
        ladder.seats_total,
        args.full_replays.min(args.matches),
        replays.len(),
        started.elapsed().as_secs_f64()
    );
    db.close().await;
    Ok(())
}

/// The database of the arguments, migrated, with the shipped maps, and no match yet.
async fn open_an_empty_ladder(args: &Args) -> anyhow::Result<server::db::Database> {
    let config = server::config::Config::load(
        server::config::Settings {
            database_url: args.database_url.clone(),
            data_dir: args.data_dir.clone(),
            ..Default::default()
        },
        None,
    )?;
    let db = server::db::Database::open(&config).await?;
    server::ranker::load_shipped_maps(&db.pool).await?;
    let existing: i64 = sqlx::query_scalar("select count(*) from matches")
        .fetch_one(&db.pool)
        .await?;
    if existing > 0 {
        bail!("the database holds {existing} matches already: seed a fresh one");
    }
    Ok(db)
}
