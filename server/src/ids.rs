//! The ids of the platform's records, each its own type: a bot's id cannot be passed
//! where a version's is expected. A game's seats are its own (`game_interface::Seat`).

use serde::{Deserialize, Serialize};

macro_rules! id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(
            Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
            sqlx::Type,
        )]
        #[serde(transparent)]
        #[sqlx(transparent)]
        pub struct $name(pub i64);

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                self.0.fmt(f)
            }
        }

        impl std::str::FromStr for $name {
            type Err = std::num::ParseIntError;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                s.parse().map($name)
            }
        }
    };
}

id!(
    /// An account (`users.id`).
    UserId
);
id!(
    /// A bot (`bots.id`).
    BotId
);
id!(
    /// One uploaded version of a bot (`bot_versions.id`).
    VersionId
);
id!(
    /// A match of the ladder (`matches.id`).
    MatchId
);
id!(
    /// A map of the ladder (`maps.id`).
    MapId
);
id!(
    /// A challenge or an A/B test (`challenges.id`).
    ChallengeId
);
id!(
    /// A tournament (`tournaments.id`).
    TournamentId
);
