//! Reading a map file into a checked [`Map`] (games/bottlebats/rules.md §2 "Map files"): the text is
//! split into its sections first, then forts, roads and marches are read in that order,
//! each line checked against what came before it.

use std::collections::HashMap;

use super::sections::{Section, Sections};
use super::{
    err, road_length, Fort, FortId, Map, MapError, MapMarch, Owner, Road, RoadId, Seat,
    MAX_ROAD_LENGTH, MAX_SOLDIERS, NEUTRAL,
};

impl Map {
    /// Parses and checks a map file. Any run of spaces or tabs separates fields.
    pub fn parse(text: &str) -> Result<Map, MapError> {
        let mut sections = Sections::new(text);
        let forts = sections.section("forts", 5, "name x y owner garrison")?;
        let roads = sections.section("roads", 2, "fort fort")?;
        let marches = sections.section(
            "marches",
            5,
            "origin destination owner size remaining_steps",
        )?;
        sections.finish()?;

        let mut reader = Reader::with_capacity(&forts, &roads, &marches);
        for (lno, f) in &forts.entries {
            reader.fort(*lno, f)?;
        }
        for (lno, r) in &roads.entries {
            reader.road(*lno, r)?;
        }
        for (lno, m) in &marches.entries {
            reader.march(*lno, m)?;
        }
        Ok(reader.map())
    }
}

/// A map being read, one line at a time, and the indexes that check the next line.
struct Reader<'a> {
    seats: Vec<String>,
    forts: Vec<Fort>,
    by_name: HashMap<&'a str, FortId>,
    roads: Vec<Road>,
    road_index: HashMap<(FortId, FortId), RoadId>,
    marches: Vec<MapMarch>,
    /// The line of each march, to name the first of two that clash.
    march_lines: Vec<usize>,
}

impl<'a> Reader<'a> {
    fn with_capacity(forts: &Section, roads: &Section, marches: &Section) -> Self {
        Reader {
            seats: Vec::new(),
            forts: Vec::with_capacity(forts.entries.len()),
            by_name: HashMap::new(),
            roads: Vec::with_capacity(roads.entries.len()),
            road_index: HashMap::new(),
            marches: Vec::with_capacity(marches.entries.len()),
            march_lines: Vec::new(),
        }
    }

    /// A fort line: `name x y owner garrison`, its owner a seat unless `neutral`.
    fn fort(&mut self, lno: usize, f: &[&'a str]) -> Result<(), MapError> {
        let name = f[0];
        if self
            .by_name
            .insert(name, FortId(self.forts.len()))
            .is_some()
        {
            return err(lno, format!("fort `{name}` is listed twice"));
        }
        let x = number::<i64>(lno, "x coordinate", f[1])?;
        let y = number::<i64>(lno, "y coordinate", f[2])?;
        let owner = if f[3] == NEUTRAL {
            Owner::Neutral
        } else {
            Owner::Seat(seat_of(&mut self.seats, f[3]))
        };
        let garrison = soldiers(lno, "garrison", f[4])?;
        self.forts.push(Fort {
            name: name.to_string(),
            x,
            y,
            owner,
            garrison,
        });
        Ok(())
    }

    /// The fort a road or a march (`what`) names.
    fn fort_named(&self, lno: usize, name: &str, what: &str) -> Result<FortId, MapError> {
        self.by_name.get(name).copied().ok_or_else(|| MapError {
            line: lno,
            reason: format!("{what} names unknown fort `{name}`"),
        })
    }

    /// A road line: two different known forts, not joined yet.
    fn road(&mut self, lno: usize, r: &[&str]) -> Result<(), MapError> {
        let a = self.fort_named(lno, r[0], "road")?;
        let b = self.fort_named(lno, r[1], "road")?;
        if a == b {
            return err(lno, format!("road from `{}` to itself", r[0]));
        }
        let key = (a.min(b), a.max(b));
        if self.road_index.contains_key(&key) {
            return err(
                lno,
                format!("road between `{}` and `{}` is listed twice", r[0], r[1]),
            );
        }
        let length = self.length(lno, a, b, r)?;
        self.road_index.insert(key, RoadId(self.roads.len()));
        self.roads.push(Road { a, b, length });
        Ok(())
    }

    /// The length of the road `r` from `a` to `b`: positive and within the caps of
    /// games/bottlebats/rules.md §1.
    fn length(&self, lno: usize, a: FortId, b: FortId, r: &[&str]) -> Result<u32, MapError> {
        let (fa, fb) = (&self.forts[a.0], &self.forts[b.0]);
        let (Some(dx), Some(dy)) = (fa.x.checked_sub(fb.x), fa.y.checked_sub(fb.y)) else {
            return err(
                lno,
                format!("road between `{}` and `{}` is too long", r[0], r[1]),
            );
        };
        let length = road_length(dx, dy);
        if length == 0 {
            return err(
                lno,
                format!(
                    "road between `{}` and `{}` has length 0 (both forts stand at {} {})",
                    r[0], r[1], fa.x, fa.y
                ),
            );
        }
        let Some(length) = u32::try_from(length).ok().filter(|&l| l <= MAX_ROAD_LENGTH) else {
            return err(
                lno,
                format!(
                    "road between `{}` and `{}` is too long ({length} steps, at most {MAX_ROAD_LENGTH})",
                    r[0], r[1]
                ),
            );
        };
        Ok(length)
    }

    /// A march line: on a road, from a fort of its owner's seat, with no more steps
    /// left than the road is long, and meeting no earlier march without a fight.
    fn march(&mut self, lno: usize, m: &[&str]) -> Result<(), MapError> {
        let origin = self.fort_named(lno, m[0], "march")?;
        let destination = self.fort_named(lno, m[1], "march")?;
        let Some(&road) = self
            .road_index
            .get(&(origin.min(destination), origin.max(destination)))
        else {
            return err(
                lno,
                format!("march from `{}` to `{}` is not on a road", m[0], m[1]),
            );
        };
        let owner = self.march_owner(lno, origin, m)?;
        let size = soldiers(lno, "march size", m[3])?;
        let remaining_steps = number::<u32>(lno, "remaining steps", m[4])?;
        let length = self.roads[road.0].length;
        if remaining_steps > length {
            return err(
                lno,
                format!("march has {remaining_steps} steps left on a road of length {length}"),
            );
        }
        let march = MapMarch {
            origin,
            destination,
            owner,
            size,
            remaining_steps,
        };
        if let Some(first) = self.clash(&march, length) {
            return err(
                lno,
                format!(
                    "this march and the one on line {first} meet at the same point of their road; \
                     give them other remaining steps"
                ),
            );
        }
        self.marches.push(march);
        self.march_lines.push(lno);
        Ok(())
    }

    /// The seat of a march's owner, which must own its origin.
    fn march_owner(&self, lno: usize, origin: FortId, m: &[&str]) -> Result<Seat, MapError> {
        let Some(owner) = self.seats.iter().position(|s| s == m[2]).map(Seat) else {
            return err(
                lno,
                format!(
                    "march owner `{}` owns no fort on this map (unknown owner)",
                    m[2]
                ),
            );
        };
        if self.forts[origin.0].owner != Owner::Seat(owner) {
            return err(
                lno,
                format!(
                    "march by `{}` leaves `{}`, which `{}` does not own",
                    m[2], m[0], m[2]
                ),
            );
        }
        Ok(owner)
    }

    /// The line of an earlier march that `march` would meet without a fight: opposite
    /// marches of different owners at the same point of their road (of `length`) would
    /// pass each other without the fight every meeting on a road must have.
    fn clash(&self, march: &MapMarch, length: u32) -> Option<usize> {
        let steps = |m: &MapMarch| match m.remaining_steps {
            0 => length,
            s => s,
        };
        self.marches
            .iter()
            .zip(&self.march_lines)
            .find(|(o, _)| {
                o.origin == march.destination
                    && o.destination == march.origin
                    && o.owner != march.owner
                    && steps(o) + steps(march) == length
            })
            .map(|(_, &line)| line)
    }

    fn map(self) -> Map {
        Map {
            forts: self.forts,
            roads: self.roads,
            marches: self.marches,
            seats: self.seats,
        }
    }
}

fn number<T: std::str::FromStr>(line: usize, what: &str, s: &str) -> Result<T, MapError> {
    s.parse::<T>()
        .or_else(|_| err(line, format!("{what} `{s}` is not a valid number")))
}

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

/// The seat of the owner `name`, a new one if it is the first fort it owns.
fn seat_of(seats: &mut Vec<String>, name: &str) -> Seat {
    match seats.iter().position(|s| s == name) {
        Some(i) => Seat(i),
        None => {
            seats.push(name.to_string());
            Seat(seats.len() - 1)
        }
    }
}
