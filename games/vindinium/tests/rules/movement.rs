//! games/vindinium/rules.md §1 (squares: `x` is the row) and §4 (moving: answers, wood,
//! the edge, other heroes, `lastDir`).

use vindinium::{Dir, Move, Pos};

use crate::{check_all, game, Case};

/// Hero 1 in the middle with wood to its East; the others far away.
const MIDDLE: &[&str] = &[
    "          @4",
    "            ",
    "    @1##    ",
    "            ",
    "            ",
    "@2        @3",
];

fn moved(
    name: &'static str,
    answer: &'static [&'static str],
    after: &'static [&'static str],
) -> Case {
    Case {
        name,
        before: MIDDLE,
        setup: vec![],
        first: 1,
        answers: answer,
        after,
        life: [99, 100, 100, 100],
        gold: [0, 0, 0, 0],
    }
}

#[test]
fn a_hero_moves_one_square_and_north_is_the_row_above() {
    check_all(&[
        moved(
            "north: x - 1, the row above",
            &["north"],
            &[
                "          @4",
                "    @1      ",
                "      ##    ",
                "            ",
                "            ",
                "@2        @3",
            ],
        ),
        moved(
            "south: x + 1, the row below",
            &["South"],
            &[
                "          @4",
                "            ",
                "      ##    ",
                "    @1      ",
                "            ",
                "@2        @3",
            ],
        ),
        moved(
            "west: y - 1",
            &["WEST"],
            &[
                "          @4",
                "            ",
                "  @1  ##    ",
                "            ",
                "            ",
                "@2        @3",
            ],
        ),
        moved("east into wood: nothing", &["east"], MIDDLE),
        moved("stay: nothing", &["stay"], MIDDLE),
        moved("an unknown answer is Stay", &["jump"], MIDDLE),
    ]);
}

#[test]
fn pos_x_is_the_row_in_the_state() {
    let mut g = game(MIDDLE);
    assert_eq!(g.hero(1).pos, Pos::new(2, 2));
    g.step(Move::Go(Dir::North)).unwrap();
    assert_eq!(g.hero(1).pos, Pos { x: 1, y: 2 });
    assert_eq!(Pos::new(1, 2).to(Dir::East), Pos::new(1, 3));
    assert_eq!(
        Pos::new(1, 2).neighbors(),
        [
            Pos::new(0, 2),
            Pos::new(1, 3),
            Pos::new(2, 2),
            Pos::new(1, 1)
        ],
        "North, East, South, West"
    );
}

#[test]
fn the_edge_of_the_board_blocks() {
    let corner: &[&str] = &[
        "@1          ",
        "            ",
        "            ",
        "            ",
        "            ",
        "@2  @3  @4  ",
    ];
    for answer in ["north", "west"] {
        let mut g = game(corner);
        g.step(Move::Go(Dir::from_answer(answer))).unwrap();
        assert_eq!(g.hero(1).pos, Pos::new(0, 0), "{answer}");
        assert_eq!(g.hero(1).last_dir, Some(Dir::from_answer(answer)));
    }
}

#[test]
fn answers_are_trimmed_and_lower_cased_and_anything_else_is_stay() {
    let cases = [
        ("north", Dir::North),
        ("NORTH", Dir::North),
        ("  South\r\n", Dir::South),
        ("\teast\n", Dir::East),
        ("West", Dir::West),
        ("Stay", Dir::Stay),
        ("", Dir::Stay),
        ("n", Dir::Stay),
        ("nor th", Dir::Stay),
        ("north west", Dir::Stay),
        ("crash", Dir::Stay),
        ("\u{a0}north", Dir::Stay), // Java's trim keeps a no-break space
        ("\u{1}north\u{1f}", Dir::North), // ... but drops control characters
    ];
    for (answer, dir) in cases {
        assert_eq!(Dir::from_answer(answer), dir, "answer {answer:?}");
    }
}

#[test]
fn last_dir_is_the_order_even_when_nothing_happens() {
    let mut g = game(MIDDLE);
    assert_eq!(g.hero(1).last_dir, None, "no order yet");
    g.step(Move::Go(Dir::East)).unwrap();
    assert_eq!(g.hero(1).last_dir, Some(Dir::East), "blocked by wood");
    for _ in 0..3 {
        g.step(Move::Go(Dir::Stay)).unwrap();
    }
    g.step(Move::Go(Dir::Stay)).unwrap();
    assert_eq!(g.hero(1).last_dir, Some(Dir::Stay));
    assert_eq!(g.hero(2).last_dir, Some(Dir::Stay));
}
