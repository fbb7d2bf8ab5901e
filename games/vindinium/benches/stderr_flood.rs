//! `cargo bench -p vindinium --bench stderr_flood`: what a hero that floods stderr
//! costs a Vindinium game played by the engine with real processes, bare and in the
//! sandbox (docs/measurements.md).

use std::sync::Arc;
use std::time::{Duration, Instant};

use engine::process::{BotSpec, LocalLauncher};
use engine::MatchConfig;

/// A Vindinium game of 1,200 moves between four fixture heroes playing at random
/// (`tests/bots/vindinium.py`, copied into `dir`), the first in `mode` (`random`,
/// or `flood`: a child process of it writes to stderr without end): the game's wall
/// clock, the runner's own share of it (the wall clock less the heroes' replies), and
/// the bytes of stderr dropped.
fn vindinium_game(
    launcher: &dyn engine::process::Launcher,
    dir: &std::path::Path,
    mode: &str,
) -> (Duration, Duration, u64) {
    let names: Vec<String> = ["ann", "ben", "cat", "dan"].map(String::from).to_vec();
    let specs: Vec<BotSpec> = (names.iter().enumerate())
        .map(|(i, name)| BotSpec {
            name: name.clone(),
            command: format!(
                "python3 vindinium.py {}",
                if i == 0 { mode } else { "random" }
            ),
            dir: dir.to_path_buf(),
        })
        .collect();
    let kind = vindinium::plugin::kind();
    let m = kind
        .setup(vindinium::ORIGINAL_MAPS[0].1, &names, 1200)
        .unwrap();
    let config = MatchConfig {
        turn_timeout: Duration::from_secs(1),
        startup_timeout: Duration::from_secs(10),
        ..MatchConfig::default()
    };
    let started = Instant::now();
    let r = engine::run_game(m, kind.framing(), &specs, launcher, &config, &mut |_| true).unwrap();
    let wall = started.elapsed();
    assert_eq!(r.game.turn(), 1200, "every move played");
    let replies: Duration = r.players.iter().map(|p| p.time_used).sum();
    let dropped = r.players.iter().map(|p| p.stderr_dropped).sum();
    (wall, wall.saturating_sub(replies), dropped)
}

/// What a hero flooding stderr costs a Vindinium game, bare and in the sandbox.
fn stderr_flood() {
    use std::os::unix::fs::PermissionsExt;
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("bench-flood");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    let bot = dir.join("vindinium.py");
    std::fs::copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/bots/vindinium.py"),
        &bot,
    )
    .unwrap();
    std::fs::set_permissions(&bot, std::fs::Permissions::from_mode(0o644)).unwrap();
    let sandbox = Arc::new(engine::sandbox::Sandbox::new(
        engine::sandbox::SandboxConfig {
            uid_base: 61_940,
            slots: 8,
            lock_dir: std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
                .join("bench-flood-slots"),
            ..engine::sandbox::SandboxConfig::default()
        },
    ));
    let sandboxed = sandbox.launcher(engine::sandbox::Limits::game());
    let mut launchers: Vec<(&str, &dyn engine::process::Launcher)> = vec![("bare", &LocalLauncher)];
    if sandbox.is_complete() {
        launchers.push(("sandboxed", &sandboxed));
    } else {
        println!("the sandbox is incomplete here: the bare runner only");
    }
    for (how, launcher) in launchers {
        for flooding in [false, true, false, true] {
            let (wall, runner, dropped) =
                vindinium_game(launcher, &dir, if flooding { "flood" } else { "random" });
            println!(
                "vindinium, 1,200 moves, {how}, {}: {:.2} s wall, {:.2} s of it the \
                 runner's own ({:.2} ms a move); {} MB of stderr dropped",
                if flooding {
                    "one hero flooding stderr"
                } else {
                    "four quiet heroes"
                },
                wall.as_secs_f64(),
                runner.as_secs_f64(),
                runner.as_secs_f64() * 1e3 / 1200.0,
                dropped / 1_000_000
            );
        }
    }
}

fn main() {
    // `cargo test --benches` runs this with `--bench` absent; keep that quick.
    if !std::env::args().any(|a| a == "--bench") {
        println!(
            "stderr flood benchmark: run with `cargo bench -p vindinium --bench stderr_flood`"
        );
        return;
    }
    stderr_flood();
}
