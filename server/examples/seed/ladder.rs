//! The whole ladder simulated in memory: hidden skills, matchmaking of distinct bots,
//! the worker's Weng-Lin updates, a new version resetting sigma, and each seat's
//! problems; written out as COPY text for the matches and their seats.

use std::collections::HashMap;
use std::fmt::Write as _;

use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use server::ranker::matchmaking::Settings;
use server::ranker::rating::{self, BETA, SIGMA};

use crate::replays::{gzip, Played};
use crate::EVERY_S;

/// Share of matches that end in a draw.
const DRAW_SHARE: f64 = 0.04;
const ERRORS: &[&str] = &[
    "crashed (exit status 1)",
    "timed out 10 turns in a row",
    "its reply was not understood: expected `N commands:`",
    "its output ended: the bot was killed: segmentation fault (signal 11)",
];

/// A bot as the simulation follows it.
pub struct Bot {
    pub id: i64,
    pub owner: i64,
    /// What it is really worth: its mean performance.
    pub skill: f64,
    pub joined: f64,
    /// (version id, uploaded at), oldest first.
    pub versions: Vec<(i64, f64)>,
    /// The version of its last game.
    pub playing: Option<usize>,
    pub mu: f64,
    pub sigma: f64,
    pub games: i32,
    pub wins: i32,
    pub losses: i32,
    pub draws: i32,
    pub version_games: i32,
    pub last_game: Option<f64>,
    /// Crashes and times out now and then.
    pub buggy: bool,
    /// Sends invalid commands now and then.
    pub sloppy: bool,
    pub ms_per_turn: f64,
    pub disabled: bool,
}

/// A standard normal draw (Box-Muller).
pub fn normal(rng: &mut impl Rng) -> f64 {
    let u: f64 = rng.gen_range(f64::EPSILON..1.0);
    let v: f64 = rng.gen();
    (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
}

/// Text format of COPY: `\N` for null.
fn opt<T: std::fmt::Display>(x: Option<T>) -> String {
    x.map_or_else(|| "\\N".to_string(), |x| x.to_string())
}

/// The simulated ladder, as COPY text: a line a match (id, map, replay, finish time,
/// seconds played, seconds queued, turns, winner) and a line a seat.
pub struct Ladder {
    pub matches_copy: String,
    pub players_copy: String,
    pub seats_total: usize,
}

/// The ladder being simulated.
pub struct Simulation<'a> {
    pub rng: &'a mut ChaCha8Rng,
    pub bots: &'a mut [Bot],
    pub replays: &'a [Played],
    /// The database id of each replay's map.
    pub map_ids: &'a HashMap<String, i64>,
    /// The id of the first match.
    pub first_id: i64,
    /// When the ladder starts, in Unix seconds.
    pub start: f64,
}

/// Which match of a simulation is played, and what it is played on.
struct Round<'r> {
    id: i64,
    finished: f64,
    k: usize,
    r: &'r Played,
}

impl Simulation<'_> {
    /// `matches` matches in order, the newest `full_replays` with whole replays; then
    /// a version uploaded after a bot's last game is active already: its sigma started
    /// over.
    pub fn run(mut self, matches: usize, full_replays: usize) -> anyhow::Result<Ladder> {
        // The replays to choose from, by [whole][more than 2 players].
        let replays = self.replays;
        let kind = |whole: bool, multi: bool| -> Vec<usize> {
            (0..replays.len())
                .filter(|&k| replays[k].whole == whole && (replays[k].seats > 2) == multi)
                .collect()
        };
        let pools = [
            [kind(false, false), kind(false, true)],
            [kind(true, false), kind(true, true)],
        ];
        let stderr_hex = format!("\\\\x{}", hex::encode(gzip(b"[]")));
        let mut order: Vec<usize> = (0..self.bots.len()).collect();
        order.sort_by(|&a, &b| self.bots[a].joined.total_cmp(&self.bots[b].joined));
        let mut arrived = 0;
        let mut ladder = Ladder {
            matches_copy: String::with_capacity(matches * 64),
            players_copy: String::with_capacity(matches * 2 * 200),
            seats_total: 0,
        };
        for i in 0..matches {
            let id = self.first_id + i as i64;
            let finished = self.start + (i as f64 + 1.0 + self.rng.gen_range(-0.4..0.4)) * EVERY_S;
            while arrived < order.len() && self.bots[order[arrived]].joined <= finished {
                arrived += 1;
            }
            let whole = i + full_replays >= matches;
            // The ranker's default share of matches on maps for more than two players.
            let multi = self.rng.gen_bool(Settings::default().multi_player_share);
            let k = *pools[usize::from(whole)][usize::from(multi)]
                .choose(self.rng)
                .expect("replays of every kind");
            let round = Round {
                id,
                finished,
                k,
                r: &replays[k],
            };
            let chosen = self.choose_players(&order[..], arrived, round.r.seats);
            self.play(&round, &chosen, &stderr_hex, &mut ladder)?;
        }
        for bot in self.bots.iter_mut() {
            if bot.playing != Some(bot.versions.len() - 1) {
                bot.sigma = SIGMA;
                bot.version_games = 0;
            }
        }
        Ok(ladder)
    }

    /// `n` distinct bots of those `arrived` (in the order they arrive), of distinct
    /// owners when it can, as matchmaking does.
    fn choose_players(&mut self, order: &[usize], arrived: usize, n: usize) -> Vec<usize> {
        let bots = &*self.bots;
        let mut chosen: Vec<usize> = Vec::with_capacity(n);
        let mut tries = 0;
        while chosen.len() < n {
            // (The first bots to arrive play even before they have, when too few have.)
            let c = order[self.rng.gen_range(0..arrived.max(n))];
            tries += 1;
            if chosen.contains(&c)
                || (tries < 50 && chosen.iter().any(|&o| bots[o].owner == bots[c].owner))
            {
                continue;
            }
            chosen.push(c);
        }
        chosen
    }

    /// Ranked by the day's performance; now and then the turn limit comes first and
    /// the two leaders share the first place (a draw). The ranks by seat, the seats
    /// from best to worst, and the winner's seat unless a draw.
    fn rank(&mut self, chosen: &[usize]) -> (Vec<u32>, Vec<usize>, Option<usize>) {
        let n = chosen.len();
        let perf: Vec<f64> = chosen
            .iter()
            .map(|&b| self.bots[b].skill + BETA * normal(self.rng))
            .collect();
        let mut by_perf: Vec<usize> = (0..n).collect();
        by_perf.sort_by(|&a, &b| perf[b].total_cmp(&perf[a]));
        let mut ranks = vec![0u32; n];
        for (j, &s) in by_perf.iter().enumerate() {
            ranks[s] = j as u32 + 1;
        }
        if self.rng.gen_bool(DRAW_SHARE) {
            ranks[by_perf[1]] = 1;
        }
        let winner = (ranks.iter().filter(|&&r| r == 1).count() == 1).then_some(by_perf[0]);
        (ranks, by_perf, winner)
    }

    /// The version each chosen bot plays at `finished` (a new one starts its sigma
    /// over), and its rating before the match.
    fn versions_and_ratings(
        &mut self,
        chosen: &[usize],
        finished: f64,
    ) -> (Vec<i64>, Vec<(f64, f64)>) {
        let mut before = Vec::with_capacity(chosen.len());
        let mut version = Vec::with_capacity(chosen.len());
        for &b in chosen {
            let bot = &mut self.bots[b];
            let v = bot
                .versions
                .iter()
                .rposition(|v| v.1 <= finished)
                .unwrap_or(0);
            if bot.playing != Some(v) {
                if bot.playing.is_some() {
                    bot.sigma = SIGMA;
                }
                bot.playing = Some(v);
                bot.version_games = 0;
            }
            before.push((bot.mu, bot.sigma));
            version.push(bot.versions[v].0);
        }
        (version, before)
    }

    /// One match between the `chosen` bots: its line, and a line per seat, each bot's
    /// rating and record updated.
    fn play(
        &mut self,
        round: &Round,
        chosen: &[usize],
        stderr_hex: &str,
        ladder: &mut Ladder,
    ) -> anyhow::Result<()> {
        let (id, r, n) = (round.id, round.r, chosen.len());
        let (ranks, by_perf, winner) = self.rank(chosen);
        let holdings = holdings(r, &ranks, &by_perf, winner);
        let (version, before) = self.versions_and_ratings(chosen, round.finished);
        let after = rating::rate(&before, &ranks);
        let seconds = 0.3 + r.turns as f64 * self.rng.gen_range(0.005..0.05);
        let waited = self.rng.gen_range(1.0..180.0);
        writeln!(
            ladder.matches_copy,
            "{id}\t{}\t{}\t{}\t{seconds}\t{waited}\t{}\t{}",
            self.map_ids[r.map],
            round.k,
            round.finished,
            r.turns,
            opt(winner)
        )?;
        for s in 0..n {
            let seat = Seat {
                s,
                rank: ranks[s],
                winner,
                holding: holdings[s],
                version: version[s],
                before: before[s],
                after: after[s],
            };
            self.seat(round, chosen[s], &seat, stderr_hex, ladder)?;
        }
        ladder.seats_total += n;
        Ok(())
    }

    /// A seat's line, with the problems its bot ran into, and the bot's rating and
    /// record after the match.
    fn seat(
        &mut self,
        round: &Round,
        b: usize,
        seat: &Seat,
        stderr_hex: &str,
        ladder: &mut Ladder,
    ) -> anyhow::Result<()> {
        let (id, r, rng) = (round.id, round.r, &mut *self.rng);
        let (s, rank, n) = (seat.s, seat.rank, round.r.seats);
        let bot = &mut self.bots[b];
        let outcome = match seat.winner {
            Some(w) if w == s => "win",
            None if rank == 1 => "draw",
            _ => "loss",
        };
        let turn = |rng: &mut ChaCha8Rng| rng.gen_range(0..r.turns.max(1));
        let mut problem: Option<u32> = None;
        let error = (bot.buggy && rank as usize == n && rank > 1 && rng.gen_bool(0.3)).then(|| {
            problem = Some(turn(rng));
            *ERRORS.choose(rng).expect("errors")
        });
        let timeouts = if bot.buggy && rng.gen_bool(0.08) {
            let t = turn(rng);
            problem = Some(problem.map_or(t, |p| p.min(t)));
            rng.gen_range(1..=3)
        } else {
            0
        };
        let warnings = if bot.sloppy && rng.gen_bool(0.3) {
            let t = turn(rng);
            problem = Some(problem.map_or(t, |p| p.min(t)));
            rng.gen_range(1..=40)
        } else {
            0
        };
        let cpu_ms = (r.turns as f64 * bot.ms_per_turn * rng.gen_range(0.7..1.3)) as i64;
        let (forts, soldiers) = seat.holding;
        writeln!(
            ladder.players_copy,
            "{id}\t{s}\t{}\t{}\t{rank}\t{outcome}\t[[\"forts\",{forts}],[\"soldiers\",{soldiers}]]\t{warnings}\t{timeouts}\t{}\t{cpu_ms}\t{stderr_hex}\t{}\t{}\t{}\t{}\t{}",
            bot.id,
            seat.version,
            opt(error),
            seat.before.0,
            seat.before.1,
            seat.after.0,
            seat.after.1,
            opt(problem),
        )?;
        bot.mu = seat.after.0;
        bot.sigma = seat.after.1;
        bot.games += 1;
        bot.version_games += 1;
        match outcome {
            "win" => bot.wins += 1,
            "draw" => bot.draws += 1,
            _ => bot.losses += 1,
        }
        bot.last_game = Some(round.finished);
        Ok(())
    }
}

/// What a seat of a match holds and records.
struct Seat {
    s: usize,
    rank: u32,
    winner: Option<usize>,
    holding: (u64, u64),
    version: i64,
    before: (f64, f64),
    after: (f64, f64),
}

/// At the end a winner holds everything; in a draw the leaders hold what the replay's
/// best players held; the defeated hold nothing.
fn holdings(
    r: &Played,
    ranks: &[u32],
    by_perf: &[usize],
    winner: Option<usize>,
) -> Vec<(u64, u64)> {
    let mut held = r.holdings.clone();
    held.sort_by(|a, b| b.cmp(a));
    let mut holdings = vec![(0u64, 0u64); ranks.len()];
    match winner {
        Some(w) => holdings[w] = held.iter().fold((0, 0), |t, h| (t.0 + h.0, t.1 + h.1)),
        None => {
            for (j, &s) in by_perf.iter().take_while(|&&s| ranks[s] == 1).enumerate() {
                holdings[s] = held[j];
            }
        }
    }
    holdings
}
