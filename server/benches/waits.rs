//! `cargo bench -p server --bench waits`: how long bots wait between ranked games when
//! owners hold several bots and new versions keep arriving, with no processes and no
//! database.
//!
//! A simulated ladder runs the real matchmaking (`ranker::matchmaking::players` and
//! `map_for`, the shipped maps' seat counts) on a clock: 4 house bots (each its own
//! owner) and 8 owners with 3 bots each; 2 workers, each match taking 5 to 40 s (the
//! house bots' matches on this machine); 2 matches planned ahead per worker, as `serve`
//! keeps; every 2 minutes a new version of a random contestant's bot (its version's
//! games start over, so it plays first). One owner's bots never meet, so while an
//! owner's newer bots catch up, its older one is never a seed and never their opponent.
//!
//! Over 4 simulated hours (the first hour left out as the settling of new bots), for
//! each ladder (seed; 20 by default, `-- --runs N`): the longest wait of any bot between
//! two of its games, against the ladder's mean gap between a bot's games; and each
//! bot's games per hour against the mean; and how often a bot's next game came within
//! twice the mean gap (what its page promises), from moments sampled every minute. With
//! and without the rule that seeds a bot that waited more than twice the median wait
//! (`Settings::starved_after`).

use std::collections::HashMap;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use server::ids::{BotId, MapId, VersionId};
use server::ranker::matchmaking::{self, Candidate, MapChoice, Settings};

const WORKERS: usize = 2;
const BUFFER: usize = 2 * WORKERS;
const HOUSE: usize = 4;
const OWNERS: usize = 8;
const BOTS_EACH: usize = 3;
/// Simulated seconds.
const HOURS: i64 = 4;
const SETTLE: i64 = 3600;
const NEW_VERSION_EVERY: i64 = 120;

fn shipped_maps() -> Vec<MapChoice> {
    server::ranker::map_choices("bottlebats").unwrap()
}

fn bots() -> Vec<Candidate> {
    let owner_of = |i: usize| {
        if i < HOUSE {
            -(i as i64) - 1
        } else {
            ((i - HOUSE) / BOTS_EACH) as i64
        }
    };
    (0..HOUSE + OWNERS * BOTS_EACH)
        .map(|i| Candidate {
            bot_id: BotId(i as i64 + 1),
            version_id: VersionId(i as i64 + 1),
            owner: owner_of(i),
            mu: 25.0,
            sigma: 8.0,
            load: 0,
            last_game: None,
            queued: 0,
        })
        .collect()
}

/// What one ladder measured after it settled.
struct Measured {
    /// The longest wait of a bot between two games, in seconds.
    longest: i64,
    /// The mean gap between a bot's games, in seconds.
    mean_gap: f64,
    /// Each bot's games per hour over the measured hours.
    rates: Vec<f64>,
    /// Of the moments sampled (every minute, every bot), how many saw the bot's next
    /// game start within twice the mean gap, as its page promises; and how many there
    /// were.
    promise: (usize, usize),
}

/// The ladder's state as the simulation runs it.
struct Ladder {
    cands: Vec<Candidate>,
    version_games: Vec<u32>,
    plays: HashMap<(BotId, MapId), u32>,
    queue: std::collections::VecDeque<matchmaking::Plan>,
    /// When each worker is free, and the match it plays.
    workers: Vec<(i64, Option<matchmaking::Plan>)>,
    /// Each bot's games' end times.
    games: Vec<Vec<i64>>,
}

impl Ladder {
    fn plan(&mut self, maps: &[MapChoice], settings: &Settings, rng: &mut ChaCha8Rng) {
        while self.queue.len() < BUFFER {
            let Some(chosen) = matchmaking::players(&self.cands, maps, settings, rng) else {
                return;
            };
            let p = matchmaking::map_for(chosen, &self.cands, maps, &self.plays, rng).unwrap();
            for &i in &p.seats {
                self.cands[i].load += 1;
                self.cands[i].queued += 1;
                *self
                    .plays
                    .entry((self.cands[i].bot_id, p.map_id))
                    .or_default() += 1;
            }
            self.queue.push_back(p);
        }
    }

    fn finish(&mut self, p: &matchmaking::Plan, now: i64) {
        for &i in &p.seats {
            self.version_games[i] += 1;
            let c = &mut self.cands[i];
            c.queued -= 1;
            c.load = self.version_games[i] + c.queued;
            c.last_game = Some(now);
            self.games[i].push(now);
        }
    }
}

fn ladder(seed: u64, settings: &Settings) -> Measured {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let maps = shipped_maps();
    let cands = bots();
    let n = cands.len();
    let mut l = Ladder {
        cands,
        version_games: vec![0; n],
        plays: HashMap::new(),
        queue: Default::default(),
        workers: vec![(0, None); WORKERS],
        games: vec![Vec::new(); n],
    };
    let end = HOURS * 3600;
    let mut next_version = NEW_VERSION_EVERY;
    loop {
        let w = (0..WORKERS).min_by_key(|&w| l.workers[w].0).unwrap();
        let now = l.workers[w].0;
        if now >= end {
            break;
        }
        if let Some(p) = l.workers[w].1.take() {
            l.finish(&p, now);
        }
        while next_version <= now {
            let i = rng.gen_range(HOUSE..n);
            l.version_games[i] = 0;
            l.cands[i].load = l.cands[i].queued;
            next_version += NEW_VERSION_EVERY;
        }
        l.plan(&maps, settings, &mut rng);
        let p = l.queue.pop_front().expect("the ladder can always play");
        l.workers[w] = (now + rng.gen_range(5..=40), Some(p));
    }
    measure(&l.games)
}

fn measure(games: &[Vec<i64>]) -> Measured {
    let end = HOURS * 3600;
    let mut longest = 0;
    let mut gaps = Vec::new();
    let mut rates = Vec::new();
    for g in games {
        let after: Vec<i64> = g.iter().copied().filter(|&t| t >= SETTLE).collect();
        let mut last = SETTLE;
        for &t in &after {
            gaps.push(t - last);
            longest = longest.max(t - last);
            last = t;
        }
        longest = longest.max(end - last);
        rates.push(after.len() as f64 / ((end - SETTLE) as f64 / 3600.0));
    }
    let mean_gap = gaps.iter().sum::<i64>() as f64 / gaps.len().max(1) as f64;
    let mut promise = (0, 0);
    for g in games {
        for moment in (SETTLE..end).step_by(60) {
            if let Some(&next) = g.iter().find(|&&t| t > moment) {
                promise.0 += usize::from(((next - moment) as f64) <= 2.0 * mean_gap);
                promise.1 += 1;
            }
        }
    }
    Measured {
        longest,
        mean_gap,
        rates,
        promise,
    }
}

fn report(name: &str, runs: u64, settings: &Settings) {
    let (mut ratio_sum, mut ratio_max, mut longest_max, mut within, mut total) =
        (0.0f64, 0.0f64, 0i64, 0usize, 0usize);
    let mut gap_sum = 0.0;
    let (mut low, mut high) = (f64::MAX, 0.0f64);
    let mut promise = (0, 0);
    for seed in 0..runs {
        let m = ladder(seed, settings);
        promise = (promise.0 + m.promise.0, promise.1 + m.promise.1);
        let ratio = m.longest as f64 / m.mean_gap;
        ratio_sum += ratio;
        ratio_max = ratio_max.max(ratio);
        longest_max = longest_max.max(m.longest);
        gap_sum += m.mean_gap;
        let mean = m.rates.iter().sum::<f64>() / m.rates.len() as f64;
        for r in &m.rates {
            within += usize::from((r / mean - 1.0).abs() <= 0.25);
            low = low.min(r / mean);
            high = high.max(r / mean);
        }
        total += m.rates.len();
    }
    let runs = runs as f64;
    println!(
        "{name:<26} mean gap {:>3.0} s | longest wait {:>4.1}x the mean gap on average, {:>4.1}x at most ({} s) | games per hour within ±25% of the mean: {:>5.1}% of bots ({:.2}x to {:.2}x) | next game within 2x the mean gap: {:>4.1}% of moments",
        gap_sum / runs,
        ratio_sum / runs,
        ratio_max,
        longest_max,
        100.0 * within as f64 / total as f64,
        low,
        high,
        100.0 * promise.0 as f64 / promise.1.max(1) as f64
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let runs = args
        .iter()
        .position(|a| a == "--runs")
        .and_then(|i| args.get(i + 1)?.parse().ok())
        .unwrap_or(20);
    println!(
        "{HOUSE} house bots and {OWNERS} owners with {BOTS_EACH} bots each, {WORKERS} workers, a new version every {NEW_VERSION_EVERY} s; hours 1 to {HOURS} of {runs} ladders"
    );
    let without = Settings {
        starved_after: None,
        ..Settings::default()
    };
    report("least played first only", runs, &without);
    report("and the starved go first", runs, &Settings::default());
}
