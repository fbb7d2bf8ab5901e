//! games/bottlebats/rules.md §4, roads: when a march is seen and when it lands, battles between
//! marches that meet, and commands that merge into one march.

use bottlebats::map::Owner;
use bottlebats::Game;

use crate::{fort, game, idle, marches, owned, play, seat, two_forts};

// ---------------------------------------------------------------- positions and timing

#[test]
fn a_march_shows_length_minus_one_the_next_turn_and_its_result_after_length_turns() {
    // (road length, turn it is sent in)
    let cases = [
        (1, 0),
        (1, 2),
        (2, 0),
        (2, 1),
        (3, 0),
        (4, 2),
        (5, 1),
        (8, 0),
    ];
    for (length, sent) in cases {
        let mut g = game(&two_forts(length, "neutral"), &["p", "q"]);
        idle(&mut g, sent);
        assert_eq!(
            marches(&g),
            Vec::<String>::new(),
            "case L={length} t={sent}"
        );
        play(&mut g, &[&["A B 5"]]);
        // Sent in turn t: the state of turn t + k shows L - k steps left, until it lands.
        for k in 1..length {
            let case = format!("case L={length} t={sent} k={k}");
            assert_eq!(marches(&g), [format!("A B p 5 {}", length - k)], "{case}");
            assert_eq!(fort(&g, "B"), owned("neutral", 20), "{case}");
            g.step(&[]);
        }
        // It landed at the end of turn t + L - 1 (for L = 1, the turn it was sent in),
        // so the state of turn t + L shows the result.
        let case = format!("case L={length} t={sent}");
        assert_eq!(g.turn(), sent + length, "{case}");
        assert_eq!(marches(&g), Vec::<String>::new(), "{case}");
        assert_eq!(fort(&g, "B"), owned("neutral", 15), "{case}");
    }
}

#[test]
fn a_march_captures_at_the_end_of_turn_t_plus_length_minus_one() {
    // B is neutral with 2; p sends 5 in turn `sent`. (road length, turn sent, capture turn)
    let cases = [(1, 0, 0), (1, 3, 3), (2, 0, 1), (3, 1, 3), (6, 2, 7)];
    for (length, sent, capture) in cases {
        let text = format!("3 forts:\nA 0 0 p 20\nB {length} 0 neutral 2\nZ 99 99 q 1\n1 roads:\nA B\n0 marches:\n");
        let mut g = game(&text, &["p", "q"]);
        let mut captures = Vec::new();
        for turn in 0..capture + 2 {
            let lines: &[&str] = if turn == sent { &["A B 5"] } else { &[] };
            let events = play(&mut g, &[lines]);
            captures.extend(events.captures.iter().map(|_| turn));
        }
        assert_eq!(captures, [capture], "case L={length} t={sent}");
        assert_eq!(fort(&g, "B"), owned("p", 3 + 2), "case L={length} t={sent}");
    }
}

// ---------------------------------------------------------------- battles

/// A battle as the tests see it: (turn, half-steps from A, (owner, size) of the march
/// heading to A, and of the one heading to B).
type Fight = (u32, u32, (Owner, u64), (Owner, u64));

/// Plays until turn `turns` with p sending `p_line` from A in `p_turn` and q sending
/// `q_line` from B in `q_turn`; returns every battle.
fn battles(
    g: &mut Game,
    turns: u32,
    (p_turn, p_line): (u32, &str),
    (q_turn, q_line): (u32, &str),
) -> Vec<Fight> {
    let mut out = Vec::new();
    for turn in 0..turns {
        let p: &[&str] = if turn == p_turn { &[p_line] } else { &[] };
        let q: &[&str] = if turn == q_turn { &[q_line] } else { &[] };
        let events = play(g, &[p, q]);
        out.extend(
            events
                .battles
                .iter()
                .map(|b| (turn, b.from_a, b.toward_a, b.toward_b)),
        );
    }
    out
}

#[test]
fn when_two_marches_meet_both_lose_the_smaller_size() {
    // Road of length 4, both sent in turn 0: they meet in turn 1 and the survivor has
    // 2 steps left at turn 2. (p's size, q's size, marches left at turn 2)
    let cases = [
        (10, 4, vec!["A B p 6 2"]),
        (4, 10, vec!["B A q 6 2"]),
        (7, 7, vec![]),
        (1, 1, vec![]),
        (0, 5, vec!["B A q 5 2"]),
        (5, 0, vec!["A B p 5 2"]),
        (0, 0, vec![]),
    ];
    for (p, q, left) in cases {
        let map = "2 forts:\nA 0 0 p 20\nB 4 0 q 20\n1 roads:\nA B\n0 marches:\n";
        let mut g = game(map, &["p", "q"]);
        let (ps, qs) = (seat("p", &g), seat("q", &g));
        let seen = battles(
            &mut g,
            2,
            (0, &format!("A B {p}")),
            (0, &format!("B A {q}")),
        );
        assert_eq!(seen, [(1, 4, (qs, q), (ps, p))], "case {p} vs {q}");
        assert_eq!(marches(&g), left, "case {p} vs {q}");
    }
}

#[test]
fn marches_sent_the_same_turn_from_both_ends_meet_in_the_middle() {
    // (road length, turn of the battle): they meet after L half-steps.
    let cases = [
        (1, 0),
        (2, 0),
        (3, 1),
        (4, 1),
        (5, 2),
        (6, 2),
        (7, 3),
        (10, 4),
    ];
    for (length, turn) in cases {
        let mut g = game(
            &format!("2 forts:\nA 0 0 p 20\nB {length} 0 q 20\n1 roads:\nA B\n0 marches:\n"),
            &["p", "q"],
        );
        let (ps, qs) = (seat("p", &g), seat("q", &g));
        let seen = battles(&mut g, length + 1, (0, "A B 5"), (0, "B A 3"));
        assert_eq!(seen, [(turn, length, (qs, 3), (ps, 5))], "case L={length}");
    }
}

#[test]
fn marches_sent_on_different_turns_meet_where_their_paths_cross() {
    // (road length, turn p sends A->B, turn q sends B->A, Some((battle turn, half-steps from A)))
    let cases = [
        (5, 0, 1, Some((2, 6))),
        (5, 0, 3, Some((3, 8))),
        (4, 2, 0, Some((2, 2))),
        (6, 1, 2, Some((4, 7))),
        (3, 0, 2, Some((2, 5))),
        (2, 0, 1, Some((1, 3))),
        (1, 0, 1, None),
        (2, 0, 2, None),
        (3, 4, 0, None),
    ];
    for (length, p_turn, q_turn, expected) in cases {
        let mut g = game(
            &format!("2 forts:\nA 0 0 p 20\nB {length} 0 q 20\n1 roads:\nA B\n0 marches:\n"),
            &["p", "q"],
        );
        let (ps, qs) = (seat("p", &g), seat("q", &g));
        let seen = battles(&mut g, 2 * length + 6, (p_turn, "A B 5"), (q_turn, "B A 3"));
        let expected: Vec<_> = expected
            .into_iter()
            .map(|(turn, from_a)| (turn, from_a, (qs, 3), (ps, 5)))
            .collect();
        assert_eq!(seen, expected, "case L={length} p@{p_turn} q@{q_turn}");
    }
}

#[test]
fn marches_of_the_same_owner_pass_through_each_other() {
    // p holds both ends and sends both ways in turn 0. (road length)
    let cases = [1, 2, 3, 4, 7];
    for length in cases {
        let mut g = game(&two_forts(length, "p"), &["p", "q"]);
        let mut fights = 0;
        let events = play(&mut g, &[&["A B 4", "B A 3"]]);
        fights += events.battles.len();
        for _ in 1..length {
            fights += g.step(&[]).battles.len();
        }
        assert_eq!(fights, 0, "case L={length}");
        assert_eq!(marches(&g), Vec::<String>::new(), "case L={length}");
        let turns = u64::from(length);
        assert_eq!(
            fort(&g, "A"),
            owned("p", 20 - 4 + 3 + turns),
            "case L={length}"
        );
        assert_eq!(
            fort(&g, "B"),
            owned("p", 20 - 3 + 4 + turns),
            "case L={length}"
        );
    }
}

#[test]
fn marches_in_the_same_direction_never_interact() {
    // p sends 3 from A toward B (length 5) in turn 0 and loses A to q the same turn;
    // q sends 11 from A toward B in turn 1. Both walk to B one behind the other.
    let map = "4 forts:\nA 0 0 p 3\nB 5 0 neutral 0\nC -1 0 q 10\nZ 99 99 r 1\n2 roads:\nA B\nC A\n0 marches:\n";
    let mut g = game(map, &["p", "q", "r"]);
    let mut fights = play(&mut g, &[&["A B 3"], &["C A 10"]]).battles.len();
    assert_eq!(fort(&g, "A"), owned("q", 11));
    fights += play(&mut g, &[&[], &["A B 11"]]).battles.len();
    assert_eq!(marches(&g), ["A B p 3 3", "A B q 11 4"]);
    let mut owners_of_b = Vec::new();
    for _ in 2..6 {
        fights += g.step(&[]).battles.len();
        owners_of_b.push(fort(&g, "B"));
    }
    assert_eq!(fights, 0);
    assert_eq!(
        owners_of_b,
        [
            owned("neutral", 0),
            owned("neutral", 0),
            owned("p", 4),
            owned("q", 8)
        ]
    );
}

#[test]
fn marches_on_different_roads_never_interact() {
    // Roads A-B and C-D cross on the plane; marches on them never meet.
    let map = "5 forts:\nA 0 0 p 9\nB 4 4 neutral 0\nC 0 4 q 9\nD 4 0 neutral 0\nZ 99 99 r 1\n2 roads:\nA B\nC D\n0 marches:\n";
    let mut g = game(map, &["p", "q", "r"]);
    let mut fights = play(&mut g, &[&["A B 5"], &["C D 5"]]).battles.len();
    for _ in 1..6 {
        fights += g.step(&[]).battles.len();
    }
    assert_eq!(fights, 0);
    assert_eq!(fort(&g, "B"), owned("p", 6));
    assert_eq!(fort(&g, "D"), owned("q", 6));
}

// ---------------------------------------------------------------- merging

#[test]
fn commands_from_one_fort_on_one_road_in_one_turn_merge_into_one_march() {
    // A (p, 10) with roads of length 3 to B and C. (turn 0 lines, turn 1 lines, marches at turn 2)
    let cases = [
        (vec!["A B 2", "A B 3"], vec![], vec!["A B p 5 1"]),
        (vec!["A B 2", "A B 3", "A B 1"], vec![], vec!["A B p 6 1"]),
        (vec!["A B 2"], vec!["A B 3"], vec!["A B p 2 1", "A B p 3 2"]),
        (
            vec!["A B 2", "A C 3"],
            vec![],
            vec!["A B p 2 1", "A C p 3 1"],
        ),
        (
            vec!["A B 2", "A C 3", "A B 4"],
            vec![],
            vec!["A B p 6 1", "A C p 3 1"],
        ),
        (vec!["A B 0", "A B 4"], vec![], vec!["A B p 4 1"]),
        (vec!["A B 0", "A B 0"], vec![], vec!["A B p 0 1"]),
    ];
    for (first, second, expected) in cases {
        let map = "4 forts:\nA 0 0 p 10\nB 3 0 neutral 0\nC 0 3 neutral 0\nZ 99 99 q 1\n2 roads:\nA B\nA C\n0 marches:\n";
        let mut g = game(map, &["p", "q"]);
        play(&mut g, &[&first]);
        play(&mut g, &[&second]);
        assert_eq!(marches(&g), expected, "case {first:?} then {second:?}");
    }
}
