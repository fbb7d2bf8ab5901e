//! In-process players: no processes, no text round trip of the state. Used where
//! many games must be played fast: benchmarks, tests and rating simulations.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::game::{Game, Orders};
use crate::map::{FortId, Map, Owner, Seat};
use crate::replay::{Events, Replay};

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

/// How the players of a [`recorded`] game play.
#[derive(Clone, Copy, Debug)]
pub enum Style {
    /// [`RandomPlayer`]s of this seed: the busiest games.
    Random(u64),
    /// [`GreedyPlayer`]s.
    Greedy,
    /// Nobody sends anything.
    Idle,
    /// Random players, but the last seat misbehaves as the runner sees bots do: bad
    /// lines in turns 5 to 7 (warnings), no reply in turns 8 and 9 (timeouts), a
    /// process limit in turn 12 and a fatal reply in turn 30 (removed). Everyone's reply
    /// times are recorded, as the runner records them.
    Troubled(u64),
}

/// A whole game on `map`, its seats named `p1`, `p2`… and played in `style`, as a
/// replay.
pub fn recorded(map: Map, style: Style, max_steps: u32) -> Replay {
    let names: Vec<String> = (1..=map.seats.len()).map(|i| format!("p{i}")).collect();
    let last = names.len() - 1;
    let mut game = Game::new(std::sync::Arc::new(map), &names, max_steps)
        .expect("a map's own seats can be played");
    let seed = match style {
        Style::Random(s) | Style::Troubled(s) => s,
        _ => 0,
    };
    let mut random: Vec<RandomPlayer> = (0..names.len())
        .map(|s| RandomPlayer::new(game.map(), Seat(s), seed))
        .collect();
    let greedy: Vec<GreedyPlayer> = (0..names.len())
        .map(|s| GreedyPlayer::new(game.map(), Seat(s)))
        .collect();
    let mut replay = Replay::start(&game);
    while !game.is_over() {
        let t = game.turn();
        let mut orders: Vec<Orders> = match style {
            Style::Random(_) | Style::Troubled(_) => {
                random.iter_mut().map(|p| p.orders(&game)).collect()
            }
            Style::Greedy => greedy.iter().map(|p| p.orders(&game)).collect(),
            Style::Idle => vec![Orders::none(); names.len()],
        };
        let troubled = matches!(style, Style::Troubled(_));
        if troubled {
            orders[last] = match t {
                5..=7 => Orders::Commands(vec![format!("nowhere x {t}")]),
                8 | 9 => Orders::none(),
                30 => Orders::Fatal("the reply's header is not `N commands:`".into()),
                _ => orders[last].clone(),
            };
        }
        let mut events = Events::of(&game.step(&orders));
        if troubled {
            events.ms = (0..names.len())
                .map(|s| (t <= 30 || s != last).then_some((t * 7 + s as u32) % 23))
                .collect();
            match t {
                8 | 9 => events.timeouts = vec![last],
                12 => events.limits = vec![(last, "hit its limit of 64 processes".into())],
                _ => {}
            }
        }
        replay.push(events, &game);
    }
    replay.finish(&game, &game.outcome());
    replay
}
