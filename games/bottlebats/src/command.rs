//! Command lines from a bot's reply (games/bottlebats/rules.md §5): which are dispatched, which are
//! ignored with a warning, and which are clamped.

use crate::map::{FortId, Owner, RoadId, Seat};

/// A command that passed validation, with its size already clamped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Command {
    pub origin: FortId,
    pub destination: FortId,
    pub road: RoadId,
    pub size: u64,
}

/// What the game needs to know to judge a command line.
pub trait Board {
    fn fort_by_name(&self, name: &str) -> Option<FortId>;
    fn road_between(&self, a: FortId, b: FortId) -> Option<RoadId>;
    fn owner(&self, fort: FortId) -> Owner;
    fn garrison(&self, fort: FortId) -> u64;
}

/// The outcome of one command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Judged {
    /// Dispatch it.
    Send(Command),
    /// Dispatch it, but the size was clamped to the garrison; the string is the warning.
    Clamped(Command, String),
    /// Ignore it; the string is the warning.
    Ignored(String),
}

/// Judges one command line of `player` against the current board.
pub fn judge(board: &impl Board, player: Seat, line: &str) -> Judged {
    let mut fields = line.split_whitespace();
    let parts = (fields.next(), fields.next(), fields.next(), fields.next());
    // Only a warning needs the line again; the common case allocates nothing.
    let ignored = |why: String| {
        let shown = line.split_whitespace().collect::<Vec<_>>().join(" ");
        Judged::Ignored(format!("ignored `{shown}`: {why}"))
    };
    let (Some(from), Some(to), Some(size), None) = parts else {
        return ignored(format!(
            "a command is `origin destination size`, this line has {} fields",
            line.split_whitespace().count()
        ));
    };
    let Some(origin) = board.fort_by_name(from) else {
        return ignored(format!("there is no fort `{from}`"));
    };
    let Some(destination) = board.fort_by_name(to) else {
        return ignored(format!("there is no fort `{to}`"));
    };
    let Some(amount) = parse_size(size) else {
        return ignored(format!("size `{size}` is not an integer"));
    };
    let road = match board.road_between(origin, destination) {
        Some(r) if origin != destination => r,
        _ => return ignored(format!("there is no road between `{from}` and `{to}`")),
    };
    if amount < 0 {
        return ignored("the size is negative".to_string());
    }
    if board.owner(origin) != Owner::Seat(player) {
        return ignored(format!("you do not own `{from}`"));
    }
    let garrison = board.garrison(origin);
    let amount = amount as u128;
    if amount > garrison as u128 {
        let cmd = Command {
            origin,
            destination,
            road,
            size: garrison,
        };
        return Judged::Clamped(
            cmd,
            format!("`{from} {to} {size}` asks for more soldiers than `{from}` holds; all of its garrison was sent"),
        );
    }
    Judged::Send(Command {
        origin,
        destination,
        road,
        size: amount as u64,
    })
}

/// An integer as Python's `int()` read it from a token: an optional sign and ASCII
/// digits. Values beyond `i128` saturate (they are clamped to the garrison anyway).
fn parse_size(s: &str) -> Option<i128> {
    let (neg, digits) = match s.as_bytes().first()? {
        b'-' => (true, &s[1..]),
        b'+' => (false, &s[1..]),
        _ => (false, s),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let v = digits.parse::<i128>().unwrap_or(i128::MAX);
    Some(if neg { -v } else { v })
}

#[cfg(test)]
mod tests {
    use super::parse_size;

    #[test]
    fn sizes_read_like_python_ints() {
        assert_eq!(parse_size("12"), Some(12));
        assert_eq!(parse_size("+3"), Some(3));
        assert_eq!(parse_size("-3"), Some(-3));
        assert_eq!(parse_size("007"), Some(7));
        assert_eq!(parse_size("1.5"), None);
        assert_eq!(parse_size("ten"), None);
        assert_eq!(parse_size("-"), None);
        assert_eq!(
            parse_size("99999999999999999999999999999999999999999999"),
            Some(i128::MAX)
        );
    }
}
