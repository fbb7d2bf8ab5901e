//! The compact replay (v2) tells the same game as v1, board for board: on every shipped
//! map and generated ones, in games that end by elimination and by the turn limit; read
//! turn by turn, from any keyframe, and cut after any row; and it is much smaller.

use std::sync::Arc;

use engine::game::Game;
use engine::map::Map;
use engine::replay::{Events, Replay};
use engine::replay_v2::{decode, encode, CompactReplay, Reader};
use engine::scripted::play_random_game;

fn recorded(map: Map, seed: u64, max_steps: u32) -> Replay {
    let names: Vec<String> = (1..=map.seats.len()).map(|i| format!("p{i}")).collect();
    let mut game = Game::new(Arc::new(map), &names, max_steps).unwrap();
    let mut replay = Replay::start(&game);
    play_random_game(&mut game, seed, |g, ev| replay.push(Events::of(ev), g));
    replay.finish(&game, &game.outcome());
    replay
}

/// Every shipped map (`maps/`), and generated maps of 2 to 8 players.
fn maps() -> Vec<(String, Map)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../maps");
    let mut out: Vec<(String, Map)> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "map"))
        .map(|e| {
            let text = std::fs::read_to_string(e.path()).unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                Map::parse(&text).unwrap(),
            )
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    for players in 2..=8 {
        let map = engine::generate::generate(&engine::generate::GenerateOptions {
            players,
            seed: 11 + players as u64,
            forts: None,
        })
        .unwrap();
        out.push((format!("generated-{players}p"), map));
    }
    out
}

fn classic(replay: &Replay) -> Vec<u8> {
    let mut log = Vec::new();
    replay.write_classic_log(&mut log).unwrap();
    log
}

#[test]
fn the_compact_replay_rebuilds_every_board_of_every_game() {
    let mut games = 0;
    let (mut by_elimination, mut by_limit) = (0, 0);
    for (name, map) in maps() {
        for (seed, steps) in [(1, 500), (2, 120), (3, 40)] {
            let v1 = recorded(map.clone(), seed, steps);
            let v2 = encode(&v1);
            // Through its JSON, as it is stored and served.
            let json = serde_json::to_string(&v2).unwrap();
            let v2: CompactReplay = serde_json::from_str(&json).unwrap();
            let back = decode(&v2).unwrap();
            for (t, (a, b)) in v1.turns.iter().zip(&back.turns).enumerate() {
                assert_eq!(a, b, "{name}, seed {seed}: turn {t}");
            }
            assert_eq!(back, v1, "{name}, seed {seed}");
            assert_eq!(
                classic(&back),
                classic(&v1),
                "{name}: the classic log, byte for byte"
            );
            // Any turn from the nearest keyframe.
            let reader = Reader::new(&v2);
            for t in [0, 1, v1.turns.len() / 3, v1.turns.len() - 1] {
                assert_eq!(
                    reader.at(t).unwrap(),
                    v1.turns[t],
                    "{name}: turn {t} by seeking"
                );
            }
            games += 1;
            if v1.turns.len() - 1 < steps as usize {
                by_elimination += 1;
            } else {
                by_limit += 1;
            }
        }
    }
    assert!(games >= 40, "{games} games");
    assert!(
        by_elimination > 0 && by_limit > 0,
        "{by_elimination} by elimination, {by_limit} by the limit"
    );
}

/// A replay cut after any row (a game still being played) reads as the turns so far.
#[test]
fn a_replay_cut_after_any_turn_reads_as_the_turns_so_far() {
    let (_, map) = maps()
        .into_iter()
        .find(|(n, _)| n == "duel-2p.map")
        .unwrap();
    let v1 = recorded(map, 5, 180);
    let v2 = encode(&v1);
    for cut in 1..=v2.turns.len() {
        let mut part = v2.clone();
        part.turns.truncate(cut);
        part.result = None;
        let json = serde_json::to_string(&part).unwrap();
        let back = decode(&serde_json::from_str(&json).unwrap()).unwrap();
        assert_eq!(back.turns[..], v1.turns[..cut], "cut after {cut} rows");
    }
}
