//! Connect Four played by the runner with real processes (games/connectfour/rules.md
//! §6, §8, §9): the runner plays it through the game interface only (`run_game`), one
//! player at a time, one line a reply, and a forfeit removes the player. Fixture bots
//! are modes of `tests/bots/connectfour.py`.

use std::path::PathBuf;
use std::time::Duration;

use connectfour::plugin::{self, ConnectFourMatch};
use connectfour::{End, EMPTY_BOARD};
use engine::process::{BotSpec, LocalLauncher};
use engine::{run_game, GameResult, MatchConfig};
use game_interface::problems::Kind;

const NAMES: [&str; 2] = ["ann", "ben"];

/// A fresh working directory for one test.
fn workdir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("connectfour-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Players 1 and 2 played by the fixture in `modes`.
fn play(test: &str, modes: [&str; 2]) -> GameResult {
    let dir = workdir(test);
    let bot = format!(
        "/usr/bin/python3 {}/tests/bots/connectfour.py",
        env!("CARGO_MANIFEST_DIR")
    );
    let specs: Vec<BotSpec> = (NAMES.iter().zip(modes))
        .map(|(name, mode)| BotSpec {
            name: name.to_string(),
            command: format!("{bot} {mode}"),
            dir: dir.clone(),
        })
        .collect();
    let names: Vec<String> = NAMES.map(String::from).to_vec();
    let kind = plugin::kind();
    let m = kind.setup(EMPTY_BOARD, &names, 42).unwrap();
    let config = MatchConfig {
        turn_timeout: Duration::from_millis(1000),
        startup_timeout: Duration::from_millis(5000),
        ..MatchConfig::default()
    };
    run_game(
        m,
        kind.framing(),
        &specs,
        &LocalLauncher,
        &config,
        &mut |_| true,
    )
    .unwrap()
}

fn end(r: &GameResult) -> End {
    let m = r.game.as_any().downcast_ref::<ConnectFourMatch>().unwrap();
    m.game().end().cloned().expect("the game is over")
}

fn stderr(r: &GameResult, seat: usize) -> String {
    (r.players[seat].stderr.iter())
        .map(|(_, b)| String::from_utf8_lossy(b).into_owned())
        .collect()
}

/// The stored replay, which must give back the rows the match gave live.
fn check_replay(r: &GameResult) -> serde_json::Value {
    let json = r.game.replay_json();
    let stream = plugin::kind().stored_stream(&json).unwrap();
    assert_eq!(stream.rows, r.game.rows_since(0));
    serde_json::from_str(&json).unwrap()
}

#[test]
fn two_centre_bots_play_to_a_win() {
    let r = play("centre", ["centre", "centre"]);
    assert!(r.game.is_over());
    // Both play the column nearest the centre: a game that ends with four in a row.
    let e = end(&r);
    assert!(matches!(e, End::Four { .. }), "{e:?}");
    let winner = r.game.outcome().winner().unwrap();
    assert_eq!(r.players[winner].rank, 1);
    assert_eq!(r.players[1 - winner].rank, 2);
    for (seat, p) in r.players.iter().enumerate() {
        assert_eq!(p.name, NAMES[seat]);
        assert!(p.error.is_none(), "{}: {:?}", p.name, p.error);
        assert_eq!((p.timeouts, p.warnings), (0, 0), "{}", p.name);
        assert_eq!(p.stat("forfeits"), Some(0));
        assert!(r.game.problems(seat).is_empty());
    }
    let discs: i64 = (0..2).map(|s| r.players[s].stat("discs").unwrap()).sum();
    assert_eq!(discs, i64::from(r.game.turn()));
    let v = check_replay(&r);
    assert_eq!(v["moves"].as_str().unwrap().len() as u32, r.game.turn());
    assert!(v.get("forfeit").is_none());
    // Each bot read which player it is, at every one of its moves.
    assert!(
        stderr(&r, 0).contains("turn 0, I am player 1"),
        "{}",
        stderr(&r, 0)
    );
    assert!(
        stderr(&r, 1).contains("turn 1, I am player 2"),
        "{}",
        stderr(&r, 1)
    );
}

#[test]
fn a_bot_answering_a_full_column_forfeits() {
    // Both play column 0: ann's 4th answer is the 7th move, into a full column.
    let r = play("full", ["column 0", "column 0"]);
    assert_eq!(r.game.turn(), 7);
    let reason = "column 0 is full";
    assert_eq!(
        end(&r),
        End::Forfeit {
            seat: 0,
            reason: reason.into()
        }
    );
    assert_eq!((r.players[0].rank, r.players[1].rank), (2, 1));
    assert_eq!(r.players[0].stat("forfeits"), Some(1));
    assert_eq!(r.players[0].stat("discs"), Some(3));
    assert!(r.players[0].error.is_none(), "the runner saw no crash");
    let problems = r.game.problems(0);
    assert_eq!(problems.len(), 1);
    assert_eq!(problems[0].kind, Kind::Removed);
    assert_eq!(problems[0].text, "column 0 is full: forfeits the game");
    assert_eq!(problems[0].first_turn, 6);
    assert_eq!(check_replay(&r)["forfeit"]["reason"], reason);
}

#[test]
fn a_garbage_bot_forfeits_its_first_move() {
    let r = play("garbage", ["centre", "garbage"]);
    assert_eq!(r.game.turn(), 2, "ann's disc, ben's forfeit");
    assert_eq!(r.game.outcome().ranks, [1, 2]);
    assert_eq!(
        r.game.problems(1)[0].text,
        "`x` is not a column (0 to 6): forfeits the game"
    );
}

#[test]
fn a_slow_bot_forfeits() {
    // ben's 2nd answer, move 4, comes 1.5 s later, past the 1 s limit.
    let r = play("slow", ["centre", "slow_at 2"]);
    assert_eq!(r.game.turn(), 4);
    assert_eq!(r.players[1].timeouts, 1);
    assert_eq!(r.game.outcome().ranks, [1, 2]);
    let kinds: Vec<Kind> = r.game.problems(1).iter().map(|p| p.kind).collect();
    assert_eq!(kinds, [Kind::Timeout, Kind::Removed]);
    let v = check_replay(&r);
    assert_eq!(v["forfeit"]["timeout"], true);
    assert_eq!(
        v["forfeit"]["reason"],
        "no reply within the move's time limit"
    );
}

#[test]
fn a_crashing_bot_forfeits() {
    // ann exits instead of its 3rd answer, move 5.
    let r = play("crash", ["crash_at 3", "centre"]);
    assert_eq!(r.game.turn(), 5);
    let error = r.players[0].error.clone().unwrap_or_default();
    assert!(error.contains("exited with status 3"), "{error}");
    assert_eq!(r.game.outcome().ranks, [2, 1]);
    let problems = r.game.problems(0);
    assert_eq!(problems.len(), 1);
    assert!(
        problems[0].text.starts_with("crashed: ")
            && problems[0].text.ends_with(": forfeits the game"),
        "{}",
        problems[0].text
    );
}
