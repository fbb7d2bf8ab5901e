//! Vindinium as a game of the game interface (crate `game_interface`): the
//! [`GameKind`] [`Vindinium`] and its [`Match`], [`VindiniumMatch`], over the crate's own
//! types and without changing them (games/vindinium/rules.md §14).
//!
//! One hero answers at a time (1, 2, 3, 4, 1, …). An answer's first line is read as the
//! original reads it ([`Dir::from_answer`]); anything but a direction or `stay` is a
//! Stay with a warning. No reply in time and a crash are both the original's `Crash`
//! (§9): the hero stays in the game and the match plays each of its later moves as a
//! Stay by itself, so a crashed hero is never asked again and nobody is ever removed.
//!
//! The replay is the moves, one character each ([`move_char`]), from which the rules
//! rebuild every state ([`decode`]), with the runner's notes kept sparsely.

use std::time::Duration;

use crate::board::Tile;
use crate::game::{Game, Status, DEFAULT_MAX_TURNS};
use crate::map::Map;
use crate::pos::{Dir, Move};
use game_interface::problems::{Collector, Kind, Problem};
use game_interface::{
    number, Answer, Defaults, Description, Framing, GameKind, GenerateError, LogFormat, MapInfo,
    Maps, Match, Numbers, Order, Outcome, RunnerNotes, Seat, SetupError, Smoke, StepReport, Stream,
    Word,
};

mod replay;

pub use replay::{
    char_move, decode, decode_live, move_char, read, replay_moves, NoteAt, Notes, Row, Stored,
    StoredResult,
};

/// The game's name in the registry and in stored rows.
pub const NAME: &str = "vindinium";
/// The `format` of the stored replay and of the live head.
pub const FORMAT: &str = "vindinium-replay";
/// The version of the replay format.
pub const VERSION: u32 = 1;
/// The game id every match shows its bots (`game.id` of the view).
pub const GAME_ID: &str = "vindinium";
/// Reply times from this many milliseconds on are kept in the stored replay; faster
/// ones are summed in the seat's time only (§14).
pub const KEPT_MS: u32 = 50;
/// What becomes of a crashed hero (§9), as its owner is told.
pub const STAYS: &str = "its hero stays until the end";
/// The problem of a reply that did not come in time.
pub const TIMEOUT: &str = "no reply within the move's time limit";
/// Characters of an unknown answer quoted in its warning.
pub const QUOTED_CHARS: usize = 100;

/// Vindinium, the game: four heroes, one move at a time, one line a reply.
#[derive(Clone, Copy, Debug, Default)]
pub struct Vindinium;

/// The game, boxed for a registry.
pub fn kind() -> Box<dyn GameKind> {
    Box::new(Vindinium)
}

fn parse(map_text: &str) -> Result<Map, SetupError> {
    Map::parse(map_text).map_err(|e| SetupError::Map(e.to_string()))
}

/// Vindinium on a site.
pub static DESCRIPTION: Description = Description {
    name: NAME,
    title: "Vindinium",
    tagline: "Write a bot. Mine the gold.",
    summary: "The bot game of 2014: four heroes on a square map of woods, taverns and gold \
        mines guarded by goblins. Heroes move one at a time, 1,200 moves a game; a mine costs \
        20 life to take and pays a gold coin every move, heroes fight their neighbours, a beer \
        at a tavern heals. Most gold wins. A bot reads one line of JSON, the original API's, and \
        answers North, South, East, West or Stay.",
    framing: Framing::Line,
    order: Order::OneAtATime,
    turn: Word {
        one: "move",
        many: "moves",
    },
    // Four seats, 1 s a move (10 s for the first: interpreters start), 1,200 moves.
    defaults: Defaults {
        seats: (4, 4),
        turn_time: Duration::from_secs(1),
        first_reply_time: Duration::from_secs(10),
        max_turns: DEFAULT_MAX_TURNS,
    },
    stats: &["gold", "mines", "deaths"],
    replay_format: FORMAT,
    log: LogFormat {
        title: "Game log (JSON lines)",
        extension: "jsonl",
    },
    maps: Maps::Files { extension: "txt" },
    smoke: Smoke {
        map: "m1",
        opponents: &["random", "random", "random"],
    },
    house_prefix: "vin-",
    time_rule: "§9",
};

impl GameKind for Vindinium {
    fn describe(&self) -> &'static Description {
        &DESCRIPTION
    }

    fn map_info(&self, map_text: &str) -> Result<MapInfo, SetupError> {
        let map = parse(map_text)?;
        let taverns = (map.board.tiles().iter())
            .filter(|t| **t == Tile::Tavern)
            .count();
        Ok(MapInfo {
            seats: 4,
            numbers: vec![
                ("size", number(map.board.size())),
                ("mines", number(map.board.count_mines())),
                ("taverns", number(taverns)),
            ],
            notes: Vec::new(),
        })
    }

    fn setup(
        &self,
        map_text: &str,
        players: &[String],
        max_turns: u32,
    ) -> Result<Box<dyn Match>, SetupError> {
        Ok(Box::new(VindiniumMatch::new(map_text, players, max_turns)?))
    }

    /// A training game (§9): the first crash ends it, as the original's did.
    fn setup_practice(
        &self,
        map_text: &str,
        players: &[String],
        max_turns: u32,
    ) -> Result<Box<dyn Match>, SetupError> {
        Ok(Box::new(VindiniumMatch::new_as(
            map_text, players, max_turns, true,
        )?))
    }

    fn http_api(&self) -> Option<&dyn game_interface::HttpApi> {
        Some(&crate::http::Api)
    }

    fn generate(&self, seed: u64, seats: usize) -> Result<String, GenerateError> {
        if seats != 4 {
            return Err(GenerateError(format!(
                "Vindinium is played by 4 heroes, not {seats}"
            )));
        }
        crate::generate::generate(seed)
            .map(|m| m.render())
            .map_err(|e| GenerateError(e.to_string()))
    }

    /// The GAME object of every state as a bot reads it, one a line, then the winner
    /// ([`write_log`]).
    fn write_log(&self, replay_json: &str, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        write_log(replay_json, out)
    }

    fn stored_stream(&self, replay_json: &str) -> Result<Stream, String> {
        let (head, rows, result) = stream_of(replay_json)?;
        Ok(Stream { head, rows, result })
    }

    /// One of the five directions, at random.
    fn sample_reply(&self, _m: &dyn Match, _seat: Seat, seed: u64) -> Vec<String> {
        const DIRS: [&str; 5] = ["Stay", "North", "South", "East", "West"];
        let i = (seed ^ (seed >> 29)).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 61;
        vec![DIRS[i as usize % DIRS.len()].to_string()]
    }
}

/// A game set up as a match sets it up: hero `i + 1` named `players[i]`, id [`GAME_ID`];
/// a game of 0 moves is over at once.
pub fn start(map_text: &str, players: &[String], max_turns: u32) -> Result<Game, SetupError> {
    start_as(map_text, players, max_turns, false)
}

/// [`start`] of a training game (§9) when `training`.
pub fn start_as(
    map_text: &str,
    players: &[String],
    max_turns: u32,
    training: bool,
) -> Result<Game, SetupError> {
    let map = parse(map_text)?;
    let names: [&str; 4] = match players {
        [a, b, c, d] => [a, b, c, d],
        _ => {
            return Err(SetupError::Players(format!(
                "Vindinium is played by 4 heroes, not {}",
                players.len()
            )))
        }
    };
    for (i, name) in names.iter().enumerate() {
        if name.is_empty() || names[..i].contains(name) {
            return Err(SetupError::Players(format!(
                "player names must be distinct and not empty: `{name}`"
            )));
        }
    }
    let mut game = Game::new(GAME_ID, &map, names, max_turns);
    game.training = training;
    if max_turns == 0 {
        game.status = Status::TurnMax;
    }
    Ok(game)
}

/// The head of the live stream: what a viewer needs before the rows.
/// A training game's head says so (`"training": true`); any other's is as it was.
pub fn head_json(map_text: &str, heroes: &[String], max_turns: u32, training: bool) -> String {
    let mut head = serde_json::json!({
        "format": FORMAT,
        "version": VERSION,
        "map": map_text,
        "heroes": heroes,
        "max_turns": max_turns,
    });
    if training {
        head["training"] = serde_json::Value::Bool(true);
    }
    head.to_string()
}

/// What the live stream sends of a stored replay: its head, every row (JSON) and the
/// result (JSON, `null` before the end), the bytes a viewer got while it was played.
pub fn stream_of(replay_json: &str) -> Result<(String, Vec<String>, String), String> {
    let stored = read(replay_json)?;
    let head = head_json(
        &stored.map,
        &stored.heroes,
        stored.max_turns,
        stored.training,
    );
    let rows = (stored.rows().iter())
        .map(|r| serde_json::to_string(r).map_err(|e| e.to_string()))
        .collect::<Result<_, _>>()?;
    let result = serde_json::to_string(&stored.result).map_err(|e| e.to_string())?;
    Ok((head, rows, result))
}

/// The local tool's log of a stored replay: the GAME object of every state as a bot
/// reads it (state 0 first, then the state after each move), one a line, then
/// `{"winner": ID}` (or `{"winner": null}` when the top gold is shared) once the game
/// is over. Written a state at a time: the game is played from its moves and only the
/// state at hand is held, however long the game. The replay is checked first, as
/// [`decode`] checks it (a second playing of the moves, without writing), so a
/// replay that does not read writes nothing and is an error of kind `InvalidData`.
pub fn write_log(replay_json: &str, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    let invalid = |e: String| std::io::Error::new(std::io::ErrorKind::InvalidData, e);
    let stored = read(replay_json).map_err(invalid)?;
    check(&stored).map_err(invalid)?;
    let mut game = start_as(
        &stored.map,
        &stored.heroes,
        stored.max_turns,
        stored.training,
    )
    .map_err(|e| invalid(e.to_string()))?;
    let mut line = Vec::new();
    let mut write = |g: &Game, out: &mut dyn std::io::Write| {
        line.clear();
        serde_json::to_writer(&mut line, &g.game_json()).map_err(std::io::Error::other)?;
        line.push(b'\n');
        out.write_all(&line)
    };
    write(&game, out)?;
    for (i, c) in stored.moves.chars().enumerate() {
        let mv = char_move(c).ok_or_else(|| invalid(format!("move {}: `{c}`", i + 1)))?;
        game.step(mv)
            .map_err(|e| invalid(format!("move {}: {e}", i + 1)))?;
        write(&game, out)?;
    }
    if game.is_finished() {
        let winner = serde_json::json!({ "winner": game.outcome().winner });
        out.write_all(format!("{winner}\n").as_bytes())?;
    }
    Ok(())
}

/// What [`decode`] checks of a stored replay, playing its moves without keeping the
/// states: its reply times and notes within its moves, every move legal, and a
/// stored result the last state's.
fn check(stored: &Stored) -> Result<(), String> {
    let moves = stored.moves.chars().count();
    if !(stored.ms.is_empty() || stored.ms.len() == moves)
        || stored.notes.iter().any(|n| n.t > moves)
    {
        return Err(format!("reply times or notes beyond the {moves} moves"));
    }
    let mut game = start_as(
        &stored.map,
        &stored.heroes,
        stored.max_turns,
        stored.training,
    )
    .map_err(|e| e.to_string())?;
    for (i, c) in stored.moves.chars().enumerate() {
        let mv = char_move(c).ok_or_else(|| format!("move {}: `{c}` is no move", i + 1))?;
        game.step(mv).map_err(|e| format!("move {}: {e}", i + 1))?;
    }
    if let Some(result) = &stored.result {
        if !game.is_finished() || result.gold != game.stats().map(|s| s.gold) {
            return Err("the stored result is not the replayed game's".into());
        }
    }
    Ok(())
}

/// [`write_log`] as text.
pub fn log(replay_json: &str) -> Result<String, String> {
    let mut out = Vec::new();
    write_log(replay_json, &mut out).map_err(|e| e.to_string())?;
    String::from_utf8(out).map_err(|e| e.to_string())
}

/// A bot's answer line read as the original reads it ([`Dir::from_answer`]), with a
/// warning `unknown move `TEXT`: stayed` unless it names a direction or `stay` (the
/// text trimmed, cut to [`QUOTED_CHARS`] characters and `…`).
pub fn read_order(line: &str) -> (Dir, Option<String>) {
    let dir = Dir::from_answer(line);
    let word = line.to_lowercase();
    if dir != Dir::Stay || word.trim_matches(|c| c <= ' ') == "stay" {
        return (dir, None);
    }
    let text = line.trim();
    let mut quoted: String = text.chars().take(QUOTED_CHARS).collect();
    if quoted.len() < text.len() {
        quoted.push('…');
    }
    (dir, Some(format!("unknown move `{quoted}`: stayed")))
}

/// A Vindinium match in progress: the game, the map text it came from and its rows.
pub struct VindiniumMatch {
    game: Game,
    map_text: String,
    heroes: Vec<String>,
    /// Row 0 (the initial state) and one row per move played.
    rows: Vec<Row>,
    warnings: [u64; 4],
}

impl VindiniumMatch {
    /// A match on `map_text`, hero `i + 1` played by `players[i]`.
    pub fn new(
        map_text: &str,
        players: &[String],
        max_turns: u32,
    ) -> Result<VindiniumMatch, SetupError> {
        VindiniumMatch::new_as(map_text, players, max_turns, false)
    }

    /// [`VindiniumMatch::new`], of a training game (§9) when `training`.
    pub fn new_as(
        map_text: &str,
        players: &[String],
        max_turns: u32,
        training: bool,
    ) -> Result<VindiniumMatch, SetupError> {
        let game = start_as(map_text, players, max_turns, training)?;
        Ok(VindiniumMatch {
            game,
            map_text: map_text.to_string(),
            heroes: players.to_vec(),
            rows: vec![Row {
                start: true,
                ..Row::default()
            }],
            warnings: [0; 4],
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

    /// The stored replay as a value ([`Match::replay_json`] writes it). Reply times
    /// are kept from [`KEPT_MS`] on, the ones worth a look against the time limit;
    /// none at all when every reply was faster.
    pub fn stored(&self) -> Stored {
        let moves = self.rows[1..].iter().filter_map(|r| r.m).collect();
        let mut ms: Vec<Option<u32>> = (self.rows[1..].iter())
            .map(|r| r.ms.filter(|&ms| ms >= KEPT_MS))
            .collect();
        if ms.iter().all(Option::is_none) {
            ms.clear();
        }
        let notes = (self.rows.iter().enumerate())
            .filter(|(_, r)| !r.notes.is_empty())
            .map(|(t, r)| NoteAt {
                t,
                notes: r.notes.clone(),
            })
            .collect();
        let result = self.game.is_finished().then(|| {
            let stats = self.game.stats();
            StoredResult {
                status: match self.game.status {
                    Status::AllCrashed => "all_crashed",
                    _ => "turn_max",
                }
                .to_string(),
                ranks: self.game.outcome().ranks.to_vec(),
                gold: stats.iter().map(|s| s.gold).collect(),
                mines: stats.iter().map(|s| s.mines).collect(),
                deaths: stats.iter().map(|s| s.deaths).collect(),
                warnings: self.warnings.to_vec(),
            }
        });
        Stored {
            format: FORMAT.to_string(),
            version: VERSION,
            map: self.map_text.clone(),
            heroes: self.heroes.clone(),
            max_turns: self.game.max_turns,
            training: self.game.training,
            moves,
            ms,
            notes,
            result,
        }
    }

    /// Plays `mv` for the hero to move and writes its row.
    fn play(&mut self, mv: Move, ms: Option<u32>, notes: Notes) {
        let crashed = self.game.hero(self.game.hero_to_move()).crashed;
        let mv = if crashed { Move::Go(Dir::Stay) } else { mv };
        self.game
            .step(mv)
            .expect("moves are played only before the end");
        // The live row keeps what the stored replay keeps, so that a viewer sees the
        // same rows live and after the end.
        self.rows.push(Row {
            start: false,
            m: Some(move_char(mv)),
            ms: ms.filter(|&ms| ms >= KEPT_MS),
            notes,
        });
    }
}

/// The move an answer stands for (§9: no reply in time and a crash are both a crash),
/// and the notes it leaves.
fn read_answer(answer: Option<&Answer>) -> (Move, Notes) {
    match answer {
        None | Some(Answer::NoReply) => (Move::Crash, Notes::default()),
        Some(Answer::Crashed(why)) => (
            Move::Crash,
            Notes {
                crash: Some(why.clone()),
                ..Notes::default()
            },
        ),
        Some(Answer::Lines(lines)) => {
            let (dir, warning) = read_order(lines.first().map_or("", String::as_str));
            (
                Move::Go(dir),
                Notes {
                    warning,
                    ..Notes::default()
                },
            )
        }
    }
}

impl Match for VindiniumMatch {
    fn seats(&self) -> usize {
        4
    }

    /// Moves played: the rows after row 0 (one more than the game's turn when the
    /// fourth crash ended it, which does not advance the turn).
    fn turn(&self) -> u32 {
        (self.rows.len() - 1) as u32
    }

    fn to_answer(&self) -> Vec<Seat> {
        if self.game.is_finished() {
            return Vec::new();
        }
        vec![self.game.hero_to_move() - 1]
    }

    fn view(&self, seat: Seat) -> Vec<u8> {
        let mut line = self.game.view_line(seat + 1);
        line.push('\n');
        line.into_bytes()
    }

    /// The awaited hero's move, then the Stays of every crashed hero to move after it,
    /// up to a hero still playing or the end.
    fn step(&mut self, answers: &[(Seat, Answer)], notes: &RunnerNotes) -> StepReport {
        if self.game.is_finished() {
            return StepReport::default();
        }
        let seat = self.game.hero_to_move() - 1;
        let answer = answers.iter().find(|(s, _)| *s == seat).map(|(_, a)| a);
        let (mv, mut row_notes) = read_answer(answer);
        let mut report = StepReport::default();
        if let Some(warning) = &row_notes.warning {
            self.warnings[seat] += 1;
            report.warnings.push((seat, warning.clone()));
        }
        row_notes.timeout = notes.timeouts.contains(&seat);
        row_notes.limits = notes.limits.clone();
        let ms = notes.ms.get(seat).copied().flatten();
        let crashed = !self.game.hero(seat + 1).crashed && mv == Move::Crash;
        self.play(mv, ms, row_notes);
        if crashed {
            // Its hero plays on by itself (Stays): the runner ends its bot.
            report.removals.push((seat, format!("crashed: {STAYS}")));
        }
        while !self.game.is_finished() && self.game.hero(self.game.hero_to_move()).crashed {
            self.play(Move::Go(Dir::Stay), None, Notes::default());
        }
        report
    }

    /// With the last row written (row 0 before any move).
    fn note_late_limit(&mut self, seat: Seat, text: String) {
        if let Some(row) = self.rows.last_mut() {
            row.notes.limits.push((seat, text));
        }
    }

    fn is_over(&self) -> bool {
        self.game.is_finished()
    }

    fn outcome(&self) -> Outcome {
        Outcome {
            ranks: self.game.outcome().ranks.to_vec(),
        }
    }

    /// Gold, mines and deaths (games/vindinium/rules.md §11).
    fn stats(&self) -> Vec<Numbers> {
        (self.game.stats().iter())
            .map(|s| {
                vec![
                    ("gold", number(s.gold)),
                    ("mines", number(s.mines)),
                    ("deaths", number(s.deaths)),
                ]
            })
            .collect()
    }

    fn warnings(&self) -> Vec<u64> {
        self.warnings.to_vec()
    }

    /// From the rows: the problems of move `t` (row `t`) are those of the reply to
    /// state `t - 1`, where the runner files that reply's stderr; a timeout is a crash
    /// (§9) and is reported as both.
    fn problems(&self, seat: Seat) -> Vec<Problem> {
        let mut found = Collector::default();
        for (t, row) in self.rows.iter().enumerate() {
            let turn = t.saturating_sub(1) as u32;
            let n = &row.notes;
            if t > 0 && (t - 1) % 4 == seat {
                if let Some(w) = &n.warning {
                    found.add(Kind::Warning, w, turn);
                }
                if n.timeout {
                    found.add(Kind::Timeout, TIMEOUT, turn);
                }
                if let Some(why) = &n.crash {
                    found.add(Kind::Removed, &format!("{why}: {STAYS}"), turn);
                } else if n.timeout {
                    found.add(Kind::Removed, &format!("no reply in time: {STAYS}"), turn);
                }
            }
            for (_, text) in n.limits.iter().filter(|(s, _)| *s == seat) {
                found.add(Kind::Limit, text, turn);
            }
        }
        found.finish()
    }

    fn replay_json(&self) -> String {
        serde_json::to_string(&self.stored()).expect("a replay always serializes")
    }

    fn replay_head(&self) -> String {
        head_json(
            &self.map_text,
            &self.heroes,
            self.game.max_turns,
            self.game.training,
        )
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
