//! The contest's end in a real browser, on `bottlebats serve` with its worker and the
//! house bots' ladder running: an organizer starts a round robin of the 4 house bots
//! on 2 maps from `/admin`, and its page follows the games without a reload to the
//! final standings, which say what the API says; then a slow bot's tournament game is
//! watched on `/live` (the big screen, at 1920×1080 and phone width) and on its match
//! page, whose turn advances while the worker still plays it. The channel: the pace set
//! to its least on `/admin`, the finished round robin's big screen plays its first game
//! (played in a fraction of a second) over many seconds, says "Finished" only at its
//! last turn, then the standings; the slow tournament's screen ends on its final
//! standings, which stay.
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
    for (map, _) in server::games::content("bottlebats").unwrap().maps() {
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
    pace_from_admin(v);
    a_fast_game_at_a_human_pace(v, id);
    watch_a_game_live(v, id);
    the_final_standings_stay(v, id + 1);
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

/// The channel's pace and delay set on /admin, at their least.
fn pace_from_admin(v: &mut Visit) {
    v.page("/admin");
    v.b.fill("form.live-form input[name=seconds]", "10");
    v.b.fill("form.live-form input[name=delay]", "0");
    v.cam.scroll_to("#live");
    v.cam.both("admin-live-form");
    v.b.click("form.live-form button[type=submit]");
    wait_for_path(v.b, "/admin");
    assert!(
        v.b.text(".alert.success").contains("over 10 s"),
        "{}",
        v.b.text("main")
    );
}

/// Where the big screen stands: its state, the game and the turn shown.
fn screen_state(b: &Session) -> (String, i64, i64) {
    let s = b.execute(
        "const e = document.querySelector('[data-screen]'); \
         return [e.getAttribute('data-state'), +e.getAttribute('data-match'), +e.getAttribute('data-turn')]",
    );
    let n = |i: usize| s[i].as_i64().unwrap_or(0);
    (s[0].as_str().unwrap_or("").to_string(), n(1), n(2))
}

/// Waits until the big screen is in `state`, and says where it stands then.
fn wait_state(b: &Session, state: &str, limit: Duration) -> (String, i64, i64) {
    let deadline = Instant::now() + limit;
    loop {
        let now = screen_state(b);
        if now.0 == state {
            return now;
        }
        if Instant::now() >= deadline {
            b.give_up(&format!("the big screen is not `{state}`: {now:?}"));
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The finished round robin's screen: its first game, played by the worker in a
/// fraction of a second, shown over about the pace (10 s); "Finished" only at its last
/// turn; then the standings over the games shown so far.
fn a_fast_game_at_a_human_pace(v: &mut Visit, t: i64) {
    let site = v.site;
    viewport(v.b, (1920, 1080));
    v.page(&format!("/tournaments/{t}/screen"));
    let first: i64 = first_game(site, t);
    let mut samples = Vec::new();
    let started = Instant::now();
    let mut snapped = false;
    loop {
        let (state, shown, turn) = screen_state(v.b);
        if shown == first && state == "ended" {
            break;
        }
        if shown == first {
            assert!(
                ["waiting", "replay"].contains(&state.as_str()),
                "a game played already is a replay until its end: {state}"
            );
            samples.push((started.elapsed().as_secs_f64(), turn));
            if !snapped && turn > 20 {
                v.cam.snap("screen-replay-1920x1080");
                snapped = true;
            }
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the first game never ended: {samples:?}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    let (_, _, last) = screen_state(v.b);
    assert_eq!(v.b.text("[data-screen-state]"), "Finished");
    let m = json_of(site, &format!("/api/matches/{first}"));
    let turns = m["turns"].as_i64().unwrap();
    assert!(
        (turns - 1..=turns).contains(&last),
        "Finished at turn {last} of {turns}"
    );
    let moving: Vec<&(f64, i64)> = samples.iter().filter(|s| s.1 > 0).collect();
    let (from, to) = (moving.first().unwrap(), moving.last().unwrap());
    assert!(
        to.0 - from.0 > 6.0 && to.1 > from.1,
        "the game was not played at a human pace: {samples:?}"
    );
    assert!(
        samples.windows(2).all(|w| w[1].1 >= w[0].1),
        "the turn went back: {samples:?}"
    );
    assert!(
        v.b.text("[data-screen-winner]").contains("wins")
            || v.b.text("[data-screen-winner]").contains("draw")
    );
    v.cam.snap("screen-result-1920x1080");
    eprintln!(
        "a game of {turns} turns played over {:.1} s at a pace of 10 s",
        to.0 - from.0
    );
    // Between the games: the standings over the one shown, then the second game.
    wait_state(v.b, "standings", Duration::from_secs(15));
    assert_eq!(v.b.find_all("[data-screen-standings] li").len(), 4);
    assert!(v
        .b
        .text("[data-screen-standings]")
        .contains("After 1 game of 24"));
    v.cam.snap("screen-standings-1920x1080");
    let (_, second, _) = wait_state(v.b, "replay", Duration::from_secs(15));
    assert!(second > first, "the games in order: {second} after {first}");
    viewport(v.b, (390, 844));
    v.page(&format!("/tournaments/{t}/screen"));
    let deadline = Instant::now() + Duration::from_secs(20);
    while screen_state(v.b).2 < 20 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(200));
    }
    v.cam.snap("screen-replay-390x844");
    wait_state(v.b, "standings", Duration::from_secs(40));
    v.cam.snap("screen-standings-390x844");
}

/// The game the channel shows first of tournament `t`.
fn first_game(site: &Site, t: i64) -> i64 {
    let v = json_of(site, &format!("/api/live?tournament={t}&after=0"));
    v["match"].as_i64().unwrap()
}

/// The slow tournament's screen: its games, then the final standings, which stay.
fn the_final_standings_stay(v: &mut Visit, t: i64) {
    for size in [(1920, 1080), (390, 844)] {
        viewport(v.b, size);
        v.page(&format!("/tournaments/{t}/screen"));
        wait_state(v.b, "final", PLAY_DEADLINE);
        let text = v.b.text("[data-screen-standings]");
        assert!(text.contains("Exhibition: final standings"), "{text}");
        assert_eq!(v.b.find_all("[data-screen-standings] li").len(), 2);
        std::thread::sleep(Duration::from_secs(6));
        assert_eq!(screen_state(v.b).0, "final", "the final standings stay");
        v.cam.snap(&format!("screen-final-{}x{}", size.0, size.1));
    }
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

/// The big screen's turn once it follows match `id` live, past its first turns. The
/// match may wait for the worker a while on a loaded machine (it waited over 30 s in CI
/// while another test built): the screen says "waiting" meanwhile, as it should.
fn turn_when_live(b: &Session, id: &str) -> i64 {
    let deadline = Instant::now() + Duration::from_secs(120);
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

/// The tournament form with two games open: choosing a game of four offers only its
/// groups, of four players, and a refused form comes back as typed, its field at fault
/// focused; choosing the two-player game again offers every format.
#[test]
fn the_tournament_form_offers_what_the_chosen_game_plays_and_keeps_what_was_typed() {
    let Some(tools) = browser_tools("the tournament form's browser test") else {
        return;
    };
    let site = Site::start_with("tournament-form", &["--games", "bottlebats,vindinium"]);
    site.admin(&["create-user", "olga", "--admin", "--password", PASSWORD]);
    let browser = Browser::open(&tools, "tournament-form");
    let v = &mut Visit::new(&site, &browser.session);
    let b = v.b;
    v.page("/login");
    b.fill("input[name=name]", "olga");
    b.fill("input[name=password]", PASSWORD);
    b.click("main button[type=submit]");
    wait_for_path(b, "/admin");
    // What the form offers now: each format's value, whether it is offered, the format
    // chosen, the players' least, and the format's hint.
    let offered = |b: &Session| {
        b.execute(
            "const f = document.querySelector('form.tournament-form');
             const format = f.querySelector('select[name=format]');
             return [[...format.options].map(o => o.value + (o.disabled ? ' no' : ' yes')).join(', '),
                     format.value, f.querySelector('input[name=players]').min,
                     f.querySelector('[data-tournament-hint]').textContent];",
        )
    };
    let all = "round-robin yes, groups yes, swiss yes";
    let now = offered(b);
    assert_eq!(
        (now[0].as_str(), now[1].as_str()),
        (Some(all), Some("round-robin")),
        "{now}"
    );
    b.click("form.tournament-form select[name=game] option[value=vindinium]");
    let now = offered(b);
    assert_eq!(
        now,
        serde_json::json!([
            "round-robin no, groups yes, swiss no",
            "groups",
            "4",
            "A game of Vindinium has 4 players: free-for-all groups only."
        ])
    );
    b.fill("form.tournament-form input[name=name]", "Heroes");
    b.fill("form.tournament-form input[name=seed]", "abc");
    b.click("form.tournament-form button[type=submit]");
    let said = b.wait_text("#tournament-error", "Seed:");
    assert!(said.contains("abc is not a whole number"), "{said}");
    let kept = b.execute(
        "const f = document.querySelector('form.tournament-form');
         return [f.querySelector('select[name=game]').value, f.querySelector('select[name=format]').value,
                 f.querySelector('input[name=name]').value, f.querySelector('input[name=seed]').value,
                 document.activeElement.name];",
    );
    assert_eq!(
        kept,
        serde_json::json!(["vindinium", "groups", "Heroes", "abc", "seed"])
    );
    v.cam.scroll_to("#tournaments");
    v.cam.snap("admin-tournament-refused");
    b.click("form.tournament-form select[name=game] option[value=bottlebats]");
    let now = offered(b);
    assert_eq!(
        (now[0].as_str(), now[1].as_str(), now[2].as_str()),
        (Some(all), Some("groups"), Some("2")),
        "{now}"
    );
}
