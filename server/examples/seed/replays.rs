//! The replays the seeded matches share: games of the engine's in-process random
//! players on the shipped maps, played whole and stopped early.

use std::io::Write as _;
use std::sync::Arc;

use bottlebats::game::Game;
use bottlebats::replay::{Events, Replay};

use crate::MAX_STEPS;

/// Games played per map (each gives a whole replay and a short one).
const GAMES_PER_MAP: u64 = 2;

/// A replay played in process, and what the ladder records of it.
pub struct Played {
    pub map: &'static str,
    pub seats: usize,
    /// Played to the end (or the ladder's turn limit), not stopped early.
    pub whole: bool,
    pub gz: Vec<u8>,
    pub turns: u32,
    /// (forts, soldiers) per seat at the end.
    pub holdings: Vec<(u64, u64)>,
}

pub fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(bytes).expect("writing to memory");
    gz.finish().expect("writing to memory")
}

fn play(map: &'static str, text: &str, seed: u64, max_steps: u32) -> anyhow::Result<Played> {
    let parsed = Arc::new(bottlebats::Map::parse(text).map_err(|e| anyhow::anyhow!("{map}: {e}"))?);
    let seats = parsed.seats.len();
    let names: Vec<String> = (1..=seats).map(|i| format!("player{i}")).collect();
    let mut game =
        Game::new(parsed, &names, max_steps).map_err(|e| anyhow::anyhow!("{map}: {e:?}"))?;
    let mut replay = Replay::start(&game);
    bottlebats::scripted::play_random_game(&mut game, seed, |g, ev| replay.push(Events::of(ev), g));
    let outcome = game.outcome();
    replay.finish(&game, &outcome);
    Ok(Played {
        map,
        seats,
        whole: max_steps == MAX_STEPS,
        gz: server::compress::gzip(bottlebats::replay_v2::encode(&replay).to_json().as_bytes()),
        turns: game.turn(),
        holdings: game.holdings(),
    })
}

/// Two games per shipped map for 2 to 6 players, whole and stopped early at
/// `short_turns` (the same game: the rules are deterministic), on both cores; says how
/// long they are on average.
pub fn play_all(short_turns: u32, seed: u64) -> anyhow::Result<Vec<Played>> {
    let maps = server::games::content("bottlebats")?.maps();
    let jobs: Vec<(&str, &str, u64, u32)> = (maps.iter())
        .map(|(name, text)| (*name, text.as_str()))
        .filter(|(_, text)| {
            bottlebats::Map::parse(text).is_ok_and(|m| (2..=6).contains(&m.seats.len()))
        })
        .flat_map(|(name, text)| {
            (0..GAMES_PER_MAP).flat_map(move |k| {
                [MAX_STEPS, short_turns].map(|turns| (name, text, seed * 1000 + k, turns))
            })
        })
        .collect();
    let replays: Vec<Played> = std::thread::scope(|s| {
        let handles: Vec<_> = jobs
            .chunks(jobs.len().div_ceil(2))
            .map(|chunk| {
                s.spawn(move || {
                    chunk
                        .iter()
                        .map(|&(name, text, seed, turns)| play(name, text, seed, turns))
                        .collect::<anyhow::Result<Vec<_>>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a replay thread panicked"))
            .collect::<anyhow::Result<Vec<Vec<_>>>>()
    })?
    .into_iter()
    .flatten()
    .collect();
    for whole in [true, false] {
        let of: Vec<&Played> = replays.iter().filter(|r| r.whole == whole).collect();
        println!(
            "  {} {} replays: {:.0} turns and {:.1} KB gzipped on average",
            of.len(),
            if whole { "whole" } else { "short" },
            of.iter().map(|r| r.turns as f64).sum::<f64>() / of.len() as f64,
            of.iter().map(|r| r.gz.len() as f64).sum::<f64>() / of.len() as f64 / 1024.0
        );
    }
    Ok(replays)
}
