//! The games of a tournament, laid out before they are queued: a round robin of duels,
//! free-for-all groups, and Swiss rounds paired from the points so far. Pure:
//! participants and maps are indexes into the caller's lists.
//!
//! How balanced [`groups`] is over seeds 0 to 199, by [`balance`]:
//!
//! | n, k, games | games each | meetings of a pair          | games at a seat             |
//! |-------------|------------|-----------------------------|-----------------------------|
//! | 8, 4, 40    | 20         | 8 to 9                      | 5 in 64%, else 4 to 6       |
//! | 10, 3, 60   | 18         | 3 to 5                      | 6 in 60%, else 5 to 7       |
//! | 16, 4, 100  | 25         | 4 to 6 in 96%, else 3 apart | 6 to 7                      |
//! | 6, 6, 12    | 12         | 12                          | 2                           |
//! | 9, 4, 20    | 8 to 9     | 2 to 4 in 73%, else 3 apart | 2 to 3 in 93%, else 1 to 3  |
//!
//! So games played never differ by more than 1 (at the end of every round too),
//! meetings by at most 3 and games at a seat by at most 2. It takes 0.1 ms for 8
//! participants and 40 games, 0.5 ms for 16 and 100, 17 ms for 32 in groups of 8 and
//! 200 games (release).

use std::collections::HashSet;

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// One game of a schedule: its round (0-based), the map (an index into the
/// tournament's maps) and the participants by seat (indexes into the participants).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Planned {
    pub round: u32,
    pub map: usize,
    pub seats: Vec<usize>,
}

/// The seats of a duel of `a` and `b`, swapped when `flip`.
fn duel(a: usize, b: usize, flip: bool) -> Vec<usize> {
    [[a, b], [b, a]][usize::from(flip)].to_vec()
}

/// The duels of round `r` of the circle method on `slots` (even) slots, each in seat
/// order: the last slot stays put while the others turn one step a round.
fn circle(slots: usize, r: usize) -> Vec<Vec<usize>> {
    let t = slots - 1;
    let others = (1..slots / 2).map(|i| duel((r + i) % t, (r + t - i) % t, i % 2 == 1));
    let first = duel(r, t, r % 2 == 1);
    std::iter::once(first).chain(others).collect()
}

/// Round robin of duels: every pair on every map, in both seat orders. A round is one
/// round of the circle method on one map in one seat order, so nobody plays twice in a
/// round and each round has `n / 2` games (with an odd `n`, one participant a round
/// sits out). Every pair plays every map once in the first half, in one seat order,
/// then again in the other: each participant plays once a round throughout, so nobody's
/// games bunch at the end, and a tournament cut short at half time is still whole.
pub fn round_robin(n: usize, maps: usize) -> Vec<Planned> {
    if n < 2 {
        return Vec::new();
    }
    let slots = n + n % 2;
    let per_pass = slots - 1;
    let mut games = Vec::with_capacity(n * (n - 1) * maps);
    for pass in 0..2 * maps {
        let (flip, map) = (pass >= maps, pass % maps);
        for r in 0..per_pass {
            let round = (pass * per_pass + r) as u32;
            for pair in circle(slots, r) {
                if pair.iter().all(|&p| p < n) {
                    let seats = duel(pair[0], pair[1], flip);
                    games.push(Planned { round, map, seats });
                }
            }
        }
    }
    games
}

/// What a schedule gives each participant: games, meetings with each other one, and
/// games at each of the first `k` seats.
struct Tally {
    games: Vec<usize>,
    met: Vec<Vec<usize>>,
    seats: Vec<Vec<usize>>,
}

impl Tally {
    fn new(n: usize, k: usize) -> Tally {
        let (games, met, seats) = (vec![0; n], vec![vec![0; n]; n], vec![vec![0; k]; n]);
        Tally { games, met, seats }
    }

    /// Counts one game `times` times (-1 takes it back).
    fn add(&mut self, seats: &[usize], times: isize) {
        let f = |c: &mut usize| *c = c.wrapping_add_signed(times);
        for (s, &a) in seats.iter().enumerate() {
            f(&mut self.games[a]);
            if let Some(c) = self.seats[a].get_mut(s) {
                f(c);
            }
            for &b in seats.iter().filter(|&&b| b != a) {
                f(&mut self.met[a][b]);
            }
        }
    }
}

/// Most players of a game of [`groups`].
pub const MAX_K: usize = 16;

/// Free-for-all groups: `games` games of `k` players (2 <= k <= n, and at most
/// [`MAX_K`]), cycling through the maps, so that every participant plays about equally
/// often, every pair meets about equally often, and every participant sits at every
/// seat about equally often (the module's doc says how nearly). Seeded.
///
/// Each game takes the participants with the fewest games so far ([`pick`]), so games
/// never bunch; a round is at most `n / k` games with nobody twice. Then players are
/// swapped between games of a round while that evens out the meetings ([`swap`]), and
/// last the seats are given, and given again, to whoever sat there least ([`seat`]).
pub fn groups(n: usize, k: usize, maps: usize, games: usize, seed: u64) -> Vec<Planned> {
    assert!((2..=n.min(MAX_K)).contains(&k) && maps > 0, "k={k}");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut tally = Tally::new(n, k);
    let (mut round, mut in_round, mut round_games) = (0, vec![false; n], 0);
    let mut planned = Vec::with_capacity(games);
    for g in 0..games {
        let mut players = pick(&tally, &in_round, &mut rng);
        if round_games == n / k || players.iter().any(|&p| in_round[p]) {
            (round, round_games) = (round + 1, 0);
            in_round.fill(false);
            players = pick(&tally, &in_round, &mut rng);
        }
        players.iter().for_each(|&p| in_round[p] = true);
        round_games += 1;
        tally.add(&players, 1);
        let (map, seats) = (g % maps, players);
        planned.push(Planned { round, map, seats });
    }
    while swap(&mut tally, &mut planned) {}
    seat_all(n, k, &mut planned);
    planned
}

/// The `k` players of the next game: those with the fewest games so far, those not yet
/// in the round (`in_round`) first, ties drawn by the seed. Then, while it lowers
/// (players already in the round, then the sum of the squared meetings among the
/// players), one player at a time is exchanged for another with as many games.
fn pick(tally: &Tally, in_round: &[bool], rng: &mut ChaCha8Rng) -> Vec<usize> {
    let mut order: Vec<usize> = (0..tally.games.len()).collect();
    order.shuffle(rng);
    order.sort_by_key(|&p| (tally.games[p], in_round[p]));
    let mut chosen = order[..tally.seats[0].len()].to_vec();
    let cost = |players: &[usize]| {
        let busy = players.iter().filter(|&&p| in_round[p]).count();
        let met: usize = (0..players.len())
            .flat_map(|i| (i + 1..players.len()).map(move |j| (players[i], players[j])))
            .map(|(a, b)| tally.met[a][b].pow(2))
            .sum();
        (busy, met)
    };
    let mut best = cost(&chosen);
    while let Some((c, group)) = (0..chosen.len())
        .flat_map(|i| order.iter().map(move |&q| (i, q)))
        .filter(|&(i, q)| !chosen.contains(&q) && tally.games[q] == tally.games[chosen[i]])
        .map(|(i, q)| {
            let mut group = chosen.clone();
            group[i] = q;
            (cost(&group), group)
        })
        .min()
        .filter(|(c, _)| *c < best)
    {
        (best, chosen) = (c, group);
    }
    chosen
}

/// One pass of exchanges of two players between two games of the same round, each
/// made when it lowers the sum over pairs of their squared meetings. Whether any was.
fn swap(tally: &mut Tally, planned: &mut [Planned]) -> bool {
    let mut any = false;
    for x in 0..planned.len() {
        let round = planned[x].round;
        let end = (x + 1..planned.len())
            .find(|&y| planned[y].round != round)
            .unwrap_or(planned.len());
        for y in x + 1..end {
            let (head, tail) = planned.split_at_mut(y);
            let (gx, gy) = (&mut head[x].seats, &mut tail[0].seats);
            let (kx, ky) = (gx.len(), gy.len());
            for (i, j) in (0..kx).flat_map(|i| (0..ky).map(move |j| (i, j))) {
                if gain(tally, gx, i, gy, j) > 0 {
                    tally.add(gx, -1);
                    tally.add(gy, -1);
                    std::mem::swap(&mut gx[i], &mut gy[j]);
                    tally.add(gx, 1);
                    tally.add(gy, 1);
                    any = true;
                }
            }
        }
    }
    any
}

/// How much exchanging `x[i]` and `y[j]` (games with no player in common) lowers the
/// sum over pairs of their squared meetings: each of the two leaves its old partners
/// (m² becomes (m - 1)²) and joins the other's (m² becomes (m + 1)²).
fn gain(tally: &Tally, x: &[usize], i: usize, y: &[usize], j: usize) -> i64 {
    let m = |p: usize, q: usize| tally.met[p][q] as i64;
    let moved = |from: &[usize], leaves: usize, joins: usize| -> i64 {
        from.iter()
            .filter(|&&o| o != leaves)
            .map(|&o| 2 * m(leaves, o) - 1 - 2 * m(joins, o) - 1)
            .sum()
    };
    moved(x, x[i], y[j]) + moved(y, y[j], x[i])
}

/// Sweeps of [`seat_all`] over the games after the first.
const SEAT_SWEEPS: usize = 3;

/// Seats every game in turn ([`seat`]), then each again knowing all the others,
/// [`SEAT_SWEEPS`] times.
fn seat_all(n: usize, k: usize, planned: &mut [Planned]) {
    let mut tally = Tally::new(n, k);
    for g in planned.iter_mut() {
        g.seats = seat(&tally, &g.seats);
        tally.add(&g.seats, 1);
    }
    for _ in 0..SEAT_SWEEPS {
        for g in planned.iter_mut() {
            tally.add(&g.seats, -1);
            g.seats = seat(&tally, &g.seats);
            tally.add(&g.seats, 1);
        }
    }
}

/// Seats for `players`: the assignment that minimizes the sum over players of the
/// square of the games they have played at their seat, exactly (dynamic programming
/// over the sets of seats taken: 2^k·k steps, 2 million for [`MAX_K`] players).
fn seat(tally: &Tally, players: &[usize]) -> Vec<usize> {
    let k = players.len();
    let full = (1usize << k) - 1;
    let mut cost = vec![usize::MAX; full + 1];
    let mut last = vec![0; full + 1];
    cost[0] = 0;
    for taken in 0..full {
        let i = taken.count_ones() as usize;
        for s in (0..k).filter(|s| taken & (1 << s) == 0) {
            let c = cost[taken] + tally.seats[players[i]][s].pow(2);
            if c < cost[taken | 1 << s] {
                cost[taken | 1 << s] = c;
                last[taken | 1 << s] = s;
            }
        }
    }
    let (mut seats, mut taken) = (vec![0; k], full);
    for &p in players.iter().rev() {
        seats[last[taken]] = p;
        taken ^= 1 << last[taken];
    }
    seats
}

/// How balanced a schedule is: (min, max) over participants of games played, over
/// pairs of meetings, and over (participant, seat) of games at that seat.
#[derive(Clone, Debug, PartialEq)]
pub struct Balance {
    pub games: (usize, usize),
    pub meetings: (usize, usize),
    pub seats: (usize, usize),
}

/// The [`Balance`] of `games` among `n` participants, counting the first `k` seats.
pub fn balance(n: usize, k: usize, games: &[Planned]) -> Balance {
    let mut tally = Tally::new(n, k);
    games.iter().for_each(|g| tally.add(&g.seats, 1));
    let pairs = (0..n).flat_map(|a| (a + 1..n).map(move |b| (a, b)));
    Balance {
        games: min_max(tally.games.iter().copied()),
        meetings: min_max(pairs.map(|(a, b)| tally.met[a][b])),
        seats: min_max(tally.seats.into_iter().flatten()),
    }
}

/// The least and the greatest of `xs`, (0, 0) if there are none.
fn min_max(xs: impl Iterator<Item = usize>) -> (usize, usize) {
    xs.fold(None, |m, x| {
        Some(m.map_or((x, x), |(lo, hi)| (x.min(lo), x.max(hi))))
    })
    .unwrap_or((0, 0))
}

/// Search steps [`swiss_pairs`] takes looking for pairs with no rematch before it
/// settles for the greedy pairing.
const SEARCH_STEPS: usize = 100_000;

/// One Swiss round's pairings: participants ordered by points (desc; ties broken by
/// the seeded order), paired with neighbours of similar score, never a pair in `met`
/// (stored as (min, max)) while avoidable (backtracking, within [`SEARCH_STEPS`]), a
/// bye (None opponent) for an odd count given to the lowest-placed participant without
/// a bye yet (or the next one up if that leaves no pairing without rematches). Returns
/// pairs (a, b), `a` placed above `b`, and the bye.
pub fn swiss_pairs(
    points: &[f64],
    met: &HashSet<(usize, usize)>,
    byes: &[usize],
    seed: u64,
) -> (Vec<(usize, usize)>, Option<usize>) {
    let mut order: Vec<usize> = (0..points.len()).collect();
    order.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
    order.sort_by(|&a, &b| points[b].total_cmp(&points[a]));
    // The byes to try: none if even, else from the bottom up, those without one first.
    let (fresh, had): (Vec<usize>, Vec<usize>) =
        order.iter().rev().partition(|p| !byes.contains(p));
    let mut tries: Vec<Option<usize>> = fresh.into_iter().chain(had).map(Some).collect();
    if order.len() % 2 == 0 {
        tries = vec![None];
    }
    let without =
        |bye| -> Vec<usize> { order.iter().copied().filter(|&p| Some(p) != bye).collect() };
    let mut steps = SEARCH_STEPS;
    for &bye in &tries {
        if let Some(pairs) = pair(&without(bye), met, &mut steps, true) {
            return (pairs, bye);
        }
    }
    let pairs = pair(&without(tries[0]), met, &mut usize::MAX.clone(), false);
    (pairs.expect("a pairing with rematches"), tries[0])
}

fn key(a: usize, b: usize) -> (usize, usize) {
    (a.min(b), a.max(b))
}

/// Pairs `order` (best first, an even count): the best unpaired participant takes the
/// nearest below it that it has not met. When `strict`, it backtracks when the rest
/// cannot be paired so, and gives None when no pairing avoids `met` or the `steps` run
/// out; otherwise it takes the nearest below it when it has met them all.
fn pair(
    order: &[usize],
    met: &HashSet<(usize, usize)>,
    steps: &mut usize,
    strict: bool,
) -> Option<Vec<(usize, usize)>> {
    let Some((&top, rest)) = order.split_first() else {
        return Some(Vec::new());
    };
    let fresh = |&(_, o): &(usize, &usize)| !met.contains(&key(top, *o));
    let mut partners: Vec<(usize, &usize)> = rest.iter().enumerate().filter(fresh).collect();
    if !strict {
        partners.extend(rest.iter().enumerate().filter(|x| !fresh(x)));
    }
    for (i, &other) in partners {
        if *steps == 0 {
            return None;
        }
        *steps -= 1;
        let others: Vec<usize> = rest[..i].iter().chain(&rest[i + 1..]).copied().collect();
        if let Some(mut pairs) = pair(&others, met, steps, strict) {
            pairs.insert(0, (top, other));
            return Some(pairs);
        }
    }
    None
}

/// The games of one Swiss round for those pairs: each pair plays every map in both
/// seat orders, a map and a seat order at a time (so everyone plays at once).
pub fn swiss_round(round: u32, pairs: &[(usize, usize)], maps: usize) -> Vec<Planned> {
    let mut games = Vec::with_capacity(2 * maps * pairs.len());
    for (map, flip) in (0..maps).flat_map(|map| [(map, false), (map, true)]) {
        for &(a, b) in pairs {
            let seats = duel(a, b, flip);
            games.push(Planned { round, map, seats });
        }
    }
    games
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Asserts nobody plays twice in a round.
    fn rounds_are_disjoint(games: &[Planned]) {
        let mut seen = HashSet::new();
        for g in games {
            assert!(g.seats.iter().all(|&p| seen.insert((g.round, p))), "{g:?}");
        }
    }

    #[test]
    fn a_round_robin_plays_every_ordered_pair_once_a_map() {
        for (n, maps) in [(2, 1), (3, 2), (4, 2), (7, 1), (8, 3)] {
            let games = round_robin(n, maps);
            assert_eq!(games.len(), n * (n - 1) * maps, "n={n}");
            let ordered: HashSet<_> = games.iter().map(|g| (g.map, &g.seats)).collect();
            assert_eq!(ordered.len(), games.len(), "n={n}: an ordered pair twice");
            rounds_are_disjoint(&games);
            let (b, each) = (balance(n, 2, &games), (n - 1) * maps);
            assert_eq!((b.games, b.seats), ((2 * each, 2 * each), (each, each)));
            assert_eq!(b.meetings, (2 * maps, 2 * maps));
        }
        assert!(round_robin(1, 2).is_empty() && round_robin(0, 2).is_empty());
        // 8 players: 4 passes of 7 rounds of 4 games; half way, all met on all maps.
        let games = round_robin(8, 2);
        assert!((0..28).all(|r| games.iter().filter(|g| g.round == r).count() == 4));
        assert_eq!(balance(8, 2, &games[..games.len() / 2]).meetings, (2, 2));
    }

    #[test]
    fn groups_are_as_balanced_as_documented_and_never_bunch() {
        // (n, k, games, the spreads of games, meetings and seats at most).
        let cases = [
            (8, 4, 40, [0, 1, 2]),
            (10, 3, 60, [0, 2, 2]),
            (16, 4, 100, [0, 3, 1]),
            (6, 6, 12, [0, 0, 0]),
            (9, 4, 20, [1, 3, 2]),
        ];
        for (n, k, count, most) in cases {
            for seed in 0..20 {
                let games = groups(n, k, 3, count, seed);
                rounds_are_disjoint(&games);
                let b = balance(n, k, &games);
                let spread = [b.games, b.meetings, b.seats].map(|(lo, hi)| hi - lo);
                assert!(
                    (0..3).all(|i| spread[i] <= most[i]),
                    "{n} {k} {seed}: {b:?}"
                );
                let maps = games.iter().enumerate().all(|(g, p)| p.map == g % 3);
                assert!(maps && games.iter().all(|p| p.seats.len() == k));
                // At the end of each round (exchanges within a round move games in it).
                for end in (1..count).filter(|&e| games[e].round > games[e - 1].round) {
                    let b = balance(n, k, &games[..end]);
                    assert!(b.games.1 - b.games.0 <= 1, "after {end} games: {b:?}");
                }
            }
        }
        assert_eq!(groups(10, 4, 2, 50, 7), groups(10, 4, 2, 50, 7));
        assert_ne!(groups(10, 4, 2, 50, 7), groups(10, 4, 2, 50, 8));
    }

    #[test]
    fn swiss_pairs_neighbours_and_avoids_rematches_while_it_can() {
        let none = HashSet::new();
        let points = [1.0, 3.0, 0.0, 2.0, 2.5, 0.5];
        let pairs = vec![(1, 4), (3, 0), (5, 2)];
        assert_eq!(swiss_pairs(&points, &none, &[], 1), (pairs, None));
        let points = [3.0, 2.0, 1.0, 0.0];
        // 0-1 and 2-3 met: the top goes down one; 0-2 too: backtracking finds 0-3.
        let met: HashSet<_> = [(0, 1), (2, 3)].into();
        assert_eq!(swiss_pairs(&points, &met, &[], 1).0, [(0, 2), (1, 3)]);
        let met: HashSet<_> = [(0, 1), (2, 3), (0, 2)].into();
        assert_eq!(swiss_pairs(&points, &met, &[], 1).0, [(0, 3), (1, 2)]);
        // Everyone has met everyone: rematches, still neighbours.
        let all: HashSet<_> = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)].into();
        assert_eq!(swiss_pairs(&points, &all, &[], 1).0, [(0, 1), (2, 3)]);
        // Five rounds of sixteen: never a rematch.
        let (mut met, mut points) = (HashSet::new(), vec![0.0; 16]);
        for round in 0..5 {
            let (pairs, bye) = swiss_pairs(&points, &met, &[], round);
            assert_eq!((pairs.len(), bye), (8, None));
            for (a, b) in pairs {
                assert!(met.insert(key(a, b)), "rematch {a}-{b} in round {round}");
                points[a.min(b)] += 1.0;
            }
        }
        // Ties in points are broken by the seed.
        let first = |s| swiss_pairs(&[0.0; 8], &none, &[], s).0[0].0;
        assert!((0..20).map(first).collect::<HashSet<_>>().len() > 3);
    }

    #[test]
    fn swiss_gives_byes_to_the_lowest_without_one() {
        let (points, none) = ([2.0, 1.0, 0.0], HashSet::new());
        assert_eq!(swiss_pairs(&points, &none, &[], 1), (vec![(0, 1)], Some(2)));
        let (pairs, bye) = swiss_pairs(&points, &none, &[2], 1);
        assert_eq!((pairs, bye), (vec![(0, 2)], Some(1)));
        assert_eq!(swiss_pairs(&points, &none, &[0, 1, 2], 1).1, Some(2));
        // The lowest would leave a rematch: the next one up.
        let met: HashSet<_> = [(0, 1)].into();
        assert_eq!(swiss_pairs(&points, &met, &[], 1), (vec![(0, 2)], Some(1)));
        // Tiny fields.
        assert_eq!(swiss_pairs(&[0.0], &none, &[0], 1), (vec![], Some(0)));
        assert_eq!(swiss_pairs(&[1.0, 0.0], &met, &[], 1), (vec![(0, 1)], None));
        assert_eq!(swiss_pairs(&[], &none, &[], 1), (vec![], None));
    }

    #[test]
    fn a_swiss_round_plays_each_pair_on_every_map_both_ways() {
        let games = swiss_round(3, &[(0, 1), (2, 3)], 2);
        let seats: Vec<&[usize]> = games.iter().map(|g| &g.seats[..]).collect();
        assert_eq!(seats[..4], [[0, 1], [2, 3], [1, 0], [3, 2]]);
        let maps = games.iter().enumerate().all(|(i, g)| g.map == i / 4);
        assert!(maps && games.len() == 8 && games.iter().all(|g| g.round == 3));
        assert_eq!(balance(4, 2, &games).seats, (2, 2));
    }
}
