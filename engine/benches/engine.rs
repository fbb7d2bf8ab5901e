//! `cargo bench -p engine`: the engine's speed, printed as a small report.
//!
//! 1. Rules only: turns per second on the largest map in `maps/`, players in-process.
//! 2. The runner: a 500-turn match of two tiny compiled C bots, and the runner's own
//!    time per turn (everything but the bots' thinking, which is nearly nothing).
//! 3. Replay size of a 500-turn 2-player game on a 24-fort map.

mod common;

use std::io::Write;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use engine::game::Game;
use engine::map::Map;
use engine::process::{BotSpec, LocalLauncher};
use engine::runner::{run_match, MatchConfig};
use engine::scripted::RandomPlayer;
use engine::Orders;

fn shipped_maps() -> Vec<(String, Map)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../maps");
    let mut maps = Vec::new();
    for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if let Ok(text) = std::fs::read_to_string(&path) {
            if let Ok(map) = Map::parse(&text) {
                maps.push((
                    path.file_name().unwrap().to_string_lossy().into_owned(),
                    map,
                ));
            }
        }
    }
    maps.sort_by(|a, b| a.0.cmp(&b.0));
    maps
}

fn seat_names(map: &Map) -> Vec<String> {
    (0..map.seats.len())
        .map(|i| format!("p{}", i + 1))
        .collect()
}

fn rules_only(name: &str, map: Map) {
    let map = Arc::new(map);
    let names = seat_names(&map);
    let (mut turns, mut in_step) = (0u64, Duration::ZERO);
    let started = Instant::now();
    let mut seed = 0;
    while started.elapsed() < Duration::from_secs(3) {
        let mut game = Game::new(map.clone(), &names, 500).unwrap();
        let mut players: Vec<RandomPlayer> = (0..names.len())
            .map(|s| RandomPlayer::new(&map, engine::Seat(s), seed))
            .collect();
        seed += 1;
        while !game.is_over() {
            let orders: Vec<Orders> = players.iter_mut().map(|p| p.orders(&game)).collect();
            let t = Instant::now();
            std::hint::black_box(game.step(&orders));
            in_step += t.elapsed();
            turns += 1;
        }
    }
    let total = started.elapsed();
    println!(
        "rules only, {name} ({} forts, {} roads, {} players): {:.0} turns/s in Game::step \
         ({:.2} µs/turn); {:.0} turns/s with the scripted players' decisions",
        map.forts.len(),
        map.roads.len(),
        names.len(),
        turns as f64 / in_step.as_secs_f64(),
        in_step.as_secs_f64() * 1e6 / turns as f64,
        turns as f64 / total.as_secs_f64(),
    );
}

fn duel_map() -> (String, Map) {
    shipped_maps()
        .into_iter()
        .find(|(_, m)| m.seats.len() == 2 && m.forts.len() == 24)
        .unwrap_or_else(|| {
            let opts = engine::generate::GenerateOptions {
                players: 2,
                seed: 1,
                forts: Some(24),
            };
            (
                "generated 24-fort map".into(),
                engine::generate::generate(&opts).unwrap(),
            )
        })
}

fn runner_overhead() {
    let bot = common::idle_bot("bench-bot").join("idle");
    let (name, map) = duel_map();
    let map = Arc::new(map);
    let specs: Vec<BotSpec> = ["p1", "p2"]
        .iter()
        .map(|n| BotSpec {
            name: n.to_string(),
            command: bot.display().to_string(),
            dir: std::env::temp_dir(),
        })
        .collect();
    let config = MatchConfig::default();
    let mut per_turn = Vec::new();
    for _ in 0..5 {
        let mut first: Option<Instant> = None;
        let mut last = Instant::now();
        let started = Instant::now();
        let result = run_match(map.clone(), &specs, &LocalLauncher, &config, &mut |turn| {
            let now = Instant::now();
            if turn == 1 {
                first = Some(now);
            }
            last = now;
            true
        })
        .unwrap();
        assert_eq!(result.replay.turns.len(), 501);
        let turns = result.replay.turns.len() as u32 - 3;
        per_turn.push((last - first.unwrap()) / turns);
        let whole = started.elapsed();
        println!(
            "  match of 500 turns: {:.1} ms wall in all",
            whole.as_secs_f64() * 1e3
        );
    }
    per_turn.sort();
    println!(
        "runner, 2 compiled idle bots, {name}: median {:.1} µs per turn (min {:.1}, max {:.1}); \
         this is the whole round trip: states out, replies in, rules, replay",
        per_turn[2].as_secs_f64() * 1e6,
        per_turn[0].as_secs_f64() * 1e6,
        per_turn[4].as_secs_f64() * 1e6,
    );
}

fn replay_size() {
    let (name, map) = duel_map();
    let map = Arc::new(map);
    let names = seat_names(&map);
    // Find a busy game that lasts all 500 turns.
    for seed in 0..200 {
        let mut game = Game::new(map.clone(), &names, 500).unwrap();
        let mut replay = engine::Replay::start(&game);
        engine::scripted::play_random_game(&mut game, seed, |g, ev| {
            replay.push(engine::replay::Events::of(ev), g)
        });
        if game.turn() < 500 {
            continue;
        }
        replay.finish(&game, &game.outcome());
        let json = replay.to_json();
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(json.as_bytes()).unwrap();
        let gz = gz.finish().unwrap();
        let marches: usize = replay.turns.iter().map(|t| t.marches.len()).sum();
        println!(
            "replay of a 500-turn 2-player game on {name} (seed {seed}, {marches} march rows): \
             {} bytes JSON, {} bytes gzipped",
            json.len(),
            gz.len()
        );
        return;
    }
    println!("replay size: no random game lasted 500 turns");
}

fn main() {
    // `cargo test --benches` runs this with `--bench` absent; keep that quick.
    let quick = !std::env::args().any(|a| a == "--bench");
    let maps = shipped_maps();
    let largest = maps
        .iter()
        .max_by_key(|(_, m)| m.forts.len())
        .cloned()
        .unwrap_or_else(duel_map);
    if quick {
        println!("engine benchmarks: run with `cargo bench -p engine`");
        return;
    }
    rules_only(&largest.0, largest.1);
    runner_overhead();
    replay_size();
}
