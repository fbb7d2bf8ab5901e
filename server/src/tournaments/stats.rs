//! A tournament's standings and how sure they are: points, Bradley–Terry strengths
//! fitted on all the games at once, a 95% interval for each strength and the chance
//! that the leader is truly the strongest, both from a bootstrap over games. Pure, so
//! the pages, the API and the simulation (`cargo bench -p server --bench tournament`)
//! use the same arithmetic.
//!
//! The prior: every participant has one virtual draw (½ win each way)
//! against a virtual opponent of strength 1, so a clean sweep or a winless record still
//! gets a finite strength (10 wins in 10 duels put the winner about 580 Elo above the
//! loser, where plain maximum likelihood has no answer); it is one game's worth among
//! the 28 each plays in a round robin of 8 on 2 maps. In the simulation below, whose
//! strengths span only 400 Elo, heavier priors (2 and 4 virtual games) lowered the
//! estimates' error (from 72 to 65 and 57 Elo) but would pull real mismatches
//! together; a lighter one (½) raised it to 78 and widened the intervals.
//!
//! The interval: resamples are fitted like the data, and a fit overshoots the truth's
//! spread (a small-sample maximum likelihood does), so a resample's strengths lie
//! further out than the data's as the data's lie further out than the truth. The plain
//! percentile interval therefore lies too far out: it covered the true strength in
//! 91.8% of simulated intervals, missing outward 5.6% and inward 2.5% (100
//! tournaments a scenario). A normal interval on the bootstrap's standard deviation
//! covered 94.9% (300 a scenario; 93.4% in the Swiss case). The basic bootstrap,
//! which reflects the percentiles about the estimate, is what is used: 96.7% in 1000
//! tournaments a scenario, from 95.6% (groups of 4 of 8, 100 games) to 97.7% (round
//! robin of 4), missing inward 2.2% and outward 1.1%; never below 95%, at the same
//! width (`cargo bench -p server --bench tournament`).
//!
//! The leader's chance of being the strongest is read from the same reflected
//! resamples. On 300 tournaments a scenario, the share of plain resamples in which the
//! leader led said 66.2% on average, the reflected ones 63.2%, and the leader was truly
//! the strongest in 55.5%. On 1000 a scenario the reflected share says 63.3% against
//! 57.3% true; by band of what it says, 95.5% → 91.5% true, 79.4% → 71.2%, 59.3% →
//! 52.6%, 40.6% → 37.1%. So it reads a little high, and clearly high after a Swiss
//! tournament (50.1% said, 35.8% true), whose pairings follow the results.
//!
//! Timing in release, with [`RESAMPLES`]: about 11 ms for 8 participants and 112
//! duels, 110 ms for 32 participants and 500 duels (on a busy 2-core machine). Results
//! in nearly a perfect order fit slowly: 8 participants each beating every one below
//! it 5 times (140 duels) take 180 ms.

use rand::{Rng, SeedableRng};

/// Bootstrap resamples behind the intervals, unless the caller says otherwise.
pub const RESAMPLES: usize = 1000;
/// The weak prior: each participant's virtual games (draws) against a virtual opponent
/// of strength 1 (0 on the Elo scale before centring).
const PRIOR_GAMES: f64 = 1.0;
/// The fit stops once no strength moves by more than this (in natural log of γ, about
/// 0.00004 Elo), or after [`MAX_ITERATIONS`] sweeps.
const TOLERANCE: f64 = 1e-7;
const MAX_ITERATIONS: usize = 10_000;
/// Elo points per natural log of γ: 400 / ln 10.
const ELO: f64 = 400.0 / std::f64::consts::LN_10;

/// One finished game: each participant (an index below `n`) and its rank, 1 the best;
/// equal ranks are a draw between them (a 2-player draw has both rank 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub ranks: Vec<(usize, u32)>,
}

/// Each pair of players of a game once: (a, b, a's score against b), 1, ½ or 0.
fn outcomes(game: &Game) -> impl Iterator<Item = (usize, usize, f64)> + '_ {
    let r = &game.ranks;
    (0..r.len()).flat_map(move |i| {
        (i + 1..r.len()).map(move |j| {
            let score = match r[i].1.cmp(&r[j].1) {
                std::cmp::Ordering::Less => 1.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Greater => 0.0,
            };
            (r[i].0, r[j].0, score)
        })
    })
}

/// Points: in each game, for each pair of players in it, the better rank gets 1,
/// equal ranks ½ each. A duel gives 1 for a win, ½ for a draw; 4-player games up to 3.
pub fn points(n: usize, games: &[Game]) -> Vec<f64> {
    let mut points = vec![0.0; n];
    for (a, b, score) in games.iter().flat_map(outcomes) {
        points[a] += score;
        points[b] += 1.0 - score;
    }
    points
}

/// Adds the pairwise outcomes of `game` to `wins` (n × n: `wins[a * n + b]` is a's
/// score against b, summed).
fn record(n: usize, wins: &mut [f64], game: &[(usize, usize, f64)]) {
    for &(a, b, score) in game {
        wins[a * n + b] += score;
        wins[b * n + a] += 1.0 - score;
    }
}

/// The maximum-likelihood γ for `wins`, with the prior, by the MM algorithm (Hunter
/// 2004) updating one participant at a time, starting from `gamma`:
/// γ_a ← W_a / Σ_b N_ab / (γ_a + γ_b), where W_a is a's score (with the prior's ½) and
/// N_ab the pairs of a and b (the prior's one against the virtual opponent, γ = 1).
fn mm(n: usize, wins: &[f64], gamma: &mut [f64]) {
    let mut won = vec![PRIOR_GAMES / 2.0; n];
    let mut rivals: Vec<Vec<(usize, f64)>> = vec![Vec::new(); n];
    for a in 0..n {
        for b in (0..n).filter(|&b| b != a) {
            won[a] += wins[a * n + b];
            let pairs = wins[a * n + b] + wins[b * n + a];
            if pairs > 0.0 {
                rivals[a].push((b, pairs));
            }
        }
    }
    for _ in 0..MAX_ITERATIONS {
        let mut moved: f64 = 0.0;
        for a in 0..n {
            let g = gamma[a];
            let against: f64 = rivals[a].iter().map(|&(b, m)| m / (g + gamma[b])).sum();
            gamma[a] = won[a] / (PRIOR_GAMES / (g + 1.0) + against);
            moved = moved.max((gamma[a] / g).ln().abs());
        }
        moved = moved.max(rescale(gamma, &rivals).abs());
        if moved < TOLERANCE {
            break;
        }
    }
}

/// Multiplies the γ of all who played by the factor the prior likes best (their pairs
/// do not depend on it): the one at which their expected score against the virtual
/// opponent averages ½, by Newton's method on its log (a step at most a factor e).
/// Returns the log of the factor.
/// Without it the common level creeps to its place over hundreds of sweeps (the prior
/// is a small share of the pairs); with it a fit of 8 participants and 112 duels takes
/// about 40 sweeps instead of 450.
fn rescale(gamma: &mut [f64], rivals: &[Vec<(usize, f64)>]) -> f64 {
    let mut log_c: f64 = 0.0;
    for _ in 0..RESCALE_STEPS {
        let (mut excess, mut slope) = (0.0, 0.0);
        for (g, _) in gamma.iter().zip(rivals).filter(|(_, r)| !r.is_empty()) {
            let x = g * log_c.exp();
            excess += x / (x + 1.0) - 0.5;
            slope += x / (x + 1.0).powi(2);
        }
        if slope == 0.0 {
            return 0.0;
        }
        log_c -= (excess / slope).clamp(-1.0, 1.0);
    }
    for (g, _) in gamma.iter_mut().zip(rivals).filter(|(_, r)| !r.is_empty()) {
        *g *= log_c.exp();
    }
    log_c
}

/// Newton steps of [`rescale`] a sweep.
const RESCALE_STEPS: usize = 3;

/// Who played: took part in at least one pair of a game.
fn played(n: usize, wins: &[f64]) -> Vec<bool> {
    (0..n)
        .map(|a| (0..n).any(|b| wins[a * n + b] + wins[b * n + a] > 0.0))
        .collect()
}

/// γ on the Elo scale, 400·log10(γ), centred to a mean of 0 over those who played;
/// those who did not are at 0.
fn elo(gamma: &[f64], played: &[bool]) -> Vec<f64> {
    let count = played.iter().filter(|&&p| p).count();
    let raw: Vec<f64> = gamma.iter().map(|g| ELO * g.ln()).collect();
    let mean = raw
        .iter()
        .zip(played)
        .filter(|(_, &p)| p)
        .map(|(r, _)| r)
        .sum::<f64>()
        / count.max(1) as f64;
    raw.iter()
        .zip(played)
        .map(|(r, &p)| if p { r - mean } else { 0.0 })
        .collect()
}

/// The strengths for a wins matrix, starting the fit from `gamma` (left at the fit).
fn fit_wins(n: usize, wins: &[f64], gamma: &mut [f64], played: &[bool]) -> Vec<f64> {
    mm(n, wins, gamma);
    elo(gamma, played)
}

/// Maximum-likelihood Bradley–Terry strengths fitted on all games at once, each game
/// broken into its pairwise outcomes (a draw counts ½ win each way), by the MM
/// algorithm (Hunter 2004). To keep every estimate finite (a participant that never
/// won or never lost), a weak prior adds one virtual draw (½ win each way) of every
/// participant against a virtual opponent of strength 1. Strengths are on the Elo
/// scale, 400·log10(γ), centred to a mean of 0 over the participants that played; one
/// that played no game with another is at 0.
pub fn fit(n: usize, games: &[Game]) -> Vec<f64> {
    let mut wins = vec![0.0; n * n];
    for g in games {
        record(n, &mut wins, &outcomes(g).collect::<Vec<_>>());
    }
    fit_wins(n, &wins, &mut vec![1.0; n], &played(n, &wins))
}

/// One participant's line of the standings.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    /// See [`points`].
    pub points: f64,
    /// See [`fit`].
    pub strength: f64,
    /// The 95% interval of `strength` (the basic bootstrap, see the module's doc);
    /// (0, 0) for a participant that played no game with another (nothing is known).
    pub interval: (f64, f64),
}

/// The standings, in the participants' order.
#[derive(Clone, Debug, PartialEq)]
pub struct Standings {
    pub rows: Vec<Standing>,
    /// P(the participant with the highest strength estimate is truly the strongest):
    /// the share of bootstrap resamples in which it has the highest strength, each
    /// resample's strengths reflected about the estimates (2·estimate - resampled, as
    /// for the intervals; a tie for the highest counts as a share). 0 with no leader.
    pub leader_strongest: f64,
    /// The participant with the highest strength estimate (the first such), None when
    /// nobody has played.
    pub leader: Option<usize>,
}

/// The standings of `n` participants after `games`: points, strengths, and from a
/// bootstrap over games (games resampled with replacement and the strengths refitted,
/// `resamples` times, at least once, seeded by `seed`) each strength's 95% interval
/// and the chance the leader is the strongest. With no games, every strength and
/// interval is 0 and there is no leader.
pub fn standings(n: usize, games: &[Game], resamples: usize, seed: u64) -> Standings {
    let pairs: Vec<Vec<(usize, usize, f64)>> =
        games.iter().map(|g| outcomes(g).collect()).collect();
    let mut wins = vec![0.0; n * n];
    pairs.iter().for_each(|g| record(n, &mut wins, g));
    let played = played(n, &wins);
    let points = points(n, games);
    let mut gamma = vec![1.0; n];
    let strength = fit_wins(n, &wins, &mut gamma, &played);
    // The first of the highest: `max_by` gives the last, so from the end.
    let by_strength = |a: &usize, b: &usize| strength[*a].total_cmp(&strength[*b]);
    let leader = (0..n).rev().filter(|&a| played[a]).max_by(by_strength);
    let Some(top) = leader else {
        let rows = points.iter().map(|&points| Standing {
            points,
            strength: 0.0,
            interval: (0.0, 0.0),
        });
        return Standings {
            rows: rows.collect(),
            leader_strongest: 0.0,
            leader: None,
        };
    };
    let fitted = (&gamma[..], &strength[..]);
    let boot = bootstrap(n, &pairs, fitted, &played, resamples.max(1), seed);
    let rows = (0..n).map(|a| Standing {
        points: points[a],
        strength: strength[a],
        interval: if played[a] {
            interval(strength[a], &boot.strengths[a])
        } else {
            (0.0, 0.0)
        },
    });
    Standings {
        rows: rows.collect(),
        leader_strongest: boot.tops[top] / boot.strengths[top].len() as f64,
        leader,
    }
}

/// What the resamples said: each participant's strengths, and the resamples in which
/// each was the strongest once reflected (shared on a tie; see [`Standings`]).
struct Bootstrap {
    strengths: Vec<Vec<f64>>,
    tops: Vec<f64>,
}

/// `resamples` refits on games drawn with replacement from `pairs` (each game's
/// pairwise outcomes), each fit starting from the full data's `gamma` (whose strengths
/// are `strength`).
fn bootstrap(
    n: usize,
    pairs: &[Vec<(usize, usize, f64)>],
    (gamma, strength): (&[f64], &[f64]),
    played: &[bool],
    resamples: usize,
    seed: u64,
) -> Bootstrap {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut boot = Bootstrap {
        strengths: vec![Vec::with_capacity(resamples); n],
        tops: vec![0.0; n],
    };
    let mut wins = vec![0.0; n * n];
    for _ in 0..resamples {
        wins.fill(0.0);
        for _ in 0..pairs.len() {
            record(n, &mut wins, &pairs[rng.gen_range(0..pairs.len())]);
        }
        let s = fit_wins(n, &wins, &mut gamma.to_vec(), played);
        let reflected: Vec<f64> = (0..n).map(|a| 2.0 * strength[a] - s[a]).collect();
        let best = (0..n)
            .filter(|&a| played[a])
            .map(|a| reflected[a])
            .fold(f64::MIN, f64::max);
        let at_top: Vec<usize> = (0..n)
            .filter(|&a| played[a] && reflected[a] == best)
            .collect();
        for &a in &at_top {
            boot.tops[a] += 1.0 / at_top.len() as f64;
        }
        for (a, x) in s.into_iter().enumerate() {
            boot.strengths[a].push(x);
        }
    }
    boot
}

/// The 95% interval of an `estimate` from its resampled values `draws`, reflected about
/// the estimate (the "basic" bootstrap): from 2·estimate minus the 97.5th percentile
/// to 2·estimate minus the 2.5th. A resample's fit overshoots the data's as the data's
/// overshoots the truth, so the reflection puts the interval back on the truth's side.
fn interval(estimate: f64, draws: &[f64]) -> (f64, f64) {
    let mut sorted = draws.to_vec();
    sorted.sort_by(f64::total_cmp);
    let (lo, hi) = (quantile(&sorted, 0.025), quantile(&sorted, 0.975));
    (2.0 * estimate - hi, 2.0 * estimate - lo)
}

/// The `q` quantile of `sorted` (not empty), interpolated between neighbours.
fn quantile(sorted: &[f64], q: f64) -> f64 {
    let at = q * (sorted.len() - 1) as f64;
    let (lo, hi) = (at.floor() as usize, at.ceil() as usize);
    sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn duel(a: usize, b: usize, ra: u32, rb: u32) -> Game {
        Game {
            ranks: vec![(a, ra), (b, rb)],
        }
    }

    /// `wins` wins of a over b, `draws` draws and `losses` losses.
    fn record_of(a: usize, b: usize, wins: usize, draws: usize, losses: usize) -> Vec<Game> {
        let w = (0..wins).map(|_| duel(a, b, 1, 2));
        let d = (0..draws).map(|_| duel(a, b, 1, 1));
        let l = (0..losses).map(|_| duel(a, b, 2, 1));
        w.chain(d).chain(l).collect()
    }

    #[test]
    fn points_count_each_pair_of_a_game() {
        let games = [
            duel(0, 1, 1, 2),
            duel(0, 1, 1, 1),
            Game {
                ranks: vec![(2, 1), (3, 1), (0, 3), (1, 4)],
            },
        ];
        assert_eq!(points(4, &games), [2.5, 0.5, 2.5, 2.5]);
        assert_eq!(points(2, &[]), [0.0, 0.0]);
    }

    #[test]
    fn the_fit_solves_the_likelihood_equations() {
        let mut games = record_of(0, 1, 5, 1, 2);
        games.extend(record_of(1, 2, 3, 0, 3));
        games.extend(record_of(0, 2, 4, 0, 0));
        games.push(Game {
            ranks: vec![(3, 1), (0, 2), (2, 3)],
        });
        let n = 4;
        let mut wins = vec![0.0; n * n];
        games
            .iter()
            .for_each(|g| record(n, &mut wins, &outcomes(g).collect::<Vec<_>>()));
        let mut gamma = vec![1.0; n];
        mm(n, &wins, &mut gamma);
        // Each score, with the prior's ½, equals its expectation.
        for a in 0..n {
            let mut expected = PRIOR_GAMES * gamma[a] / (gamma[a] + 1.0);
            let mut score = PRIOR_GAMES / 2.0;
            for b in (0..n).filter(|&b| b != a) {
                let m = wins[a * n + b] + wins[b * n + a];
                expected += m * gamma[a] / (gamma[a] + gamma[b]);
                score += wins[a * n + b];
            }
            assert!(
                (expected - score).abs() < 1e-6,
                "{a}: {expected} vs {score}"
            );
        }
        let s = fit(n, &games);
        assert!(s.iter().sum::<f64>().abs() < 1e-9, "centred: {s:?}");
        assert!(s[0] > s[1] && s[1] > s[2], "{s:?}");
    }

    #[test]
    fn strengths_are_on_the_elo_scale() {
        // 75% against one opponent over many games: 400·log10(3) = 190.8 Elo apart.
        let s = fit(2, &record_of(0, 1, 300, 0, 100));
        assert!((s[0] - s[1] - 190.8).abs() < 1.0, "{s:?}");
        assert!((s[0] + s[1]).abs() < 1e-9);
        // Draws count half: as many wins as draws and no loss is 75% too.
        let s = fit(2, &record_of(0, 1, 200, 200, 0));
        assert!((s[0] - s[1] - 190.8).abs() < 1.0, "{s:?}");
    }

    #[test]
    fn the_prior_keeps_a_clean_sweep_finite() {
        let s = fit(2, &record_of(0, 1, 10, 0, 0));
        assert!(s[0].is_finite() && s[0] > 100.0 && s[0] < 600.0, "{s:?}");
        // A perfect order of 8, each beating all below it 5 times: finite, in order.
        let games: Vec<Game> = (0..8)
            .flat_map(|a| (a + 1..8).flat_map(move |b| record_of(a, b, 5, 0, 0)))
            .collect();
        let s = fit(8, &games);
        assert!(
            s.windows(2).all(|w| w[0] > w[1] + 50.0) && s[0] < 2000.0,
            "{s:?}"
        );
        let s = fit(3, &record_of(0, 1, 1, 0, 0));
        // Participant 2 never played: at 0, outside the centring.
        assert_eq!(s[2], 0.0);
        assert!((s[0] + s[1]).abs() < 1e-9 && s[0] > 0.0, "{s:?}");
    }

    #[test]
    fn no_games_say_nothing() {
        let s = standings(3, &[], RESAMPLES, 1);
        assert_eq!(s.leader, None);
        assert_eq!(s.leader_strongest, 0.0);
        for row in &s.rows {
            assert_eq!(
                (row.points, row.strength, row.interval),
                (0.0, 0.0, (0.0, 0.0))
            );
        }
        assert!(standings(0, &[], RESAMPLES, 1).rows.is_empty());
        // Games of one player have no pairs.
        let solo = [Game {
            ranks: vec![(0, 1)],
        }];
        assert_eq!(standings(1, &solo, 10, 1).leader, None);
        assert_eq!(fit(1, &solo), [0.0]);
    }

    #[test]
    fn standings_say_how_sure_they_are() {
        let mut games = record_of(0, 1, 8, 2, 2);
        games.extend(record_of(0, 2, 9, 1, 2));
        games.extend(record_of(1, 2, 6, 2, 4));
        let s = standings(4, &games, 500, 9);
        assert_eq!(s.leader, Some(0));
        assert!(
            s.leader_strongest > 0.8 && s.leader_strongest <= 1.0,
            "{s:?}"
        );
        for (a, row) in s.rows.iter().take(3).enumerate() {
            let (lo, hi) = row.interval;
            assert!(lo < row.strength && row.strength < hi, "{a}: {row:?}");
            assert!(hi - lo > 50.0 && hi - lo < 600.0, "{a}: {row:?}");
        }
        assert_eq!(s.rows[0].points, 8.0 + 1.0 + 9.0 + 0.5);
        assert_eq!(s.rows[3].interval, (0.0, 0.0));
        // Seeded: the same seed, the same standings; another seed, other intervals.
        assert_eq!(standings(4, &games, 500, 9), s);
        assert_ne!(
            standings(4, &games, 500, 10).rows[0].interval,
            s.rows[0].interval
        );
    }

    #[test]
    fn more_games_narrow_the_intervals() {
        let width = |games: &[Game]| {
            let s = standings(2, games, 300, 1);
            s.rows[0].interval.1 - s.rows[0].interval.0
        };
        let few = width(&record_of(0, 1, 6, 0, 4));
        let many = width(&record_of(0, 1, 60, 0, 40));
        assert!(many < few / 2.0, "{few} vs {many}");
        // Even players: a coin flip for the lead.
        let s = standings(2, &record_of(0, 1, 20, 0, 20), 400, 3);
        assert!((s.leader_strongest - 0.5).abs() < 0.1, "{s:?}");
    }
}
