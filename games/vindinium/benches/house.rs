//! `cargo bench -p engine --bench vindinium_house`: how the Vindinium house bot
//! `strong` does against three `miner`s (games/vindinium/bots/house/), played by the
//! runner with real processes. Every map is played four times, the bot in each seat:
//! the six original maps m1–m6 and generated maps of the ladder's sizes (seeds 1 to
//! 12). It prints, per map and in all, the share of games the bot ends with more gold
//! than every opponent and its mean rank, and its reply times. The goal
//! (games/vindinium/README.md): more gold than every miner in at least 70% of games.
//!
//! `VINDINIUM_BOT` and `VINDINIUM_OPPONENT` name other house bots to measure;
//! `VINDINIUM_SEEDS` the number of generated maps; `VINDINIUM_MAPS=m1,seed 4` plays
//! only those maps and prints each game's gold and deaths.

use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

use engine::process::{BotSpec, LocalLauncher};
use engine::{run_game, MatchConfig};
use vindinium::plugin;

/// A game's facts for the bot measured.
struct Played {
    map: String,
    /// Strictly more gold than each opponent.
    won: bool,
    rank: u32,
    /// Gold and deaths of heroes 1 to 4.
    gold: Vec<i64>,
    deaths: Vec<i64>,
    seat: usize,
    /// Its reply times, in ms.
    ms: Vec<u32>,
}

fn house(name: &str) -> String {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("bots/house")
        .join(name);
    format!("/usr/bin/python3 {}/bot.py", dir.display())
}

fn stat(stats: &[(&str, i64)], name: &str) -> i64 {
    stats.iter().find(|(n, _)| *n == name).map_or(0, |s| s.1)
}

fn gold(stats: &[(&str, i64)]) -> i64 {
    stat(stats, "gold")
}

/// One game on `map_text` with the bot in `seat` and the opponent in the others.
fn play(map: &str, map_text: &str, seat: usize, bot: &str, opponent: &str) -> Played {
    let names: Vec<String> = (1..=4).map(|i| format!("hero{i}")).collect();
    let specs: Vec<BotSpec> = (names.iter().enumerate())
        .map(|(i, name)| BotSpec {
            name: name.clone(),
            command: house(if i == seat { bot } else { opponent }),
            dir: std::env::temp_dir(),
        })
        .collect();
    let kind = plugin::kind();
    let m = kind.setup(map_text, &names, 1200).unwrap();
    let config = MatchConfig {
        turn_timeout: Duration::from_secs(1),
        startup_timeout: Duration::from_secs(10),
        ..MatchConfig::default()
    };
    let r = run_game(
        m,
        kind.framing(),
        &specs,
        &LocalLauncher,
        &config,
        &mut |_| true,
    )
    .unwrap();
    for p in &r.players {
        assert!(p.error.is_none() && p.timeouts == 0, "{map}: {p:?}");
        assert_eq!(p.warnings, 0, "{map}: {}", p.name);
    }
    let mine = gold(&r.players[seat].stats);
    let won = (r.players.iter().enumerate()).all(|(i, p)| i == seat || gold(&p.stats) < mine);
    let stored = plugin::read(&r.game.replay_json()).unwrap();
    let ms = (stored.ms.iter().skip(seat).step_by(4))
        .filter_map(|m| *m)
        .collect();
    Played {
        map: map.to_string(),
        won,
        rank: r.players[seat].rank,
        gold: r.players.iter().map(|p| gold(&p.stats)).collect(),
        deaths: r.players.iter().map(|p| stat(&p.stats, "deaths")).collect(),
        seat,
        ms,
    }
}

fn env_or(name: &str, default: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default.to_string())
}

fn main() {
    let bot = env_or("VINDINIUM_BOT", "strong");
    let opponent = env_or("VINDINIUM_OPPONENT", "miner");
    let seeds: u64 = env_or("VINDINIUM_SEEDS", "12").parse().unwrap();
    let only = env_or("VINDINIUM_MAPS", "");
    let verbose = !only.is_empty();
    let mut maps: Vec<(String, String)> = (vindinium::ORIGINAL_MAPS.iter())
        .map(|(name, text)| (name.to_string(), text.to_string()))
        .collect();
    for seed in 1..=seeds {
        let map = vindinium::generate(seed).unwrap();
        let name = format!("seed {seed} ({0}×{0})", map.board.size());
        maps.push((name, map.render()));
    }
    if verbose {
        // "seed 4 (24×24)" is named "seed 4".
        let only: Vec<&str> = only.split(',').collect();
        maps.retain(|(name, _)| only.contains(&name.split(" (").next().unwrap_or(name)));
    }
    let games: Vec<(usize, usize)> = (0..maps.len())
        .flat_map(|m| (0..4).map(move |seat| (m, seat)))
        .collect();
    println!(
        "vindinium: `{bot}` against three `{opponent}`s, {} games",
        games.len()
    );
    // Two games at a time, one a core.
    let next = Mutex::new(games.into_iter());
    let played = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let Some((m, seat)) = next.lock().unwrap().next() else {
                    break;
                };
                let (name, text) = &maps[m];
                let p = play(name, text, seat, &bot, &opponent);
                played.lock().unwrap().push(p);
            });
        }
    });
    let mut played = played.into_inner().unwrap();
    played.sort_by_key(|p| p.seat);
    for (name, _) in &maps {
        let of_map: Vec<&Played> = played.iter().filter(|p| &p.map == name).collect();
        let ranks: Vec<String> = of_map.iter().map(|p| p.rank.to_string()).collect();
        let won = of_map.iter().filter(|p| p.won).count();
        println!(
            "  {name:<18} won {won}/4, ranks {} (seats 1-4)",
            ranks.join(" ")
        );
        if verbose {
            for p in of_map {
                println!(
                    "    seat {}: gold {:?}, deaths {:?}",
                    p.seat + 1,
                    p.gold,
                    p.deaths
                );
            }
        }
    }
    let won = played.iter().filter(|p| p.won).count();
    let rank: u32 = played.iter().map(|p| p.rank).sum();
    println!(
        "`{bot}` has more gold than every `{opponent}` in {won} of {} games ({:.0}%), mean rank {:.2}",
        played.len(),
        100.0 * won as f64 / played.len() as f64,
        f64::from(rank) / played.len() as f64
    );
    let mut ms: Vec<u32> = played.iter().flat_map(|p| p.ms.iter().copied()).collect();
    ms.sort_unstable();
    let mean = ms.iter().map(|&m| f64::from(m)).sum::<f64>() / ms.len() as f64;
    println!(
        "`{bot}` replies: mean {mean:.1} ms, 99th percentile {} ms, slowest {} ms (runner's wall clock)",
        ms[ms.len() * 99 / 100],
        ms[ms.len() - 1]
    );
}
