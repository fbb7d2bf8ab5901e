//! The JSON replay and the classic log: they tell the same game as the engine played,
//! survive a round trip, refuse other formats, and stay compact.

use std::io::Write;
use std::sync::Arc;

use bottlebats::game::Game;
use bottlebats::map::Map;
use bottlebats::replay::{Events, Replay};
use bottlebats::scripted::play_random_game;

fn duel() -> Map {
    bottlebats::generate::generate(&bottlebats::generate::GenerateOptions {
        players: 2,
        seed: 1,
        forts: Some(24),
    })
    .unwrap()
}

/// Plays a random game, recording the replay and the live classic log side by side.
fn recorded(map: Map, seed: u64, max_steps: u32) -> (Replay, String) {
    let names: Vec<String> = (1..=map.seats.len()).map(|i| format!("p{i}")).collect();
    let mut game = Game::new(Arc::new(map), &names, max_steps).unwrap();
    let mut replay = Replay::start(&game);
    let mut live = String::new();
    let snap = |g: &Game, live: &mut String| {
        live.push_str(&format!("# STEP: {}\n", g.turn()));
        g.snapshot().write(None, live);
        live.push('\n');
    };
    snap(&game, &mut live);
    play_random_game(&mut game, seed, |g, ev| {
        replay.push(Events::of(ev), g);
        snap(g, &mut live);
    });
    replay.finish(&game, &game.outcome());
    (replay, live)
}

#[test]
fn the_classic_log_printed_from_a_replay_matches_the_live_game() {
    for seed in 0..5 {
        let (replay, live) = recorded(duel(), seed, 300);
        let mut log = Vec::new();
        replay.write_classic_log(&mut log).unwrap();
        assert_eq!(String::from_utf8(log).unwrap(), live, "seed {seed}");
    }
}

#[test]
fn a_replay_survives_a_json_round_trip() {
    let (mut replay, _) = recorded(duel(), 3, 200);
    let back = Replay::from_json(&replay.to_json()).unwrap();
    // v1's JSON does not carry the marches sent: its boards show them.
    for t in &mut replay.turns {
        t.events.sends.clear();
    }
    assert_eq!(back, replay);
    let result = back.result.unwrap();
    assert_eq!(result.turns as usize + 1, back.turns.len());
    assert!(
        back.turns.iter().any(|t| !t.events.battles.is_empty()),
        "a random game has battles"
    );
    assert!(back.turns.iter().any(|t| !t.events.captures.is_empty()));
}

#[test]
fn other_formats_and_versions_are_refused_with_a_reason() {
    let (replay, _) = recorded(duel(), 3, 5);
    let json = replay.to_json();
    let cases = [
        (
            json.replace("\"version\":1", "\"version\":99"),
            "version 99",
        ),
        (
            json.replace("bottlebats-replay", "something-else"),
            "unsupported replay format",
        ),
        ("{\"turns\": []}".to_string(), "not a replay"),
    ];
    for (text, why) in cases {
        let err = Replay::from_json(&text).unwrap_err();
        assert!(err.contains(why), "`{err}` should mention `{why}`");
    }
}

#[test]
fn a_busy_500_turn_duel_replay_is_under_50_kb_gzipped() {
    let (replay, _) = (0..50)
        .map(|seed| recorded(duel(), seed, 500))
        .find(|(r, _)| r.result.as_ref().unwrap().turns == 500)
        .expect("some random game lasts 500 turns");
    let json = replay.to_json();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(json.as_bytes()).unwrap();
    let size = gz.finish().unwrap().len();
    assert!(size < 50_000, "{size} bytes gzipped");
}
