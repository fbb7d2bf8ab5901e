//! games/vindinium/rules.md §6: a mine not yet the hero's costs 20 life and is taken by
//! a survivor; at exactly 20 life the hero dies, all its mines turn neutral, and it
//! respawns (telefragging whoever stands there). The hero never steps onto the mine.
//!
//! Hero 1 is drawn at (0, 0), so hero 2 respawns at (5, 0); hero 2 moves.

use crate::{check_all, Case};

/// Hero 2 with a neutral mine East, a mine of hero 3 South and its own mine West; it
/// owns another mine at (4, 0).
const MINES: &[&str] = &[
    "@1        @4",
    "            ",
    "  $2@2$-    ",
    "    $3      ",
    "$2          ",
    "          @3",
];

fn at_mine(
    name: &'static str,
    life: i32,
    answer: &'static [&'static str],
    after: &'static [&'static str],
    result: (i32, i32),
) -> Case {
    Case {
        name,
        before: MINES,
        setup: vec![(2, life, 0)],
        first: 2,
        answers: answer,
        after,
        life: [100, result.0, 100, 100],
        gold: [0, result.1, 0, 0],
    }
}

#[test]
fn a_mine_costs_twenty_life_and_pays_in_the_same_move() {
    check_all(&[
        at_mine(
            "a neutral mine: taken, 3 mines pay 3",
            100,
            &["east"],
            &[
                "@1        @4",
                "            ",
                "  $2@2$2    ",
                "    $3      ",
                "$2          ",
                "          @3",
            ],
            (79, 3),
        ),
        at_mine(
            "an enemy's mine: taken from it",
            100,
            &["south"],
            &[
                "@1        @4",
                "            ",
                "  $2@2$-    ",
                "    $2      ",
                "$2          ",
                "          @3",
            ],
            (79, 3),
        ),
        at_mine("its own mine: nothing", 100, &["west"], MINES, (99, 2)),
        at_mine(
            "21 life: survives with 1, and thirst leaves 1",
            21,
            &["east"],
            &[
                "@1        @4",
                "            ",
                "  $2@2$2    ",
                "    $3      ",
                "$2          ",
                "          @3",
            ],
            (1, 3),
        ),
    ]);
}

#[test]
fn a_hero_with_exactly_twenty_life_dies_at_a_mine() {
    let dead_after: &[&str] = &[
        "@1        @4",
        "            ",
        "  $-  $-    ",
        "    $3      ",
        "$-          ",
        "@2        @3",
    ];
    check_all(&[
        at_mine(
            "a neutral mine: all its mines turn neutral, respawn, thirst",
            20,
            &["east"],
            dead_after,
            (99, 0),
        ),
        at_mine(
            "an enemy's mine: it keeps it",
            20,
            &["south"],
            dead_after,
            (99, 0),
        ),
        at_mine(
            "its own mine: nothing happens",
            20,
            &["west"],
            MINES,
            (19, 2),
        ),
    ]);
}

#[test]
fn dying_at_a_mine_telefrags_and_takes_the_victims_mines() {
    check_all(&[Case {
        name: "hero 4 on hero 2's spawn: sent to its own, its mine to hero 2, paid",
        before: &[
            "@1          ",
            "            ",
            "    @2$-    ",
            "            ",
            "$4          ",
            "@4        @3",
        ],
        setup: vec![(2, 20, 5), (4, 50, 3)],
        first: 2,
        answers: &["east"],
        after: &[
            "@1        @4",
            "            ",
            "      $-    ",
            "            ",
            "$2          ",
            "@2        @3",
        ],
        life: [100, 99, 100, 100],
        gold: [0, 6, 0, 3],
    }]);
}
