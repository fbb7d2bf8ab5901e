//! games/bottlebats/rules.md §3, a turn: dispatch in seat order then line order, each command taking
//! its soldiers at once, and recruitment in every player's fort.

use bottlebats::game::Orders;

use crate::{fort, full, game, idle, marches, owned, play, removed_turns};

// ---------------------------------------------------------------- dispatch

#[test]
fn each_command_takes_its_soldiers_at_once_so_later_lines_see_the_reduced_garrison() {
    // A (p, 10) with roads of length 3 to B and C. (lines, marches at turn 1, A at turn 1, warnings)
    let cases = [
        (vec!["A B 8", "A C 8"], vec!["A B p 8 2", "A C p 2 2"], 1, 1),
        (vec!["A C 8", "A B 8"], vec!["A B p 2 2", "A C p 8 2"], 1, 1),
        (vec!["A B 4", "A B 4", "A B 4"], vec!["A B p 10 2"], 1, 1),
        (
            vec!["A B 4", "A C 6", "A B 1"],
            vec!["A B p 4 2", "A C p 6 2"],
            1,
            1,
        ),
        (vec!["A B 3", "A C 3"], vec!["A B p 3 2", "A C p 3 2"], 5, 0),
    ];
    for (lines, expected, garrison, warnings) in cases {
        let map = "4 forts:\nA 0 0 p 10\nB 3 0 neutral 0\nC 0 3 neutral 0\nZ 99 99 q 1\n2 roads:\nA B\nA C\n0 marches:\n";
        let mut g = game(map, &["p", "q"]);
        let events = play(&mut g, &[&lines]);
        assert_eq!(marches(&g), expected, "case {lines:?}");
        assert_eq!(fort(&g, "A"), owned("p", garrison), "case {lines:?}");
        assert_eq!(events.warnings.len(), warnings, "case {lines:?}");
    }
}

#[test]
fn commands_are_handled_in_seat_order_then_line_order() {
    // Every line below is ignored with a warning; the warnings come in dispatch order.
    let map = "2 forts:\nA 0 0 p 10\nB 3 0 q 10\n1 roads:\nA B\n0 marches:\n";
    let mut g = game(map, &["p", "q"]);
    let events = play(
        &mut g,
        &[&["nowhere A 1", "A nowhere 1"], &["B A x", "B A -1"]],
    );
    let order: Vec<(usize, &str)> = events
        .warnings
        .iter()
        .map(|(s, w)| (s.0, w.split('`').nth(1).unwrap_or_default()))
        .collect();
    assert_eq!(
        order,
        [
            (0, "nowhere A 1"),
            (0, "A nowhere 1"),
            (1, "B A x"),
            (1, "B A -1")
        ]
    );
}

// ---------------------------------------------------------------- recruitment

#[test]
fn player_forts_gain_one_soldier_a_turn_and_neutral_forts_never_grow() {
    let map = "4 forts:\nA 0 0 p 0\nB 3 0 q 7\nC 6 0 neutral 4\nD 50 50 neutral 0\n2 roads:\nA B\nB C\n0 marches:\n";
    // (turns played, A, B, C, D)
    let cases = [
        (0, 0, 7, 4, 0),
        (1, 1, 8, 4, 0),
        (5, 5, 12, 4, 0),
        (20, 20, 27, 4, 0),
    ];
    for (turns, a, b, c, d) in cases {
        let mut g = game(map, &["p", "q"]);
        idle(&mut g, turns);
        let seen = [fort(&g, "A"), fort(&g, "B"), fort(&g, "C"), fort(&g, "D")];
        let expected = [
            owned("p", a),
            owned("q", b),
            owned("neutral", c),
            owned("neutral", d),
        ];
        assert_eq!(seen, expected, "case {turns} turns");
    }
}

#[test]
fn a_removed_players_forts_stay_under_its_name_keep_recruiting_and_can_be_captured() {
    let map = "3 forts:\nA 0 0 p 5\nB 2 0 q 20\nZ 99 99 r 1\n1 roads:\nA B\n0 marches:\n";
    let mut g = game(map, &["p", "q", "r"]);
    g.step(&[
        Orders::Fatal("bad header".into()),
        Orders::none(),
        Orders::none(),
    ]);
    assert_eq!(removed_turns(&g), [Some(0), None, None]);
    let mut seen = vec![fort(&g, "A")];
    idle(&mut g, 2);
    seen.push(fort(&g, "A"));
    assert!(full(&g).contains("A 0 0 p 8\n"), "{}", full(&g));
    // q takes it: sent in turn 3 on a road of length 2, lands at the end of turn 4.
    play(&mut g, &[&[], &["B A 15"]]);
    seen.push(fort(&g, "A"));
    g.step(&[]);
    seen.push(fort(&g, "A"));
    assert_eq!(
        seen,
        [owned("p", 6), owned("p", 8), owned("p", 9), owned("q", 7)]
    );
}
