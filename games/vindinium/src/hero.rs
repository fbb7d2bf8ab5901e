//! A hero and its constants (games/vindinium/rules.md §3; the original's `Hero.scala`).

use crate::board::HeroId;
use crate::pos::{Dir, Pos};

/// Life at the start and after a respawn, and the most a beer can bring.
pub const MAX_LIFE: i32 = 100;
/// Life a beer gives.
pub const BEER_LIFE: i32 = 50;
/// Gold a beer costs (and the least gold needed to buy one).
pub const BEER_GOLD: i32 = 2;
/// Life lost to thirst at the end of each of the hero's own moves.
pub const THIRST_LIFE: i32 = 1;
/// Life lost fighting the goblin of a mine.
pub const MINE_LIFE: i32 = 20;
/// Life lost to an attack by an adjacent hero.
pub const ATTACK_LIFE: i32 = 20;

/// One of the four heroes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hero {
    /// 1 to 4: the place in the turn order and the digit of `@N` and `$N`.
    pub id: HeroId,
    /// The bot's name.
    pub name: String,
    /// Where it stands.
    pub pos: Pos,
    /// Where it respawns: hero 1's start square, mirrored for heroes 2–4
    /// (the original's `Game.spawnPosOf`).
    pub spawn_pos: Pos,
    /// The last order it was given; `None` before its first move (a crash sets none).
    pub last_dir: Option<Dir>,
    /// Life, 0 to 100; alive means above 0.
    pub life: i32,
    /// Gold, never below 0.
    pub gold: i32,
    /// Whether its bot crashed (from then on each of its moves is a Stay).
    pub crashed: bool,
    /// The turn of its last respawn, if any: fights skip heroes respawned this move.
    pub last_respawn: Option<u32>,
    /// How many times it respawned: killed in a fight, at a mine, or telefragged.
    pub deaths: u32,
}

impl Hero {
    /// A hero at the start: full life, no gold, no order yet.
    pub fn new(id: HeroId, name: &str, pos: Pos, spawn_pos: Pos) -> Hero {
        Hero {
            id,
            name: name.to_string(),
            pos,
            spawn_pos,
            last_dir: None,
            life: MAX_LIFE,
            gold: 0,
            crashed: false,
            last_respawn: None,
            deaths: 0,
        }
    }

    /// Alive means life above 0.
    pub fn is_alive(&self) -> bool {
        self.life > 0
    }

    /// The original's `withLife`: add `diff`, kept within 0..=100.
    pub(crate) fn add_life(&mut self, diff: i32) {
        self.life = (self.life + diff).clamp(0, MAX_LIFE);
    }

    /// The original's `withGold`: add `diff`, never below 0.
    pub(crate) fn add_gold(&mut self, diff: i32) {
        self.gold = (self.gold + diff).max(0);
    }

    /// The original's `drinkBeer`: with at least 2 gold, pay 2 for 50 life (at most 100),
    /// even at 99 or 100 life; without, nothing.
    pub(crate) fn drink_beer(&mut self) {
        if self.gold >= BEER_GOLD {
            self.add_gold(-BEER_GOLD);
            self.add_life(BEER_LIFE);
        }
    }

    /// The original's `day`: thirst takes 1 life, but never the last one.
    pub(crate) fn thirst(&mut self) {
        self.add_life(-THIRST_LIFE);
        if !self.is_alive() {
            self.add_life(1);
        }
    }

    /// The original's `render`: `@N`.
    pub fn render(&self) -> String {
        format!("@{}", self.id)
    }
}
