//! `cargo bench -p engine --bench sandbox`: what the sandbox costs, printed as a small
//! report. Needs root, bwrap and cgroups (`bottlebats doctor`); without them only the
//! bare numbers are printed.
//!
//! 1. Start and stop: launch a tiny compiled C bot, send it one state, read its reply,
//!    end it (and everything the launcher set up for it); median of 30, sandboxed and
//!    bare (`LocalLauncher`).
//! 2. The round trip per turn: a 500-turn match of two such bots through `run_match`,
//!    the runner's time per turn as in `benches/runner.rs`; median of 5, sandboxed and
//!    bare.
//! 3. A spinning neighbour: the wall time of a fixed amount of work by one sandboxed
//!    bot, alone and next to a bot spinning on every core and more, with the CPU quota
//!    (one core) and without one; median of 5.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use engine::process::{BotSpec, Launcher, LocalLauncher};
use engine::sandbox::{Limits, Sandbox, SandboxConfig};
#[path = "../tests/support/bottlebats.rs"]
mod bottlebats_match;
use bottlebats_match::run_match;
use engine::MatchConfig;

fn spec(dir: &Path, name: &str) -> BotSpec {
    BotSpec {
        name: name.to_string(),
        command: "./idle".to_string(),
        dir: dir.to_path_buf(),
    }
}

const STATE: &str = "2 forts:\na 0 0 p1 10\nb 3 4 p2 10\n1 roads:\na b\n0 marches:\n";

/// Launch, one state, one reply, end: the whole life of a bot.
fn start_stop(launcher: &dyn Launcher, bot: &BotSpec) -> Duration {
    let started = Instant::now();
    let mut process = launcher.launch(bot).unwrap();
    let (mut stdin, stdout, stderr) = process.take_stdio().unwrap();
    stdin.write_all(STATE.as_bytes()).unwrap();
    stdin.flush().unwrap();
    let mut reply = String::new();
    BufReader::new(stdout).read_line(&mut reply).unwrap();
    assert_eq!(reply, "0 commands:\n");
    process.prepare_end();
    drop((stdin, stderr));
    process.kill();
    drop(process);
    started.elapsed()
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn start_stop_report(what: &str, launcher: &dyn Launcher, bot: &BotSpec) {
    start_stop(launcher, bot); // warm-up
    let times: Vec<Duration> = (0..30).map(|_| start_stop(launcher, bot)).collect();
    let (min, max) = (*times.iter().min().unwrap(), *times.iter().max().unwrap());
    println!(
        "start, one state and reply, stop, {what}: median {:.2} ms (min {:.2}, max {:.2}; 30 runs)",
        ms(median(times)),
        ms(min),
        ms(max)
    );
}

fn per_turn_report(what: &str, launcher: &dyn Launcher, dir: &Path) {
    let (name, map) = common::maps::duel_map();
    let map = Arc::new(map);
    let specs = [spec(dir, "p1"), spec(dir, "p2")];
    let config = MatchConfig::default();
    let mut per_turn = Vec::new();
    let mut whole = Vec::new();
    for _ in 0..5 {
        let mut first: Option<Instant> = None;
        let mut last = Instant::now();
        let started = Instant::now();
        let result = run_match(map.clone(), &specs, launcher, &config, &mut |turn| {
            let now = Instant::now();
            if turn == 1 {
                first = Some(now);
            }
            last = now;
            true
        })
        .unwrap();
        assert_eq!(result.replay.turns.len(), 501);
        assert!(result
            .players
            .iter()
            .all(|p| p.error.is_none() && p.timeouts == 0));
        let turns = result.replay.turns.len() as u32 - 3;
        per_turn.push((last - first.unwrap()) / turns);
        whole.push(started.elapsed());
    }
    let (min, max) = (
        *per_turn.iter().min().unwrap(),
        *per_turn.iter().max().unwrap(),
    );
    println!(
        "500-turn match, 2 compiled idle bots, {what}, {name}: median {:.1} µs per turn \
         (min {:.1}, max {:.1}); {:.0} ms per match",
        median(per_turn).as_secs_f64() * 1e6,
        min.as_secs_f64() * 1e6,
        max.as_secs_f64() * 1e6,
        ms(median(whole)),
    );
}

/// Runs `bot` to its end; its wall time.
fn run_to_exit(launcher: &dyn Launcher, bot: &BotSpec) -> Duration {
    let started = Instant::now();
    let mut p = launcher.launch(bot).unwrap();
    drop(p.take_stdio());
    while p.try_wait().is_none() {
        std::thread::sleep(Duration::from_millis(2));
    }
    p.kill();
    started.elapsed()
}

fn neighbour_report(sandbox: &Arc<Sandbox>, dir: &Path) {
    let work = BotSpec {
        name: "work".into(),
        command: "sh -c 'i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done'".into(),
        dir: dir.to_path_buf(),
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let launcher = sandbox.launcher(Limits::game());
    let timed = || median((0..5).map(|_| run_to_exit(&launcher, &work)).collect());
    let alone = timed();
    println!(
        "a fixed amount of work, sandboxed: {:.0} ms alone",
        ms(alone)
    );
    for (spinners, what, millicores) in [
        (1, "with the CPU quota (one core)", 1000),
        (
            cores + 2,
            "with the CPU quota (one core, pinned once over it)",
            1000,
        ),
        (cores + 2, "without a CPU quota", 0),
    ] {
        let spinner = BotSpec {
            name: "spin".into(),
            command: format!(
                "sh -c 'for i in $(seq {spinners}); do (while :; do :; done) & done; wait'"
            ),
            dir: dir.to_path_buf(),
        };
        let limits = Limits {
            cpu_millicores: millicores,
            ..Limits::game()
        };
        let mut spin = sandbox.launcher(limits).launch(&spinner).unwrap();
        std::thread::sleep(Duration::from_millis(300));
        let next_to = timed();
        spin.kill();
        println!(
            "  next to a bot spinning {spinners} processes {what}: {:.0} ms ({:+.0}%)",
            ms(next_to),
            (next_to.as_secs_f64() / alone.as_secs_f64() - 1.0) * 100.0
        );
    }
}

fn main() {
    // `cargo test --benches` runs this with `--bench` absent; keep that quick.
    if !std::env::args().any(|a| a == "--bench") {
        println!("sandbox benchmarks: run with `cargo bench -p engine --bench sandbox`");
        return;
    }
    let dir = common::idle_bot("bench-sandbox-bot");
    let bot = spec(&dir, "p1");
    // Its own uids and lock folder, apart from a server's default pool.
    let sandbox = Sandbox::new(SandboxConfig {
        uid_base: 61_920,
        slots: 8,
        lock_dir: PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("bench-slots"),
        ..SandboxConfig::default()
    });
    let sandbox = Arc::new(sandbox);
    let sandboxed = if sandbox.is_complete() {
        Some(sandbox.launcher(Limits::game()))
    } else {
        println!("the sandbox is incomplete here; only bare numbers follow:");
        for p in sandbox.protections().iter().filter(|p| !p.active) {
            println!("  {}: {}", p.name, p.how);
        }
        None
    };

    start_stop_report("bare (LocalLauncher)", &LocalLauncher, &bot);
    if let Some(launcher) = &sandboxed {
        start_stop_report("sandboxed", launcher, &bot);
    }
    per_turn_report("bare (LocalLauncher)", &LocalLauncher, &dir);
    if let Some(launcher) = &sandboxed {
        per_turn_report("sandboxed", launcher, &dir);
        neighbour_report(&sandbox, &dir);
    }
}
