//! Roads for a map being drawn: candidate orbits of roads, the checks that let one in,
//! the small moves that make rounded copies of a road equally long, and the long roads
//! that join what is still apart.

use super::{MIN_GAP2, SETTLE_STEP};
use crate::geometry::{on_segment, roads_cross, Point};
use crate::map::road_length;

/// Roads of the first pass keep this squared distance from other forts.
const CLEARANCE2: f64 = 2.0;

/// Squared distance between two points.
pub(super) fn dist2(a: Point, b: Point) -> i64 {
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

/// A step `(x, y)` turned by `q` quarter turns.
fn quarter((x, y): Point, q: usize) -> Point {
    match q {
        0 => (x, y),
        1 => (-y, x),
        2 => (-x, -y),
        _ => (y, -x),
    }
}

/// A map being drawn, coordinates relative to the centre.
pub(super) struct Draft {
    /// Fort positions, relative to the centre of the rotation.
    pub(super) pts: Vec<Point>,
    /// The rotation by one seat as a fort permutation.
    pub(super) turn: Vec<usize>,
    /// Roads, one orbit per entry.
    pub(super) orbits: Vec<Vec<(usize, usize)>>,
    /// The forts each fort has a road to.
    pub(super) adj: Vec<Vec<usize>>,
    /// The forts in orbits: `(first fort, orbit size)`.
    pub(super) blocks: Vec<(usize, usize)>,
    /// The number of seats; forts `0..seats` are the homes.
    pub(super) seats: usize,
}

impl Draft {
    /// A draft without roads on the forts of `placed`, listed orbit by orbit, each
    /// orbit in seat order.
    pub(super) fn new(placed: &[Vec<Point>], seats: usize) -> Draft {
        let mut turn = Vec::with_capacity(placed.iter().map(Vec::len).sum());
        for o in placed {
            let base = turn.len();
            turn.extend((0..o.len()).map(|s| base + (s + 1) % o.len()));
        }
        let pts: Vec<Point> = placed.iter().flatten().copied().collect();
        Draft {
            adj: vec![Vec::new(); pts.len()],
            seats,
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
        }
    }

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
    pub(super) fn link(&mut self, orbit: &[(usize, usize)], present: bool) {
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
    pub(super) fn try_add(
        &mut self,
        orbit: Vec<(usize, usize)>,
        strict: bool,
        min_cos: f64,
    ) -> bool {
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
    pub(super) fn settle(&mut self, candidates: &[Vec<(usize, usize)>]) {
        let groups = self.rigid_groups();
        let mut touching = vec![Vec::new(); self.pts.len()];
        for (k, orbit) in candidates.iter().enumerate() {
            for &(a, b) in orbit {
                touching[a].push(k);
                touching[b].push(k);
            }
        }
        let orig = self.pts.clone();
        for _ in 0..4 {
            let mut moved = false;
            for group in &groups {
                let mut ks: Vec<usize> = group
                    .iter()
                    .flat_map(|&(f, _)| touching[f].iter().copied())
                    .collect();
                ks.sort_unstable();
                ks.dedup();
                moved |= self.settle_group(group, &orig, candidates, &ks);
            }
            if !moved {
                break;
            }
        }
    }

    /// The forts that move together when settling, each with the quarter turns that
    /// take the group's step to its own: copies an exact quarter turn relates when the
    /// seats are a multiple of four, an exact half turn when even, else each alone.
    fn rigid_groups(&self) -> Vec<Vec<(usize, usize)>> {
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
        groups
    }

    /// Tries every step of at most [`SETTLE_STEP`] for one group, from where its forts
    /// were first put (`orig`), and keeps the one that makes the candidate orbits it
    /// touches (`ks`) the most even while every fort keeps its distance; stays put when
    /// nothing is better. True when the group moved.
    fn settle_group(
        &mut self,
        group: &[(usize, usize)],
        orig: &[Point],
        candidates: &[Vec<(usize, usize)>],
        ks: &[usize],
    ) -> bool {
        let here: Vec<Point> = group.iter().map(|&(f, _)| self.pts[f]).collect();
        let mut best = (self.evenness(candidates, ks), (0, 0), true);
        let r = SETTLE_STEP;
        for step in (-r..=r).flat_map(|dx| (-r..=r).map(move |dy| (dx, dy))) {
            for &(f, q) in group {
                let d = quarter(step, q);
                self.pts[f] = (orig[f].0 + d.0, orig[f].1 + d.1);
            }
            let spaced = group.iter().all(|&(f, _)| {
                (0..self.pts.len()).all(|g| g == f || dist2(self.pts[g], self.pts[f]) >= MIN_GAP2)
            });
            let sc = self.evenness(candidates, ks);
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
        !best.2 && self.pts[group[0].0] != here[0]
    }

    /// How even the candidate orbits `ks` are: each counts its copies of the most
    /// common length, and double when they all have it.
    fn evenness(&self, candidates: &[Vec<(usize, usize)>], ks: &[usize]) -> usize {
        ks.iter()
            .map(|&k| {
                let mut lens: Vec<u64> = candidates[k].iter().map(|&r| self.len(r)).collect();
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
    }

    /// Adds long road orbits, shortest first, that join forts still apart, until the
    /// map is connected or no orbit fits.
    pub(super) fn connect(&mut self, homes: usize) {
        let mut label = self.components();
        if label.iter().all(|&l| l == 0) {
            return;
        }
        for orbit in self.candidates(homes, i64::MAX) {
            if orbit.iter().any(|&(a, b)| label[a] != label[b]) && self.try_add(orbit, false, 1.0) {
                label = self.components();
                if label.iter().all(|&l| l == 0) {
                    break;
                }
            }
        }
    }

    /// True for a fort with fewer roads than it should have: three for a home, two
    /// for the others.
    pub(super) fn needy(&self, f: usize) -> bool {
        self.adj[f].len() < if f < self.seats { 3 } else { 2 }
    }

    /// Component label of every fort.
    pub(super) fn components(&self) -> Vec<usize> {
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
    pub(super) fn candidates(&self, homes: usize, max2: i64) -> Vec<Vec<(usize, usize)>> {
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
