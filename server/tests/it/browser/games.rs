//! Vindinium served beside Bottle Bats, in headless Chromium: a fresh `bottlebats
//! serve --games bottlebats,vindinium` builds its house heroes and plays rated
//! Vindinium games among them next to the Bottle Bats ladder; a visitor opens one from
//! the Vindinium match list and watches it in the viewer (the grid, the heroes, their
//! gold), with the result table of gold, mines and deaths, at 1366 × 768 and on a
//! phone. Then an organizer runs a Vindinium tournament of two games, and its big
//! screen (`/tournaments/N/screen`) shows each hero's gold, mines and deaths under the
//! board, the standings between the games, goes on with the game it showed when it is
//! reloaded, and ends on the final standings. Screenshots in
//! `target/screenshots/served-vindinium-*.png` and `screen-vindinium-*.png`.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::harness::{
    browser_tools, viewport, wait_for_id, wait_for_path, wait_long, Browser, Site, Visit,
};
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
    // At move 0 the viewer's result waits for the end of the playback (the page's
    // table stays); the spectator may choose to see it.
    let hidden =
        "return [getComputedStyle(document.querySelector('#viewer .bbv-result')).visibility,
                          getComputedStyle(document.querySelector('.result-card')).display];";
    assert_eq!(
        b.execute(hidden),
        json!(["hidden", "block"]),
        "no winner at move 0"
    );
    assert_eq!(
        b.execute("return document.querySelector('.bbv-hide-result input').checked;"),
        json!(true)
    );
    // Nor a badge's room: a winner's row a badge wider would give it away.
    assert_eq!(
        b.execute(
            "return [...document.querySelectorAll('#viewer .bbv-badge')]
                .map((e) => getComputedStyle(e).display);"
        ),
        json!(["none"]),
        "the hidden badge takes no room"
    );
    let key = |k: &str| {
        b.execute(&format!(
            "document.dispatchEvent(new KeyboardEvent('keydown', {{key: '{k}', bubbles: true}}));"
        ));
    };
    key("End");
    assert_eq!(
        b.execute(hidden)[0],
        json!("visible"),
        "the result at the end"
    );
    key("Home");
    b.click(".bbv-hide-result input");
    assert_eq!(b.execute(hidden)[0], json!("visible"), "shown when chosen");
    // Each name beside its swatch and whole words tall at most two lines, the winner's
    // badge too (it goes under the name rather than squeeze it a letter a line).
    let squeezed = b.execute(
        "return [...document.querySelectorAll('#viewer .bbv-legend .bbv-name')].filter((e) => {
           const name = e.getBoundingClientRect();
           const swatch = e.previousElementSibling.getBoundingClientRect();
           const line = parseFloat(getComputedStyle(e).lineHeight) || 20;
           return name.left < swatch.right || name.top > swatch.bottom || name.height > 2.5 * line;
         }).map((e) => e.textContent);",
    );
    assert_eq!(squeezed, json!([]), "legend names squeezed or pushed under");
    b.execute("localStorage.removeItem('bottlebats-viewer-hide-result');");
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
    vindiniums_live_channel(v);
    a_vindinium_tournament_on_its_big_screen(v);
}

/// `/live?game=vindinium` features the ladder's Vindinium games, each hero's gold under
/// the board (the page asks `/api/live` for its own game's).
fn vindiniums_live_channel(v: &mut Visit) {
    let b = v.b;
    v.page("/live?game=vindinium");
    watch_errors(b);
    wait_screen(
        b,
        "a Vindinium ladder game featured",
        Duration::from_secs(60),
        |s| s.1 > 0 && (s.0 == "replay" || s.0 == "live"),
    );
    wait_until(
        b,
        "four heroes' gold under the board",
        Duration::from_secs(15),
        "const rows = [...document.querySelectorAll('[data-screen-players] li')];
         return rows.length === 4
           && rows.every(li => li.querySelector('b[data-number=gold]') !== null);",
    );
    no_errors(b, "Vindinium's live channel");
}

/// The screen's state, the game it shows and the game of its renderer.
fn screen(b: &Session) -> (String, i64, String) {
    let s = b.execute(
        "const e = document.querySelector('[data-screen]');
         return [e.dataset.state, +(e.dataset.match || 0), e.dataset.game || ''];",
    );
    let text = |i: usize| s[i].as_str().unwrap_or("").to_string();
    (text(0), s[1].as_i64().unwrap_or(0), text(2))
}

/// Waits until `ok` holds of the screen (at most `limit`), and says where it stands.
fn wait_screen(
    b: &Session,
    what: &str,
    limit: Duration,
    ok: impl Fn(&(String, i64, String)) -> bool,
) -> (String, i64, String) {
    let start = Instant::now();
    loop {
        let now = screen(b);
        if ok(&now) {
            return now;
        }
        if start.elapsed() > limit {
            b.give_up(&format!("the big screen: {what}, not {now:?}"));
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// An organizer's Vindinium tournament of two games, at the least pace, on its big
/// screen at 1366 × 768 (see the top).
fn a_vindinium_tournament_on_its_big_screen(v: &mut Visit) {
    const PASSWORD: &str = "a long enough secret";
    v.site
        .admin(&["create-user", "olga", "--admin", "--password", PASSWORD]);
    let b = v.b;
    v.page("/login");
    b.fill("input[name=name]", "olga");
    b.fill("input[name=password]", PASSWORD);
    b.click("main button[type=submit]");
    wait_for_path(b, "/admin");
    b.fill("form.live-form input[name=seconds]", "10");
    b.fill("form.live-form input[name=delay]", "0");
    b.click("form.live-form button[type=submit]");
    wait_for_path(b, "/admin");
    b.fill("form.tournament-form input[name=name]", "Heroes");
    b.click("form.tournament-form select[name=game] option[value=vindinium]");
    b.click("form.tournament-form select[name=format] option[value=groups]");
    b.fill("form.tournament-form input[name=players]", "4");
    b.fill("form.tournament-form input[name=games]", "2");
    b.fill("form.tournament-form input[name=seed]", "7");
    b.click("form.tournament-form button[type=submit]");
    let id = wait_for_id(b, "/tournaments/");
    wait_long(
        b,
        ".tournament-progress h2",
        "Finished: 2 of 2 games",
        Duration::from_secs(240),
    );
    let json = |path: &str| -> Value {
        let (status, body) = v.site.request("GET", path, &[], b"");
        assert_eq!(status, 200, "{path}: {body}");
        serde_json::from_str(&body).unwrap()
    };
    let api = json(&format!("/api/tournaments/{id}"));
    let game_one = &api["matches"][0]["id"];
    assert_eq!(
        json(&format!("/api/matches/{game_one}"))["game"],
        "vindinium",
        "{api}"
    );

    v.page(&format!("/tournaments/{id}/screen"));
    watch_errors(b);
    let long = Duration::from_secs(60);
    let (_, first, game) = wait_screen(b, "the first game shown", long, |s| {
        s.0 == "replay" && s.2 == "vindinium"
    });
    assert_eq!(game, "vindinium");
    wait_until(
        b,
        "each hero's gold, mines and deaths under the board",
        Duration::from_secs(15),
        "const rows = [...document.querySelectorAll('[data-screen-players] li')];
         return rows.length === 4 && rows.every(li => ['gold', 'mines', 'deaths'].every(k =>
           /^[0-9,]+$/.test(li.querySelector(`b[data-number=${k}]`).textContent)))
           && rows.some(li => li.querySelector('b[data-number=gold]').textContent !== '0');",
    );
    let cut = b.execute(
        "return [...document.querySelectorAll('[data-screen-players] .screen-name')]
           .filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent);",
    );
    assert_eq!(cut, json!([]), "every hero's whole name on the screen");
    let words = b.text("[data-screen-players]");
    for word in ["gold", "mines", "deaths"] {
        assert!(words.contains(word), "{word} in {words}");
    }
    assert!(!words.contains("forts"), "no Bottle Bats numbers: {words}");
    assert!(!words.contains("life"), "life is the legend's: {words}");
    v.cam.snap("screen-vindinium-1366x768");
    let (_, second, _) = wait_screen(b, "the second game", long, |s| s.1 != first && s.1 > 0);
    // It was shown after the standings so far, which are the tournament's.
    wait_screen(b, "the second game played", long, |s| s.0 == "replay");
    b.refresh();
    let (_, again, _) = wait_screen(b, "a game shown after the reload", long, |s| s.1 > 0);
    assert_eq!(
        again, second,
        "a reload goes on with the game shown, not the first ({first})"
    );
    wait_screen(b, "the final standings", long, |s| s.0 == "final");
    assert_eq!(b.find_all("[data-screen-standings] li").len(), 4);
    v.cam.snap("screen-vindinium-final-1366x768");
    no_errors(b, "a Vindinium tournament's big screen");
}
