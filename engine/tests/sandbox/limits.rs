//! The sandbox's limits on processes, memory and the scratch: each holds and harms no
//! one else. A bot going over the process or memory limit is charged with it; one
//! filling its scratch only sees its writes fail, and plays on.

use std::time::Duration;

use engine::sandbox::Limits;
use engine::MatchConfig;

use crate::arena::arena;
use crate::play::{config, game_limits, play};
use crate::{HOSTILE, MIB};

#[test]
fn a_fork_bomb_hits_the_process_limit_and_harms_no_one_else() {
    let arena = arena("fork_bomb");
    let g = play(&arena, "greedy", "fork_bomb", game_limits(), &config(10));
    let h = g.hostile();
    let reason = "hit its limit of 64 processes";
    assert_eq!(h.incidents, [reason], "stderr: {}", g.stderr(HOSTILE));
    assert_eq!(g.limit_events(), [reason], "reported once, in the replay");
    // The other bot's three processes (bwrap, its init, the bot), and the bomb up to
    // its limit (its bwrap counts too), never beyond.
    assert!(g.tasks.iter().all(|&n| n <= 3 + 64), "{:?}", g.tasks);
}

#[test]
fn allocating_2_gib_is_stopped_by_the_memory_limit() {
    let arena = arena("memory");
    let limits = Limits {
        memory: 256 * MIB,
        ..game_limits()
    };
    // Touching 256 MiB before the kill takes CPU time: a second for the turn.
    let config = MatchConfig {
        turn_timeout: Duration::from_millis(1000),
        ..config(10)
    };
    let g = play(&arena, "idle", "memory", limits, &config);
    assert_eq!(g.removed_at(), Some(1), "removed in the turn it allocated");
    assert_eq!(g.hostile().timeouts, 0);
    let reason = "killed for going over its memory limit of 256 MiB";
    assert!(
        g.error().contains(reason),
        "error `{}` should mention the memory limit",
        g.error()
    );
    assert!(g.error().contains("its output ended"), "{}", g.error());
    assert!(g.hostile().incidents.iter().any(|i| i == reason));
    assert!(
        g.limit_events().iter().any(|i| i == reason),
        "limits events: {:?}",
        g.limit_events()
    );
    assert!(!g.stderr(HOSTILE).contains("allocated"));
}

#[test]
fn filling_the_scratch_fails_with_enospc_and_the_bot_plays_on() {
    let arena = arena("fill_scratch");
    // Filling 64 MiB of tmpfs takes about 0.2 s of CPU time.
    let config = MatchConfig {
        turn_timeout: Duration::from_millis(800),
        ..config(10)
    };
    let g = play(&arena, "greedy", "fill_scratch", game_limits(), &config);
    g.assert_hostile_not_charged(10);
    let said = g.stderr(HOSTILE);
    for folder in ["/tmp", "/dev/shm"] {
        let line = said
            .lines()
            .find(|l| l.starts_with(&format!("{folder} full after")))
            .unwrap_or_else(|| panic!("{folder} never filled: {said}"));
        assert!(line.ends_with(": ENOSPC"), "{line}");
        let mib: u64 = line.split_whitespace().nth(3).unwrap().parse().unwrap();
        assert!((56..=64).contains(&mib), "{line}: it holds 64 MiB");
    }
}
