//! `cargo bench -p server --bench abtest`: whether an A/B test's 95% interval and its
//! verdict are honest, with no processes and no database.
//!
//! A simulated test goes through the real arithmetic (`challenges::stats::score` for
//! each game, `challenges::stats::compare` for the interval and the verdict) on games
//! drawn from a model:
//!
//! - a test plays S scenarios (a map, a seat and opponents); each is played once by
//!   version A and once by version B, and the pair of scores is one bootstrap unit;
//! - scenarios differ in difficulty: A's expected score in a scenario, p, is drawn
//!   from Uniform(lo, hi); B's is p + shift, clipped to what a game can give;
//! - a duel is a draw with chance 5%, a win with chance p - 2.5%, else a loss (score
//!   1, ½ or 0), so p lies within [2.5%, 97.5%]; in a 4-player game the bot finishes
//!   ahead of each opponent independently with chance p, its place is one more than
//!   the number ahead of it, and its score the share of the 3 it beat (no ties);
//! - given the scenario, A's and B's games are independent.
//!
//! The true difference is the expected score of B minus that of A over the model's
//! scenarios, computed exactly (the integral of the clipped shift over the uniform
//! spread). The shift is solved (bisection) so that the true difference is 0, 5, 10
//! and 20 points; clipping makes it larger than the difference in the lopsided model.
//! Three models: duels with p in [0.2, 0.8], lopsided duels with p in [0.025, 0.975]
//! (many scenarios nearly decided, so many paired differences exactly 0), and 4-player
//! games with p in [0.2, 0.8].
//!
//! For S = 10, 20, 50 and 100 scenarios, 2000 tests a cell (`-- --runs N`), each with
//! its own seed: how often the interval holds the true difference (its ends count as
//! inside, as for the verdict; should be 95%), how often it lies wholly below or above
//! it, how often the verdict says "B is better" or "B is worse", and the interval's
//! mean half width. At a true difference of 0 any verdict is wrong; above 0 "worse" is.
//! Then, for duels in [0.2, 0.8] and a true difference of 10 points, the share of tests
//! that say "B is better" from 25 to 400 scenarios, the number of games at which it
//! reaches 80% (and 50%), interpolated, and the games in all (played and more) that
//! "N more games would tell" predicts in the tests not yet decided after 5, 10, 20 and
//! 50 scenarios. Standard errors are binomial.

mod shared;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use server::challenges::stats::{self, Comparison, Verdict};
use shared::mix;

/// Tests per cell, unless `--runs N` says otherwise.
const RUNS: usize = 2000;
/// True differences of B over A, in score (points / 100).
const TRUE_DIFFS: [f64; 4] = [0.0, 0.05, 0.10, 0.20];
const SCENARIOS: [usize; 4] = [10, 20, 50, 100];
/// The difference the power search looks for, and the test sizes it tries.
const POWER_DIFF: f64 = 0.10;
const POWER_SCENARIOS: [usize; 9] = [25, 50, 100, 150, 200, 250, 300, 350, 400];
/// Scenarios after which the "N more games would tell" estimate is read.
const PREDICT_AT: [usize; 4] = [5, 10, 20, 50];
/// Chance of a draw in a duel.
const DRAW: f64 = 0.05;
/// Float slack when asking whether an interval's end is at the true difference.
const SLACK: f64 = 1e-9;

/// How a scenario's games go.
#[derive(Clone, Copy)]
struct Model {
    name: &'static str,
    /// A's expected score in a scenario is uniform on this range.
    spread: (f64, f64),
    /// Players in a game: 2 is a duel, with draws.
    players: usize,
}

const MODELS: [Model; 3] = [
    Model {
        name: "duels, p ~ U(0.2, 0.8), 5% draws",
        spread: (0.2, 0.8),
        players: 2,
    },
    Model {
        name: "lopsided duels, p ~ U(0.025, 0.975), 5% draws",
        spread: (0.025, 0.975),
        players: 2,
    },
    Model {
        name: "4-player games, p ~ U(0.2, 0.8)",
        spread: (0.2, 0.8),
        players: 4,
    },
];

impl Model {
    /// The expected scores a game can have.
    fn bounds(self) -> (f64, f64) {
        if self.players == 2 {
            (DRAW / 2.0, 1.0 - DRAW / 2.0)
        } else {
            (0.0, 1.0)
        }
    }

    /// B's expected score in a scenario where A's is `p`.
    fn shifted(self, p: f64, shift: f64) -> f64 {
        let (lo, hi) = self.bounds();
        (p + shift).clamp(lo, hi)
    }

    /// The exact expected difference over the scenarios: the integral of the clipped
    /// shift over the uniform spread.
    fn true_difference(self, shift: f64) -> f64 {
        let (lo, hi) = self.bounds();
        // The integral of clamp(t, lo, hi) from 0 to x.
        let f = |x: f64| {
            if x <= lo {
                lo * x
            } else if x <= hi {
                lo * lo + (x * x - lo * lo) / 2.0
            } else {
                lo * lo + (hi * hi - lo * lo) / 2.0 + hi * (x - hi)
            }
        };
        let (a, b) = self.spread;
        (f(b + shift) - f(a + shift)) / (b - a) - (a + b) / 2.0
    }

    /// The shift whose true difference is `target` (at least 0).
    fn shift_for(self, target: f64) -> f64 {
        if target == 0.0 {
            return 0.0;
        }
        let (mut lo, mut hi) = (0.0, 1.0);
        for _ in 0..100 {
            let mid = (lo + hi) / 2.0;
            if self.true_difference(mid) < target {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        (lo + hi) / 2.0
    }

    /// One game's score for a bot whose expected score is `p`, through `stats::score`.
    fn play(self, p: f64, rng: &mut ChaCha8Rng) -> f64 {
        if self.players == 2 {
            let u: f64 = rng.gen();
            let ranks = if u < p - DRAW / 2.0 {
                [1, 2]
            } else if u < p + DRAW / 2.0 {
                [1, 1]
            } else {
                [2, 1]
            };
            return stats::score(&ranks, 0);
        }
        let ahead = (1..self.players).filter(|_| rng.gen::<f64>() >= p).count() as u32;
        // The bot is seat 0; the opponents ahead of it take the places above its own.
        let ranks: Vec<u32> = (0..self.players as u32)
            .map(|i| match i {
                0 => ahead + 1,
                i if i <= ahead => i,
                i => i + 1,
            })
            .collect();
        stats::score(&ranks, 0)
    }

    /// The (A, B) scores of a test of `scenarios` scenarios.
    fn test(self, shift: f64, scenarios: usize, rng: &mut ChaCha8Rng) -> Vec<(f64, f64)> {
        (0..scenarios)
            .map(|_| {
                let p = rng.gen_range(self.spread.0..=self.spread.1);
                let q = self.shifted(p, shift);
                (self.play(p, rng), self.play(q, rng))
            })
            .collect()
    }
}

/// What the tests of one cell said.
#[derive(Default, Clone)]
struct Tally {
    tests: usize,
    covered: usize,
    /// The interval lies wholly below (above) the true difference.
    below: usize,
    above: usize,
    better: usize,
    worse: usize,
    half_width: f64,
    /// Games in all (played and still to play) that each "not yet" verdict predicts.
    predicted: Vec<f64>,
}

impl Tally {
    fn add(&mut self, c: &Comparison, truth: f64) {
        let (lo, hi) = c.ci95;
        self.tests += 1;
        if hi < truth - SLACK {
            self.below += 1;
        } else if lo > truth + SLACK {
            self.above += 1;
        } else {
            self.covered += 1;
        }
        match c.verdict {
            Verdict::Better => self.better += 1,
            Verdict::Worse => self.worse += 1,
            Verdict::Within => {}
            Verdict::NotYet { more_games } => self
                .predicted
                .push((2 * c.pairs) as f64 + f64::from(more_games)),
        }
        self.half_width += (hi - lo) / 2.0;
    }

    fn merge(mut self, other: Tally) -> Tally {
        self.tests += other.tests;
        self.covered += other.covered;
        self.below += other.below;
        self.above += other.above;
        self.better += other.better;
        self.worse += other.worse;
        self.half_width += other.half_width;
        self.predicted.extend(other.predicted);
        self
    }

    /// The share of tests with `count`, in percent.
    fn pct(&self, count: usize) -> f64 {
        100.0 * count as f64 / self.tests as f64
    }

    /// The binomial standard error of a share, in percent.
    fn se(&self, count: usize) -> f64 {
        let p = count as f64 / self.tests as f64;
        100.0 * (p * (1.0 - p) / self.tests as f64).sqrt()
    }
}

/// `runs` tests of `scenarios` scenarios at a true difference `target`, on every core
/// (each test seeded by its number, so the result does not depend on the cores).
fn cell(m: usize, target: f64, scenarios: usize, runs: usize) -> (Tally, f64, f64) {
    let model = MODELS[m];
    let shift = model.shift_for(target);
    let truth = model.true_difference(shift);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let key = [m as u64, target.to_bits(), scenarios as u64];
    let tally = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    let mut tally = Tally::default();
                    for run in (t..runs).step_by(threads) {
                        let seed = mix(&[key[0], key[1], key[2], run as u64]);
                        let mut rng = ChaCha8Rng::seed_from_u64(seed);
                        let pairs = model.test(shift, scenarios, &mut rng);
                        // The bootstrap's own seed, as a test's id is unrelated to its games.
                        let c = stats::compare(&pairs, mix(&[seed])).expect("scenarios");
                        tally.add(&c, truth);
                    }
                    tally
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a simulation thread"))
            .fold(Tally::default(), Tally::merge)
    });
    (tally, shift, truth)
}

/// The coverage table of one model; returns its cells.
fn coverage(m: usize, runs: usize) -> Vec<(f64, usize, Tally)> {
    println!("\n{}", MODELS[m].name);
    println!(
        "{:<22}{:>9}{:>16}{:>8}{:>8}{:>9}{:>8}{:>11}",
        "true diff (shift)",
        "scenarios",
        "covered",
        "below",
        "above",
        "better",
        "worse",
        "half width"
    );
    let mut cells = Vec::new();
    for target in TRUE_DIFFS {
        for s in SCENARIOS {
            let (t, shift, truth) = cell(m, target, s, runs);
            println!(
                "{:<22}{s:>9}{:>10.1}% ±{:.1}{:>7.1}%{:>7.1}%{:>8.1}%{:>7.1}%{:>7.1} pts",
                format!("{:+.1} pts ({:+.1})", 100.0 * truth, 100.0 * shift),
                t.pct(t.covered),
                t.se(t.covered),
                t.pct(t.below),
                t.pct(t.above),
                t.pct(t.better),
                t.pct(t.worse),
                100.0 * t.half_width / t.tests as f64,
            );
            cells.push((target, s, t));
        }
    }
    cells
}

/// The test size (in scenarios) at which the share saying "better" crosses `level`,
/// by linear interpolation between the sizes tried.
fn crossing(curve: &[(usize, f64)], level: f64) -> Option<f64> {
    curve.windows(2).find_map(|w| {
        let ((s0, p0), (s1, p1)) = (w[0], w[1]);
        (p0 < level && p1 >= level).then(|| s0 as f64 + (level - p0) / (p1 - p0) * (s1 - s0) as f64)
    })
}

/// The power table for duels at a 10-point difference; returns the games for 80%.
fn power(runs: usize) -> Option<f64> {
    println!(
        "\n{}: how often a true {:+.0}-point difference is found",
        MODELS[0].name,
        100.0 * POWER_DIFF
    );
    println!(
        "{:>9}{:>7}{:>16}{:>8}",
        "scenarios", "games", "\"better\"", "worse"
    );
    let mut curve = vec![(0, 0.0)];
    for s in POWER_SCENARIOS {
        let (t, _, _) = cell(0, POWER_DIFF, s, runs);
        println!(
            "{s:>9}{:>7}{:>10.1}% ±{:.1}{:>7.1}%",
            2 * s,
            t.pct(t.better),
            t.se(t.better),
            t.pct(t.worse)
        );
        curve.push((s, t.better as f64 / t.tests as f64));
    }
    let games = |level| crossing(&curve, level).map(|s| 2.0 * s);
    let show = |g: Option<f64>| g.map_or("more than tried".into(), |g| format!("~{g:.0}"));
    let (g80, g50) = (games(0.8), games(0.5));
    println!(
        "found in 80% of tests after {} games, in 50% after {}",
        show(g80),
        show(g50)
    );
    for s in PREDICT_AT {
        let (t, _, _) = cell(0, POWER_DIFF, s, runs);
        let mut p = t.predicted.clone();
        if p.is_empty() {
            continue;
        }
        p.sort_by(f64::total_cmp);
        let mean = p.iter().sum::<f64>() / p.len() as f64;
        println!(
            "after {s:>2} scenarios \"N more games would tell\" predicts {:>3.0} games in all \
             (median of the {:.0}% not yet decided; mean {mean:.0}, quartiles {:.0}-{:.0})",
            p[p.len() / 2],
            100.0 * p.len() as f64 / t.tests as f64,
            p[p.len() / 4],
            p[3 * p.len() / 4],
        );
    }
    g80
}

/// Coverage and wrong verdicts pooled over cells.
fn pooled<'a>(cells: impl Iterator<Item = &'a Tally>) -> (f64, f64, usize) {
    let all = cells.fold(Tally::default(), |a, t| a.merge(t.clone()));
    (all.pct(all.covered), all.se(all.covered), all.tests)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if !args.iter().any(|a| a == "--bench") {
        println!("A/B test simulation: run with `cargo bench -p server --bench abtest`");
        return;
    }
    let runs = args
        .iter()
        .position(|a| a == "--runs")
        .and_then(|i| args.get(i + 1)?.parse().ok())
        .unwrap_or(RUNS);
    let start = std::time::Instant::now();
    println!(
        "{runs} simulated A/B tests a cell; {} bootstrap resamples each, a verdict from {} \
         scenarios on.\ncovered: the 95% interval holds the true difference (below/above: \
         it lies wholly under/over it); better/worse: the verdict.",
        stats::RESAMPLES,
        stats::MIN_PAIRS
    );
    let cells: Vec<Vec<(f64, usize, Tally)>> =
        (0..MODELS.len()).map(|m| coverage(m, runs)).collect();
    let g80 = power(runs);
    let all = cells.iter().flatten();
    let (cov, se, tests) = pooled(all.clone().map(|c| &c.2));
    let (cov10, se10, _) = pooled(all.clone().filter(|c| c.1 == 10).map(|c| &c.2));
    let (cov50, se50, _) = pooled(all.clone().filter(|c| c.1 >= 50).map(|c| &c.2));
    let nulls = all
        .filter(|c| c.0 == 0.0)
        .fold(Tally::default(), |a, c| a.merge(c.2.clone()));
    let wrong = nulls.better + nulls.worse;
    println!("\nruntime {:.0} s", start.elapsed().as_secs_f64());
    println!(
        "\nThe 95% interval covered the true difference in {cov:.1}% ± {se:.1} of {tests} \
         simulated tests ({cov10:.1}% ± {se10:.1} with 10 scenarios, {cov50:.1}% ± {se50:.1} \
         with 50 or more);\nwith no true difference the verdict named a winner in {:.1}% ± \
         {:.1} of tests; a 10-point difference is found 80% of the time after {} games.",
        nulls.pct(wrong),
        nulls.se(wrong),
        g80.map_or("more than 800".into(), |g| format!("~{g:.0}")),
    );
}
