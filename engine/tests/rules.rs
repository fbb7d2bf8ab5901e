//! The game rules of docs/rules.md §1–§6, point by point, as tables of small games.
//!
//! Each test builds a tiny map in the text format, plays a few turns through
//! `Game::step` and checks what a player would notice: the state text, fort owners and
//! garrisons, the events of a turn, removals and the final outcome. Sections:
//! §1 road lengths; §2 seats and map marches; §4 timing, battles, merges and sieges;
//! §3 dispatch order and recruitment; §5 command warnings, clamping and size-0 marches;
//! §6 defeat, removal, game end and ranks.

use std::sync::Arc;

use engine::game::{Orders, RemovalReason, TurnEvents};
use engine::map::{road_length, Map, Owner, Seat};
use engine::Game;

// ---------------------------------------------------------------- helpers

/// A game on `map_text` (the map text format) with these players, 500 turns at most.
fn game(map_text: &str, players: &[&str]) -> Game {
    game_with_max_steps(map_text, players, 500)
}

fn game_with_max_steps(map_text: &str, players: &[&str], max_steps: u32) -> Game {
    let map =
        Map::parse(map_text).unwrap_or_else(|e| panic!("test map does not parse: {e}\n{map_text}"));
    let players: Vec<String> = players.iter().map(|p| p.to_string()).collect();
    Game::new(Arc::new(map), &players, max_steps).expect("the players fit the map")
}

/// Orders made of these command lines.
fn cmds(lines: &[&str]) -> Orders {
    Orders::Commands(lines.iter().map(|l| l.to_string()).collect())
}

/// Plays one turn in which player i sends the lines `per_player[i]`.
fn play(game: &mut Game, per_player: &[&[&str]]) -> TurnEvents {
    let orders: Vec<Orders> = per_player.iter().map(|lines| cmds(lines)).collect();
    game.step(&orders)
}

/// Plays `turns` turns in which nobody sends anything.
fn idle(game: &mut Game, turns: u32) {
    for _ in 0..turns {
        game.step(&[]);
    }
}

/// The full board as the classic log prints it.
fn full(game: &Game) -> String {
    let mut out = String::new();
    game.snapshot().write(None, &mut out);
    out
}

/// The march lines of the full board.
fn marches(game: &Game) -> Vec<String> {
    let text = full(game);
    let mut lines = text.lines().skip_while(|l| !l.ends_with("marches:"));
    lines.next();
    lines.map(str::to_string).collect()
}

/// The owner's name and the garrison of a fort.
fn fort(game: &Game, name: &str) -> (String, u64) {
    let id = game
        .map()
        .fort_id(name)
        .unwrap_or_else(|| panic!("no fort {name}"));
    (
        game.owner_name(game.owners()[id.0]).to_string(),
        game.garrisons()[id.0],
    )
}

fn owned(owner: &str, garrison: u64) -> (String, u64) {
    (owner.to_string(), garrison)
}

fn seat(name: &str, game: &Game) -> Owner {
    let i = game
        .names()
        .iter()
        .position(|n| n == name)
        .expect("a player");
    Owner::Seat(Seat(i))
}

/// The turn each player was removed in, `None` for those still playing.
fn removed_turns(game: &Game) -> Vec<Option<u32>> {
    game.players()
        .iter()
        .map(|p| p.removed.as_ref().map(|(t, _)| *t))
        .collect()
}

fn strings(lines: &[&str]) -> Vec<String> {
    lines.iter().map(|l| l.to_string()).collect()
}

/// Forts A (p, 20) and B (`b_owner`, 20) joined by a road of `length`, and a fort Z of
/// q with no road (so q stays in the game without taking part).
fn two_forts(length: u32, b_owner: &str) -> String {
    format!(
        "3 forts:\nA 0 0 p 20\nB {length} 0 {b_owner} 20\nZ 99 99 q 1\n1 roads:\nA B\n0 marches:\n"
    )
}

// ---------------------------------------------------------------- §1 the board

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

// ---------------------------------------------------------------- §2 seats and map marches

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

// ---------------------------------------------------------------- §4 timing

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

// ---------------------------------------------------------------- §4 battles

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

// ---------------------------------------------------------------- §4 merges

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

// ---------------------------------------------------------------- §3 dispatch order

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

// ---------------------------------------------------------------- §5 commands

#[test]
fn a_size_above_the_garrison_is_clamped_to_it_with_a_warning() {
    // Road A-B has length 2. (A's garrison, line, march at turn 1, warned)
    let cases = [
        (10, "A B 10", "A B p 10 1", false),
        (10, "A B 11", "A B p 10 1", true),
        (10, "A B 99999999999999999999999999999", "A B p 10 1", true),
        (0, "A B 1", "A B p 0 1", true),
        (3, "A B +3", "A B p 3 1", false),
        (3, "A B 007", "A B p 3 1", true),
    ];
    for (garrison, line, shown, warned) in cases {
        let map = format!("2 forts:\nA 0 0 p {garrison}\nB 2 0 q 5\n1 roads:\nA B\n0 marches:\n");
        let mut g = game(&map, &["p", "q"]);
        let events = play(&mut g, &[&[line]]);
        assert_eq!(marches(&g), [shown], "case {line} from {garrison}");
        assert_eq!(fort(&g, "A"), owned("p", 1), "case {line} from {garrison}");
        assert_eq!(
            !events.warnings.is_empty(),
            warned,
            "case {line} from {garrison}"
        );
        if warned {
            assert!(
                events.warnings[0].1.contains(line),
                "case {line}: {:?}",
                events.warnings
            );
        }
    }
}

#[test]
fn bad_command_lines_are_ignored_with_a_warning_that_names_the_problem() {
    // A (p) - B (q) and A - N (neutral); C is a fort with no road to A.
    let map = "4 forts:\nA 0 0 p 10\nB 1 0 q 10\nN 0 1 neutral 5\nC 50 50 neutral 0\n2 roads:\nA B\nA N\n0 marches:\n";
    // (line, words the warning must contain)
    let cases = [
        ("A", "has 1 fields"),
        ("A B", "has 2 fields"),
        ("A B 1 2", "has 4 fields"),
        ("A B 1 # soon", "has 5 fields"),
        ("A X 1", "no fort `X`"),
        ("X B 1", "no fort `X`"),
        ("a B 1", "no fort `a`"),
        ("A B 1.5", "`1.5` is not an integer"),
        ("A B ten", "`ten` is not an integer"),
        ("A B 1e3", "`1e3` is not an integer"),
        ("A B -", "`-` is not an integer"),
        ("A C 1", "no road between `A` and `C`"),
        ("A A 1", "no road between `A` and `A`"),
        ("A B -1", "negative"),
        ("A N -5", "negative"),
        ("B A 1", "do not own `B`"),
        ("N A 1", "do not own `N`"),
    ];
    for (line, why) in cases {
        let mut g = game(map, &["p", "q"]);
        let events = play(&mut g, &[&[line]]);
        let warnings: Vec<_> = events
            .warnings
            .iter()
            .map(|(s, w)| (s.0, w.as_str()))
            .collect();
        assert_eq!(warnings.len(), 1, "case {line:?}: {warnings:?}");
        assert_eq!(warnings[0].0, 0, "case {line:?}");
        assert!(
            warnings[0].1.contains(why),
            "case {line:?}: {:?} lacks {why:?}",
            warnings[0].1
        );
        // Nothing was dispatched, and a warning is never fatal.
        assert_eq!(marches(&g), Vec::<String>::new(), "case {line:?}");
        assert_eq!(fort(&g, "A"), owned("p", 11), "case {line:?}");
        assert_eq!(removed_turns(&g), [None, None], "case {line:?}");
    }
}

#[test]
fn identical_warnings_are_reported_once_per_game_per_player() {
    let map = "2 forts:\nA 0 0 p 10\nB 1 0 q 10\n1 roads:\nA B\n0 marches:\n";
    let mut g = game(map, &["p", "q"]);
    // (p's lines, q's lines, (seat, line) of the warnings reported that turn)
    type Turn<'a> = (&'a [&'a str], &'a [&'a str], &'a [(usize, &'a str)]);
    let turns: [Turn; 4] = [
        (&["X A 1"], &["X A 1"], &[(0, "X A 1"), (1, "X A 1")]),
        (&["X A 1", "X A 1"], &["X A 1"], &[]),
        (&["X A 2", "X A 1"], &[], &[(0, "X A 2")]),
        (
            &["A B 999"],
            &["B A 999", "B A 999"],
            &[(0, "A B 999"), (1, "B A 999")],
        ),
    ];
    for (turn, (p, q, reported)) in turns.into_iter().enumerate() {
        let events = play(&mut g, &[p, q]);
        let got: Vec<(usize, &str)> = events
            .warnings
            .iter()
            .map(|(s, w)| (s.0, w.split('`').nth(1).unwrap_or_default()))
            .collect();
        assert_eq!(got, reported, "turn {turn}");
    }
    // Every occurrence still counts.
    let counts: Vec<u64> = g.players().iter().map(|p| p.warnings).collect();
    assert_eq!(counts, [6, 4]);
}

#[test]
fn a_zero_size_march_is_accepted_and_shown_in_states() {
    let map = "2 forts:\nA 0 0 p 10\nB 3 0 q 10\n1 roads:\nA B\n0 marches:\n";
    let mut g = game(map, &["p", "q"]);
    let events = play(&mut g, &[&["A B 0"]]);
    assert_eq!(events.warnings, []);
    assert_eq!(fort(&g, "A"), owned("p", 11));
    let p_state = g.state_for(Seat(0));
    let q_state = g.state_for(Seat(1));
    assert!(p_state.ends_with("1 marches:\nA B p 0 2\n"), "{p_state}");
    assert!(q_state.ends_with("1 marches:\nA B p 0 2\n"), "{q_state}");
}

#[test]
fn a_zero_size_march_cannot_capture() {
    // p's 0 lands on B (road length 1). (B's owner and garrison, q's lines that turn, B after)
    let cases = [
        ("neutral 0", vec![], owned("neutral", 0)),
        ("neutral 3", vec![], owned("neutral", 3)),
        // q empties B the same turn: 0 against 0 is a tie, and q keeps B (+1).
        ("q 4", vec!["B C 4"], owned("q", 1)),
        ("q 4", vec![], owned("q", 5)),
    ];
    for (b, q_lines, after) in cases {
        let map =
            format!("3 forts:\nA 0 0 p 10\nB 1 0 {b}\nC 2 0 q 1\n2 roads:\nA B\nB C\n0 marches:\n");
        let mut g = game(&map, &["p", "q"]);
        let events = play(&mut g, &[&["A B 0"], &q_lines]);
        assert_eq!(events.captures, [], "case {b}");
        assert_eq!(fort(&g, "B"), after, "case {b} {q_lines:?}");
    }
}

// ---------------------------------------------------------------- §4 sieges

#[test]
fn a_siege_leaves_the_largest_army_minus_the_second_largest() {
    // P, Q, R (players p, q, r, 100 each) are one step from T. Each sends what is listed
    // in turn 0; everything lands on T at the end of turn 0.
    // (T's owner, T's garrison, [(p, q, r) sizes], T at turn 1 after +1 for a player)
    let cases = [
        (
            "checked: p beats q and r",
            "neutral",
            5,
            [10, 8, 3],
            owned("p", 3),
        ),
        (
            "checked: tie at neutral",
            "neutral",
            5,
            [9, 9, 0],
            owned("neutral", 0),
        ),
        (
            "checked: neutral holds",
            "neutral",
            5,
            [4, 0, 0],
            owned("neutral", 1),
        ),
        (
            "neutral is largest",
            "neutral",
            10,
            [4, 4, 0],
            owned("neutral", 6),
        ),
        ("capture from a player", "q", 2, [5, 0, 0], owned("p", 4)),
        ("second place tied", "neutral", 3, [5, 3, 0], owned("p", 3)),
        (
            "a lone attacker wins by one",
            "neutral",
            7,
            [8, 0, 0],
            owned("p", 2),
        ),
        (
            "owner's reinforcements join",
            "p",
            5,
            [3, 7, 0],
            owned("p", 2),
        ),
        (
            "owner's reinforcements alone",
            "p",
            5,
            [3, 0, 0],
            owned("p", 9),
        ),
        (
            "all lose to a big garrison",
            "q",
            20,
            [6, 0, 7],
            owned("q", 14),
        ),
        (
            "defenders of a player fort",
            "r",
            1,
            [3, 2, 0],
            owned("p", 2),
        ),
    ];
    for (name, owner, garrison, sizes, after) in cases {
        let mut g = siege_game(owner, garrison);
        let lines: Vec<Vec<String>> = ["P", "Q", "R"]
            .into_iter()
            .zip(sizes)
            .map(|(from, n)| {
                if n == 0 {
                    vec![]
                } else {
                    vec![format!("{from} T {n}")]
                }
            })
            .collect();
        g.step(&lines.into_iter().map(Orders::Commands).collect::<Vec<_>>());
        assert_eq!(fort(&g, "T"), after, "case {name}");
    }
}

#[test]
fn a_tie_at_a_siege_keeps_the_previous_owner_with_zero() {
    // (T's owner, T's garrison, sizes sent by p, q, r, T at turn 1 after +1 for a player)
    let cases = [
        ("neutral", 5, [9, 9, 0], owned("neutral", 0)),
        ("neutral", 0, [4, 4, 4], owned("neutral", 0)),
        ("neutral", 2, [6, 6, 1], owned("neutral", 0)),
        ("neutral", 6, [6, 0, 0], owned("neutral", 0)),
        ("q", 3, [3, 0, 0], owned("q", 1)),
        // The owner had the smallest army and still keeps it.
        ("p", 1, [0, 6, 6], owned("p", 1)),
        ("r", 0, [5, 5, 0], owned("r", 1)),
    ];
    for (owner, garrison, sizes, after) in cases {
        let mut g = siege_game(owner, garrison);
        let lines: Vec<Vec<String>> = ["P", "Q", "R"]
            .into_iter()
            .zip(sizes)
            .map(|(from, n)| {
                if n == 0 {
                    vec![]
                } else {
                    vec![format!("{from} T {n}")]
                }
            })
            .collect();
        let events = g.step(&lines.into_iter().map(Orders::Commands).collect::<Vec<_>>());
        assert_eq!(fort(&g, "T"), after, "case {owner} {garrison} vs {sizes:?}");
        assert_eq!(events.captures, [], "case {owner} {garrison} vs {sizes:?}");
    }
}

/// Forts P, Q, R of players p, q, r (100 each) one step from T (`owner`, `garrison`).
fn siege_game(owner: &str, garrison: u64) -> Game {
    let map = format!(
        "4 forts:\nP 1 0 p 100\nQ -1 0 q 100\nR 0 1 r 100\nT 0 0 {owner} {garrison}\n\
         3 roads:\nT P\nT Q\nT R\n0 marches:\n"
    );
    game(&map, &["p", "q", "r"])
}

#[test]
fn armies_arriving_on_different_roads_add_up() {
    // p sends 4 from P and 4 from S; q sends 7 from Q; all land on T (neutral 0).
    let map = "4 forts:\nP 1 0 p 10\nQ -1 0 q 10\nS 0 1 p 10\nT 0 0 neutral 0\n3 roads:\nT P\nT Q\nT S\n0 marches:\n";
    let mut g = game(map, &["p", "q"]);
    play(&mut g, &[&["P T 4", "S T 4"], &["Q T 7"]]);
    assert_eq!(fort(&g, "T"), owned("p", 2));
}

// ---------------------------------------------------------------- §3 recruitment

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

// ---------------------------------------------------------------- §6 defeat and removal

#[test]
fn a_player_with_no_fort_and_no_march_is_defeated() {
    // q takes p's only fort A at the end of turn 0 (road length 1). p may have sent a
    // march toward C (road length 3) first. (p's lines in turn 0, turn p is removed in)
    let cases = [
        (vec![], 0),
        (vec!["A C 0"], 2),
        (vec!["A C 1"], 2),
        (vec!["A C 0", "A C 2"], 2),
    ];
    for (lines, turn) in cases {
        let map = "4 forts:\nA 0 0 p 2\nB 1 0 q 50\nC -3 0 neutral 9\nZ 99 99 r 1\n2 roads:\nA B\nA C\n0 marches:\n";
        let mut g = game(map, &["p", "q", "r"]);
        play(&mut g, &[&lines, &["B A 40"]]);
        assert_eq!(fort(&g, "A").0, "q", "case {lines:?}");
        idle(&mut g, 4);
        assert_eq!(
            removed_turns(&g),
            [Some(turn), None, None],
            "case {lines:?}"
        );
        assert_eq!(
            g.players()[0].removed.as_ref().map(|r| r.1.clone()),
            Some(RemovalReason::Defeated),
            "case {lines:?}"
        );
    }
}

#[test]
fn a_zero_size_march_keeps_a_player_alive_until_it_lands() {
    let map = "4 forts:\nA 0 0 p 0\nB 1 0 q 50\nC -3 0 neutral 9\nZ 99 99 r 1\n2 roads:\nA B\nA C\n0 marches:\n";
    let mut g = game(map, &["p", "q", "r"]);
    let mut removals = Vec::new();
    removals.push(play(&mut g, &[&["A C 0"], &["B A 40"]]).removals);
    assert_eq!(g.state_for(Seat(0)), "0 forts:\n0 roads:\n0 marches:\n");
    assert_eq!(marches(&g), ["A C p 0 2"]);
    for _ in 1..4 {
        removals.push(g.step(&[]).removals);
    }
    assert_eq!(
        removals,
        [
            vec![],
            vec![],
            vec![(Seat(0), RemovalReason::Defeated)],
            vec![]
        ]
    );
}

#[test]
fn a_fatal_error_removes_the_player_that_turn_and_its_orders_are_dropped() {
    let map = "3 forts:\nA 0 0 p 10\nB 3 0 q 10\nZ 99 99 r 1\n1 roads:\nA B\n0 marches:\n";
    let mut g = game(map, &["p", "q", "r"]);
    let events = g.step(&[
        Orders::none(),
        Orders::Fatal("3 lines promised, 1 sent".into()),
        cmds(&[]),
    ]);
    assert_eq!(
        events.removals,
        [(
            Seat(1),
            RemovalReason::Fatal("3 lines promised, 1 sent".into())
        )]
    );
    assert_eq!(removed_turns(&g), [None, Some(0), None]);
    // Orders from a removed player are ignored from then on.
    let events = play(&mut g, &[&[], &["B A 5", "nowhere A 1"], &[]]);
    assert_eq!(events.warnings, []);
    assert_eq!(marches(&g), Vec::<String>::new());
    assert_eq!(fort(&g, "B"), owned("q", 12));
}

#[test]
fn players_removed_in_one_turn_are_listed_in_seat_order() {
    let map = "4 forts:\nA 0 0 p 1\nB 9 9 q 1\nC 20 20 r 1\nD 30 30 s 1\n0 roads:\n0 marches:\n";
    let mut g = game(map, &["p", "q", "r", "s"]);
    let events = g.step(&[
        Orders::none(),
        Orders::Fatal("late".into()),
        Orders::none(),
        Orders::Fatal("garbage".into()),
    ]);
    let seats: Vec<usize> = events.removals.iter().map(|(s, _)| s.0).collect();
    assert_eq!(seats, [1, 3]);
}

// ---------------------------------------------------------------- §6 game end and ranks

#[test]
fn the_game_ends_after_max_steps_or_when_at_most_one_player_is_left() {
    // Four players on isolated forts. (max_steps, turn each player has a fatal error,
    // turns played, winner, ranks)
    let cases = [
        (
            "max_steps reached",
            3,
            [None, None, None, None],
            3,
            None,
            [1, 1, 1, 1],
        ),
        (
            "one left",
            10,
            [None, Some(1), Some(0), Some(0)],
            2,
            Some(0),
            [1, 2, 3, 3],
        ),
        (
            "removal order",
            10,
            [Some(2), None, Some(0), Some(1)],
            3,
            Some(1),
            [2, 1, 4, 3],
        ),
        (
            "all in one turn",
            10,
            [Some(4), Some(4), Some(4), Some(4)],
            5,
            None,
            [1, 1, 1, 1],
        ),
        (
            "two left at the end",
            3,
            [None, None, Some(1), None],
            3,
            None,
            [1, 1, 4, 1],
        ),
        (
            "last two fall together",
            10,
            [Some(3), Some(3), Some(1), Some(0)],
            4,
            None,
            [1, 1, 3, 4],
        ),
        (
            "one left at max_steps",
            2,
            [None, Some(1), Some(1), Some(1)],
            2,
            Some(0),
            [1, 2, 2, 2],
        ),
        (
            "no turn at all",
            0,
            [None, None, None, None],
            0,
            None,
            [1, 1, 1, 1],
        ),
    ];
    for (name, max_steps, fatal, turns, winner, ranks) in cases {
        let map =
            "4 forts:\nA 0 0 p 1\nB 9 9 q 1\nC 20 20 r 1\nD 30 30 s 1\n0 roads:\n0 marches:\n";
        let mut g = game_with_max_steps(map, &["p", "q", "r", "s"], max_steps);
        while !g.is_over() {
            let turn = g.turn();
            let orders: Vec<Orders> = fatal
                .iter()
                .map(|f| {
                    if *f == Some(turn) {
                        Orders::Fatal("bad".into())
                    } else {
                        Orders::none()
                    }
                })
                .collect();
            g.step(&orders);
            assert!(
                g.turn() <= turns,
                "case {name}: still going at turn {}",
                g.turn()
            );
        }
        assert_eq!(g.turn(), turns, "case {name}");
        let outcome = g.outcome();
        assert_eq!(outcome.winner, winner.map(Seat), "case {name}");
        assert_eq!(outcome.ranks, ranks, "case {name}");
    }
}

#[test]
fn a_draw_when_the_last_players_are_defeated_in_the_same_turn() {
    // Seat r is unbound, so N and its marches are neutral; they take A and B at once.
    let map = "3 forts:\nA 0 0 p 0\nB 2 0 q 0\nN 1 0 r 10\n2 roads:\nN A\nN B\n2 marches:\nN A r 5 0\nN B r 5 0\n";
    let mut g = game(map, &["p", "q"]);
    assert!(!g.is_over());
    let events = g.step(&[]);
    assert_eq!(
        events.removals,
        [
            (Seat(0), RemovalReason::Defeated),
            (Seat(1), RemovalReason::Defeated)
        ]
    );
    assert!(g.is_over());
    let outcome = g.outcome();
    assert_eq!(outcome.winner, None);
    assert_eq!(outcome.ranks, [1, 1]);
    assert_eq!(fort(&g, "A"), owned("neutral", 5));
}

#[test]
fn the_winner_is_the_last_player_standing_after_a_capture() {
    let map = "2 forts:\nA 0 0 p 30\nB 2 0 q 3\n1 roads:\nA B\n0 marches:\n";
    let mut g = game(map, &["p", "q"]);
    play(&mut g, &[&["A B 20"]]);
    assert!(!g.is_over());
    let events = g.step(&[]);
    assert_eq!(events.removals, [(Seat(1), RemovalReason::Defeated)]);
    assert!(g.is_over());
    assert_eq!(g.turn(), 2);
    let outcome = g.outcome();
    assert_eq!(outcome.winner, Some(Seat(0)));
    assert_eq!(outcome.ranks, [1, 2]);
}
