//! The house bots (`games/bottlebats/bots/house/`) and the starter kits
//! (`games/bottlebats/bots/starters/`) play full
//! games with `bottlebats play` without a single error, timeout or warning; the kits
//! build as their READMEs say and all play the same moves; every bot survives odd
//! states; and the strong house bot beats the greedy one.
//!
//! A kit whose toolchain is missing (cargo/rustc, g++, node, javac/java) is skipped
//! with a message, not failed.

mod odd_states;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use odd_states::assert_survives_odd_states;

const PYTHON: &str = "/usr/bin/python3";

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .unwrap()
}

/// A fresh folder for one test.
fn workdir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("bots-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Copies a kit, leaving out build products.
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        if name == "target" || name == "bot" || name == "logs" || name == "game.log" {
            continue;
        }
        let path = entry.path();
        if path.is_dir() {
            copy_dir(&path, &to.join(&name));
        } else {
            std::fs::copy(&path, to.join(&name)).unwrap();
        }
    }
}

/// True when `program` runs (the toolchain is installed).
fn have(program: &str, arg: &str) -> bool {
    Command::new(program)
        .arg(arg)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn run_ok(dir: &Path, program: &str, args: &[&str]) {
    let out = Command::new(program)
        .args(args)
        .current_dir(dir)
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("CARGO_BUILD_TARGET_DIR")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "`{program} {}` failed:\n{}{}",
        args.join(" "),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// One row of the table `bottlebats play` prints.
#[derive(Debug)]
struct Row {
    player: String,
    forts: u64,
    warnings: u64,
    errors: u64,
    timeouts: u64,
    /// Seconds.
    time_used: f64,
}

/// What a game printed: the winner (`None` for a draw) and the table.
#[derive(Debug)]
struct Played {
    winner: Option<String>,
    rows: Vec<Row>,
    stdout: String,
}

/// Plays `config` in `dir` and reads the table; the game must have been played.
fn play(dir: &Path, config: &str) -> Played {
    std::fs::write(dir.join("test-config.json"), config).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_bottlebats"))
        .args(["play", "test-config.json", "--stderr-dir", "logs"])
        .current_dir(dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "bottlebats play failed in {}:\n{stdout}{}",
        dir.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let mut lines = stdout.lines();
    let winner = lines
        .next()
        .and_then(|l| l.strip_prefix("Winner: "))
        .unwrap_or_else(|| panic!("no winner line:\n{stdout}"))
        .to_string();
    let rows = lines
        .skip_while(|l| !l.starts_with("rank"))
        .skip(1)
        // The rows start with their rank; the line under them names the clock.
        .take_while(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            assert!(f.len() >= 8, "odd table row `{l}`:\n{stdout}");
            let n = |i: usize| f[i].parse::<u64>().unwrap();
            Row {
                player: f[1].to_string(),
                forts: n(2),
                warnings: n(4),
                errors: n(5),
                timeouts: n(6),
                time_used: f[7].trim_end_matches('s').parse().unwrap(),
            }
        })
        .collect();
    Played {
        winner: (winner != "None").then_some(winner),
        rows,
        stdout,
    }
}

impl Played {
    fn row(&self, player: &str) -> &Row {
        self.rows
            .iter()
            .find(|r| r.player == player)
            .unwrap_or_else(|| panic!("no row for {player}:\n{}", self.stdout))
    }

    /// The player played the whole game with no warning, error or timeout.
    fn assert_clean(&self, player: &str) {
        let r = self.row(player);
        assert!(
            r.warnings == 0 && r.errors == 0 && r.timeouts == 0,
            "{player} was not clean:\n{}",
            self.stdout
        );
    }
}

fn config(players: &[(&str, String)], map: &str, max_steps: u32) -> String {
    let players: Vec<String> = players
        .iter()
        .map(|(name, cmd)| format!("{name:?}: {cmd:?}"))
        .collect();
    format!(
        r#"{{ "players": {{ {} }}, {map}, "logfile": "game.log", "max_steps": {max_steps} }}"#,
        players.join(", ")
    )
}

fn mapfile(name: &str) -> String {
    format!(
        r#""mapfile": {:?}"#,
        repo()
            .join("maps/bottlebats")
            .join(name)
            .display()
            .to_string()
    )
}

fn house(name: &str) -> String {
    format!(
        "{PYTHON} {}",
        repo()
            .join("games/bottlebats/bots/house")
            .join(name)
            .join("bot.py")
            .display()
    )
}

// ---------------------------------------------------------------- house bots

#[test]
fn house_bots_play_full_games_without_warnings_errors_or_timeouts() {
    let dir = workdir("house");
    for (a, b, map) in [
        ("idle", "random", "duel-2p.map"),
        ("greedy", "strong", "duel-2p.map"),
        ("random", "greedy", "ring-2p.map"),
    ] {
        let game = play(
            &dir,
            &config(&[(a, house(a)), (b, house(b))], &mapfile(map), 500),
        );
        game.assert_clean(a);
        game.assert_clean(b);
    }
    // All four on a 4-player map: several enemies, players removed along the way.
    let names = ["idle", "random", "greedy", "strong"];
    let players: Vec<(&str, String)> = names.iter().map(|n| (*n, house(n))).collect();
    let game = play(&dir, &config(&players, &mapfile("quad-4p.map"), 500));
    for n in names {
        game.assert_clean(n);
    }
    for name in names {
        assert_survives_odd_states(
            &repo().join("games/bottlebats/bots/house").join(name),
            &house(name),
        );
    }
}

#[test]
fn the_strong_bot_is_fast_on_the_largest_map() {
    let dir = workdir("vast");
    let steps = 300;
    let game = play(
        &dir,
        &config(
            &[("strong", house("strong")), ("greedy", house("greedy"))],
            &mapfile("vast-2p.map"),
            steps,
        ),
    );
    game.assert_clean("strong");
    game.assert_clean("greedy");
    // At most as many turns as snapshots in the log, minus the final one.
    let log = std::fs::read_to_string(dir.join("game.log")).unwrap();
    let turns = log.matches("# STEP: ").count() - 1;
    let per_turn = game.row("strong").time_used / turns as f64;
    println!("strong on vast-2p: {:.1} ms a turn", per_turn * 1000.0);
    assert!(
        per_turn < 0.05,
        "strong takes {per_turn:.3} s a turn on vast-2p"
    );
}

#[test]
fn the_strong_bot_beats_greedy_in_most_games() {
    let dir = workdir("strong-vs-greedy");
    // (where, strong plays first)
    let games = [
        ("duel-2p", mapfile("duel-2p.map"), true),
        ("duel-2p", mapfile("duel-2p.map"), false),
        ("ring-2p", mapfile("ring-2p.map"), false),
        ("vast-2p", mapfile("vast-2p.map"), true),
        (
            "a map generated with seed 7",
            r#""seed": 7"#.to_string(),
            false,
        ),
    ];
    let mut wins = 0;
    let mut results = Vec::new();
    for (label, map, strong_first) in &games {
        let mut players = vec![("strong", house("strong")), ("greedy", house("greedy"))];
        if !strong_first {
            players.reverse();
        }
        let game = play(&dir, &config(&players, map, 300));
        game.assert_clean("strong");
        let won = game.winner.as_deref() == Some("strong");
        wins += u32::from(won);
        results.push(format!(
            "{label} (strong {}): {}, strong {} forts, greedy {} forts",
            if *strong_first { "first" } else { "second" },
            game.winner.as_deref().unwrap_or("draw"),
            game.row("strong").forts,
            game.row("greedy").forts
        ));
    }
    println!("{}", results.join("\n"));
    assert!(wins >= 4, "strong won {wins} of 5:\n{}", results.join("\n"));
}

// ---------------------------------------------------------------- starter kits

/// A kit copied into a fresh folder, built, and the command that runs it there.
struct Kit {
    dir: PathBuf,
    command: String,
}

/// Copies the kit and builds it as its README says; `None` (with a message) when a
/// toolchain it needs is missing.
fn build_kit(lang: &str, folder: &str) -> Option<Kit> {
    let dir = workdir(folder);
    copy_dir(
        &repo().join("games/bottlebats/bots/starters").join(lang),
        &dir,
    );
    let needs: &[(&str, &str)] = match lang {
        "python" => &[(PYTHON, "--version")],
        "rust" => &[("cargo", "--version"), ("rustc", "--version")],
        "cpp" => &[("g++", "--version")],
        "javascript" => &[("node", "--version")],
        "java" => &[("javac", "-version"), ("java", "-version")],
        _ => unreachable!(),
    };
    if let Some((missing, _)) = needs.iter().find(|(p, a)| !have(p, a)) {
        println!("skipping the {lang} starter kit: `{missing}` is not installed");
        return None;
    }
    let command = match lang {
        "python" => format!("{PYTHON} bot.py"),
        "rust" => {
            run_ok(&dir, "cargo", &["build", "--release", "--quiet"]);
            // The platform builds the one file alone with rustc.
            run_ok(&dir, "rustc", &["-O", "src/main.rs", "-o", "bot"]);
            "./bot".to_string()
        }
        "cpp" => {
            run_ok(&dir, "g++", &["-O2", "-std=c++17", "-o", "bot", "bot.cpp"]);
            "./bot".to_string()
        }
        "javascript" => "node bot.js".to_string(),
        "java" => {
            run_ok(&dir, "javac", &["Bot.java"]);
            "java Bot".to_string()
        }
        _ => unreachable!(),
    };
    Some(Kit { dir, command })
}

/// Plays the kit's own `config.json` (two copies of the bot on its `map.txt`), with
/// `/usr/bin/python3` for `python3`; returns the classic log.
fn play_kit_config(kit: &Kit) -> String {
    let text = std::fs::read_to_string(kit.dir.join("config.json")).unwrap();
    let config: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(config["mapfile"], "map.txt");
    assert_eq!(
        std::fs::read_to_string(kit.dir.join("map.txt")).unwrap(),
        std::fs::read_to_string(repo().join("maps/bottlebats/duel-2p.map")).unwrap()
    );
    let players = config["players"].as_object().unwrap();
    assert_eq!(players.len(), 2);
    let text = text.replace("\"python3 ", &format!("\"{PYTHON} "));
    let game = play(&kit.dir, &text);
    for name in players.keys() {
        game.assert_clean(name);
    }
    assert!(game.winner.is_some(), "{}", game.stdout);
    std::fs::read_to_string(kit.dir.join("game.log")).unwrap()
}

/// The Python kit's game against itself, the reference the other kits must match
/// (`None` without Python).
fn python_kit_log() -> Option<&'static str> {
    static LOG: OnceLock<Option<String>> = OnceLock::new();
    LOG.get_or_init(|| build_kit("python", "kit-reference").map(|kit| play_kit_config(&kit)))
        .as_deref()
}

fn check_kit(lang: &str) {
    let Some(kit) = build_kit(lang, &format!("kit-{lang}")) else {
        return;
    };
    let log = play_kit_config(&kit);
    if let Some(reference) = python_kit_log() {
        assert!(
            log == reference,
            "the {lang} kit does not play the same moves as the Python kit (see {})",
            kit.dir.join("game.log").display()
        );
    }
    // Against the greedy house bot, in the other seat.
    let game = play(
        &kit.dir,
        &config(
            &[("greedy", house("greedy")), ("kit", kit.command.clone())],
            &mapfile("ring-2p.map"),
            500,
        ),
    );
    game.assert_clean("kit");
    assert_survives_odd_states(&kit.dir, &kit.command);
}

#[test]
fn the_python_starter_kit_plays_cleanly() {
    check_kit("python");
}

#[test]
fn the_rust_starter_kit_builds_with_cargo_and_rustc_and_plays_the_same_moves() {
    check_kit("rust");
}

#[test]
fn the_cpp_starter_kit_builds_and_plays_the_same_moves() {
    check_kit("cpp");
}

#[test]
fn the_javascript_starter_kit_plays_the_same_moves() {
    check_kit("javascript");
}

#[test]
fn the_java_starter_kit_builds_and_plays_the_same_moves() {
    check_kit("java");
}
