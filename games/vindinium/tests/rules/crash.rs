//! games/vindinium/rules.md §9 and §10: a crash (the bot exited, closed its output or
//! ran out of time) neither moves nor fights nor sets `lastDir`, but thirst and gold
//! follow; the hero is crashed and each later move of it is a Stay, whatever is passed.
//! Once all four have crashed the game is over at once, the turn not advanced.

use vindinium::{Dir, Move, Status, StepError};

use crate::{check, check_all, game, play, Case};

/// Hero 3 between hero 1 (West), hero 4 (East) and hero 2 (South); hero 3 owns a mine.
const CROWD: &[&str] = &[
    "@1@3@4      ",
    "  @2        ",
    "            ",
    "      $3    ",
    "            ",
    "            ",
];

#[test]
fn a_crash_moves_and_hits_nothing_but_thirst_and_gold_follow() {
    check_all(&[
        Case {
            name: "crash",
            before: CROWD,
            setup: vec![],
            first: 3,
            answers: &["CRASH"],
            after: CROWD,
            life: [100, 100, 99, 100],
            gold: [0, 0, 1, 0],
        },
        Case {
            name: "crash at 1 life",
            before: CROWD,
            setup: vec![(3, 1, 4)],
            first: 3,
            answers: &["CRASH"],
            after: CROWD,
            life: [100, 100, 1, 100],
            gold: [0, 0, 5, 0],
        },
    ]);
}

#[test]
fn a_crash_leaves_last_dir_as_it_was() {
    let mut g = game(CROWD);
    g.turn = 2;
    play(&mut g, &["CRASH"]);
    assert_eq!(g.hero(3).last_dir, None);
    assert!(g.hero(3).crashed);
    assert!(!g.hero(4).crashed);

    let mut g = game(CROWD);
    g.turn = 2;
    play(&mut g, &["north", "stay", "stay", "stay", "CRASH"]);
    assert_eq!(g.hero(3).last_dir, Some(Dir::North));
    assert!(g.hero(3).crashed);
}

#[test]
fn after_a_crash_every_move_is_a_stay_that_still_hits_and_earns() {
    // Hero 3 crashes; heroes 4, 1, 2 each hit it; then its "north" is a Stay that hits
    // all three. (North is blocked by the edge anyway: the lone hero below checks that
    // a "west" into open ground is not made either.)
    let g = check(&Case {
        name: "crash, then a round",
        before: CROWD,
        setup: vec![],
        first: 3,
        answers: &["CRASH", "stay", "stay", "stay", "north"],
        after: CROWD,
        life: [79, 79, 38, 79],
        gold: [0, 0, 2, 0],
    });
    assert_eq!(g.hero(3).last_dir, Some(Dir::Stay));

    let lone: &[&str] = &["@1  @4      ", "", "    @3      ", "", "", "@2          "];
    let mut g = game(lone);
    g.turn = 2;
    play(
        &mut g,
        &[
            "CRASH", "stay", "stay", "stay", "west", "stay", "stay", "stay",
        ],
    );
    play(&mut g, &["CRASH"]);
    assert_eq!(
        g.hero(3).pos.y,
        2,
        "neither west nor a second crash moves it"
    );
    assert_eq!(g.hero(3).last_dir, Some(Dir::Stay));
    assert_eq!(g.hero(3).life, 97);
}

#[test]
fn the_game_ends_at_once_when_all_four_have_crashed() {
    let mut g = game(CROWD);
    g.turn = 2;
    play(&mut g, &["CRASH", "CRASH", "CRASH"]);
    assert_eq!(
        (g.turn, g.status),
        (5, Status::Started),
        "three crashed: on"
    );
    play(&mut g, &["stay", "stay", "stay", "stay"]);
    assert_eq!(g.turn, 9, "crashed heroes keep taking their turns");
    let life_before = g.hero(2).life;
    play(&mut g, &["CRASH"]);
    assert_eq!(g.status, Status::AllCrashed);
    assert!(g.is_finished());
    assert_eq!(g.turn, 9, "the turn is not advanced");
    assert_eq!(
        g.hero(2).life,
        life_before - 1,
        "thirst after the last crash"
    );
    assert_eq!(g.step(Move::Go(Dir::Stay)), Err(StepError::Finished));
    assert_eq!(g.step(Move::Crash), Err(StepError::Finished));
}
