//! Seeded random planar maps with fair starts.
//!
//! [`generate`] places forts in orbits of the rotation by one seat (`360° / players`
//! around a centre): one home orbit (a home fort of 100 soldiers per seat), an optional
//! neutral centre fort (when the fort count is one more than a multiple of the players),
//! and neutral orbits scattered over a disc with a minimum gap between forts. Every orbit
//! is one point turned and rounded to integers for each seat; of a few candidate points
//! the one whose turned copies land nearest to integers is kept.
//!
//! Turning by 120°, 60°, 45° or 72° cannot be exact on integers, so the copies of a road
//! may differ in length. Forts are first nudged by at most a step (copies that an exact
//! half or quarter turn relates move together) to make as many short road orbits as
//! possible equally long in every copy. Roads are then added whole orbits at a time,
//! shortest first, when every copy has the same length, crosses nothing, keeps clear of
//! other forts and makes a fair angle with the roads already there; longer orbits serve
//! forts left with too few roads and join what is still apart; then a few orbits are
//! dropped for variety while the map stays connected and forts keep two roads (homes
//! three).
//!
//! The result is verified exactly with [`check_layout`]: no crossings, connected, and
//! [`seat_rotation`] finds the symmetry that takes seat i's start to seat i+1's with
//! equal roads, lengths and garrisons. A draw that fails is redrawn from the same seeded
//! stream, and of the first few good draws the one with fewest forts short of roads is
//! kept, so a seed always gives the same map. The arithmetic uses only `+ - * /`,
//! `sqrt` and `round` (no platform `sin`/`cos`), and no hash map order reaches the output.

use std::collections::BTreeSet;
use std::f64::consts::PI;
use std::ops::RangeInclusive;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

mod draft;

use crate::geometry::Point;
pub use crate::geometry::{
    check_layout, crossing_roads, is_connected, road_through_fort, seat_rotation, LayoutError,
};
use crate::map::{road_length, Fort, FortId, Map, Owner, Road, Seat};
use draft::{dist2, Draft};

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
/// How far (in each coordinate) a fort may move from where rounding put it, to give
/// the copies of its roads equal lengths.
const SETTLE_STEP: i64 = 1;
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
            // The nearest counts that work on either side (both below near the cap).
            let (mut below, mut above) = (forts - forts % n + 1, forts - forts % n + n);
            if above > MAX_FORTS {
                (below, above) = (below - 1, below);
            }
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
    /// The forts cannot be shared out equally among the seats; `below` and `above`
    /// are nearby counts that can.
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

/// One try at a map; `None` when this draw does not work out. The steps draw from
/// `rng` in this order, so a seed always gives the same map.
fn attempt_map(n: usize, forts: usize, attempt: u32, rng: &mut ChaCha8Rng) -> Option<(Map, usize)> {
    let placed = place_orbits(n, forts, attempt, rng)?;
    let mut draft = Draft::new(&placed, n);
    add_roads(&mut draft, n, rng);
    drop_for_variety(&mut draft, forts, rng);
    let map = finish(&draft, &placed, n, rng);
    let needy = (0..draft.pts.len()).filter(|&f| draft.needy(f)).count();
    check_layout(&map).is_ok().then_some((map, needy))
}

/// The forts, orbit by orbit, relative to the centre: the homes, then the centre fort
/// when the count asks for one, then neutral orbits listed from the centre outwards.
/// `None` when some orbit finds no room.
fn place_orbits(
    n: usize,
    forts: usize,
    attempt: u32,
    rng: &mut ChaCha8Rng,
) -> Option<Vec<Vec<Point>>> {
    let rotation = Rotation::new(n);
    let radius = (forts as f64 * AREA_PER_FORT / PI).sqrt() * (1.0 + 0.01 * f64::from(attempt));
    let home_radius = radius * rng.gen_range(0.55..0.8);
    let home = rotation.pick(rng, &[], &|rng: &mut ChaCha8Rng| {
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
        let orbit = rotation.pick(rng, &placed, &|rng: &mut ChaCha8Rng| {
            round(in_disc(rng, radius, 0.0))
        })?;
        placed.push(orbit);
    }
    placed[fixed..].sort_by_key(|o| (dist2(o[0], (0, 0)), o[0]));
    Some(placed)
}

/// The rotation by one seat, `360° / seats` around the centre, as its powers.
struct Rotation {
    /// `(cos, sin)` of the turn by `s` seats, for every seat `s`.
    turns: Vec<(f64, f64)>,
}

impl Rotation {
    fn new(seats: usize) -> Rotation {
        Rotation {
            turns: (0..seats)
                .map(|s| cos_sin(2.0 * PI * s as f64 / seats as f64))
                .collect(),
        }
    }

    /// A point's orbit, and how far rounding moved its copies (squared, summed).
    fn orbit_of(&self, (x, y): Point) -> (f64, Vec<Point>) {
        let (x, y) = (x as f64, y as f64);
        let turned = self
            .turns
            .iter()
            .map(|&(c, s)| (c * x - s * y, s * x + c * y));
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
    }

    /// Of the first few orbits of drawn points that keep their distance from the
    /// `placed` ones, the one rounding moves least.
    fn pick(
        &self,
        rng: &mut ChaCha8Rng,
        placed: &[Vec<Point>],
        draw: &dyn Fn(&mut ChaCha8Rng) -> Point,
    ) -> Option<Vec<Point>> {
        let fitting = (0..400)
            .map(|_| self.orbit_of(draw(rng)))
            .filter(|o| fits(placed, &o.1));
        fitting
            .take(PICK)
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .map(|o| o.1)
    }
}

/// True when the forts of `new` keep [`MIN_GAP2`] from each other and from every
/// `placed` fort.
fn fits(placed: &[Vec<Point>], new: &[Point]) -> bool {
    new.iter().enumerate().all(|(i, &q)| {
        new[..i]
            .iter()
            .chain(placed.iter().flatten())
            .all(|&o| dist2(o, q) >= MIN_GAP2)
    })
}

fn round((x, y): (f64, f64)) -> Point {
    (x.round() as i64, y.round() as i64)
}

/// Roads, whole orbits at a time: short ones with good angles (the forts first settled
/// to make more of them even); longer ones for forts with too few roads (homes want
/// three, others two); then whatever joins what is still apart.
fn add_roads(draft: &mut Draft, n: usize, rng: &mut ChaCha8Rng) {
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
    draft.connect(n);
}

/// Drops some orbits for variety, keeping the map connected, forts well linked and
/// at least [`MIN_ROADS_PER_FORT`] roads per fort.
fn drop_for_variety(draft: &mut Draft, forts: usize, rng: &mut ChaCha8Rng) {
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
