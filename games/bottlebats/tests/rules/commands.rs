//! games/bottlebats/rules.md §5, commands: bad lines are ignored with a warning naming the problem,
//! sizes above the garrison are clamped, warnings are reported once, and size-0 marches
//! are allowed but capture nothing.

use bottlebats::map::Seat;

use crate::{fort, game, marches, owned, play, removed_turns};

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

#[test]
fn a_flood_of_distinct_bad_lines_reports_the_first_hundred_texts_cut_short() {
    use bottlebats::game::{MAX_REPORTED, MAX_WARNING_BYTES};
    let map = "2 forts:\nA 0 0 p 10\nB 2 0 q 5\n1 roads:\nA B\n0 marches:\n";
    let mut g = game(map, &["p", "q"]);
    // 70 distinct bad lines a turn, one of them 10 KB long, for three turns.
    let mut reported = 0;
    for turn in 0..3 {
        let mut lines: Vec<String> = (0..69).map(|i| format!("X{turn}_{i} A 1")).collect();
        lines.push(format!("{} A 1", "é".repeat(5000) + &turn.to_string()));
        let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
        let events = play(&mut g, &[&refs]);
        for (_, text) in &events.warnings {
            assert!(text.len() <= MAX_WARNING_BYTES, "{} bytes", text.len());
        }
        reported += events.warnings.len();
        if turn == 0 {
            let long = events.warnings.iter().find(|w| w.1.contains('é')).unwrap();
            assert!(long.1.ends_with('…'), "the cut is marked: {}", long.1);
        }
    }
    assert_eq!(reported, MAX_REPORTED, "the first hundred distinct texts");
    let p = &g.players()[0];
    assert_eq!(p.warnings, 210, "every bad line still counts");
    assert_eq!(p.warning_counts().len(), MAX_REPORTED);
    // The long lines differ only past the cut: turns 1 and 2 repeat turn 0's text.
    assert_eq!(p.unreported, 108);
    // A text already reported is still counted under its own name.
    play(&mut g, &[&["X0_0 A 1"]]);
    assert_eq!(
        g.players()[0].warning_counts()["ignored `X0_0 A 1`: there is no fort `X0_0`"],
        2
    );
}
