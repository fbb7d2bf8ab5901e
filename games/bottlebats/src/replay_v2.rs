//! The compact replay (format `bottlebats-replay`, version 2): the map and the first
//! board once, then per turn the marches sent and what the rules cannot tell (who was
//! removed, warnings, timeouts, limits, times); a reader plays the rules to rebuild
//! every board, battle and capture. A keyframe (the whole board) every
//! [`KEYFRAME_EVERY`] turns lets a reader seek in constant time and a live viewer start
//! from the newest one.
//!
//! ```json
//! {
//!   "format": "bottlebats-replay", "version": 2,
//!   "map": { "forts": [["boyard", 10, 20], ...], "roads": [[0, 1, 15], ...] },
//!   "players": ["alice", "bob"], "max_steps": 500, "keyframe_every": 250,
//!   "turns": [
//!     { "k": { "owners": [0, 1, -1], "garrisons": [100, 100, 0], "marches": [] } },
//!     [3, 46, 4, 12],
//!     { "s": [1, 45], "e": { "warnings": [[1, "unknown fort `x`"]], "ms": [3, 12] } },
//!     ...
//!   ],
//!   "result": { "winner": 0, "ranks": [1, 2], "removed": [null, 57], "turns": 58 }
//! }
//! ```
//!
//! Row `t` tells the turn that led from board `t - 1` to board `t` (row 0 is the first
//! board). The contract, what a reader derives (games/bottlebats/rules.md §3–§4):
//!
//! - `s`: the marches sent, one per way (`way = 2 * road + toward`, `toward` 1 when it
//!   heads to the road's second fort), in increasing way order, flat as pairs
//!   `way - previous way, size` (the first way counts from 0). Each leaves the fort at
//!   the other end of its road, owned by that fort's owner, and takes its soldiers from
//!   that fort's garrison; it starts at `2 * length` half-steps from its destination,
//!   merged with a march of the same owner already there.
//! - Then the rules: every road moves two half-steps, marches of different owners that
//!   meet fight (the battles), arrivals besiege their fort (the captures), every fort a
//!   player owns gains one soldier. A march's place on its road follows from the turn
//!   it was sent: `length - (t - sent)` steps left at board `t`.
//! - `e`: the turn's events the rules do not give, as v1's `events` (`removed`,
//!   `warnings`, `timeouts`, `limits`, `ms`).
//! - A row that holds nothing but `s` is written as that bare array (`[]` for a turn
//!   where nothing was sent).
//! - A row with `k` holds board `t` whole instead of deriving it, and its `e` also
//!   holds the turn's `battles` and `captures`. The first row always does; so does a
//!   row every `keyframe_every` turns, and any turn the rules above would not give.
//!
//! [`encode`] makes one from a v1 [`Replay`] recorded from a game (its events carry
//! the marches sent) and [`decode`] gives it back, board for board; [`Reader`] rebuilds
//! any turn from the nearest keyframe. Rows can be written as a game is played
//! ([`Encoder`]) and read as they come ([`Follower`]): a replay cut after any row reads
//! as the turns played so far.

use serde::{Deserialize, Serialize};

use crate::game::{advance, put_march, RoadMarches, TurnEvents};
use crate::map::{Map, Owner};
use crate::replay::{owner_of, Events, Replay, ReplayMap, ReplayResult, Turn, FORMAT};

/// The version this module writes.
pub const VERSION: u32 = 2;

/// A keyframe every this many turns: a reader replays at most this many turns to
/// reach any board.
pub const KEYFRAME_EVERY: usize = 250;

/// `[road, toward, owner, size, sent]`, as in v1.
type March = (usize, u8, i32, u64, i64);

/// A compact replay.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompactReplay {
    pub format: String,
    pub version: u32,
    pub map: ReplayMap,
    pub players: Vec<String>,
    pub max_steps: u32,
    pub keyframe_every: usize,
    pub turns: Vec<Row>,
    pub result: Option<ReplayResult>,
}

/// One turn: the marches sent and the events the rules do not give, or a keyframe.
/// A row with nothing but marches sent is written as its bare `s` array.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(from = "RowJson", into = "RowJson")]
pub struct Row {
    /// The whole board.
    pub k: Option<Board>,
    /// Marches sent, flat: `way - previous way, size, ...` in increasing way order.
    pub s: Vec<u64>,
    /// The turn's events that the rules do not give (all of them with `k`).
    pub e: Events,
}

/// A row as written: its bare `s` when it holds nothing else, or an object.
#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum RowJson {
    Sends(Vec<u64>),
    Full(Box<RowObject>),
}

#[derive(Serialize, Deserialize)]
struct RowObject {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    k: Option<Board>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    s: Vec<u64>,
    #[serde(default, skip_serializing_if = "Events::is_empty")]
    e: Events,
}

impl From<RowJson> for Row {
    fn from(r: RowJson) -> Row {
        match r {
            RowJson::Sends(s) => Row {
                s,
                ..Row::default()
            },
            RowJson::Full(o) => Row {
                k: o.k,
                s: o.s,
                e: o.e,
            },
        }
    }
}

impl From<Row> for RowJson {
    fn from(r: Row) -> RowJson {
        if r.k.is_none() && r.e.is_empty() {
            RowJson::Sends(r.s)
        } else {
            RowJson::Full(Box::new(RowObject {
                k: r.k,
                s: r.s,
                e: r.e,
            }))
        }
    }
}

/// A whole board.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Board {
    pub owners: Vec<i32>,
    pub garrisons: Vec<u64>,
    pub marches: Vec<March>,
}

impl Board {
    fn of(turn: &Turn) -> Board {
        Board {
            owners: turn.owners.clone(),
            garrisons: turn.garrisons.clone(),
            marches: turn.marches.clone(),
        }
    }

    fn turn(&self) -> Turn {
        Turn {
            owners: self.owners.clone(),
            garrisons: self.garrisons.clone(),
            marches: self.marches.clone(),
            events: Events::default(),
        }
    }
}

/// The sends `(way, size)` of a row, from its flat delta form.
fn sends_of(s: &[u64]) -> Result<Vec<(usize, u64)>, String> {
    if s.len() % 2 != 0 {
        return Err("a march sent without its size".into());
    }
    let mut way = 0u64;
    let mut out = Vec::with_capacity(s.len() / 2);
    for (i, pair) in s.chunks(2).enumerate() {
        if i > 0 && pair[0] == 0 {
            return Err("two marches sent on one way".into());
        }
        way = way.checked_add(pair[0]).ok_or("a march sent on no road")?;
        out.push((way as usize, pair[1]));
    }
    Ok(out)
}

/// The flat delta form of sends `(way, size)` in increasing way order.
fn flat(sends: &[(usize, u64)]) -> Vec<u64> {
    let mut prev = 0;
    let mut out = Vec::with_capacity(2 * sends.len());
    for &(way, size) in sends {
        out.extend([(way - prev) as u64, size]);
        prev = way;
    }
    out
}

/// The rules' view of a replay's map: roads and their lengths.
struct Rules {
    map: Map,
    lengths: Vec<u32>,
    /// Every road joins two forts of the map.
    roads_ok: bool,
}

impl Rules {
    fn new(map: &ReplayMap, players: &[String]) -> Rules {
        let forts = map.forts.len();
        Rules {
            map: map.to_map(players),
            lengths: map.roads.iter().map(|r| r.2).collect(),
            roads_ok: map
                .roads
                .iter()
                .all(|r| r.0 < forts && r.1 < forts && r.2 > 0),
        }
    }

    /// Board `t` and its battles and captures, from board `t - 1` and the marches sent
    /// in between (the module's contract).
    fn derive(&self, prev: &Turn, t: usize, sends: &[(usize, u64)]) -> Result<Turn, String> {
        let (forts, roads) = (prev.owners.len(), self.lengths.len());
        if prev.garrisons.len() != forts || forts != self.map.forts.len() {
            return Err("a board with another number of forts than the map".into());
        }
        if !self.roads_ok {
            return Err("a road to no fort".into());
        }
        let mut owners: Vec<Owner> = prev.owners.iter().map(|&o| owner_of(o)).collect();
        let mut garrisons = prev.garrisons.clone();
        let mut ways = vec![RoadMarches::default(); roads];
        let before = t as i64 - 1;
        for &(road, toward, owner, size, sent) in &prev.marches {
            let length = *self.lengths.get(road).ok_or("a march on no road")?;
            let steps = i64::from(length) - (before - sent);
            if !(0..=i64::from(length)).contains(&steps) || toward > 1 {
                return Err("a march off its road".into());
            }
            let list = way_of(&mut ways[road], toward == 1);
            list.push(crate::game::March {
                owner: owner_of(owner),
                size,
                pos: 2 * steps as u32,
            });
        }
        for list in ways
            .iter_mut()
            .flat_map(|r| [&mut r.toward_a, &mut r.toward_b])
        {
            list.sort_by_key(|m| m.pos);
        }
        for &(way, size) in sends {
            let (road, to_b) = (way / 2, way % 2 == 1);
            let r = self.map.roads.get(road).ok_or("a march sent on no road")?;
            let from = if to_b { r.a } else { r.b };
            let left = garrisons[from.0].checked_sub(size);
            garrisons[from.0] = left.ok_or("a march bigger than its fort's garrison")?;
            let march = crate::game::March {
                owner: owners[from.0],
                size,
                pos: 2 * r.length,
            };
            put_march(way_of(&mut ways[road], to_b), march);
        }
        let mut ev = TurnEvents::default();
        advance(&self.map, &mut owners, &mut garrisons, &mut ways, &mut ev);
        let mut turn = Turn::of_board(&owners, &garrisons, &ways, &self.lengths, t as i64);
        let events = Events::of(&ev);
        (turn.events.battles, turn.events.captures) = (events.battles, events.captures);
        Ok(turn)
    }

    /// Board `t` of `row` and the events of the turn that led to it: from `prev` (board
    /// `t - 1`), or from the row alone when it is a keyframe.
    fn apply(&self, prev: Option<&Turn>, t: usize, row: &Row) -> Result<(Turn, Events), String> {
        let sends = sends_of(&row.s)?;
        let mut events = row.e.clone();
        let board = match (&row.k, prev) {
            (Some(k), _) => k.turn(),
            (None, Some(prev)) => {
                let mut board = self.derive(prev, t, &sends)?;
                let derived = std::mem::take(&mut board.events);
                (events.battles, events.captures) = (derived.battles, derived.captures);
                board
            }
            (None, None) => return Err(format!("turn {t} needs the board before it")),
        };
        events.sends = sends;
        Ok((board, events))
    }
}

fn way_of(road: &mut RoadMarches, to_b: bool) -> &mut Vec<crate::game::March> {
    if to_b {
        &mut road.toward_b
    } else {
        &mut road.toward_a
    }
}

/// Writes a replay's rows as its turns come (the same rows a live viewer follows).
pub struct Encoder {
    rules: Rules,
    keyframe_every: usize,
    last: Option<Turn>,
    turn: usize,
}

impl Encoder {
    pub fn new(map: &ReplayMap, players: &[String], keyframe_every: usize) -> Encoder {
        Encoder {
            rules: Rules::new(map, players),
            keyframe_every: keyframe_every.max(1),
            last: None,
            turn: 0,
        }
    }

    /// The row of the next board, `board`, given the events of the turn that led to it
    /// (none for the first board).
    pub fn row(&mut self, board: &Turn, events: &Events) -> Row {
        let t = self.turn;
        self.turn += 1;
        let mut row = Row {
            k: None,
            s: flat(&events.sends),
            e: Events {
                battles: Vec::new(),
                captures: Vec::new(),
                sends: Vec::new(),
                ..events.clone()
            },
        };
        let plain = Turn {
            events: Events::default(),
            ..board.clone()
        };
        let derived = match &self.last {
            Some(prev) if t % self.keyframe_every != 0 => {
                self.rules.derive(prev, t, &events.sends).ok()
            }
            _ => None,
        };
        let follows = derived.is_some_and(|d| {
            d.owners == plain.owners
                && d.garrisons == plain.garrisons
                && d.marches == plain.marches
                && d.events.battles == events.battles
                && d.events.captures == events.captures
        });
        if !follows {
            row.k = Some(Board::of(&plain));
            row.e.battles = events.battles.clone();
            row.e.captures = events.captures.clone();
        }
        self.last = Some(plain);
        row
    }
}

/// The compact form of a v1 replay recorded from a game. A replay read from v1's JSON
/// has lost the marches sent: it still encodes, but as keyframes.
pub fn encode(replay: &Replay) -> CompactReplay {
    let mut enc = Encoder::new(&replay.map, &replay.players, KEYFRAME_EVERY);
    let none = Events::default();
    let turns = (0..replay.turns.len())
        .map(|t| {
            let before = if t == 0 {
                &none
            } else {
                &replay.turns[t - 1].events
            };
            enc.row(&replay.turns[t], before)
        })
        .collect();
    CompactReplay {
        format: FORMAT.to_string(),
        version: VERSION,
        map: replay.map.clone(),
        players: replay.players.clone(),
        max_steps: replay.max_steps,
        keyframe_every: KEYFRAME_EVERY,
        turns,
        result: replay.result.clone(),
    }
}

/// Reads rows as they come, one after the other (a live game's, or a whole replay's).
pub struct Follower {
    rules: Rules,
    board: Option<Turn>,
    turn: usize,
}

impl Follower {
    pub fn new(map: &ReplayMap, players: &[String]) -> Follower {
        Follower {
            rules: Rules::new(map, players),
            board: None,
            turn: 0,
        }
    }

    /// The next board (without events) and the events of the turn that led to it.
    pub fn push(&mut self, row: &Row) -> Result<(&Turn, Events), String> {
        let (board, events) = self.rules.apply(self.board.as_ref(), self.turn, row)?;
        self.turn += 1;
        Ok((self.board.insert(board), events))
    }
}

/// Rebuilds any board from the nearest keyframe.
pub struct Reader<'a> {
    replay: &'a CompactReplay,
    rules: Rules,
}

impl<'a> Reader<'a> {
    pub fn new(replay: &'a CompactReplay) -> Reader<'a> {
        Reader {
            replay,
            rules: Rules::new(&replay.map, &replay.players),
        }
    }

    fn row(&self, t: usize) -> Result<&Row, String> {
        self.replay
            .turns
            .get(t)
            .ok_or(format!("there is no turn {t}"))
    }

    /// Board `t` with the events of the turn that follows it (none yet for the last).
    pub fn at(&self, t: usize) -> Result<Turn, String> {
        self.row(t)?;
        let start = (0..=t)
            .rev()
            .find(|&k| self.replay.turns[k].k.is_some())
            .ok_or("no keyframe before that turn")?;
        let mut board = None;
        for u in start..=t {
            board = Some(self.rules.apply(board.as_ref(), u, self.row(u)?)?.0);
        }
        let mut board = board.ok_or("no board")?;
        if let Ok(next) = self.row(t + 1) {
            board.events = self.rules.apply(Some(&board), t + 1, next)?.1;
        }
        Ok(board)
    }
}

/// The v1 replay of a compact one, board for board.
pub fn decode(replay: &CompactReplay) -> Result<Replay, String> {
    let mut follower = Follower::new(&replay.map, &replay.players);
    let mut turns: Vec<Turn> = Vec::with_capacity(replay.turns.len());
    for row in &replay.turns {
        let (board, events) = follower.push(row)?;
        let board = board.clone();
        if let Some(last) = turns.last_mut() {
            last.events = events;
        }
        turns.push(board);
    }
    Ok(Replay {
        format: FORMAT.to_string(),
        version: crate::replay::VERSION,
        map: replay.map.clone(),
        players: replay.players.clone(),
        max_steps: replay.max_steps,
        turns,
        result: replay.result.clone(),
    })
}

/// The classic log of a replay's JSON of either version, written a turn at a time: a
/// compact replay's boards are rebuilt one after the other and only the latest is
/// held, so the memory it takes does not grow with the game (a version 1 replay holds
/// every board already). A replay that does not read is an error of kind
/// `InvalidData`, as is one whose rows stop making sense (after the turns before).
pub fn write_classic_log(text: &str, out: &mut impl std::io::Write) -> std::io::Result<()> {
    let invalid = |e: String| std::io::Error::new(std::io::ErrorKind::InvalidData, e);
    match read_either(text).map_err(invalid)? {
        Either::Whole(r) => r.write_classic_log(out),
        Either::Compact(r) => {
            let mut log = crate::replay::ClassicLog::new(&r.map, &r.players);
            let mut follower = Follower::new(&r.map, &r.players);
            for (n, row) in r.turns.iter().enumerate() {
                let (board, _) = follower.push(row).map_err(invalid)?;
                log.write_turn(n, board, out)?;
            }
            Ok(())
        }
    }
}

/// A replay's JSON of either version, as v1 (the form the engine reads and prints).
pub fn read_any(text: &str) -> Result<Replay, String> {
    match read_either(text)? {
        Either::Compact(r) => decode(&r),
        Either::Whole(r) => Ok(r),
    }
}

/// A replay's JSON of either version, in compact form: a v2 text is read as it is
/// (no board is rebuilt), a v1 text is encoded.
pub fn read_compact(text: &str) -> Result<CompactReplay, String> {
    match read_either(text)? {
        Either::Compact(r) => Ok(r),
        Either::Whole(r) => Ok(encode(&r)),
    }
}

/// A replay as its JSON holds it: compact (v2) or whole (v1).
enum Either {
    Compact(CompactReplay),
    Whole(Replay),
}

fn read_either(text: &str) -> Result<Either, String> {
    #[derive(Deserialize)]
    struct Head {
        format: String,
        version: u32,
    }
    let not = |e: serde_json::Error| format!("not a replay: {e}");
    let head: Head = serde_json::from_str(text).map_err(not)?;
    match (head.format.as_str(), head.version) {
        (FORMAT, VERSION) => serde_json::from_str(text).map(Either::Compact).map_err(not),
        _ => Replay::from_json(text).map(Either::Whole),
    }
}

/// A compact replay's head as JSON: the replay without its turns and result, what a
/// live stream sends before the rows (from a match being played, or a stored replay).
pub fn head_json(map: &ReplayMap, players: &[String], max_steps: u32) -> String {
    serde_json::json!({
        "format": FORMAT,
        "version": VERSION,
        "map": map,
        "players": players,
        "max_steps": max_steps,
        "keyframe_every": KEYFRAME_EVERY,
    })
    .to_string()
}

impl CompactReplay {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a replay always serializes")
    }
}
