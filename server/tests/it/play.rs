//! `bottlebats play CONFIG.json` as a contestant uses it: the 2016 config, our keys,
//! the outputs, and a clear message and non-zero exit for everything that stops a game.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const MAP: &str = "\
# a small duel
3 forts:
a 0 0 p1 100
m 3 4 neutral 3
b 6 8 p2 5
2 roads:
a m
m b
0 marches:
";

fn bot() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../engine/tests/bots/fixture.py");
    format!(
        "/usr/bin/python3 {}",
        path.canonicalize().unwrap().display()
    )
}

fn workdir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("play-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("duel.map"), MAP).unwrap();
    dir
}

fn play(dir: &Path, config: &str, extra: &[&str]) -> Output {
    std::fs::write(dir.join("config.json"), config).unwrap();
    Command::new(env!("CARGO_BIN_EXE_bottlebats"))
        .arg("play")
        .arg("config.json")
        .args(extra)
        .current_dir(dir)
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn a_2016_config_plays_a_game_and_prints_the_winner_and_a_table() {
    let dir = workdir("classic");
    let config = format!(
        r#"{{ "players": {{ "alice": "{b} greedy", "bob": "{b} idle" }},
             "mapfile": "duel.map", "logfile": "sample.data", "max_steps": 100 }}"#,
        b = bot()
    );
    let out = play(&dir, &config, &[]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[0], "Winner: alice");
    assert!(lines[1].starts_with("Turns played: "), "{stdout}");
    assert!(lines[1].ends_with(" of 100"), "{stdout}");
    assert!(lines[3].starts_with("rank  player"), "{stdout}");
    for h in [
        "forts",
        "soldiers",
        "warnings",
        "errors",
        "timeouts",
        "time used (s)",
    ] {
        assert!(lines[3].contains(h), "table header lacks {h}: {}", lines[3]);
    }
    assert!(
        lines[4].split_whitespace().take(2).eq(["1", "alice"]),
        "{stdout}"
    );
    assert!(
        lines[5].split_whitespace().take(2).eq(["2", "bob"]),
        "{stdout}"
    );
    // Time in one unit: plain seconds in every row, and the clock named once.
    for row in &lines[4..6] {
        let time = row.split_whitespace().last().unwrap();
        assert!(time.parse::<f64>().is_ok(), "{row}");
    }
    assert!(lines[6].starts_with("time used: "), "{stdout}");

    let log = std::fs::read_to_string(dir.join("sample.data")).unwrap();
    let steps = log.matches("# STEP: ").count();
    assert!(
        steps > 2 && steps < 101,
        "the game ended early: {steps} snapshots"
    );
    assert!(log.starts_with("# STEP: 0\n3 forts:\na 0 0 alice 100\nm 3 4 neutral 3\nb 6 8 bob 5\n"));
    assert!(log.ends_with("\n\n"));
}

#[test]
fn our_keys_write_a_replay_and_each_players_stderr() {
    let dir = workdir("ours");
    let config = format!(
        r#"{{ "players": {{ "alice": "{b} idle", "bob": "{b} stderr_flood" }},
             "mapfile": "duel.map", "max_steps": 3, "replayfile": "game.json",
             "turn_timeout_ms": 1500, "startup_timeout_ms": 5000, "on_timeout": "eliminate" }}"#,
        b = bot()
    );
    let out = play(&dir, &config, &["--stderr-dir", "errs"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).starts_with("Winner: None\n"));
    let json = std::fs::read_to_string(dir.join("game.json")).unwrap();
    assert!(
        json.contains(r#""version":2"#),
        "the compact replay: {json}"
    );
    let replay = bottlebats::replay_v2::read_any(&json).unwrap();
    assert_eq!(replay.turns.len(), 4);
    assert_eq!(replay.players, ["alice", "bob"]);
    let bob = std::fs::read(dir.join("errs/bob.stderr")).unwrap();
    // Stderr is kept by the turn it arrives in, each turn capped at 64 KiB: three
    // floods of 200,001 bytes keep at most four turns' worth.
    assert!(
        bob.len() >= 64 * 1024 && bob.len() <= 4 * 64 * 1024,
        "{}",
        bob.len()
    );
    assert!(
        bob.iter().all(|&c| c == b'e' || c == b'\n'),
        "{}",
        String::from_utf8_lossy(&bob).replace('e', "")
    );
    assert_eq!(std::fs::read(dir.join("errs/alice.stderr")).unwrap(), b"");
    let dropped = 3 * 200_001 - bob.len();
    let line = format!("bob: {dropped} bytes of stderr over the caps were dropped");
    assert!(
        text(&out.stdout).contains(&line),
        "every byte is kept or counted: {line}"
    );
}

/// The summary tells each problem in words at its turn: every distinct warning with
/// its first turn and count, the timeouts with their turns, and the removal.
#[test]
fn the_summary_tells_each_problem_at_its_turn() {
    let dir = workdir("problems");
    let config = format!(
        r#"{{ "players": {{ "alice": "{b} idle", "bob": "{b} troubled" }},
             "mapfile": "duel.map", "max_steps": 30, "turn_timeout_ms": 400 }}"#,
        b = bot()
    );
    let out = play(&dir, &config, &[]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    let problems: Vec<&str> = stdout.lines().filter(|l| l.starts_with("bob: ")).collect();
    assert_eq!(
        problems.first().copied(),
        Some("bob: turn 2: ignored `atlantis nowhere 5`: there is no fort `atlantis` (3 times)"),
        "{stdout}"
    );
    assert!(problems.contains(&"bob: timed out in turns 4"), "{stdout}");
    assert!(
        problems
            .iter()
            .any(|l| l.starts_with("bob: turn 9: removed: ")),
        "{stdout}"
    );
}

#[test]
fn players_bind_to_seats_by_name_or_else_in_listed_order() {
    let cases = [
        // Every name is an owner on the map: bound by name, whatever the order.
        (r#""p2": "{b} idle", "p1": "{b} idle""#, "a 0 0 p1 100"),
        // Not all names are owners: bound in the order listed.
        (r#""zed": "{b} idle", "amy": "{b} idle""#, "a 0 0 zed 100"),
        // Fewer players than seats: the unbound seat is neutral and keeps its garrison.
        (r#""solo": "{b} idle""#, "b 6 8 neutral 5"),
    ];
    for (players, expect) in cases {
        let dir = workdir("bind");
        let config = format!(
            r#"{{ "players": {{ {} }}, "mapfile": "duel.map", "logfile": "log", "max_steps": 1 }}"#,
            players.replace("{b}", &bot())
        );
        let out = play(&dir, &config, &[]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let log = std::fs::read_to_string(dir.join("log")).unwrap();
        assert!(
            log.contains(expect),
            "{players}: expected `{expect}` in\n{log}"
        );
    }
}

#[test]
fn without_a_mapfile_a_seed_generates_the_map() {
    let dir = workdir("seed");
    let config = format!(
        r#"{{ "players": {{ "alice": "{b} greedy", "bob": "{b} greedy" }}, "seed": 5,
             "logfile": "log", "max_steps": 5 }}"#,
        b = bot()
    );
    let out = play(&dir, &config, &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let first = std::fs::read_to_string(dir.join("log")).unwrap();
    play(&dir, &config, &[]);
    assert_eq!(
        first,
        std::fs::read_to_string(dir.join("log")).unwrap(),
        "same seed, same game"
    );
}

#[test]
fn what_stops_a_game_is_named_and_exits_non_zero() {
    let b = bot();
    let cases = [
        ("{ \"players\": ", "is not valid".to_string()),
        (
            r#"{ "players": { "a": "x" }, "mapfile": "nope.map" }"#,
            "cannot read map file".to_string(),
        ),
        (
            r#"{ "players": { "a": "x" }, "mapfile": "broken.map" }"#,
            "map broken.map: line 4: road names unknown fort `zz`".to_string(),
        ),
        (
            r#"{ "players": { "a": "x" }, "mapfile": "duel.map", "turn_timeout": 5 }"#,
            "unknown field `turn_timeout`".to_string(),
        ),
        (
            r#"{ "players": { "a": "x", "b": "y", "c": "z" }, "mapfile": "duel.map" }"#,
            "the map has 2 seats (p1, p2) but 3 players are listed".to_string(),
        ),
        (
            &*format!(
                r#"{{ "players": {{ "alice": "{b} idle", "bob": "./no-such-bot" }}, "mapfile": "duel.map" }}"#
            ),
            "player `bob`: command `./no-such-bot` cannot start".to_string(),
        ),
        (
            r#"{ "players": { "two words": "x" }, "mapfile": "duel.map" }"#,
            "player name `two words` is not allowed".to_string(),
        ),
    ];
    for (config, expect) in cases {
        let dir = workdir("errors");
        std::fs::write(
            dir.join("broken.map"),
            "1 forts:\na 0 0 p1 1\n1 roads:\na zz\n0 marches:\n",
        )
        .unwrap();
        let out = play(&dir, config, &[]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{config}: {stderr}");
        assert!(
            stderr.contains(&expect),
            "{config}: expected `{expect}` in `{stderr}`"
        );
        assert!(!text(&out.stdout).contains("Winner"), "{config}");
    }
}

/// The runner tests' Vindinium bot in `mode`.
fn hero(mode: &str) -> String {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../games/vindinium/tests/bots/vindinium.py");
    format!(
        "/usr/bin/python3 {} {mode}",
        path.canonicalize().unwrap().display()
    )
}

#[test]
fn a_vindinium_config_plays_four_heroes_and_logs_every_state() {
    let dir = workdir("vindinium");
    let m1 = Path::new(env!("CARGO_MANIFEST_DIR")).join("../maps/vindinium/m1.txt");
    std::fs::copy(m1, dir.join("m1.txt")).unwrap();
    let config = format!(
        r#"{{ "game": "vindinium", "players": {{ "ann": "{}", "ben": "{}", "cat": "{}", "dan": "{}" }},
             "mapfile": "m1.txt", "max_turns": 400, "logfile": "log.jsonl", "replayfile": "replay.json" }}"#,
        hero("miner"),
        hero("garbage"),
        hero("crash_at 5"),
        hero("random")
    );
    let out = play(&dir, &config, &[]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("Moves played: 400"), "{stdout}");
    assert!(stdout.contains("gold  mines  deaths  warnings"), "{stdout}");
    assert!(
        stdout.contains("ben: move 1: unknown move `hello`: stayed (100 times)"),
        "{stdout}"
    );
    assert!(stdout.contains("cat: move 18: removed:"), "{stdout}");
    // One GAME object a line: the state at move 0 and after each move, then the winner.
    let log = std::fs::read_to_string(dir.join("log.jsonl")).unwrap();
    let lines: Vec<serde_json::Value> = log
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 402);
    assert_eq!(lines[0]["turn"], 0);
    assert_eq!(lines[400]["turn"], 400);
    assert_eq!(lines[400]["finished"], true);
    assert_eq!(
        lines[0]["heroes"][0]["name"], "ann",
        "hero ids follow the config's order"
    );
    let gold: Vec<i64> = (0..4)
        .map(|i| lines[400]["heroes"][i]["gold"].as_i64().unwrap())
        .collect();
    let top = *gold.iter().max().unwrap();
    let leaders: Vec<usize> = (0..4).filter(|&i| gold[i] == top).collect();
    let winner = &lines[401]["winner"];
    match leaders.as_slice() {
        [one] => assert_eq!(winner, &serde_json::json!(one + 1)),
        _ => assert!(winner.is_null()),
    }
    assert!(stdout.starts_with("Winner: "), "{stdout}");
    let replay = std::fs::read_to_string(dir.join("replay.json")).unwrap();
    assert!(replay.contains("\"format\":\"vindinium-replay\""));

    // Three heroes are no game of Vindinium.
    let three = format!(
        r#"{{ "game": "vindinium", "players": {{ "a": "{0}", "b": "{0}", "c": "{0}" }}, "map_seed": 3 }}"#,
        hero("miner")
    );
    let out = play(&dir, &three, &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("Vindinium is played by 4 players, and `players` lists 3"));
    let chess = r#"{ "game": "chess", "players": { "a": "x" } }"#;
    let out = play(&dir, chess, &[]);
    assert!(text(&out.stderr).contains("no game is called `chess`"));
}
