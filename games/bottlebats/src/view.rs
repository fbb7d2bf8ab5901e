//! Fog of war and the state text (games/bottlebats/rules.md §5, §8).
//!
//! A player sees every road touching a fort it owns, the forts at both ends of those
//! roads, and every march on them. Output order is deterministic: forts and roads in
//! map order, road endpoints in map order, marches grouped by road in map order
//! (heading to the road's first fort, then to its second, each by increasing remaining
//! steps).

use std::fmt::Write as _;

use crate::game::{Game, RoadMarches};
use crate::map::{write_fort, write_march, Map, Owner, Seat, NEUTRAL};

/// A board to print: the map and the changing parts of one moment of a game.
#[derive(Clone, Copy)]
pub struct Snapshot<'a> {
    pub map: &'a Map,
    pub names: &'a [String],
    pub owners: &'a [Owner],
    pub garrisons: &'a [u64],
    pub roads: &'a [RoadMarches],
}

impl Game {
    /// The board as it stands now.
    pub fn snapshot(&self) -> Snapshot<'_> {
        Snapshot {
            map: self.map(),
            names: self.names(),
            owners: self.owners(),
            garrisons: self.garrisons(),
            roads: self.road_marches(),
        }
    }

    /// The state text player `seat` receives this turn.
    pub fn state_for(&self, seat: Seat) -> String {
        let mut out = String::new();
        self.snapshot().write(Some(seat), &mut out);
        out
    }
}

impl Snapshot<'_> {
    fn owner_name(&self, o: Owner) -> &str {
        match o {
            Owner::Neutral => NEUTRAL,
            Owner::Seat(s) => &self.names[s.0],
        }
    }

    /// Writes the three sections: what `viewer` sees, or with `None` the full board
    /// (every fort that has a road, every road, every march) as the classic log has it.
    pub fn write(&self, viewer: Option<Seat>, out: &mut String) {
        let map = self.map;
        let mut road_seen = vec![false; map.roads.len()];
        let mut fort_seen = vec![false; map.forts.len()];
        for (i, r) in map.roads.iter().enumerate() {
            let visible = match viewer {
                None => true,
                Some(s) => {
                    self.owners[r.a.0] == Owner::Seat(s) || self.owners[r.b.0] == Owner::Seat(s)
                }
            };
            if visible {
                road_seen[i] = true;
                fort_seen[r.a.0] = true;
                fort_seen[r.b.0] = true;
            }
        }

        let forts = fort_seen.iter().filter(|&&s| s).count();
        let _ = writeln!(out, "{forts} forts:");
        for (i, f) in map.forts.iter().enumerate().filter(|(i, _)| fort_seen[*i]) {
            write_fort(out, f, self.owner_name(self.owners[i]), self.garrisons[i]);
        }
        let roads = road_seen.iter().filter(|&&s| s).count();
        let _ = writeln!(out, "{roads} roads:");
        for (_, r) in map.roads.iter().enumerate().filter(|(i, _)| road_seen[*i]) {
            let _ = writeln!(out, "{} {}", map.forts[r.a.0].name, map.forts[r.b.0].name);
        }
        let marches: usize = self
            .roads
            .iter()
            .zip(&road_seen)
            .filter(|(_, &s)| s)
            .map(|(r, _)| r.toward_a.len() + r.toward_b.len())
            .sum();
        let _ = writeln!(out, "{marches} marches:");
        for (i, r) in map.roads.iter().enumerate().filter(|(i, _)| road_seen[*i]) {
            let (a, b) = (&map.forts[r.a.0].name, &map.forts[r.b.0].name);
            let on_road = &self.roads[i];
            for (list, from, to) in [(&on_road.toward_a, b, a), (&on_road.toward_b, a, b)] {
                for m in list {
                    write_march(out, [from, to], self.owner_name(m.owner), m.size, m.pos / 2);
                }
            }
        }
    }
}
