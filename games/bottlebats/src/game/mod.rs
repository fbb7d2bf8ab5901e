//! The game state and its rules (games/bottlebats/rules.md §3–§6): the state, its set-up and what
//! can be read from it here; one turn, stage by stage, in `turn.rs`.
//!
//! Architecture invariant: this module is pure. The same state and the same orders
//! always give the same next state and the same events: no I/O, no clock, no
//! randomness. The runner feeds it orders; the viewer and the log read it.

use rustc_hash::FxHashMap as HashMap;
use std::sync::Arc;

use crate::command::Board;
use crate::map::{FortId, Map, Owner, RoadId, Seat};

mod turn;

pub use turn::{advance, siege};

/// A march on a road, heading to one end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct March {
    pub owner: Owner,
    pub size: u64,
    /// Half-steps left to the destination; a new march starts at `2 * length`.
    pub pos: u32,
}

/// The marches of one road, per direction, each sorted by increasing `pos`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RoadMarches {
    /// Heading to the road's first fort (`a`).
    pub toward_a: Vec<March>,
    /// Heading to the road's second fort (`b`).
    pub toward_b: Vec<March>,
}

/// Adds `m` to a way's marches (sorted by `pos`), merging it with a march of the same
/// owner at the same place (games/bottlebats/rules.md §4: commands on one road in one direction in
/// one turn make one march).
pub fn put_march(list: &mut Vec<March>, m: March) {
    if let Some(n) = list
        .iter_mut()
        .find(|n| n.pos == m.pos && n.owner == m.owner)
    {
        n.size += m.size;
        return;
    }
    let at = list.partition_point(|n| n.pos <= m.pos);
    list.insert(at, m);
}

/// What a player sends for one turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Orders {
    /// The command lines of the reply (possibly none).
    Commands(Vec<String>),
    /// A fatal protocol error: the player is removed this turn, its orders dropped.
    Fatal(String),
}

impl Orders {
    /// No commands this turn.
    pub fn none() -> Orders {
        Orders::Commands(Vec::new())
    }
}

/// Why a player left the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RemovalReason {
    /// Owns no fort and has no march.
    Defeated,
    /// A fatal protocol error, explained.
    Fatal(String),
}

/// A player's standing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    /// The turn in which the player was removed, with the reason; `None` while active.
    pub removed: Option<(u32, RemovalReason)>,
    /// Every warning, counted each time it happened.
    pub warnings: u64,
    /// Warning texts already reported (each is reported once per game), with how
    /// often each happened: at most [`MAX_REPORTED`] texts.
    reported: std::collections::HashMap<String, u64>,
    /// Warnings whose text was new when [`MAX_REPORTED`] texts were reported already:
    /// counted, not kept.
    pub unreported: u64,
}

/// Most distinct warning texts reported for one player in one game (games/bottlebats/rules.md §5):
/// what a contestant reads, without a bot's flood of distinct bad lines growing the
/// replay, the problems and the work of classifying them without bound.
pub const MAX_REPORTED: usize = 100;

/// Most bytes of one warning's text (it quotes the bot's line); longer ones are cut,
/// at a character boundary, and end in `…`.
pub const MAX_WARNING_BYTES: usize = 300;

/// Cuts `text` to [`MAX_WARNING_BYTES`], marking the cut.
pub fn cut_warning(text: &mut String) {
    if text.len() > MAX_WARNING_BYTES {
        let mut end = MAX_WARNING_BYTES - '…'.len_utf8();
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
        text.push('…');
    }
}

impl Player {
    pub fn is_active(&self) -> bool {
        self.removed.is_none()
    }

    /// How often each distinct warning text happened.
    pub fn warning_counts(&self) -> &std::collections::HashMap<String, u64> {
        &self.reported
    }
}

/// Two marches that met on a road, with their sizes before the fight.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Battle {
    pub road: RoadId,
    /// Half-steps from the road's first fort where they met.
    pub from_a: u32,
    /// (owner, size) of the march heading to `a`, and of the one heading to `b`.
    pub toward_a: (Owner, u64),
    pub toward_b: (Owner, u64),
}

/// A fort that changed hands at its siege.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Capture {
    pub fort: FortId,
    pub from: Owner,
    pub to: Owner,
}

/// Everything that happened in one turn.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TurnEvents {
    pub battles: Vec<Battle>,
    pub captures: Vec<Capture>,
    /// Players removed this turn, in seat order.
    pub removals: Vec<(Seat, RemovalReason)>,
    /// Warnings reported this turn (only the first time each text occurs for a player).
    pub warnings: Vec<(Seat, String)>,
    /// The marches dispatched this turn, in order: road, whether it heads to the road's
    /// second fort, size (its owner is its origin's).
    pub sends: Vec<(RoadId, bool, u64)>,
}

/// How a finished game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub winner: Option<Seat>,
    /// Rank per player, 1 is best; players that tie share a rank.
    pub ranks: Vec<u32>,
}

/// A game in progress.
#[derive(Clone, Debug)]
pub struct Game {
    map: Arc<Map>,
    fort_index: HashMap<String, FortId>,
    road_index: HashMap<(FortId, FortId), RoadId>,
    players: Vec<Player>,
    names: Vec<String>,
    owners: Vec<Owner>,
    garrisons: Vec<u64>,
    roads: Vec<RoadMarches>,
    turn: u32,
    max_steps: u32,
}

/// Why a game cannot start with these players.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("the map has {seats} seats but {players} players were given")]
    TooManyPlayers { seats: usize, players: usize },
    #[error("player name `{0}` is not allowed (it must be one word, not `neutral`)")]
    BadName(String),
    #[error("two players are called `{0}`")]
    DuplicateName(String),
}

/// True when `name` can be a player name: one printable word that is not `neutral`.
pub fn valid_player_name(name: &str) -> bool {
    !name.is_empty()
        && name != crate::map::NEUTRAL
        && name.len() <= 64
        && name.chars().all(|c| c.is_ascii_graphic())
}

/// The owner a map's `owner` becomes in a game of `players` players: a seat without a
/// player turns neutral (games/bottlebats/rules.md §2 "Seats").
fn bound(owner: Owner, players: usize) -> Owner {
    match owner {
        Owner::Seat(s) if s.0 < players => owner,
        _ => Owner::Neutral,
    }
}

impl Game {
    /// Binds seat i to `players[i]`; seats without a player become neutral. Map marches
    /// are dispatched like commands.
    pub fn new(map: Arc<Map>, players: &[String], max_steps: u32) -> Result<Game, SetupError> {
        if players.len() > map.seats.len() {
            return Err(SetupError::TooManyPlayers {
                seats: map.seats.len(),
                players: players.len(),
            });
        }
        for (i, p) in players.iter().enumerate() {
            if !valid_player_name(p) {
                return Err(SetupError::BadName(p.clone()));
            }
            if players[..i].contains(p) {
                return Err(SetupError::DuplicateName(p.clone()));
            }
        }
        let bind = |o: Owner| bound(o, players.len());
        let mut game = Game {
            fort_index: map
                .forts
                .iter()
                .enumerate()
                .map(|(i, f)| (f.name.clone(), FortId(i)))
                .collect(),
            road_index: map
                .roads
                .iter()
                .enumerate()
                .map(|(i, r)| ((r.a.min(r.b), r.a.max(r.b)), RoadId(i)))
                .collect(),
            players: players
                .iter()
                .map(|_| Player {
                    removed: None,
                    warnings: 0,
                    reported: std::collections::HashMap::new(),
                    unreported: 0,
                })
                .collect(),
            names: players.to_vec(),
            owners: map.forts.iter().map(|f| bind(f.owner)).collect(),
            garrisons: map.forts.iter().map(|f| f.garrison).collect(),
            roads: vec![RoadMarches::default(); map.roads.len()],
            turn: 0,
            max_steps,
            map,
        };
        game.send_map_marches();
        Ok(game)
    }

    /// Sends the marches written in the map, as commands before the first turn would
    /// (games/bottlebats/rules.md §2 "Marches in a map"): each takes what it can from its origin.
    fn send_map_marches(&mut self) {
        let map = self.map.clone();
        for m in &map.marches {
            let road = self.road_index[&(m.origin.min(m.destination), m.origin.max(m.destination))];
            let size = m.size.min(self.garrisons[m.origin.0]);
            self.garrisons[m.origin.0] -= size;
            let steps = match m.remaining_steps {
                0 => map.roads[road.0].length,
                s => s,
            };
            let owner = bound(Owner::Seat(m.owner), self.players.len());
            self.put_march(road, m.destination, owner, size, 2 * steps);
        }
    }

    pub fn map(&self) -> &Arc<Map> {
        &self.map
    }
    pub fn players(&self) -> &[Player] {
        &self.players
    }
    /// Player names, by seat.
    pub fn names(&self) -> &[String] {
        &self.names
    }
    pub fn owners(&self) -> &[Owner] {
        &self.owners
    }
    pub fn garrisons(&self) -> &[u64] {
        &self.garrisons
    }
    pub fn road_marches(&self) -> &[RoadMarches] {
        &self.roads
    }
    /// The number of turns played so far (the next snapshot is `# STEP: turn`).
    pub fn turn(&self) -> u32 {
        self.turn
    }
    pub fn max_steps(&self) -> u32 {
        self.max_steps
    }
    /// The name printed for an owner.
    pub fn owner_name(&self, owner: Owner) -> &str {
        match owner {
            Owner::Neutral => crate::map::NEUTRAL,
            Owner::Seat(s) => &self.names[s.0],
        }
    }

    /// Players still taking turns.
    pub fn active_players(&self) -> impl Iterator<Item = Seat> + '_ {
        self.players
            .iter()
            .enumerate()
            .filter(|(_, p)| p.is_active())
            .map(|(i, _)| Seat(i))
    }

    /// True when at most one player is active or `max_steps` turns were played.
    pub fn is_over(&self) -> bool {
        self.turn >= self.max_steps || self.active_players().count() <= 1
    }

    /// Forts owned and soldiers (garrisons plus marches) per player.
    pub fn holdings(&self) -> Vec<(u64, u64)> {
        let mut out = vec![(0u64, 0u64); self.players.len()];
        for (o, g) in self.owners.iter().zip(&self.garrisons) {
            if let Owner::Seat(s) = o {
                out[s.0].0 += 1;
                out[s.0].1 += g;
            }
        }
        for r in &self.roads {
            for m in r.toward_a.iter().chain(&r.toward_b) {
                if let Owner::Seat(s) = m.owner {
                    out[s.0].1 += m.size;
                }
            }
        }
        out
    }

    /// Adds a march heading to `toward` at `pos`, merging it with a march of the same
    /// owner at the same place in the same direction.
    fn put_march(&mut self, road: RoadId, toward: FortId, owner: Owner, size: u64, pos: u32) {
        let r = &mut self.roads[road.0];
        let list = if toward == self.map.roads[road.0].a {
            &mut r.toward_a
        } else {
            &mut r.toward_b
        };
        put_march(list, March { owner, size, pos });
    }

    /// The winner and ranks (games/bottlebats/rules.md §6). Meaningful once [`Game::is_over`].
    pub fn outcome(&self) -> Outcome {
        let active: Vec<Seat> = self.active_players().collect();
        let winner = (active.len() == 1).then(|| active[0]);
        // Later removal is better; still active is best of all.
        let key = |p: &Player| p.removed.as_ref().map_or(u32::MAX, |(t, _)| *t);
        let ranks = self
            .players
            .iter()
            .map(|p| 1 + self.players.iter().filter(|q| key(q) > key(p)).count() as u32)
            .collect();
        Outcome { winner, ranks }
    }
}

impl Board for Game {
    fn fort_by_name(&self, name: &str) -> Option<FortId> {
        self.fort_index.get(name).copied()
    }
    fn road_between(&self, a: FortId, b: FortId) -> Option<RoadId> {
        self.road_index.get(&(a.min(b), a.max(b))).copied()
    }
    fn owner(&self, fort: FortId) -> Owner {
        self.owners[fort.0]
    }
    fn garrison(&self, fort: FortId) -> u64 {
        self.garrisons[fort.0]
    }
}
