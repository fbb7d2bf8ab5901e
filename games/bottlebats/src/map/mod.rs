//! The text format shared by map files, bot states and the classic log
//! (games/bottlebats/rules.md §2): lenient parsing with line-numbered errors, exact printing, and
//! seats.
//!
//! A [`Map`] is checked: every road joins two distinct known forts at a positive
//! distance, no fort or road is listed twice, and every march stands on a road and
//! belongs to a seat. Owners in a map file are placeholders; the distinct
//! non-`neutral` owner names, in order of first appearance, are the map's seats.
//!
//! Reading is in two steps: `sections.rs` splits the text into its sections of lines
//! (headers, counts, `end`, comments), then `parse.rs` reads forts, roads and marches
//! line by line and checks each against what came before.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

mod parse;
mod sections;

pub use sections::{is_ignored, parse_header, Count};

/// Index of a fort in map order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct FortId(pub usize);

/// Index of a road in map order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct RoadId(pub usize);

/// A seat of a map (or, once bound, the player sitting in it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Seat(pub usize);

/// Who holds a fort or a march.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Owner {
    Neutral,
    Seat(Seat),
}

impl Owner {
    /// The seat, or `None` for neutral.
    pub fn seat(self) -> Option<Seat> {
        match self {
            Owner::Neutral => None,
            Owner::Seat(s) => Some(s),
        }
    }
}

/// A fort as the map places it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fort {
    pub name: String,
    pub x: i64,
    pub y: i64,
    pub owner: Owner,
    pub garrison: u64,
}

/// An undirected road; `a` and `b` keep the order the map wrote them in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Road {
    pub a: FortId,
    pub b: FortId,
    /// `ceil(sqrt(dx² + dy²))`, at least 1.
    pub length: u32,
}

impl Road {
    /// The other end of the road seen from `fort`.
    pub fn other(&self, fort: FortId) -> FortId {
        if fort == self.a {
            self.b
        } else {
            self.a
        }
    }
}

/// A march written in a map file: dispatched at load like a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapMarch {
    pub origin: FortId,
    pub destination: FortId,
    pub owner: Seat,
    pub size: u64,
    /// Steps left to the destination; 0 in the file means the full road length.
    pub remaining_steps: u32,
}

/// A checked map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Map {
    pub forts: Vec<Fort>,
    pub roads: Vec<Road>,
    pub marches: Vec<MapMarch>,
    /// Placeholder owner names, in order of first appearance.
    pub seats: Vec<String>,
}

/// A map file that cannot be used, with the line it stumbled on (1-based; 0 when the
/// problem is the file as a whole).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {reason}")]
pub struct MapError {
    pub line: usize,
    pub reason: String,
}

fn err<T>(line: usize, reason: impl Into<String>) -> Result<T, MapError> {
    Err(MapError {
        line,
        reason: reason.into(),
    })
}

/// `ceil(sqrt(dx² + dy²))` computed exactly on integers (no overflow for any `i64`s).
pub fn road_length(dx: i64, dy: i64) -> u64 {
    let (dx, dy) = (dx.unsigned_abs() as u128, dy.unsigned_abs() as u128);
    let d2 = dx * dx + dy * dy;
    let s = d2.isqrt();
    (if s * s == d2 { s } else { s + 1 }) as u64
}

/// The longest road a map may have: positions on a road count half-steps, and two
/// positions on one road are added when marches meet, so `4 * length` must fit a `u32`.
pub const MAX_ROAD_LENGTH: u32 = u32::MAX / 4;

/// The largest garrison or march size a map may hold, so that no sum of armies over a
/// whole game can overflow.
pub const MAX_SOLDIERS: u64 = 1 << 40;

/// The name of the neutral owner.
pub const NEUTRAL: &str = "neutral";

/// One fort's line of the text format: `name x y owner garrison`. A map and a
/// player's view write their forts the same way.
pub(crate) fn write_fort(out: &mut String, fort: &Fort, owner: &str, garrison: u64) {
    let _ = writeln!(
        out,
        "{} {} {} {owner} {garrison}",
        fort.name, fort.x, fort.y
    );
}

/// One march's line of the text format: `origin destination owner size steps`.
pub(crate) fn write_march(
    out: &mut String,
    [from, to]: [&str; 2],
    owner: &str,
    size: u64,
    steps: u32,
) {
    let _ = writeln!(out, "{from} {to} {owner} {size} {steps}");
}

impl Map {
    /// The fort with this name.
    pub fn fort_id(&self, name: &str) -> Option<FortId> {
        self.forts.iter().position(|f| f.name == name).map(FortId)
    }

    /// Prints the map in the text format, owners by their seat names.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let owner = |o: Owner| match o {
            Owner::Neutral => NEUTRAL,
            Owner::Seat(s) => self.seats[s.0].as_str(),
        };
        let _ = writeln!(out, "{} forts:", self.forts.len());
        for f in &self.forts {
            write_fort(&mut out, f, owner(f.owner), f.garrison);
        }
        let _ = writeln!(out, "{} roads:", self.roads.len());
        for r in &self.roads {
            let _ = writeln!(out, "{} {}", self.forts[r.a.0].name, self.forts[r.b.0].name);
        }
        let _ = writeln!(out, "{} marches:", self.marches.len());
        for m in &self.marches {
            write_march(
                &mut out,
                [
                    &self.forts[m.origin.0].name,
                    &self.forts[m.destination.0].name,
                ],
                &self.seats[m.owner.0],
                m.size,
                m.remaining_steps,
            );
        }
        out
    }

    /// The road between two forts, if any.
    pub fn road_between(&self, a: FortId, b: FortId) -> Option<RoadId> {
        self.roads
            .iter()
            .position(|r| (r.a == a && r.b == b) || (r.a == b && r.b == a))
            .map(RoadId)
    }

    /// The same map with its seats renumbered: new seat `k` is old seat `order[k]`,
    /// and the seats not in `order` follow in their old order.
    pub fn with_seat_order(&self, order: &[Seat]) -> Map {
        let mut new_of_old = vec![usize::MAX; self.seats.len()];
        let mut seats = Vec::with_capacity(self.seats.len());
        let rest = (0..self.seats.len())
            .map(Seat)
            .filter(|s| !order.contains(s));
        for old in order.iter().copied().chain(rest) {
            new_of_old[old.0] = seats.len();
            seats.push(self.seats[old.0].clone());
        }
        let renumber = |o: Owner| match o {
            Owner::Neutral => Owner::Neutral,
            Owner::Seat(s) => Owner::Seat(Seat(new_of_old[s.0])),
        };
        let mut map = self.clone();
        map.seats = seats;
        for f in &mut map.forts {
            f.owner = renumber(f.owner);
        }
        for m in &mut map.marches {
            m.owner = Seat(new_of_old[m.owner.0]);
        }
        map
    }
}
