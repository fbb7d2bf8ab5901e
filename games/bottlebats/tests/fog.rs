//! Fog of war and the state text (games/bottlebats/rules.md §5, and the full snapshot of §8).
//!
//! A player sees every road touching a fort it owns, the forts at both ends of those
//! roads (with owner and garrison) and every march on them in both directions; a player
//! owning no fort gets three empty sections. The order is deterministic: forts and roads
//! in map order, road endpoints as the map wrote them, marches grouped by road in map
//! order, heading to the road's first fort and then to its second, each by increasing
//! remaining steps. The full snapshot shows every fort that has a road, every road and
//! every march. Every test compares whole texts.

use std::sync::Arc;

use bottlebats::game::Orders;
use bottlebats::map::{Map, Seat};
use bottlebats::Game;

fn game(map_text: &str, players: &[&str]) -> Game {
    let map =
        Map::parse(map_text).unwrap_or_else(|e| panic!("test map does not parse: {e}\n{map_text}"));
    let players: Vec<String> = players.iter().map(|p| p.to_string()).collect();
    Game::new(Arc::new(map), &players, 500).expect("the players fit the map")
}

fn full(game: &Game) -> String {
    let mut out = String::new();
    game.snapshot().write(None, &mut out);
    out
}

/// `lines` as the engine prints them: each line ending in a newline, indentation gone.
fn text(lines: &str) -> String {
    lines
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|l| format!("{l}\n"))
        .collect()
}

/// Seats p (alice) and q (bob). F has no road. Roads are written with their endpoints
/// out of fort order, and the marches out of the printed order.
const MAP: &str = "
    6 forts:
    A 0 0 p 10
    B 3 0 q 20
    C 3 4 neutral 5
    D 0 4 p 7
    E 10 10 q 1
    F 20 20 neutral 0
    5 roads:
    B A
    C B
    D C
    E C
    A D
    7 marches:
    A B p 2 3
    E C q 1 5
    A B p 1 1
    A D p 1 3
    B A q 4 1
    B C q 3 0
    D A p 2 2
";

#[test]
fn a_player_sees_the_roads_at_its_forts_the_forts_at_their_ends_and_all_marches_on_them() {
    let cases = [
        (
            "alice",
            Seat(0),
            "
            4 forts:
            A 0 0 alice 6
            B 3 0 bob 13
            C 3 4 neutral 5
            D 0 4 alice 5
            3 roads:
            B A
            D C
            A D
            5 marches:
            A B alice 1 1
            A B alice 2 3
            B A bob 4 1
            D A alice 2 2
            A D alice 1 3
            ",
        ),
        (
            "bob",
            Seat(1),
            "
            4 forts:
            A 0 0 alice 6
            B 3 0 bob 13
            C 3 4 neutral 5
            E 10 10 bob 0
            3 roads:
            B A
            C B
            E C
            5 marches:
            A B alice 1 1
            A B alice 2 3
            B A bob 4 1
            B C bob 3 4
            E C bob 1 5
            ",
        ),
    ];
    let g = game(MAP, &["alice", "bob"]);
    for (name, seat, expected) in cases {
        assert_eq!(g.state_for(seat), text(expected), "case {name}");
    }
}

#[test]
fn the_full_snapshot_shows_every_fort_with_a_road_every_road_and_every_march() {
    let g = game(MAP, &["alice", "bob"]);
    let expected = "
        5 forts:
        A 0 0 alice 6
        B 3 0 bob 13
        C 3 4 neutral 5
        D 0 4 alice 5
        E 10 10 bob 0
        5 roads:
        B A
        C B
        D C
        E C
        A D
        7 marches:
        A B alice 1 1
        A B alice 2 3
        B A bob 4 1
        B C bob 3 4
        E C bob 1 5
        D A alice 2 2
        A D alice 1 3
    ";
    assert_eq!(full(&g), text(expected));
}

#[test]
fn marches_are_listed_by_road_then_direction_then_remaining_steps() {
    // Road "B A" has B as its first fort: marches heading to B come first.
    let map = "
        3 forts:
        A 0 0 p 100
        B 5 0 q 100
        C 0 5 p 100
        2 roads:
        B A
        A C
        8 marches:
        A C p 7 3
        B A q 9 4
        A B p 3 4
        C A p 8 0
        A B p 1 2
        B A q 2 2
        A B p 2 5
        A C p 6 1
    ";
    let expected = "
        3 forts:
        A 0 0 p 81
        B 5 0 q 89
        C 0 5 p 92
        2 roads:
        B A
        A C
        8 marches:
        A B p 1 2
        A B p 3 4
        A B p 2 5
        B A q 2 2
        B A q 9 4
        C A p 8 5
        A C p 6 1
        A C p 7 3
    ";
    let g = game(map, &["p", "q"]);
    assert_eq!(full(&g), text(expected));
    assert_eq!(g.state_for(Seat(0)), text(expected));
    let for_q: String = text(expected)
        .lines()
        .filter(|l| !l.starts_with("C ") && !l.starts_with("A C"))
        .map(|l| format!("{l}\n"))
        .collect::<String>()
        .replace("3 forts:", "2 forts:")
        .replace("2 roads:", "1 roads:")
        .replace("8 marches:", "5 marches:");
    assert_eq!(g.state_for(Seat(1)), for_q);
}

#[test]
fn a_player_owning_no_fort_gets_three_empty_sections() {
    // q takes alice's only fort A at the end of turn 0, while her march walks to C.
    let map = "
        4 forts:
        A 0 0 p 5
        B 1 0 q 50
        C -3 0 neutral 9
        Z 99 99 r 1
        2 roads:
        A B
        A C
        0 marches:
    ";
    let mut g = game(map, &["alice", "bob", "carol"]);
    g.step(&[
        Orders::Commands(vec!["A C 5".into()]),
        Orders::Commands(vec!["B A 40".into()]),
    ]);
    let empty = "0 forts:\n0 roads:\n0 marches:\n";
    assert_eq!(g.state_for(Seat(0)), empty);
    // Carol's only fort has no road: she sees nothing either.
    assert_eq!(g.state_for(Seat(2)), empty);
    // Alice's march is still on the board, and bob sees it.
    let expected_bob = "
        3 forts:
        A 0 0 bob 41
        B 1 0 bob 11
        C -3 0 neutral 9
        2 roads:
        A B
        A C
        1 marches:
        A C alice 5 2
    ";
    assert_eq!(g.state_for(Seat(1)), text(expected_bob));
}

#[test]
fn what_a_player_sees_follows_the_forts_it_owns_each_turn() {
    // p takes C (road D-C, length 3) at the end of turn 2 and then sees road E C.
    let map = "
        5 forts:
        A 0 0 p 1
        B 3 0 q 20
        C 3 4 neutral 1
        D 0 4 p 30
        E 10 10 q 1
        3 roads:
        A B
        D C
        E C
        0 marches:
    ";
    let mut g = game(map, &["p", "q"]);
    let mut seen = vec![g.state_for(Seat(0))];
    g.step(&[Orders::Commands(vec!["D C 10".into()])]);
    seen.push(g.state_for(Seat(0)));
    g.step(&[]);
    g.step(&[]);
    seen.push(g.state_for(Seat(0)));
    let expected = [
        text(
            "
            4 forts:
            A 0 0 p 1
            B 3 0 q 20
            C 3 4 neutral 1
            D 0 4 p 30
            2 roads:
            A B
            D C
            0 marches:
            ",
        ),
        text(
            "
            4 forts:
            A 0 0 p 2
            B 3 0 q 21
            C 3 4 neutral 1
            D 0 4 p 21
            2 roads:
            A B
            D C
            1 marches:
            D C p 10 2
            ",
        ),
        text(
            "
            5 forts:
            A 0 0 p 4
            B 3 0 q 23
            C 3 4 p 10
            D 0 4 p 23
            E 10 10 q 4
            3 roads:
            A B
            D C
            E C
            0 marches:
            ",
        ),
    ];
    assert_eq!(seen, expected);
}

#[test]
fn a_removed_players_forts_and_marches_stay_on_the_board_under_its_name() {
    let map = "
        3 forts:
        A 0 0 p 10
        B 4 0 q 10
        Z 99 99 r 1
        1 roads:
        A B
        0 marches:
    ";
    let mut g = game(map, &["alice", "bob", "carol"]);
    g.step(&[Orders::Commands(vec!["A B 3".into()])]);
    g.step(&[Orders::Fatal("no reply".into())]);
    let expected = "
        2 forts:
        A 0 0 alice 9
        B 4 0 bob 12
        1 roads:
        A B
        1 marches:
        A B alice 3 2
    ";
    assert_eq!(full(&g), text(expected));
    assert_eq!(g.state_for(Seat(1)), text(expected));
}
