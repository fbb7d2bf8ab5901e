//! A bot abusing its pipes: closing stdout or stdin removes it at once, a line without
//! end on stdout is a fast fatal error, and a flood on stderr is drained, capped and
//! counted without charge.

use std::time::Duration;

use crate::arena::arena;
use crate::play::{config, game_limits, play};
use crate::MIB;

#[test]
fn a_bot_closing_its_stdout_is_removed_at_once() {
    let arena = arena("close_stdout");
    let g = play(&arena, "idle", "close_stdout", game_limits(), &config(10));
    assert_eq!(g.removed_at(), Some(1));
    assert!(
        g.error()
            .contains("its output ended while the bot kept running"),
        "{}",
        g.error()
    );
    // Seen at once: bwrap, between the runner and the bot, does not hold its pipes.
    assert_eq!(g.hostile().timeouts, 0);
    assert!(g.wall < Duration::from_secs(2), "{:?}", g.wall);
}

#[test]
fn a_bot_closing_its_stdin_is_removed_at_once() {
    let arena = arena("close_stdin");
    let g = play(&arena, "idle", "close_stdin", game_limits(), &config(10));
    assert_eq!(g.removed_at(), Some(2), "seen when the next state is sent");
    assert!(g.error().contains("it closed its input"), "{}", g.error());
    assert_eq!(g.hostile().timeouts, 0);
    assert!(g.wall < Duration::from_secs(2), "{:?}", g.wall);
}

#[test]
fn a_gigabyte_on_stdout_without_newlines_is_a_fast_fatal_error() {
    let arena = arena("stdout_flood");
    let g = play(&arena, "idle", "stdout_flood", game_limits(), &config(10));
    assert_eq!(g.removed_at(), Some(1));
    assert!(
        g.error().contains("wrote a line longer than 65536 bytes"),
        "{}",
        g.error()
    );
    assert_eq!(g.hostile().timeouts, 0);
    assert!(g.wall < Duration::from_secs(2), "{:?}", g.wall);
}

#[test]
fn a_gigabyte_on_stderr_is_drained_capped_and_counted() {
    let arena = arena("stderr_flood");
    let g = play(
        &arena,
        "idle",
        "stderr_flood 1024",
        game_limits(),
        &config(10),
    );
    g.assert_hostile_not_charged(10);
    let h = g.hostile();
    // It came before the first reply: 64 KiB are kept for that turn, and the tail
    // still in the pipe when the reply came (at most a pipe's 64 KiB) for the next.
    assert_eq!(h.stderr[0], (0, vec![b'e'; 64 * 1024]));
    assert!(
        h.stderr.len() <= 2,
        "{:?}",
        h.stderr.iter().map(|(t, b)| (t, b.len()))
    );
    let kept: u64 = h.stderr.iter().map(|(_, b)| b.len() as u64).sum();
    assert!(h.stderr.iter().all(|(_, b)| b.iter().all(|&c| c == b'e')));
    assert_eq!(
        kept + h.stderr_dropped,
        1024 * MIB,
        "every byte read and counted"
    );
    assert!(g.wall < Duration::from_secs(10), "took {:?}", g.wall);
}
