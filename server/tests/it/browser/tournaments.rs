//! The contest's end in a real browser, on `bottlebats serve` with its worker and the
//! house bots' ladder running: an organizer starts a round robin of the 4 house bots
//! on 2 maps from `/admin`, and its page follows the games without a reload to the
//! final standings, which say what the API says; then a slow bot's tournament game is
//! watched on `/live` (the big screen, at 1920×1080 and phone width) and on its match
//! page, whose turn advances while the worker still plays it.
//!
//! Screenshots go to `target/screenshots/`.

use std::time::{Duration, Instant};

use serde_json::Value;

use super::harness::{
    browser_tools, viewport, wait_for_id, wait_for_path, wait_long, Browser, Site, Visit,
    BUILD_DEADLINE,
};
use super::webdriver::Session;
use crate::common;

const PASSWORD: &str = "a long enough secret";
/// How long a tournament's games may take, sharing the worker with the ladder.
const PLAY_DEADLINE: Duration = Duration::from_secs(240);

fn json_of(site: &Site, path: &str) -> Value {
    let (status, body) = site.request("GET", path, &[], b"");
    assert_eq!(status, 200, "GET {path}: {body}");
    serde_json::from_str(&body).unwrap()
}

/// The house bot `idle`, answering each turn after 120 ms: a game that lasts long
/// enough to be watched.
fn sleepy() -> Vec<u8> {
    let idle = server::house::bots()
        .iter()
        .find(|b| b.name == "idle")
        .unwrap()
        .source;
    idle.replacen("import sys", "import sys\nimport time", 1)
        .replacen(
            "        sys.stdout.write(\"0 commands:\\n\")",
            "        time.sleep(0.12)\n        sys.stdout.write(\"0 commands:\\n\")",
            1,
        )
        .into_bytes()
}

#[test]
fn an_organizer_runs_a_tournament_to_its_standings_and_the_big_screen_follows_a_game_live() {
    let Some(tools) = browser_tools("the tournaments' browser test") else {
        return;
    };
    let started = Instant::now();
    let site = Site::start("tournaments");
    for (map, _) in server::games::shipped_maps() {
        if map != "ring-2p" && map != "duel-2p" {
            site.admin(&["disable-map", map]);
        }
    }
    site.admin(&["create-user", "olga", "--admin", "--password", PASSWORD]);
    let browser = Browser::open(&tools, "tournaments");
    let v = &mut Visit::new(&site, &browser.session);
    v.page("/login");
    v.b.fill("input[name=name]", "olga");
    v.b.fill("input[name=password]", PASSWORD);
    v.b.click("main button[type=submit]");
    // An organizer lands where the contest is run.
    wait_for_path(v.b, "/admin");

    let id = round_robin_from_admin(v);
    watch_a_game_live(v, id);
    eprintln!(
        "tournaments browser test: {} screenshots, {:.1} s",
        v.cam.taken.len(),
        started.elapsed().as_secs_f64()
    );
}

/// The form on /admin, then the tournament's page following its 24 games to the end.
fn round_robin_from_admin(v: &mut Visit) -> i64 {
    v.page("/admin");
    v.b.fill("form.tournament-form input[name=name]", "Final");
    v.b.fill("form.tournament-form input[name=maps]", "ring-2p, duel-2p");
    v.b.fill("form.tournament-form input[name=seed]", "2016");
    v.cam.scroll_to("#tournaments");
    v.cam.both("admin-tournament-form");
    v.b.click("form.tournament-form button[type=submit]");
    let id = wait_for_id(v.b, "/tournaments/");
    v.b.wait_text(".tournament-head h1", "Final");
    wait_long(
        v.b,
        ".tournament-progress h2",
        "Finished: 24 of 24 games",
        PLAY_DEADLINE,
    );
    let api = json_of(v.site, &format!("/api/tournaments/{id}"));
    assert_eq!(api["status"], "finished", "{api}");
    assert_eq!(api["seed"], 2016);
    // The standings as the API has them, row for row.
    let rows = v.b.find_all("table.standings tbody tr");
    assert_eq!(rows.len(), 4);
    for (i, row) in rows.iter().enumerate() {
        let text = v.b.text_of(row);
        let want = &api["standings"][i];
        assert!(
            text.starts_with(&format!(
                "{} {} v1 12",
                i + 1,
                want["bot"].as_str().unwrap()
            )),
            "row {i}: {text} against {want}"
        );
    }
    assert!(v
        .b
        .text(".leader-line")
        .contains("is the strongest with probability"));
    assert_eq!(v.b.find_all("table.cross tbody tr").len(), 4);
    v.cam.both("tournament-standings");
    id
}

/// A slow bot's duel in a second tournament, on /live and on its match page: the turn
/// shown advances while the API still says the match runs.
fn watch_a_game_live(v: &mut Visit, first: i64) {
    upload_sleepy(v.site);
    let out = v.site.admin(&[
        "tournament",
        "create",
        "--name",
        "Exhibition",
        "--format",
        "round-robin",
        "--participants",
        "sleepy,idle",
        "--maps",
        "ring-2p",
    ]);
    assert!(out.contains("2 games queued"), "{out}");
    follow_on_the_big_screen(v, first + 1);
    follow_on_the_match_page(v);
}

/// `sleepy` uploaded over the API by olga, and built.
fn upload_sleepy(site: &Site) {
    let token = format!(
        "Bearer {}",
        site.admin(&["create-token", "olga", "--name", "ci"])
            .lines()
            .last()
            .unwrap()
            .trim()
    );
    let (ctype, body) = common::multipart(&[("name", "sleepy")], Some(("bot.py", &sleepy())));
    let headers = [
        ("Content-Type", ctype.as_str()),
        ("Authorization", token.as_str()),
    ];
    let (status, answer) = site.request("POST", "/api/bots", &headers, &body);
    assert_eq!(status, 201, "{answer}");
    let built = Instant::now();
    while json_of(site, "/api/bots/sleepy")["versions"][0]["status"] != "active" {
        assert!(
            built.elapsed() < BUILD_DEADLINE,
            "sleepy was not built in time"
        );
        std::thread::sleep(Duration::from_millis(250));
    }
}

/// /live at a projector's size and a phone's: the tournament's game, its turn moving
/// while the match still runs.
fn follow_on_the_big_screen(v: &mut Visit, id: i64) {
    let site = v.site;
    for size in [(1920, 1080), (390, 844)] {
        viewport(v.b, size);
        v.page("/live");
        let shown = wait_attr(v.b, "[data-screen]", "data-match", PLAY_DEADLINE);
        let m = json_of(site, &format!("/api/matches/{shown}"));
        assert_eq!(
            m["tournament"], id,
            "the featured match is not the tournament's: {m}"
        );
        let t0 = turn_when_live(v.b, &shown);
        std::thread::sleep(Duration::from_millis(1500));
        let t1: i64 = v
            .b
            .execute("return +document.querySelector('[data-screen]').getAttribute('data-turn')")
            .as_i64()
            .unwrap();
        let now = json_of(site, &format!("/api/matches/{shown}"));
        assert!(t1 > t0, "the big screen stayed on turn {t0}");
        assert_eq!(
            now["status"], "running",
            "the match ended before the screen moved: {now}"
        );
        assert!(v.b.text("[data-screen-players]").contains("sleepy"));
        v.cam.snap(&format!("live-{}x{}", size.0, size.1));
    }
}

/// The match page follows the game the big screen shows.
fn follow_on_the_match_page(v: &mut Visit) {
    let shown =
        v.b.execute("return document.querySelector('[data-screen]').getAttribute('data-match')");
    let shown = shown.as_str().unwrap().to_string();
    v.page(&format!("/matches/{shown}"));
    let frame = "#viewer";
    let t0 = wait_attr(v.b, frame, "data-live-turn", Duration::from_secs(20))
        .parse::<i64>()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    let t1 =
        v.b.execute("return +document.querySelector('#viewer').getAttribute('data-live-turn')")
            .as_i64()
            .unwrap();
    assert!(t1 > t0, "the match page stayed on turn {t0}");
    v.cam.both("match-live");
}

/// The value of `attr` on `css` once it has one.
fn wait_attr(b: &Session, css: &str, attr: &str, limit: Duration) -> String {
    let deadline = Instant::now() + limit;
    let script = format!(
        "const e = document.querySelector({css:?}); return e ? e.getAttribute({attr:?}) : null"
    );
    loop {
        if let Some(v) = b.execute(&script).as_str().filter(|s| !s.is_empty()) {
            return v.to_string();
        }
        if Instant::now() >= deadline {
            b.give_up(&format!("`{css}` has no {attr}"));
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// The big screen's turn once it follows match `id` live, past its first turns.
fn turn_when_live(b: &Session, id: &str) -> i64 {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let state = b.execute(
            "const e = document.querySelector('[data-screen]'); \
             return [e.getAttribute('data-match'), e.getAttribute('data-state'), +e.getAttribute('data-turn')]",
        );
        if state[0] == id && state[1] == "live" && state[2].as_i64().unwrap_or(0) > 2 {
            return state[2].as_i64().unwrap();
        }
        if Instant::now() >= deadline {
            b.give_up(&format!(
                "the big screen is not live on match {id}: {state}"
            ));
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}
