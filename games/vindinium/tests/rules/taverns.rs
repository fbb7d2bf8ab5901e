//! games/vindinium/rules.md §5: a beer at a tavern costs 2 gold for 50 life (at most
//! 100), needs 2 gold, is bought even at 99 life, and the hero stays where it is.

use crate::{check_all, Case};

/// Hero 1 with a tavern to its East.
const BAR: &[&str] = &[
    "          @4",
    "            ",
    "    @1[]    ",
    "            ",
    "            ",
    "@2        @3",
];

/// The same with a mine of hero 1 in a corner.
const BAR_AND_MINE: &[&str] = &[
    "$1        @4",
    "            ",
    "    @1[]    ",
    "            ",
    "            ",
    "@2        @3",
];

fn beer(name: &'static str, life: i32, gold: i32, after: (i32, i32)) -> Case {
    Case {
        name,
        before: BAR,
        setup: vec![(1, life, gold)],
        first: 1,
        answers: &["east"],
        after: BAR,
        life: [after.0, 100, 100, 100],
        gold: [after.1, 0, 0, 0],
    }
}

#[test]
fn a_beer_costs_two_gold_for_fifty_life() {
    // (life, gold) before -> after, thirst included
    check_all(&[
        beer("50 life, 2 gold: 100, then thirst", 50, 2, (99, 0)),
        beer("30 life, 5 gold", 30, 5, (79, 3)),
        beer("70 life: capped at 100", 70, 4, (99, 2)),
        beer("99 life: bought all the same", 99, 2, (99, 0)),
        beer("100 life: bought all the same", 100, 7, (99, 5)),
        beer("1 gold: no beer", 50, 1, (49, 1)),
        beer("no gold: no beer", 50, 0, (49, 0)),
        beer("1 life, 2 gold", 1, 2, (50, 0)),
    ]);
}

#[test]
fn mines_pay_after_the_beer() {
    check_all(&[
        Case {
            name: "pays 2, then earns 1 from its mine",
            before: BAR_AND_MINE,
            setup: vec![(1, 40, 2)],
            first: 1,
            answers: &["east"],
            after: BAR_AND_MINE,
            life: [89, 100, 100, 100],
            gold: [1, 0, 0, 0],
        },
        Case {
            name: "2 gold short of a beer: earning comes too late",
            before: BAR_AND_MINE,
            setup: vec![(1, 40, 1)],
            first: 1,
            answers: &["east"],
            after: BAR_AND_MINE,
            life: [39, 100, 100, 100],
            gold: [2, 0, 0, 0],
        },
    ]);
}
