//! A tournament's standings and how sure they are: points, Bradley–Terry strengths
//! fitted on all the games at once, a 95% interval for each strength and the chance
//! that the leader is truly the strongest, both from a bootstrap over games. Pure, so
//! the pages, the API and the simulation (`cargo bench -p server --bench tournament`)
//! use the same arithmetic.
//!
//! INTERVAL_DOC

use rand::{Rng, SeedableRng};

/// Bootstrap resamples behind the intervals, unless the caller says otherwise.
pub const RESAMPLES: usize = 1000;
/// The weak prior: each participant's virtual games (draws) against a virtual opponent
/// of strength 1 (0 on the Elo scale before centring).
static PRIOR_GAMES: std::sync::LazyLock<f64> = std::sync::LazyLock::new(|| {
    std::env::var("PRIOR")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1.0)
});
/// The fit stops once no strength moves by more than this (in natural log of γ, about
/// 0.00004 Elo), or after [`MAX_ITERATIONS`] sweeps.
const TOLERANCE: f64 = 1e-7;
const MAX_ITERATIONS: usize = 10_000;
pub static ITERS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
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
    let mut won = vec![*PRIOR_GAMES / 2.0; n];
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
        ITERS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let mut moved: f64 = 0.0;
        for a in 0..n {
            let g = gamma[a];
            let against: f64 = rivals[a].iter().map(|&(b, m)| m / (g + gamma[b])).sum();
            gamma[a] = won[a] / (*PRIOR_GAMES / (g + 1.0) + against);
            moved = moved.max((gamma[a] / g).ln().abs());
        }
        moved = moved.max(rescale(gamma, &rivals).abs());
        if moved < TOLERANCE {
            break;
        }
    }
}

/// Multiplies the γ of all who played by the factor the prior likes best (the pairs
/// among them do not depend on it): the one at which their expected score against
/// the virtual opponent averages ½, by Newton's method on its log. Returns the log of
/// the factor. Without it the fit's common level creeps to its place over hundreds of
/// sweeps, the prior being a small share of the pairs.
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
        log_c -= excess / slope;
    }
    for (g, _) in gamma.iter_mut().zip(rivals).filter(|(_, r)| !r.is_empty()) {
        *g *= log_c.exp();
    }
    log_c
}

/// Newton steps of [`rescale`].
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
    /// The 95% interval of `strength`; (0, 0) for a participant that played no game
    /// with another (nothing is known of it).
    pub interval: (f64, f64),
}

/// The standings, in the participants' order.
#[derive(Clone, Debug, PartialEq)]
pub struct Standings {
    pub rows: Vec<Standing>,
    /// P(the participant with the highest strength estimate is truly the strongest):
    /// the share of bootstrap resamples in which it has the highest strength (a tie
    /// for the highest counting as a share of it). 0 when there is no leader.
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
    let leader = (0..n).filter(|&a| played[a]).reduce(|best, a| {
        if strength[a] > strength[best] {
            a
        } else {
            best
        }
    });
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
    let boot = bootstrap(n, &pairs, &gamma, &played, resamples.max(1), seed);
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
/// each was the strongest (shared on a tie).
struct Bootstrap {
    strengths: Vec<Vec<f64>>,
    tops: Vec<f64>,
}

/// `resamples` refits on games drawn with replacement from `pairs` (each game's
/// pairwise outcomes), each fit starting from the full data's `gamma`.
fn bootstrap(
    n: usize,
    pairs: &[Vec<(usize, usize, f64)>],
    gamma: &[f64],
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
        let best = (0..n)
            .filter(|&a| played[a])
            .map(|a| s[a])
            .fold(f64::MIN, f64::max);
        let at_top: Vec<usize> = (0..n).filter(|&a| played[a] && s[a] == best).collect();
        for &a in &at_top {
            boot.tops[a] += 1.0 / at_top.len() as f64;
        }
        for (a, x) in s.into_iter().enumerate() {
            boot.strengths[a].push(x);
        }
    }
    boot
}

/// The 95% interval of an `estimate` from its resampled values `draws`: the 2.5th and
/// 97.5th percentiles.
fn interval(estimate: f64, draws: &[f64]) -> (f64, f64) {
    let mut sorted = draws.to_vec();
    sorted.sort_by(f64::total_cmp);
    let (lo, hi) = (quantile(&sorted, 0.025), quantile(&sorted, 0.975));
    let w: f64 = std::env::var("WIDEN")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1.0);
    match std::env::var("METHOD").as_deref() {
        Ok("basic") => (
            estimate - (hi - estimate) * w,
            estimate + (estimate - lo) * w,
        ),
        Ok("sd") => {
            let m = draws.iter().sum::<f64>() / draws.len() as f64;
            let sd = (draws.iter().map(|d| (d - m).powi(2)).sum::<f64>()
                / (draws.len() - 1) as f64)
                .sqrt();
            (estimate - 1.96 * sd * w, estimate + 1.96 * sd * w)
        }
        _ => (
            estimate - (estimate - lo) * w,
            estimate + (hi - estimate) * w,
        ),
    }
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
}
