//! Ratings: Weng-Lin (a free-for-all Bayesian rating for 2 to N players, from the
//! skillratings crate) on each match's ranks. Pure functions, tested on their own.

use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::MultiTeamOutcome;

/// A new bot's rating.
pub const MU: f64 = 25.0;
pub const SIGMA: f64 = 25.0 / 3.0;
/// The spread of one game's performance around a bot's rating (Weng-Lin's beta): half
/// a new bot's uncertainty, the usual choice.
pub const BETA: f64 = 25.0 / 6.0;

/// What the leaderboard sorts by: a rating the bot is very likely above.
pub fn conservative(mu: f64, sigma: f64) -> f64 {
    mu - 3.0 * sigma
}

/// New (mu, sigma) of each player after a match, given the old ones and the ranks
/// (1 is best; equal ranks are ties).
pub fn rate(before: &[(f64, f64)], ranks: &[u32]) -> Vec<(f64, f64)> {
    rate_with(before, ranks, BETA)
}

/// [`rate`] with another beta, for simulations.
pub fn rate_with(before: &[(f64, f64)], ranks: &[u32], beta: f64) -> Vec<(f64, f64)> {
    assert_eq!(before.len(), ranks.len(), "a rank for every player");
    let teams: Vec<[WengLinRating; 1]> = before
        .iter()
        .map(|&(mu, sigma)| {
            [WengLinRating {
                rating: mu,
                uncertainty: sigma,
            }]
        })
        .collect();
    let input: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
        .iter()
        .zip(ranks)
        .map(|(t, &r)| (&t[..], MultiTeamOutcome::new(r as usize)))
        .collect();
    let config = WengLinConfig {
        beta,
        ..WengLinConfig::new()
    };
    weng_lin_multi_team(&input, &config)
        .into_iter()
        .map(|t| (t[0].rating, t[0].uncertainty))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_winner_gains_the_loser_loses_and_both_grow_surer() {
        let after = rate(&[(MU, SIGMA), (MU, SIGMA)], &[1, 2]);
        assert!(after[0].0 > MU && after[1].0 < MU);
        assert!(after[0].1 < SIGMA && after[1].1 < SIGMA);
        assert!(
            (after[0].0 - MU - (MU - after[1].0)).abs() < 1e-9,
            "symmetric"
        );
    }

    #[test]
    fn a_draw_between_equals_changes_no_mu_and_ranks_order_a_free_for_all() {
        let after = rate(&[(MU, SIGMA), (MU, SIGMA)], &[1, 1]);
        assert!((after[0].0 - MU).abs() < 1e-9 && (after[1].0 - MU).abs() < 1e-9);
        let four = rate(&[(MU, SIGMA); 4], &[1, 2, 2, 4]);
        assert!(four[0].0 > four[1].0 && four[1].0 > four[3].0);
        assert!(
            (four[1].0 - four[2].0).abs() < 1e-9,
            "a shared rank, a shared result"
        );
    }

    #[test]
    fn beating_a_much_stronger_bot_moves_more_than_beating_a_weaker_one() {
        let upset = rate(&[(20.0, 3.0), (35.0, 3.0)], &[1, 2]);
        let expected = rate(&[(35.0, 3.0), (20.0, 3.0)], &[1, 2]);
        assert!(upset[0].0 - 20.0 > expected[0].0 - 35.0);
        assert!(conservative(MU, SIGMA).abs() < 1e-9);
    }
}
