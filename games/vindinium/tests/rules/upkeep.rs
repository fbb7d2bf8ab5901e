//! games/vindinium/rules.md §8: at the end of its own move the mover loses 1 life to
//! thirst (never below 1) and earns 1 gold for each mine it owns; the others neither.

use crate::{check_all, Case};

/// Hero 1 owns two mines, hero 2 one; nobody is adjacent to anybody.
const OWNERS: &[&str] = &[
    "@1    @2    ",
    "            ",
    "$1$1$2      ",
    "            ",
    "            ",
    "@3    @4    ",
];

fn upkeep(
    name: &'static str,
    setup: Vec<(usize, i32, i32)>,
    first: usize,
    answers: &'static [&'static str],
    life: [i32; 4],
    gold: [i32; 4],
) -> Case {
    Case {
        name,
        before: OWNERS,
        setup,
        first,
        answers,
        after: OWNERS,
        life,
        gold,
    }
}

#[test]
fn thirst_takes_one_life_but_never_the_last() {
    check_all(&[
        upkeep(
            "100",
            vec![],
            1,
            &["stay"],
            [99, 100, 100, 100],
            [2, 0, 0, 0],
        ),
        upkeep(
            "2",
            vec![(1, 2, 0)],
            1,
            &["stay"],
            [1, 100, 100, 100],
            [2, 0, 0, 0],
        ),
        upkeep(
            "1 stays 1",
            vec![(1, 1, 0)],
            1,
            &["stay"],
            [1, 100, 100, 100],
            [2, 0, 0, 0],
        ),
        upkeep(
            "1 stays 1, move after move",
            vec![(1, 1, 0)],
            1,
            &["stay"; 9],
            [1, 98, 98, 98],
            [6, 2, 0, 0],
        ),
    ]);
}

#[test]
fn only_the_mover_is_thirsty_and_earns() {
    check_all(&[
        upkeep(
            "hero 2 moves",
            vec![],
            2,
            &["stay"],
            [100, 99, 100, 100],
            [0, 1, 0, 0],
        ),
        upkeep(
            "a round of four moves",
            vec![(3, 50, 5)],
            1,
            &["stay"; 4],
            [99, 99, 49, 99],
            [2, 1, 5, 0],
        ),
        upkeep(
            "two rounds",
            vec![],
            1,
            &["stay"; 8],
            [98, 98, 98, 98],
            [4, 2, 0, 0],
        ),
    ]);
}
