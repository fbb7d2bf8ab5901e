//! The replay viewer in a real browser: `bottlebats serve`, headless Chromium through
//! chromedriver, and a 500-turn game of 8 random players on a generated 97-fort map.
//!
//! `/viewer` opens the JSON replay from the file input (nothing is uploaded), plays,
//! scrubs, steps with the keyboard, and every time the forts it draws (their
//! `data-owner` and `data-garrison`) must be the replay's at the turn it shows. The
//! same game as a classic log (`# STEP: n`) must draw the same forts; `#t=123` opens
//! at turn 123; a `?replay=` it cannot load says why. It times how long the 500-turn
//! replay takes to be drawn, and leaves screenshots at desktop and phone width in
//! `target/screenshots/viewer-*.png`. Skipped, saying so, without chromium and
//! chromedriver.

use super::harness;
use super::webdriver;

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use engine::game::Game;
use engine::replay::{Events, Replay};
use engine::scripted::play_random_game;
use harness::{browser_tools, expected_forts, viewport, Browser, Camera, Site, DESKTOP, PHONE};
use serde_json::json;
use webdriver::{Session, ARROW_LEFT, ARROW_RIGHT, END, HOME, SPACE};

/// The first frame of a 500-turn replay must be drawn within this (the goal is under a
/// second; the margin keeps a loaded CI machine from failing the test).
const READY_LIMIT: Duration = Duration::from_secs(3);

/// A 500-turn game of 8 random players on a generated 97-fort map, as a replay.
fn long_game() -> Replay {
    let map = engine::generate::generate(&engine::generate::GenerateOptions {
        players: 8,
        seed: 3,
        forts: Some(97),
    })
    .unwrap();
    let map = Arc::new(map);
    let names: Vec<String> = (1..=8).map(|i| format!("player{i}")).collect();
    for seed in 3..40 {
        let mut game = Game::new(map.clone(), &names, 500).unwrap();
        let mut replay = Replay::start(&game);
        play_random_game(&mut game, seed, |g, ev| replay.push(Events::of(ev), g));
        replay.finish(&game, &game.outcome());
        if replay.turns.len() == 501 {
            return replay;
        }
    }
    panic!("no random game lasted 500 turns");
}

/// Each fort the viewer draws now: (data-fort, data-owner, data-garrison).
fn drawn_forts(b: &Session) -> Vec<(String, String, u64)> {
    let v = b.execute(
        "return [...document.querySelectorAll('[data-viewer] g.bbv-fort')].map(g =>
           [g.dataset.fort, g.dataset.owner, Number(g.dataset.garrison)]);",
    );
    v.as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f[0].as_str().unwrap().to_string(),
                f[1].as_str().unwrap().to_string(),
                f[2].as_u64().unwrap(),
            )
        })
        .collect()
}

/// The turn the viewer shows, from its container's `data-turn`.
fn shown_turn(b: &Session) -> usize {
    let v = b.execute("return document.querySelector('[data-viewer]').dataset.turn;");
    v.as_str()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no data-turn: {v}"))
}

/// Checks that the forts drawn are those of the replay at the turn shown; returns it.
fn check_forts(b: &Session, replay: &Replay, what: &str) -> usize {
    let t = shown_turn(b);
    let drawn = drawn_forts(b);
    let want = expected_forts(replay, t);
    assert_eq!(drawn.len(), want.len(), "{what}: every fort is drawn");
    for (d, w) in drawn.iter().zip(&want) {
        assert_eq!(d, w, "{what}: fort at turn {t}");
    }
    t
}

/// The marches of turn `t` that are on their road (not still at their fort).
fn marches_on_roads(replay: &Replay, t: usize) -> usize {
    replay.turns[t]
        .marches
        .iter()
        .filter(|m| {
            let length = replay.map.roads[m.0].2 as i64;
            let walked = t as i64 - m.4;
            walked > 0 && walked < length
        })
        .count()
}

/// Waits up to `limit` for `script` to return true.
fn wait_until(b: &Session, what: &str, limit: Duration, script: &str) -> Duration {
    let start = Instant::now();
    loop {
        if b.execute(script) == json!(true) {
            return start.elapsed();
        }
        if start.elapsed() > limit {
            b.give_up(&format!("{what}: not within {} ms", limit.as_millis()));
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Opens a local file through the page's file input and waits until it is drawn; the
/// time that took as the test saw it, as the page measured it (from the file chosen
/// to the first frame painted), and the part of it spent reading and parsing the file.
fn open_file(b: &Session, file: &Path) -> (Duration, f64, f64) {
    let name = file.file_name().unwrap().to_str().unwrap();
    let start = Instant::now();
    b.send_keys("input[type=file]", &file.display().to_string());
    let script = format!(
        "const root = document.querySelector('[data-viewer-page]');
         return root.dataset.loaded === '{name}' && root.dataset.openMs !== undefined
           && document.querySelector('[data-viewer]').dataset.ready === '1';"
    );
    wait_until(
        b,
        &format!("{name} is drawn"),
        Duration::from_secs(20),
        &script,
    );
    let seen = start.elapsed();
    let ms = b.execute(
        "const d = document.querySelector('[data-viewer-page]').dataset;
         return [Number(d.openMs), Number(d.readMs)];",
    );
    (seen, ms[0].as_f64().unwrap(), ms[1].as_f64().unwrap())
}

/// Clicks with the mouse at a fraction of the width of the first element matching `css`
/// (scrolled into view), dragging a little on the way as a hand would.
fn click_at(b: &Session, css: &str, fraction: f64) {
    let rect = b.execute(&format!(
        "const e = document.querySelector('{css}'); e.scrollIntoView({{block: 'center'}});
         const r = e.getBoundingClientRect(); return [r.left, r.top, r.width, r.height];"
    ));
    let r: Vec<f64> = rect
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    let y = (r[1] + r[3] / 2.0).round() as i64;
    let x0 = (r[0] + r[2] * (fraction - 0.05)).round() as i64;
    let x1 = (r[0] + r[2] * fraction).round() as i64;
    b.cmd(
        "POST",
        "/actions",
        Some(json!({"actions": [{
            "type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
            "actions": [
                {"type": "pointerMove", "x": x0, "y": y, "origin": "viewport"},
                {"type": "pointerDown", "button": 0},
                {"type": "pointerMove", "x": x1, "y": y, "origin": "viewport", "duration": 100},
                {"type": "pointerUp", "button": 0},
            ],
        }]})),
    );
    b.cmd("DELETE", "/actions", None);
}

/// How the browser draws for `time`: idle, or playing from turn 100 at `speed`. The
/// turns played, and a summary of the intervals between frames.
fn frames(b: &Session, speed: Option<f64>, time: Duration) -> (u64, Frames) {
    if let Some(speed) = speed {
        b.execute(&format!(
            "const v = window.bottleBatsViewer; v.setSpeed({speed}); v.goTo(100); v.play();"
        ));
    }
    b.execute(
        "window.__frames = []; window.__stop = false; let last = null;
         const v = window.bottleBatsViewer, idle = !v.playing();
         const tick = now => {
           if (last !== null && (idle || v.playing())) window.__frames.push(now - last);
           last = now; if (!window.__stop) requestAnimationFrame(tick); };
         requestAnimationFrame(tick);",
    );
    std::thread::sleep(time);
    let played = b
        .execute(
            "const v = window.bottleBatsViewer; const t = v.turn(); v.pause(); v.setSpeed(1);
             return t;",
        )
        .as_u64()
        .unwrap()
        .saturating_sub(if speed.is_some() { 100 } else { 0 });
    let f = b.execute(
        "window.__stop = true; const f = window.__frames.slice(1); f.sort((a, b) => a - b);
         return [f.length, f.reduce((a, b) => a + b, 0) / f.length, f[Math.floor(f.length * 0.95)],
                 f[f.length - 1]];",
    );
    let n = f[0].as_f64().unwrap_or(0.0);
    let summary = Frames {
        per_second: n / time.as_secs_f64(),
        mean: f[1].as_f64().unwrap_or(0.0),
        p95: f[2].as_f64().unwrap_or(0.0),
        max: f[3].as_f64().unwrap_or(0.0),
    };
    (played, summary)
}

/// Intervals between frames, in milliseconds.
struct Frames {
    per_second: f64,
    mean: f64,
    p95: f64,
    max: f64,
}

impl std::fmt::Display for Frames {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:.0} frames a second ({:.1} ms apart, 95% within {:.1} ms, the longest {:.1} ms)",
            self.per_second, self.mean, self.p95, self.max
        )
    }
}

/// Errors and CSP violations the page reports from now on.
fn watch_errors(b: &Session) {
    b.execute(
        "window.__errors = [];
         window.addEventListener('error', e => window.__errors.push(String(e.message)));
         document.addEventListener('securitypolicyviolation',
           e => window.__errors.push('CSP: ' + e.violatedDirective + ' ' + e.blockedURI));",
    );
}

fn no_errors(b: &Session, when: &str) {
    let errors = b.execute("return window.__errors || [];");
    assert_eq!(errors, json!([]), "the page reported errors {when}");
}

/// The status line and headers of a GET, lowercased.
fn response_head(addr: &str, path: &str) -> String {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).unwrap();
    let raw = String::from_utf8_lossy(&raw).to_lowercase();
    raw.split("\r\n\r\n").next().unwrap_or("").to_string()
}

#[test]
fn the_viewer_draws_the_replay_and_the_classic_log_of_a_500_turn_game_at_any_turn() {
    let Some(tools) = browser_tools("the replay viewer's browser test") else {
        return;
    };
    let replay = long_game();
    let last = replay.turns.len() - 1;
    assert_eq!(last, 500);
    let dir = harness::scratch("viewer-files");
    let json_file = dir.join("game.json");
    std::fs::write(&json_file, replay.to_json()).unwrap();
    let log_file = dir.join("game.log");
    let mut log = Vec::new();
    replay.write_classic_log(&mut log).unwrap();
    std::fs::write(&log_file, &log).unwrap();
    let json_size = std::fs::metadata(&json_file).unwrap().len();

    let site = Site::start("viewer");
    let browser = Browser::open(&tools, "viewer");
    let started = Instant::now();
    let b = &browser.session;
    let mut cam = Camera::new(b);

    // The empty page: a file input that says nothing is uploaded.
    b.goto(&format!("{}/viewer", site.url));
    b.wait_text("main h1", "Replay viewer");
    assert!(b
        .text("main label.file")
        .contains("Open a replay or a classic log from your computer; it is not uploaded"));
    assert!(
        !b.displayed(&b.find("[data-viewer]")),
        "no viewer before a file"
    );
    cam.both("viewer-empty");
    watch_errors(b);

    // The JSON replay from the file input: drawn at turn 0, quickly.
    let (seen, page_ms, read_ms) = open_file(b, &json_file);
    assert_eq!(shown_turn(b), 0);
    check_forts(b, &replay, "the first turn");
    assert!(
        Duration::from_secs_f64(page_ms / 1000.0) < READY_LIMIT,
        "the 500-turn replay took {page_ms:.0} ms to be drawn"
    );
    assert_eq!(
        b.find_all("[data-viewer] .bbv-legend tbody tr").len(),
        8,
        "a legend row per player"
    );
    assert_eq!(
        b.text("[data-viewer] .bbv-legend tbody tr:first-child .bbv-name"),
        "player1"
    );
    assert_eq!(b.find_all("[data-viewer] polyline.bbv-series").len(), 16);

    // Play for a while: the turn moves on by itself, marches walk, then pause.
    b.click("[data-viewer] button.bbv-play");
    wait_until(
        b,
        "playing moves to turn 3",
        Duration::from_secs(10),
        "return Number(document.querySelector('[data-viewer]').dataset.turn) >= 3;",
    );
    assert_eq!(
        b.execute("return window.bottleBatsViewer.playing();"),
        json!(true)
    );
    b.click("[data-viewer] button.bbv-play");
    assert_eq!(
        b.execute("return window.bottleBatsViewer.playing();"),
        json!(false)
    );
    let t = check_forts(b, &replay, "after playing");
    assert!(t >= 3, "played to turn {t}");

    // Scrub to about 40% of the game with the mouse.
    click_at(b, "[data-viewer] input.bbv-range", 0.4);
    let t = check_forts(b, &replay, "after scrubbing");
    assert!((150..=250).contains(&t), "scrubbed to turn {t}");
    assert_eq!(
        b.property(&b.find("[data-viewer] input.bbv-range"), "value"),
        json!(t.to_string())
    );
    let on_roads = b
        .execute(
            "return [...document.querySelectorAll('[data-viewer] g.bbv-march')]
               .filter(g => g.getAttribute('display') !== 'none').length;",
        )
        .as_u64()
        .unwrap() as usize;
    assert_eq!(
        on_roads,
        marches_on_roads(&replay, t),
        "the marches on the roads at turn {t}"
    );
    let want = format!("#t={t}");
    wait_until(
        b,
        "the address links to the turn",
        Duration::from_secs(2),
        &format!("return location.hash === '{want}';"),
    );
    let legend = b.text("[data-viewer] .bbv-legend tbody tr:first-child");
    assert!(legend.contains("player1"), "{legend}");
    assert!(b
        .text("[data-viewer] .bbv-turn")
        .starts_with(&t.to_string()));

    // Smoothness: the script time of one frame (marches, flashes, cursors, and the forts
    // and legend when the turn changes), then the frames the browser draws: idle (what
    // this machine gives any page), playing at 1× and at 16×.
    let frame_ms = b
        .execute(
            "const v = window.bottleBatsViewer, t = v.turn(), start = performance.now();
             for (let i = 0; i < 400; i++) v._render(100 + i * 0.37);
             const ms = (performance.now() - start) / 400; v.goTo(t); return ms;",
        )
        .as_f64()
        .unwrap();
    assert!(
        frame_ms < 16.0,
        "a frame takes {frame_ms:.2} ms of script to draw"
    );
    let idle = frames(b, None, Duration::from_secs(1)).1;
    let (played, at_1x) = frames(b, Some(1.0), Duration::from_secs(2));
    assert!(played >= 2, "1× plays some 4 turns in 2 s, not {played}");
    let (played, at_16x) = frames(b, Some(16.0), Duration::from_secs(3));
    assert!(played > 20, "16× plays some 96 turns in 3 s, not {played}");
    b.execute(&format!("window.bottleBatsViewer.goTo({t});"));
    assert_eq!(check_forts(b, &replay, "back after playing"), t);

    // The keyboard, with the focus on the page: arrows step, Home and End jump, space
    // plays and pauses.
    b.execute("document.activeElement.blur();");
    b.press(&[ARROW_RIGHT]);
    assert_eq!(check_forts(b, &replay, "after →"), t + 1);
    b.press(&[ARROW_LEFT, ARROW_LEFT]);
    assert_eq!(check_forts(b, &replay, "after ← ←"), t - 1);
    b.press(&[ARROW_RIGHT]);
    assert_eq!(shown_turn(b), t);
    cam.both("viewer-game");
    b.press(&[END]);
    assert_eq!(check_forts(b, &replay, "after End"), last);
    assert!(b.text("[data-viewer] .bbv-events").contains("Turn 500"));
    cam.both("viewer-end");
    b.press(&[HOME]);
    assert_eq!(check_forts(b, &replay, "after Home"), 0);
    b.press(&[SPACE]);
    assert_eq!(
        b.execute("return window.bottleBatsViewer.playing();"),
        json!(true)
    );
    b.press(&[SPACE]);
    assert_eq!(
        b.execute("return window.bottleBatsViewer.playing();"),
        json!(false)
    );
    check_forts(b, &replay, "after playing with space");

    // The turn-change event the match page listens to.
    let events = b.execute(
        "const seen = []; const v = document.querySelector('[data-viewer]');
         v.addEventListener('turnchange', e => seen.push(e.detail.turn));
         window.bottleBatsViewer.goTo(42); window.bottleBatsViewer.goTo(42);
         window.bottleBatsViewer.goTo(43); return seen;",
    );
    assert_eq!(events, json!([42, 43]), "one event per change of turn");
    assert_eq!(
        b.execute("return window.bottleBatsViewer.turn();"),
        json!(43)
    );

    // The speeds.
    let speeds = b.execute(
        "return [...document.querySelectorAll('[data-viewer] .bbv-speed option')].map(o => o.value);",
    );
    assert_eq!(speeds, json!(["0.5", "1", "2", "4", "8", "16"]));

    // The same game as a classic log: the same forts at the same turn.
    let (log_seen, log_ms, log_read_ms) = open_file(b, &log_file);
    b.execute(&format!("window.bottleBatsViewer.goTo({t});"));
    assert_eq!(check_forts(b, &replay, "the classic log"), t);
    let on_roads = b
        .execute(
            "return [...document.querySelectorAll('[data-viewer] g.bbv-march')]
               .filter(g => g.getAttribute('display') !== 'none').length;",
        )
        .as_u64()
        .unwrap() as usize;
    assert_eq!(
        on_roads,
        marches_on_roads(&replay, t),
        "the classic log's marches"
    );
    assert!(b.text("[data-viewer] .bbv-summary").contains("classic log"));
    for turn in [0, 1, 137, last] {
        b.execute(&format!("window.bottleBatsViewer.goTo({turn});"));
        assert_eq!(check_forts(b, &replay, "the classic log"), turn);
    }
    no_errors(b, "while playing the files");

    // A link to turn 123 opens there (from another page: the same page with another
    // hash would only move the game already open).
    b.goto(&format!("{}/rules", site.url));
    b.goto(&format!("{}/viewer#t=123", site.url));
    b.wait_text("main h1", "Replay viewer");
    watch_errors(b);
    open_file(b, &json_file);
    assert_eq!(check_forts(b, &replay, "#t=123"), 123);
    no_errors(b, "opening at #t=123");

    // At phone width the keyboard still steps (the screenshots above checked that
    // nothing is wider than a phone).
    viewport(b, PHONE);
    b.execute("document.activeElement.blur();");
    b.press(&[ARROW_RIGHT]);
    assert_eq!(shown_turn(b), 124);
    viewport(b, DESKTOP);

    // `?replay=` it cannot load says why.
    b.goto(&format!("{}/viewer?replay=/no/such/replay.json", site.url));
    let said = b.wait_text("[data-viewer-status]", "could not be loaded");
    assert!(said.contains("404"), "{said}");
    assert!(b.text("[data-viewer-status]").contains("404"));
    b.goto(&format!(
        "{}/viewer?replay=https://example.com/replay.json",
        site.url
    ));
    b.wait_text("[data-viewer-status]", "only loads replays from this site");
    b.goto(&format!("{}/viewer?replay=/static/viewer.css", site.url));
    b.wait_text(
        "[data-viewer-status]",
        "neither a Bottle Bats JSON replay nor a classic log",
    );

    // The files are served as they should be.
    for (file, mime) in [
        ("viewer/viewer.mjs", "text/javascript; charset=utf-8"),
        ("viewer.css", "text/css; charset=utf-8"),
    ] {
        let head = response_head(&site.addr, &format!("/static/{file}"));
        assert!(head.starts_with("http/1.1 200"), "{head}");
        assert!(
            head.contains(&format!("content-type: {mime}")),
            "{file}: {head}"
        );
    }

    eprintln!(
        "viewer test: the 500-turn replay ({} forts, 8 players, {:.1} MB of JSON) was drawn \
         {page_ms:.0} ms after the file was chosen (reading and parsing {read_ms:.0} ms; \
         {} ms as the test saw it); the classic log ({:.1} MB) in {log_ms:.0} ms (parsing \
         {log_read_ms:.0} ms; {} ms); a frame takes {frame_ms:.2} ms of script; idle: {idle}; \
         playing at 1×: {at_1x}; at 16×: {at_16x}; {} screenshots; {:.1} s with the browser",
        replay.map.forts.len(),
        json_size as f64 / 1e6,
        seen.as_millis(),
        log.len() as f64 / 1e6,
        log_seen.as_millis(),
        cam.taken.len(),
        started.elapsed().as_secs_f64()
    );
}
