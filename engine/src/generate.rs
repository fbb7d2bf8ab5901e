//! Seeded random planar maps with fair starts.
//!
//! [`generate`] places forts in orbits of the rotation by one seat (`360° / players`
//! around a centre): one home orbit (a home fort of 100 soldiers per seat), an optional
//! neutral centre fort (when the fort count is one more than a multiple of the players),
//! and neutral orbits scattered over a disc with a minimum gap between forts. Every orbit
//! is one point turned and rounded to integers for each seat. Roads are then added whole
//! orbits at a time, shortest first, while they cross nothing, keep a clearance from other
//! forts and a minimum angle to other roads, and have the same length in every seat's
//! copy; longer orbits join what is still apart; then a few orbits are dropped for
//! variety while the map stays connected.
//!
//! Turning by 120° or 60° (or 45°, 72°...) cannot be exact on integers, so the result is
//! verified exactly with [`check_layout`]: planar, connected, and [`seat_rotation`] finds
//! the symmetry that takes seat i's start to seat i+1's with equal roads, lengths and
//! garrisons. An attempt that fails is redrawn from the same seeded stream, so a seed
//! always gives the same map. The arithmetic uses only `+ - * /`, `sqrt` and `round`
//! (no platform `sin`/`cos`), and no hash map order reaches the output.

use std::collections::BTreeSet;
use std::f64::consts::PI;
use std::ops::RangeInclusive;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub use crate::geometry::{
    check_layout, crossing_roads, is_connected, road_through_fort, seat_rotation, LayoutError,
};
use crate::geometry::{on_segment, roads_cross, Point};
use crate::map::{road_length, Fort, FortId, Map, Owner, Road, Seat};

/// The number of players (seats) a generated map can have.
pub const PLAYERS: RangeInclusive<usize> = 2..=8;
/// The fewest forts per seat (the home fort included).
pub const MIN_FORTS_PER_SEAT: usize = 3;
/// The most forts a generated map can have.
pub const MAX_FORTS: usize = 200;
/// The garrison of every home fort, as on the 2016 maps.
pub const HOME_GARRISON: u64 = 100;
/// Neutral forts hold `0..=MAX_NEUTRAL_GARRISON` soldiers (the centre fort 20 to 40).
pub const MAX_NEUTRAL_GARRISON: u64 = 30;

/// Attempts before giving up on a seed (in practice one or a few suffice).
const ATTEMPTS: u32 = 200;
/// Among valid draws, the one with fewest forts short of roads is kept; this many
/// draws at most (the first with none ends the search).
const CHOICES: u32 = 6;
const R: i64 = 1;
/// Orbits drawn to choose each fort orbit from.
const PICK: usize = 30;
/// Dropping roads for variety stops at this many roads per fort.
const MIN_ROADS_PER_FORT: f64 = 1.6;
/// The smallest squared distance between two forts.
const MIN_GAP2: i64 = 30;
/// Map area per fort: sets the radius of the disc the forts are drawn in.
const AREA_PER_FORT: f64 = 60.0;
/// Roads of the first pass are at most this long.
const SHORT_ROAD: f64 = 14.5;
/// Roads of the first pass keep this squared distance from other forts.
const CLEARANCE2: f64 = 2.0;

/// What to generate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenerateOptions {
    /// Number of seats, 2 to 8.
    pub players: usize,
    /// The same seed (and options) always gives the same map.
    pub seed: u64,
    /// Number of forts; `None` for [`GenerateOptions::default_forts`]. It must be a
    /// multiple of `players`, or one more (then the extra fort stands in the centre).
    pub forts: Option<usize>,
}

impl GenerateOptions {
    /// The default fort count: seven per seat and a centre fort.
    pub fn default_forts(players: usize) -> usize {
        7 * players + 1
    }

    /// The fort count these options ask for, or why it cannot be generated.
    pub fn fort_count(&self) -> Result<usize, GenerateError> {
        let n = self.players;
        if !PLAYERS.contains(&n) {
            return Err(GenerateError::Players(n));
        }
        let forts = self.forts.unwrap_or_else(|| Self::default_forts(n));
        let min = MIN_FORTS_PER_SEAT * n;
        if forts < min {
            return Err(GenerateError::TooFewForts {
                forts,
                players: n,
                min,
            });
        }
        if forts > MAX_FORTS {
            return Err(GenerateError::TooManyForts { forts });
        }
        if forts % n > 1 {
            let (below, above) = (forts - forts % n + 1, forts - forts % n + n);
            return Err(GenerateError::Uneven {
                forts,
                players: n,
                below,
                above,
            });
        }
        Ok(forts)
    }
}

/// Options that cannot give a map.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GenerateError {
    /// The player count is outside [`PLAYERS`].
    #[error("a generated map has 2 to 8 players, not {0}")]
    Players(usize),
    /// Fewer than [`MIN_FORTS_PER_SEAT`] forts per seat.
    #[error("{forts} forts are too few for {players} players: at least {min} ({MIN_FORTS_PER_SEAT} per player)")]
    TooFewForts {
        forts: usize,
        players: usize,
        min: usize,
    },
    /// More than [`MAX_FORTS`] forts.
    #[error("{forts} forts are too many: at most {MAX_FORTS}")]
    TooManyForts { forts: usize },
    /// The forts cannot be shared out equally among the seats.
    #[error("{forts} forts cannot be shared equally by {players} players: use a multiple of {players}, or one more for a centre fort (for example {below} or {above})")]
    Uneven {
        forts: usize,
        players: usize,
        below: usize,
        above: usize,
    },
    /// Every attempt failed (not seen in practice).
    #[error("no fair planar map found in {0} attempts; try another seed")]
    NoLayout(u32),
}

/// Generates a planar, connected map whose seats all start equally well (see the
/// module docs). Seats are named `p1`, `p2`, ...; the home forts come first in the file.
pub fn generate(opts: &GenerateOptions) -> Result<Map, GenerateError> {
    let forts = opts.fort_count()?;
    let mut rng = ChaCha8Rng::seed_from_u64(opts.seed);
    let (mut best, mut found): (Option<(usize, Map)>, u32) = (None, 0);
    for attempt in 0..ATTEMPTS {
        if let Some((map, needy)) = attempt_map(opts.players, forts, attempt, &mut rng) {
            if best.as_ref().is_none_or(|b| needy < b.0) {
                best = Some((needy, map));
            }
            found += 1;
            if needy == 0 || found == CHOICES {
                break;
            }
        }
    }
    best.map(|b| b.1).ok_or(GenerateError::NoLayout(ATTEMPTS))
}

/// `(cos a, sin a)` by Taylor series, so that every platform rounds the same way.
fn cos_sin(a: f64) -> (f64, f64) {
    let a = if a > PI { a - 2.0 * PI } else { a };
    let (mut c, mut s, mut term) = (0.0, 0.0, 1.0);
    for k in 0..40u32 {
        let sign = if (k / 2) % 2 == 0 { 1.0 } else { -1.0 };
        if k % 2 == 0 {
            c += sign * term;
        } else {
            s += sign * term;
        }
        term *= a / f64::from(k + 1);
    }
    (c, s)
}

/// A random point of the disc of radius `r` (and outside radius `r * inner`).
fn in_disc(rng: &mut ChaCha8Rng, r: f64, inner: f64) -> (f64, f64) {
    loop {
        let (x, y): (f64, f64) = (rng.gen_range(-1.0..1.0), rng.gen_range(-1.0..1.0));
        let d2 = x * x + y * y;
        if d2 <= 1.0 && d2 >= inner * inner {
            return (x * r, y * r);
        }
    }
}

fn dist2(a: Point, b: Point) -> i64 {
    (a.0 - b.0).pow(2) + (a.1 - b.1).pow(2)
}

/// Squared distance from `p` to the segment `a`–`b`.
fn seg_dist2(p: Point, a: Point, b: Point) -> f64 {
    let f = |q: Point| (q.0 as f64, q.1 as f64);
    let ((px, py), (ax, ay), (bx, by)) = (f(p), f(a), f(b));
    let (dx, dy) = (bx - ax, by - ay);
    let t = (((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)).clamp(0.0, 1.0);
    (px - ax - t * dx).powi(2) + (py - ay - t * dy).powi(2)
}

/// A map being drawn, coordinates relative to the centre.
struct Draft {
    pts: Vec<Point>,
    /// The rotation by one seat as a fort permutation.
    turn: Vec<usize>,
    /// Roads, one orbit per entry.
    orbits: Vec<Vec<(usize, usize)>>,
    adj: Vec<Vec<usize>>,
    /// The forts in orbits: `(first fort, orbit size)`.
    blocks: Vec<(usize, usize)>,
    seats: usize,
}

impl Draft {
    /// The orbit of road `u`–`v` under the rotation, each road as (smaller, larger).
    fn orbit(&self, u: usize, v: usize) -> Vec<(usize, usize)> {
        let (mut a, mut b, mut out) = (u, v, Vec::new());
        for _ in 0..self.turn.len() {
            out.push((a.min(b), a.max(b)));
            (a, b) = (self.turn[a], self.turn[b]);
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Can this orbit of roads be added? `min_cos` bounds the cosine of the angle to
    /// other roads at a shared fort; `strict` also asks for clearance from other forts.
    fn fits(&self, orbit: &[(usize, usize)], strict: bool, min_cos: f64) -> bool {
        let p = &self.pts;
        let seg = |(a, b): (usize, usize)| [(a, p[a]), (b, p[b])];
        let mut added: Vec<(usize, usize)> = Vec::new();
        for &(a, b) in orbit {
            let placed = self.orbits.iter().flatten().chain(&added);
            if placed
                .clone()
                .any(|&r| r == (a, b) || roads_cross(seg((a, b)), seg(r)))
            {
                return false;
            }
            let near = |f: usize| {
                on_segment(p[a], p[b], p[f]) || (strict && seg_dist2(p[f], p[a], p[b]) < CLEARANCE2)
            };
            if (0..p.len()).any(|f| f != a && f != b && near(f)) {
                return false;
            }
            for (x, y) in [(a, b), (b, a)] {
                let others = placed
                    .clone()
                    .filter_map(|&(c, d)| (c == x).then_some(d).or((d == x).then_some(c)));
                let dir = |z: usize| ((p[z].0 - p[x].0) as f64, (p[z].1 - p[x].1) as f64);
                let (v, vl) = (dir(y), (dir(y).0.powi(2) + dir(y).1.powi(2)).sqrt());
                for w in others {
                    let (u, ul) = (dir(w), (dir(w).0.powi(2) + dir(w).1.powi(2)).sqrt());
                    if (u.0 * v.0 + u.1 * v.1) / (ul * vl) > min_cos {
                        return false;
                    }
                }
            }
            added.push((a, b));
        }
        true
    }

    /// Adds (or removes) the roads of an orbit to the adjacency lists.
    fn link(&mut self, orbit: &[(usize, usize)], present: bool) {
        for &(a, b) in orbit {
            if present {
                self.adj[a].push(b);
                self.adj[b].push(a);
            } else {
                self.adj[a].retain(|&x| x != b);
                self.adj[b].retain(|&x| x != a);
            }
        }
    }

    fn add(&mut self, orbit: Vec<(usize, usize)>) {
        self.link(&orbit, true);
        self.orbits.push(orbit);
    }

    fn len(&self, (a, b): (usize, usize)) -> u64 {
        road_length(self.pts[a].0 - self.pts[b].0, self.pts[a].1 - self.pts[b].1)
    }

    /// True when every copy of the orbit has the same length.
    fn even(&self, orbit: &[(usize, usize)]) -> bool {
        orbit.iter().all(|&r| self.len(r) == self.len(orbit[0]))
    }

    /// Adds the orbit if its copies have equal lengths and it [fits](Draft::fits).
    fn try_add(&mut self, orbit: Vec<(usize, usize)>, strict: bool, min_cos: f64) -> bool {
        let ok = self.even(&orbit) && self.fits(&orbit, strict, min_cos);
        if ok {
            self.add(orbit);
        }
        ok
    }

    /// Rounding the turned copies makes some road orbits uneven. Moves forts by at most
    /// a step from where they were first put, only for the better, to make as many of
    /// the given candidate orbits even as it can. Copies related by an exact quarter or
    /// half turn move together, so what rounding kept exact stays exact.
    fn settle(&mut self, candidates: &[Vec<(usize, usize)>]) {
        let n = self.seats;
        let exact = if n % 4 == 0 {
            4
        } else if n % 2 == 0 {
            2
        } else {
            1
        };
        let mut groups: Vec<Vec<(usize, usize)>> = Vec::new();
        for &(base, size) in self.blocks.iter().filter(|b| b.1 > 1) {
            let step = size / exact;
            groups.extend((0..step).map(|s| {
                (0..exact)
                    .map(|t| (base + s + t * step, t * 4 / exact))
                    .collect()
            }));
        }
        let mut touching = vec![Vec::new(); self.pts.len()];
        for (k, orbit) in candidates.iter().enumerate() {
            for &(a, b) in orbit {
                touching[a].push(k);
                touching[b].push(k);
            }
        }
        let orig = self.pts.clone();
        // Each orbit counts its copies of the most common length, and double when even.
        let score = |d: &Draft, ks: &[usize]| -> usize {
            ks.iter()
                .map(|&k| {
                    let mut lens: Vec<u64> = candidates[k].iter().map(|&r| d.len(r)).collect();
                    lens.sort_unstable();
                    let most = lens
                        .chunk_by(|a, b| a == b)
                        .map(<[u64]>::len)
                        .max()
                        .unwrap_or(0);
                    if most == lens.len() {
                        2 * most
                    } else {
                        most
                    }
                })
                .sum()
        };
        let quarter = |(x, y): Point, q: usize| match q {
            0 => (x, y),
            1 => (-y, x),
            2 => (-x, -y),
            _ => (y, -x),
        };
        for _ in 0..4 {
            let mut moved = false;
            for group in &groups {
                let mut ks: Vec<usize> = group
                    .iter()
                    .flat_map(|&(f, _)| touching[f].iter().copied())
                    .collect();
                ks.sort_unstable();
                ks.dedup();
                let here: Vec<Point> = group.iter().map(|&(f, _)| self.pts[f]).collect();
                let mut best = (score(self, &ks), (0, 0), true);
                for step in (-R..=R).flat_map(|dx| (-R..=R).map(move |dy| (dx, dy))) {
                    for &(f, q) in group {
                        let d = quarter(step, q);
                        self.pts[f] = (orig[f].0 + d.0, orig[f].1 + d.1);
                    }
                    let spaced = group.iter().all(|&(f, _)| {
                        (0..self.pts.len())
                            .all(|g| g == f || dist2(self.pts[g], self.pts[f]) >= MIN_GAP2)
                    });
                    let sc = score(self, &ks);
                    if spaced && sc > best.0 {
                        best = (sc, step, false);
                    }
                }
                for (i, &(f, q)) in group.iter().enumerate() {
                    let d = quarter(best.1, q);
                    self.pts[f] = if best.2 {
                        here[i]
                    } else {
                        (orig[f].0 + d.0, orig[f].1 + d.1)
                    };
                }
                moved |= !best.2 && self.pts[group[0].0] != here[0];
            }
            if !moved {
                break;
            }
        }
    }

    /// True for a fort with fewer roads than it should have: three for a home, two
    /// for the others.
    fn needy(&self, f: usize) -> bool {
        self.adj[f].len() < if f < self.seats { 3 } else { 2 }
    }

    /// Component label of every fort.
    fn components(&self) -> Vec<usize> {
        let mut label = vec![usize::MAX; self.pts.len()];
        for s in 0..self.pts.len() {
            if label[s] != usize::MAX {
                continue;
            }
            let mut stack = vec![s];
            label[s] = s;
            while let Some(u) = stack.pop() {
                for &v in &self.adj[u] {
                    if label[v] == usize::MAX {
                        label[v] = s;
                        stack.push(v);
                    }
                }
            }
        }
        label
    }

    /// Candidate road orbits between forts at most `max2` apart (squared) that do not
    /// join two homes, shortest first.
    fn candidates(&self, homes: usize, max2: i64) -> Vec<Vec<(usize, usize)>> {
        let p = &self.pts;
        let mut out = Vec::new();
        for u in 0..p.len() {
            for v in u + 1..p.len() {
                if dist2(p[u], p[v]) > max2 || (u < homes && v < homes) {
                    continue;
                }
                let orbit = self.orbit(u, v);
                if orbit[0] == (u, v) {
                    let far = orbit.iter().map(|&(a, b)| dist2(p[a], p[b])).max();
                    out.push((far, orbit));
                }
            }
        }
        out.sort();
        out.into_iter().map(|(_, o)| o).collect()
    }
}

/// One try at a map; `None` when this draw does not work out.
fn attempt_map(n: usize, forts: usize, attempt: u32, rng: &mut ChaCha8Rng) -> Option<(Map, usize)> {
    let turns: Vec<(f64, f64)> = (0..n)
        .map(|s| cos_sin(2.0 * PI * s as f64 / n as f64))
        .collect();
    // A point's orbit, and how far rounding moved its copies (squared, summed).
    let orbit_of = |(x, y): Point| -> (f64, Vec<Point>) {
        let (x, y) = (x as f64, y as f64);
        let turned = turns.iter().map(|&(c, s)| (c * x - s * y, s * x + c * y));
        let err = turned
            .clone()
            .map(|(u, v)| (u - u.round()).powi(2) + (v - v.round()).powi(2))
            .sum();
        (
            err,
            turned
                .map(|(u, v)| (u.round() as i64, v.round() as i64))
                .collect(),
        )
    };
    let radius = (forts as f64 * AREA_PER_FORT / PI).sqrt() * (1.0 + 0.01 * f64::from(attempt));
    let round = |(x, y): (f64, f64)| (x.round() as i64, y.round() as i64);
    let fits = |placed: &[Vec<Point>], new: &[Point]| {
        new.iter().enumerate().all(|(i, &q)| {
            new[..i]
                .iter()
                .chain(placed.iter().flatten())
                .all(|&o| dist2(o, q) >= MIN_GAP2)
        })
    };
    // Of the first few orbits that keep their distance, the one rounding moves least.
    let pick =
        |rng: &mut ChaCha8Rng, placed: &[Vec<Point>], draw: &dyn Fn(&mut ChaCha8Rng) -> Point| {
            let fitting = (0..400)
                .map(|_| orbit_of(draw(rng)))
                .filter(|o| fits(placed, &o.1));
            fitting
                .take(PICK)
                .min_by(|a, b| a.0.total_cmp(&b.0))
                .map(|o| o.1)
        };

    // Homes, then the centre, then neutral orbits (listed from the centre outwards).
    let home_radius = radius * rng.gen_range(0.55..0.8);
    let home = pick(rng, &[], &|rng: &mut ChaCha8Rng| {
        let (x, y) = in_disc(rng, 1.0, 0.2);
        let r = home_radius / (x * x + y * y).sqrt();
        round((x * r, y * r))
    })?;
    let mut placed = vec![home];
    if forts % n == 1 {
        placed.push(vec![(0, 0)]);
    }
    let fixed = placed.len();
    for _ in 1..forts / n {
        let orbit = pick(rng, &placed, &|rng: &mut ChaCha8Rng| {
            round(in_disc(rng, radius, 0.0))
        })?;
        placed.push(orbit);
    }
    placed[fixed..].sort_by_key(|o| (dist2(o[0], (0, 0)), o[0]));

    let mut turn = Vec::with_capacity(forts);
    for o in &placed {
        let base = turn.len();
        turn.extend((0..o.len()).map(|s| base + (s + 1) % o.len()));
    }
    let pts: Vec<Point> = placed.iter().flatten().copied().collect();
    let mut draft = Draft {
        adj: vec![Vec::new(); pts.len()],
        seats: n,
        blocks: placed
            .iter()
            .scan(0, |at, o| {
                *at += o.len();
                Some((*at - o.len(), o.len()))
            })
            .collect(),
        pts,
        turn,
        orbits: Vec::new(),
    };

    // Short roads with good angles; longer ones for forts with too few roads (homes
    // want three, others two); then whatever joins what is still apart.
    let min_cos = cos_sin(rng.gen_range(20.0..32.0) * PI / 180.0).0;
    let short = draft.candidates(n, (SHORT_ROAD * SHORT_ROAD) as i64);
    draft.settle(&short);
    for orbit in short {
        draft.try_add(orbit, true, min_cos);
    }
    for orbit in draft.candidates(n, (9.0 * SHORT_ROAD * SHORT_ROAD) as i64) {
        if orbit.iter().any(|&(a, b)| draft.needy(a) || draft.needy(b)) {
            draft.try_add(orbit, false, cos_sin(PI / 18.0).0);
        }
    }
    let mut label = draft.components();
    if label.iter().any(|&l| l != 0) {
        for orbit in draft.candidates(n, i64::MAX) {
            if orbit.iter().any(|&(a, b)| label[a] != label[b]) && draft.try_add(orbit, false, 1.0)
            {
                label = draft.components();
                if label.iter().all(|&l| l == 0) {
                    break;
                }
            }
        }
    }

    // Drop some orbits for variety, keeping the map connected, forts well linked and
    // at least MIN_ROADS_PER_FORT roads per fort.
    let drop_chance = rng.gen_range(0.1..0.3);
    for i in (0..draft.orbits.len()).rev() {
        let roads: usize = draft.orbits.iter().map(Vec::len).sum::<usize>() - draft.orbits[i].len();
        if !rng.gen_bool(drop_chance) || (roads as f64) < MIN_ROADS_PER_FORT * forts as f64 {
            continue;
        }
        let orbit = draft.orbits[i].clone();
        draft.link(&orbit, false);
        let needy = orbit.iter().any(|&(a, b)| draft.needy(a) || draft.needy(b));
        if !needy && draft.components().iter().all(|&l| l == 0) {
            draft.orbits.remove(i);
        } else {
            draft.link(&orbit, true);
        }
    }

    let map = finish(&draft, &placed, n, rng);
    let needy = (0..draft.pts.len()).filter(|&f| draft.needy(f)).count();
    check_layout(&map).is_ok().then_some((map, needy))
}

/// Names, garrisons and owners; moves the map to non-negative coordinates.
fn finish(draft: &Draft, placed: &[Vec<Point>], n: usize, rng: &mut ChaCha8Rng) -> Map {
    let (min_x, min_y) = draft
        .pts
        .iter()
        .fold((i64::MAX, i64::MAX), |(x, y), p| (x.min(p.0), y.min(p.1)));
    let mut names = BTreeSet::new();
    let mut forts = Vec::with_capacity(draft.pts.len());
    for (k, orbit) in placed.iter().enumerate() {
        let garrison = match (k, orbit.len()) {
            (0, _) => HOME_GARRISON,
            (_, 1) => rng.gen_range(20..=40),
            _ => rng.gen_range(0..=MAX_NEUTRAL_GARRISON),
        };
        for s in 0..orbit.len() {
            let (x, y) = draft.pts[forts.len()];
            forts.push(Fort {
                name: fort_name(rng, &mut names),
                x: x - min_x,
                y: y - min_y,
                owner: if k == 0 {
                    Owner::Seat(Seat(s))
                } else {
                    Owner::Neutral
                },
                garrison,
            });
        }
    }
    let roads = draft
        .orbits
        .iter()
        .flatten()
        .map(|&(a, b)| {
            let (p, q) = (draft.pts[a], draft.pts[b]);
            let length = road_length(p.0 - q.0, p.1 - q.1);
            Road {
                a: FortId(a),
                b: FortId(b),
                length: u32::try_from(length).unwrap_or(u32::MAX),
            }
        })
        .collect();
    Map {
        forts,
        roads,
        marches: Vec::new(),
        seats: (1..=n).map(|i| format!("p{i}")).collect(),
    }
}

/// A new pronounceable fort name, not yet in `taken`.
fn fort_name(rng: &mut ChaCha8Rng, taken: &mut BTreeSet<String>) -> String {
    const ONSETS: [&str; 24] = [
        "b", "d", "f", "g", "h", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z", "br", "dr",
        "gr", "kr", "st", "tr", "sk", "th", "sh",
    ];
    const VOWELS: [&str; 8] = ["a", "e", "i", "o", "u", "a", "ai", "ou"];
    const CODAS: [&str; 9] = ["", "", "", "n", "r", "l", "s", "k", "m"];
    let pick = |rng: &mut ChaCha8Rng, list: &[&'static str]| {
        list[rng.gen_range(0..list.len() as u32) as usize]
    };
    for tries in 0.. {
        let mut name = String::new();
        for _ in 0..2 + tries / 20 {
            name.push_str(pick(rng, &ONSETS));
            name.push_str(pick(rng, &VOWELS));
        }
        name.push_str(pick(rng, &CODAS));
        if name != crate::map::NEUTRAL && taken.insert(name.clone()) {
            return name;
        }
    }
    unreachable!("names run out only after infinitely many tries")
}
