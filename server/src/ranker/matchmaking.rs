//! Matchmaking: who plays whom on which map. A pure function of the ladder's state
//! and a random source, so simulations run the same code as the server.
//!
//! 1. The seed is the bot whose active version has played least (counting matches
//!    already queued), so new versions play first; ties go to the one that waited
//!    longest, then at random. But a bot with nothing queued that has waited more
//!    than [`STARVED`] times the median wait of the bots is the seed first: otherwise a
//!    bot whose owner's newer bots keep being seeds (and one owner's bots never meet)
//!    could go unplayed for as long as they catch up.
//! 2. The number of players: 2, or with probability `multi_player_share` the seat count of a
//!    multi-player map, if enough owners are available.
//! 3. Opponents come from the bots nearest the seed in rating, within a window whose
//!    size is random, so everyone meets slightly stronger and weaker bots; never two
//!    bots of the same owner in one match.
//! 4. The map is one with exactly that many seats that these bots played least (the
//!    server counts each bot's last 100 matches).
//! 5. Seats are shuffled.

use std::collections::HashMap;

use rand::seq::SliceRandom;
use rand::Rng;

use crate::ids::{BotId, MapId, VersionId};

/// A bot that can play.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    pub bot_id: BotId,
    pub version_id: VersionId,
    /// Bots of one owner never meet; each house bot is an owner of its own.
    pub owner: i64,
    pub mu: f64,
    pub sigma: f64,
    /// Games played by its active version, plus matches queued for it.
    pub load: u32,
    /// When it last played (unix seconds), if ever.
    pub last_game: Option<i64>,
    /// Matches queued for it now.
    pub queued: u32,
}

/// A bot waiting this many times the median wait of the bots that played (both since
/// their last game, counted to the latest game of all) is seeded first.
pub const STARVED: i64 = 2;

/// The bot that has waited longest, with nothing queued, when it has waited more than
/// `factor` times the median wait of the bots that played: waits are counted to the
/// latest game of all, the ladder's clock.
pub fn starved(cands: &[Candidate], factor: i64) -> Option<usize> {
    let latest = cands.iter().filter_map(|c| c.last_game).max()?;
    let waits: Vec<(usize, i64)> = cands
        .iter()
        .enumerate()
        .filter_map(|(i, c)| c.last_game.map(|t| (i, latest - t)))
        .collect();
    // The median: the starving bots themselves do not raise the bar.
    let mut sorted: Vec<i64> = waits.iter().map(|w| w.1).collect();
    sorted.sort_unstable();
    let typical = sorted[sorted.len() / 2];
    waits
        .into_iter()
        .filter(|&(i, w)| cands[i].queued == 0 && w > factor * typical.max(1))
        .max_by_key(|&(_, w)| w)
        .map(|(i, _)| i)
}

/// A bot's place in the line of seeds (step 1): lower goes first. `load` is its
/// version's games plus its queued matches, `last_game` when it last played (unix
/// seconds). Bot pages say where a bot stands in this line.
pub fn line_key(load: i64, last_game: Option<i64>) -> (i64, i64) {
    (load, last_game.unwrap_or(i64::MIN))
}

/// A map that can be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapChoice {
    pub id: MapId,
    pub seats: usize,
}

/// Knobs of matchmaking.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Share of matches on multi-player maps, when there are any. Half by default: a
    /// multi-player match compares every pair of its players, so each game tells more
    /// (`cargo bench -p server --bench rating -- --sweep` weighs this, also for
    /// multi-player games that are luckier than duels).
    pub multi_player_share: f64,
    /// The opponents are drawn from the `players - 1 + window` bots nearest in rating,
    /// with `window` drawn from `0..=max_window`.
    pub max_window: usize,
    /// A bot with nothing queued that waited more than this many times the median wait
    /// is seeded first ([`starved`]); `None`: never (`cargo bench -p server --bench
    /// waits` compares).
    pub starved_after: Option<i64>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            multi_player_share: 0.5,
            max_window: 6,
            starved_after: Some(STARVED),
        }
    }
}

/// A planned match: the map and the candidates (indexes) by seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub map_id: MapId,
    pub seats: Vec<usize>,
}

/// Plans one match, or `None` when no match can be made (fewer than two owners, no
/// map). `plays` counts games per (bot, map). [`players`] then [`map_for`].
pub fn plan(
    cands: &[Candidate],
    maps: &[MapChoice],
    plays: &HashMap<(BotId, MapId), u32>,
    settings: &Settings,
    rng: &mut impl Rng,
) -> Option<Plan> {
    let chosen = players(cands, maps, settings, rng)?;
    map_for(chosen, cands, maps, plays, rng)
}

/// Steps 1 to 3: the players (candidate indexes, the seed first), or `None` when no
/// match can be made.
pub fn players(
    cands: &[Candidate],
    maps: &[MapChoice],
    settings: &Settings,
    rng: &mut impl Rng,
) -> Option<Vec<usize>> {
    let mut order: Vec<usize> = (0..cands.len()).collect();
    order.shuffle(rng);
    let least_played = *order
        .iter()
        .min_by_key(|&&i| line_key(i64::from(cands[i].load), cands[i].last_game))?;
    let seed = settings
        .starved_after
        .and_then(|f| starved(cands, f))
        .unwrap_or(least_played);
    around(seed, order, cands, maps, settings, rng)
}

/// Steps 2 and 3 for a seed chosen already (a remote bot whose session waits for a
/// match, `crate::remote`): the players, the seed first, or `None`.
pub fn players_for(
    seed: usize,
    cands: &[Candidate],
    maps: &[MapChoice],
    settings: &Settings,
    rng: &mut impl Rng,
) -> Option<Vec<usize>> {
    let mut order: Vec<usize> = (0..cands.len()).collect();
    order.shuffle(rng);
    around(seed, order, cands, maps, settings, rng)
}

/// Steps 2 and 3 around `seed`; `order` is every candidate, shuffled.
fn around(
    seed: usize,
    order: Vec<usize>,
    cands: &[Candidate],
    maps: &[MapChoice],
    settings: &Settings,
    rng: &mut impl Rng,
) -> Option<Vec<usize>> {
    let owners = {
        let mut o: Vec<i64> = cands.iter().map(|c| c.owner).collect();
        o.sort_unstable();
        o.dedup();
        o.len()
    };
    let mut sizes: Vec<usize> = maps
        .iter()
        .map(|m| m.seats)
        .filter(|&s| s > 2 && s <= owners)
        .collect();
    sizes.sort_unstable();
    sizes.dedup();
    let two = maps.iter().any(|m| m.seats == 2) && owners >= 2;
    let players = if !sizes.is_empty() && (!two || rng.gen_bool(settings.multi_player_share)) {
        sizes[rng.gen_range(0..sizes.len())]
    } else if two {
        2
    } else {
        return None;
    };

    // Opponents near the seed in rating, from other owners.
    let me = &cands[seed];
    let mut others: Vec<usize> = order
        .into_iter()
        .filter(|&i| cands[i].owner != me.owner)
        .collect();
    others.sort_by(|&a, &b| {
        let da = (cands[a].mu - me.mu).abs();
        let db = (cands[b].mu - me.mu).abs();
        da.total_cmp(&db)
    });
    let window = players - 1 + rng.gen_range(0..=settings.max_window);
    let mut pool: Vec<usize> = others.iter().copied().take(window).collect();
    pool.shuffle(rng);
    // Farther bots fill in when the window holds too few distinct owners.
    pool.extend(others.iter().copied().skip(window));
    let mut chosen = vec![seed];
    for i in pool {
        if chosen.len() == players {
            break;
        }
        if chosen.iter().all(|&c| cands[c].owner != cands[i].owner) {
            chosen.push(i);
        }
    }
    (chosen.len() == players).then_some(chosen)
}

/// Steps 4 and 5: the map with as many seats as `chosen` that they played least
/// (`plays` needs only their counts), and their seats.
pub fn map_for(
    mut chosen: Vec<usize>,
    cands: &[Candidate],
    maps: &[MapChoice],
    plays: &HashMap<(BotId, MapId), u32>,
    rng: &mut impl Rng,
) -> Option<Plan> {
    let mut fitting: Vec<&MapChoice> = maps.iter().filter(|m| m.seats == chosen.len()).collect();
    fitting.shuffle(rng);
    let map = fitting.into_iter().min_by_key(|m| {
        chosen
            .iter()
            .map(|&c| plays.get(&(cands[c].bot_id, m.id)).copied().unwrap_or(0))
            .sum::<u32>()
    })?;
    chosen.shuffle(rng);
    Some(Plan {
        map_id: map.id,
        seats: chosen,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn bot(id: i64, owner: i64, mu: f64, load: u32) -> Candidate {
        Candidate {
            bot_id: BotId(id),
            version_id: VersionId(id * 10),
            owner,
            mu,
            sigma: 3.0,
            load,
            last_game: Some(0),
            queued: 0,
        }
    }

    fn maps() -> Vec<MapChoice> {
        vec![
            MapChoice {
                id: MapId(1),
                seats: 2,
            },
            MapChoice {
                id: MapId(2),
                seats: 2,
            },
            MapChoice {
                id: MapId(3),
                seats: 4,
            },
        ]
    }

    #[test]
    fn the_bot_that_played_least_is_always_in_the_match() {
        let cands: Vec<Candidate> = (0..10)
            .map(|i| bot(i, i, 20.0 + i as f64, 5 + i as u32))
            .collect();
        let mut fresh = cands.clone();
        fresh[7].load = 0;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        for _ in 0..50 {
            let p = plan(
                &fresh,
                &maps(),
                &HashMap::new(),
                &Settings::default(),
                &mut rng,
            )
            .unwrap();
            assert!(p.seats.contains(&7));
        }
    }

    /// An owner's two new bots keep being seeds while they catch up; its old bot cannot
    /// meet them, and would wait throughout. Past twice the median wait it goes
    /// first, once (its match queued, the line goes on).
    #[test]
    fn a_bot_that_waited_twice_the_median_is_the_seed() {
        let mut cands: Vec<Candidate> = (0..8)
            .map(|i| Candidate {
                last_game: Some(1000 - 10 * i),
                ..bot(i, i, 25.0, 50)
            })
            .collect();
        // Owner 100: an old bot that played long ago, two new ones that played least.
        cands.push(Candidate {
            last_game: Some(700),
            ..bot(8, 100, 25.0, 300)
        });
        for (id, load) in [(9, 0), (10, 1)] {
            cands.push(Candidate {
                last_game: None,
                ..bot(id, 100, 25.0, load)
            });
        }
        assert_eq!(starved(&cands, STARVED), Some(8));
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let p = players(&cands, &maps(), &Settings::default(), &mut rng).unwrap();
        assert_eq!(p[0], 8, "the starved bot is the seed");
        cands[8].queued = 1;
        assert_eq!(
            starved(&cands, STARVED),
            None,
            "once queued, the line goes on"
        );
        let p = players(&cands, &maps(), &Settings::default(), &mut rng).unwrap();
        assert!([9, 10].contains(&p[0]), "{p:?}");
        // Waits near the median starve nobody.
        cands[8].queued = 0;
        cands[8].last_game = Some(950);
        assert_eq!(starved(&cands, STARVED), None);
    }

    #[test]
    fn no_two_bots_of_one_owner_meet_and_opponents_are_near_in_rating() {
        let cands: Vec<Candidate> = (0..40).map(|i| bot(i, i / 2, i as f64, 10)).collect();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2);
        let mut far = 0;
        for _ in 0..300 {
            let p = plan(
                &cands,
                &maps(),
                &HashMap::new(),
                &Settings::default(),
                &mut rng,
            )
            .unwrap();
            let owners: Vec<i64> = p.seats.iter().map(|&i| cands[i].owner).collect();
            let mut unique = owners.clone();
            unique.dedup();
            unique.sort_unstable();
            unique.dedup();
            assert_eq!(unique.len(), owners.len(), "{owners:?}");
            let mus: Vec<f64> = p.seats.iter().map(|&i| cands[i].mu).collect();
            let spread = mus.iter().cloned().fold(f64::MIN, f64::max)
                - mus.iter().cloned().fold(f64::MAX, f64::min);
            if spread > 16.0 {
                far += 1;
            }
        }
        assert!(
            far < 10,
            "opponents come from near the seed: {far} far matches"
        );
    }

    #[test]
    fn player_counts_follow_the_maps_and_the_mix() {
        let cands: Vec<Candidate> = (0..20).map(|i| bot(i, i, 25.0, 0)).collect();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let quarter = Settings {
            multi_player_share: 0.25,
            ..Settings::default()
        };
        let mut multi = 0;
        for _ in 0..400 {
            let p = plan(&cands, &maps(), &HashMap::new(), &quarter, &mut rng).unwrap();
            let seats = maps().iter().find(|m| m.id == p.map_id).unwrap().seats;
            assert_eq!(p.seats.len(), seats);
            multi += usize::from(seats == 4);
        }
        assert!(
            (60..140).contains(&multi),
            "about a quarter multi-player: {multi}"
        );
        // Three owners cannot fill a four-seat map: only duels.
        let few: Vec<Candidate> = (0..3).map(|i| bot(i, i, 25.0, 0)).collect();
        for _ in 0..50 {
            assert_eq!(
                plan(
                    &few,
                    &maps(),
                    &HashMap::new(),
                    &Settings::default(),
                    &mut rng
                )
                .unwrap()
                .seats
                .len(),
                2
            );
        }
        let alone: Vec<Candidate> = (0..3).map(|i| bot(i, 9, 25.0, 0)).collect();
        assert_eq!(
            plan(
                &alone,
                &maps(),
                &HashMap::new(),
                &Settings::default(),
                &mut rng
            ),
            None
        );
    }

    #[test]
    fn the_map_these_bots_played_least_is_chosen() {
        let cands = vec![bot(1, 1, 25.0, 0), bot(2, 2, 25.0, 1)];
        let plays = HashMap::from([
            ((BotId(1), MapId(1)), 3),
            ((BotId(2), MapId(1)), 2),
            ((BotId(1), MapId(2)), 1),
        ]);
        let two = vec![maps()[0].clone(), maps()[1].clone()];
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(4);
        for _ in 0..20 {
            assert_eq!(
                plan(&cands, &two, &plays, &Settings::default(), &mut rng)
                    .unwrap()
                    .map_id,
                MapId(2)
            );
        }
    }
}
