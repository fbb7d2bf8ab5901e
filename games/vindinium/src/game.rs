//! The game state, its end and its outcome (games/vindinium/rules.md §3, §10, §11; the
//! original's `Game.scala`). `step`, the rules of one move, is in `arbiter.rs`.

use crate::board::{Board, HeroId};
use crate::hero::Hero;
use crate::map::Map;
use crate::pos::Pos;

/// Moves in a game unless said otherwise: 300 for each of the four heroes (the
/// original's `Config.default` and `Config.arena`).
pub const DEFAULT_MAX_TURNS: u32 = 1200;

/// Whether and why the game is over (the original's `Status`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Status {
    /// Moves are still to come.
    Started,
    /// `max_turns` moves were played.
    TurnMax,
    /// All four bots crashed.
    AllCrashed,
}

/// A game of four heroes. Fields are public, like the original's case class, so that
/// tests and tools can set a position up; [`Game::step`] keeps the rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    /// The game's id, shown to bots.
    pub id: String,
    /// The tiles (heroes are not on it).
    pub board: Board,
    /// Heroes 1 to 4, at indices 0 to 3.
    pub heroes: [Hero; 4],
    /// Moves played so far; hero `turn % 4 + 1` moves next.
    pub turn: u32,
    /// The game ends once `turn` reaches it.
    pub max_turns: u32,
    /// Whether the game is over.
    pub status: Status,
    /// A training game (the original's `training`): the first crash ends it.
    pub training: bool,
}

/// The result of a finished (or unfinished) game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// The rank of heroes 1 to 4 by gold: 1 for the most, equal gold equal rank, the
    /// next rank counting those ahead (1, 2, 2, 4).
    pub ranks: [u32; 4],
    /// The hero with the most gold, `None` when the most gold is shared.
    pub winner: Option<HeroId>,
}

/// What a hero achieved, for after a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HeroStats {
    /// Gold at the end.
    pub gold: i32,
    /// Mines owned at the end.
    pub mines: usize,
    /// Respawns: deaths in fights, at mines and by telefrag.
    pub deaths: u32,
}

impl Game {
    /// A game on `map`: hero `i` (1 to 4) is called `names[i - 1]` and starts on `@i`;
    /// every hero respawns on hero 1's start square mirrored as
    /// [`Game::spawn_pos_of`] says, whatever its own start square.
    pub fn new(id: &str, map: &Map, names: [&str; 4], max_turns: u32) -> Game {
        let heroes = std::array::from_fn(|i| {
            let id = i + 1;
            let spawn = spawn_pos_of(&map.board, map.starts[0], id);
            Hero::new(id, names[i], map.starts[i], spawn)
        });
        Game {
            id: id.to_string(),
            board: map.board.clone(),
            heroes,
            turn: 0,
            max_turns,
            status: Status::Started,
            training: false,
        }
    }

    /// Hero `id` (1 to 4).
    pub fn hero(&self, id: HeroId) -> &Hero {
        &self.heroes[id - 1]
    }

    /// Hero `id` (1 to 4), to change.
    pub fn hero_mut(&mut self, id: HeroId) -> &mut Hero {
        &mut self.heroes[id - 1]
    }

    /// The hero whose move is next: `turn % 4 + 1`.
    pub fn hero_to_move(&self) -> HeroId {
        (self.turn % 4) as usize + 1
    }

    /// The first hero (in id order) standing on `pos`.
    pub fn hero_at(&self, pos: Pos) -> Option<HeroId> {
        self.heroes.iter().find(|h| h.pos == pos).map(|h| h.id)
    }

    /// Whether the game is over.
    pub fn is_finished(&self) -> bool {
        self.status != Status::Started
    }

    /// Mines hero `id` owns (the API's `mineCount`).
    pub fn mine_count(&self, id: HeroId) -> usize {
        self.board.count_mines_of(id)
    }

    /// The respawn square of hero `id`: the spawn square of hero 1 (its start square) as
    /// it is for 1, mirrored across the rows for 2, across both for 3, across the
    /// columns for 4.
    pub fn spawn_pos_of(&self, id: HeroId) -> Pos {
        self.hero(id).spawn_pos
    }

    /// Ranks and winner by gold.
    pub fn outcome(&self) -> Outcome {
        let gold: Vec<i32> = self.heroes.iter().map(|h| h.gold).collect();
        let ranks =
            std::array::from_fn(|i| 1 + gold.iter().filter(|g| **g > gold[i]).count() as u32);
        let top = gold.iter().copied().max().unwrap_or(0);
        let leaders: Vec<HeroId> = (1..=4).filter(|id| gold[id - 1] == top).collect();
        Outcome {
            ranks,
            winner: (leaders.len() == 1).then(|| leaders[0]),
        }
    }

    /// Gold, mines and deaths of heroes 1 to 4.
    pub fn stats(&self) -> [HeroStats; 4] {
        std::array::from_fn(|i| HeroStats {
            gold: self.heroes[i].gold,
            mines: self.mine_count(i + 1),
            deaths: self.heroes[i].deaths,
        })
    }
}

/// The original's `Game.spawnPosOf` from hero 1's spawn square.
pub(crate) fn spawn_pos_of(board: &Board, first: Pos, id: HeroId) -> Pos {
    match id {
        1 => first,
        2 => board.mirror_x(first),
        3 => board.mirror_xy(first),
        _ => board.mirror_y(first),
    }
}
