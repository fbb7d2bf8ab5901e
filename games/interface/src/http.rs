//! A game's own HTTP API, for bots that play over plain requests rather than as a
//! process: Vindinium's 2014 clients post a key to start a game, then each move to the
//! address the previous answer gave, and each answer (long-polled) is the state at
//! their next move. The server carries such an API over a remote seat (the runner
//! plays it as any seat); the game says only what its API's texts, answers and moves
//! look like.

/// The addresses and names an answer carries besides the seat's view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Addresses<'a> {
    /// The game's id in the API's addresses (the site's match number).
    pub game_id: &'a str,
    /// The seat's secret for its moves.
    pub token: &'a str,
    /// Where a person watches the game (the match page).
    pub view_url: &'a str,
    /// Where the bot posts its next move.
    pub play_url: &'a str,
}

/// The texts an API answers with when a request is refused, as its clients know them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Refusals {
    /// No key was sent.
    pub no_key: &'static str,
    /// The key is no remote bot's.
    pub unknown_key: &'static str,
    /// No game has this id.
    pub unknown_game: &'static str,
    /// The token is no seat's of the game (or the game is long over).
    pub unknown_token: &'static str,
    /// A move was posted while the seat waits for the others.
    pub not_your_turn: &'static str,
    /// The seat's move came too late: it crashed.
    pub timed_out: &'static str,
    /// The game is over.
    pub finished: &'static str,
}

/// A game's HTTP API: its paths are the server's, its words and shapes the game's.
pub trait HttpApi: Send + Sync {
    /// The texts of its refusals.
    fn refusals(&self) -> &'static Refusals;
    /// A refusal's text as the API says it (Vindinium: `Vindinium - ` first).
    fn refusal(&self, text: &str) -> String;
    /// The turn limit of a practice game asked for `turns` turns (Vindinium counts
    /// rounds of four moves, at most 600).
    fn practice_turns(&self, turns: u32) -> u32;
    /// The answer to a request: the view the runner wrote for the seat (`view`, as
    /// [`crate::Match::view`] gave it) with the addresses, as the API's JSON.
    fn answer(&self, view: &[u8], at: &Addresses<'_>) -> Result<Vec<u8>, String>;
    /// The bot's reply, as the runner reads it from a process, for a move request's
    /// form fields; `None` when the request carries no move at all.
    fn reply(&self, fields: &[(String, String)]) -> Option<Vec<u8>>;
}
