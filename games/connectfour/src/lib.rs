//! Connect Four: two players drop discs in turn into a board of seven columns and six
//! rows; four in a row wins. games/connectfour/rules.md says each rule, with the test
//! that holds it.
//!
//! Architecture invariant: pure. No files, processes, threads, clock or network, and no
//! randomness: same game and move, same next game.
//!
//! - `rules`: the board, a move, four in a row, draws, forfeits, ranks (§1–§7);
//! - `plugin`: the game as the platform's game interface sees it, its replay, live
//!   rows and log (§8, §9).

pub mod plugin;
pub mod rules;

pub use rules::{
    parse_map, read_answer, Board, Cell, End, Game, MoveError, COLUMNS, EMPTY_BOARD, ROWS,
};
