//! In-process players: no processes, no text round trip of the state. Used where
//! many games must be played fast: benchmarks, tests and rating simulations.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::game::{Game, Orders};
use crate::map::{FortId, Map, Owner, Seat};

/// Neighbours of every fort, in map order of the roads.
pub fn neighbours(map: &Map) -> Vec<Vec<FortId>> {
    let mut out = vec![Vec::new(); map.forts.len()];
    for r in &map.roads {
        out[r.a.0].push(r.b);
        out[r.b.0].push(r.a);
    }
    out
}

/// A player that sends part of its garrisons along random roads, more often toward
/// forts it does not own. Deterministic for a seed.
#[derive(Clone, Debug)]
pub struct RandomPlayer {
    seat: Seat,
    rng: ChaCha8Rng,
    neighbours: Vec<Vec<FortId>>,
    /// Chance that a fort with soldiers sends some this turn.
    pub activity: f64,
}

impl RandomPlayer {
    pub fn new(map: &Map, seat: Seat, seed: u64) -> RandomPlayer {
        RandomPlayer {
            seat,
            rng: ChaCha8Rng::seed_from_u64(
                seed ^ (seat.0 as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15),
            ),
            neighbours: neighbours(map),
            activity: 0.3,
        }
    }

    /// This turn's command lines.
    pub fn orders(&mut self, game: &Game) -> Orders {
        let map = game.map();
        let mut lines = Vec::new();
        for (f, (&owner, &garrison)) in game.owners().iter().zip(game.garrisons()).enumerate() {
            if owner != Owner::Seat(self.seat) || garrison < 4 || !self.rng.gen_bool(self.activity)
            {
                continue;
            }
            let near = &self.neighbours[f];
            if near.is_empty() {
                continue;
            }
            // Prefer a fort we do not own.
            let mut to = near[self.rng.gen_range(0..near.len())];
            if game.owners()[to.0] == owner {
                to = near[self.rng.gen_range(0..near.len())];
            }
            let size = self.rng.gen_range(garrison / 3..=garrison * 3 / 4);
            lines.push(format!(
                "{} {} {size}",
                map.forts[f].name, map.forts[to.0].name
            ));
        }
        Orders::Commands(lines)
    }
}

/// Plays a whole game between random players; returns the number of turns played.
pub fn play_random_game(
    game: &mut Game,
    seed: u64,
    mut on_turn: impl FnMut(&Game, &crate::TurnEvents),
) -> u32 {
    let mut players: Vec<RandomPlayer> = (0..game.players().len())
        .map(|s| RandomPlayer::new(game.map(), Seat(s), seed))
        .collect();
    while !game.is_over() {
        let orders: Vec<Orders> = players.iter_mut().map(|p| p.orders(game)).collect();
        let events = game.step(&orders);
        on_turn(game, &events);
    }
    game.turn()
}

/// The house bot `greedy`'s way, in process: every fort with 10 soldiers or more sends
/// half to its weakest neighbour it does not own. Deterministic.
#[derive(Clone, Debug)]
pub struct GreedyPlayer {
    seat: Seat,
    neighbours: Vec<Vec<FortId>>,
}

impl GreedyPlayer {
    pub fn new(map: &Map, seat: Seat) -> GreedyPlayer {
        GreedyPlayer {
            seat,
            neighbours: neighbours(map),
        }
    }

    /// This turn's command lines.
    pub fn orders(&self, game: &Game) -> Orders {
        let (map, owners, garrisons) = (game.map(), game.owners(), game.garrisons());
        let mut lines = Vec::new();
        for (f, (&owner, &garrison)) in owners.iter().zip(garrisons).enumerate() {
            if owner != Owner::Seat(self.seat) || garrison < 10 {
                continue;
            }
            let weakest = self.neighbours[f]
                .iter()
                .filter(|n| owners[n.0] != owner)
                .min_by_key(|n| garrisons[n.0]);
            if let Some(to) = weakest {
                lines.push(format!(
                    "{} {} {}",
                    map.forts[f].name,
                    map.forts[to.0].name,
                    garrison / 2
                ));
            }
        }
        Orders::Commands(lines)
    }
}
