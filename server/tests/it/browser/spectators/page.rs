//! Reading and driving the spectators' pages in the browser: waits, logins, tables,
//! clicks on the scrub bar, the turn and forts the viewer shows, and what the page
//! fetches.

use std::time::{Duration, Instant};

use bottlebats::Replay;
use serde_json::json;

use super::super::harness::{expected_forts, wait_for_path, Site};
use super::super::webdriver::Session;
use super::PASSWORD;

/// Waits up to `limit` for `done`, every 50 ms.
pub fn wait_until(b: &Session, what: &str, limit: Duration, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        if start.elapsed() > limit {
            b.give_up(&format!("{what}: not within {} s", limit.as_secs_f64()));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Logs in through the form.
pub fn log_in(b: &Session, site: &Site, name: &str) {
    b.goto(&format!("{}/login", site.url));
    b.fill("input[name=name]", name);
    b.fill("input[name=password]", PASSWORD);
    b.click("main button[type=submit]");
    wait_for_path(b, "/profile");
    b.wait_text("header .account .who", name);
}

pub fn log_out(b: &Session) {
    b.click("header .account button");
    b.wait_text("header .account", "Log in");
}

/// The cells' text of each row of the table `css`, as the browser shows it.
pub fn table(b: &Session, css: &str) -> Vec<Vec<String>> {
    let v = b.execute(&format!(
        "return [...document.querySelectorAll('{css} tbody tr')].map(tr =>
           [...tr.cells].map(td => td.innerText.trim()));"
    ));
    serde_json::from_value(v).unwrap()
}

/// The match ids of a list of matches (`match_rows.html`) on the page.
pub fn listed_ids(b: &Session, css: &str) -> Vec<i64> {
    table(b, css)
        .iter()
        .map(|r| r[0].parse().unwrap_or_else(|_| panic!("a match id: {r:?}")))
        .collect()
}

/// The turn the viewer shows (its container's `data-turn`).
pub fn shown_turn(b: &Session) -> usize {
    let v = b.execute("return document.getElementById('viewer').dataset.turn;");
    v.as_str()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no data-turn on #viewer: {v}"))
}

/// Waits for the viewer to have drawn its replay.
pub fn viewer_ready(b: &Session) {
    b.find("#viewer[data-ready]");
}

/// Waits for the address to end with `#t=TURN` (the viewer writes it a moment after a
/// step).
pub fn wait_hash(b: &Session, turn: usize) {
    let want = format!("#t={turn}");
    wait_until(
        b,
        &format!("the address ends with {want}"),
        Duration::from_secs(3),
        || b.url().ends_with(&want),
    );
}

/// Checks that the forts drawn are the replay's at the turn shown, which must be
/// `turn` if given; returns the turn.
pub fn check_forts(b: &Session, replay: &Replay, turn: Option<usize>, what: &str) -> usize {
    let t = shown_turn(b);
    if let Some(want) = turn {
        assert_eq!(t, want, "{what}: the turn shown");
    }
    let drawn: Vec<(String, String, u64)> = serde_json::from_value(b.execute(
        "return [...document.querySelectorAll('#viewer g.bbv-fort')].map(g =>
           [g.dataset.fort, g.dataset.owner, Number(g.dataset.garrison)]);",
    ))
    .unwrap();
    assert_eq!(
        drawn,
        expected_forts(replay, t),
        "{what}: the forts at turn {t}"
    );
    let range = b.execute("return document.querySelector('#viewer input[type=range]').value;");
    assert_eq!(range, json!(t.to_string()), "{what}: the scrub bar");
    t
}

/// The replay of a match, fetched by the page (the browser unpacks the gzip).
pub fn fetch_replay(b: &Session, id: i64) -> Replay {
    let text = b.execute(&format!(
        "return fetch('/api/matches/{id}/replay').then(r => r.text());"
    ));
    bottlebats::replay_v2::read_any(text.as_str().unwrap()).unwrap()
}

/// The HTTP status the page gets for `path`.
pub fn status_in_page(b: &Session, path: &str) -> i64 {
    b.execute(&format!(
        "return fetch('{path}', {{credentials: 'same-origin'}}).then(r => r.status);"
    ))
    .as_i64()
    .unwrap()
}
