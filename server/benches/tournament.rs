//! `cargo bench -p server --bench tournament`: whether a tournament's standings are
//! honest about how sure they are, with no processes and no database.
//!
//! A simulated tournament goes through the real schedules (`tournaments::plan`) and
//! the real arithmetic (`tournaments::stats::standings`) on games drawn from a model:
//!
//! - each participant has a true strength on the Elo scale, drawn from Uniform(0,
//!   400), so γ = 10^(strength / 400);
//! - a duel of a and b is won by a with chance p - d/2, drawn with chance d and lost
//!   otherwise, where p = γa / (γa + γb) (Bradley–Terry) and d = 10% (less when p is
//!   within 5% of 0 or 1), so a's expected score is exactly p, the quantity a fit that
//!   counts a draw as ½ estimates;
//! - a game of k players is a Plackett–Luce ranking: the winner is drawn with chance
//!   proportional to γ, then second among the rest, and so on (no ties); any two of
//!   its players are then ordered as in a duel without draws;
//! - games are independent given the strengths.
//!
//! Scenarios: round robins of 4 and of 8 participants on 2 maps (every ordered pair
//! on every map: 24 and 112 duels), groups of 4 among 8 participants (40 and 100
//! games, `plan::groups`), and a Swiss tournament of 16 participants, 5 rounds, each
//! pair playing 2 maps both ways (160 duels), paired (`plan::swiss_pairs`) from the
//! points so far. For each, 1000 tournaments (`-- --runs N`; `-- --threads N`, all
//! cores unless told), each with its own seed and its own strengths: how often each
//! participant's 95% interval holds its true strength (both centred to a mean of 0
//! over the participants; should be 95%), how often it misses inward (between the
//! truth and 0: the estimate shrunk) or outward, its mean half width and the
//! estimate's root mean square error, in Elo; and how often the leader (highest
//! estimate) is truly the strongest, next to the mean `leader_strongest` the standings
//! reported (they should agree), overall and by bands of the reported value. Standard
//! errors are binomial (the intervals of one tournament are not independent, so a
//! little optimistic). First, how long `standings` takes. About 75 s on 2 busy cores.

mod shared;

use shared::mix;
use std::collections::HashSet;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use server::tournaments::plan::{self, Planned};
use server::tournaments::stats::{self, Game, Standings};

/// Tournaments per scenario, unless `--runs N` says otherwise.
const RUNS: usize = 1000;
/// True strengths are uniform on 0 to this, in Elo.
const SPREAD: f64 = 400.0;
/// Chance of a draw in a duel (less when a side is nearly sure to win).
const DRAW: f64 = 0.10;
/// Bands of the reported `leader_strongest` for the calibration table.
const BANDS: [f64; 5] = [0.0, 0.5, 0.7, 0.9, 1.0 + 1e-9];

/// How a scenario's games are laid out.
#[derive(Clone, Copy)]
enum Format {
    RoundRobin { n: usize, maps: usize },
    Groups { n: usize, k: usize, games: usize },
    Swiss { n: usize, rounds: u32, maps: usize },
}

const SCENARIOS: [(&str, Format); 5] = [
    (
        "round robin, 4 x 2 maps",
        Format::RoundRobin { n: 4, maps: 2 },
    ),
    (
        "round robin, 8 x 2 maps",
        Format::RoundRobin { n: 8, maps: 2 },
    ),
    (
        "groups of 4 of 8, 40 games",
        Format::Groups {
            n: 8,
            k: 4,
            games: 40,
        },
    ),
    (
        "groups of 4 of 8, 100 games",
        Format::Groups {
            n: 8,
            k: 4,
            games: 100,
        },
    ),
    (
        "swiss, 16 x 5 rounds x 2 maps",
        Format::Swiss {
            n: 16,
            rounds: 5,
            maps: 2,
        },
    ),
];

impl Format {
    fn participants(self) -> usize {
        match self {
            Format::RoundRobin { n, .. } | Format::Groups { n, .. } | Format::Swiss { n, .. } => n,
        }
    }

    /// The games of one tournament between players of strengths `gamma`.
    fn play(self, gamma: &[f64], seed: u64, rng: &mut ChaCha8Rng) -> Vec<Game> {
        match self {
            Format::RoundRobin { n, maps } => play_all(&plan::round_robin(n, maps), gamma, rng),
            Format::Groups { n, k, games } => {
                play_all(&plan::groups(n, k, 2, games, seed), gamma, rng)
            }
            Format::Swiss { n, rounds, maps } => swiss(n, rounds, maps, gamma, seed, rng),
        }
    }
}

/// A Swiss tournament: each round paired from the points so far.
fn swiss(
    n: usize,
    rounds: u32,
    maps: usize,
    gamma: &[f64],
    seed: u64,
    rng: &mut ChaCha8Rng,
) -> Vec<Game> {
    let (mut games, mut met, mut byes) = (Vec::new(), HashSet::new(), Vec::new());
    for round in 0..rounds {
        let points = stats::points(n, &games);
        let (pairs, bye) = plan::swiss_pairs(&points, &met, &byes, mix(&[seed, u64::from(round)]));
        met.extend(pairs.iter().map(|&(a, b)| (a.min(b), a.max(b))));
        byes.extend(bye);
        games.extend(play_all(
            &plan::swiss_round(round, &pairs, maps),
            gamma,
            rng,
        ));
    }
    games
}

fn play_all(planned: &[Planned], gamma: &[f64], rng: &mut ChaCha8Rng) -> Vec<Game> {
    planned.iter().map(|p| play(&p.seats, gamma, rng)).collect()
}

/// One game of `seats`: a duel with draws, or a Plackett–Luce ranking.
fn play(seats: &[usize], gamma: &[f64], rng: &mut ChaCha8Rng) -> Game {
    if let [a, b] = *seats {
        let p = gamma[a] / (gamma[a] + gamma[b]);
        let d = DRAW.min(2.0 * p.min(1.0 - p));
        let u: f64 = rng.gen();
        let (ra, rb) = if u < p - d / 2.0 {
            (1, 2)
        } else if u < p + d / 2.0 {
            (1, 1)
        } else {
            (2, 1)
        };
        return Game {
            ranks: vec![(a, ra), (b, rb)],
        };
    }
    let mut left = seats.to_vec();
    let mut ranks = Vec::with_capacity(seats.len());
    while !left.is_empty() {
        let total: f64 = left.iter().map(|&p| gamma[p]).sum();
        let mut u = rng.gen::<f64>() * total;
        let i = left.iter().position(|&p| {
            u -= gamma[p];
            u < 0.0
        });
        let who = left.remove(i.unwrap_or(left.len() - 1));
        ranks.push((who, ranks.len() as u32 + 1));
    }
    Game { ranks }
}

/// What the tournaments of one scenario said.
#[derive(Default, Clone)]
struct Tally {
    intervals: usize,
    covered: usize,
    /// The interval misses the true strength on the side of 0 (the estimate shrunk),
    /// or beyond it.
    inward: usize,
    outward: usize,
    half_width: f64,
    squared_error: f64,
    tournaments: usize,
    /// The leader was truly the strongest.
    leader_right: usize,
    /// The sum of the reported `leader_strongest`.
    reported: f64,
    /// By band of the reported value: (tournaments, reported sum, leader right).
    bands: [(usize, f64, usize); 4],
}

impl Tally {
    fn add(&mut self, s: &Standings, truth: &[f64]) {
        for (row, &t) in s.rows.iter().zip(truth) {
            let (lo, hi) = row.interval;
            self.intervals += 1;
            if (hi < t && t > 0.0) || (lo > t && t < 0.0) {
                self.inward += 1;
            } else if hi < t || lo > t {
                self.outward += 1;
            } else {
                self.covered += 1;
            }
            self.half_width += (hi - lo) / 2.0;
            self.squared_error += (row.strength - t).powi(2);
        }
        let strongest = (0..truth.len()).fold(0, |b, a| if truth[a] > truth[b] { a } else { b });
        let right = s.leader == Some(strongest);
        self.tournaments += 1;
        self.leader_right += usize::from(right);
        self.reported += s.leader_strongest;
        let band = BANDS
            .windows(2)
            .position(|w| s.leader_strongest < w[1])
            .unwrap_or(3);
        let b = &mut self.bands[band];
        *b = (b.0 + 1, b.1 + s.leader_strongest, b.2 + usize::from(right));
    }

    fn merge(mut self, other: Tally) -> Tally {
        self.intervals += other.intervals;
        self.covered += other.covered;
        self.inward += other.inward;
        self.outward += other.outward;
        self.half_width += other.half_width;
        self.squared_error += other.squared_error;
        self.tournaments += other.tournaments;
        self.leader_right += other.leader_right;
        self.reported += other.reported;
        for (b, o) in self.bands.iter_mut().zip(other.bands) {
            *b = (b.0 + o.0, b.1 + o.1, b.2 + o.2);
        }
        self
    }
}

/// A share in percent, and its binomial standard error.
fn pct(count: usize, of: usize) -> (f64, f64) {
    let p = count as f64 / of.max(1) as f64;
    (100.0 * p, 100.0 * (p * (1.0 - p) / of.max(1) as f64).sqrt())
}

/// `runs` tournaments of scenario `s`, on every core (each seeded by its number, so
/// the result does not depend on the cores).
fn scenario(s: usize, runs: usize, threads: usize) -> Tally {
    let format = SCENARIOS[s].1;
    let n = format.participants();
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    let mut tally = Tally::default();
                    for run in (t..runs).step_by(threads) {
                        let seed = mix(&[s as u64, run as u64]);
                        let mut rng = ChaCha8Rng::seed_from_u64(seed);
                        let truth: Vec<f64> = (0..n).map(|_| rng.gen_range(0.0..SPREAD)).collect();
                        let gamma: Vec<f64> = truth.iter().map(|t| 10f64.powf(t / 400.0)).collect();
                        let games = format.play(&gamma, seed, &mut rng);
                        let standings = stats::standings(n, &games, stats::RESAMPLES, mix(&[seed]));
                        let mean = truth.iter().sum::<f64>() / n as f64;
                        let centred: Vec<f64> = truth.iter().map(|t| t - mean).collect();
                        tally.add(&standings, &centred);
                    }
                    tally
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a simulation thread"))
            .fold(Tally::default(), Tally::merge)
    })
}

/// One line of the coverage table.
fn row(name: &str, t: &Tally) {
    let (cov, se) = pct(t.covered, t.intervals);
    let (right, right_se) = pct(t.leader_right, t.tournaments);
    println!(
        "{name:<31}{cov:>7.1}% ±{se:.1}{:>7.1}%{:>7.1}%{:>8.0}{:>7.0}{right:>9.1}% ±{right_se:.1}{:>9.1}%",
        pct(t.inward, t.intervals).0,
        pct(t.outward, t.intervals).0,
        t.half_width / t.intervals as f64,
        (t.squared_error / t.intervals as f64).sqrt(),
        100.0 * t.reported / t.tournaments as f64,
    );
}

/// How long `standings` takes for `n` participants and `duels` random duels.
fn timing(n: usize, duels: usize) -> f64 {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let gamma: Vec<f64> = (0..n)
        .map(|_| 10f64.powf(rng.gen_range(0.0..SPREAD) / 400.0))
        .collect();
    let games: Vec<Game> = (0..duels)
        .map(|_| {
            let a = rng.gen_range(0..n);
            let b = (a + rng.gen_range(1..n)) % n;
            play(&[a, b], &gamma, &mut rng)
        })
        .collect();
    let reps = 5;
    let start = std::time::Instant::now();
    for seed in 0..reps {
        std::hint::black_box(stats::standings(n, &games, stats::RESAMPLES, seed));
    }
    start.elapsed().as_secs_f64() * 1000.0 / reps as f64
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if !args.iter().any(|a| a == "--bench") {
        println!("Tournament simulation: run with `cargo bench -p server --bench tournament`");
        return;
    }
    let arg = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1)?.parse().ok())
    };
    let runs = arg("--runs").unwrap_or(RUNS);
    let threads = arg("--threads")
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let start = std::time::Instant::now();
    println!(
        "standings with {} resamples take {:.1} ms for 8 participants and 112 duels, {:.1} ms for 32 and 500",
        stats::RESAMPLES,
        timing(8, 112),
        timing(32, 500)
    );
    println!(
        "\n{runs} tournaments a scenario, true strengths ~ U(0, {SPREAD}) Elo.\ncovered: the 95% interval holds the true strength (inward/outward: it misses on the side of 0 / beyond);\nleader right: the leader is truly the strongest; reported: the mean leader_strongest.\n"
    );
    println!(
        "{:<31}{:>14}{:>8}{:>8}{:>8}{:>7}{:>15}{:>10}",
        "scenario", "covered", "inward", "outward", "half w", "rmse", "leader right", "reported"
    );
    let tallies: Vec<Tally> = (0..SCENARIOS.len())
        .map(|s| scenario(s, runs, threads))
        .collect();
    for (t, (name, _)) in tallies.iter().zip(SCENARIOS) {
        row(name, t);
    }
    let all = tallies.iter().cloned().fold(Tally::default(), Tally::merge);
    row("all", &all);
    println!("\nleader_strongest reported (band)   tournaments   reported   leader right");
    for (i, (count, sum, right)) in all.bands.iter().enumerate() {
        let (r, se) = pct(*right, *count);
        println!(
            "[{:.1}, {:.1})  {count:>26}{:>10.1}%{r:>10.1}% ±{se:.1}",
            BANDS[i],
            BANDS[i + 1].min(1.0),
            100.0 * sum / (*count).max(1) as f64
        );
    }
    println!("\nruntime {:.0} s", start.elapsed().as_secs_f64());
}
