//! A remote bot on the ladder: rated games of Bottle Bats and of Vindinium played from
//! "home" (`bottlebats connect`), the bot flagged remote wherever it is shown, the same
//! program uploaded playing the same moves, and practice games.

use std::time::Duration;

use serde_json::Value;

use super::{connect, get_json, key, matches_of, site, user, Site};

/// A stored replay, as the site serves it.
fn replay(site: &Site, id: i64) -> Value {
    get_json(site, &format!("/matches/{id}/replay.json"))
}

#[test]
fn a_remote_bot_plays_rated_games_of_both_games_and_is_flagged_remote() {
    let (site, db) = site("remote-ladder", &[]);
    user(&site, "alice");
    for (game, bot) in [("bottlebats", "alice-bats"), ("vindinium", "alice-hero")] {
        let key = key(&site, "alice", bot, game);
        let mut home = connect(&site, &key, &["--games", "2"], &[]);
        home.wait_line(
            &format!("connected as `{bot}` ({game}, ladder)"),
            Duration::from_secs(30),
        );
        let offered = home.wait_line(", ranked, ", Duration::from_secs(60));
        assert!(
            offered.contains(&format!("{}/matches/", site.url)),
            "{offered}"
        );
        let (status, out) = home.wait_exit(Duration::from_secs(600));
        assert!(status.success(), "{out}");
        assert!(out.contains("played 2 match(es); done"), "{out}");
        // Each match's result and reply times, and the bot's stderr shown at home.
        assert!(out.contains("reply time on the site's clock"), "{out}");
        assert!(out.contains("turn 0"), "{out}");
        let played = matches_of(&db, bot);
        assert_eq!(played.len(), 2, "{played:?}");
        assert!(
            played
                .iter()
                .all(|&(_, ranked, practice, remote)| ranked && !practice && remote),
            "{played:?}"
        );
        // Rated on its game's ladder, with the same ratings as everyone.
        let board = get_json(&site, &format!("/api/leaderboard?game={game}"));
        let me = (board["leaderboard"].as_array().unwrap().iter())
            .find(|b| b["bot"] == bot)
            .unwrap_or_else(|| panic!("{bot} on the {game} leaderboard: {board}"));
        assert_eq!(me["games"], 2, "{me}");
        assert_eq!(me["remote"], true, "{me}");
        let them = board["leaderboard"].as_array().unwrap();
        assert!(them.iter().any(|b| b["remote"] == false), "{board}");
        // Its page and API say so; its matches show its seat as remote.
        let api = get_json(&site, &format!("/api/bots/{bot}"));
        assert_eq!(api["remote"], true, "{api}");
        let id = played[0].0;
        let m = get_json(&site, &format!("/api/matches/{id}"));
        let seat = (m["players"].as_array().unwrap().iter())
            .find(|p| p["bot"] == bot)
            .unwrap_or_else(|| panic!("{m}"));
        assert_eq!(seat["remote"], true, "{m}");
        let (_, page) = site.request("GET", &format!("/matches/{id}"), &[], b"");
        assert!(page.contains("class=\"remote\""), "{page}");
        let (_, page) = site.request("GET", &format!("/bots/{bot}"), &[], b"");
        assert!(page.contains("class=\"remote\""), "{page}");
        // The replay keeps each reply's time, the network included.
        assert!(replay(&site, id).to_string().contains("\"ms\""));
    }
}
