//! The compact replay (v2) tells the same game as v1, board for board: on every shipped
//! map and generated ones, in games that end by elimination and by the turn limit; read
//! turn by turn, from any keyframe, and cut after any row; and it is much smaller.

use std::sync::Arc;

use engine::game::{Game, Orders};
use engine::map::{Map, Seat};
use engine::replay::{Events, Replay, Turn};
use engine::replay_v2::{decode, encode, CompactReplay, Follower, Reader, KEYFRAME_EVERY};
use engine::scripted::{play_random_game, GreedyPlayer, RandomPlayer};

fn recorded(map: Map, seed: u64, max_steps: u32) -> Replay {
    let names: Vec<String> = (1..=map.seats.len()).map(|i| format!("p{i}")).collect();
    let mut game = Game::new(Arc::new(map), &names, max_steps).unwrap();
    let mut replay = Replay::start(&game);
    play_random_game(&mut game, seed, |g, ev| replay.push(Events::of(ev), g));
    replay.finish(&game, &game.outcome());
    replay
}

/// A game where the last seat's bot misbehaves as the runner sees bots do: from turn 5
/// it writes bad lines (warnings), it times out in turns 8 and 9, and a fatal reply
/// removes it in turn 30; everyone's reply times are recorded, as the runner does.
fn troubled(map: Map, seed: u64) -> Replay {
    let names: Vec<String> = (1..=map.seats.len()).map(|i| format!("p{i}")).collect();
    let last = names.len() - 1;
    let mut game = Game::new(Arc::new(map), &names, 200).unwrap();
    let mut players: Vec<RandomPlayer> = (0..names.len())
        .map(|s| RandomPlayer::new(game.map(), Seat(s), seed))
        .collect();
    let mut replay = Replay::start(&game);
    while !game.is_over() {
        let t = game.turn();
        let mut orders: Vec<Orders> = players.iter_mut().map(|p| p.orders(&game)).collect();
        match t {
            5..=7 => orders[last] = Orders::Commands(vec![format!("nowhere x {t}")]),
            8 | 9 => orders[last] = Orders::none(),
            30 => orders[last] = Orders::Fatal("the reply's header is not `N commands:`".into()),
            _ => {}
        }
        let ev = game.step(&orders);
        let mut events = Events::of(&ev);
        events.ms = (0..names.len())
            .map(|s| (t <= 30 || s != last).then_some((t * 7 + s as u32) % 23))
            .collect();
        if t == 8 || t == 9 {
            events.timeouts = vec![last];
        }
        if t == 12 {
            events.limits = vec![(last, "hit its limit of 64 processes".into())];
        }
        replay.push(events, &game);
    }
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

fn greedy(map: Map) -> Replay {
    let names: Vec<String> = (1..=map.seats.len()).map(|i| format!("g{i}")).collect();
    let mut game = Game::new(Arc::new(map), &names, 500).unwrap();
    let players: Vec<GreedyPlayer> = (0..names.len())
        .map(|s| GreedyPlayer::new(game.map(), Seat(s)))
        .collect();
    let mut replay = Replay::start(&game);
    while !game.is_over() {
        let orders: Vec<Orders> = players.iter().map(|p| p.orders(&game)).collect();
        let ev = game.step(&orders);
        replay.push(Events::of(&ev), &game);
    }
    replay.finish(&game, &game.outcome());
    replay
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
            (format!("{name}, greedy"), greedy(map.clone())),
            (format!("{name}, troubled"), troubled(map.clone(), 4)),
        ];
        for (seed, steps) in [(1, 500), (2, 120), (3, 40)] {
            played.push((
                format!("{name}, random {seed}"),
                recorded(map.clone(), seed, steps),
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
    let (_, map) = maps()
        .into_iter()
        .find(|(n, _)| n == "triad-3p.map")
        .unwrap();
    let v1 = troubled(map, 4);
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
    let (_, map) = maps()
        .into_iter()
        .find(|(n, _)| n == "triad-3p.map")
        .unwrap();
    let v1 = troubled(map, 5);
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
