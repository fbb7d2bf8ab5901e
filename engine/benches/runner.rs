//! `cargo bench -p engine`: what the runner costs a turn with real processes: a
//! 500-turn match of two tiny compiled C bots, and the runner's own time per turn
//! (everything but the bots' thinking, which is nearly nothing). The sandbox's costs
//! are `cargo bench -p engine --bench sandbox`.

mod common;

use std::sync::Arc;
use std::time::Instant;

use engine::process::{BotSpec, LocalLauncher};
#[path = "../tests/support/bottlebats.rs"]
mod bottlebats_match;
use bottlebats_match::run_match;
use engine::MatchConfig;

fn runner_overhead() {
    let bot = common::idle_bot("bench-bot").join("idle");
    let (name, map) = common::maps::duel_map();
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

fn main() {
    // `cargo test --benches` runs this with `--bench` absent; keep that quick.
    if !std::env::args().any(|a| a == "--bench") {
        println!("runner benchmarks: run with `cargo bench -p engine`");
        return;
    }
    runner_overhead();
}
