//! Connect Four as a game of the game interface (crate `game_interface`): the
//! [`GameKind`] [`ConnectFour`] with its [`DESCRIPTION`], and its [`Match`],
//! [`ConnectFourMatch`] (games/connectfour/rules.md §9).
//!
//! One seat answers at a time (player 1, 2, 1, …), one line a reply: a column, or a
//! forfeit (§6). The replay is the moves, one digit each, from which the rules rebuild
//! every board; the live rows are one per move, and the stored replay gives the same
//! rows back ([`stream_of`]).

use std::time::Duration;

use game_interface::problems::{Collector, Kind, Problem};
use game_interface::{
    number, Answer, Defaults, Description, Framing, GameKind, GenerateError, LogFormat, MapInfo,
    Maps, Match, Numbers, Order, Outcome, RunnerNotes, Seat, SetupError, Smoke, StepReport, Stream,
    Word,
};
use serde::{Deserialize, Serialize};

use crate::rules::{parse_map, End, Game, COLUMNS, EMPTY_BOARD, ROWS};

/// The game's name in the registry and in stored rows.
pub const NAME: &str = "connectfour";
/// The `format` of the stored replay and of the live head.
pub const FORMAT: &str = "connectfour-replay";
/// The version of the replay format.
pub const VERSION: u32 = 1;
/// The moves of a whole game: the default move limit.
pub const MAX_TURNS: u32 = 42;
/// The problem of a reply that did not come in time.
pub const TIMEOUT: &str = "no reply within the move's time limit";
/// What a forfeit's reason is followed by, in a removal and a problem.
pub const FORFEITS: &str = "forfeits the game";

/// Connect Four, the game: two players, seven columns, one disc a move.
#[derive(Clone, Copy, Debug, Default)]
pub struct ConnectFour;

/// The game, boxed for a registry.
pub fn kind() -> Box<dyn GameKind> {
    Box::new(ConnectFour)
}

/// Connect Four on a site.
pub static DESCRIPTION: Description = Description {
    name: NAME,
    title: "Connect Four",
    tagline: "Write a bot. Line up four.",
    summary: "The classic two-player game on a board of seven columns and six rows. \
        Players take turns dropping a disc into a column, where it falls to the lowest \
        free cell; the first to line up four of their own discs across, up or on a \
        diagonal wins, and a full board is a draw. A bot reads one line of JSON, the board \
        and which player it is, and answers a column from 0 to 6. A full column, anything \
        that is not a column, a crash or a reply too late forfeits the game.",
    framing: Framing::Line,
    order: Order::OneAtATime,
    turn: Word {
        one: "move",
        many: "moves",
    },
    // Two seats, 1 s a move (10 s for the first: interpreters start), 42 moves: a
    // whole game.
    defaults: Defaults {
        seats: (2, 2),
        turn_time: Duration::from_secs(1),
        first_reply_time: Duration::from_secs(10),
        max_turns: MAX_TURNS,
    },
    stats: &["discs", "forfeits"],
    replay_format: FORMAT,
    log: LogFormat {
        title: "Game log (text)",
        extension: "txt",
    },
    maps: Maps::Board,
    smoke: Smoke {
        map: "",
        opponents: &["random"],
    },
    house_prefix: "c4-",
    time_rule: "§6",
};

/// The players, checked: two, distinct, not empty.
fn check_players(players: &[String]) -> Result<(), SetupError> {
    match players {
        [a, b] if !a.is_empty() && !b.is_empty() && a != b => Ok(()),
        [a, b] => Err(SetupError::Players(format!(
            "player names must be distinct and not empty: `{a}`, `{b}`"
        ))),
        _ => Err(SetupError::Players(format!(
            "Connect Four is played by 2 players, not {}",
            players.len()
        ))),
    }
}

impl GameKind for ConnectFour {
    fn describe(&self) -> &'static Description {
        &DESCRIPTION
    }

    /// The empty board only (§1): 2 seats, 7 columns, 6 rows.
    fn map_info(&self, map_text: &str) -> Result<MapInfo, SetupError> {
        parse_map(map_text).map_err(SetupError::Map)?;
        Ok(MapInfo {
            seats: 2,
            numbers: vec![("columns", number(COLUMNS)), ("rows", number(ROWS))],
            notes: Vec::new(),
        })
    }

    fn setup(
        &self,
        map_text: &str,
        players: &[String],
        max_turns: u32,
    ) -> Result<Box<dyn Match>, SetupError> {
        Ok(Box::new(ConnectFourMatch::new(
            map_text, players, max_turns,
        )?))
    }

    /// The one board, whatever the seed; for 2 seats only.
    fn generate(&self, _seed: u64, seats: usize) -> Result<String, GenerateError> {
        if seats != 2 {
            return Err(GenerateError(format!(
                "Connect Four is played by 2 players, not {seats}"
            )));
        }
        Ok(EMPTY_BOARD.to_string())
    }

    /// Every board as text, each headed by its move, then the result ([`write_log`]).
    fn write_log(&self, replay_json: &str, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        write_log(replay_json, out)
    }

    fn stored_stream(&self, replay_json: &str) -> Result<Stream, String> {
        let (head, rows, result) = stream_of(replay_json)?;
        Ok(Stream { head, rows, result })
    }

    /// A column that is not full, at random.
    fn sample_reply(&self, m: &dyn Match, _seat: Seat, seed: u64) -> Vec<String> {
        // SplitMix64's finalizer: neighbouring seeds give unrelated columns.
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        let mixed = z ^ (z >> 31);
        let legal: Vec<usize> = match m.as_any().downcast_ref::<ConnectFourMatch>() {
            Some(m) => (0..COLUMNS)
                .filter(|&c| !m.game.board().column_full(c))
                .collect(),
            None => (0..COLUMNS).collect(),
        };
        let col = legal.get(mixed as usize % legal.len().max(1)).unwrap_or(&0);
        vec![col.to_string()]
    }
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// One row of the live stream (§9): row 0 the start, then one a move.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Row {
    /// Row 0 only.
    #[serde(default, skip_serializing_if = "is_false")]
    pub start: bool,
    /// The seat that moved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<usize>,
    /// The column of its disc.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub col: Option<usize>,
    /// Or the reason of its forfeit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forfeit: Option<String>,
    /// The forfeit was a reply too late.
    #[serde(default, skip_serializing_if = "is_false")]
    pub timeout: bool,
    /// Sandbox limits the runner reported during the move: (seat, words).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub limits: Vec<(Seat, String)>,
}

/// How the game ended by a forfeit, in the stored replay.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Forfeit {
    pub reason: String,
    #[serde(default)]
    pub timeout: bool,
}

/// The result of a stored replay.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredResult {
    /// `four`, `full`, `limit` or `forfeit`.
    pub end: String,
    pub ranks: Vec<u32>,
    pub discs: Vec<i64>,
    pub forfeits: Vec<i64>,
}

/// The stored replay (§9).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stored {
    pub format: String,
    pub version: u32,
    pub players: Vec<String>,
    pub max_turns: u32,
    /// One digit per disc, its column.
    pub moves: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forfeit: Option<Forfeit>,
    /// (row, seat, words).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub limits: Vec<(usize, Seat, String)>,
    pub result: Option<StoredResult>,
}

/// The head of the live stream: what a viewer needs before the rows.
pub fn head_json(players: &[String], max_turns: u32) -> String {
    serde_json::json!({
        "format": FORMAT,
        "version": VERSION,
        "players": players,
        "max_turns": max_turns,
    })
    .to_string()
}

/// The result of a game that is over.
fn result_of(game: &Game) -> Option<StoredResult> {
    let end = game.end()?;
    Some(StoredResult {
        end: end.name().to_string(),
        ranks: game.ranks().to_vec(),
        discs: (0..2).map(|s| number(game.discs(s))).collect(),
        forfeits: (0..2).map(|s| i64::from(game.forfeited(s))).collect(),
    })
}

/// A stored replay read and checked against the rules: its game played again, and
/// its rows (§9).
pub struct Replayed {
    pub stored: Stored,
    pub game: Game,
    pub rows: Vec<Row>,
}

/// Reads a stored replay, plays it again by the rules and rebuilds its rows; refuses,
/// saying why, another format or version, a move the rules refuse, a forfeit that is
/// not the last move, or a result that is not the game's.
pub fn read(replay_json: &str) -> Result<Replayed, String> {
    let stored: Stored =
        serde_json::from_str(replay_json).map_err(|e| format!("not a Connect Four replay: {e}"))?;
    if stored.format != FORMAT {
        return Err(format!(
            "not a Connect Four replay: format `{}`",
            stored.format
        ));
    }
    if stored.version != VERSION {
        return Err(format!(
            "a Connect Four replay of version {}; this reads version {VERSION}",
            stored.version
        ));
    }
    check_players(&stored.players).map_err(|e| e.to_string())?;
    let mut game = Game::new(stored.max_turns);
    let mut rows = vec![Row {
        start: true,
        ..Row::default()
    }];
    for (i, c) in stored.moves.chars().enumerate() {
        let seat = game.to_move();
        let col = (c.to_digit(10).map(|d| d as usize))
            .ok_or_else(|| format!("move {}: `{c}` is no column", i + 1))?;
        game.play(col).map_err(|e| format!("move {}: {e}", i + 1))?;
        rows.push(Row {
            seat: Some(seat),
            col: Some(col),
            ..Row::default()
        });
    }
    if let Some(f) = &stored.forfeit {
        let seat = game.to_move();
        (game.forfeit(&f.reason)).map_err(|e| format!("the forfeit: {e}"))?;
        rows.push(Row {
            seat: Some(seat),
            forfeit: Some(f.reason.clone()),
            timeout: f.timeout,
            ..Row::default()
        });
    }
    for (t, seat, text) in &stored.limits {
        let row = (rows.get_mut(*t)).ok_or_else(|| format!("a limit at row {t}, after the end"))?;
        row.limits.push((*seat, text.clone()));
    }
    if stored.result.is_some() && stored.result != result_of(&game) {
        return Err("the replay's result is not its game's".into());
    }
    Ok(Replayed { stored, game, rows })
}

/// What the live stream sends of a stored replay: its head, every row (JSON) and the
/// result (JSON, `null` before the end).
pub fn stream_of(replay_json: &str) -> Result<(String, Vec<String>, String), String> {
    let r = read(replay_json)?;
    let head = head_json(&r.stored.players, r.stored.max_turns);
    let rows = (r.rows.iter())
        .map(|row| serde_json::to_string(row).map_err(|e| e.to_string()))
        .collect::<Result<_, _>>()?;
    let result = serde_json::to_string(&r.stored.result).map_err(|e| e.to_string())?;
    Ok((head, rows, result))
}

/// The log of a stored replay (§9): the players, every board headed by its move, and
/// the result once the game is over. A replay that does not read (or whose moves are
/// not legal) writes nothing and is an error of kind `InvalidData`.
pub fn write_log(replay_json: &str, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    let invalid = |e: String| std::io::Error::new(std::io::ErrorKind::InvalidData, e);
    let r = read(replay_json).map_err(invalid)?;
    let names = &r.stored.players;
    // At most 42 moves: the log is made whole, then written.
    let mut text = format!(
        "Connect Four: {} (1) against {} (2), {} moves at most\n",
        names[0], names[1], r.stored.max_turns
    );
    let mut game = Game::new(r.stored.max_turns);
    for (t, row) in r.rows.iter().enumerate() {
        text.push('\n');
        match (row.seat, row.col, &row.forfeit) {
            (Some(seat), Some(col), _) => {
                game.play(col).map_err(|e| invalid(e.to_string()))?;
                text += &format!("move {t}: {} drops a disc in column {col}\n", names[seat]);
            }
            (Some(seat), None, Some(reason)) => {
                text += &format!("move {t}: {} {FORFEITS}: {reason}\n", names[seat]);
            }
            _ => text += "move 0: the empty board\n",
        }
        text += &game.board().render();
    }
    if let Some(end) = r.game.end() {
        let result = match end {
            End::Four { seat, .. } => format!("{} wins with four in a row", names[*seat]),
            End::Forfeit { seat, .. } => {
                format!("{} wins: {} forfeited", names[1 - seat], names[*seat])
            }
            End::Full => "a draw, the board is full".to_string(),
            End::Limit => format!("a draw at the limit of {} moves", r.stored.max_turns),
        };
        text += &format!("\nresult: {result}\n");
    }
    out.write_all(text.as_bytes())
}

/// [`write_log`] as text.
pub fn log(replay_json: &str) -> Result<String, String> {
    let mut out = Vec::new();
    write_log(replay_json, &mut out).map_err(|e| e.to_string())?;
    String::from_utf8(out).map_err(|e| e.to_string())
}

/// A Connect Four match in progress: the game, its players and its rows.
pub struct ConnectFourMatch {
    game: Game,
    players: Vec<String>,
    /// Row 0 (the start) and one row per move played.
    rows: Vec<Row>,
}

impl ConnectFourMatch {
    /// A match on the empty board (`map_text`, §1), player `i + 1` played by
    /// `players[i]`.
    pub fn new(
        map_text: &str,
        players: &[String],
        max_turns: u32,
    ) -> Result<ConnectFourMatch, SetupError> {
        parse_map(map_text).map_err(SetupError::Map)?;
        check_players(players)?;
        Ok(ConnectFourMatch {
            game: Game::new(max_turns),
            players: players.to_vec(),
            rows: vec![Row {
                start: true,
                ..Row::default()
            }],
        })
    }

    /// The game as it stands.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The rows so far: row 0 and one per move.
    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    /// The stored replay as a value ([`Match::replay_json`] writes it).
    pub fn stored(&self) -> Stored {
        let moves = self.game.moves().iter().map(|c| c.to_string()).collect();
        let forfeit = (self.rows.last())
            .and_then(|r| Some((r.forfeit.clone()?, r.timeout)))
            .map(|(reason, timeout)| Forfeit { reason, timeout });
        let limits = (self.rows.iter().enumerate())
            .flat_map(|(t, r)| r.limits.iter().map(move |(s, w)| (t, *s, w.clone())))
            .collect();
        Stored {
            format: FORMAT.to_string(),
            version: VERSION,
            players: self.players.clone(),
            max_turns: self.game.max_turns(),
            moves,
            forfeit,
            limits,
            result: result_of(&self.game),
        }
    }
}

impl Match for ConnectFourMatch {
    fn seats(&self) -> usize {
        2
    }

    /// Moves played: the rows after row 0.
    fn turn(&self) -> u32 {
        (self.rows.len() - 1) as u32
    }

    fn to_answer(&self) -> Vec<Seat> {
        if self.game.is_over() {
            return Vec::new();
        }
        vec![self.game.to_move()]
    }

    /// One line of JSON (§8): the rows top first, which player the seat is, the
    /// moves played.
    fn view(&self, seat: Seat) -> Vec<u8> {
        let mut line = serde_json::json!({
            "board": self.game.board().rows(),
            "you": seat + 1,
            "turn": self.game.moves().len(),
        })
        .to_string();
        line.push('\n');
        line.into_bytes()
    }

    /// The awaited seat's move: a disc, or its forfeit (§6), which removes it.
    fn step(&mut self, answers: &[(Seat, Answer)], notes: &RunnerNotes) -> StepReport {
        let mut report = StepReport::default();
        if self.game.is_over() {
            return report;
        }
        let seat = self.game.to_move();
        let answer = answers.iter().find(|(s, _)| *s == seat).map(|(_, a)| a);
        let timeout = notes.timeouts.contains(&seat);
        let reason = match answer {
            Some(Answer::Lines(lines)) => {
                match self.game.answer(lines.first().map_or("", String::as_str)) {
                    Ok(()) => None,
                    Err(e) => Some(e.to_string()),
                }
            }
            Some(Answer::Crashed(why)) => Some(format!("crashed: {why}")),
            Some(Answer::NoReply) | None if timeout => Some(TIMEOUT.to_string()),
            Some(Answer::NoReply) | None => Some("no reply".to_string()),
        };
        let mut row = Row {
            seat: Some(seat),
            limits: notes.limits.clone(),
            ..Row::default()
        };
        match reason {
            None => row.col = self.game.moves().last().copied(),
            Some(reason) => {
                self.game
                    .forfeit(&reason)
                    .expect("a game not over takes a forfeit");
                report
                    .removals
                    .push((seat, format!("{reason}: {FORFEITS}")));
                row.timeout = timeout && matches!(answer, Some(Answer::NoReply) | None);
                row.forfeit = Some(reason);
            }
        }
        self.rows.push(row);
        report
    }

    /// With the last row written (row 0 before any move).
    fn note_late_limit(&mut self, seat: Seat, text: String) {
        if let Some(row) = self.rows.last_mut() {
            row.limits.push((seat, text));
        }
    }

    fn is_over(&self) -> bool {
        self.game.is_over()
    }

    fn outcome(&self) -> Outcome {
        Outcome {
            ranks: self.game.ranks().to_vec(),
        }
    }

    /// Discs and forfeits (§7).
    fn stats(&self) -> Vec<Numbers> {
        (0..2)
            .map(|s| {
                vec![
                    ("discs", number(self.game.discs(s))),
                    ("forfeits", i64::from(self.game.forfeited(s))),
                ]
            })
            .collect()
    }

    /// No answer is a warning in Connect Four (§6).
    fn warnings(&self) -> Vec<u64> {
        vec![0, 0]
    }

    /// From the rows: a forfeit of row `t` is the seat's problem of turn `t - 1`
    /// (the state it answered), a timeout beside it after a timeout; limits are
    /// problems of their seat.
    fn problems(&self, seat: Seat) -> Vec<Problem> {
        let mut found = Collector::default();
        for (t, row) in self.rows.iter().enumerate() {
            let turn = t.saturating_sub(1) as u32;
            if row.seat == Some(seat) {
                if row.timeout {
                    found.add(Kind::Timeout, TIMEOUT, turn);
                }
                if let Some(reason) = &row.forfeit {
                    found.add(Kind::Removed, &format!("{reason}: {FORFEITS}"), turn);
                }
            }
            for (_, text) in row.limits.iter().filter(|(s, _)| *s == seat) {
                found.add(Kind::Limit, text, turn);
            }
        }
        found.finish()
    }

    fn replay_json(&self) -> String {
        serde_json::to_string(&self.stored()).expect("a replay always serializes")
    }

    fn replay_head(&self) -> String {
        head_json(&self.players, self.game.max_turns())
    }

    fn rows_since(&self, n: usize) -> Vec<String> {
        (self.rows.iter().skip(n))
            .map(|row| serde_json::to_string(row).expect("a row always serializes"))
            .collect()
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn into_any(self: Box<Self>) -> Box<dyn std::any::Any + Send> {
        self
    }
}
