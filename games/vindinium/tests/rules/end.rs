//! games/vindinium/rules.md §3 (turn order), §10 (the end) and §11 (outcome and
//! statistics).

use vindinium::{Dir, Game, Map, Move, Outcome, Status, StepError, DEFAULT_MAX_TURNS};

use crate::{game, play};

const OPEN: &[&str] = &[
    "@1    @2    ",
    "            ",
    "$1$1$2      ",
    "            ",
    "            ",
    "@3    @4    ",
];

#[test]
fn heroes_move_in_turn_one_two_three_four() {
    let mut g = game(OPEN);
    let mut order = Vec::new();
    for _ in 0..9 {
        order.push(g.hero_to_move());
        g.step(Move::Go(Dir::South)).unwrap();
    }
    assert_eq!(order, [1, 2, 3, 4, 1, 2, 3, 4, 1]);
    let rows: Vec<i32> = g.heroes.iter().map(|h| h.pos.x).collect();
    assert_eq!(
        rows,
        [1, 2, 5, 5],
        "hero 1 went south 3 times but (2, 0) is a mine"
    );
}

#[test]
fn the_game_ends_after_max_turns_moves() {
    // (max turns, moves played before the end)
    for max in [1, 4, 7, 8] {
        let map = Map::parse(&OPEN.join("\n")).unwrap();
        let mut g = Game::new("g", &map, ["a", "b", "c", "d"], max);
        let mut moves = 0;
        while g.step(Move::Go(Dir::Stay)).is_ok() {
            moves += 1;
        }
        assert_eq!(moves, max, "max {max}");
        assert_eq!((g.turn, g.status), (max, Status::TurnMax), "max {max}");
        assert_eq!(g.step(Move::Crash), Err(StepError::Finished));
    }
}

#[test]
fn a_full_game_has_turns_0_to_1200() {
    let mut g = game(OPEN);
    assert_eq!(g.max_turns, DEFAULT_MAX_TURNS);
    let mut turns = vec![g.turn];
    while !g.is_finished() {
        g.step(Move::Go(Dir::Stay)).unwrap();
        turns.push(g.turn);
    }
    assert_eq!(turns, (0..=1200).collect::<Vec<u32>>());
    assert_eq!(g.hero(1).gold, 600, "two mines, 300 moves");
    assert_eq!(g.hero(1).life, 1);
}

#[test]
fn heroes_rank_by_gold_and_a_shared_top_has_no_winner() {
    // (gold of heroes 1..4, ranks, winner)
    let cases = [
        ([10, 40, 30, 20], [4, 1, 2, 3], Some(2)),
        ([10, 30, 30, 20], [4, 1, 1, 3], None),
        ([30, 10, 10, 5], [1, 2, 2, 4], Some(1)),
        ([0, 0, 0, 0], [1, 1, 1, 1], None),
        ([5, 5, 7, 7], [3, 3, 1, 1], None),
    ];
    for (gold, ranks, winner) in cases {
        let mut g = game(OPEN);
        for (i, gold) in gold.into_iter().enumerate() {
            g.heroes[i].gold = gold;
        }
        assert_eq!(g.outcome(), Outcome { ranks, winner }, "gold {gold:?}");
    }
}

#[test]
fn statistics_count_gold_mines_and_deaths() {
    let mut g = game(&[
        "@1          ",
        "@2    $2    ",
        "      $3    ",
        "            ",
        "            ",
        "@3        @4",
    ]);
    g.hero_mut(2).life = 20;
    play(&mut g, &["stay"]);
    let stats = g.stats();
    let got: Vec<(i32, usize, u32)> = stats.iter().map(|s| (s.gold, s.mines, s.deaths)).collect();
    // Hero 2, killed by hero 1, telefrags hero 3 from (5, 0) and takes its mine; hero 3
    // telefrags hero 4 from (5, 5).
    assert_eq!(got, [(1, 1, 0), (0, 1, 1), (0, 0, 1), (0, 0, 1)]);
}
