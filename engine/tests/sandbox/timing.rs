//! How a bot is timed: by CPU time where the sandbox measures it, with the wall clock
//! as a cap. A bot that computes or sleeps too long times out; one that sleeps within
//! the cap is not charged.

use std::time::Duration;

use engine::MatchConfig;

use crate::arena::arena;
use crate::play::{config, game_limits, play};
use crate::HOSTILE;

#[test]
fn a_busy_loop_times_out_on_cpu_time_long_before_the_wall_clock_cap() {
    let arena = arena("busy");
    // A wall-clock cap of 10 × 300 ms: a timeout well before 3 s was decided by CPU time.
    let config = MatchConfig {
        max_consecutive_timeouts: 3,
        wall_factor: 10,
        ..config(10)
    };
    let g = play(&arena, "idle", "busy", game_limits(), &config);
    let h = g.hostile();
    assert_eq!(h.timeouts, 3);
    assert_eq!(g.timeout_turns(), [1, 2]);
    assert!(g
        .error()
        .contains("unresponsive: no reply within 300 ms for 3 turns in a row"));
    assert_eq!(g.removed_at(), Some(3));
    assert!(h.cpu_measured);
    for turn in 1..=3 {
        assert!(
            g.turn_wall(turn) < Duration::from_millis(2000),
            "turn {turn} took {:?}: not stopped by CPU time",
            g.turn_wall(turn)
        );
    }
}

#[test]
fn a_bot_sleeping_forever_times_out_at_the_wall_clock_cap() {
    let arena = arena("sleep");
    let config = MatchConfig {
        turn_timeout: Duration::from_millis(200),
        max_consecutive_timeouts: 3,
        ..config(10)
    };
    let g = play(&arena, "idle", "sleep", game_limits(), &config);
    assert_eq!(g.hostile().timeouts, 3);
    assert!(g.error().contains("unresponsive"), "{}", g.error());
    assert_eq!(g.removed_at(), Some(3));
    for turn in 1..=3 {
        // Asleep, it uses no CPU: the cap of 3 × 200 ms stops each turn.
        let took = g.turn_wall(turn);
        assert!(
            took >= Duration::from_millis(600) && took < Duration::from_millis(1500),
            "turn {turn} took {took:?}"
        );
    }
}

#[test]
fn cpu_time_is_measured_and_sleeping_a_second_is_no_timeout() {
    let arena = arena("sleep_each_turn");
    let config = MatchConfig {
        turn_timeout: Duration::from_millis(500),
        ..config(3)
    };
    let g = play(&arena, "idle", "sleep_each_turn", game_limits(), &config);
    // Asleep 1 s a turn: under the 500 ms of CPU time, under the 1.5 s wall cap.
    g.assert_hostile_not_charged(3);
    let h = g.hostile();
    assert!(h.cpu_measured);
    for turn in 1..3 {
        assert!(g.turn_wall(turn) >= Duration::from_millis(1000));
        let ms = g.r.replay.turns[turn].events.ms.clone();
        assert_eq!(ms.len(), 2, "turn {turn}: ms {ms:?}");
        let used = ms[HOSTILE].unwrap();
        assert!(
            used < 200,
            "turn {turn}: {used} ms of CPU charged for sleeping"
        );
    }
    assert!(
        h.time_used < Duration::from_millis(1000),
        "{:?}",
        h.time_used
    );
}

#[test]
fn burning_a_second_of_cpu_is_a_timeout() {
    let arena = arena("burn_each_turn");
    // A wall-clock cap of 10 × 500 ms, so that a timeout well before 5 s was decided
    // by CPU time even on a loaded machine.
    let config = MatchConfig {
        turn_timeout: Duration::from_millis(500),
        wall_factor: 10,
        ..config(3)
    };
    let g = play(&arena, "idle", "burn_each_turn", game_limits(), &config);
    let h = g.hostile();
    assert!(h.cpu_measured);
    assert_eq!(h.error, None, "with `skip` a timeout is not fatal");
    assert!(g.timeout_turns().contains(&1), "{:?}", g.timeout_turns());
    assert_eq!(g.r.replay.turns[1].events.ms[HOSTILE], Some(500));
    // Stopped by CPU time, not by the wall-clock cap.
    assert!(
        g.turn_wall(1) < Duration::from_millis(3000),
        "{:?}",
        g.turn_wall(1)
    );
}
