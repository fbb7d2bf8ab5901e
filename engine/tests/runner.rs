//! The runner with real processes (games/bottlebats/rules.md §7): every fatal error, warnings, both
//! timeout policies, late replies, stderr caps, bots that never read, and that no
//! process outlives its game. Fixture bots are modes of `tests/bots/fixture.py`.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bottlebats::map::Map;
use engine::process::{BotSpec, LocalLauncher};
#[path = "support/bottlebats.rs"]
mod bottlebats_match;
use bottlebats_match::{run_match, MatchResult};
use engine::{MatchConfig, OnTimeout};

/// Four forts in a line, p1 at one end and p2 at the other.
const MAP: &str = include_str!("line.map");

fn fixture() -> String {
    format!(
        "/usr/bin/python3 {}/tests/bots/fixture.py",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// A fresh working directory for one test.
fn workdir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("runner-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn config(max_turns: u32) -> MatchConfig {
    MatchConfig {
        max_turns,
        turn_timeout: Duration::from_millis(400),
        startup_timeout: Duration::from_millis(3000),
        ..MatchConfig::default()
    }
}

/// Plays `alice` (mode `a`) against `bob` (mode `b`).
fn play_with(test: &str, map: &str, a: &str, b: &str, config: &MatchConfig) -> MatchResult {
    let dir = workdir(test);
    let specs = [("alice", a), ("bob", b)].map(|(name, mode)| BotSpec {
        name: name.to_string(),
        command: format!("{} {mode}", fixture()),
        dir: dir.clone(),
    });
    let map = Arc::new(Map::parse(map).unwrap());
    run_match(map, &specs, &LocalLauncher, config, &mut |_| true).unwrap()
}

fn play(test: &str, a: &str, b: &str, config: &MatchConfig) -> MatchResult {
    play_with(test, MAP, a, b, config)
}

fn error_of(r: &MatchResult, player: usize) -> String {
    r.players[player].error.clone().unwrap_or_default()
}

/// The turn a player was removed in.
fn removed_at(r: &MatchResult, player: usize) -> Option<u32> {
    r.replay.result.as_ref().unwrap().removed[player]
}

fn alive(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => false,
        Ok(stat) => {
            let state = stat[stat.rfind(')').unwrap() + 2..].chars().next();
            state != Some('Z')
        }
    }
}

fn stderr_text(r: &MatchResult, player: usize) -> String {
    r.players[player]
        .stderr
        .iter()
        .map(|(_, b)| String::from_utf8_lossy(b).into_owned())
        .collect()
}

#[test]
fn a_full_game_between_two_bots_is_played_and_ranked() {
    let r = play("full", "greedy", "idle", &config(60));
    assert_eq!(r.replay.turns.len(), 61, "a 60-turn game has 61 snapshots");
    assert!(r
        .players
        .iter()
        .all(|p| p.error.is_none() && p.timeouts == 0));
    assert!(
        r.players[0].stat("forts").unwrap() >= 3,
        "greedy took the neutral forts"
    );
    assert_eq!(r.players[1].stat("forts"), Some(1));
    // Nobody was removed: a draw, both ranked first.
    assert_eq!(r.outcome.winner, None);
    assert_eq!([r.players[0].rank, r.players[1].rank], [1, 1]);
    // The replay keeps the marches sent, so the compact replay derives every turn
    // but the first from the rules, and reads back as the game.
    assert!(r.replay.turns.iter().any(|t| !t.events.sends.is_empty()));
    let compact = bottlebats::replay_v2::encode(&r.replay);
    let keyframes = compact.turns.iter().filter(|row| row.k.is_some()).count();
    assert_eq!(keyframes, 1, "only the first board is written whole");
    let back = bottlebats::replay_v2::decode(&compact).unwrap();
    assert_eq!(back.turns, r.replay.turns);
}

#[test]
fn each_fatal_protocol_error_removes_the_bot_with_a_clear_reason() {
    let cases = [
        ("bad_header", "invalid reply header `hello there friend`"),
        ("bad_count", "invalid reply header `many commands:`"),
        (
            "short_then_exit",
            "output ended after 1 of the 3 command lines",
        ),
        ("exit_at_start", "the bot exited with status 3"),
        (
            "close_stdout",
            "its output ended while the bot kept running",
        ),
        ("long_line", "wrote a line longer than 65536 bytes"),
        (
            "too_many_lines",
            "promised 100001 command lines; at most 100000",
        ),
    ];
    for (mode, reason) in cases {
        let r = play(mode, "idle", mode, &config(20));
        assert!(
            error_of(&r, 1).contains(reason),
            "{mode}: error was `{}`, expected it to mention `{reason}`",
            error_of(&r, 1)
        );
        assert_eq!(
            removed_at(&r, 1),
            Some(0),
            "{mode}: removed in the first turn"
        );
        assert_eq!(
            r.outcome.winner.map(|s| s.0),
            Some(0),
            "{mode}: the other bot wins"
        );
        assert!(
            r.players[0].error.is_none(),
            "{mode}: the other bot is unaffected"
        );
    }
}

#[test]
fn a_bot_that_closes_its_input_is_removed() {
    let r = play("close_stdin", "idle", "close_stdin", &config(20));
    assert!(
        error_of(&r, 1).contains("it closed its input"),
        "{}",
        error_of(&r, 1)
    );
    assert!(removed_at(&r, 1).unwrap() <= 2);
}

#[test]
fn a_reply_with_fewer_lines_than_promised_times_out() {
    let r = play("short_then_wait", "idle", "short_then_wait", &config(3));
    assert_eq!(r.players[1].timeouts, 3);
    assert!(r.players[1].error.is_none());
}

#[test]
fn invalid_commands_are_warnings_reported_once() {
    let r = play("warnings", "idle", "warnings", &config(5));
    assert!(r.players[1].error.is_none());
    assert_eq!(
        r.players[1].warnings, 25,
        "five bad lines a turn for five turns"
    );
    let texts: Vec<&String> = r
        .replay
        .turns
        .iter()
        .flat_map(|t| t.events.warnings.iter().filter(|w| w.0 == 1).map(|w| &w.1))
        .collect();
    assert_eq!(texts.len(), 5, "each distinct warning once: {texts:?}");
    assert!(texts
        .iter()
        .all(|t| r.replay.turns[0].events.warnings.iter().any(|w| &&w.1 == t)));
}

#[test]
fn with_skip_a_slow_reply_is_dropped_and_later_replies_stay_in_step() {
    let r = play("skip", "idle", "marked 1 4", &config(9));
    let bob = &r.players[1];
    assert!(bob.error.is_none(), "{:?}", bob.error);
    assert!(bob.timeouts >= 2, "turns 1 and 4 time out");
    assert_eq!(
        bob.late_replies, bob.timeouts,
        "every late reply is read and dropped"
    );
    for (turn, t) in r.replay.turns.iter().enumerate() {
        let timed_out = t.events.timeouts.contains(&1);
        let marks: Vec<&String> = t
            .events
            .warnings
            .iter()
            .filter(|w| w.0 == 1)
            .map(|w| &w.1)
            .collect();
        if timed_out {
            assert!(
                marks.is_empty(),
                "turn {turn} timed out yet has commands {marks:?}"
            );
        } else if turn < 9 {
            // The reply used in turn k is the one that answered state k.
            assert_eq!(marks.len(), 1, "turn {turn}: {marks:?}");
            assert!(
                marks[0].contains(&format!("`turn{turn} x 1`")),
                "turn {turn}: {marks:?}"
            );
        }
    }
    assert!(r.replay.turns[1].events.timeouts.contains(&1));
    assert!(r.replay.turns[4].events.timeouts.contains(&1));
}

#[test]
fn with_eliminate_a_timeout_removes_the_bot() {
    let config = MatchConfig {
        on_timeout: OnTimeout::Eliminate,
        ..config(9)
    };
    let r = play("eliminate", "idle", "marked 1", &config);
    assert_eq!(removed_at(&r, 1), Some(1));
    assert!(error_of(&r, 1).contains("timed out: no reply within 400 ms"));
}

#[test]
fn a_bot_that_never_answers_is_removed_after_repeated_timeouts() {
    let config = MatchConfig {
        turn_timeout: Duration::from_millis(100),
        startup_timeout: Duration::from_millis(100),
        max_consecutive_timeouts: 4,
        ..config(50)
    };
    let started = Instant::now();
    let r = play("sleep_forever", "idle", "sleep_forever", &config);
    assert_eq!(r.players[1].timeouts, 4);
    assert!(error_of(&r, 1).contains("unresponsive"));
    assert_eq!(removed_at(&r, 1), Some(3));
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[test]
fn stderr_is_drained_continuously_and_capped() {
    let r = play("stderr", "idle", "stderr_flood", &config(20));
    let bob = &r.players[1];
    assert!(
        bob.error.is_none() && bob.timeouts == 0,
        "a chatty bot is not slowed down"
    );
    assert!(bob.stderr.iter().all(|(_, b)| b.len() <= 64 * 1024));
    let kept: usize = bob.stderr.iter().map(|(_, b)| b.len()).sum();
    assert_eq!(kept, 1024 * 1024, "at most 1 MiB a game is kept");
    assert_eq!(kept as u64 + bob.stderr_dropped, 20 * 200_001);
}

#[test]
fn a_bot_that_never_reads_cannot_block_the_runner() {
    // A long chain of forts owned by bob makes every state large, so the pipe fills.
    let n = 300;
    let mut map = format!("{n} forts:\na0 0 0 p1 5\n");
    for i in 1..n {
        map.push_str(&format!("a{i} {} 0 p2 1\n", i * 2));
    }
    map.push_str(&format!("{} roads:\n", n - 1));
    for i in 1..n {
        map.push_str(&format!("a{} a{i}\n", i - 1));
    }
    map.push_str("0 marches:\n");
    let r = play_with("never_reads", &map, "idle", "never_reads 1000", &config(40));
    assert_eq!(r.replay.result.as_ref().unwrap().turns, 40);
    assert!(r.players[1].error.is_none());
}

#[test]
fn replies_are_gathered_from_all_bots_concurrently() {
    // alice answers only after bob has received the same turn's state.
    let r = play("concurrent", "wait_for_peer", "signal_peer", &config(10));
    assert_eq!(r.players[0].timeouts, 0);
    assert_eq!(
        r.players[0].warnings, 0,
        "alice never had to give up waiting"
    );
}

#[test]
fn lines_beyond_the_promised_count_start_the_next_reply() {
    let r = play("two_replies", "idle", "two_replies_at_once", &config(5));
    // `1 commands:` is read as the next reply's header; its one line is turn1's first
    // line, and the rest makes an invalid header.
    assert!(
        error_of(&r, 1).contains("invalid reply header"),
        "{}",
        error_of(&r, 1)
    );
}

#[test]
fn a_question_mark_reply_reads_until_end() {
    let r = play("until_end", "idle", "until_end", &config(5));
    assert!(r.players[1].error.is_none(), "{:?}", r.players[1].error);
    assert_eq!(r.players[1].timeouts, 0);
}

#[test]
fn children_left_running_are_killed_at_the_end() {
    for mode in ["child_left", "daemon"] {
        let r = play(mode, "idle", mode, &config(5));
        let said = stderr_text(&r, 1);
        let pid: i32 = said
            .split_whitespace()
            .nth(1)
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("{mode}: no pid in stderr `{said}`"));
        assert!(!alive(pid), "{mode}: process {pid} outlived the game");
    }
}

#[test]
fn a_command_behind_sh_c_is_ended_with_its_whole_tree() {
    let dir = workdir("sh_c");
    let specs = [
        BotSpec {
            name: "alice".into(),
            command: format!("sleep 313 & {} idle", fixture()),
            dir: dir.clone(),
        },
        BotSpec {
            name: "bob".into(),
            command: format!("{} idle", fixture()),
            dir,
        },
    ];
    let map = Arc::new(Map::parse(MAP).unwrap());
    run_match(map, &specs, &LocalLauncher, &config(3), &mut |_| true).unwrap();
    let left: Vec<i32> = engine::process::all_processes()
        .into_iter()
        .filter(|p| {
            std::fs::read(format!("/proc/{}/cmdline", p.pid))
                .is_ok_and(|c| c == b"sleep\x00313\x00")
                && p.state != b'Z'
        })
        .map(|p| p.pid)
        .collect();
    assert!(left.is_empty(), "left running: {left:?}");
}

#[test]
fn a_flood_of_distinct_bad_lines_keeps_a_hundred_texts_and_counts_the_rest() {
    let r = play("flood", "idle", "flood", &config(30));
    let bob = &r.players[1];
    assert!(bob.error.is_none(), "{:?}", bob.error);
    assert_eq!(bob.warnings, 700 * 30, "every bad line counts");
    let kept: usize = r
        .replay
        .turns
        .iter()
        .map(|t| t.events.warnings.iter().filter(|w| w.0 == 1).count())
        .sum();
    assert_eq!(
        kept,
        bottlebats::game::MAX_REPORTED,
        "the first hundred texts"
    );
    let found = bottlebats::problems::counted(&r.replay, 1, &bob.warning_counts, bob.warnings);
    assert_eq!(found.len(), bottlebats::game::MAX_REPORTED + 1, "{found:?}");
    let rest = found
        .iter()
        .find(|p| p.text.contains("more invalid"))
        .unwrap();
    assert_eq!(rest.count, 700 * 30 - 100);
    assert!(
        rest.text.starts_with("20900 more invalid commands"),
        "{}",
        rest.text
    );
    assert!(
        r.replay.to_json().len() < 200_000,
        "the replay stays small: {} bytes",
        r.replay.to_json().len()
    );
}

#[test]
fn a_bot_that_sleeps_through_its_turns_runs_out_of_time_for_the_game() {
    let config = MatchConfig {
        game_wall_budget: Some(Duration::from_millis(1000)),
        ..config(40)
    };
    let r = play("sleepy", "idle", "sleepy", &config);
    let bob = &r.players[1];
    let error = error_of(&r, 1);
    assert!(error.contains("out of time for the game"), "{error}");
    assert_eq!(bob.timeouts, 0, "each reply was in time");
    assert!(r.players[0].error.is_none());
    let turns = r.replay.result.as_ref().unwrap().turns;
    assert!(
        (3..=6).contains(&turns),
        "removed after about 1 s of sleeps: turn {turns}"
    );
}

/// A bot that raises an exception is removed with the exception and its line first,
/// then how it ended: the cause is the headline (the replay's reason, the match page,
/// the error board and `play` all show this text); a signal is said in words.
#[test]
fn a_crash_is_told_by_its_exception_and_line_first() {
    let r = play("raise", "idle", "raise_at_3", &config(20));
    let error = error_of(&r, 1);
    assert!(
        error.starts_with("IndexError: list index out of range, at fixture.py line "),
        "{error}"
    );
    assert!(
        error.ends_with("(its output ended: the bot exited with status 1)"),
        "{error}"
    );
    assert_eq!(removed_at(&r, 1), Some(3));
    let r = play("segfault", "idle", "segfault_at_2", &config(20));
    assert_eq!(
        error_of(&r, 1),
        "its output ended: the bot was killed: segmentation fault (signal 11)"
    );
}
