//! The games of a tournament, laid out before they are queued. Pure: participants and
//! maps are indexes into the caller's lists.
//!
//! BALANCE_DOC

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

/// The pairs of round `r` of the circle method on `slots` (even) slots, each pair in
/// seat order: the last slot stays put while the others turn one step a round.
fn circle(slots: usize, r: usize) -> Vec<(usize, usize)> {
    let turning = slots - 1;
    let fixed = if r % 2 == 0 {
        (r, turning)
    } else {
        (turning, r)
    };
    let others = (1..slots / 2).map(|i| {
        let (a, b) = ((r + i) % turning, (r + turning - i) % turning);
        if i % 2 == 0 {
            (a, b)
        } else {
            (b, a)
        }
    });
    std::iter::once(fixed).chain(others).collect()
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
            for (a, b) in circle(slots, r) {
                if a < n && b < n {
                    let seats = if flip { vec![b, a] } else { vec![a, b] };
                    games.push(Planned { round, map, seats });
                }
            }
        }
    }
    games
}

/// What a schedule gives each participant: games, meetings with each other one, and
/// games at each seat.
struct Tally {
    n: usize,
    k: usize,
    games: Vec<usize>,
    met: Vec<usize>,
    seats: Vec<usize>,
}

impl Tally {
    fn new(n: usize, k: usize) -> Tally {
        Tally {
            n,
            k,
            games: vec![0; n],
            met: vec![0; n * n],
            seats: vec![0; n * k],
        }
    }

    fn met(&self, a: usize, b: usize) -> usize {
        self.met[a * self.n + b]
    }

    fn seat(&self, who: usize, seat: usize) -> usize {
        self.seats[who * self.k + seat]
    }

    /// Counts one game (seats past the `k`th are not counted).
    fn add(&mut self, seats: &[usize]) {
        self.count(seats, |c| *c += 1);
    }

    /// Uncounts one game.
    fn remove(&mut self, seats: &[usize]) {
        self.count(seats, |c| *c -= 1);
    }

    fn count(&mut self, seats: &[usize], f: impl Fn(&mut usize)) {
        for (s, &a) in seats.iter().enumerate() {
            f(&mut self.games[a]);
            if s < self.k {
                f(&mut self.seats[a * self.k + s]);
            }
            for &b in seats.iter().filter(|&&b| b != a) {
                f(&mut self.met[a * self.n + b]);
            }
        }
    }
}

/// Free-for-all groups: `games` games of `k` players (2 <= k <= n), cycling through
/// the maps, so that every participant plays about equally often, every pair meets
/// about equally often, and every participant sits at every seat about equally often
/// (the module's doc says how nearly). Seeded.
///
/// Each game takes the participants with the fewest games so far ([`pick`]), so games
/// never bunch; a round is at most `n / k` games with nobody twice. Then players are
/// swapped between games of a round while that evens out the meetings ([`swap`]), and
/// last the seats are given, and given again, to whoever sat there least ([`seat`]).
pub fn groups(n: usize, k: usize, maps: usize, games: usize, seed: u64) -> Vec<Planned> {
    assert!(
        k >= 2 && k <= n && maps >= 1,
        "groups of {k} from {n} on {maps} maps"
    );
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
        tally.add(&players);
        let map = g % maps;
        planned.push(Planned {
            round,
            map,
            seats: players,
        });
    }
    while swap(&mut tally, &mut planned) {}
    seat_all(n, k, &mut planned);
    planned
}

/// The `k` players of the next game: one at a time, the participant with the fewest
/// games so far, then one not yet in the round (`in_round`), then the one whose squared
/// meetings with those already taken sum least, then a seeded draw. Then, while it
/// lowers (players already in the round, squared meetings among the players), one
/// player at a time is exchanged for another with as many games.
fn pick(tally: &Tally, in_round: &[bool], rng: &mut ChaCha8Rng) -> Vec<usize> {
    let mut order: Vec<usize> = (0..tally.n).collect();
    order.shuffle(rng);
    let mut chosen: Vec<usize> = Vec::with_capacity(tally.k);
    while chosen.len() < tally.k {
        let next = order
            .iter()
            .copied()
            .filter(|p| !chosen.contains(p))
            .min_by_key(|&p| {
                let met: usize = chosen.iter().map(|&q| tally.met(p, q).pow(2)).sum();
                (tally.games[p], in_round[p], met)
            })
            .expect("k <= n");
        chosen.push(next);
    }
    let cost = |players: &[usize]| {
        let busy = players.iter().filter(|&&p| in_round[p]).count();
        let met: usize = (0..players.len())
            .flat_map(|i| (i + 1..players.len()).map(move |j| (players[i], players[j])))
            .map(|(a, b)| tally.met(a, b).pow(2))
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
            for i in 0..gx.len() {
                for j in 0..gy.len() {
                    if gain(tally, gx, i, gy, j) > 0 {
                        tally.remove(gx);
                        tally.remove(gy);
                        std::mem::swap(&mut gx[i], &mut gy[j]);
                        tally.add(gx);
                        tally.add(gy);
                        any = true;
                    }
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
    let m = |p: usize, q: usize| tally.met(p, q) as i64;
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

/// Seats every game in turn ([`seat`]), then seats each again knowing all the others,
/// [`SEAT_SWEEPS`] times.
fn seat_all(n: usize, k: usize, planned: &mut [Planned]) {
    let mut tally = Tally::new(n, k);
    for g in planned.iter_mut() {
        g.seats = seat(&tally, &g.seats);
        tally.add(&g.seats);
    }
    for _ in 0..SEAT_SWEEPS {
        for g in planned.iter_mut() {
            tally.remove(&g.seats);
            g.seats = seat(&tally, &g.seats);
            tally.add(&g.seats);
        }
    }
}

/// Seats for `players`: the assignment that minimizes the sum over players of the
/// square of the games they have played at their seat, exactly (dynamic programming
/// over the sets of seats taken, 2^k·k steps) up to [`EXACT_SEATS`] players, and
/// greedily (each in turn takes its least used free seat) beyond.
fn seat(tally: &Tally, players: &[usize]) -> Vec<usize> {
    let k = players.len();
    if k > EXACT_SEATS {
        return seat_greedily(tally, players);
    }
    let full = (1usize << k) - 1;
    let mut cost = vec![usize::MAX; full + 1];
    let mut last = vec![0; full + 1];
    cost[0] = 0;
    for taken in 0..full {
        let i = taken.count_ones() as usize;
        for s in (0..k).filter(|s| taken & (1 << s) == 0) {
            let c = cost[taken] + tally.seat(players[i], s).pow(2);
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

/// Most players seated by the exact assignment.
const EXACT_SEATS: usize = 12;

/// Seats for many players: each in turn takes the free seat it has sat at least.
fn seat_greedily(tally: &Tally, players: &[usize]) -> Vec<usize> {
    let mut seats = vec![usize::MAX; players.len()];
    for &p in players {
        let s = (0..players.len())
            .filter(|&s| seats[s] == usize::MAX)
            .min_by_key(|&s| tally.seat(p, s))
            .expect("a free seat");
        seats[s] = p;
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
    games.iter().for_each(|g| tally.add(&g.seats));
    let pairs = (0..n).flat_map(|a| (a + 1..n).map(move |b| (a, b)));
    Balance {
        games: min_max(tally.games.iter().copied()),
        meetings: min_max(pairs.map(|(a, b)| tally.met(a, b))),
        seats: min_max(tally.seats.iter().copied()),
    }
}

/// The least and the greatest of `xs`, (0, 0) if there are none.
fn min_max(xs: impl Iterator<Item = usize>) -> (usize, usize) {
    xs.fold(None, |m, x| match m {
        None => Some((x, x)),
        Some((lo, hi)) => Some((lo.min(x), hi.max(x))),
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
    if order.len() % 2 == 0 {
        let mut steps = SEARCH_STEPS;
        let pairs = pair_fresh(&order, met, &mut steps);
        return (pairs.unwrap_or_else(|| pair_greedily(&order, met)), None);
    }
    // Bye candidates: from the bottom up, those without a bye first.
    let (fresh, had): (Vec<usize>, Vec<usize>) =
        order.iter().rev().partition(|p| !byes.contains(p));
    let without =
        |bye: usize| -> Vec<usize> { order.iter().copied().filter(|&p| p != bye).collect() };
    let mut steps = SEARCH_STEPS;
    for &bye in fresh.iter().chain(&had) {
        if let Some(pairs) = pair_fresh(&without(bye), met, &mut steps) {
            return (pairs, Some(bye));
        }
    }
    let bye = fresh
        .first()
        .or(had.first())
        .copied()
        .expect("an odd count");
    (pair_greedily(&without(bye), met), Some(bye))
}

fn key(a: usize, b: usize) -> (usize, usize) {
    (a.min(b), a.max(b))
}

/// Pairs `order` (best first, an even count) with no pair in `met`: the best unpaired
/// participant takes the nearest below it it has not met, backtracking when the rest
/// cannot be paired. None when there is no such pairing or `steps` run out.
fn pair_fresh(
    order: &[usize],
    met: &HashSet<(usize, usize)>,
    steps: &mut usize,
) -> Option<Vec<(usize, usize)>> {
    let Some((&top, rest)) = order.split_first() else {
        return Some(Vec::new());
    };
    for (i, &other) in rest.iter().enumerate() {
        if met.contains(&key(top, other)) {
            continue;
        }
        if *steps == 0 {
            return None;
        }
        *steps -= 1;
        let others: Vec<usize> = rest[..i].iter().chain(&rest[i + 1..]).copied().collect();
        if let Some(mut pairs) = pair_fresh(&others, met, steps) {
            pairs.insert(0, (top, other));
            return Some(pairs);
        }
    }
    None
}

/// Pairs `order` when rematches cannot be avoided: the best unpaired participant takes
/// the nearest below it it has not met, or the next one down if it has met them all.
fn pair_greedily(order: &[usize], met: &HashSet<(usize, usize)>) -> Vec<(usize, usize)> {
    let mut left = order.to_vec();
    let mut pairs = Vec::with_capacity(left.len() / 2);
    while left.len() >= 2 {
        let top = left.remove(0);
        let i = left
            .iter()
            .position(|&o| !met.contains(&key(top, o)))
            .unwrap_or(0);
        pairs.push((top, left.remove(i)));
    }
    pairs
}

/// The games of one Swiss round for those pairs: each pair plays every map in both
/// seat orders, a map and a seat order at a time (so everyone plays at once).
pub fn swiss_round(round: u32, pairs: &[(usize, usize)], maps: usize) -> Vec<Planned> {
    let orders = (0..maps).flat_map(|map| [(map, false), (map, true)]);
    orders
        .flat_map(|(map, flip)| {
            pairs.iter().map(move |&(a, b)| Planned {
                round,
                map,
                seats: if flip { vec![b, a] } else { vec![a, b] },
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Nobody twice in any round.
    fn rounds_are_disjoint(games: &[Planned]) {
        let mut seen = HashSet::new();
        for g in games {
            for &p in &g.seats {
                assert!(seen.insert((g.round, p)), "{p} twice in round {}", g.round);
            }
        }
    }

    #[test]
    fn a_round_robin_plays_every_ordered_pair_once_a_map() {
        for (n, maps) in [(2, 1), (3, 2), (4, 2), (7, 1), (8, 3)] {
            let games = round_robin(n, maps);
            assert_eq!(games.len(), n * (n - 1) * maps, "n={n}");
            let ordered: HashSet<(usize, usize, usize)> = games
                .iter()
                .map(|g| (g.map, g.seats[0], g.seats[1]))
                .collect();
            assert_eq!(ordered.len(), games.len(), "n={n}: an ordered pair twice");
            assert!(ordered
                .iter()
                .all(|&(m, a, b)| m < maps && a != b && a.max(b) < n));
            rounds_are_disjoint(&games);
            let b = balance(n, 2, &games);
            let each = (n - 1) * maps;
            assert_eq!(b.games, (2 * each, 2 * each));
            assert_eq!(b.meetings, (2 * maps, 2 * maps));
            assert_eq!(b.seats, (each, each));
        }
        assert!(round_robin(1, 2).is_empty());
        assert!(round_robin(0, 2).is_empty());
    }

    #[test]
    fn a_round_robin_keeps_everyone_playing_throughout() {
        // Eight players: 7 rounds of 4 games a pass, everyone in every round.
        let games = round_robin(8, 2);
        let rounds = games.last().unwrap().round + 1;
        assert_eq!(rounds, 4 * 7);
        for r in 0..rounds {
            assert_eq!(games.iter().filter(|g| g.round == r).count(), 4);
        }
        // Half way, every pair has met on every map.
        let half = balance(8, 2, &games[..games.len() / 2]);
        assert_eq!(half.meetings, (2, 2));
        // Odd: one sits out a round, a different one each round of a pass.
        let games = round_robin(5, 1);
        assert!(games.iter().all(|g| g.round < 10));
        for r in 0..5 {
            let playing: HashSet<usize> = games
                .iter()
                .filter(|g| g.round == r)
                .flat_map(|g| g.seats.clone())
                .collect();
            assert_eq!(playing.len(), 4);
        }
    }

    #[test]
    fn groups_are_as_balanced_as_documented() {
        // (n, k, games, the spreads of games, meetings and seats at most).
        let cases = [
            (8, 4, 40, (0, 1, 2)),
            (10, 3, 60, (0, 2, 2)),
            (16, 4, 100, (0, 3, 1)),
            (6, 6, 12, (0, 0, 0)),
            (9, 4, 20, (1, 3, 2)),
        ];
        for (n, k, count, most) in cases {
            for seed in 0..20 {
                let games = groups(n, k, 3, count, seed);
                assert_eq!(games.len(), count);
                rounds_are_disjoint(&games);
                let b = balance(n, k, &games);
                let spread = (
                    b.games.1 - b.games.0,
                    b.meetings.1 - b.meetings.0,
                    b.seats.1 - b.seats.0,
                );
                assert!(
                    spread.0 <= most.0 && spread.1 <= most.1 && spread.2 <= most.2,
                    "n={n} k={k} games={count} seed={seed}: {b:?}"
                );
                for (g, p) in games.iter().enumerate() {
                    assert_eq!(p.map, g % 3);
                    let mut s = p.seats.clone();
                    s.sort();
                    s.dedup();
                    assert_eq!(s.len(), k, "k different players: {p:?}");
                }
            }
        }
    }

    #[test]
    fn groups_never_bunch_and_follow_the_seed() {
        let games = groups(10, 4, 2, 50, 7);
        // At the end of every round (exchanges within a round can move a game of
        // someone's earlier in it).
        for end in
            (1..=games.len()).filter(|&e| e == games.len() || games[e].round > games[e - 1].round)
        {
            let b = balance(10, 4, &games[..end]);
            assert!(b.games.1 - b.games.0 <= 1, "after {end} games: {b:?}");
        }
        assert_eq!(games, groups(10, 4, 2, 50, 7));
        assert_ne!(games, groups(10, 4, 2, 50, 8));
    }

    #[test]
    fn swiss_pairs_neighbours_by_points() {
        let points = [1.0, 3.0, 0.0, 2.0, 2.5, 0.5];
        let (pairs, bye) = swiss_pairs(&points, &HashSet::new(), &[], 1);
        assert_eq!(pairs, [(1, 4), (3, 0), (5, 2)]);
        assert_eq!(bye, None);
    }

    #[test]
    fn swiss_avoids_rematches_while_it_can() {
        let points = [3.0, 2.0, 1.0, 0.0];
        // 0-1 and 2-3 met: the top goes down one.
        let met: HashSet<_> = [(0, 1), (2, 3)].into();
        let (pairs, _) = swiss_pairs(&points, &met, &[], 1);
        assert_eq!(pairs, [(0, 2), (1, 3)]);
        // 0-2 too: the top must go to the bottom, which backtracking finds.
        let met: HashSet<_> = [(0, 1), (2, 3), (0, 2)].into();
        let (pairs, _) = swiss_pairs(&points, &met, &[], 1);
        assert_eq!(pairs, [(0, 3), (1, 2)]);
        // Everyone has met everyone: rematches, still neighbours.
        let all: HashSet<_> = (0..4)
            .flat_map(|a| (a + 1..4).map(move |b| (a, b)))
            .collect();
        let (pairs, _) = swiss_pairs(&points, &all, &[], 1);
        assert_eq!(pairs, [(0, 1), (2, 3)]);
        // Five rounds of sixteen: never a rematch.
        let mut met = HashSet::new();
        let mut points = vec![0.0; 16];
        for round in 0..5u64 {
            let (pairs, bye) = swiss_pairs(&points, &met, &[], round);
            assert_eq!((pairs.len(), bye), (8, None));
            for (a, b) in pairs {
                assert!(met.insert(key(a, b)), "rematch {a}-{b} in round {round}");
                points[a.min(b)] += 1.0;
            }
        }
    }

    #[test]
    fn swiss_gives_byes_to_the_lowest_without_one() {
        let points = [2.0, 1.0, 0.0];
        let none = HashSet::new();
        assert_eq!(swiss_pairs(&points, &none, &[], 1), (vec![(0, 1)], Some(2)));
        assert_eq!(
            swiss_pairs(&points, &none, &[2], 1),
            (vec![(0, 2)], Some(1))
        );
        // Everyone has had one: the lowest again.
        assert_eq!(swiss_pairs(&points, &none, &[0, 1, 2], 1).1, Some(2));
        // The lowest would leave a rematch: the next one up.
        let met: HashSet<_> = [(0, 1)].into();
        assert_eq!(swiss_pairs(&points, &met, &[], 1), (vec![(0, 2)], Some(1)));
        // Tiny fields.
        assert_eq!(swiss_pairs(&[0.0], &none, &[], 1), (vec![], Some(0)));
        assert_eq!(swiss_pairs(&[0.0], &none, &[0], 1), (vec![], Some(0)));
        let met: HashSet<_> = [(0, 1)].into();
        assert_eq!(swiss_pairs(&[1.0, 0.0], &met, &[], 1), (vec![(0, 1)], None));
        assert_eq!(swiss_pairs(&[], &none, &[], 1), (vec![], None));
    }

    #[test]
    fn ties_in_points_are_broken_by_the_seed() {
        let points = [0.0; 8];
        let none = HashSet::new();
        let firsts: HashSet<usize> = (0..20)
            .map(|s| swiss_pairs(&points, &none, &[], s).0[0].0)
            .collect();
        assert!(firsts.len() > 3, "{firsts:?}");
        assert_eq!(
            swiss_pairs(&points, &none, &[], 5),
            swiss_pairs(&points, &none, &[], 5)
        );
    }

    #[test]
    fn a_swiss_round_plays_each_pair_on_every_map_both_ways() {
        let games = swiss_round(3, &[(0, 1), (2, 3)], 2);
        assert_eq!(games.len(), 8);
        assert!(games.iter().all(|g| g.round == 3));
        let seats: Vec<(usize, Vec<usize>)> =
            games.iter().map(|g| (g.map, g.seats.clone())).collect();
        assert_eq!(
            seats[..4],
            [
                (0, vec![0, 1]),
                (0, vec![2, 3]),
                (0, vec![1, 0]),
                (0, vec![3, 2])
            ]
        );
        assert_eq!(balance(4, 2, &games).seats, (2, 2));
    }
}
