//! Vindinium's replay (games/vindinium/rules.md §14): the stored form ([`Stored`]: the
//! moves, one character each, with the runner's notes kept sparsely), the live rows
//! ([`Row`]), and the states rebuilt from either by replaying the rules ([`decode`],
//! [`decode_live`]), as the original stored its games.

use serde::{Deserialize, Serialize};

use super::{start_as, FORMAT, VERSION};
use crate::game::Game;
use crate::pos::{Dir, Move};
use game_interface::Seat;

/// A move as one character of the replay: `n`, `s`, `e`, `w`, `x` for Stay, `c` for a
/// crash.
pub fn move_char(mv: Move) -> char {
    match mv {
        Move::Go(Dir::North) => 'n',
        Move::Go(Dir::South) => 's',
        Move::Go(Dir::East) => 'e',
        Move::Go(Dir::West) => 'w',
        Move::Go(Dir::Stay) => 'x',
        Move::Crash => 'c',
    }
}

/// The move of a replay character, `None` for any other character.
pub fn char_move(c: char) -> Option<Move> {
    Some(match c {
        'n' => Move::Go(Dir::North),
        's' => Move::Go(Dir::South),
        'e' => Move::Go(Dir::East),
        'w' => Move::Go(Dir::West),
        'x' => Move::Go(Dir::Stay),
        'c' => Move::Crash,
        _ => return None,
    })
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// What the runner and the match noted about one row beyond its move.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Notes {
    /// The mover's reply did not come in time (its move is a crash).
    #[serde(default, skip_serializing_if = "is_false")]
    pub timeout: bool,
    /// Why the mover's bot is gone, as the runner said (its move is a crash).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crash: Option<String>,
    /// The warning the mover's answer raised.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warning: Option<String>,
    /// Sandbox limits any seat ran into (seat, words).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub limits: Vec<(Seat, String)>,
}

impl Notes {
    /// True when nothing was noted.
    pub fn is_empty(&self) -> bool {
        *self == Notes::default()
    }
}

/// A row of the live stream: row 0 `{"start":true}`, row `t` the move that led to
/// state `t` (`{"m":"n","ms":12}`), with its notes.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Row {
    /// True on row 0, the initial state.
    #[serde(default, skip_serializing_if = "is_false")]
    pub start: bool,
    /// The move, as [`move_char`]; `None` on row 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub m: Option<char>,
    /// The time the reply took, in milliseconds, when one was measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ms: Option<u32>,
    /// Timeouts, crashes, warnings and limits.
    #[serde(flatten)]
    pub notes: Notes,
}

/// The notes of row `t` in the stored replay.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NoteAt {
    /// The row (0 the initial state, `t` the `t`-th move).
    pub t: usize,
    /// What was noted.
    #[serde(flatten)]
    pub notes: Notes,
}

/// The end of a match as stored: why, ranks and each hero's numbers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredResult {
    /// `turn_max` or `all_crashed`.
    pub status: String,
    /// Ranks of heroes 1 to 4 by gold.
    pub ranks: Vec<u32>,
    /// Gold of heroes 1 to 4.
    pub gold: Vec<i32>,
    /// Mines of heroes 1 to 4.
    pub mines: Vec<usize>,
    /// Deaths of heroes 1 to 4.
    pub deaths: Vec<u32>,
    /// Warnings of heroes 1 to 4.
    pub warnings: Vec<u64>,
}

/// The stored replay. The head is `Match::replay_head`'s; `moves` has one
/// [`move_char`] per move, `ms` one entry per move (`null` where nothing was
/// measured), `notes` only the rows that have any.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stored {
    /// [`FORMAT`].
    pub format: String,
    /// [`VERSION`].
    pub version: u32,
    /// The map text the match was set up with.
    pub map: String,
    /// The names of heroes 1 to 4.
    pub heroes: Vec<String>,
    /// The match's turn limit.
    pub max_turns: u32,
    /// A training game (§9: the first crash ends it); left out when not.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub training: bool,
    /// One character per move.
    pub moves: String,
    /// Reply times per move.
    pub ms: Vec<Option<u32>>,
    /// The rows with notes.
    pub notes: Vec<NoteAt>,
    /// The end, once over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<StoredResult>,
}

impl Stored {
    /// The live rows the match sent, rebuilt: row 0 and one per move.
    pub fn rows(&self) -> Vec<Row> {
        let mut rows: Vec<Row> = std::iter::once(Row {
            start: true,
            ..Row::default()
        })
        .chain(self.moves.chars().enumerate().map(|(i, m)| Row {
            m: Some(m),
            ms: self.ms.get(i).copied().flatten(),
            ..Row::default()
        }))
        .collect();
        for note in &self.notes {
            if let Some(row) = rows.get_mut(note.t) {
                row.notes = note.notes.clone();
            }
        }
        rows
    }
}

/// Every state of a game, from the initial one, replaying `moves` with the rules.
pub fn replay_moves(
    map_text: &str,
    heroes: &[String],
    max_turns: u32,
    training: bool,
    moves: impl IntoIterator<Item = char>,
) -> Result<Vec<Game>, String> {
    let mut game = start_as(map_text, heroes, max_turns, training).map_err(|e| e.to_string())?;
    let mut states = vec![game.clone()];
    for (i, c) in moves.into_iter().enumerate() {
        let mv = char_move(c).ok_or_else(|| format!("move {}: `{c}` is no move", i + 1))?;
        game.step(mv).map_err(|e| format!("move {}: {e}", i + 1))?;
        states.push(game.clone());
    }
    Ok(states)
}

/// Reads a stored replay, checking its format and version.
pub fn read(json: &str) -> Result<Stored, String> {
    let stored: Stored = serde_json::from_str(json).map_err(|e| e.to_string())?;
    if stored.format != FORMAT || stored.version != VERSION {
        return Err(format!(
            "not a {FORMAT} version {VERSION}: {} version {}",
            stored.format, stored.version
        ));
    }
    Ok(stored)
}

/// Every state of a stored replay (state `t` after `t` moves), rebuilt with the rules;
/// a stored result must be the last state's.
pub fn decode(json: &str) -> Result<Vec<Game>, String> {
    let stored = read(json)?;
    let moves = stored.moves.chars().count();
    if !(stored.ms.is_empty() || stored.ms.len() == moves)
        || stored.notes.iter().any(|n| n.t > moves)
    {
        return Err(format!("reply times or notes beyond the {moves} moves"));
    }
    let states = replay_moves(
        &stored.map,
        &stored.heroes,
        stored.max_turns,
        stored.training,
        stored.moves.chars(),
    )?;
    let last = states.last().expect("the initial state at least");
    if let Some(result) = &stored.result {
        if !last.is_finished() || result.gold != last.stats().map(|s| s.gold) {
            return Err("the stored result is not the replayed game's".into());
        }
    }
    Ok(states)
}

/// Every state from a live head (`Match::replay_head`) and rows (`Match::rows_since`
/// from 0, row 0 the start marker), as a viewer rebuilds them.
pub fn decode_live(head: &str, rows: &[String]) -> Result<Vec<Game>, String> {
    #[derive(Deserialize)]
    struct Head {
        map: String,
        heroes: Vec<String>,
        max_turns: u32,
        #[serde(default)]
        training: bool,
    }
    let head: Head = serde_json::from_str(head).map_err(|e| e.to_string())?;
    let first: Option<Row> = rows.first().and_then(|r| serde_json::from_str(r).ok());
    if !first.is_some_and(|r| r.start) {
        return Err("row 0 is not the start marker".into());
    }
    let mut moves = String::new();
    for (t, text) in rows.iter().enumerate().skip(1) {
        let row: Row = serde_json::from_str(text).map_err(|e| format!("row {t}: {e}"))?;
        moves.push(row.m.ok_or_else(|| format!("row {t} has no move"))?);
    }
    replay_moves(
        &head.map,
        &head.heroes,
        head.max_turns,
        head.training,
        moves.chars(),
    )
}
