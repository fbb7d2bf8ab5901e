//! The compact replay (v2) tells the same game as v1, board for board: on every shipped
//! map and generated ones, in games that end by elimination and by the turn limit; read
//! turn by turn, from any keyframe, and cut after any row; and it is much smaller.

use bottlebats::map::Map;
use bottlebats::replay::{Events, Replay, Turn};
use bottlebats::replay_v2::{decode, encode, CompactReplay, Follower, Reader, KEYFRAME_EVERY};
use bottlebats::scripted::{recorded, Style};

/// Every shipped map (`maps/`), and generated maps of 2 to 8 players.
fn maps() -> Vec<(String, Map)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../maps/bottlebats");
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
        let map = bottlebats::generate::generate(&bottlebats::generate::GenerateOptions {
            players,
            seed: 11 + players as u64,
            forts: None,
        })
        .unwrap();
        out.push((format!("generated-{players}p"), map));
    }
    out
}

fn shipped(file: &str) -> Map {
    maps().into_iter().find(|(n, _)| n == file).unwrap().1
}

fn classic(replay: &Replay) -> Vec<u8> {
    let mut log = Vec::new();
    replay.write_classic_log(&mut log).unwrap();
    log
}

/// The v2 replay of `v1`, through its JSON as it is stored and served, tells the same
/// game: every board and every event, the classic log byte for byte, any turn by
/// seeking; and the rules derive every turn (keyframes only where they are due).
fn tells_the_same_game(name: &str, v1: &Replay) {
    let v2 = encode(v1);
    let v2: CompactReplay = serde_json::from_str(&v2.to_json()).unwrap();
    for (t, row) in v2.turns.iter().enumerate() {
        assert_eq!(
            row.k.is_some(),
            t % KEYFRAME_EVERY == 0,
            "{name}: turn {t} is derived by the rules"
        );
    }
    let back = decode(&v2).unwrap();
    for (t, (a, b)) in v1.turns.iter().zip(&back.turns).enumerate() {
        assert_eq!(a, b, "{name}: turn {t}");
    }
    assert_eq!(&back, v1, "{name}");
    assert_eq!(classic(&back), classic(v1), "{name}: the classic log");
    // Written a board at a time from either version's JSON, the same bytes.
    for json in [v2.to_json(), v1.to_json()] {
        let mut streamed = Vec::new();
        bottlebats::replay_v2::write_classic_log(&json, &mut streamed).unwrap();
        assert!(streamed == classic(v1), "{name}: the classic log, streamed");
    }
    let reader = Reader::new(&v2);
    let n = v1.turns.len();
    for t in [
        0,
        1,
        n / 3,
        KEYFRAME_EVERY - 1,
        KEYFRAME_EVERY,
        n - 2,
        n - 1,
    ] {
        if t < n {
            assert_eq!(
                reader.at(t).unwrap(),
                v1.turns[t],
                "{name}: turn {t} by seeking"
            );
        }
    }
}

#[test]
fn the_compact_replay_rebuilds_every_board_of_every_game() {
    let mut games = 0;
    let (mut by_elimination, mut by_limit) = (0, 0);
    for (name, map) in maps() {
        let mut played = vec![
            (
                format!("{name}, greedy"),
                recorded(map.clone(), Style::Greedy, 500),
            ),
            (
                format!("{name}, troubled"),
                recorded(map.clone(), Style::Troubled(4), 200),
            ),
        ];
        for (seed, steps) in [(1, 500), (2, 120), (3, 40)] {
            played.push((
                format!("{name}, random {seed}"),
                recorded(map.clone(), Style::Random(seed), steps),
            ));
        }
        for (game, v1) in played {
            tells_the_same_game(&game, &v1);
            games += 1;
            if v1.turns.len() - 1 < v1.max_steps as usize {
                by_elimination += 1;
            } else {
                by_limit += 1;
            }
        }
    }
    assert!(games >= 70, "{games} games");
    assert!(
        by_elimination >= 5 && by_limit >= 20,
        "{by_elimination} by elimination, {by_limit} by the limit"
    );
}

/// The troubled games carry what the rules cannot give: warnings, timeouts, a limit,
/// a removal for a bad reply, and times; they come back at their turn.
#[test]
fn what_the_rules_do_not_give_is_kept_at_its_turn() {
    let map = shipped("triad-3p.map");
    let v1 = recorded(map, Style::Troubled(4), 200);
    let back = decode(&encode(&v1)).unwrap();
    let ev = |t: usize| &back.turns[t].events;
    assert_eq!(ev(5).warnings.len(), 1, "{:?}", ev(5));
    assert_eq!(ev(8).timeouts, vec![2]);
    assert_eq!(ev(12).limits.len(), 1);
    assert_eq!(
        ev(30).removed,
        vec![(2, "the reply's header is not `N commands:`".into())]
    );
    assert_eq!(ev(31).ms, vec![Some(217 % 23), Some(218 % 23), None]);
}

/// A replay cut after any row (a game still being played) reads as the turns so far:
/// every board, and the events of every turn but the newest, not played yet.
#[test]
fn a_replay_cut_after_any_turn_reads_as_the_turns_so_far() {
    let map = shipped("triad-3p.map");
    let v1 = recorded(map, Style::Troubled(5), 200);
    let v2 = encode(&v1);
    assert!(v2.turns.len() > 60, "{} turns", v2.turns.len());
    for cut in 1..=v2.turns.len() {
        let mut part = v2.clone();
        part.turns.truncate(cut);
        part.result = None;
        let part: CompactReplay = serde_json::from_str(&part.to_json()).unwrap();
        let back = decode(&part).unwrap();
        assert_eq!(
            back.turns[..cut - 1],
            v1.turns[..cut - 1],
            "cut after {cut} rows"
        );
        let newest = &v1.turns[cut - 1];
        assert_eq!(
            back.turns[cut - 1],
            Turn {
                events: Events::default(),
                ..newest.clone()
            },
            "the newest board of {cut} rows"
        );
    }
    // Row by row, as a live viewer follows them.
    let mut follower = Follower::new(&v2.map, &v2.players);
    for (t, row) in v2.turns.iter().enumerate() {
        let (board, _) = follower.push(row).unwrap();
        assert_eq!(board.marches, v1.turns[t].marches, "turn {t}, followed");
    }
}
