//! The two traits a game implements: [`GameKind`], the game itself (its maps, its
//! defaults, how it starts a match), and [`Match`], one match in progress.

use std::fmt;

use crate::describe::{Defaults, Description};
use crate::framing::Framing;
use crate::problems::Problem;

/// A seat: the index of a player in the list given to [`GameKind::setup`], from 0.
pub type Seat = usize;

/// Named numbers, in a fixed order: a seat's statistics (`forts`, `soldiers`; `gold`,
/// `mines`, `deaths`) or a map's facts for the catalog (`forts`, `roads`).
pub type Numbers = Vec<(&'static str, i64)>;

/// A count as one of the named [`Numbers`] (counts never come near `i64::MAX`; one that
/// did would read as it).
pub fn number(n: impl TryInto<i64>) -> i64 {
    n.try_into().unwrap_or(i64::MAX)
}

/// A map's facts for the catalog.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapInfo {
    /// The seats the map has.
    pub seats: usize,
    /// Whatever else the catalog shows, named (for Bottle Bats `forts` and `roads`).
    pub numbers: Numbers,
    /// What is worth knowing of the map without making it invalid, in words (Bottle
    /// Bats: a map whose roads cross, or one in two pieces), for `bottlebats map check`.
    pub notes: Vec<String>,
}

/// Why a match cannot start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// The map text is not a valid map of this game: why, in words.
    Map(String),
    /// The players do not fit the map (too many, a bad or repeated name): why.
    Players(String),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::Map(why) => write!(f, "invalid map: {why}"),
            SetupError::Players(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for SetupError {}

/// Why no map could be generated, in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenerateError(pub String);

impl fmt::Display for GenerateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for GenerateError {}

/// What the live stream sends of a stored replay: what a viewer got while the match
/// was played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stream {
    /// The head ([`Match::replay_head`]).
    pub head: String,
    /// Every row ([`Match::rows_since`] from 0), each JSON text.
    pub rows: Vec<String>,
    /// The result (JSON; `null` before the end).
    pub result: String,
}

/// A game the platform can host. One value serves every match of the game; the
/// registry holds it for the whole life of the server, so it is shared across threads.
pub trait GameKind: Send + Sync {
    /// What the game is on a site: names, players, framing, turns, statistics,
    /// formats, maps, smoke test ([`Description`]).
    fn describe(&self) -> &'static Description;
    /// The facts of a map for the catalog, or why the text is not a map of this game
    /// (a map larger than the game allows among them).
    fn map_info(&self, map_text: &str) -> Result<MapInfo, SetupError>;
    /// Starts a match on `map_text`: seat `i` is played by `players[i]`, for at most
    /// `max_turns` turns.
    fn setup(
        &self,
        map_text: &str,
        players: &[String],
        max_turns: u32,
    ) -> Result<Box<dyn Match>, SetupError>;
    /// A practice game (unrated, against house bots) on `map_text`, as
    /// [`GameKind::setup`]: a game whose practice rules differ says so here (Vindinium's
    /// training game ends at the first crash); by default the game's own rules.
    fn setup_practice(
        &self,
        map_text: &str,
        players: &[String],
        max_turns: u32,
    ) -> Result<Box<dyn Match>, SetupError> {
        self.setup(map_text, players, max_turns)
    }
    /// The game's own HTTP API for bots that play over requests ([`crate::HttpApi`]),
    /// if it has one.
    fn http_api(&self) -> Option<&dyn crate::HttpApi> {
        None
    }
    /// A fair map for `seats` seats, as text; the same seed always gives the same map.
    fn generate(&self, seed: u64, seats: usize) -> Result<String, GenerateError>;
    /// [`GameKind::generate`] of a given size, where the game's maps have one (Bottle
    /// Bats: the number of forts); a game of one size ignores it.
    fn generate_sized(
        &self,
        seed: u64,
        seats: usize,
        size: Option<usize>,
    ) -> Result<String, GenerateError> {
        let _ = size;
        self.generate(seed, seats)
    }
    /// Writes the game's log ([`Description::log`]) of a stored replay (the JSON
    /// [`Match::replay_json`] gave) to `out` one state at a time, as the game's local
    /// tool writes it: the memory it takes must not grow with the game's length (a
    /// state is built, written and dropped before the next), since anyone may ask a
    /// site for any match's log. An error of `out` stops it; a replay that does not
    /// read is an error of kind `InvalidData`.
    fn write_log(&self, replay_json: &str, out: &mut dyn std::io::Write) -> std::io::Result<()>;
    /// What the live stream sends of a stored replay.
    fn stored_stream(&self, replay_json: &str) -> Result<Stream, String>;
    /// A reply `seat` might give now, drawn at random among those the rules accept
    /// (the same seed gives the same reply): the random player of the conformance
    /// suite ([`crate::conformance`]).
    fn sample_reply(&self, m: &dyn Match, seat: Seat, seed: u64) -> Vec<String>;
}

impl<'a> dyn GameKind + 'a {
    /// [`Description::name`].
    pub fn name(&self) -> &'static str {
        self.describe().name
    }
    /// [`Description::title`].
    pub fn title(&self) -> &'static str {
        self.describe().title
    }
    /// [`Description::framing`].
    pub fn framing(&self) -> Framing {
        self.describe().framing
    }
    /// [`Description::defaults`].
    pub fn defaults(&self) -> Defaults {
        self.describe().defaults
    }
}

/// What the runner got from one awaited seat for one turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The reply, cut by the game's [`Framing`]: its lines.
    Lines(Vec<String>),
    /// No reply in time, and the seat stays in the match (its late reply will be
    /// read and dropped by the runner). The game says what this turn then means.
    NoReply,
    /// The seat will not answer again: it crashed, closed its output, broke the
    /// framing, or the runner's time policy gave up on it. The reason, in words.
    Crashed(String),
}

/// The runner's own observations of one turn, which only the runner can make. They
/// go into the game's replay as they are: the runner decides nothing about the game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunnerNotes {
    /// Seats whose reply did not come in time this turn (their answer is
    /// [`Answer::NoReply`]).
    pub timeouts: Vec<Seat>,
    /// Sandbox limits a seat ran into this turn (memory, processes), in words.
    pub limits: Vec<(Seat, String)>,
    /// The time each seat's reply took, in milliseconds, by seat (`None` for a seat
    /// that did not answer); empty when nothing was measured.
    pub ms: Vec<Option<u32>>,
    /// Seats whose late reply to an earlier turn was read and dropped this turn.
    pub late_replies: Vec<Seat>,
}

/// What one turn did that the runner and the server act on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StepReport {
    /// Warnings raised by bad reply lines, as the game reports them.
    pub warnings: Vec<(Seat, String)>,
    /// Seats that left the match this turn, with the reason in words; the runner
    /// tells their bots the game is over.
    pub removals: Vec<(Seat, String)>,
}

/// How a finished match ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The rank of each seat, 1 the best; seats that tie share a rank.
    pub ranks: Vec<u32>,
}

impl Outcome {
    /// The seat that alone holds rank 1, if one does.
    pub fn winner(&self) -> Option<Seat> {
        let mut first = self.ranks.iter().enumerate().filter(|(_, &r)| r == 1);
        match (first.next(), first.next()) {
            (Some((seat, _)), None) => Some(seat),
            _ => None,
        }
    }
}

/// One match in progress: the game's whole state and its replay, which the match
/// writes itself as it goes. The runner moves it between threads, so it is `Send`.
pub trait Match: Send {
    /// The number of seats (players) of the match.
    fn seats(&self) -> usize;
    /// Turns played so far.
    fn turn(&self) -> u32;
    /// The seats that must answer now, in seat order: every seat still playing
    /// (simultaneous moves) or exactly one (sequential). Empty once the match is over.
    fn to_answer(&self) -> Vec<Seat>;
    /// What `seat` is sent this turn, as bytes to write to its input.
    fn view(&self, seat: Seat) -> Vec<u8>;
    /// Plays one turn. `answers` holds what each seat of [`Match::to_answer`] gave;
    /// an awaited seat missing from it counts as [`Answer::NoReply`], answers of other
    /// seats are ignored. Does nothing once the match is over.
    fn step(&mut self, answers: &[(Seat, Answer)], notes: &RunnerNotes) -> StepReport;
    /// Files a limit the runner saw after the last turn's step (while it ended a bot)
    /// with that turn, in the replay.
    fn note_late_limit(&mut self, seat: Seat, text: String);
    /// True once no more turns are played.
    fn is_over(&self) -> bool;
    /// The ranks as they stand; the outcome once [`Match::is_over`].
    fn outcome(&self) -> Outcome;
    /// Each seat's statistics, by seat, the same names for every seat.
    fn stats(&self) -> Vec<Numbers>;
    /// Each seat's warnings so far, every occurrence counted.
    fn warnings(&self) -> Vec<u64>;
    /// What went wrong for `seat` so far, by first turn: each distinct warning,
    /// timeout, limit and removal of its own with its count (defeat is no problem).
    fn problems(&self, seat: Seat) -> Vec<Problem>;
    /// The stored replay, as JSON: the turns so far, and the result once over.
    fn replay_json(&self) -> String;
    /// The head of the live stream (JSON): what a viewer needs before the rows.
    fn replay_head(&self) -> String;
    /// The live stream's rows from row `n` on, each one JSON text: row `t` is board
    /// `t` (row 0 the first), so there are [`Match::turn`] + 1 rows in all.
    fn rows_since(&self, n: usize) -> Vec<String>;
    /// The match as [`std::any::Any`], for code of the game itself that needs its own
    /// types back (a game's local tool printing its own log, say).
    fn as_any(&self) -> &dyn std::any::Any;
    /// [`Match::as_any`], taking the match.
    fn into_any(self: Box<Self>) -> Box<dyn std::any::Any + Send>;
}
