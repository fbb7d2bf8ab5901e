//! One move of one hero (games/vindinium/rules.md §4–§10; the original's `Arbiter.scala`,
//! with `Game.step` and `Game.setTimedOut` from `Game.scala`).

use thiserror::Error;

use crate::board::{HeroId, Tile};
use crate::game::{Game, Status};
use crate::hero::{ATTACK_LIFE, MAX_LIFE, MINE_LIFE};
use crate::pos::{Dir, Move, Pos};

/// Why a move was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum StepError {
    /// The game is over (the original's "Game is finished").
    #[error("the game is finished")]
    Finished,
}

/// A bound on telefrag chains. Each link moves a hero onto its own spawn square, so a
/// chain ends within four links; the bound only guards against a broken state.
const MAX_CHAIN: usize = 16;

impl Game {
    /// Plays `mv` for the hero whose turn it is ([`Game::hero_to_move`]): the original's
    /// `Arbiter.doMove` followed by `Game.step`.
    ///
    /// An order moves, drinks or fights a mine (§4–§6), then the mover attacks its
    /// neighbours (§7); a [`Move::Crash`] does none of that and marks the hero crashed
    /// (§9), after which all its moves are Stays whatever is passed. Either way thirst
    /// and gold follow (§8) and the turn advances, unless the game just ended because
    /// all four heroes crashed (§10).
    pub fn step(&mut self, mv: Move) -> Result<(), StepError> {
        if self.is_finished() {
            return Err(StepError::Finished);
        }
        let id = self.hero_to_move();
        let mv = if self.hero(id).crashed {
            Move::Go(Dir::Stay)
        } else {
            mv
        };
        match mv {
            Move::Crash => self.crash(id),
            Move::Go(dir) => {
                let hero = self.hero_mut(id);
                hero.last_dir = Some(dir);
                let dest = hero.pos.to(dir);
                self.reach(id, dest);
                self.fights(id);
            }
        }
        self.finalize(id);
        self.advance();
        Ok(())
    }

    /// The original's `Game.setTimedOut`: mark the mover crashed; when all four have
    /// crashed the game is over, and a training game is over at its first crash.
    fn crash(&mut self, id: HeroId) {
        self.hero_mut(id).crashed = true;
        if self.training || self.heroes.iter().all(|h| h.crashed) {
            self.status = Status::AllCrashed;
        }
    }

    /// The original's `reach`: what the mover does to the square it is sent to. Off the
    /// board, onto a hero (itself, for Stay), a wall or its own mine nothing happens.
    fn reach(&mut self, id: HeroId, dest: Pos) {
        let Some(tile) = self.board.get(dest) else {
            return;
        };
        if self.hero_at(dest).is_some() {
            return;
        }
        match tile {
            Tile::Air => self.hero_mut(id).pos = dest,
            Tile::Tavern => self.hero_mut(id).drink_beer(),
            Tile::Mine(owner) if owner != Some(id) => self.fight_mine(id, dest),
            Tile::Mine(_) | Tile::Wall => {}
        }
    }

    /// The goblin takes 20 life; a survivor owns the mine, a dead hero loses all its
    /// mines to nobody and respawns (the mine keeps its owner).
    fn fight_mine(&mut self, id: HeroId, mine: Pos) {
        let hero = self.hero_mut(id);
        hero.add_life(-MINE_LIFE);
        if hero.is_alive() {
            self.board.set(mine, Tile::Mine(Some(id)));
        } else {
            self.board.transfer_mines(id, None);
            self.respawn(id);
        }
    }

    /// The original's `reSpawn`: the hero gets full life on its spawn square; a hero
    /// already there (the first in id order, looked for before the move) is telefragged:
    /// its mines go to the arriving hero and it respawns in turn, and so on.
    fn respawn(&mut self, first: HeroId) {
        let turn = self.turn;
        let mut current = first;
        for _ in 0..MAX_CHAIN {
            let spawn = self.spawn_pos_of(current);
            let occupant = self.hero_at(spawn);
            let hero = self.hero_mut(current);
            hero.life = MAX_LIFE;
            hero.pos = spawn;
            hero.last_respawn = Some(turn);
            hero.deaths += 1;
            match occupant {
                Some(other) if other != current => {
                    self.board.transfer_mines(other, Some(current));
                    current = other;
                }
                _ => return,
            }
        }
    }

    /// The original's `fights`: the heroes on the mover's four neighbours (North, East,
    /// South, West), listed once before any blow, are attacked in that order, except
    /// heroes respawned during this move; once the mover itself has respawned during
    /// this move it attacks no more.
    fn fights(&mut self, id: HeroId) {
        let enemies: Vec<HeroId> = self
            .hero(id)
            .pos
            .neighbors()
            .iter()
            .filter_map(|p| self.hero_at(*p))
            .collect();
        let now = Some(self.turn);
        for enemy in enemies {
            if self.hero(id).last_respawn != now && self.hero(enemy).last_respawn != now {
                self.attack(id, enemy);
            }
        }
    }

    /// The original's `attack`: 20 damage; a killed enemy's mines go to the attacker
    /// and the enemy respawns.
    fn attack(&mut self, id: HeroId, enemy: HeroId) {
        let defender = self.hero_mut(enemy);
        defender.add_life(-ATTACK_LIFE);
        if !defender.is_alive() {
            self.board.transfer_mines(enemy, Some(id));
            self.respawn(enemy);
        }
    }

    /// The original's `finalize`: thirst, then one gold for each mine the mover owns.
    fn finalize(&mut self, id: HeroId) {
        let mines = self.mine_count(id) as i32;
        let hero = self.hero_mut(id);
        hero.thirst();
        hero.add_gold(mines);
    }

    /// The original's `Game.step`: nothing once finished, else the next turn, and the
    /// end when it reaches `max_turns`.
    fn advance(&mut self) {
        if self.is_finished() {
            return;
        }
        self.turn += 1;
        if self.turn >= self.max_turns {
            self.status = Status::TurnMax;
        }
    }
}
