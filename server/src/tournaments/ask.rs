//! A tournament as asked for: who plays, how, on which maps (the API's JSON; the
//! `/admin` form and the command line make the same).

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

impl Format {
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
    /// Players a game (groups; 2 otherwise).
    pub players_per_game: Option<u32>,
    /// Games (groups).
    pub games: Option<u32>,
    /// Rounds (Swiss).
    pub rounds: Option<u32>,
    /// The schedule's seed; a random one if not given.
    pub seed: Option<u64>,
}
