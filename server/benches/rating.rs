//! `cargo bench -p server --bench rating`: how fast the ladder's leaderboard finds the
//! true order of the bots, with no processes and no database.
//!
//! 50 bots of hidden strength go through the real matchmaking
//! (`ranker::matchmaking::plan`, default settings, the shipped maps' seat counts,
//! every bot its own owner, a queue of 2 planned matches as one worker keeps) and the
//! real ratings (`ranker::rating::rate`). The game is a noisy performance model:
//!
//! - hidden strengths are drawn from N(0, 1), like the spread of a real ladder;
//! - in a match each player performs at its strength plus Gaussian noise N(0, sd²),
//!   and the ranks follow the performances; two performances closer than 0.1 × sd
//!   share a rank (a draw: about 1 game in 18 between equals).
//!
//! Both noise levels are shown: sd 0.5 is what Weng-Lin's default beta (half a new
//! bot's sigma) assumes, sd 1 a ladder where luck counts twice as much. The model
//! assumes a multi-player game is as telling of each pair of its players as a duel;
//! the sweep also plays multi-player games with 1.5 and 2 times the noise of a duel,
//! which the ratings are not told, to weigh the share of multi-player matches.
//!
//! After 10, 20, 30, 50 and 100 games per bot on average, Kendall's tau compares the
//! leaderboard (mu - 3 sigma) with the true order. The 2016 ranker is the baseline:
//! random pairs, 2-player games only, Elo with K = 10 from 1500 (logistic expectation,
//! scale 400), the same model and the same number of games per bot. A third row refits
//! all the ladder's games at once (maximum a posteriori, every pair of players of a
//! game as a comparison, knowing the model): what a rating that could look back would
//! find in the same games. Averages over 400 ladders (seeds; `-- --runs N`), with the
//! standard error; `-- --sweep` adds the leaderboard by mu alone, beta times 0.5, 0.75
//! and 2, and the matchmaking knobs (window, share of multi-player matches, with multi-player
//! games as lucky as duels and luckier).

use server::ids::{BotId, MapId, VersionId};
use std::collections::HashMap;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use server::ranker::matchmaking::{self, Candidate, MapChoice, Settings};
use server::ranker::rating;

const BOTS: usize = 50;
const CHECKPOINTS: [usize; 5] = [10, 20, 30, 50, 100];
/// Ladders (seeds) averaged, unless `--runs N` says otherwise.
const RUNS: u64 = 400;
/// Matches planned ahead, as one worker keeps (`serve`: 2 per worker).
const BUFFER: usize = 2;
/// Two performances closer than this many noise sd share a rank.
const DRAW_MARGIN: f64 = 0.1;

/// A standard normal draw (Box-Muller).
fn gauss(rng: &mut ChaCha8Rng) -> f64 {
    let u1: f64 = 1.0 - rng.gen::<f64>(); // (0, 1]
    let u2: f64 = rng.gen();
    (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
}

/// Ranks (1 is best, ties share) of the players of one game.
fn play(strengths: &[f64], noise: f64, rng: &mut ChaCha8Rng) -> Vec<u32> {
    let perf: Vec<f64> = strengths.iter().map(|s| s + noise * gauss(rng)).collect();
    let mut order: Vec<usize> = (0..perf.len()).collect();
    order.sort_by(|&a, &b| perf[b].total_cmp(&perf[a]));
    let mut ranks = vec![0; perf.len()];
    for (pos, &i) in order.iter().enumerate() {
        ranks[i] = if pos > 0 && perf[order[pos - 1]] - perf[i] < DRAW_MARGIN * noise {
            ranks[order[pos - 1]]
        } else {
            pos as u32 + 1
        };
    }
    ranks
}

/// Kendall's tau (tau-a) between a score and the true strengths; tied scores count
/// as neither agreeing nor disagreeing.
fn kendall(score: &[f64], truth: &[f64]) -> f64 {
    let n = score.len();
    let mut sum = 0.0;
    for i in 0..n {
        for j in i + 1..n {
            let a = (score[i] - score[j]).signum() * f64::from(score[i] != score[j]);
            sum += a * (truth[i] - truth[j]).signum();
        }
    }
    sum / (n * (n - 1) / 2) as f64
}

fn strengths(rng: &mut ChaCha8Rng) -> Vec<f64> {
    (0..BOTS).map(|_| gauss(rng)).collect()
}

/// The shipped maps as matchmaking sees them.
fn shipped_maps() -> Vec<MapChoice> {
    server::ranker::map_choices("bottlebats").unwrap()
}

/// What one simulated ladder measured at each checkpoint.
#[derive(Default, Clone)]
struct Point {
    tau: f64,
    /// Fewest and most games of a bot.
    min_games: f64,
    max_games: f64,
}

/// The noise of a game's performances: `sd` in a duel, `sd * multi` in a game of more
/// players.
#[derive(Clone, Copy)]
struct Luck {
    sd: f64,
    multi: f64,
}

impl Luck {
    fn of(sd: f64) -> Luck {
        Luck { sd, multi: 1.0 }
    }
}

/// New (mu, sigma) of a match's players from the old ones and the ranks.
type Rater = dyn Fn(&[(f64, f64)], &[u32]) -> Vec<(f64, f64)>;

/// Our ladder: real matchmaking and ratings.
fn ours(seed: u64, luck: Luck, settings: &Settings) -> Vec<Point> {
    ladder(seed, luck, settings, &rating::rate, SortBy::Conservative)
}

/// What the leaderboard sorts by.
#[derive(Clone, Copy, PartialEq)]
enum SortBy {
    Conservative,
    Mu,
    /// All the games refitted at once: a MAP fit knowing the model.
    Refit,
}

fn ladder(seed: u64, luck: Luck, settings: &Settings, rate: &Rater, sort_by: SortBy) -> Vec<Point> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let truth = strengths(&mut rng);
    let maps = shipped_maps();
    let mut cands: Vec<Candidate> = (0..BOTS)
        .map(|i| Candidate {
            bot_id: BotId(i as i64 + 1),
            version_id: VersionId(i as i64 + 1),
            owner: i as i64 + 1,
            mu: rating::MU,
            sigma: rating::SIGMA,
            load: 0,
            last_game: None,
            queued: 0,
        })
        .collect();
    let mut games = vec![0usize; BOTS];
    let mut plays: HashMap<(BotId, MapId), u32> = HashMap::new();
    let mut queue: std::collections::VecDeque<matchmaking::Plan> = Default::default();
    let (mut slots, mut clock, mut points) = (0usize, 0i64, Vec::new());
    let mut history: Vec<(Vec<usize>, Vec<u32>)> = Vec::new();
    while points.len() < CHECKPOINTS.len() {
        while queue.len() < BUFFER {
            let p = matchmaking::plan(&cands, &maps, &plays, settings, &mut rng)
                .expect("50 owners can always play");
            for &i in &p.seats {
                cands[i].load += 1;
                *plays.entry((cands[i].bot_id, p.map_id)).or_default() += 1;
            }
            queue.push_back(p);
        }
        let p = queue.pop_front().unwrap();
        let s: Vec<f64> = p.seats.iter().map(|&i| truth[i]).collect();
        let sd = if s.len() > 2 {
            luck.sd * luck.multi
        } else {
            luck.sd
        };
        let ranks = play(&s, sd, &mut rng);
        let before: Vec<(f64, f64)> = p
            .seats
            .iter()
            .map(|&i| (cands[i].mu, cands[i].sigma))
            .collect();
        clock += 1;
        for (k, (mu, sigma)) in rate(&before, &ranks).into_iter().enumerate() {
            let c = &mut cands[p.seats[k]];
            (c.mu, c.sigma, c.last_game) = (mu, sigma, Some(clock));
            games[p.seats[k]] += 1;
        }
        slots += p.seats.len();
        if sort_by == SortBy::Refit {
            history.push((p.seats.clone(), ranks));
        }
        while points.len() < CHECKPOINTS.len() && slots >= CHECKPOINTS[points.len()] * BOTS {
            let board: Vec<f64> = match sort_by {
                SortBy::Conservative => cands
                    .iter()
                    .map(|c| rating::conservative(c.mu, c.sigma))
                    .collect(),
                SortBy::Mu => cands.iter().map(|c| c.mu).collect(),
                SortBy::Refit => map_fit(&history, luck.sd),
            };
            points.push(Point {
                tau: kendall(&board, &truth),
                min_games: *games.iter().min().unwrap() as f64,
                max_games: *games.iter().max().unwrap() as f64,
            });
        }
    }
    points
}

/// Maximum a posteriori strengths from every pair of players of every game (probit
/// model with the true noise, logistic approximation, the true N(0, 1) prior).
fn map_fit(history: &[(Vec<usize>, Vec<u32>)], noise: f64) -> Vec<f64> {
    let k = 1.702 / (noise * std::f64::consts::SQRT_2);
    let mut s = vec![0.0f64; BOTS];
    for _ in 0..60 {
        let mut grad: Vec<f64> = s.iter().map(|x| -x).collect();
        let mut hess = vec![1.0f64; BOTS];
        for (seats, ranks) in history {
            for a in 0..seats.len() {
                for b in a + 1..seats.len() {
                    let (i, j) = (seats[a], seats[b]);
                    let y = match ranks[a].cmp(&ranks[b]) {
                        std::cmp::Ordering::Less => 1.0,
                        std::cmp::Ordering::Equal => 0.5,
                        std::cmp::Ordering::Greater => 0.0,
                    };
                    let p = 1.0 / (1.0 + (-k * (s[i] - s[j])).exp());
                    grad[i] += k * (y - p);
                    grad[j] -= k * (y - p);
                    let h = k * k * p * (1.0 - p);
                    hess[i] += h;
                    hess[j] += h;
                }
            }
        }
        for i in 0..BOTS {
            s[i] += grad[i] / hess[i];
        }
    }
    s
}

/// The 2016 ranker: random pairs, Elo K = 10.
fn elo_2016(seed: u64, noise: f64) -> Vec<Point> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let truth = strengths(&mut rng);
    let mut elo = vec![1500.0f64; BOTS];
    let mut games = vec![0usize; BOTS];
    let bots: Vec<usize> = (0..BOTS).collect();
    let (mut slots, mut points) = (0usize, Vec::new());
    while points.len() < CHECKPOINTS.len() {
        let pair: Vec<usize> = bots.choose_multiple(&mut rng, 2).copied().collect();
        let (a, b) = (pair[0], pair[1]);
        let ranks = play(&[truth[a], truth[b]], noise, &mut rng);
        let score = match ranks[0].cmp(&ranks[1]) {
            std::cmp::Ordering::Less => 1.0,
            std::cmp::Ordering::Equal => 0.5,
            std::cmp::Ordering::Greater => 0.0,
        };
        let expected = 1.0 / (1.0 + 10f64.powf((elo[b] - elo[a]) / 400.0));
        let delta = 10.0 * (score - expected);
        elo[a] += delta;
        elo[b] -= delta;
        games[a] += 1;
        games[b] += 1;
        slots += 2;
        while points.len() < CHECKPOINTS.len() && slots >= CHECKPOINTS[points.len()] * BOTS {
            points.push(Point {
                tau: kendall(&elo, &truth),
                min_games: *games.iter().min().unwrap() as f64,
                max_games: *games.iter().max().unwrap() as f64,
            });
        }
    }
    points
}

/// The average of each checkpoint over the seeds, and the standard error of tau.
fn average(runs: impl Iterator<Item = Vec<Point>>) -> Vec<(Point, f64)> {
    let runs: Vec<Vec<Point>> = runs.collect();
    let n = runs.len() as f64;
    (0..CHECKPOINTS.len())
        .map(|c| {
            let mean = |f: fn(&Point) -> f64| runs.iter().map(|r| f(&r[c])).sum::<f64>() / n;
            let tau = mean(|p| p.tau);
            let var = runs.iter().map(|r| (r[c].tau - tau).powi(2)).sum::<f64>() / (n - 1.0);
            let point = Point {
                tau,
                min_games: mean(|p| p.min_games),
                max_games: mean(|p| p.max_games),
            };
            (point, (var / n).sqrt())
        })
        .collect()
}

fn row(label: &str, points: &[(Point, f64)]) {
    let taus: Vec<String> = points
        .iter()
        .map(|(p, _)| format!("{:>7.3}", p.tau))
        .collect();
    let se = points.iter().map(|(_, se)| *se).fold(0.0, f64::max);
    let spread: Vec<String> = points
        .iter()
        .map(|(p, _)| format!("{:.0}-{:.0}", p.min_games, p.max_games))
        .collect();
    println!(
        "{label:<36}{}   (s.e. <= {se:.3}; games of a bot: {})",
        taus.join(""),
        spread.join(" ")
    );
}

fn header(title: &str) {
    println!("\n{title}");
    let cols: Vec<String> = CHECKPOINTS.iter().map(|c| format!("{c:>7}")).collect();
    println!(
        "{:<36}{}",
        "Kendall tau after games per bot:",
        cols.join("")
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if !args.iter().any(|a| a == "--bench") {
        println!("rating benchmarks: run with `cargo bench -p server --bench rating`");
        return;
    }
    let sweep = args.iter().any(|a| a == "--sweep");
    let runs = args
        .iter()
        .position(|a| a == "--runs")
        .and_then(|i| args.get(i + 1)?.parse().ok())
        .unwrap_or(RUNS);
    let d = Settings::default();
    let seeds = || 0..runs;
    println!(
        "{BOTS} bots, strengths N(0, 1), averages of {runs} ladders; matchmaking {d:?}; \
         maps of {:?} seats",
        shipped_maps().iter().map(|m| m.seats).collect::<Vec<_>>()
    );
    for noise in [0.5, 1.0] {
        header(&format!("performance = strength + N(0, {noise}²)"));
        row(
            "ladder (matchmaking, Weng-Lin)",
            &average(seeds().map(|s| ours(s, Luck::of(noise), &d))),
        );
        row(
            "2016 (random pairs, Elo K=10)",
            &average(seeds().map(|s| elo_2016(s, noise))),
        );
        row(
            "refit of the same games at once",
            &average(seeds().map(|s| ladder(s, Luck::of(noise), &d, &rating::rate, SortBy::Refit))),
        );
        if sweep {
            sweep_settings(noise, runs, &d);
        }
    }
}

/// The `--sweep` rows of one noise level: other leaderboards, betas, windows, shares of
/// multi-player maps and of their luck.
fn sweep_settings(noise: f64, runs: u64, d: &Settings) {
    let seeds = || 0..runs;
    row(
        "  leaderboard by mu",
        &average(seeds().map(|s| ladder(s, Luck::of(noise), d, &rating::rate, SortBy::Mu))),
    );
    for beta in [0.5, 0.75, 2.0].map(|f| rating::BETA * f) {
        let rate = move |b: &[(f64, f64)], r: &[u32]| rating::rate_with(b, r, beta);
        row(
            &format!("  beta {beta:.2}"),
            &average(seeds().map(|s| ladder(s, Luck::of(noise), d, &rate, SortBy::Conservative))),
        );
    }
    for max_window in [0, 2, 6, 12, 49] {
        for multi_player_share in [0.0, 0.25, 0.5] {
            let settings = Settings {
                max_window,
                multi_player_share,
                ..Settings::default()
            };
            row(
                &format!("  max_window {max_window}, multi_player_share {multi_player_share}"),
                &average(seeds().map(|s| ours(s, Luck::of(noise), &settings))),
            );
        }
        let two = Settings {
            max_window,
            multi_player_share: 0.0,
            ..Settings::default()
        };
        row(
            &format!("  refit, max_window {max_window}, duels"),
            &average(
                seeds().map(|s| ladder(s, Luck::of(noise), &two, &rating::rate, SortBy::Refit)),
            ),
        );
    }
    for multi in [1.0, 1.5, 2.0] {
        for multi_player_share in [0.0, 0.25, 0.5, 0.75] {
            let settings = Settings {
                multi_player_share,
                ..*d
            };
            row(
                &format!("  multi noise x{multi}, share {multi_player_share}"),
                &average(seeds().map(|s| ours(s, Luck { sd: noise, multi }, &settings))),
            );
        }
    }
}
