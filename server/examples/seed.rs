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
//! vacuumed and analyzed.
//!
//! Replays are shared by many matches and tell another game than the match's (other
//! names, other ranks); a match's turns are its replay's. The newest `--full-replays`
//! matches, the ones spectators open, get whole games (up to 500 turns, 30 to 360 KB
//! gzipped); older ones get the same games stopped at `--short-turns` (a few KB), since
//! 100,000 whole games are 7 GB, which take minutes to write. Deterministic for a
//! `--seed`, except for the timestamps, which end a minute before now.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use anyhow::{bail, Context};
use clap::Parser;
use engine::game::Game;
use engine::replay::{Events, Replay};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use server::ranker::matchmaking::Settings;
use server::ranker::rating::{self, BETA, MU, SIGMA};
use server::ranker::shipped_maps;

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

/// Share of matches that end in a draw.
const DRAW_SHARE: f64 = 0.04;
/// Games played per map (each gives a whole replay and a short one).
const GAMES_PER_MAP: u64 = 2;
/// Turn limit of ranked games.
const MAX_STEPS: u32 = 500;
/// Mean time between two finished matches: 100,000 matches span about 100 days.
const EVERY_S: f64 = 86.4;

const ADJECTIVES: &[&str] = &[
    "swift", "silent", "brave", "crafty", "lazy", "grumpy", "lucky", "rusty", "shiny", "sneaky",
    "bold", "calm", "eager", "fuzzy", "gentle", "hasty", "jolly", "mighty", "nimble", "odd",
];
const ANIMALS: &[&str] = &[
    "bat", "owl", "fox", "wolf", "lynx", "crow", "hare", "mole", "newt", "orca", "puma", "seal",
    "toad", "vole", "wasp", "yak", "boar", "carp", "deer", "eel", "gnu", "ibis", "kiwi", "lark",
    "mink",
];
/// (language key, entry file) of the seeded versions.
const LANGUAGES: &[(&str, &str)] = &[
    ("python", "bot.py"),
    ("python", "bot.py"),
    ("python", "bot.py"),
    ("c", "bot.c"),
    ("cpp", "bot.cpp"),
    ("cpp", "bot.cpp"),
    ("rust", "src/main.rs"),
    ("java", "Bot.java"),
    ("javascript", "bot.js"),
];
const ERRORS: &[&str] = &[
    "crashed (exit status 1)",
    "timed out 10 turns in a row",
    "its reply was not understood: expected `N commands:`",
    "killed by signal 11 (SIGSEGV)",
];

/// A replay played in process, and what the ladder records of it.
struct Played {
    map: &'static str,
    seats: usize,
    /// Played to the end (or the ladder's turn limit), not stopped early.
    whole: bool,
    gz: Vec<u8>,
    turns: u32,
    /// (forts, soldiers) per seat at the end.
    holdings: Vec<(u64, u64)>,
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(bytes).expect("writing to memory");
    gz.finish().expect("writing to memory")
}

fn play(map: &'static str, text: &str, seed: u64, max_steps: u32) -> anyhow::Result<Played> {
    let parsed = Arc::new(engine::Map::parse(text).map_err(|e| anyhow::anyhow!("{map}: {e}"))?);
    let seats = parsed.seats.len();
    let names: Vec<String> = (1..=seats).map(|i| format!("player{i}")).collect();
    let mut game =
        Game::new(parsed, &names, max_steps).map_err(|e| anyhow::anyhow!("{map}: {e:?}"))?;
    let mut replay = Replay::start(&game);
    engine::scripted::play_random_game(&mut game, seed, |g, ev| replay.push(Events::of(ev), g));
    let outcome = game.outcome();
    replay.finish(&game, &outcome);
    Ok(Played {
        map,
        seats,
        whole: max_steps == MAX_STEPS,
        gz: gzip(replay.to_json().as_bytes()),
        turns: game.turn(),
        holdings: game.holdings(),
    })
}

/// A bot as the simulation follows it.
struct Bot {
    id: i64,
    owner: i64,
    /// What it is really worth: its mean performance.
    skill: f64,
    joined: f64,
    /// (version id, uploaded at), oldest first.
    versions: Vec<(i64, f64)>,
    /// The version of its last game.
    playing: Option<usize>,
    mu: f64,
    sigma: f64,
    games: i32,
    wins: i32,
    losses: i32,
    draws: i32,
    version_games: i32,
    last_game: Option<f64>,
    /// Crashes and times out now and then.
    buggy: bool,
    /// Sends invalid commands now and then.
    sloppy: bool,
    ms_per_turn: f64,
    disabled: bool,
}

/// A standard normal draw (Box-Muller).
fn normal(rng: &mut impl Rng) -> f64 {
    let u: f64 = rng.gen_range(f64::EPSILON..1.0);
    let v: f64 = rng.gen();
    (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
}

/// Text format of COPY: `\N` for null.
fn opt<T: std::fmt::Display>(x: Option<T>) -> String {
    x.map_or_else(|| "\\N".to_string(), |x| x.to_string())
}

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
    let config = server::config::Config::load(
        server::config::Settings {
            database_url: args.database_url.clone(),
            data_dir: args.data_dir.clone(),
            ..Default::default()
        },
        None,
    )?;
    let db = server::db::Database::open(&config).await?;
    let pool = db.pool.clone();
    server::ranker::load_shipped_maps(&pool).await?;
    let existing: i64 = sqlx::query_scalar("select count(*) from matches")
        .fetch_one(&pool)
        .await?;
    if existing > 0 {
        bail!("the database holds {existing} matches already: seed a fresh one");
    }
    let map_ids: HashMap<String, i64> =
        sqlx::query_as::<_, (String, i64)>("select name, id from maps")
            .fetch_all(&pool)
            .await?
            .into_iter()
            .collect();

    // ---- replays: two games per shipped map for 2 to 6 players, whole and stopped
    // early (the same game: the rules are deterministic), on both cores
    let short_turns = args.short_turns.clamp(1, MAX_STEPS);
    let jobs: Vec<(&'static str, &'static str, u64, u32)> = shipped_maps()
        .into_iter()
        .filter(|(_, text)| {
            engine::Map::parse(text).is_ok_and(|m| (2..=6).contains(&m.seats.len()))
        })
        .flat_map(|(name, text)| {
            (0..GAMES_PER_MAP).flat_map(move |k| {
                [MAX_STEPS, short_turns].map(|turns| (name, text, args.seed * 1000 + k, turns))
            })
        })
        .collect();
    let replays: Vec<Played> = std::thread::scope(|s| {
        let handles: Vec<_> = jobs
            .chunks(jobs.len().div_ceil(2))
            .map(|chunk| {
                s.spawn(move || {
                    chunk
                        .iter()
                        .map(|&(name, text, seed, turns)| play(name, text, seed, turns))
                        .collect::<anyhow::Result<Vec<_>>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a replay thread panicked"))
            .collect::<anyhow::Result<Vec<Vec<_>>>>()
    })?
    .into_iter()
    .flatten()
    .collect();
    for whole in [true, false] {
        let of: Vec<&Played> = replays.iter().filter(|r| r.whole == whole).collect();
        println!(
            "  {} {} replays: {:.0} turns and {:.1} KB gzipped on average",
            of.len(),
            if whole { "whole" } else { "short" },
            of.iter().map(|r| r.turns as f64).sum::<f64>() / of.len() as f64,
            of.iter().map(|r| r.gz.len() as f64).sum::<f64>() / of.len() as f64 / 1024.0
        );
    }
    step("played the replays", &mut since);

    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    let now = time::OffsetDateTime::now_utc().unix_timestamp() as f64;
    let end = now - 60.0;
    let start = end - args.matches as f64 * EVERY_S;

    let mut tx = pool.begin().await?;
    sqlx::query("set local synchronous_commit = off")
        .execute(&mut *tx)
        .await?;

    // ---- users
    let user_ids: Vec<i64> = sqlx::query_scalar(
        "insert into users (name, password_hash, created_at) \
         select format('fan%s', lpad(g::text, 3, '0')), '!', to_timestamp($2 - 86400 * 30 + g * 600) \
         from generate_series(1, $1) g returning id",
    )
    .bind(args.users as i64)
    .bind(start)
    .fetch_all(&mut *tx)
    .await
    .context("adding the users (is this database seeded already?)")?;

    // ---- bots: 40% there from the start, the others arrive over the first 90%
    let mut bots: Vec<Bot> = (0..args.bots)
        .map(|i| {
            let joined = if i < args.bots * 2 / 5 {
                start - rng.gen_range(86400.0..86400.0 * 20.0)
            } else {
                start + rng.gen_range(0.0..0.9) * (end - start)
            };
            Bot {
                id: 0,
                owner: *user_ids.choose(&mut rng).expect("users"),
                skill: MU + 6.0 * normal(&mut rng),
                joined,
                versions: Vec::new(),
                playing: None,
                mu: MU,
                sigma: SIGMA,
                games: 0,
                wins: 0,
                losses: 0,
                draws: 0,
                version_games: 0,
                last_game: None,
                buggy: rng.gen_bool(0.1),
                sloppy: rng.gen_bool(0.15),
                ms_per_turn: rng.gen_range(0.5..40.0),
                disabled: rng.gen_bool(0.01),
            }
        })
        .collect();
    let names: Vec<String> = (0..args.bots)
        .map(|i| {
            format!(
                "{}-{}-{}",
                ADJECTIVES[i % ADJECTIVES.len()],
                ANIMALS[(i / ADJECTIVES.len()) % ANIMALS.len()],
                i + 1
            )
        })
        .collect();
    let made: Vec<(i64, String)> = sqlx::query_as(
        "insert into bots (owner_id, name, created_at, mu, sigma) \
         select o, n, to_timestamp(t), $4, $5 from unnest($1::bigint[], $2::text[], $3::float8[]) as x(o, n, t) \
         returning id, name",
    )
    .bind(bots.iter().map(|b| b.owner).collect::<Vec<_>>())
    .bind(&names)
    .bind(bots.iter().map(|b| b.joined - 3600.0).collect::<Vec<_>>())
    .bind(MU)
    .bind(SIGMA)
    .fetch_all(&mut *tx)
    .await
    .context("adding the bots")?;
    let by_name: HashMap<&str, i64> = made.iter().map(|(id, n)| (n.as_str(), *id)).collect();
    for (b, n) in bots.iter_mut().zip(&names) {
        b.id = by_name[n.as_str()];
    }

    // ---- versions: 1 to 3 per bot, the newest active
    let (mut v_bot, mut v_number, mut v_lang, mut v_entry, mut v_status, mut v_at) =
        (vec![], vec![], vec![], vec![], vec![], vec![]);
    for b in &bots {
        let n = 1 + usize::from(rng.gen_bool(0.35)) + usize::from(rng.gen_bool(0.1));
        let (lang, entry) = *LANGUAGES.choose(&mut rng).expect("languages");
        for k in 0..n {
            let at = if k == 0 {
                b.joined - 600.0
            } else {
                b.joined + (end - b.joined) * (k as f64 + rng.gen_range(-0.3..0.3)) / n as f64
            };
            v_bot.push(b.id);
            v_number.push(k as i32 + 1);
            v_lang.push(lang);
            v_entry.push(entry);
            v_status.push(if k + 1 == n { "active" } else { "retired" });
            v_at.push(at);
        }
    }
    let versions: Vec<(i64, i64, i32)> = sqlx::query_as(
        "insert into bot_versions (bot_id, number, language, entry, archive, archive_name, archive_sha256, \
             status, build_log, attempts, created_at, finished_at) \
         select b, n, l, e, $7, e, sha256($7), s, 'seeded', 1, to_timestamp(t), to_timestamp(t + 20) \
         from unnest($1::bigint[], $2::int[], $3::text[], $4::text[], $5::text[], $6::float8[]) as x(b, n, l, e, s, t) \
         returning id, bot_id, number",
    )
    .bind(&v_bot)
    .bind(&v_number)
    .bind(&v_lang)
    .bind(&v_entry)
    .bind(&v_status)
    .bind(&v_at)
    .bind(b"# a seeded bot: it only waits\n".to_vec())
    .fetch_all(&mut *tx)
    .await
    .context("adding the versions")?;
    let index: HashMap<i64, usize> = bots.iter().enumerate().map(|(i, b)| (b.id, i)).collect();
    let at_of: HashMap<(i64, i32), f64> = v_bot
        .iter()
        .zip(&v_number)
        .zip(&v_at)
        .map(|((&b, &n), &t)| ((b, n), t))
        .collect();
    let mut versions = versions;
    versions.sort_by_key(|v| (v.1, v.2));
    for (id, bot, number) in &versions {
        bots[index[bot]]
            .versions
            .push((*id, at_of[&(*bot, *number)]));
    }
    sqlx::query(
        "update bots b set active_version_id = v.id from bot_versions v \
         where v.bot_id = b.id and v.status = 'active' and b.id = any($1)",
    )
    .bind(bots.iter().map(|b| b.id).collect::<Vec<_>>())
    .execute(&mut *tx)
    .await?;
    step("added the users, bots and versions", &mut since);

    // ---- the ladder, simulated
    let first_id: i64 = 1 + sqlx::query_scalar::<_, Option<i64>>("select max(id) from matches")
        .fetch_one(&mut *tx)
        .await?
        .unwrap_or(0);
    // The replays to choose from, by [whole][more than 2 players].
    let kind = |whole: bool, multi: bool| -> Vec<usize> {
        (0..replays.len())
            .filter(|&k| replays[k].whole == whole && (replays[k].seats > 2) == multi)
            .collect()
    };
    let pools = [
        [kind(false, false), kind(false, true)],
        [kind(true, false), kind(true, true)],
    ];
    let stderr_hex = format!("\\\\x{}", hex::encode(gzip(b"[]")));
    let mut order: Vec<usize> = (0..bots.len()).collect();
    order.sort_by(|&a, &b| bots[a].joined.total_cmp(&bots[b].joined));
    let mut arrived = 0;
    let mut matches_copy = String::with_capacity(args.matches * 64);
    let mut players_copy = String::with_capacity(args.matches * 2 * 200);
    let mut seats_total = 0usize;
    for i in 0..args.matches {
        let id = first_id + i as i64;
        let finished = start + (i as f64 + 1.0 + rng.gen_range(-0.4..0.4)) * EVERY_S;
        while arrived < order.len() && bots[order[arrived]].joined <= finished {
            arrived += 1;
        }
        let whole = i + args.full_replays >= args.matches;
        // The ranker's default share of matches on maps for more than two players.
        let multi = rng.gen_bool(Settings::default().multi_player_share);
        let k = *pools[usize::from(whole)][usize::from(multi)]
            .choose(&mut rng)
            .expect("replays of every kind");
        let r = &replays[k];
        let n = r.seats;
        // Distinct bots, of distinct owners when it can, as matchmaking does.
        let mut chosen: Vec<usize> = Vec::with_capacity(n);
        let mut tries = 0;
        while chosen.len() < n {
            // (The first bots to arrive play even before they have, when too few have.)
            let c = order[rng.gen_range(0..arrived.max(n))];
            tries += 1;
            if chosen.contains(&c)
                || (tries < 50 && chosen.iter().any(|&o| bots[o].owner == bots[c].owner))
            {
                continue;
            }
            chosen.push(c);
        }
        // Ranked by the day's performance; now and then the turn limit comes first and
        // the two leaders share the first place (a draw).
        let perf: Vec<f64> = chosen
            .iter()
            .map(|&b| bots[b].skill + BETA * normal(&mut rng))
            .collect();
        let mut by_perf: Vec<usize> = (0..n).collect();
        by_perf.sort_by(|&a, &b| perf[b].total_cmp(&perf[a]));
        let mut ranks = vec![0u32; n];
        for (j, &s) in by_perf.iter().enumerate() {
            ranks[s] = j as u32 + 1;
        }
        if rng.gen_bool(DRAW_SHARE) {
            ranks[by_perf[1]] = 1;
        }
        let winner = (ranks.iter().filter(|&&r| r == 1).count() == 1).then_some(by_perf[0]);
        // At the end a winner holds everything; in a draw the leaders hold what the
        // replay's best players held; the defeated hold nothing.
        let mut held = r.holdings.clone();
        held.sort_by(|a, b| b.cmp(a));
        let mut holdings = vec![(0u64, 0u64); n];
        match winner {
            Some(w) => holdings[w] = held.iter().fold((0, 0), |t, h| (t.0 + h.0, t.1 + h.1)),
            None => {
                for (j, &s) in by_perf.iter().take_while(|&&s| ranks[s] == 1).enumerate() {
                    holdings[s] = held[j];
                }
            }
        }
        let mut before = Vec::with_capacity(n);
        let mut version = Vec::with_capacity(n);
        for &b in &chosen {
            let bot = &mut bots[b];
            let v = bot
                .versions
                .iter()
                .rposition(|v| v.1 <= finished)
                .unwrap_or(0);
            if bot.playing != Some(v) {
                if bot.playing.is_some() {
                    bot.sigma = SIGMA;
                }
                bot.playing = Some(v);
                bot.version_games = 0;
            }
            before.push((bot.mu, bot.sigma));
            version.push(bot.versions[v].0);
        }
        let after = rating::rate(&before, &ranks);
        let seconds = 0.3 + r.turns as f64 * rng.gen_range(0.005..0.05);
        let waited = rng.gen_range(1.0..180.0);
        writeln!(
            matches_copy,
            "{id}\t{}\t{k}\t{finished}\t{seconds}\t{waited}\t{}\t{}",
            map_ids[r.map],
            r.turns,
            opt(winner)
        )?;
        for s in 0..n {
            let bot = &mut bots[chosen[s]];
            let rank = ranks[s];
            let outcome = match winner {
                Some(w) if w == s => "win",
                None if rank == 1 => "draw",
                _ => "loss",
            };
            let turn = |rng: &mut ChaCha8Rng| rng.gen_range(0..r.turns.max(1));
            let mut problem: Option<u32> = None;
            let error =
                (bot.buggy && rank as usize == n && rank > 1 && rng.gen_bool(0.3)).then(|| {
                    problem = Some(turn(&mut rng));
                    *ERRORS.choose(&mut rng).expect("errors")
                });
            let timeouts = if bot.buggy && rng.gen_bool(0.08) {
                let t = turn(&mut rng);
                problem = Some(problem.map_or(t, |p| p.min(t)));
                rng.gen_range(1..=3)
            } else {
                0
            };
            let warnings = if bot.sloppy && rng.gen_bool(0.3) {
                let t = turn(&mut rng);
                problem = Some(problem.map_or(t, |p| p.min(t)));
                rng.gen_range(1..=40)
            } else {
                0
            };
            let cpu_ms = (r.turns as f64 * bot.ms_per_turn * rng.gen_range(0.7..1.3)) as i64;
            let (forts, soldiers) = holdings[s];
            writeln!(
                players_copy,
                "{id}\t{s}\t{}\t{}\t{rank}\t{outcome}\t{forts}\t{soldiers}\t{warnings}\t{timeouts}\t{}\t{cpu_ms}\t{stderr_hex}\t{}\t{}\t{}\t{}\t{}",
                bot.id,
                version[s],
                opt(error),
                before[s].0,
                before[s].1,
                after[s].0,
                after[s].1,
                opt(problem),
            )?;
            bot.mu = after[s].0;
            bot.sigma = after[s].1;
            bot.games += 1;
            bot.version_games += 1;
            match outcome {
                "win" => bot.wins += 1,
                "draw" => bot.draws += 1,
                _ => bot.losses += 1,
            }
            bot.last_game = Some(finished);
        }
        seats_total += n;
    }
    // A version uploaded after the bot's last game is active already: its sigma
    // started over.
    for bot in &mut bots {
        if bot.playing != Some(bot.versions.len() - 1) {
            bot.sigma = SIGMA;
            bot.version_games = 0;
        }
    }
    step("simulated the ladder", &mut since);

    // ---- in the database
    sqlx::query(
        "create temp table seed_replays (k int primary key, replay bytea not null) on commit drop",
    )
    .execute(&mut *tx)
    .await?;
    sqlx::query("insert into seed_replays select * from unnest($1::int[], $2::bytea[])")
        .bind((0..replays.len() as i32).collect::<Vec<_>>())
        .bind(replays.iter().map(|r| r.gz.clone()).collect::<Vec<_>>())
        .execute(&mut *tx)
        .await?;
    sqlx::query(
        "create temp table seed_matches (id bigint, map_id bigint, k int, finished float8, \
             seconds float8, waited float8, turns int, winner_seat int) on commit drop",
    )
    .execute(&mut *tx)
    .await?;
    copy(&mut tx, "copy seed_matches from stdin", matches_copy).await?;
    sqlx::query(
        "insert into matches (id, status, map_id, attempts, created_at, started_at, finished_at, turns, \
             winner_seat, replay) overriding system value \
         select s.id, 'finished', s.map_id, 1, to_timestamp(s.finished - s.seconds - s.waited), \
             to_timestamp(s.finished - s.seconds), to_timestamp(s.finished), s.turns, s.winner_seat, r.replay \
         from seed_matches s join seed_replays r on r.k = s.k order by s.id",
    )
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "select setval(pg_get_serial_sequence('matches', 'id'), (select max(id) from matches))",
    )
    .execute(&mut *tx)
    .await?;
    step("added the matches", &mut since);
    copy(
        &mut tx,
        "copy match_players (match_id, seat, bot_id, version_id, rank, outcome, forts, soldiers, warnings, \
             timeouts, error, cpu_ms, stderr, mu_before, sigma_before, mu_after, sigma_after, problem_turn) from stdin",
        players_copy,
    )
    .await?;
    sqlx::query(
        "update match_players p set finished_at = m.finished_at from matches m \
         where m.id = p.match_id and p.match_id >= $1",
    )
    .bind(first_id)
    .execute(&mut *tx)
    .await?;
    step("added the seats", &mut since);
    sqlx::query(
        "insert into rating_history (bot_id, match_id, mu, sigma, at) \
         select p.bot_id, p.match_id, p.mu_after, p.sigma_after, m.finished_at \
         from match_players p join matches m on m.id = p.match_id where p.match_id >= $1",
    )
    .bind(first_id)
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "update bots b set mu = x.mu, sigma = x.sigma, games = x.games, wins = x.wins, losses = x.losses, \
             draws = x.draws, version_games = x.vg, last_game_at = to_timestamp(x.last), disabled = x.disabled \
         from unnest($1::bigint[], $2::float8[], $3::float8[], $4::int[], $5::int[], $6::int[], $7::int[], \
             $8::int[], $9::float8[], $10::bool[]) as x(id, mu, sigma, games, wins, losses, draws, vg, last, disabled) \
         where b.id = x.id",
    )
    .bind(bots.iter().map(|b| b.id).collect::<Vec<_>>())
    .bind(bots.iter().map(|b| b.mu).collect::<Vec<_>>())
    .bind(bots.iter().map(|b| b.sigma).collect::<Vec<_>>())
    .bind(bots.iter().map(|b| b.games).collect::<Vec<_>>())
    .bind(bots.iter().map(|b| b.wins).collect::<Vec<_>>())
    .bind(bots.iter().map(|b| b.losses).collect::<Vec<_>>())
    .bind(bots.iter().map(|b| b.draws).collect::<Vec<_>>())
    .bind(bots.iter().map(|b| b.version_games).collect::<Vec<_>>())
    .bind(bots.iter().map(|b| b.last_game).collect::<Vec<_>>())
    .bind(bots.iter().map(|b| b.disabled).collect::<Vec<_>>())
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    step("added the rating history and ratings", &mut since);

    // As autovacuum would soon: planner statistics and the visibility map.
    for table in [
        "users",
        "bots",
        "bot_versions",
        "matches",
        "match_players",
        "rating_history",
    ] {
        sqlx::query(sqlx::AssertSqlSafe(format!("vacuum analyze {table}")))
            .execute(&pool)
            .await?;
    }
    step("vacuumed and analyzed", &mut since);
    println!(
        "seeded {} users, {} bots ({} versions), {} matches ({} seats, {} with whole replays), {} distinct replays in {:.1} s",
        args.users,
        args.bots,
        versions.len(),
        args.matches,
        seats_total,
        args.full_replays.min(args.matches),
        replays.len(),
        started.elapsed().as_secs_f64()
    );
    db.close().await;
    Ok(())
}

/// Streams COPY text into the database.
async fn copy(
    tx: &mut sqlx::Transaction<'_, sqlx::Postgres>,
    statement: &str,
    data: String,
) -> anyhow::Result<()> {
    let conn: &mut sqlx::PgConnection = tx;
    let mut copy = conn.copy_in_raw(statement).await?;
    for chunk in data.as_bytes().chunks(1 << 20) {
        copy.send(chunk).await?;
    }
    copy.finish().await?;
    Ok(())
}
