//! Exact checks of a map's drawing and of its fairness: crossing roads, roads through
//! forts, connectivity, and the seat rotation that shows every seat starts equally well.
//!
//! All geometry is exact integer arithmetic (cross products in `i128`), so it holds for
//! any coordinates below 2^62 in absolute value. The generator ([`crate::generate`])
//! builds its maps with these same checks, and the server can use them on uploaded maps.

use std::cmp::Ordering;
use std::collections::VecDeque;

use crate::map::{FortId, Map, Owner, RoadId, Seat};

/// A point with integer coordinates.
pub(crate) type Point = (i64, i64);

fn diff(a: Point, b: Point) -> (i128, i128) {
    (a.0 as i128 - b.0 as i128, a.1 as i128 - b.1 as i128)
}

/// Twice the signed area of the triangle `o a b`: positive when `o → a → b` turns left.
fn cross(o: Point, a: Point, b: Point) -> i128 {
    let ((ax, ay), (bx, by)) = (diff(a, o), diff(b, o));
    ax * by - ay * bx
}

/// True when `p` lies on the closed segment `a`–`b`.
pub(crate) fn on_segment(a: Point, b: Point, p: Point) -> bool {
    cross(a, b, p) == 0
        && a.0.min(b.0) <= p.0
        && p.0 <= a.0.max(b.0)
        && a.1.min(b.1) <= p.1
        && p.1 <= a.1.max(b.1)
}

/// True when the closed segments `a`–`b` and `c`–`d` share at least one point.
fn segments_meet(a: Point, b: Point, c: Point, d: Point) -> bool {
    let (d1, d2) = (cross(c, d, a).signum(), cross(c, d, b).signum());
    let (d3, d4) = (cross(a, b, c).signum(), cross(a, b, d).signum());
    (d1 * d2 < 0 && d3 * d4 < 0)
        || (d1 == 0 && on_segment(c, d, a))
        || (d2 == 0 && on_segment(c, d, b))
        || (d3 == 0 && on_segment(a, b, c))
        || (d4 == 0 && on_segment(a, b, d))
}

/// True when two roads, each given as its two `(fort index, position)` ends, share a
/// point other than a common end fort (a proper crossing, a touch, or a collinear overlap).
pub(crate) fn roads_cross(r: [(usize, Point); 2], s: [(usize, Point); 2]) -> bool {
    let shared = |f: usize| f == s[0].0 || f == s[1].0;
    match (shared(r[0].0), shared(r[1].0)) {
        (false, false) => segments_meet(r[0].1, r[1].1, s[0].1, s[1].1),
        (true, true) => true,
        (first, _) => {
            // One common fort: the roads only meet beyond it if they leave it in the
            // same direction.
            let (hub, p) = if first {
                (r[0], r[1].1)
            } else {
                (r[1], r[0].1)
            };
            let q = if s[0].0 == hub.0 { s[1].1 } else { s[0].1 };
            let ((px, py), (qx, qy)) = (diff(p, hub.1), diff(q, hub.1));
            px * qy - py * qx == 0 && px * qx + py * qy > 0
        }
    }
}

fn ends(map: &Map, r: RoadId) -> [(usize, Point); 2] {
    let road = &map.roads[r.0];
    let at = |f: FortId| (f.0, (map.forts[f.0].x, map.forts[f.0].y));
    [at(road.a), at(road.b)]
}

/// The first pair of roads (in map order) that cross, touch or overlap anywhere but at
/// a fort they share, or `None` when the drawing is planar. A road passing through a
/// fort that has roads of its own meets those roads there, so it is reported too; see
/// [`road_through_fort`] for the exact fort.
pub fn crossing_roads(map: &Map) -> Option<(RoadId, RoadId)> {
    let segs: Vec<_> = (0..map.roads.len()).map(|r| ends(map, RoadId(r))).collect();
    let bbox = |s: &[(usize, Point); 2]| {
        let (a, b) = (s[0].1, s[1].1);
        (a.0.min(b.0), a.0.max(b.0), a.1.min(b.1), a.1.max(b.1))
    };
    let boxes: Vec<_> = segs.iter().map(bbox).collect();
    for i in 0..segs.len() {
        for j in i + 1..segs.len() {
            let (p, q) = (boxes[i], boxes[j]);
            let apart = p.1 < q.0 || q.1 < p.0 || p.3 < q.2 || q.3 < p.2;
            if !apart && roads_cross(segs[i], segs[j]) {
                return Some((RoadId(i), RoadId(j)));
            }
        }
    }
    None
}

/// The first road (in map order) that passes through a fort other than its own two ends
/// (including a fort standing on the same spot as one of its ends), with that fort.
pub fn road_through_fort(map: &Map) -> Option<(RoadId, FortId)> {
    map.roads.iter().enumerate().find_map(|(r, road)| {
        let [(_, a), (_, b)] = ends(map, RoadId(r));
        (0..map.forts.len())
            .map(FortId)
            .filter(|&f| f != road.a && f != road.b)
            .find(|f| on_segment(a, b, (map.forts[f.0].x, map.forts[f.0].y)))
            .map(|f| (RoadId(r), f))
    })
}

/// For every fort, its `(neighbour, road)` pairs.
fn neighbours(map: &Map) -> Vec<Vec<(usize, RoadId)>> {
    let mut adj = vec![Vec::new(); map.forts.len()];
    for (r, road) in map.roads.iter().enumerate() {
        adj[road.a.0].push((road.b.0, RoadId(r)));
        adj[road.b.0].push((road.a.0, RoadId(r)));
    }
    adj
}

/// Which forts can be reached by road from the first fort.
fn reached(map: &Map) -> Vec<bool> {
    let adj = neighbours(map);
    let mut seen = vec![false; map.forts.len()];
    let mut queue: VecDeque<usize> = (0..map.forts.len().min(1)).collect();
    seen.iter_mut().take(1).for_each(|s| *s = true);
    while let Some(u) = queue.pop_front() {
        for &(v, _) in &adj[u] {
            if !std::mem::replace(&mut seen[v], true) {
                queue.push_back(v);
            }
        }
    }
    seen
}

/// True when every fort can be reached from every other by road (a map without forts
/// counts as connected).
pub fn is_connected(map: &Map) -> bool {
    reached(map).into_iter().all(|r| r)
}

/// Orders direction vectors counter-clockwise, starting from the positive x axis.
fn ccw(a: (i128, i128), b: (i128, i128)) -> Ordering {
    let half = |v: (i128, i128)| v.1 < 0 || (v.1 == 0 && v.0 < 0);
    half(a)
        .cmp(&half(b))
        .then_with(|| 0.cmp(&(a.0 * b.1 - a.1 * b.0)))
}

/// The darts (directed roads) of a map with the counter-clockwise order around each fort.
struct Darts {
    /// Neighbours of each fort in counter-clockwise order, with the road to them.
    around: Vec<Vec<(usize, RoadId)>>,
    /// For each road, its index in `around` at its `a` end and at its `b` end.
    at: Vec<[usize; 2]>,
}

impl Darts {
    fn new(map: &Map) -> Darts {
        let pos = |f: usize| (map.forts[f].x, map.forts[f].y);
        let mut around = neighbours(map);
        for (u, list) in around.iter_mut().enumerate() {
            list.sort_by(|&(v, _), &(w, _)| ccw(diff(pos(v), pos(u)), diff(pos(w), pos(u))));
        }
        let mut at = vec![[0; 2]; map.roads.len()];
        for (u, list) in around.iter().enumerate() {
            for (i, &(_, r)) in list.iter().enumerate() {
                at[r.0][usize::from(map.roads[r.0].a.0 != u)] = i;
            }
        }
        Darts { around, at }
    }

    /// The dart opposite to dart `i` of fort `u`: `(v, index of u around v)`.
    fn twin(&self, map: &Map, u: usize, i: usize) -> (usize, usize) {
        let (v, r) = self.around[u][i];
        (v, self.at[r.0][usize::from(map.roads[r.0].a.0 != v)])
    }

    /// Extends "dart `i` of `u` goes to dart `j` of `image`" to the whole map, turning
    /// the same way (or the mirrored way) around every fort, and checks that forts, roads
    /// and marches match with owners moved one seat on.
    fn extend(
        &self,
        map: &Map,
        (u, i): (usize, usize),
        (image, j): (usize, usize),
        mirrored: bool,
    ) -> Option<Vec<FortId>> {
        let seats = map.seats.len();
        let next = |o: Owner| match o {
            Owner::Neutral => Owner::Neutral,
            Owner::Seat(s) => Owner::Seat(Seat((s.0 + 1) % seats)),
        };
        let n = map.forts.len();
        let (mut to, mut from) = (vec![usize::MAX; n], vec![usize::MAX; n]);
        let mut dart_to: Vec<Vec<Option<usize>>> =
            self.around.iter().map(|l| vec![None; l.len()]).collect();
        let mut queue = VecDeque::from([(u, i, image, j)]);
        while let Some((u, i, v, j)) = queue.pop_front() {
            if let Some(k) = dart_to[u][i] {
                if k != j {
                    return None;
                }
                continue;
            }
            if to[u] == usize::MAX {
                let (f, g) = (&map.forts[u], &map.forts[v]);
                let alike = from[v] == usize::MAX
                    && self.around[u].len() == self.around[v].len()
                    && f.garrison == g.garrison
                    && next(f.owner) == g.owner;
                if !alike {
                    return None;
                }
                (to[u], from[v]) = (v, u);
            } else if to[u] != v {
                return None;
            }
            dart_to[u][i] = Some(j);
            let (r, s) = (self.around[u][i].1, self.around[v][j].1);
            if map.roads[r.0].length != map.roads[s.0].length {
                return None;
            }
            let d = self.around[u].len();
            let turned = if mirrored {
                (j + d - 1) % d
            } else {
                (j + 1) % d
            };
            queue.push_back((u, (i + 1) % d, v, turned));
            let ((u2, i2), (v2, j2)) = (self.twin(map, u, i), self.twin(map, v, j));
            queue.push_back((u2, i2, v2, j2));
        }
        if to.contains(&usize::MAX) {
            return None;
        }
        let march = |m: &crate::map::MapMarch, f: &dyn Fn(usize) -> usize, o: Seat| {
            (
                f(m.origin.0),
                f(m.destination.0),
                o.0,
                m.size,
                m.remaining_steps,
            )
        };
        let mut moved: Vec<_> = map
            .marches
            .iter()
            .map(|m| march(m, &|x| to[x], Seat((m.owner.0 + 1) % seats)))
            .collect();
        let mut had: Vec<_> = map
            .marches
            .iter()
            .map(|m| march(m, &|x| x, m.owner))
            .collect();
        moved.sort_unstable();
        had.sort_unstable();
        (moved == had).then(|| to.into_iter().map(FortId).collect())
    }
}

/// Checks that every seat starts equally well: returns a permutation `p` of the forts
/// (fort `f` goes to `p[f]`) that moves every seat's forts to the next seat's (the last
/// seat's to the first's) and neutral forts to neutral forts, keeps garrisons, takes
/// every road to a road of the same length and every march to an equal march of the
/// next seat. Then every seat has the same position, up to renaming.
///
/// The search follows the drawing: it looks for a rotation (or mirror image) of the
/// plane graph, which keeps the order of roads around each fort. Every map drawn with a
/// rotational or mirror symmetry qualifies, and the search is linear in the map size
/// for each candidate start. Maps with fewer than two seats get the identity;
/// disconnected maps get `None`.
pub fn seat_rotation(map: &Map) -> Option<Vec<FortId>> {
    if map.seats.len() < 2 {
        return Some((0..map.forts.len()).map(FortId).collect());
    }
    let darts = Darts::new(map);
    let start = map
        .forts
        .iter()
        .position(|f| f.owner == Owner::Seat(Seat(0)))?;
    if darts.around[start].is_empty() {
        return None;
    }
    let targets = map
        .forts
        .iter()
        .enumerate()
        .filter(|(_, f)| f.owner == Owner::Seat(Seat(1)))
        .map(|(v, _)| v);
    for v in targets {
        for j in 0..darts.around[v].len() {
            for mirrored in [false, true] {
                if let Some(p) = darts.extend(map, (start, 0), (v, j), mirrored) {
                    return Some(p);
                }
            }
        }
    }
    None
}

/// Why a map's drawing or fairness is not acceptable, naming the forts involved.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LayoutError {
    /// Two roads cross, touch or overlap away from a common fort.
    #[error("road {0} crosses road {1}")]
    Crossing(String, String),
    /// A road passes through a fort that is not one of its ends.
    #[error("road {road} passes through fort `{fort}`")]
    ThroughFort { road: String, fort: String },
    /// Some fort cannot be reached by road.
    #[error("fort `{unreached}` cannot be reached by road from fort `{from}`")]
    Disconnected { unreached: String, from: String },
    /// No symmetry takes every seat's start to the next seat's.
    #[error("the seats do not start equally: no rotation of the map takes each seat's forts to the next seat's with the same roads, road lengths and garrisons")]
    Unfair,
}

/// Checks everything a playable map needs beyond parsing: no road passes through a fort,
/// no two roads cross, every fort is reachable, and [`seat_rotation`] finds a symmetry.
pub fn check_layout(map: &Map) -> Result<(), LayoutError> {
    let fort = |f: FortId| map.forts[f.0].name.clone();
    let road = |r: RoadId| format!("`{}`-`{}`", fort(map.roads[r.0].a), fort(map.roads[r.0].b));
    if let Some((r, f)) = road_through_fort(map) {
        return Err(LayoutError::ThroughFort {
            road: road(r),
            fort: fort(f),
        });
    }
    if let Some((r, s)) = crossing_roads(map) {
        return Err(LayoutError::Crossing(road(r), road(s)));
    }
    if let Some(u) = reached(map).iter().position(|&r| !r) {
        return Err(LayoutError::Disconnected {
            unreached: fort(FortId(u)),
            from: fort(FortId(0)),
        });
    }
    seat_rotation(map).map(|_| ()).ok_or(LayoutError::Unfair)
}
