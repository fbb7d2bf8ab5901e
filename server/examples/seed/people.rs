//! The users, their bots and the bots' versions, inserted in a few set-based
//! statements.

use std::collections::HashMap;

use anyhow::Context;
use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use server::ranker::rating::{MU, SIGMA};

use crate::ladder::{normal, Bot};
use crate::Tx;

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

/// `users` users, who joined over the month before `start`; their ids.
/// Names are `fan001`, `fan002`, ...: as many digits as the largest number needs (at
/// least 3), so that 1000 users do not cut `fan1000` to a second `fan100`.
pub async fn add_users(tx: &mut Tx<'_>, users: usize, start: f64) -> anyhow::Result<Vec<i64>> {
    sqlx::query_scalar(
        "insert into users (name, password_hash, created_at) \
         select format('fan%s', lpad(g::text, greatest(3, length($1::text)), '0')), '!', \
             to_timestamp($2 - 86400 * 30 + g * 600) \
         from generate_series(1, $1) g returning id",
    )
    .bind(users as i64)
    .bind(start)
    .fetch_all(&mut **tx)
    .await
    .map_err(|e| anyhow::anyhow!("adding the users: {}", refused(&e)))
}

/// A database error in words, with the constraint it broke when there is one.
pub fn refused(e: &sqlx::Error) -> String {
    match e {
        sqlx::Error::Database(d) => match d.constraint() {
            Some(c) => format!(
                "{} (constraint `{c}`: is this database seeded already?)",
                d.message()
            ),
            None => d.message().to_string(),
        },
        other => other.to_string(),
    }
}

/// `n` bots of the users: 40% there from the start, the others arrive over the first
/// 90% of the time from `start` to `end`.
pub async fn add_bots(
    tx: &mut Tx<'_>,
    rng: &mut ChaCha8Rng,
    user_ids: &[i64],
    n: usize,
    (start, end): (f64, f64),
) -> anyhow::Result<Vec<Bot>> {
    let mut bots: Vec<Bot> = (0..n)
        .map(|i| {
            let joined = if i < n * 2 / 5 {
                start - rng.gen_range(86400.0..86400.0 * 20.0)
            } else {
                start + rng.gen_range(0.0..0.9) * (end - start)
            };
            Bot {
                id: 0,
                owner: *user_ids.choose(rng).expect("users"),
                skill: MU + 6.0 * normal(rng),
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
    let names: Vec<String> = (0..n)
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
    .fetch_all(&mut **tx)
    .await
    .context("adding the bots")?;
    let by_name: HashMap<&str, i64> = made.iter().map(|(id, n)| (n.as_str(), *id)).collect();
    for (b, n) in bots.iter_mut().zip(&names) {
        b.id = by_name[n.as_str()];
    }
    Ok(bots)
}

/// 1 to 3 versions per bot, uploaded between its arrival and `end`, the newest
/// active; each bot learns its versions. Returns how many there are.
pub async fn add_versions(
    tx: &mut Tx<'_>,
    rng: &mut ChaCha8Rng,
    bots: &mut [Bot],
    end: f64,
) -> anyhow::Result<usize> {
    let (mut v_bot, mut v_number, mut v_lang, mut v_entry, mut v_status, mut v_at) =
        (vec![], vec![], vec![], vec![], vec![], vec![]);
    for b in bots.iter() {
        let n = 1 + usize::from(rng.gen_bool(0.35)) + usize::from(rng.gen_bool(0.1));
        let (lang, entry) = *LANGUAGES.choose(rng).expect("languages");
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
    .fetch_all(&mut **tx)
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
    .execute(&mut **tx)
    .await?;
    Ok(versions.len())
}
