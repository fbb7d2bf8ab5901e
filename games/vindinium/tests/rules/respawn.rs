//! games/vindinium/rules.md §3: every hero respawns at hero 1's start square, mirrored
//! across the rows (hero 2), both axes (hero 3) or the columns (hero 4), whatever its
//! own start square; a hero already there is telefragged, and so on down the chain.

use vindinium::{Dir, Map, Move, Pos};

use crate::{check, game, Case};

#[test]
fn spawn_squares_are_the_mirrors_of_hero_1s_start() {
    // (where @1 is drawn, spawn squares of heroes 1..4) on 6 × 6 boards whose other
    // start squares are elsewhere
    let cases = [
        ((0, 1), [(0, 1), (5, 1), (5, 4), (0, 4)]),
        ((1, 2), [(1, 2), (4, 2), (4, 3), (1, 3)]),
        ((2, 0), [(2, 0), (3, 0), (3, 5), (2, 5)]),
    ];
    for ((x, y), spawns) in cases {
        let mut rows: Vec<String> = vec!["            ".to_string(); 6];
        rows[x].replace_range(y * 2..y * 2 + 2, "@1");
        rows[2].replace_range(4..10, "@2@3@4");
        let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
        let g = game(&refs);
        let got: Vec<(i32, i32)> = (1..=4)
            .map(|id| {
                let p = g.spawn_pos_of(id);
                (p.x, p.y)
            })
            .collect();
        let want: Vec<(i32, i32)> = spawns.to_vec();
        assert_eq!(got, want, "@1 at {:?}", (x, y));
        assert_eq!(g.hero(2).spawn_pos, Pos::new(want[1].0, want[1].1));
    }
}

#[test]
fn original_map_m1_starts_hero_3_off_its_spawn_square() {
    // In m1 @3 is drawn at (7, 7), but hero 3 respawns at hero 1's (0, 1) mirrored on
    // both axes: (9, 8).
    let map = Map::original("m1").unwrap();
    let g = vindinium::Game::new("m1", &map, ["a", "b", "c", "d"], 1200);
    assert_eq!(g.hero(3).pos, Pos::new(7, 7));
    assert_eq!(g.spawn_pos_of(3), Pos::new(9, 8));
    assert_eq!(g.spawn_pos_of(2), Pos::new(9, 1));
    assert_eq!(g.spawn_pos_of(4), Pos::new(0, 8));
}

#[test]
fn a_killed_hero_respawns_at_its_mirror_square() {
    // @1 at (1, 2): hero 2 respawns at (4, 2), not at its start (1, 0).
    let mut g = game(&[
        "            ",
        "@2@3@1      ",
        "            ",
        "          @4",
        "            ",
        "            ",
    ]);
    g.hero_mut(3).life = 40;
    g.hero_mut(2).life = 20;
    g.turn = 2;
    g.step(Move::Go(Dir::Stay)).unwrap();
    assert_eq!(g.hero(2).pos, Pos::new(4, 2));
    assert_eq!(g.hero(2).life, 100);
    assert_eq!(g.hero(1).life, 80);
}

#[test]
fn telefrags_chain_and_pass_the_mines_along() {
    // Hero 1 kills hero 2, whose spawn (5, 0) holds hero 3, whose spawn (5, 5) holds
    // hero 4, whose spawn (0, 5) is free. Each arriving hero takes the mines of the
    // one it displaces; everyone displaced has 100 life.
    let g = check(&Case {
        name: "2 onto 3 onto 4",
        before: &[
            "@1          ",
            "@2    $2    ",
            "      $3    ",
            "      $4    ",
            "            ",
            "@3        @4",
        ],
        setup: vec![(2, 20, 0), (3, 40, 3), (4, 10, 4)],
        first: 1,
        answers: &["stay"],
        after: &[
            "@1        @4",
            "      $1    ",
            "      $2    ",
            "      $3    ",
            "            ",
            "@2        @3",
        ],
        life: [99, 100, 100, 100],
        gold: [1, 0, 3, 4],
    });
    let deaths: Vec<u32> = g.heroes.iter().map(|h| h.deaths).collect();
    assert_eq!(deaths, [0, 1, 1, 1]);
    let respawned: Vec<Option<u32>> = g.heroes.iter().map(|h| h.last_respawn).collect();
    assert_eq!(respawned, [None, Some(0), Some(0), Some(0)]);
}

#[test]
fn dying_on_its_own_spawn_square_telefrags_nobody() {
    check(&Case {
        name: "hero 2 dies at a mine next to its spawn",
        before: &[
            "@1          ",
            "            ",
            "            ",
            "            ",
            "$-          ",
            "@2@3      @4",
        ],
        setup: vec![(2, 20, 0)],
        first: 2,
        answers: &["north"],
        after: &[
            "@1          ",
            "            ",
            "            ",
            "            ",
            "$-          ",
            "@2@3      @4",
        ],
        life: [100, 99, 100, 100],
        gold: [0, 0, 0, 0],
    });
}
