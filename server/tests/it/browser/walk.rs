//! A newcomer's walk from the home page to a ranked game of the second game, as they
//! would click it: the game's card, its Getting started steps, the New bot form with
//! that game chosen, the game's own starter kit uploaded, its page until it plays, and
//! a ranked game of it opened from its page. No detour: every step is a link of the
//! page before. (Bottle Bats' walk from "New bot" is `site.rs`.)

use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::harness::{browser_tools, wait_for_path, Browser, Site, Visit, BUILD_DEADLINE};

const PASSWORD: &str = "a long enough secret";

/// Polls the site's API at `path` until `done` says yes, at most `limit`.
fn api_until(
    site: &Site,
    path: &str,
    limit: Duration,
    what: &str,
    done: impl Fn(&Value) -> bool,
) -> Value {
    let start = Instant::now();
    loop {
        let (status, body) = site.request("GET", path, &[], b"");
        if status == 200 {
            let v: Value = serde_json::from_str(&body).unwrap();
            if done(&v) {
                return v;
            }
        }
        assert!(
            start.elapsed() < limit,
            "{what}: not within {limit:?} ({body})"
        );
        std::thread::sleep(Duration::from_millis(500));
    }
}

#[test]
fn a_newcomer_walks_from_the_home_page_to_a_ranked_vindinium_game() {
    let Some(tools) = browser_tools("the newcomer's walk browser test") else {
        return;
    };
    let site = Site::start_with("browser-walk", &["--games", "bottlebats,vindinium"]);
    let browser = Browser::open(&tools, "walk");
    let v = &mut Visit::new(&site, &browser.session);
    let b = v.b;
    v.page("/register");
    b.fill("input[name=name]", "wren");
    b.fill("input[name=password]", PASSWORD);
    b.fill("input[name=password2]", PASSWORD);
    b.click("main button[type=submit]");
    wait_for_path(b, "/profile");

    // The home page shows Vindinium as an equal; its card leads to its steps.
    v.page("/");
    b.click("#game-vindinium a[href='/getting-started?game=vindinium']");
    wait_for_path(b, "/getting-started?game=vindinium");
    b.wait_text("main", "Vindinium");
    assert!(
        !b.find_all("a[href='/starters/vindinium/python.zip']")
            .is_empty(),
        "its Python kit is offered"
    );
    v.cam.both("walk-getting-started");
    // Its New bot link opens the form with Vindinium chosen.
    b.click("main a[href='/bots/new?game=vindinium']");
    wait_for_path(b, "/bots/new?game=vindinium");
    assert_eq!(
        b.property(&b.find("form.upload-form select[name=game]"), "value"),
        json!("vindinium")
    );
    // The kit's bot, as it comes.
    let bot = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../games/vindinium/bots/starters/python/bot.py")
        .canonicalize()
        .unwrap();
    b.fill("form.upload-form input[name=name]", "Heron");
    b.send_keys(
        "form.upload-form input[type=file]",
        &bot.display().to_string(),
    );
    b.click("form.upload-form button[type=submit]");
    wait_for_path(b, "/bots/Heron");
    b.wait_text("main h1", "Heron");

    // It is built, passes its test game and plays, then plays a ranked game.
    // (The house bots it is tested against are built first, on a fresh site.)
    api_until(
        &site,
        "/api/bots/Heron",
        BUILD_DEADLINE * 4,
        "version 1 plays",
        |v| v["active_version"] == 1,
    );
    let games = api_until(
        &site,
        "/api/matches?bot=Heron",
        Duration::from_secs(240),
        "a ranked game of Heron",
        |v| v["matches"].as_array().is_some_and(|m| !m.is_empty()),
    );
    let id = games["matches"][0]["id"].as_i64().unwrap();
    let (_, one) = site.request("GET", &format!("/api/matches/{id}"), &[], b"");
    let one: Value = serde_json::from_str(&one).unwrap();
    assert_eq!(
        (one["game"].as_str(), one["ranked"].as_bool()),
        (Some("vindinium"), Some(true))
    );
    // Its page lists the game; the game opens from there.
    v.page("/bots/Heron");
    b.wait_text("#record table.matches", &id.to_string());
    assert!(
        b.text("#record table.matches").contains("gold"),
        "its gold in the list"
    );
    v.cam.both("walk-bot-page");
    b.click(&format!("#record table.matches a[href='/matches/{id}']"));
    wait_for_path(b, &format!("/matches/{id}"));
    b.wait_text("main", "Vindinium");
    v.cam.both("walk-match");
}
