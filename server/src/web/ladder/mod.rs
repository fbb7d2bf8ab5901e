//! What spectators read: the leaderboard (`leaderboard.rs`), the list of matches
//! (`matches.rs`), a match with its replay and downloads (`one_match.rs`), a user's
//! page and the API's page (`users.rs`), and the same as JSON under `/api` (readable
//! from other origins). The data is [`crate::standings`]'s.

mod leaderboard;
mod matches;
mod one_match;
mod users;

use axum::routing::get;
use axum::Router;

use super::format::when;
use super::AppState;
use crate::ids::MatchId;
use crate::standings::MatchRow;

pub use leaderboard::{leaderboard, Leaderboard, LeaderboardCache, Row, LEADERBOARD_FOR};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/leaderboard", get(leaderboard::page))
        .route("/leaderboard/rows", get(leaderboard::rows))
        .route("/matches", get(matches::page))
        .route("/matches/{id}", get(one_match::page))
        .route("/matches/{id}/replay.json", get(one_match::replay_file))
        .route("/matches/{id}/log.txt", get(one_match::game_log))
        .route("/matches/{id}/stderr/{seat}", get(one_match::stderr))
        .route("/users/{name}", get(users::page))
        .route("/api", get(users::api_page))
        .route("/api/leaderboard", get(leaderboard::api))
        .route("/api/matches", get(matches::api))
        .route("/api/matches/{id}", get(one_match::api))
        .route("/api/matches/{id}/replay", get(one_match::replay_file))
}

/// A match as a list shows it.
pub struct ListedMatch {
    pub id: MatchId,
    pub map: String,
    pub turns: String,
    pub duration: String,
    pub when: String,
    /// (rank, bot, its name in the game, its first statistic: `350 gold`, or empty),
    /// best first.
    pub players: Vec<(u32, String, String, String)>,
    /// A challenge's game: unranked.
    pub unranked: bool,
}

impl From<&MatchRow> for ListedMatch {
    fn from(m: &MatchRow) -> Self {
        ListedMatch {
            id: m.id,
            map: m.map.clone(),
            // In the game's word: Vindinium's moves, Bottle Bats' turns.
            turns: m.turns.map_or_else(String::new, |t| {
                crate::games::kind(&m.game).map_or_else(
                    |_| t.to_string(),
                    |k| k.describe().turn.count(t.max(0) as u64),
                )
            }),
            duration: m.seconds.map_or_else(String::new, |s| format!("{s:.1} s")),
            when: m.finished_at.map_or_else(String::new, when),
            players: (m.ranked().into_iter())
                .zip(m.names())
                .zip(m.firsts_text())
                .map(|(((rank, bot), name), first)| (rank, bot, name, first))
                .collect(),
            unranked: m.challenge_id.is_some() || m.tournament_id.is_some() || m.practice,
        }
    }
}
