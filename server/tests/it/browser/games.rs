//! Vindinium served beside Bottle Bats, in headless Chromium: a fresh `bottlebats
//! serve --games bottlebats,vindinium` builds its house heroes and plays rated
//! Vindinium games among them next to the Bottle Bats ladder; a visitor opens one from
//! the Vindinium match list and watches it in the viewer (the grid, the heroes, their
//! gold), with the result table of gold, mines and deaths, at 1366 × 768 and on a
//! phone. Screenshots in `target/screenshots/served-vindinium-*.png`.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::harness::{browser_tools, viewport, Browser, Site, Visit};
use super::viewer::page::{no_errors, wait_until, watch_errors};
use super::webdriver::Session;

const LAPTOP: (u32, u32) = (1366, 768);
const PHONE: (u32, u32) = (390, 844);

/// The move the match page's viewer shows.
fn turn(b: &Session) -> u64 {
    let v = b.execute("return document.querySelector('#viewer').dataset.turn;");
    v.as_str()
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| panic!("no data-turn: {v}"))
}

/// The newest finished match of `game`, waiting for one (at most `limit`).
fn a_finished_match(site: &Site, game: &str, limit: Duration) -> Value {
    let start = Instant::now();
    loop {
        let (status, body) = site.request("GET", &format!("/api/matches?game={game}"), &[], b"");
        assert_eq!(status, 200, "{body}");
        let v: Value = serde_json::from_str(&body).unwrap();
        if let Some(m) = v["matches"].as_array().and_then(|m| m.first()) {
            return m.clone();
        }
        assert!(
            start.elapsed() < limit,
            "no {game} match finished within {limit:?}"
        );
        std::thread::sleep(Duration::from_millis(500));
    }
}

#[test]
fn a_served_vindinium_game_is_played_rated_and_watched() {
    let Some(tools) = browser_tools("the served Vindinium browser test") else {
        return;
    };
    let site = Site::start_with("served-vindinium", &["--games", "bottlebats,vindinium"]);
    let m = a_finished_match(&site, "vindinium", Duration::from_secs(240));
    let id = m["id"].as_i64().unwrap();
    assert_eq!(m["players"].as_array().unwrap().len(), 4, "{m}");
    let bottlebats = a_finished_match(&site, "bottlebats", Duration::from_secs(120));
    assert_ne!(bottlebats["id"], m["id"], "each game has its own list");
    let (_, body) = site.request("GET", &format!("/api/matches/{id}"), &[], b"");
    let full: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(full["game"], "vindinium");
    assert_eq!(full["ranked"], true);
    assert!(full["players"][0]["mu_after"].is_number(), "rated: {full}");

    let browser = Browser::open(&tools, "served-vindinium");
    let v = &mut Visit::new(&site, &browser.session);
    let b = v.b;
    viewport(b, LAPTOP);
    v.page("/matches?game=vindinium");
    b.wait_text("main h1", "Matches");
    v.page(&format!("/matches/{id}"));
    watch_errors(b);
    wait_until(
        b,
        "the Vindinium viewer opened the match",
        Duration::from_secs(15),
        "const v = document.querySelector('#viewer');
         return !!v && v.classList.contains('bbv-vindinium') && v.dataset.ready === '1';",
    );
    let names = b.execute(
        "return [...document.querySelectorAll('#viewer .bbv-legend .bbv-name')].map(e => e.textContent).sort();",
    );
    let mut seated: Vec<String> = (full["players"].as_array().unwrap().iter())
        .map(|p| p["bot"].as_str().unwrap().to_string())
        .collect();
    seated.sort();
    assert_eq!(names, json!(seated), "the legend names the match's heroes");
    let heads = b.execute(
        "return [...document.querySelectorAll('table.result thead th')].map(e => e.textContent.trim());",
    );
    for stat in ["Gold", "Mines", "Deaths"] {
        assert!(heads.as_array().unwrap().contains(&json!(stat)), "{heads}");
    }
    // Playing moves the game on; the end shows the winner's gold.
    b.click("#viewer button.bbv-play");
    wait_until(
        b,
        "playing moves on",
        Duration::from_secs(10),
        "return Number(document.querySelector('#viewer').dataset.turn) >= 40;",
    );
    b.click("#viewer button.bbv-play");
    assert!(turn(b) >= 40);
    b.click_at("#viewer input.bbv-range", 0.5, Some(0.3));
    let mid = turn(b);
    assert!((450..=750).contains(&mid), "scrubbed to move {mid}");
    b.execute("document.querySelector('#viewer .bbv-summary').scrollIntoView({block: 'start'});");
    v.cam.snap("served-vindinium-laptop");
    viewport(b, PHONE);
    let wide = b.execute(
        "return document.documentElement.scrollWidth <= document.documentElement.clientWidth;",
    );
    assert_eq!(wide, json!(true), "no sideways scroll on a phone");
    v.cam.snap("served-vindinium-phone");
    viewport(b, LAPTOP);
    no_errors(b, "watching a served Vindinium match");
}
