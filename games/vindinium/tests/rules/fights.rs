//! games/vindinium/rules.md §7: after its move (also a Stay, also a blocked move) the
//! mover hits each adjacent hero for 20, in the order North, East, South, West of a
//! list taken once; the others do not hit back. A hero with exactly 20 life dies, its
//! mines go to the mover and pay in the same move. Heroes respawned during the move are
//! skipped, and a mover respawned during the move hits no more.
//!
//! Hero 1 is drawn at (0, 0): heroes 1–4 respawn at (0, 0), (5, 0), (5, 5), (0, 5).
//! Hero 3 moves.

use crate::{check, check_all, Case};

/// Hero 3 between hero 1 (West), hero 4 (East) and hero 2 (South).
const CROWD: &[&str] = &[
    "@1@3@4      ",
    "  @2        ",
    "            ",
    "      $4    ",
    "            ",
    "            ",
];

fn hero_3(
    name: &'static str,
    answers: &'static [&'static str],
    setup: Vec<(usize, i32, i32)>,
) -> Case {
    Case {
        name,
        before: CROWD,
        setup,
        first: 3,
        answers,
        after: CROWD,
        life: [80, 80, 99, 80],
        gold: [0, 0, 0, 0],
    }
}

#[test]
fn the_mover_hits_every_adjacent_hero_and_takes_nothing_back() {
    check_all(&[
        hero_3("stay", &["stay"], vec![]),
        hero_3("blocked by hero 4", &["east"], vec![]),
        hero_3("blocked by hero 2", &["south"], vec![]),
        hero_3("blocked by the edge", &["north"], vec![]),
    ]);
}

#[test]
fn only_adjacent_heroes_are_hit() {
    check_all(&[
        Case {
            name: "two squares away and diagonal: not hit",
            before: &["@1  @3  @4  ", "            ", "  @2        ", "", "", ""],
            setup: vec![],
            first: 3,
            answers: &["stay"],
            after: &[
                "@1  @3  @4  ",
                "            ",
                "  @2        ",
                "            ",
                "            ",
                "            ",
            ],
            life: [100, 100, 99, 100],
            gold: [0, 0, 0, 0],
        },
        Case {
            name: "moves first, then hits its new neighbours",
            before: &["@1    @4    ", "    @3      ", "", "", "", "@2          "],
            setup: vec![],
            first: 3,
            answers: &["north"],
            after: &[
                "@1  @3@4    ",
                "            ",
                "            ",
                "            ",
                "            ",
                "@2          ",
            ],
            life: [100, 100, 99, 80],
            gold: [0, 0, 0, 0],
        },
    ]);
}

#[test]
fn a_hero_with_exactly_twenty_life_is_killed_and_its_mines_pay_the_killer_at_once() {
    check_all(&[
        Case {
            name: "20 life: respawns with 100, its mine is hero 3's and pays",
            before: CROWD,
            setup: vec![(4, 20, 7)],
            first: 3,
            answers: &["stay"],
            after: &[
                "@1@3      @4",
                "  @2        ",
                "            ",
                "      $3    ",
                "            ",
                "            ",
            ],
            life: [80, 80, 99, 100],
            gold: [0, 0, 1, 7],
        },
        Case {
            name: "21 life: survives with 1",
            before: CROWD,
            setup: vec![(4, 21, 7)],
            first: 3,
            answers: &["stay"],
            after: CROWD,
            life: [80, 80, 99, 1],
            gold: [0, 0, 0, 7],
        },
        Case {
            name: "two killed in one move",
            before: &["@1", "    @2", "    @3", "    @4", "$2      $4  ", ""],
            setup: vec![(2, 20, 0), (4, 20, 0)],
            first: 3,
            answers: &["stay"],
            after: &[
                "@1        @4",
                "            ",
                "    @3      ",
                "            ",
                "$3      $3  ",
                "@2          ",
            ],
            life: [100, 100, 99, 100],
            gold: [0, 0, 2, 0],
        },
    ]);
}

#[test]
fn fights_skip_heroes_respawned_during_the_move() {
    // Hero 2 (North of hero 3) dies and respawns at (5, 0), where hero 4 (South of
    // hero 3) stands: hero 4 is telefragged to (0, 5) with 100 life, its mine goes to
    // hero 2, and hero 3 does not hit it. Hero 2 is now South of hero 3, and not hit.
    let g = check(&Case {
        name: "telefragged by the victim's respawn",
        before: &[
            "@1          ",
            "            ",
            "            ",
            "@2    $2    ",
            "@3          ",
            "@4    $4    ",
        ],
        setup: vec![(2, 20, 0), (4, 60, 0)],
        first: 3,
        answers: &["stay"],
        after: &[
            "@1        @4",
            "            ",
            "            ",
            "      $3    ",
            "@3          ",
            "@2    $2    ",
        ],
        life: [100, 100, 99, 100],
        gold: [0, 0, 1, 0],
    });
    let deaths: Vec<u32> = g.heroes.iter().map(|h| h.deaths).collect();
    assert_eq!(deaths, [0, 1, 0, 1]);
}

#[test]
fn a_mover_respawned_during_the_move_hits_no_more() {
    // Hero 3 stands on hero 2's spawn. It kills hero 2 (North), which respawns onto it:
    // hero 3 is telefragged (its mines, and those it just took, go to hero 2) and does
    // not hit hero 4 (East); thirst still takes 1 from its fresh 100.
    check(&Case {
        name: "telefragged by its victim",
        before: &[
            "@1          ",
            "            ",
            "      $3    ",
            "      $2    ",
            "@2          ",
            "@3@4        ",
        ],
        setup: vec![(2, 20, 0), (4, 50, 0)],
        first: 3,
        answers: &["stay"],
        after: &[
            "@1          ",
            "            ",
            "      $2    ",
            "      $2    ",
            "            ",
            "@2@4      @3",
        ],
        life: [100, 100, 99, 50],
        gold: [0, 0, 0, 0],
    });
}
