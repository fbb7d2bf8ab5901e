//! The text format shared by map files, bot states and the classic log
//! (docs/rules.md §2): lenient parsing with line-numbered errors, exact printing, and
//! seats.
//!
//! A [`Map`] is checked: every road joins two distinct known forts at a positive
//! distance, no fort or road is listed twice, and every march stands on a road and
//! belongs to a seat. Owners in a map file are placeholders; the distinct
//! non-`neutral` owner names, in order of first appearance, are the map's seats.

use std::collections::HashMap;
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

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

/// A section header: `COUNT WORD:` or `? WORD:`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Count {
    Exactly(usize),
    UntilEnd,
}

/// Parses a header line into its count. `None` when it is not two fields with a count
/// that is a non-negative integer or `?`.
pub fn parse_header(line: &str) -> Option<Count> {
    let mut fields = line.split_whitespace();
    let (count, _word) = (fields.next()?, fields.next()?);
    if fields.next().is_some() {
        return None;
    }
    if count == "?" {
        Some(Count::UntilEnd)
    } else {
        count.parse::<usize>().ok().map(Count::Exactly)
    }
}

/// True for lines the format ignores everywhere: blank ones and `#` comments.
pub fn is_ignored(line: &str) -> bool {
    let t = line.trim();
    t.is_empty() || t.starts_with('#')
}

/// One section of a file: its entries with their line numbers.
struct Section<'a> {
    entries: Vec<(usize, Vec<&'a str>)>,
}

/// Reads the non-ignored lines of `text` section by section.
struct Sections<'a> {
    lines: std::iter::Peekable<Box<dyn Iterator<Item = (usize, &'a str)> + 'a>>,
    last_line: usize,
    /// The previous section's header line, count and name, to explain a count that
    /// is too small (its extra lines then stand where the next header should be).
    previous: Option<(usize, usize, &'static str)>,
    /// False until a header was read: running out of lines then means an empty map.
    started: bool,
}

impl<'a> Sections<'a> {
    fn new(text: &'a str) -> Self {
        let it: Box<dyn Iterator<Item = (usize, &'a str)> + 'a> = Box::new(
            text.lines()
                .enumerate()
                .map(|(i, l)| (i + 1, l))
                .filter(|(_, l)| !is_ignored(l)),
        );
        Sections {
            lines: it.peekable(),
            last_line: text.lines().count(),
            previous: None,
            started: false,
        }
    }

    fn section(
        &mut self,
        what: &'static str,
        fields: usize,
        shape: &str,
    ) -> Result<Section<'a>, MapError> {
        let Some((hline, header)) = self.lines.next() else {
            if !self.started {
                return err(
                    self.last_line,
                    "the map is empty (no lines but blank ones and comments); it starts with a header like `3 forts:`",
                );
            }
            return err(
                self.last_line,
                format!("the file ends where the {what} section should start (expected a header like `3 {what}:`)"),
            );
        };
        self.started = true;
        let count = match parse_header(header) {
            Some(c) => c,
            None => {
                let hint = match self.previous {
                    Some((pline, n, pwhat)) => format!(
                        " (if this is one more of the {pwhat}, the header on line {pline} promised only {n})"
                    ),
                    None => String::new(),
                };
                return err(
                    hline,
                    format!(
                        "expected the {what} header `COUNT {what}:` (or `? {what}:`), found `{}`{hint}",
                        header.trim()
                    ),
                );
            }
        };
        let mut entries = Vec::new();
        loop {
            if let Count::Exactly(n) = count {
                if entries.len() == n {
                    break;
                }
            }
            let Some((lno, line)) = self.lines.next() else {
                return match count {
                    Count::Exactly(n) => err(
                        self.last_line,
                        format!(
                            "the header on line {hline} promised {n} {what} but the file ends after {}",
                            entries.len()
                        ),
                    ),
                    Count::UntilEnd => err(self.last_line, format!("the {what} section has no closing `end` line")),
                };
            };
            let parts: Vec<&str> = line.split_whitespace().collect();
            if count == Count::UntilEnd && parts == ["end"] {
                break;
            }
            // The next section's header where an entry should be: a count that is too
            // large or a missing `end` (a road line has two fields, like a header).
            if parse_header(line).is_some() && parts[1].ends_with(':') {
                let why = match count {
                    Count::Exactly(n) => format!(
                        "the header on line {hline} promised {n} {what} but only {} came before it",
                        entries.len()
                    ),
                    Count::UntilEnd => format!(
                        "the {what} section opened on line {hline} needs an `end` line before it"
                    ),
                };
                return err(
                    lno,
                    format!("found the header `{}` too early: {why}", line.trim()),
                );
            }
            if parts.len() != fields {
                let hint = match count {
                    Count::Exactly(n) => format!(
                        " (the header on line {hline} promised {n} {what}; this is entry {})",
                        entries.len() + 1
                    ),
                    Count::UntilEnd => String::new(),
                };
                return err(
                    lno,
                    format!(
                        "expected a line `{shape}` ({fields} fields), found {} fields{hint}",
                        parts.len()
                    ),
                );
            }
            entries.push((lno, parts));
        }
        self.previous = match count {
            Count::Exactly(n) => Some((hline, n, what)),
            Count::UntilEnd => None,
        };
        Ok(Section { entries })
    }

    fn finish(mut self) -> Result<(), MapError> {
        match self.lines.next() {
            None => Ok(()),
            Some((lno, line)) => {
                let hint = match self.previous {
                    Some((pline, n, pwhat)) => {
                        format!("the header on line {pline} promised only {n} {pwhat}")
                    }
                    None => "do the section counts match the lines?".to_string(),
                };
                err(
                    lno,
                    format!(
                        "unexpected line `{}` after the marches section ({hint})",
                        line.trim()
                    ),
                )
            }
        }
    }
}

fn number<T: std::str::FromStr>(line: usize, what: &str, s: &str) -> Result<T, MapError> {
    s.parse::<T>()
        .or_else(|_| err(line, format!("{what} `{s}` is not a valid number")))
}

/// The longest road a map may have: positions on a road count half-steps, and two
/// positions on one road are added when marches meet, so `4 * length` must fit a `u32`.
pub const MAX_ROAD_LENGTH: u32 = u32::MAX / 4;

/// The largest garrison or march size a map may hold, so that no sum of armies over a
/// whole game can overflow.
pub const MAX_SOLDIERS: u64 = 1 << 40;

fn soldiers(line: usize, what: &str, s: &str) -> Result<u64, MapError> {
    let n = number::<u64>(line, what, s)?;
    if n > MAX_SOLDIERS {
        return err(
            line,
            format!("{what} {n} is too large (at most {MAX_SOLDIERS})"),
        );
    }
    Ok(n)
}

/// The name of the neutral owner.
pub const NEUTRAL: &str = "neutral";

impl Map {
    /// Parses and checks a map file. Any run of spaces or tabs separates fields.
    pub fn parse(text: &str) -> Result<Map, MapError> {
        let mut sections = Sections::new(text);
        let forts_s = sections.section("forts", 5, "name x y owner garrison")?;
        let roads_s = sections.section("roads", 2, "fort fort")?;
        let marches_s = sections.section(
            "marches",
            5,
            "origin destination owner size remaining_steps",
        )?;
        sections.finish()?;

        let mut seats: Vec<String> = Vec::new();
        let mut forts = Vec::with_capacity(forts_s.entries.len());
        let mut by_name: HashMap<&str, FortId> = HashMap::new();
        for (lno, f) in &forts_s.entries {
            let name = f[0];
            if by_name.insert(name, FortId(forts.len())).is_some() {
                return err(*lno, format!("fort `{name}` is listed twice"));
            }
            let x = number::<i64>(*lno, "x coordinate", f[1])?;
            let y = number::<i64>(*lno, "y coordinate", f[2])?;
            let owner = if f[3] == NEUTRAL {
                Owner::Neutral
            } else {
                Owner::Seat(seat_of(&mut seats, f[3]))
            };
            let garrison = soldiers(*lno, "garrison", f[4])?;
            forts.push(Fort {
                name: name.to_string(),
                x,
                y,
                owner,
                garrison,
            });
        }

        let fort = |lno: usize, name: &str, what: &str| -> Result<FortId, MapError> {
            by_name.get(name).copied().ok_or_else(|| MapError {
                line: lno,
                reason: format!("{what} names unknown fort `{name}`"),
            })
        };

        let mut roads: Vec<Road> = Vec::with_capacity(roads_s.entries.len());
        let mut road_index: HashMap<(FortId, FortId), RoadId> = HashMap::new();
        for (lno, r) in &roads_s.entries {
            let a = fort(*lno, r[0], "road")?;
            let b = fort(*lno, r[1], "road")?;
            if a == b {
                return err(*lno, format!("road from `{}` to itself", r[0]));
            }
            let key = (a.min(b), a.max(b));
            if road_index.contains_key(&key) {
                return err(
                    *lno,
                    format!("road between `{}` and `{}` is listed twice", r[0], r[1]),
                );
            }
            let (fa, fb) = (&forts[a.0], &forts[b.0]);
            let (Some(dx), Some(dy)) = (fa.x.checked_sub(fb.x), fa.y.checked_sub(fb.y)) else {
                return err(
                    *lno,
                    format!("road between `{}` and `{}` is too long", r[0], r[1]),
                );
            };
            let length = road_length(dx, dy);
            if length == 0 {
                return err(
                    *lno,
                    format!(
                        "road between `{}` and `{}` has length 0 (both forts stand at {} {})",
                        r[0], r[1], fa.x, fa.y
                    ),
                );
            }
            let Some(length) = u32::try_from(length).ok().filter(|&l| l <= MAX_ROAD_LENGTH) else {
                return err(
                    *lno,
                    format!(
                        "road between `{}` and `{}` is too long ({length} steps, at most {MAX_ROAD_LENGTH})",
                        r[0], r[1]
                    ),
                );
            };
            road_index.insert(key, RoadId(roads.len()));
            roads.push(Road { a, b, length });
        }

        let mut marches: Vec<MapMarch> = Vec::with_capacity(marches_s.entries.len());
        let mut march_lines: Vec<usize> = Vec::new();
        for (lno, m) in &marches_s.entries {
            let origin = fort(*lno, m[0], "march")?;
            let destination = fort(*lno, m[1], "march")?;
            let Some(&road) = road_index.get(&(origin.min(destination), origin.max(destination)))
            else {
                return err(
                    *lno,
                    format!("march from `{}` to `{}` is not on a road", m[0], m[1]),
                );
            };
            let owner = match seats.iter().position(|s| s == m[2]) {
                Some(s) => Seat(s),
                None => {
                    return err(
                        *lno,
                        format!(
                            "march owner `{}` owns no fort on this map (unknown owner)",
                            m[2]
                        ),
                    )
                }
            };
            if forts[origin.0].owner != Owner::Seat(owner) {
                return err(
                    *lno,
                    format!(
                        "march by `{}` leaves `{}`, which `{}` does not own",
                        m[2], m[0], m[2]
                    ),
                );
            }
            let size = soldiers(*lno, "march size", m[3])?;
            let remaining_steps = number::<u32>(*lno, "remaining steps", m[4])?;
            let length = roads[road.0].length;
            if remaining_steps > length {
                return err(
                    *lno,
                    format!("march has {remaining_steps} steps left on a road of length {length}"),
                );
            }
            let steps = |m: &MapMarch| match m.remaining_steps {
                0 => length,
                s => s,
            };
            let march = MapMarch {
                origin,
                destination,
                owner,
                size,
                remaining_steps,
            };
            // Opposite marches of different owners at the same point would pass each
            // other without the fight every meeting on a road must have.
            let clash = marches.iter().zip(&march_lines).find(|(o, _)| {
                o.origin == destination
                    && o.destination == origin
                    && o.owner != owner
                    && steps(o) + steps(&march) == length
            });
            if let Some((_, first)) = clash {
                return err(
                    *lno,
                    format!(
                        "this march and the one on line {first} meet at the same point of their road; \
                         give them other remaining steps"
                    ),
                );
            }
            marches.push(march);
            march_lines.push(*lno);
        }

        Ok(Map {
            forts,
            roads,
            marches,
            seats,
        })
    }

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
            let _ = writeln!(
                out,
                "{} {} {} {} {}",
                f.name,
                f.x,
                f.y,
                owner(f.owner),
                f.garrison
            );
        }
        let _ = writeln!(out, "{} roads:", self.roads.len());
        for r in &self.roads {
            let _ = writeln!(out, "{} {}", self.forts[r.a.0].name, self.forts[r.b.0].name);
        }
        let _ = writeln!(out, "{} marches:", self.marches.len());
        for m in &self.marches {
            let _ = writeln!(
                out,
                "{} {} {} {} {}",
                self.forts[m.origin.0].name,
                self.forts[m.destination.0].name,
                self.seats[m.owner.0],
                m.size,
                m.remaining_steps
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
}

fn seat_of(seats: &mut Vec<String>, name: &str) -> Seat {
    match seats.iter().position(|s| s == name) {
        Some(i) => Seat(i),
        None => {
            seats.push(name.to_string());
            Seat(seats.len() - 1)
        }
    }
}

impl Map {
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
