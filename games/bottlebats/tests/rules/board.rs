//! games/bottlebats/rules.md §1, the board: a road is as long as the distance between its forts,
//! rounded up.

use bottlebats::map::road_length;

use crate::game;

#[test]
fn road_length_is_the_distance_rounded_up_and_exact_for_perfect_squares() {
    // (dx, dy, length)
    let cases = [
        (3, 4, 5),
        (1, 1, 2),
        (1, 0, 1),
        (0, 1, 1),
        (0, 7, 7),
        (-3, -4, 5),
        (5, 12, 13),
        (6, 8, 10),
        (2, 2, 3),
        (1, 2, 3),
        (10, 1, 11),
        (30, 40, 50),
        (30, 41, 51),
        // Exact where floating point would round sqrt(n² + 1) down to n.
        (94_906_265, 1, 94_906_266),
        (3_000_000_000, 4_000_000_000, 5_000_000_000),
        (i64::MIN, 0, 1 << 63),
    ];
    for (dx, dy, length) in cases {
        assert_eq!(road_length(dx, dy), length, "case ({dx}, {dy})");
    }
}

#[test]
fn a_map_road_gets_the_length_of_its_forts_distance() {
    // (x of B, y of B, length)
    let cases = [(3, 4, 5), (1, 1, 2), (4, 0, 4), (2, 3, 4), (-6, -8, 10)];
    for (x, y, length) in cases {
        let g = game(
            &format!("2 forts:\nA 0 0 p 1\nB {x} {y} q 1\n1 roads:\nB A\n0 marches:\n"),
            &["p", "q"],
        );
        assert_eq!(g.map().roads[0].length, length, "case B at {x} {y}");
    }
}
