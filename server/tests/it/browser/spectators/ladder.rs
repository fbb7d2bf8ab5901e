//! The ladder the spectators watch, and what a script reads of it: the contestant's
//! bot uploaded over the API, the ladder's database, the pause that holds it still,
//! and the JSON answers the pages are compared with.

use std::time::{Duration, Instant};

use serde_json::Value;

use super::super::harness::Site;
use super::{BOT, FOR_PAGING, OWNER, OWN_MATCHES, PASSWORD, PROBLEM_TURN};
use crate::common;

/// The Python starter kit's bot, telling on stderr what it does each turn and sending
/// a command to a fort that does not exist at `PROBLEM_TURN`.
pub fn contestant_bot() -> Vec<u8> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../games/bottlebats/bots/starters/python/bot.py"
    );
    let source = std::fs::read_to_string(path).unwrap();
    let hook = "        orders = bot.commands()\n";
    assert!(
        source.contains(hook),
        "the starter bot's main loop changed: update this test's hook"
    );
    source
        .replacen(
            hook,
            &format!(
                "{hook}        print(\"turn %d: %d orders\" % (bot.turn, len(orders)), file=sys.stderr, flush=True)\n\
                 \x20       if bot.turn == {PROBLEM_TURN}:\n\
                 \x20           orders.append((\"nowhere\", \"else\", 1))\n"
            ),
            1,
        )
        .into_bytes()
}

/// A JSON answer of the site, read as a script would.
pub fn get_json(site: &Site, path: &str, headers: &[(&str, &str)]) -> Value {
    let (status, body) = site.request("GET", path, headers, b"");
    assert_eq!(status, 200, "GET {path}: {body}");
    serde_json::from_str(&body).unwrap_or_else(|e| panic!("GET {path}: {e}: {body}"))
}

/// The ids of a page of `/api/matches` (with `query`), and the next cursor.
pub fn api_match_ids(site: &Site, query: &str) -> (Vec<i64>, Option<i64>) {
    let v = get_json(site, &format!("/api/matches{query}"), &[]);
    let ids = v["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_i64().unwrap())
        .collect();
    (ids, v["next_cursor"].as_i64())
}

/// The ladder's database, to see when no match is running.
pub struct Db {
    rt: tokio::runtime::Runtime,
    pool: sqlx::PgPool,
}

impl Db {
    pub fn open(url: &str) -> Db {
        let rt = tokio::runtime::Runtime::new().unwrap();
        let pool = rt
            .block_on(
                sqlx::postgres::PgPoolOptions::new()
                    .max_connections(1)
                    .connect(url),
            )
            .unwrap();
        Db { rt, pool }
    }

    pub fn count(&self, sql: &'static str) -> i64 {
        self.rt
            .block_on(sqlx::query_scalar::<_, i64>(sql).fetch_one(&self.pool))
            .unwrap()
    }
}

/// `bottlebats admin pause`, then waits for the match being played to be recorded and
/// for `/api/leaderboard` to count it (the site may serve a leaderboard a moment old):
/// from then on the ladder holds still.
pub fn pause(site: &Site, db: &Db) {
    assert!(site.admin(&["pause"]).contains("paused"));
    let start = Instant::now();
    while db.count("select count(*) from matches where status = 'running'") > 0 {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "a match still runs a minute after the pause"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let played = db.count(
        "select count(*) from match_players p join matches m on m.id = p.match_id \
         where m.status = 'finished'",
    );
    while games(&get_json(site, "/api/leaderboard", &[])) != played {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "/api/leaderboard does not count the {played} games played"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The games of all bots of a leaderboard, as `/api/leaderboard` says.
pub fn games(board: &Value) -> i64 {
    board["leaderboard"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["games"].as_i64().unwrap())
        .sum()
}

/// A bot's rank in `/api/leaderboard`.
pub fn board_rank(board: &Value, bot: &str) -> i64 {
    board["leaderboard"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["bot"] == bot)
        .unwrap_or_else(|| panic!("{bot} is not on the leaderboard"))["rank"]
        .as_i64()
        .unwrap()
}

/// A contestant and a stranger with an account, and an API token of the contestant's
/// from `bottlebats admin create-token`: the `Authorization` header it makes.
pub fn a_contestant_and_a_stranger_sign_up(site: &Site) -> String {
    site.admin(&["create-user", OWNER, "--password", PASSWORD]);
    site.admin(&["create-user", "otto", "--password", PASSWORD]);
    let out = site.admin(&["create-token", OWNER, "--name", "ci"]);
    let token = out.lines().last().unwrap_or("").trim().to_string();
    format!("Bearer {token}")
}

/// The contestant's bot over the API; returns when it was uploaded.
pub fn the_contestant_uploads_a_bot_over_the_api(site: &Site, auth: &str) -> Instant {
    let (content_type, body) =
        common::multipart(&[("name", BOT)], Some(("bot.py", &contestant_bot())));
    let (status, answer) = site.request(
        "POST",
        "/api/bots",
        &[
            ("Content-Type", content_type.as_str()),
            ("Authorization", auth),
        ],
        &body,
    );
    assert_eq!(status, 201, "{answer}");
    Instant::now()
}

/// Polls the bot's version as a script would until it plays.
pub fn it_goes_live(site: &Site, auth: &str, uploaded: Instant) {
    loop {
        let v = get_json(
            site,
            &format!("/api/bots/{BOT}"),
            &[("Authorization", auth)],
        );
        match v["versions"][0]["status"].as_str().unwrap_or("") {
            "active" => break,
            "pending" | "building" | "testing" => {}
            other => panic!("{BOT} version 1 is {other}: {v}"),
        }
        assert!(
            uploaded.elapsed() < Duration::from_secs(90),
            "{BOT} is not live after 90 s"
        );
        std::thread::sleep(Duration::from_millis(250));
    }
}

/// The worker plays on: until the bot has played a few matches and, if it comes soon
/// enough, the list has a second page. Then the ladder is paused; returns the matches
/// finished (the list's paging is checked only with more than a page of them).
pub fn the_ladder_plays_on_then_holds_still(site: &Site, db: &Db, uploaded: Instant) -> usize {
    let mut paging = false;
    loop {
        let (own, _) = api_match_ids(site, &format!("?bot={BOT}"));
        let (_, next) = api_match_ids(site, "");
        paging = paging || next.is_some();
        let waited = uploaded.elapsed();
        if own.len() >= OWN_MATCHES && (paging || waited > Duration::from_secs(75)) {
            break;
        }
        assert!(
            waited < Duration::from_secs(180),
            "{BOT} played {} matches in {} s",
            own.len(),
            waited.as_secs()
        );
        std::thread::sleep(Duration::from_millis(500));
    }
    pause(site, db);
    let finished = db.count("select count(*) from matches where status = 'finished'") as usize;
    if finished < FOR_PAGING {
        eprintln!("only {finished} matches: the list has one page, its paging is not checked");
    }
    finished
}
