//! games/bottlebats/rules.md §6, defeat, winner and ranks: who is removed and when, when the game
//! ends, and how the players rank.

use bottlebats::game::{Orders, RemovalReason};
use bottlebats::map::Seat;

use crate::{cmds, fort, game, game_with_max_steps, idle, marches, owned, play, removed_turns};

// ---------------------------------------------------------------- defeat and removal

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

// ---------------------------------------------------------------- game end and ranks

/// How a game of four players on isolated forts ends: (case, max_steps, the turn in
/// which each of p, q, r, s has a fatal error, turns played, winner, ranks).
type Ending = (
    &'static str,
    u32,
    [Option<u32>; 4],
    u32,
    Option<usize>,
    [u32; 4],
);

/// Plays an [`Ending`] to its end, checking the turns played, the winner and the ranks.
fn assert_ending((name, max_steps, fatal, turns, winner, ranks): Ending) {
    let map = "4 forts:\nA 0 0 p 1\nB 9 9 q 1\nC 20 20 r 1\nD 30 30 s 1\n0 roads:\n0 marches:\n";
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

#[test]
fn the_game_ends_after_max_steps() {
    let cases: [Ending; 4] = [
        (
            "max_steps reached",
            3,
            [None, None, None, None],
            3,
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
    for case in cases {
        assert_ending(case);
    }
}

#[test]
fn the_game_ends_when_at_most_one_player_is_left() {
    let cases: [Ending; 4] = [
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
            "last two fall together",
            10,
            [Some(3), Some(3), Some(1), Some(0)],
            4,
            None,
            [1, 1, 3, 4],
        ),
    ];
    for case in cases {
        assert_ending(case);
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
