//! The Connect Four bots shipped with the platform, played by the runner with real
//! processes: the house bots of `games/connectfour/bots/house/` and the Python starter
//! kit of `games/connectfour/bots/starters/python/` play whole games with no problem,
//! `strong` beats `random` and the starter kit from either seat, and the kit's and the
//! local kit's configs name the game and bots that are there.

use std::path::{Path, PathBuf};
use std::time::Duration;

use connectfour::plugin;
use connectfour::EMPTY_BOARD;
use engine::process::{BotSpec, LocalLauncher};
use engine::{run_game, GameResult, MatchConfig};

fn game_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

/// A bot by its folder under `bots/` (`house/strong`, `starters/python`), named
/// `name`.
fn bot(folder: &str, name: &str) -> BotSpec {
    BotSpec {
        name: name.to_string(),
        command: "/usr/bin/python3 bot.py".into(),
        dir: game_dir().join("bots").join(folder),
    }
}

fn play(specs: &[BotSpec]) -> GameResult {
    let names: Vec<String> = specs.iter().map(|s| s.name.clone()).collect();
    let kind = plugin::kind();
    let m = kind.setup(EMPTY_BOARD, &names, 42).unwrap();
    let config = MatchConfig {
        turn_timeout: Duration::from_secs(1),
        startup_timeout: Duration::from_secs(10),
        ..MatchConfig::default()
    };
    let r = run_game(
        m,
        kind.framing(),
        specs,
        &LocalLauncher,
        &config,
        &mut |_| true,
    )
    .unwrap();
    assert!(r.game.is_over());
    for (seat, p) in r.players.iter().enumerate() {
        let err: String = (p.stderr.iter())
            .map(|(_, b)| String::from_utf8_lossy(b).into_owned())
            .collect();
        assert_eq!(p.error, None, "{}: {err}", p.name);
        assert_eq!(p.timeouts, 0, "{}: {err}", p.name);
        assert!(r.game.problems(seat).is_empty(), "{}: {err}", p.name);
        assert_eq!(p.stat("forfeits"), Some(0), "{}", p.name);
    }
    r
}

/// The name of the winner of a game, if one won.
fn winner(r: &GameResult) -> Option<&str> {
    (r.game.outcome().winner()).map(|s| r.players[s].name.as_str())
}

#[test]
fn strong_beats_random_from_either_seat() {
    let r = play(&[bot("house/strong", "strong"), bot("house/random", "random")]);
    assert_eq!(winner(&r), Some("strong"));
    let r = play(&[bot("house/random", "random"), bot("house/strong", "strong")]);
    assert_eq!(winner(&r), Some("strong"));
}

#[test]
fn strong_beats_the_starter_kit_and_the_kit_beats_random() {
    for (a, b) in [("strong", "starter"), ("starter", "strong")] {
        let spec = |n: &str| match n {
            "strong" => bot("house/strong", "strong"),
            _ => bot("starters/python", "starter"),
        };
        let r = play(&[spec(a), spec(b)]);
        assert_eq!(winner(&r), Some("strong"), "{a} first");
    }
    let r = play(&[
        bot("starters/python", "starter"),
        bot("house/random", "random"),
    ]);
    assert_eq!(winner(&r), Some("starter"));
}

#[test]
fn two_random_bots_play_a_whole_game() {
    let r = play(&[bot("house/random", "red"), bot("house/random", "yellow")]);
    let discs: i64 = r.players.iter().map(|p| p.stat("discs").unwrap()).sum();
    assert_eq!(discs, i64::from(r.game.turn()));
    assert!(
        r.game.turn() >= 7,
        "four in a row takes seven moves at least"
    );
}

#[test]
fn the_configs_name_the_game_and_bots_that_are_there() {
    for (config, root) in [
        ("kit/config.json", game_dir().join("kit")),
        (
            "bots/starters/python/config.json",
            game_dir().join("bots/starters/python"),
        ),
    ] {
        let text = std::fs::read_to_string(game_dir().join(config)).unwrap();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["game"], "connectfour", "{config}");
        assert!(
            v.get("mapfile").is_none(),
            "{config}: Connect Four has no maps"
        );
        let players = v["players"].as_object().unwrap();
        assert_eq!(players.len(), 2, "{config}");
        for command in players.values() {
            let script = command.as_str().unwrap().strip_prefix("python3 ").unwrap();
            // The local kit carries the house bots under bots/ (server/src/downloads.rs).
            let path = match script.strip_prefix("bots/") {
                Some(rest) => game_dir().join("bots/house").join(rest),
                None => root.join(script),
            };
            assert!(path.is_file(), "{config}: {script}");
        }
    }
}
