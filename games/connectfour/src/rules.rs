//! The rules of games/connectfour/rules.md §1–§7: the board, a move, four in a row,
//! draws, forfeits, ranks and statistics. Pure: same game and move, same next game.

use std::fmt;

/// Columns of the board (§1).
pub const COLUMNS: usize = 7;
/// Rows of the board (§1).
pub const ROWS: usize = 6;
/// Cells of the board: the most discs a game has.
pub const CELLS: usize = COLUMNS * ROWS;
/// Characters of an answer quoted in the reason of its forfeit.
pub const QUOTED_CHARS: usize = 40;

/// The one board's text (§1): six rows of seven `.`, each ended by a line feed.
pub const EMPTY_BOARD: &str = ".......\n.......\n.......\n.......\n.......\n.......\n";

/// A cell of the board: empty, or a disc of player 1 or 2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    Empty,
    /// A disc of seat 0 or 1 (player 1 or 2).
    Disc(usize),
}

impl Cell {
    /// As a bot reads it (§8): `.`, `1` or `2`.
    pub fn char(self) -> char {
        match self {
            Cell::Empty => '.',
            Cell::Disc(0) => '1',
            Cell::Disc(_) => '2',
        }
    }
}

/// The board: `ROWS` rows of `COLUMNS` cells, row 0 the top one (§1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    cells: [Cell; CELLS],
}

impl Default for Board {
    fn default() -> Self {
        Board {
            cells: [Cell::Empty; CELLS],
        }
    }
}

impl Board {
    /// The empty board.
    pub fn empty() -> Board {
        Board::default()
    }

    /// The cell at `row` (0 the top) and `col` (0 the left).
    pub fn get(&self, row: usize, col: usize) -> Cell {
        self.cells[row * COLUMNS + col]
    }

    /// Discs in column `col`.
    pub fn height(&self, col: usize) -> usize {
        (0..ROWS)
            .filter(|&r| self.get(r, col) != Cell::Empty)
            .count()
    }

    /// Whether column `col` holds six discs.
    pub fn column_full(&self, col: usize) -> bool {
        self.height(col) == ROWS
    }

    /// Whether every cell holds a disc.
    pub fn is_full(&self) -> bool {
        (0..COLUMNS).all(|c| self.column_full(c))
    }

    /// Drops a disc of `seat` into `col` (§3): the row it lands in, or `None` when
    /// the column is full (or no column).
    pub fn drop_disc(&mut self, col: usize, seat: usize) -> Option<usize> {
        if col >= COLUMNS || self.column_full(col) {
            return None;
        }
        let row = ROWS - 1 - self.height(col);
        self.cells[row * COLUMNS + col] = Cell::Disc(seat);
        Some(row)
    }

    /// The line of four (or more: its first four cells) of the disc at (`row`, `col`),
    /// if that disc makes one (§4): cells as (row, column), in order along the line.
    pub fn four_through(&self, row: usize, col: usize) -> Option<[(usize, usize); 4]> {
        let me = self.get(row, col);
        if me == Cell::Empty {
            return None;
        }
        // Across, up, and the two diagonals.
        for (dr, dc) in [(0i32, 1i32), (1, 0), (1, 1), (1, -1)] {
            let same = |k: i32| -> bool {
                let (r, c) = (row as i32 + dr * k, col as i32 + dc * k);
                (0..ROWS as i32).contains(&r)
                    && (0..COLUMNS as i32).contains(&c)
                    && self.get(r as usize, c as usize) == me
            };
            let back = (1..4).take_while(|&k| same(-k)).count() as i32;
            let ahead = (1..4).take_while(|&k| same(k)).count() as i32;
            if back + ahead + 1 >= 4 {
                let at = |k: i32| {
                    (
                        (row as i32 + dr * k) as usize,
                        (col as i32 + dc * k) as usize,
                    )
                };
                return Some([at(-back), at(-back + 1), at(-back + 2), at(-back + 3)]);
            }
        }
        None
    }

    /// The rows as a bot reads them (§8), top row first.
    pub fn rows(&self) -> Vec<String> {
        (0..ROWS)
            .map(|r| (0..COLUMNS).map(|c| self.get(r, c).char()).collect())
            .collect()
    }

    /// The board as text: its rows, each ended by a line feed (the empty board is
    /// [`EMPTY_BOARD`]).
    pub fn render(&self) -> String {
        let mut out = String::with_capacity(CELLS + ROWS);
        for row in self.rows() {
            out.push_str(&row);
            out.push('\n');
        }
        out
    }

    /// Reads a board's text (§1): six lines of seven cells, `.`, `1` or `2`; a
    /// carriage return before a line feed, and a missing last line feed, are
    /// forgiven.
    pub fn parse(text: &str) -> Result<Board, String> {
        let text = text.strip_suffix('\n').unwrap_or(text);
        let lines: Vec<&str> = text
            .split('\n')
            .map(|l| l.strip_suffix('\r').unwrap_or(l))
            .collect();
        if lines.len() != ROWS {
            return Err(format!(
                "a Connect Four board is {ROWS} lines of {COLUMNS} cells; this text has {} lines",
                lines.len()
            ));
        }
        let mut board = Board::empty();
        for (r, line) in lines.iter().enumerate() {
            let cells: Vec<char> = line.chars().collect();
            if cells.len() != COLUMNS {
                return Err(format!(
                    "line {} is `{}`: a row of the board is {COLUMNS} cells",
                    r + 1,
                    quote(line)
                ));
            }
            for (c, ch) in cells.into_iter().enumerate() {
                board.cells[r * COLUMNS + c] = match ch {
                    '.' => Cell::Empty,
                    '1' => Cell::Disc(0),
                    '2' => Cell::Disc(1),
                    other => {
                        return Err(format!(
                            "line {}, column {c}: `{other}` is no cell (`.`, `1` or `2`)",
                            r + 1
                        ))
                    }
                }
            }
        }
        Ok(board)
    }
}

/// Reads the one board a match is played on (§1): the empty board's text, and
/// nothing else.
pub fn parse_map(text: &str) -> Result<Board, String> {
    let board = Board::parse(text)?;
    if let Some(r) = (0..ROWS).find(|&r| (0..COLUMNS).any(|c| board.get(r, c) != Cell::Empty)) {
        return Err(format!(
            "line {} holds a disc: every Connect Four match starts on the empty board",
            r + 1
        ));
    }
    Ok(board)
}

/// `text` cut to [`QUOTED_CHARS`] characters (and `…`), backquotes made quotes.
fn quote(text: &str) -> String {
    let mut quoted: String = text.chars().take(QUOTED_CHARS).collect();
    if quoted.len() < text.len() {
        quoted.push('…');
    }
    quoted.replace('`', "'")
}

/// Reads a bot's answer (§3): the column it names, or why it names none (the reason
/// of its forfeit). The line, trimmed of spaces, tabs and line ends, must be exactly
/// one digit from 0 to 6.
pub fn read_answer(line: &str) -> Result<usize, String> {
    let t = line.trim_matches([' ', '\t', '\r', '\n']);
    match t.as_bytes() {
        [d @ b'0'..=b'6'] => Ok(usize::from(d - b'0')),
        [] => Err("an empty line is not a column (0 to 6)".into()),
        _ => Err(format!("`{}` is not a column (0 to 6)", quote(t))),
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// `seat`'s last disc made four in a row (§4), along `line`.
    Four {
        seat: usize,
        line: [(usize, usize); 4],
    },
    /// The board is full without four (§5).
    Full,
    /// The move limit was reached without four (§5).
    Limit,
    /// `seat` forfeited (§6), for `reason`.
    Forfeit { seat: usize, reason: String },
}

impl End {
    /// Its name in the stored replay's result: `four`, `full`, `limit`, `forfeit`.
    pub fn name(&self) -> &'static str {
        match self {
            End::Four { .. } => "four",
            End::Full => "full",
            End::Limit => "limit",
            End::Forfeit { .. } => "forfeit",
        }
    }
}

/// Why a move was not played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The game is over.
    Over,
    /// The column is no column or is full (the words of the forfeit's reason).
    Illegal(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Over => f.write_str("the game is over"),
            MoveError::Illegal(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for MoveError {}

/// A game: the board, the moves played and how it ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    board: Board,
    /// The columns of the discs dropped, in order.
    moves: Vec<usize>,
    max_turns: u32,
    end: Option<End>,
}

impl Game {
    /// A game on the empty board, of at most `max_turns` moves (§5: over at once
    /// with 0).
    pub fn new(max_turns: u32) -> Game {
        Game {
            board: Board::empty(),
            moves: Vec::new(),
            max_turns,
            end: (max_turns == 0).then_some(End::Limit),
        }
    }

    /// The board as it stands.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The columns of the discs dropped so far.
    pub fn moves(&self) -> &[usize] {
        &self.moves
    }

    /// The move limit.
    pub fn max_turns(&self) -> u32 {
        self.max_turns
    }

    /// How the game ended, once it did.
    pub fn end(&self) -> Option<&End> {
        self.end.as_ref()
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.end.is_some()
    }

    /// The seat whose move it is (§2): 0 after an even number of discs.
    pub fn to_move(&self) -> usize {
        self.moves.len() % 2
    }

    /// Plays a disc of the seat to move in `col` (§3–§5).
    pub fn play(&mut self, col: usize) -> Result<(), MoveError> {
        if self.is_over() {
            return Err(MoveError::Over);
        }
        if col >= COLUMNS {
            return Err(MoveError::Illegal(format!(
                "`{col}` is not a column (0 to 6)"
            )));
        }
        let seat = self.to_move();
        let row = (self.board.drop_disc(col, seat))
            .ok_or_else(|| MoveError::Illegal(format!("column {col} is full")))?;
        self.moves.push(col);
        if let Some(line) = self.board.four_through(row, col) {
            self.end = Some(End::Four { seat, line });
        } else if self.board.is_full() {
            self.end = Some(End::Full);
        } else if self.moves.len() >= self.max_turns as usize {
            self.end = Some(End::Limit);
        }
        Ok(())
    }

    /// Plays a bot's answer line (§3): the column it names, or its forfeit.
    pub fn answer(&mut self, line: &str) -> Result<(), MoveError> {
        if self.is_over() {
            return Err(MoveError::Over);
        }
        let col = read_answer(line).map_err(MoveError::Illegal)?;
        self.play(col)
    }

    /// The seat to move forfeits, for `reason` (§6).
    pub fn forfeit(&mut self, reason: &str) -> Result<(), MoveError> {
        if self.is_over() {
            return Err(MoveError::Over);
        }
        self.end = Some(End::Forfeit {
            seat: self.to_move(),
            reason: reason.to_string(),
        });
        Ok(())
    }

    /// The seat that won, if one did.
    pub fn winner(&self) -> Option<usize> {
        match &self.end {
            Some(End::Four { seat, .. }) => Some(*seat),
            Some(End::Forfeit { seat, .. }) => Some(1 - seat),
            _ => None,
        }
    }

    /// Each seat's rank (§7): 1 and 2 once someone won, else both 1.
    pub fn ranks(&self) -> [u32; 2] {
        match self.winner() {
            Some(w) => [0, 1].map(|s| if s == w { 1 } else { 2 }),
            None => [1, 1],
        }
    }

    /// Discs `seat` dropped (§7).
    pub fn discs(&self, seat: usize) -> usize {
        (self.moves.len() + 1 - seat) / 2
    }

    /// Whether `seat` forfeited (§7).
    pub fn forfeited(&self, seat: usize) -> bool {
        matches!(&self.end, Some(End::Forfeit { seat: s, .. }) if *s == seat)
    }
}
