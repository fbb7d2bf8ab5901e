//! Maps in the original text format and the six original maps (games/vindinium/rules.md
//! §2; the original's `StringMapParser.scala` and `Maps.scala`).

use thiserror::Error;

use crate::board::{Board, HeroId, Tile};
use crate::pos::Pos;

/// The six maps of the original's `Maps.scala`, by name, exactly as its strings.
pub const ORIGINAL_MAPS: [(&str, &str); 6] = [
    ("m1", include_str!("../../../maps/vindinium/m1.txt")),
    ("m2", include_str!("../../../maps/vindinium/m2.txt")),
    ("m3", include_str!("../../../maps/vindinium/m3.txt")),
    ("m4", include_str!("../../../maps/vindinium/m4.txt")),
    ("m5", include_str!("../../../maps/vindinium/m5.txt")),
    ("m6", include_str!("../../../maps/vindinium/m6.txt")),
];

/// The largest board, in tiles a side: what the viewer draws
/// (`static/vindinium/replay.mjs`'s `MAX_SIZE`). It also bounds what one state costs
/// (20 KB of JSON a bot reads each move, and a line of the game's log): a board grows
/// with the square of its longest line, so a few hundred bytes of text would otherwise
/// make a board of 40,000 tiles.
pub const MAX_SIZE: usize = 100;

/// Why a map text is refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MapError {
    /// The board would be larger than [`MAX_SIZE`] tiles a side.
    #[error("the board would be {size} × {size} tiles (its longest line is {line} characters); at most {MAX_SIZE} × {MAX_SIZE}")]
    TooLarge {
        /// Half the length of the longest line.
        size: usize,
        /// The length of the longest line.
        line: usize,
    },
    /// Nothing but blank lines.
    #[error("the map is empty")]
    Empty,
    /// Only ASCII is read (the original would take some other characters for mines).
    #[error("row {row}: character {character:?} is not ASCII")]
    NotAscii {
        /// The row, counted from the first non-empty line, from 0.
        row: usize,
        /// The offending character.
        character: char,
    },
    /// More rows than the longest row has tiles: the board would not be square.
    #[error("{rows} rows but the longest row has only {width} tiles")]
    TooManyRows {
        /// The rows between the first and the last non-empty line.
        rows: usize,
        /// Half the length of the longest line.
        width: usize,
    },
    /// Two characters that are no tile (an odd-length longest line ends in one).
    #[error("row {row}, tile {column}: {text:?} is not a tile")]
    BadTile {
        /// The row, counted from the first non-empty line, from 0.
        row: usize,
        /// The tile in the row, from 0.
        column: usize,
        /// What was found.
        text: String,
    },
    /// `@` or `$` followed by a digit that is no hero (heroes are 1 to 4).
    #[error("row {row}, tile {column}: {text:?} names no hero (heroes are 1 to 4)")]
    BadHero {
        /// The row, counted from the first non-empty line, from 0.
        row: usize,
        /// The tile in the row, from 0.
        column: usize,
        /// What was found.
        text: String,
    },
    /// A start square `@1`..`@4` is missing.
    #[error("no start square for hero {0} (@{0})")]
    MissingHero(HeroId),
}

/// A board and the start squares of heroes 1 to 4.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Map {
    /// The tiles; start squares are [`Tile::Air`].
    pub board: Board,
    /// Where heroes 1, 2, 3 and 4 stand at the start.
    pub starts: [Pos; 4],
}

impl Map {
    /// One of the six original maps, `"m1"` to `"m6"`, parsed.
    pub fn original(name: &str) -> Option<Map> {
        let (_, text) = ORIGINAL_MAPS.iter().find(|(n, _)| *n == name)?;
        Some(Map::parse(text).expect("the original maps parse"))
    }

    /// Reads a map as the original's `StringMapParser` does: blank lines before the first
    /// and after the last non-empty line are dropped; the width is half the longest
    /// line; missing rows are added blank at the bottom and short rows padded with
    /// spaces on the right. `$` with a non-digit is a neutral mine; when a start square
    /// appears twice the last one counts.
    pub fn parse(text: &str) -> Result<Map, MapError> {
        let lines = trimmed_lines(text);
        if lines.is_empty() {
            return Err(MapError::Empty);
        }
        for (row, line) in lines.iter().enumerate() {
            if let Some(character) = line.chars().find(|c| !c.is_ascii()) {
                return Err(MapError::NotAscii { row, character });
            }
        }
        let longest = lines.iter().map(|l| l.len()).max().unwrap_or(0);
        let width = longest / 2;
        if width > MAX_SIZE {
            return Err(MapError::TooLarge {
                size: width,
                line: longest,
            });
        }
        if lines.len() > width {
            return Err(MapError::TooManyRows {
                rows: lines.len(),
                width,
            });
        }
        let mut tiles = Vec::with_capacity(width * width);
        let mut starts: [Option<Pos>; 4] = [None; 4];
        for row in 0..width {
            let line = lines.get(row).copied().unwrap_or("");
            let padded = format!("{line:<w$}", w = width * 2);
            for (column, pair) in padded.as_bytes().chunks(2).enumerate() {
                let at = Pos::new(row as i32, column as i32);
                tiles.push(read_tile(pair, at, &mut starts)?);
            }
        }
        let board = Board::new(width, tiles).expect("width rows of width tiles");
        let mut found = [Pos::new(0, 0); 4];
        for (i, start) in starts.iter().enumerate() {
            found[i] = start.ok_or(MapError::MissingHero(i + 1))?;
        }
        Ok(Map {
            board,
            starts: found,
        })
    }

    /// The map as text: the board with `@1`..`@4` on the start squares.
    pub fn render(&self) -> String {
        let size = self.board.size();
        let mut out = String::new();
        for pos in self.board.positions() {
            match self.starts.iter().position(|s| *s == pos) {
                Some(i) => out.push_str(&format!("@{}", i + 1)),
                None => out.push_str(&self.board.get(pos).expect("on board").render()),
            }
            if pos.y as usize == size - 1 && (pos.x as usize) < size - 1 {
                out.push('\n');
            }
        }
        out
    }
}

/// The original's `str.lines` (Scala 2.11: split after each line feed or form feed, a
/// final terminator opening no new line; a carriage return is dropped only before a
/// line feed), without the empty lines at both ends.
fn trimmed_lines(text: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let (line, next) = match rest.find(['\n', '\x0c']) {
            Some(i) => {
                let line = &rest[..i];
                let line = if rest.as_bytes()[i] == b'\n' {
                    line.strip_suffix('\r').unwrap_or(line)
                } else {
                    line
                };
                (line, &rest[i + 1..])
            }
            None => (rest, ""),
        };
        lines.push(line);
        rest = next;
    }
    let first = lines.iter().position(|l| !l.is_empty());
    let last = lines.iter().rposition(|l| !l.is_empty());
    match (first, last) {
        (Some(a), Some(b)) => lines[a..=b].to_vec(),
        _ => Vec::new(),
    }
}

/// One tile of two characters (or one, at the end of an odd-length longest line).
fn read_tile(pair: &[u8], at: Pos, starts: &mut [Option<Pos>; 4]) -> Result<Tile, MapError> {
    let text = String::from_utf8_lossy(pair).into_owned();
    let (row, column) = (at.x as usize, at.y as usize);
    let hero = |c: u8| match c {
        b'1'..=b'4' => Ok(Some(usize::from(c - b'0'))),
        b'0'..=b'9' => Err(MapError::BadHero {
            row,
            column,
            text: text.clone(),
        }),
        _ => Ok(None),
    };
    match pair {
        b"  " => Ok(Tile::Air),
        b"##" => Ok(Tile::Wall),
        b"[]" => Ok(Tile::Tavern),
        [b'$', c] => Ok(Tile::Mine(hero(*c)?)),
        [b'@', c] => match hero(*c)? {
            Some(id) => {
                starts[id - 1] = Some(at);
                Ok(Tile::Air)
            }
            None => Err(MapError::BadHero {
                row,
                column,
                text: text.clone(),
            }),
        },
        _ => Err(MapError::BadTile { row, column, text }),
    }
}
