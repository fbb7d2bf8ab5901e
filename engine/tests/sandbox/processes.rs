//! What a bot's processes can reach: a daemon does not outlive the game, signals reach
//! nothing outside the bot's own sandbox, and its environment holds nothing of the
//! runner's.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use engine::MatchConfig;

use crate::arena::arena;
use crate::play::{config, game_limits, plant_env_secrets, play};
use crate::HOSTILE;

#[test]
fn a_double_forked_daemon_does_not_outlive_the_game() {
    let arena = arena("daemon");
    let g = play(&arena, "idle", "daemon", game_limits(), &config(10));
    g.assert_hostile_not_charged(10);
    assert!(
        g.stderr(HOSTILE).contains("daemon "),
        "{}",
        g.stderr(HOSTILE)
    );
    // It ran all game (each bot has three processes: bwrap, its init, the bot), and
    // `play` checked that no process of the slot uids is left.
    assert!(g.tasks[2..].iter().all(|&n| n >= 7), "{:?}", g.tasks);
}

#[test]
fn signals_reach_nothing_outside_the_bots_own_sandbox() {
    let arena = arena("signals");
    let runner = std::process::id();
    let config = MatchConfig {
        turn_timeout: Duration::from_millis(600),
        ..config(10)
    };
    let g = play(
        &arena,
        "greedy",
        &format!("signals {runner}"),
        game_limits(),
        &config,
    );
    g.assert_hostile_not_charged(10);
    let said = g.stderr(HOSTILE);
    let delivered: Vec<String> = said
        .lines()
        .find_map(|l| l.strip_prefix("signals delivered to "))
        .map(|l| serde_json::from_str(l).unwrap())
        .unwrap_or_else(|| panic!("no report: {said}"));
    // Inside its PID namespace only its own sandbox's init (pid 1) can be named;
    // the kernel drops signals to it that it does not handle.
    assert!(
        delivered.iter().all(|p| p == "1"),
        "signals delivered to {delivered:?}"
    );
}

#[test]
fn the_environment_holds_only_path_home_and_lang() {
    plant_env_secrets();
    let arena = arena("env");
    let g = play(&arena, "idle", "env", game_limits(), &config(3));
    g.assert_hostile_not_charged(3);
    let said = g.stderr(HOSTILE);
    let env: BTreeMap<String, String> = said
        .lines()
        .find_map(|l| l.strip_prefix("environment "))
        .map(|l| serde_json::from_str(l).unwrap())
        .unwrap_or_else(|| panic!("no environment: {said}"));
    assert_eq!(env["PATH"], "/usr/local/bin:/usr/bin:/bin");
    assert_eq!(env["HOME"], "/tmp");
    assert_eq!(env["LANG"], "C.UTF-8");
    let extra: Vec<&String> = env
        .keys()
        .filter(|k| !["PATH", "HOME", "LANG", "PWD", "SHLVL", "_", "OLDPWD"].contains(&k.as_str()))
        .collect();
    assert!(
        extra.is_empty(),
        "unexpected variables {extra:?} in {env:?}"
    );
    if let Some(pwd) = env.get("PWD") {
        assert_eq!(Path::new(pwd), arena.hostile);
    }
}
