//! A tournament as asked for: who plays, how, on which maps (the API's JSON; the
//! `/admin` form and the command line make the same).

use std::ops::RangeInclusive;

use serde::Deserialize;

/// Who plays.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(untagged, expecting = "\"all\", {\"top\": K} or a list of bot names")]
pub enum Participants {
    /// Bots by name.
    Named(Vec<String>),
    /// The first K of the leaderboard.
    Top { top: u32 },
    /// `"all"`: every bot that plays.
    Word(String),
}

impl Participants {
    pub(crate) fn words(&self) -> String {
        match self {
            Participants::Named(names) => names.join(", "),
            Participants::Top { top } => format!("the top {top} of the ladder"),
            Participants::Word(_) => "every bot that plays".into(),
        }
    }
}

/// How the games are laid out.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq, sqlx::Type, serde::Serialize)]
#[sqlx(type_name = "text", rename_all = "kebab-case")]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// Duels: every pair on every map, in both seat orders.
    RoundRobin,
    /// Free-for-all games of k players, pairs and seats balanced.
    Groups,
    /// Rounds of duels between participants of similar score.
    Swiss,
}

/// The players a game of free-for-all groups may have.
pub const GROUP_PLAYERS: RangeInclusive<u32> = 2..=8;

impl Format {
    /// Every format, in the order forms offer them.
    pub const ALL: [Format; 3] = [Format::RoundRobin, Format::Groups, Format::Swiss];

    /// The format named `text` (`round-robin`, `groups`, `swiss`).
    pub fn named(text: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.as_str() == text)
    }

    /// The players a game of this format may seat in a game that seats `seats` (its
    /// fewest and most players): 2 for duels, within [`GROUP_PLAYERS`] for groups; none
    /// when that game cannot be played so (duels in a game of four).
    pub fn players_for(self, (fewest, most): (usize, usize)) -> Option<RangeInclusive<u32>> {
        let asked = match self {
            Format::Groups => GROUP_PLAYERS,
            Format::RoundRobin | Format::Swiss => 2..=2,
        };
        let seat = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        let low = (*asked.start()).max(seat(fewest));
        let high = (*asked.end()).min(seat(most));
        (low <= high).then_some(low..=high)
    }

    /// The formats a game that seats `seats` can play, in the order forms offer them:
    /// the first is its default.
    pub fn playable(seats: (usize, usize)) -> Vec<Format> {
        Format::ALL
            .into_iter()
            .filter(|f| f.players_for(seats).is_some())
            .collect()
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Format::RoundRobin => "round-robin",
            Format::Groups => "groups",
            Format::Swiss => "swiss",
        }
    }

    /// The format in words.
    pub fn words(self) -> &'static str {
        match self {
            Format::RoundRobin => "Round robin",
            Format::Groups => "Free-for-all groups",
            Format::Swiss => "Swiss",
        }
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The part of a request a refusal is about, for a form to point at its field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    Name,
    Game,
    Format,
    Participants,
    Maps,
    Players,
    Games,
    Rounds,
    Seed,
}

/// A tournament as asked for (the API's JSON; the `/admin` form and the command line
/// make the same).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ask {
    pub name: String,
    /// The game played (an open game); the default game if not given.
    #[serde(default)]
    pub game: Option<String>,
    pub participants: Participants,
    /// Maps by name; every enabled map for the number of players if none.
    #[serde(default)]
    pub maps: Vec<String>,
    pub format: Format,
    /// Players a game (groups: the fewest the game seats, at least 2, if not given;
    /// duels: 2).
    pub players_per_game: Option<u32>,
    /// Games (groups).
    pub games: Option<u32>,
    /// Rounds (Swiss).
    pub rounds: Option<u32>,
    /// The schedule's seed; a random one if not given.
    pub seed: Option<u64>,
}
