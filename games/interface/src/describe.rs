//! What a game **is** on a site, declared once by the game ([`Description`]), as
//! OpenSpiel's `GameType` or a Kaggle environment's specification: its names, the
//! paragraph that presents it, its players, how its replies are framed, its turns and
//! their defaults, its statistics, its replay and log formats, its maps, its smoke
//! test and where its rules speak of time. The platform reads this and the game's
//! folder (`games/NAME/`: rules, house bots, starter kits, local kit; `maps/NAME/`,
//! `static/NAME/`) and names no game anywhere else.

use std::time::Duration;

use crate::framing::Framing;

/// A game's defaults for its matches; the organizer may change them per match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Defaults {
    /// The fewest and most seats a match may have, both included.
    pub seats: (usize, usize),
    /// Time allowed for one reply.
    pub turn_time: Duration,
    /// Time allowed for a seat's first reply (interpreter or JVM start included).
    pub first_reply_time: Duration,
    /// Turns a match lasts at most (Vindinium's moves: one hero's move is a turn).
    pub max_turns: u32,
}

/// How the seats take their turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// Every seat still playing answers every turn (Bottle Bats).
    Simultaneous,
    /// One seat answers a turn, in turn (Vindinium's heroes 1, 2, 3, 4, 1, …).
    OneAtATime,
}

/// What the game calls one turn, in the singular and the plural: `turn`/`turns`, or
/// Vindinium's `move`/`moves`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Word {
    /// One: `turn`.
    pub one: &'static str,
    /// Several: `turns`.
    pub many: &'static str,
}

impl Word {
    /// `1 turn`, `3 turns`.
    pub fn count(&self, n: u64) -> String {
        format!("{n} {}", if n == 1 { self.one } else { self.many })
    }

    /// The word with a capital first letter: `Turn`.
    pub fn title(&self) -> String {
        let mut c = self.one.chars();
        c.next()
            .map(|f| f.to_uppercase().chain(c).collect())
            .unwrap_or_default()
    }
}

/// The log a game's local tool writes and the site offers for download, made from a
/// stored replay by [`crate::GameKind::write_log`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LogFormat {
    /// What the match page calls the download: `Classic log (2016)`.
    pub title: &'static str,
    /// The file's extension, without the dot: `log`, `jsonl`.
    pub extension: &'static str,
}

/// Where a game's matches are played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Maps {
    /// On maps: those shipped in `maps/NAME/` (the files ending in `.EXTENSION`,
    /// loaded into a fresh ladder and the local kit) and those an organizer adds, each
    /// read by [`crate::GameKind::map_info`]; [`crate::GameKind::generate`] makes more.
    Files {
        /// The extension of a map file, without the dot: `map`, `txt`.
        extension: &'static str,
    },
    /// On one board, the same in every match (Connect Four's 7 × 6): no map to choose,
    /// none shipped. The board of `n` seats is [`crate::GameKind::generate`]`(0, n)`,
    /// which the ladder keeps as the game's one map, named after the game.
    Board,
}

/// The smoke test a new version plays before it may join the ladder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Smoke {
    /// The shipped map it is played on (a file name of `maps/NAME/` without its
    /// extension); ignored for a game played on a [`Maps::Board`].
    pub map: &'static str,
    /// The house bots (names of folders of `games/NAME/bots/house/`) seated beside the
    /// version tested, one per other seat.
    pub opponents: &'static [&'static str],
}

/// What a game is on a site. One `static` per game, returned by
/// [`crate::GameKind::describe`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Description {
    /// The short name stored with matches, maps and bots, and used in addresses
    /// (`?game=NAME`) and folders (`games/NAME/`, `maps/NAME/`, `static/NAME/`):
    /// lowercase letters and digits.
    pub name: &'static str,
    /// The name shown to people: `Bottle Bats`.
    pub title: &'static str,
    /// A line to greet a visitor with: `Write a bot. Take the forts.`
    pub tagline: &'static str,
    /// What the game is, in a few plain sentences, for the home page and Getting
    /// started.
    pub summary: &'static str,
    /// How a reply is cut from a bot's output.
    pub framing: Framing,
    /// How the seats take their turns.
    pub order: Order,
    /// What a turn is called.
    pub turn: Word,
    /// Seats allowed, times and the turn limit.
    pub defaults: Defaults,
    /// The names of a seat's statistics ([`crate::Match::stats`]), in order; the
    /// first is what a leaderboard's list of matches shows.
    pub stats: &'static [&'static str],
    /// The `format` its stored replay names, which the viewer picks its renderer by.
    pub replay_format: &'static str,
    /// Its log.
    pub log: LogFormat,
    /// Where its matches are played.
    pub maps: Maps,
    /// Its smoke test.
    pub smoke: Smoke,
    /// House bots are registered as `PREFIX` + their folder's name: names are one
    /// namespace across games, and the first game's house bots kept their plain names.
    /// Keep it short (`vin-`): names are cut on narrow screens, and what tells two house
    /// bots apart is their folder's name. (House bots once named `GAME-FOLDER` are
    /// renamed when the server starts.)
    pub house_prefix: &'static str,
    /// The section of its rules (`games/NAME/rules.md`) that says how long a reply may
    /// take: `§7`.
    pub time_rule: &'static str,
}
