//! The compact replay (format `bottlebats-replay`, version 2): the map and the first
//! board once, then per turn only what changed and cannot be derived, and a keyframe
//! (the whole board) every [`KEYFRAME_EVERY`] turns so that a reader seeks in constant
//! time.
//!
//! ```json
//! {
//!   "format": "bottlebats-replay", "version": 2,
//!   "map": { "forts": [["boyard", 10, 20], ...], "roads": [[0, 1, 15], ...] },
//!   "players": ["alice", "bob"], "max_steps": 500, "keyframe_every": 50,
//!   "turns": [
//!     { "k": { "owners": [...], "garrisons": [...], "marches": [...] },
//!       "e": { ...the events of v1... } },
//!     { "f": [[fort, owner, garrison]], "l": [[road, toward, i]],
//!       "z": [[road, toward, i, size]], "s": [way, size, way, size, ...],
//!       "x": [[place, road, toward, size, owner, sent]], "e": { ... } },
//!     ...
//!   ],
//!   "result": { ...as in v1... }
//! }
//! ```
//!
//! The contract, what a reader derives to rebuild the board of turn `t` from that of
//! turn `t - 1` (the row `t` holds what it cannot derive):
//!
//! - Forts: each keeps its owner; its garrison loses the soldiers of the marches it sent
//!   (`s`), gains those of the marches of its owner that reach it this turn, and one
//!   more when a player holds it; unless `f` gives its owner and garrison (a siege, a
//!   battle at its gate, anything else).
//! - Marches: on each road and way (`toward` 0: to the road's first fort), the marches
//!   of turn `t - 1` in their order, less those that arrived (`sent + length <= t`), are
//!   the way's marches before the changes. `l` lists those that were lost (by their
//!   index in that list), `z` those whose size changed (index, new size); then the
//!   marches sent join the end of their way's list, in order: `s` lists them as pairs
//!   (`2 * road + toward`, size), sent in turn `t - 1` by the owner of the fort they
//!   leave; `x` holds, with their place in that order, those of another owner or turn.
//!   A march's place on its road follows from its `sent` turn, as in v1.
//! - `e` holds the events of the turn that follows the board (battles, captures,
//!   removals, warnings, timeouts, limits, times), as v1's `events` do, problems' texts
//!   included.
//! - A row with `k` holds the whole board instead (the first row always does).
//!
//! [`encode`] makes one from a v1 [`Replay`] and [`decode`] gives the v1 replay back,
//! board for board; [`Reader`] rebuilds any turn. Rows can be appended as a game is
//! played ([`Encoder`]), and a replay cut after any row reads as the turns so far.

use serde::{Deserialize, Serialize};

use crate::replay::{Events, Replay, ReplayMap, ReplayResult, Turn, FORMAT};

/// The version this module writes.
pub const VERSION: u32 = 2;

/// A keyframe every this many turns.
pub const KEYFRAME_EVERY: usize = 100;

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

/// One turn: a keyframe, or what changed since the turn before.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// The whole board.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub k: Option<Board>,
    /// Forts not as derived: `[fort, owner, garrison]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub f: Vec<(usize, i32, u64)>,
    /// Marches lost: `[road, toward, index]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub l: Vec<(usize, u8, usize)>,
    /// Marches whose size changed: `[road, toward, index, size]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub z: Vec<(usize, u8, usize, u64)>,
    /// Marches sent, flat: `way, size, way, size, ...` with `way = 2 * road + toward`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub s: Vec<u64>,
    /// Marches sent whose owner is not the fort's or whose turn is not the one before:
    /// `[place among the marches sent, road, toward, size, owner, sent]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub x: Vec<(usize, usize, u8, u64, i32, i64)>,
    /// The events of the turn that follows this board.
    #[serde(default, skip_serializing_if = "Events::is_empty")]
    pub e: Events,
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
}

/// The marches of a board by road and way, each list in the board's order.
fn by_way(marches: &[March], roads: usize) -> Vec<[Vec<March>; 2]> {
    let mut ways = vec![[Vec::new(), Vec::new()]; roads];
    for &m in marches {
        ways[m.0][m.1 as usize].push(m);
    }
    ways
}

/// The marches of `prev` (the board of turn `t - 1`) still on their roads at turn `t`,
/// and those that reached their fort.
fn walking_on(prev: &[March], lengths: &[u32], t: i64) -> (Vec<[Vec<March>; 2]>, Vec<March>) {
    let mut ways = by_way(prev, lengths.len());
    let mut arrived = Vec::new();
    for (road, way) in ways.iter_mut().enumerate() {
        for list in way.iter_mut() {
            list.retain(|m| {
                let on = m.4 + i64::from(lengths[road]) > t;
                if !on {
                    arrived.push(*m);
                }
                on
            });
        }
    }
    (ways, arrived)
}

/// The fort a march on `road` going `toward` leaves (`from`) or reaches.
fn fort_of(roads: &[(usize, usize, u32)], road: usize, toward: u8, from: bool) -> usize {
    let (a, b, _) = roads[road];
    if (toward == 0) != from {
        a
    } else {
        b
    }
}

/// The forts as derived for turn `t` (see the module's contract): from the board of
/// turn `t - 1`, the marches sent and those that arrived.
fn derived_forts(
    prev: &Turn,
    roads: &[(usize, usize, u32)],
    sent: &[March],
    arrived: &[March],
) -> (Vec<i32>, Vec<u64>) {
    let mut garrisons: Vec<i64> = prev.garrisons.iter().map(|&g| g as i64).collect();
    for m in sent {
        garrisons[fort_of(roads, m.0, m.1, true)] -= m.3 as i64;
    }
    for m in arrived {
        let to = fort_of(roads, m.0, m.1, false);
        if prev.owners[to] == m.2 {
            garrisons[to] += m.3 as i64;
        }
    }
    let garrisons = garrisons
        .iter()
        .zip(&prev.owners)
        .map(|(&g, &o)| (g + i64::from(o >= 0)).max(0) as u64)
        .collect();
    (prev.owners.clone(), garrisons)
}

/// Writes a replay's rows as its turns come (the same rows a live viewer follows).
pub struct Encoder {
    roads: Vec<(usize, usize, u32)>,
    lengths: Vec<u32>,
    keyframe_every: usize,
    last: Option<Turn>,
    turn: usize,
}

impl Encoder {
    pub fn new(map: &ReplayMap, keyframe_every: usize) -> Encoder {
        Encoder {
            roads: map.roads.clone(),
            lengths: map.roads.iter().map(|r| r.2).collect(),
            keyframe_every: keyframe_every.max(1),
            last: None,
            turn: 0,
        }
    }

    /// The row of the next board, `turn` (v1's snapshot with its events).
    pub fn row(&mut self, turn: &Turn) -> Row {
        let t = self.turn;
        self.turn += 1;
        let mut row = Row {
            e: turn.events.clone(),
            ..Row::default()
        };
        match self.last.replace(turn.clone()) {
            Some(prev) if t % self.keyframe_every != 0 => {
                self.diff(&prev, turn, t as i64, &mut row)
            }
            _ => row.k = Some(Board::of(turn)),
        }
        row
    }

    fn diff(&self, prev: &Turn, cur: &Turn, t: i64, row: &mut Row) {
        let (before, arrived) = walking_on(&prev.marches, &self.lengths, t);
        let now = by_way(&cur.marches, self.lengths.len());
        let mut sent = Vec::new();
        for (road, (was, is)) in before.iter().zip(&now).enumerate() {
            for toward in 0..2u8 {
                let (was, is) = (&was[toward as usize], &is[toward as usize]);
                let mut k = 0; // the next march of `is` to match
                for (i, m) in was.iter().enumerate() {
                    match is.get(k) {
                        Some(n) if (n.2, n.4) == (m.2, m.4) => {
                            if n.3 != m.3 {
                                row.z.push((road, toward, i, n.3));
                            }
                            k += 1;
                        }
                        _ => row.l.push((road, toward, i)),
                    }
                }
                for n in &is[k..] {
                    let from = fort_of(&self.roads, road, toward, true);
                    if n.2 != prev.owners[from] || n.4 != t - 1 {
                        row.x.push((sent.len(), road, toward, n.3, n.2, n.4));
                    } else {
                        row.s.extend([2 * road as u64 + u64::from(toward), n.3]);
                    }
                    sent.push(*n);
                }
            }
        }
        let (owners, garrisons) = derived_forts(prev, &self.roads, &sent, &arrived);
        for i in 0..cur.owners.len() {
            if cur.owners[i] != owners[i] || cur.garrisons[i] != garrisons[i] {
                row.f.push((i, cur.owners[i], cur.garrisons[i]));
            }
        }
    }
}

/// The compact form of a v1 replay.
pub fn encode(replay: &Replay) -> CompactReplay {
    let mut enc = Encoder::new(&replay.map, KEYFRAME_EVERY);
    CompactReplay {
        format: FORMAT.to_string(),
        version: VERSION,
        map: replay.map.clone(),
        players: replay.players.clone(),
        max_steps: replay.max_steps,
        keyframe_every: KEYFRAME_EVERY,
        turns: replay.turns.iter().map(|t| enc.row(t)).collect(),
        result: replay.result.clone(),
    }
}

/// Rebuilds boards from the rows, one after the other or from the nearest keyframe.
pub struct Reader<'a> {
    replay: &'a CompactReplay,
    lengths: Vec<u32>,
}

/// The marches sent of `row`, in order, given the board before it (whose forts sent
/// them) and the turn.
fn sent_marches(
    row: &Row,
    roads: &[(usize, usize, u32)],
    prev: &Turn,
    t: usize,
) -> Result<Vec<March>, String> {
    if row.s.len() % 2 != 0 {
        return Err("a march sent without its size".into());
    }
    let mut out = Vec::with_capacity(row.s.len() / 2 + row.x.len());
    let mut plain = row.s.chunks(2);
    let mut extra = row.x.iter().peekable();
    loop {
        if let Some(&(_, road, toward, size, owner, sent)) = extra.next_if(|x| x.0 == out.len()) {
            if road >= roads.len() || toward > 1 {
                return Err("a march sent on no road".into());
            }
            out.push((road, toward, owner, size, sent));
            continue;
        }
        let Some(pair) = plain.next() else { break };
        let (road, toward) = ((pair[0] / 2) as usize, (pair[0] % 2) as u8);
        if road >= roads.len() {
            return Err("a march sent on no road".into());
        }
        let from = fort_of(roads, road, toward, true);
        out.push((road, toward, prev.owners[from], pair[1], t as i64 - 1));
    }
    if extra.next().is_some() {
        return Err("a march sent out of order".into());
    }
    Ok(out)
}

impl<'a> Reader<'a> {
    pub fn new(replay: &'a CompactReplay) -> Reader<'a> {
        Reader {
            replay,
            lengths: replay.map.roads.iter().map(|r| r.2).collect(),
        }
    }

    /// The board of turn `t` given that of turn `t - 1` (`prev`), with its events.
    pub fn next(&self, prev: &Turn, t: usize) -> Result<Turn, String> {
        let row = self
            .replay
            .turns
            .get(t)
            .ok_or(format!("there is no turn {t}"))?;
        if let Some(k) = &row.k {
            return Ok(Turn {
                owners: k.owners.clone(),
                garrisons: k.garrisons.clone(),
                marches: k.marches.clone(),
                events: row.e.clone(),
            });
        }
        let roads = &self.replay.map.roads;
        let (mut ways, arrived) = walking_on(&prev.marches, &self.lengths, t as i64);
        for &(road, toward, i, size) in &row.z {
            let m = ways
                .get_mut(road)
                .and_then(|w| w.get_mut(toward as usize))
                .and_then(|l| l.get_mut(i))
                .ok_or("a size change of no march")?;
            m.3 = size;
        }
        // Lost ones by index from the end, so indexes stay those of the list.
        let mut lost: Vec<(usize, u8, usize)> = row.l.clone();
        lost.sort_unstable_by(|a, b| b.cmp(a));
        for (road, toward, i) in lost {
            let list = ways
                .get_mut(road)
                .and_then(|w| w.get_mut(toward as usize))
                .ok_or("a loss on no road")?;
            if i >= list.len() {
                return Err("a loss of no march".into());
            }
            list.remove(i);
        }
        let sent = sent_marches(row, roads, prev, t)?;
        for m in &sent {
            ways[m.0][m.1 as usize].push(*m);
        }
        let (mut owners, mut garrisons) = derived_forts(prev, roads, &sent, &arrived);
        for &(i, o, g) in &row.f {
            *owners.get_mut(i).ok_or("a fort out of the map")? = o;
            garrisons[i] = g;
        }
        let marches = ways
            .into_iter()
            .flat_map(|[a, b]| a.into_iter().chain(b))
            .collect();
        Ok(Turn {
            owners,
            garrisons,
            marches,
            events: row.e.clone(),
        })
    }

    /// The board of turn `t`: from the nearest keyframe at or before it.
    pub fn at(&self, t: usize) -> Result<Turn, String> {
        let start = (0..=t)
            .rev()
            .find(|&k| self.replay.turns.get(k).is_some_and(|r| r.k.is_some()))
            .ok_or("no keyframe before that turn")?;
        let mut turn = self.next(&Turn::default(), start)?;
        for u in start + 1..=t {
            turn = self.next(&turn, u)?;
        }
        Ok(turn)
    }
}

/// The v1 replay of a compact one, board for board.
pub fn decode(replay: &CompactReplay) -> Result<Replay, String> {
    let reader = Reader::new(replay);
    let mut turns: Vec<Turn> = Vec::with_capacity(replay.turns.len());
    for t in 0..replay.turns.len() {
        let prev = turns.last().cloned().unwrap_or_default();
        turns.push(reader.next(&prev, t)?);
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
