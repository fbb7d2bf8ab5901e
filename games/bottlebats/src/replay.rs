//! The JSON replay (format `bottlebats-replay`, version 1) and the classic text log.
//!
//! A replay is compact: the map once, then one row per turn holding every fort's owner
//! and garrison, the marches as short arrays, and the events of the turn that follows
//! that snapshot. Owners are player indexes, `-1` for neutral. The classic log is
//! printed from a replay, so both always tell the same game.
//!
//! ```json
//! {
//!   "format": "bottlebats-replay", "version": 1,
//!   "map": { "forts": [["boyard", 10, 20], ...], "roads": [[0, 1, 15], ...] },
//!   "players": ["alice", "bob"],
//!   "max_steps": 500,
//!   "turns": [
//!     { "owners": [0, 1, -1], "garrisons": [100, 100, 0],
//!       "marches": [[road, toward, owner, size, sent], ...],
//!       "events": { "battles": [[road, half_steps_from_a, owner_to_a, size_to_a,
//!                                owner_to_b, size_to_b]],
//!                   "captures": [[fort, from, to]],
//!                   "removed": [[player, "reason"]],
//!                   "warnings": [[player, "text"]],
//!                   "timeouts": [player],
//!                   "limits": [[player, "hit its limit of 64 processes"]],
//!                   "ms": [used_by_player_0, used_by_player_1] } }
//!   ],
//!   "result": { "winner": 0, "ranks": [1, 2], "removed": [null, 57], "turns": 58 }
//! }
//! ```
//!
//! `toward` is 0 for a march heading to the road's first fort, 1 for its second.
//! `sent` is the turn the march left its fort (negative or 0 for the map's own
//! marches): at the snapshot of turn `t` it has `length - (t - sent)` steps left. A
//! march's row therefore stays the same from turn to turn until a battle changes its
//! size, which is what makes replays compress well. The last turn is the final snapshot and has no events. `ms` is the time each player's
//! reply took that turn (CPU time where the sandbox measures it, else wall clock),
//! `null` for players that did not play it.

use std::io::{self, Write};

use serde::{Deserialize, Serialize};

use crate::game::{Game, Outcome, RemovalReason, RoadMarches, TurnEvents};
use crate::map::{Fort, Map, Owner, Road, Seat};
use crate::view::Snapshot;

pub const FORMAT: &str = "bottlebats-replay";
pub const VERSION: u32 = 1;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Replay {
    pub format: String,
    pub version: u32,
    pub map: ReplayMap,
    pub players: Vec<String>,
    pub max_steps: u32,
    pub turns: Vec<Turn>,
    pub result: Option<ReplayResult>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReplayMap {
    /// `[name, x, y]`
    pub forts: Vec<(String, i64, i64)>,
    /// `[a, b, length]` with fort indexes.
    pub roads: Vec<(usize, usize, u32)>,
}

impl ReplayMap {
    /// The map of these forts and roads for players `seats`, its forts neutral and
    /// empty (a replay's boards give owners and garrisons).
    pub fn to_map(&self, seats: &[String]) -> Map {
        Map {
            forts: self
                .forts
                .iter()
                .map(|(name, x, y)| Fort {
                    name: name.clone(),
                    x: *x,
                    y: *y,
                    owner: Owner::Neutral,
                    garrison: 0,
                })
                .collect(),
            roads: self
                .roads
                .iter()
                .map(|&(a, b, length)| Road {
                    a: crate::map::FortId(a),
                    b: crate::map::FortId(b),
                    length,
                })
                .collect(),
            marches: Vec::new(),
            seats: seats.to_vec(),
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Turn {
    pub owners: Vec<i32>,
    pub garrisons: Vec<u64>,
    /// `[road, toward, owner, size, sent]`
    pub marches: Vec<(usize, u8, i32, u64, i64)>,
    #[serde(default, skip_serializing_if = "Events::is_empty")]
    pub events: Events,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Events {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub battles: Vec<(usize, u32, i32, u64, i32, u64)>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub captures: Vec<(usize, i32, i32)>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub removed: Vec<(usize, String)>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<(usize, String)>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub timeouts: Vec<usize>,
    /// Sandbox limits a player ran into (memory, processes), each reported once.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub limits: Vec<(usize, String)>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ms: Vec<Option<u32>>,
    /// The marches sent, as `(2 * road + toward, size)` by way in way order, those on
    /// one way merged. Not in v1's JSON (its boards show them); the compact replay
    /// (`crate::replay_v2`) is made of them.
    #[serde(skip)]
    pub sends: Vec<(usize, u64)>,
}

impl Events {
    pub fn is_empty(&self) -> bool {
        *self == Events::default()
    }
}

/// The reason of a removal that is the game's ordinary end for a player.
pub const DEFEATED: &str = "defeated";

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReplayResult {
    pub winner: Option<usize>,
    pub ranks: Vec<u32>,
    /// The turn each player was removed in, `null` for those still active.
    pub removed: Vec<Option<u32>>,
    /// Turns played.
    pub turns: u32,
}

/// The short text of a removal reason.
pub fn reason_text(r: &RemovalReason) -> String {
    match r {
        RemovalReason::Defeated => DEFEATED.to_string(),
        RemovalReason::Fatal(why) => why.clone(),
    }
}

pub(crate) fn owner_code(o: Owner) -> i32 {
    match o {
        Owner::Neutral => -1,
        Owner::Seat(s) => s.0 as i32,
    }
}

pub(crate) fn owner_of(code: i32) -> Owner {
    if code < 0 {
        Owner::Neutral
    } else {
        Owner::Seat(Seat(code as usize))
    }
}

impl Turn {
    /// The board of `game` as it stands now, with no events yet.
    pub fn of(game: &Game) -> Turn {
        let lengths: Vec<u32> = game.map().roads.iter().map(|r| r.length).collect();
        Turn::of_board(
            game.owners(),
            game.garrisons(),
            game.road_marches(),
            &lengths,
            game.turn() as i64,
        )
    }

    /// A board at turn `now` (roads of the given lengths), with no events.
    pub(crate) fn of_board(
        owners: &[Owner],
        garrisons: &[u64],
        roads: &[RoadMarches],
        lengths: &[u32],
        now: i64,
    ) -> Turn {
        let mut marches = Vec::new();
        for (i, r) in roads.iter().enumerate() {
            let length = i64::from(lengths[i]);
            for (toward, list) in [(0u8, &r.toward_a), (1u8, &r.toward_b)] {
                marches.extend(list.iter().map(|m| {
                    let sent = now - (length - m.pos as i64 / 2);
                    (i, toward, owner_code(m.owner), m.size, sent)
                }));
            }
        }
        Turn {
            owners: owners.iter().map(|&o| owner_code(o)).collect(),
            garrisons: garrisons.to_vec(),
            marches,
            events: Events::default(),
        }
    }
}

impl Events {
    /// The game's own events of a turn; the runner adds timeouts and times.
    pub fn of(ev: &TurnEvents) -> Events {
        Events {
            battles: ev
                .battles
                .iter()
                .map(|b| {
                    (
                        b.road.0,
                        b.from_a,
                        owner_code(b.toward_a.0),
                        b.toward_a.1,
                        owner_code(b.toward_b.0),
                        b.toward_b.1,
                    )
                })
                .collect(),
            captures: ev
                .captures
                .iter()
                .map(|c| (c.fort.0, owner_code(c.from), owner_code(c.to)))
                .collect(),
            removed: ev
                .removals
                .iter()
                .map(|(s, r)| (s.0, reason_text(r)))
                .collect(),
            warnings: ev.warnings.iter().map(|(s, w)| (s.0, w.clone())).collect(),
            timeouts: Vec::new(),
            limits: Vec::new(),
            ms: Vec::new(),
            sends: by_way(&ev.sends),
        }
    }
}

/// Sends as `(way, size)`, merged per way, in way order.
fn by_way(sends: &[(crate::map::RoadId, bool, u64)]) -> Vec<(usize, u64)> {
    let mut out: Vec<(usize, u64)> = sends
        .iter()
        .map(|&(road, b, size)| (2 * road.0 + usize::from(b), size))
        .collect();
    out.sort_by_key(|s| s.0);
    out.dedup_by(|later, first| {
        let same = later.0 == first.0;
        if same {
            first.1 += later.1;
        }
        same
    });
    out
}

impl Replay {
    /// A replay holding the map and the first snapshot of `game`.
    pub fn start(game: &Game) -> Replay {
        let map = game.map();
        Replay {
            format: FORMAT.to_string(),
            version: VERSION,
            map: ReplayMap {
                forts: map
                    .forts
                    .iter()
                    .map(|f| (f.name.clone(), f.x, f.y))
                    .collect(),
                roads: map.roads.iter().map(|r| (r.a.0, r.b.0, r.length)).collect(),
            },
            players: game.names().to_vec(),
            max_steps: game.max_steps(),
            turns: vec![Turn::of(game)],
            result: None,
        }
    }

    /// Records a played turn: its events go with the previous snapshot, then the new
    /// board is appended.
    pub fn push(&mut self, events: Events, game: &Game) {
        if let Some(last) = self.turns.last_mut() {
            last.events = events;
        }
        self.turns.push(Turn::of(game));
    }

    /// Records the end of the game.
    pub fn finish(&mut self, game: &Game, outcome: &Outcome) {
        self.result = Some(ReplayResult {
            winner: outcome.winner.map(|s| s.0),
            ranks: outcome.ranks.clone(),
            removed: game
                .players()
                .iter()
                .map(|p| p.removed.as_ref().map(|(t, _)| *t))
                .collect(),
            turns: game.turn(),
        });
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a replay always serializes")
    }

    pub fn from_json(text: &str) -> Result<Replay, String> {
        let r: Replay = serde_json::from_str(text).map_err(|e| format!("not a replay: {e}"))?;
        if r.format != FORMAT || r.version != VERSION {
            return Err(format!(
                "unsupported replay format `{}` version {}",
                r.format, r.version
            ));
        }
        Ok(r)
    }

    /// Writes the classic log: `# STEP: n`, the full board, a blank line, per turn.
    pub fn write_classic_log(&self, out: &mut (impl Write + ?Sized)) -> io::Result<()> {
        let mut log = ClassicLog::new(&self.map, &self.players);
        for (n, turn) in self.turns.iter().enumerate() {
            log.write_turn(n, turn, out)?;
        }
        Ok(())
    }
}

/// The classic log written a turn at a time, as the boards come: it holds the map and
/// one turn's text, never the whole game.
pub struct ClassicLog<'a> {
    map: Map,
    players: &'a [String],
    text: String,
}

impl<'a> ClassicLog<'a> {
    pub fn new(map: &ReplayMap, players: &'a [String]) -> ClassicLog<'a> {
        ClassicLog {
            map: map.to_map(players),
            players,
            text: String::new(),
        }
    }

    /// Writes board `n` (its events are not read): `# STEP: n`, the full board, a
    /// blank line.
    pub fn write_turn(
        &mut self,
        n: usize,
        turn: &Turn,
        out: &mut (impl Write + ?Sized),
    ) -> io::Result<()> {
        let map = &self.map;
        let owners: Vec<Owner> = turn.owners.iter().map(|&c| owner_of(c)).collect();
        let mut roads = vec![RoadMarches::default(); map.roads.len()];
        for &(road, toward, owner, size, sent) in &turn.marches {
            let Some(r) = map.roads.get(road) else {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("turn {n}: a march on road {road}, which the map lacks"),
                ));
            };
            let steps = r.length as i64 - (n as i64 - sent);
            let m = crate::game::March {
                owner: owner_of(owner),
                size,
                pos: 2 * steps.max(0) as u32,
            };
            if toward == 0 {
                roads[road].toward_a.push(m)
            } else {
                roads[road].toward_b.push(m)
            }
        }
        self.text.clear();
        self.text.push_str(&format!("# STEP: {n}\n"));
        Snapshot {
            map,
            names: self.players,
            owners: &owners,
            garrisons: &turn.garrisons,
            roads: &roads,
        }
        .write(None, &mut self.text);
        self.text.push('\n');
        out.write_all(self.text.as_bytes())
    }
}
