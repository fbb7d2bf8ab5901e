//! The rules of games/connectfour/rules.md §1–§7, on small games: a game is a string of
//! columns played from the empty board, its board drawn as a bot reads it (top row
//! first).

use connectfour::{parse_map, read_answer, Board, Cell, End, Game, MoveError, EMPTY_BOARD};

/// A game of `max_turns` moves at most after the columns of `moves` (each a digit).
fn played_with(moves: &str, max_turns: u32) -> Game {
    let mut g = Game::new(max_turns);
    for (i, c) in moves.chars().enumerate() {
        let col = c.to_digit(10).unwrap() as usize;
        g.play(col)
            .unwrap_or_else(|e| panic!("{moves}: move {}: {e}", i + 1));
    }
    g
}

fn played(moves: &str) -> Game {
    played_with(moves, 42)
}

fn rows(g: &Game) -> Vec<String> {
    g.board().rows()
}

/// §1
#[test]
fn the_board_is_seven_columns_by_six_rows_top_row_first() {
    let g = played("3");
    assert_eq!(
        rows(&g),
        [".......", ".......", ".......", ".......", ".......", "...1..."]
    );
    assert_eq!(g.board().get(5, 3), Cell::Disc(0), "row 5 is the bottom");
    assert_eq!(g.board().get(0, 3), Cell::Empty);
    assert_eq!(Board::empty().render(), EMPTY_BOARD);
    assert_eq!(EMPTY_BOARD.lines().count(), 6);
    assert!(EMPTY_BOARD.lines().all(|l| l == "......."));
    let b = Board::parse("..1....\n..2....\n..1....\n..2....\n..1....\n..2....\n").unwrap();
    assert_eq!(b.get(0, 2), Cell::Disc(0));
    assert_eq!(b.get(5, 2), Cell::Disc(1));
    assert_eq!(
        b.render(),
        "..1....\n..2....\n..1....\n..2....\n..1....\n..2....\n"
    );
}

/// §1
#[test]
fn only_the_empty_board_is_a_map() {
    assert_eq!(parse_map(EMPTY_BOARD), Ok(Board::empty()));
    let crlf = EMPTY_BOARD.replace('\n', "\r\n");
    assert_eq!(parse_map(&crlf), Ok(Board::empty()), "CRLF is forgiven");
    let no_last = EMPTY_BOARD.trim_end();
    assert_eq!(
        parse_map(no_last),
        Ok(Board::empty()),
        "a missing last line feed"
    );
    for (text, why) in [
        ("", "this text has 1 lines"),
        (".......\n", "this text has 1 lines"),
        (&EMPTY_BOARD.repeat(2), "this text has 12 lines"),
        (
            &EMPTY_BOARD.replacen(".......", "........", 1),
            "line 1 is `........`: a row of the board is 7 cells",
        ),
        (
            &EMPTY_BOARD.replacen(".......", "......", 1),
            "a row of the board is 7 cells",
        ),
        (
            &EMPTY_BOARD.replacen(".......", "...x...", 1),
            "line 1, column 3: `x` is no cell",
        ),
        (
            &format!("{}...1...\n", ".......\n".repeat(5)),
            "line 6 holds a disc: every Connect Four match starts on the empty board",
        ),
        ("m1\n", "this text has 1 lines"),
    ] {
        let e = parse_map(text).unwrap_err();
        assert!(e.contains(why), "{text:?}: {e}");
    }
}

/// §2
#[test]
fn players_alternate_and_player_one_starts() {
    let mut g = Game::new(42);
    assert_eq!(g.to_move(), 0);
    g.play(0).unwrap();
    assert_eq!(g.to_move(), 1);
    g.play(0).unwrap();
    assert_eq!(g.to_move(), 0);
    assert_eq!(rows(&g)[4..], ["2......", "1......"]);
}

/// §3
#[test]
fn a_disc_falls_to_the_lowest_empty_cell() {
    let g = played("33343");
    assert_eq!(
        rows(&g),
        [".......", ".......", "...1...", "...1...", "...2...", "...12.."]
    );
    assert_eq!(g.board().height(3), 4);
    assert_eq!(g.board().height(4), 1);
}

/// §3
#[test]
fn an_answer_is_one_digit_from_0_to_6() {
    for (line, col) in [
        ("0", 0),
        ("6", 6),
        ("3", 3),
        (" 3", 3),
        ("3 ", 3),
        ("\t4\r", 4),
        ("5\n", 5),
    ] {
        assert_eq!(read_answer(line), Ok(col), "{line:?}");
    }
    for (line, why) in [
        ("", "an empty line is not a column (0 to 6)"),
        ("   ", "an empty line is not a column (0 to 6)"),
        ("7", "`7` is not a column (0 to 6)"),
        ("-1", "`-1` is not a column (0 to 6)"),
        ("3.0", "`3.0` is not a column (0 to 6)"),
        ("+3", "`+3` is not a column (0 to 6)"),
        ("03", "`03` is not a column (0 to 6)"),
        ("three", "`three` is not a column (0 to 6)"),
        ("3 4", "`3 4` is not a column (0 to 6)"),
        ("`3`", "`'3'` is not a column (0 to 6)"),
        ("٣", "`٣` is not a column (0 to 6)"),
    ] {
        assert_eq!(read_answer(line), Err(why.to_string()), "{line:?}");
    }
    let long = "9".repeat(100);
    let e = read_answer(&long).unwrap_err();
    assert_eq!(e, format!("`{}…` is not a column (0 to 6)", "9".repeat(40)));
}

/// §3
#[test]
fn a_full_column_refuses_a_disc() {
    let mut g = played("222222");
    assert!(g.board().column_full(2));
    let before = g.clone();
    assert_eq!(
        g.play(2),
        Err(MoveError::Illegal("column 2 is full".into()))
    );
    assert_eq!(g, before, "a refused disc changes nothing");
    assert_eq!(
        g.play(7),
        Err(MoveError::Illegal("`7` is not a column (0 to 6)".into()))
    );
    g.play(1).unwrap();
}

/// A case of four in a row: its name, the moves, the winner, the line of four as (row,
/// column).
type Four = (&'static str, &'static str, usize, [(usize, usize); 4]);

/// §4
#[test]
fn four_in_a_row_wins_across_up_and_on_both_diagonals() {
    let cases: [Four; 5] = [
        ("across", "0011223", 0, [(5, 0), (5, 1), (5, 2), (5, 3)]),
        ("up", "0101010", 0, [(2, 0), (3, 0), (4, 0), (5, 0)]),
        (
            "diagonal up to the right",
            "01122323633",
            0,
            [(5, 0), (4, 1), (3, 2), (2, 3)],
        ),
        (
            "diagonal up to the left",
            "65544343033",
            0,
            [(5, 6), (4, 5), (3, 4), (2, 3)],
        ),
        // The winning disc in the middle of its line: 0, 1, 3 then 2.
        (
            "filled in the middle",
            "0616362",
            0,
            [(5, 0), (5, 1), (5, 2), (5, 3)],
        ),
    ];
    for (name, moves, winner, line) in cases {
        let g = played(moves);
        match g.end() {
            Some(End::Four { seat, line: got }) => {
                assert_eq!(*seat, winner, "{name}");
                let mut got = got.to_vec();
                got.sort();
                let mut want = line.to_vec();
                want.sort();
                assert_eq!(got, want, "{name}: {:?}", rows(&g));
            }
            other => panic!("{name}: {other:?}\n{:#?}", rows(&g)),
        }
        assert_eq!(g.winner(), Some(winner), "{name}");
        // One disc fewer: no winner yet.
        let before = played(&moves[..moves.len() - 1]);
        assert_eq!(before.end(), None, "{name}: not before its last disc");
    }
    // Player 2 wins too.
    let g = played("60011223");
    assert!(
        matches!(g.end(), Some(End::Four { seat: 1, .. })),
        "{:?}",
        rows(&g)
    );
}

/// §4
#[test]
fn three_in_a_row_does_not_win() {
    for moves in ["001122", "010101", "0122334"] {
        let g = played(moves);
        assert_eq!(g.end(), None, "{moves}: {:?}", rows(&g));
        assert_eq!(g.winner(), None);
    }
    // Four discs of both players in a row are no four.
    let g = played("0123");
    assert_eq!(g.end(), None);
}

/// §4
#[test]
fn the_game_is_over_after_a_win() {
    let mut g = played("0011223");
    assert!(g.is_over());
    assert_eq!(g.play(4), Err(MoveError::Over));
    assert_eq!(g.answer("4"), Err(MoveError::Over));
    assert_eq!(g.forfeit("late"), Err(MoveError::Over));
    assert_eq!(g.moves().len(), 7);
}

/// A whole game that fills the board without four: columns 0, 1, 4, 5 read 1, 2, 1,
/// 2, … from the bottom and columns 2, 3, 6 the other way round, so no row, column or
/// diagonal has more than two discs of a player in a row.
const DRAW: &str = "000000111111422222233333344444555556666665";

/// §5
#[test]
fn a_full_board_without_four_is_a_draw() {
    assert_eq!(DRAW.len(), 42);
    let g = played(DRAW);
    assert!(g.board().is_full(), "{:#?}", rows(&g));
    assert_eq!(
        rows(&g),
        ["2211221", "1122112", "2211221", "1122112", "2211221", "1122112"]
    );
    assert_eq!(g.end(), Some(&End::Full));
    assert_eq!(g.winner(), None);
    assert_eq!(g.ranks(), [1, 1]);
    // Not over one disc before.
    assert_eq!(played(&DRAW[..41]).end(), None);
}

/// §5
#[test]
fn the_move_limit_ends_the_game_in_a_draw() {
    let g = played_with("0123", 4);
    assert_eq!(g.end(), Some(&End::Limit));
    assert_eq!(g.ranks(), [1, 1]);
    assert!(Game::new(0).is_over(), "a limit of 0: over at once");
    assert_eq!(Game::new(0).end(), Some(&End::Limit));
    // A win on the last move allowed is a win.
    let g = played_with("0011223", 7);
    assert!(matches!(g.end(), Some(End::Four { seat: 0, .. })));
    // A limit above 42 leaves the full board a draw.
    let g = played_with(DRAW, 50);
    assert_eq!(g.end(), Some(&End::Full));
}

/// §6
#[test]
fn an_illegal_answer_forfeits_and_the_other_player_wins() {
    for (answer, reason) in [
        ("9", "`9` is not a column (0 to 6)"),
        ("", "an empty line is not a column (0 to 6)"),
        ("2", "column 2 is full"),
    ] {
        // Player 2 to move, column 2 full.
        let mut g = played("2222223");
        assert_eq!(g.to_move(), 1);
        let e = g.answer(answer).unwrap_err();
        assert_eq!(e, MoveError::Illegal(reason.into()), "{answer:?}");
        g.forfeit(&e.to_string()).unwrap();
        assert_eq!(
            g.end(),
            Some(&End::Forfeit {
                seat: 1,
                reason: reason.into()
            })
        );
        assert_eq!(g.winner(), Some(0));
        assert_eq!(g.ranks(), [1, 2]);
        assert!(g.forfeited(1) && !g.forfeited(0));
        assert_eq!(g.play(0), Err(MoveError::Over));
    }
    // Player 1 forfeits at the first move.
    let mut g = Game::new(42);
    g.forfeit("crashed").unwrap();
    assert_eq!(g.ranks(), [2, 1]);
}

/// §7
#[test]
fn ranks_and_statistics() {
    let g = played("00112");
    assert_eq!(g.ranks(), [1, 1], "both first before the end");
    assert_eq!((g.discs(0), g.discs(1)), (3, 2));
    let g = played("60011223");
    assert_eq!(g.ranks(), [2, 1]);
    assert_eq!((g.discs(0), g.discs(1)), (4, 4));
    assert!(!g.forfeited(0) && !g.forfeited(1));
    let g = played(DRAW);
    assert_eq!((g.discs(0), g.discs(1)), (21, 21));
}
