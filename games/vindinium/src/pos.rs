//! Squares and directions (games/vindinium/rules.md §1; the original's `model.scala`).

use serde::Serialize;

/// A square of the board. As in the original, `x` is the ROW (0 at the top) and `y` the
/// column: North is `x - 1`, East is `y + 1`. Signed, so that a step off the board is
/// still a position (which the board then refuses).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Pos {
    /// The row, 0 at the top.
    pub x: i32,
    /// The column, 0 at the left.
    pub y: i32,
}

impl Pos {
    /// The square at row `x`, column `y`.
    pub const fn new(x: i32, y: i32) -> Pos {
        Pos { x, y }
    }

    /// The square one step in `dir` (itself for [`Dir::Stay`]).
    pub fn to(self, dir: Dir) -> Pos {
        match dir {
            Dir::Stay => self,
            Dir::North => Pos::new(self.x - 1, self.y),
            Dir::South => Pos::new(self.x + 1, self.y),
            Dir::East => Pos::new(self.x, self.y + 1),
            Dir::West => Pos::new(self.x, self.y - 1),
        }
    }

    /// The four neighbours in the original's order: North, East, South, West.
    pub fn neighbors(self) -> [Pos; 4] {
        [
            self.to(Dir::North),
            self.to(Dir::East),
            self.to(Dir::South),
            self.to(Dir::West),
        ]
    }

    /// Whether `other` is one of the four neighbours.
    pub fn is_next_to(self, other: Pos) -> bool {
        self.neighbors().contains(&other)
    }

    /// Whether the square lies on a board of `size` × `size`.
    pub fn is_in(self, size: usize) -> bool {
        let size = size as i64;
        (0..size).contains(&i64::from(self.x)) && (0..size).contains(&i64::from(self.y))
    }
}

/// A direction a hero is ordered to go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dir {
    /// Stay in place (still fights, drinks nothing, mines nothing).
    Stay,
    /// One row up (`x - 1`).
    North,
    /// One row down (`x + 1`).
    South,
    /// One column right (`y + 1`).
    East,
    /// One column left (`y - 1`).
    West,
}

impl Dir {
    /// Reads a bot's answer as the original's `Dir.apply` does: lower-cased, trimmed of
    /// everything up to and including the space character (Java's `String.trim`), and
    /// anything but `north`, `south`, `east`, `west` is [`Dir::Stay`].
    pub fn from_answer(answer: &str) -> Dir {
        match answer.to_lowercase().trim_matches(|c| c <= ' ') {
            "north" => Dir::North,
            "south" => Dir::South,
            "east" => Dir::East,
            "west" => Dir::West,
            _ => Dir::Stay,
        }
    }

    /// The name the bot API shows in `lastDir`.
    pub fn name(self) -> &'static str {
        match self {
            Dir::Stay => "Stay",
            Dir::North => "North",
            Dir::South => "South",
            Dir::East => "East",
            Dir::West => "West",
        }
    }
}

/// What a hero does on its turn: go in a direction, or the original's `Crash` (the bot
/// exited, closed its output or ran out of time).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    /// An order, already read with [`Dir::from_answer`].
    Go(Dir),
    /// The bot is gone: see games/vindinium/rules.md §9.
    Crash,
}

impl From<Dir> for Move {
    fn from(dir: Dir) -> Move {
        Move::Go(dir)
    }
}
