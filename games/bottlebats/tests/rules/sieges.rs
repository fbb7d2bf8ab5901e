//! games/bottlebats/rules.md §4, sieges: the largest army minus the second largest holds the fort,
//! a tie keeps the previous owner with nothing, and armies add up per owner.
//!
//! The tables play one turn on a [`siege_game`]: P, Q and R (players p, q, r, 100
//! each) are one step from T, each sends what a case lists in turn 0, and everything
//! lands on T at the end of turn 0. A case gives T as it stands at turn 1, after the
//! recruitment of +1 when a player holds it.

use bottlebats::game::{Orders, TurnEvents};
use bottlebats::Game;

use crate::{fort, game, owned, play};

/// Forts P, Q, R of players p, q, r (100 each) one step from T (`owner`, `garrison`).
fn siege_game(owner: &str, garrison: u64) -> Game {
    let map = format!(
        "4 forts:\nP 1 0 p 100\nQ -1 0 q 100\nR 0 1 r 100\nT 0 0 {owner} {garrison}\n\
         3 roads:\nT P\nT Q\nT R\n0 marches:\n"
    );
    game(&map, &["p", "q", "r"])
}

/// Plays a turn of a [`siege_game`] in which p, q and r send `sizes` from P, Q and R
/// to T; a size of 0 sends nothing.
fn siege_turn(g: &mut Game, sizes: [u64; 3]) -> TurnEvents {
    let orders: Vec<Orders> = ["P", "Q", "R"]
        .into_iter()
        .zip(sizes)
        .map(|(from, n)| {
            if n == 0 {
                Orders::none()
            } else {
                Orders::Commands(vec![format!("{from} T {n}")])
            }
        })
        .collect();
    g.step(&orders)
}

#[test]
fn a_siege_leaves_the_largest_army_minus_the_second_largest() {
    // (case, T's owner, T's garrison, sizes sent by p, q, r, T at turn 1)
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
        siege_turn(&mut g, sizes);
        assert_eq!(fort(&g, "T"), after, "case {name}");
    }
}

#[test]
fn marches_of_the_forts_owner_join_its_garrison() {
    // (case, T's owner, T's garrison, sizes sent by p, q, r, T at turn 1)
    let cases = [
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
    ];
    for (name, owner, garrison, sizes, after) in cases {
        let mut g = siege_game(owner, garrison);
        siege_turn(&mut g, sizes);
        assert_eq!(fort(&g, "T"), after, "case {name}");
    }
}

#[test]
fn a_tie_at_a_siege_keeps_the_previous_owner_with_zero() {
    // (T's owner, T's garrison, sizes sent by p, q, r, T at turn 1)
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
        let events = siege_turn(&mut g, sizes);
        assert_eq!(fort(&g, "T"), after, "case {owner} {garrison} vs {sizes:?}");
        assert_eq!(events.captures, [], "case {owner} {garrison} vs {sizes:?}");
    }
}

#[test]
fn armies_arriving_on_different_roads_add_up() {
    // p sends 4 from P and 4 from S; q sends 7 from Q; all land on T (neutral 0).
    let map = "4 forts:\nP 1 0 p 10\nQ -1 0 q 10\nS 0 1 p 10\nT 0 0 neutral 0\n3 roads:\nT P\nT Q\nT S\n0 marches:\n";
    let mut g = game(map, &["p", "q"]);
    play(&mut g, &[&["P T 4", "S T 4"], &["Q T 7"]]);
    assert_eq!(fort(&g, "T"), owned("p", 2));
}
