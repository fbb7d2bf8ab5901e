//! `cargo bench -p bottlebats`: the engine's speed, printed as a small report.
//!
//! 1. Rules only: turns per second on the largest map in `maps/`, players in-process.
//! 2. Replay size of a 500-turn 2-player game on a 24-fort map.
//!
//! The runner's cost per turn with real processes is `cargo bench -p engine`.

mod maps;

use std::io::Write;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bottlebats::game::Game;
use bottlebats::map::Map;
use bottlebats::scripted::RandomPlayer;
use bottlebats::Orders;

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
            .map(|s| RandomPlayer::new(&map, bottlebats::Seat(s), seed))
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

fn replay_size() {
    let (name, map) = maps::duel_map();
    let map = Arc::new(map);
    let names = seat_names(&map);
    // Find a busy game that lasts all 500 turns.
    for seed in 0..200 {
        let mut game = Game::new(map.clone(), &names, 500).unwrap();
        let mut replay = bottlebats::Replay::start(&game);
        bottlebats::scripted::play_random_game(&mut game, seed, |g, ev| {
            replay.push(bottlebats::replay::Events::of(ev), g)
        });
        if game.turn() < 500 {
            continue;
        }
        replay.finish(&game, &game.outcome());
        let gzip = |json: &str| {
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            gz.write_all(json.as_bytes()).unwrap();
            gz.finish().unwrap().len()
        };
        let (v1, v2) = (
            replay.to_json(),
            bottlebats::replay_v2::encode(&replay).to_json(),
        );
        let marches: usize = replay.turns.iter().map(|t| t.marches.len()).sum();
        println!(
            "replay of a 500-turn 2-player game on {name} (seed {seed}, {marches} march rows): \
             compact (v2) {} bytes JSON, {} bytes gzipped; whole boards (v1) {} bytes JSON, \
             {} bytes gzipped",
            v2.len(),
            gzip(&v2),
            v1.len(),
            gzip(&v1)
        );
        return;
    }
    println!("replay size: no random game lasted 500 turns");
}

fn main() {
    // `cargo test --benches` runs this with `--bench` absent; keep that quick.
    let quick = !std::env::args().any(|a| a == "--bench");
    let maps = maps::shipped_maps();
    let largest = maps
        .iter()
        .max_by_key(|(_, m)| m.forts.len())
        .cloned()
        .unwrap_or_else(maps::duel_map);
    if quick {
        println!("engine benchmarks: run with `cargo bench -p bottlebats`");
        return;
    }
    rules_only(&largest.0, largest.1);
    replay_size();
}
