//! games/bottlebats/rules.md §2, seats and map marches: the owners of a map are seats bound to
//! players in order, unbound seats turn neutral, and map marches are sent at load.

use bottlebats::map::Map;

use crate::{fort, game, idle, marches, owned, removed_turns, strings};

#[test]
fn seats_are_the_distinct_owners_in_order_of_first_appearance() {
    let cases = [
        ("2 forts:\nA 0 0 p 1\nB 1 0 q 1\n0 roads:\n0 marches:\n", vec!["p", "q"]),
        ("2 forts:\nA 0 0 q 1\nB 1 0 p 1\n0 roads:\n0 marches:\n", vec!["q", "p"]),
        (
            "5 forts:\nA 0 0 neutral 1\nB 1 0 q 1\nC 2 0 q 1\nD 3 0 neutral 0\nE 4 0 p 1\n0 roads:\n0 marches:\n",
            vec!["q", "p"],
        ),
        ("1 forts:\nA 0 0 neutral 1\n0 roads:\n0 marches:\n", vec![]),
    ];
    for (text, seats) in cases {
        let map = Map::parse(text).unwrap();
        assert_eq!(map.seats, seats, "case {text:?}");
    }
}

#[test]
fn seat_i_is_played_by_player_i_whatever_the_names_in_the_map() {
    let map =
        "3 forts:\nA 0 0 bob 5\nB 3 0 alice 6\nC 6 0 neutral 0\n2 roads:\nA B\nB C\n0 marches:\n";
    // (players, owner of A, owner of B)
    let cases = [
        (vec!["ann", "ben"], "ann", "ben"),
        (vec!["alice", "bob"], "alice", "bob"),
        (vec!["bob", "alice"], "bob", "alice"),
    ];
    for (players, a, b) in cases {
        let g = game(map, &players);
        assert_eq!(fort(&g, "A"), owned(a, 5), "case {players:?}");
        assert_eq!(fort(&g, "B"), owned(b, 6), "case {players:?}");
        assert_eq!(fort(&g, "C"), owned("neutral", 0), "case {players:?}");
    }
}

#[test]
fn an_unbound_seat_becomes_neutral_keeps_its_garrison_and_never_grows() {
    let map = "3 forts:\nA 0 0 p 5\nB 3 0 q 6\nC 6 0 r 7\n2 roads:\nA B\nB C\n0 marches:\n";
    // (players, expected owners of A B C at the start and after 3 turns)
    let cases = [
        (
            vec!["p"],
            [("p", 5), ("neutral", 6), ("neutral", 7)],
            [("p", 8), ("neutral", 6), ("neutral", 7)],
        ),
        (
            vec!["p", "q"],
            [("p", 5), ("q", 6), ("neutral", 7)],
            [("p", 8), ("q", 9), ("neutral", 7)],
        ),
        (
            vec!["x", "y", "z"],
            [("x", 5), ("y", 6), ("z", 7)],
            [("x", 8), ("y", 9), ("z", 10)],
        ),
    ];
    for (players, start, later) in cases {
        let mut g = game(map, &players);
        for (name, (owner, garrison)) in ["A", "B", "C"].into_iter().zip(start) {
            assert_eq!(
                fort(&g, name),
                owned(owner, garrison),
                "case {players:?} fort {name} at the start"
            );
        }
        idle(&mut g, 3);
        for (name, (owner, garrison)) in ["A", "B", "C"].into_iter().zip(later) {
            assert_eq!(
                fort(&g, name),
                owned(owner, garrison),
                "case {players:?} fort {name} after 3 turns"
            );
        }
    }
}

#[test]
fn map_marches_are_dispatched_at_load_from_the_origin_garrison() {
    // Road A-B has length 4. (march line in the file, march line shown at turn 0, A's garrison)
    let cases = [
        ("A B p 6 0", "A B p 6 4", 4),
        ("A B p 6 4", "A B p 6 4", 4),
        ("A B p 6 1", "A B p 6 1", 4),
        ("A B p 0 2", "A B p 0 2", 10),
        ("A B p 10 3", "A B p 10 3", 0),
        // More than the garrison takes the whole garrison, like a command.
        ("A B p 15 3", "A B p 10 3", 0),
    ];
    for (line, shown, garrison) in cases {
        let text = format!("2 forts:\nA 0 0 p 10\nB 4 0 q 1\n1 roads:\nA B\n1 marches:\n{line}\n");
        let g = game(&text, &["p", "q"]);
        assert_eq!(marches(&g), [shown], "case {line}");
        assert_eq!(fort(&g, "A"), owned("p", garrison), "case {line}");
    }
}

#[test]
fn a_map_march_at_full_length_moves_like_a_command_sent_in_turn_zero() {
    // Road length 3: shows 3 at turn 0, 2 at turn 1, 1 at turn 2, lands at the end of turn 2.
    let text = "3 forts:\nA 0 0 p 10\nB 3 0 neutral 2\nZ 99 99 q 1\n1 roads:\nA B\n1 marches:\nA B p 6 0\n";
    let mut g = game(text, &["p", "q"]);
    let mut seen = vec![(marches(&g), fort(&g, "B"))];
    for _ in 0..3 {
        g.step(&[]);
        seen.push((marches(&g), fort(&g, "B")));
    }
    let expected = [
        (strings(&["A B p 6 3"]), owned("neutral", 2)),
        (strings(&["A B p 6 2"]), owned("neutral", 2)),
        (strings(&["A B p 6 1"]), owned("neutral", 2)),
        (strings(&[]), owned("p", 5)),
    ];
    assert_eq!(seen, expected);
}

#[test]
fn map_marches_of_an_unbound_seat_march_for_neutral() {
    let text = "2 forts:\nA 0 0 p 3\nB 1 0 q 9\n1 roads:\nA B\n1 marches:\nB A q 5 0\n";
    let mut g = game(text, &["p"]);
    assert_eq!(marches(&g), ["B A neutral 5 1"]);
    assert_eq!(fort(&g, "B"), owned("neutral", 4));
    g.step(&[]);
    // Neutral's 5 beat p's 3 at A, and p, left with nothing, is out.
    assert_eq!(fort(&g, "A"), owned("neutral", 2));
    assert_eq!(removed_turns(&g), [Some(0)]);
}
