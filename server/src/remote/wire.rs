//! The remote protocol's messages, version 1 (docs/remote.md): what the server and a
//! client (`bottlebats connect`, or one written in another language from the
//! document) say over the session's WebSocket. Text frames are these messages as
//! JSON objects with a `type`; binary frames carry a bot's bytes, their first byte the
//! stream ([`STDIN`], [`STDOUT`], [`STDERR`]), the rest the bytes, none for the
//! stream's end.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::ids::{MatchId, TournamentId};

/// The address of a session, below the site's.
pub const PATH: &str = "/api/remote/v1/connect";
/// The header that carries the bot's key.
pub const KEY_HEADER: &str = "bottlebats-key";
/// A binary frame's first byte: the bot's standard input (server to client).
pub const STDIN: u8 = 0;
/// The bot's standard output (client to server).
pub const STDOUT: u8 = 1;
/// The bot's standard error (client to server).
pub const STDERR: u8 = 2;
/// The most bytes after the stream byte in one binary frame.
pub const MAX_CHUNK: usize = 64 * 1024;
/// The most bytes of a text frame from a client.
pub const MAX_TEXT: usize = 4 * 1024;

/// A match as offered to one remote seat.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Offer {
    /// This offer's id, unguessable.
    #[serde(rename = "match")]
    pub id: Uuid,
    /// The match on the site: its page is `/matches/{match_id}`.
    pub match_id: MatchId,
    pub game: String,
    pub map: String,
    /// The remote bot's seat, from 0, and every seat's player.
    pub seat: usize,
    pub players: Vec<String>,
    /// The arguments the bot is started with, as an uploaded bot is: its player's
    /// (its hero's) name.
    pub args: Vec<String>,
    pub ranked: bool,
    pub practice: bool,
    pub tournament: Option<TournamentId>,
    /// Each reply's time on the server's clock, from sending the state to receiving
    /// the reply, the network included: the game's time plus the allowance.
    pub reply_ms: u64,
    /// The same for the first reply.
    pub first_reply_ms: u64,
    /// Of which the allowance for the network.
    pub allowance_ms: u64,
    pub max_turns: u32,
    /// Time to accept, from the offer.
    pub accept_ms: u64,
}

/// A seat's reply times, on the server's clock (the network included).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Latency {
    pub moves: usize,
    pub median_ms: u32,
    pub p90_ms: u32,
    pub max_ms: u32,
}

impl Latency {
    /// Of `ms`, each reply's time; `None` for none.
    pub fn of(ms: &[u32]) -> Option<Latency> {
        if ms.is_empty() {
            return None;
        }
        let mut sorted = ms.to_vec();
        sorted.sort_unstable();
        let at = |q: f64| sorted[((sorted.len() - 1) as f64 * q).round() as usize];
        Some(Latency {
            moves: sorted.len(),
            median_ms: at(0.5),
            p90_ms: at(0.9),
            max_ms: at(1.0),
        })
    }
}

/// How a remote match ended, for one remote seat.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Ending {
    #[serde(rename = "match")]
    pub id: Uuid,
    pub match_id: MatchId,
    /// `finished`, or `void` (it never counts) with the reason.
    pub status: String,
    pub reason: Option<String>,
    pub turns: Option<u32>,
    pub seat: usize,
    pub players: Vec<String>,
    /// Every seat's rank, 1 the best (empty when void).
    pub ranks: Vec<u32>,
    /// `win`, `loss` or `draw`.
    pub outcome: Option<String>,
    /// What removed the bot (a crash, a lost connection), if anything did.
    pub error: Option<String>,
    pub timeouts: u32,
    pub warnings: u64,
    pub latency: Option<Latency>,
    /// What the seat would be sent of the finished game, for a transport whose client
    /// reads states by request (`super::poll`); never on the wire.
    #[serde(skip)]
    pub last_view: Option<Vec<u8>>,
}

/// What the server says.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage {
    /// First, once the session is taken.
    Hello {
        session: Uuid,
        bot: String,
        game: String,
        /// `ladder` or `practice`.
        mode: String,
        ping_seconds: u64,
    },
    /// A match: accept it within `accept_ms`.
    Offer {
        #[serde(flatten)]
        offer: Offer,
        /// The match's page.
        url: String,
    },
    /// Stop the bot's process now (the game is over for it and its time to leave ran
    /// out).
    Kill {
        #[serde(rename = "match")]
        id: Uuid,
    },
    /// The match ended (or was voided).
    End {
        #[serde(flatten)]
        ending: Ending,
        url: String,
    },
    /// The session ends, and why; the server closes the connection after it. With
    /// `reconnect` false a new session would be refused just the same (the key was
    /// revoked, the bot paused or disabled): a client stops.
    Bye { reason: String, reconnect: bool },
}

/// What a client says.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMessage {
    /// Takes the match offered; its bot's bytes may follow.
    Accept {
        #[serde(rename = "match")]
        id: Uuid,
    },
    /// Will not play the match offered (counted as a no-show).
    Decline {
        #[serde(rename = "match")]
        id: Uuid,
        #[serde(default)]
        reason: String,
    },
    /// The bot closed its standard input (writing to it failed).
    InputClosed {
        #[serde(rename = "match")]
        id: Uuid,
    },
    /// The bot's process ended: with an exit code, or killed by a signal.
    Exit {
        #[serde(rename = "match")]
        id: Uuid,
        #[serde(default)]
        code: Option<i32>,
        #[serde(default)]
        signal: Option<i32>,
    },
}

impl ClientMessage {
    /// The raw wait status of an [`ClientMessage::Exit`]'s code or signal.
    pub fn wait_status(code: Option<i32>, signal: Option<i32>) -> i32 {
        match (code, signal) {
            (_, Some(sig)) => sig & 0x7f,
            (Some(code), None) => (code & 0xff) << 8,
            (None, None) => 0,
        }
    }
}
