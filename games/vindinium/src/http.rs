//! Vindinium's 2014 HTTP API (rules.md §15; the original's `controllers/Api.scala`,
//! `JsonFormat.scala` and `system/Client.scala`): what its clients are answered and how
//! their moves are read. The server serves the paths (`/api/training`, `/api/arena`,
//! `/api/{game}/{token}/play`) over a remote seat; this says the words and shapes.

use game_interface::{Addresses, HttpApi, Refusals};
use serde_json::Value;

/// The original's words for what it refused.
static REFUSALS: Refusals = Refusals {
    no_key: "Did you forget the key parameter?",
    unknown_key: "Key not found",
    unknown_game: "Unknown game",
    unknown_token: "Wrong or expired token",
    not_your_turn: "Wait, you're not supposed to play now",
    timed_out: "Time out! You must play faster",
    finished: "The game is finished",
};

/// The most characters of a `dir` that are read (the longest direction is 5).
const MAX_DIR: usize = 64;

/// Vindinium's API.
pub struct Api;

impl HttpApi for Api {
    fn refusals(&self) -> &'static Refusals {
        &REFUSALS
    }

    /// `Vindinium - TEXT`, as the original's `GameException` says it; its missing
    /// key's text has no prefix.
    fn refusal(&self, text: &str) -> String {
        if text == REFUSALS.no_key {
            return text.to_string();
        }
        format!("Vindinium - {text}")
    }

    /// `min(600, turns) * 4` moves, as the original's training form reads `turns`.
    fn practice_turns(&self, turns: u32) -> u32 {
        turns.min(600) * 4
    }

    /// `{"game", "hero", "token", "viewUrl", "playUrl"}`: the view a hosted bot reads,
    /// the game's id the site's, with the seat's token and addresses.
    fn answer(&self, view: &[u8], at: &Addresses<'_>) -> Result<Vec<u8>, String> {
        let mut v: Value =
            serde_json::from_slice(view).map_err(|e| format!("not a Vindinium view: {e}"))?;
        let Some(object) = v.as_object_mut() else {
            return Err("not a Vindinium view: no object".into());
        };
        if let Some(game) = object.get_mut("game").and_then(Value::as_object_mut) {
            game.insert("id".into(), Value::String(at.game_id.to_string()));
        }
        object.insert("token".into(), Value::String(at.token.to_string()));
        object.insert("viewUrl".into(), Value::String(at.view_url.to_string()));
        object.insert("playUrl".into(), Value::String(at.play_url.to_string()));
        serde_json::to_vec(&v).map_err(|e| e.to_string())
    }

    /// The `dir` field as one line (`North`, `South`, `East`, `West`, `Stay`; anything
    /// else is read as the rules read it: a Stay, with a warning), cut at its first
    /// line break so that one request is one move.
    fn reply(&self, fields: &[(String, String)]) -> Option<Vec<u8>> {
        let dir = fields.iter().find(|(k, _)| k == "dir").map(|(_, v)| v)?;
        let first = dir.split(['\n', '\r']).next().unwrap_or("");
        let mut line: String = first.chars().take(MAX_DIR).collect();
        line.push('\n');
        Some(line.into_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_is_the_view_with_the_sites_id_token_and_addresses() {
        let view = br#"{"game":{"id":"vindinium","turn":0},"hero":{"id":1}}"#;
        let at = Addresses {
            game_id: "17",
            token: "abc",
            view_url: "http://h/matches/17",
            play_url: "http://h/api/17/abc/play",
        };
        let v: Value = serde_json::from_slice(&Api.answer(view, &at).unwrap()).unwrap();
        assert_eq!(v["game"]["id"], "17");
        assert_eq!(v["token"], "abc");
        assert_eq!(v["playUrl"], "http://h/api/17/abc/play");
        assert_eq!(v["viewUrl"], "http://h/matches/17");
        assert_eq!(v["hero"]["id"], 1);
    }

    #[test]
    fn a_move_is_one_line_and_turns_count_rounds_of_four() {
        let f = |d: &str| vec![("dir".to_string(), d.to_string())];
        assert_eq!(Api.reply(&f("North")).unwrap(), b"North\n");
        assert_eq!(Api.reply(&f("West\nNorth")).unwrap(), b"West\n");
        assert_eq!(Api.reply(&[]), None);
        assert_eq!(Api.practice_turns(10), 40);
        assert_eq!(Api.practice_turns(5000), 2400);
        assert_eq!(Api.refusal("Key not found"), "Vindinium - Key not found");
        assert_eq!(
            Api.refusal(REFUSALS.no_key),
            "Did you forget the key parameter?"
        );
    }
}
