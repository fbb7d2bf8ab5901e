//! A Vindinium replay on `/viewer`, in headless Chromium: the page picks the Vindinium
//! viewer by the replay's format and draws the game of a fixture of
//! `games/vindinium/tests/js_fixtures.rs` (1,200 moves on m5: deaths, a crash,
//! warnings), whose states the crate computed. At 1366 × 768 and at phone width
//! (390 × 844) it opens, plays, seeks with the scrub bar and the keys, and at each
//! state checked the legend's numbers are the crate's and the board's pixels show
//! each hero on its square and each mine in its owner's colour. The same game
//! followed live (viewer/follow.mjs, its stream played by the test) grows to the end.
//! It leaves screenshots in `target/screenshots/vindinium-*.png`.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::super::harness::{self, browser_tools, viewport, Browser, Site, Visit};
use super::super::webdriver::{Session, ARROW_LEFT, ARROW_RIGHT, END, HOME, SPACE};
use super::page::{no_errors, open_file, shown_turn, wait_until, watch_errors};

const LAPTOP: (u32, u32) = (1366, 768);
const PHONE: (u32, u32) = (390, 844);
/// The board's colours of heroes 1 to 4 and of the nugget of a mine nobody owns
/// (render.mjs); an owned mine's nugget has its owner's colour.
const HEROES: [[u8; 3]; 4] = [
    [0xe6, 0x6a, 0x1f],
    [0x56, 0xb4, 0xe9],
    [0x16, 0xb0, 0x8a],
    [0xf0, 0xe4, 0x42],
];
const NEUTRAL: [u8; 3] = [0xd9, 0xb2, 0x3a];

/// A fixture: its stored replay and the crate's states by move.
struct Fixture {
    replay: Value,
    states: Vec<Value>,
}

impl Fixture {
    fn load(name: &str) -> Fixture {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!(
            "../games/vindinium/tests/js/fixtures/vindinium-{name}.json"
        ));
        let f: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        Fixture {
            replay: f["replay"].clone(),
            states: f["states"].as_array().unwrap().clone(),
        }
    }

    /// The stored replay as a visitor's file.
    fn file(&self, name: &str) -> PathBuf {
        let path = harness::scratch("vindinium-files").join(name);
        std::fs::write(&path, self.replay.to_string()).unwrap();
        path
    }

    fn state(&self, t: u64) -> &Value {
        (self.states.iter())
            .find(|s| s["t"] == json!(t))
            .unwrap_or_else(|| panic!("no state {t} in the fixture"))
    }

    /// The mines' squares, in board order (the fixture's `mines` string's order).
    fn mine_squares(&self) -> Vec<(u64, u64)> {
        let map = self.replay["map"].as_str().unwrap();
        let rows = map.lines().filter(|l| !l.is_empty());
        let mut mines = Vec::new();
        for (x, row) in rows.enumerate() {
            for (y, pair) in row.as_bytes().chunks(2).enumerate() {
                if pair[0] == b'$' {
                    mines.push((x as u64, y as u64));
                }
            }
        }
        mines
    }
}

fn near(a: &Value, b: [u8; 3]) -> bool {
    (0..3).all(|i| {
        a[i].as_u64()
            .is_some_and(|c| c.abs_diff(u64::from(b[i])) <= 6)
    })
}

/// The legend's numbers (gold, mines, life, deaths of each hero) and the canvas's
/// colour at each of `points` (`[row, column]` of a square, in squares), at zoom 1.
fn seen(b: &Session, points: &[[f64; 2]]) -> (Value, Vec<Value>) {
    let v = b.execute(&format!(
        "const c = document.querySelector('[data-viewer] canvas'), g = c.getContext('2d');
         const u = c.width / window.bottleBatsViewer.replay.map.size;
         const legend = [...document.querySelectorAll('[data-viewer] .bbv-legend tbody tr')].map(tr =>
           [...tr.querySelectorAll('td.num')].map(td => Number(td.textContent.replace(/,/g, ''))));
         const pixels = {}.map(([x, y]) => [...g.getImageData(Math.floor(y * u), Math.floor(x * u), 1, 1).data]);
         return [legend, pixels];",
        json!(points)
    ));
    (v[0].clone(), v[1].as_array().unwrap().clone())
}

/// Checks the move shown against the crate's state: the turn, the legend's numbers,
/// each hero playing on its square (its disc, left of its number) and each mine's
/// nugget (left of its number) in its owner's colour. Returns the move.
fn check_state(b: &Session, f: &Fixture, what: &str) -> u64 {
    let t = shown_turn(b) as u64;
    let want = f.state(t);
    let heroes = want["heroes"].as_array().unwrap();
    let mines = f.mine_squares();
    let at = |x: &Value, y: &Value, fx: f64, fy: f64| {
        [x.as_f64().unwrap() + fy, y.as_f64().unwrap() + fx]
    };
    let mut points: Vec<[f64; 2]> = heroes
        .iter()
        .map(|h| at(&h[0], &h[1], 0.22, 0.55))
        .collect();
    points.extend(
        mines
            .iter()
            .map(|(x, y)| at(&json!(x), &json!(y), 0.35, 0.5)),
    );
    let (legend, pixels) = seen(b, &points);
    for (i, hero) in heroes.iter().enumerate() {
        // [row, column, life, gold, mines, deaths, crashed]; the legend: gold, mines,
        // life, deaths. A crashed hero is drawn faded.
        let numbers = [&hero[3], &hero[4], &hero[2], &hero[5]];
        assert_eq!(
            legend[i],
            json!(numbers),
            "{what}: hero {} at move {t}",
            i + 1
        );
        assert!(
            hero[6] == json!(true) || near(&pixels[i], HEROES[i]),
            "{what}: hero {} not drawn on ({}, {}) at move {t}: {}",
            i + 1,
            hero[0],
            hero[1],
            pixels[i]
        );
    }
    let owners = want["mines"].as_str().unwrap().as_bytes();
    for (k, (x, y)) in mines.iter().enumerate() {
        let colour = match owners[k] {
            b'-' => NEUTRAL,
            d => HEROES[(d - b'1') as usize],
        };
        let seen = &pixels[heroes.len() + k];
        assert!(
            near(seen, colour),
            "{what}: the mine on ({x}, {y}) at move {t} is {seen}, not its owner's {colour:?}"
        );
    }
    t
}

/// The legend's numbers in `box` (gold, mines, life, deaths of each hero) against the
/// crate's state `t`.
fn check_legend(b: &Session, f: &Fixture, css: &str, t: u64) {
    let legend = b.execute(&format!(
        "return [...document.querySelectorAll('{css} .bbv-legend tbody tr')].map(tr =>
           [...tr.querySelectorAll('td.num')].map(td => Number(td.textContent.replace(/,/g, ''))));"
    ));
    let want: Vec<Value> = (f.state(t)["heroes"].as_array().unwrap().iter())
        .map(|h| json!([h[3], h[4], h[2], h[5]]))
        .collect();
    assert_eq!(legend, json!(want), "{css}: the legend at move {t}");
}

/// A live match as viewer/follow.mjs follows it, its stream played by a stand-in for
/// the server's (the head, then rows in events of 50, then the end): the Vindinium
/// viewer is picked by the head's format, grows and follows the newest move, and ends
/// with the result.
fn a_live_match_is_followed(v: &mut Visit, f: &Fixture) {
    let b = v.b;
    b.execute(
        "class Source {
           constructor(url) { this.url = url; this.on = {}; this.readyState = 1; window.__source = this; }
           addEventListener(type, fn) { (this.on[type] = this.on[type] || []).push(fn); }
           close() { this.readyState = 2; }
           emit(type, data) { for (const fn of this.on[type] || []) fn({ data: JSON.stringify(data) }); }
         }
         Source.CLOSED = 2;
         window.EventSource = Source;
         return import('/static/viewer/follow.mjs').then(({ follow }) => {
           const box = document.createElement('section');
           box.id = 'live-box';
           box.className = 'card viewer-frame';
           document.querySelector('main').appendChild(box);
           window.__live = follow(box, '/matches/1/turns', { viewer: { hash: false, keyboard: false } });
         });",
    );
    let r = &f.replay;
    let head = json!({
        "format": r["format"], "version": r["version"], "map": r["map"],
        "heroes": r["heroes"], "max_turns": r["max_turns"],
    });
    let mut rows = vec![json!({"start": true})];
    for (i, m) in r["moves"].as_str().unwrap().chars().enumerate() {
        rows.push(json!({"m": m.to_string(), "ms": r["ms"][i]}));
    }
    for note in r["notes"].as_array().unwrap() {
        let t = note["t"].as_u64().unwrap() as usize;
        for (k, val) in note.as_object().unwrap() {
            if k != "t" {
                rows[t][k] = val.clone();
            }
        }
    }
    let emit = |kind: &str, data: &Value| {
        b.execute(&format!("window.__source.emit('{kind}', {data});"));
    };
    emit("head", &head);
    let half = 600;
    for from in (0..=half).step_by(50) {
        let to = (from + 50).min(half + 1);
        emit("rows", &json!({"from": from, "rows": rows[from..to]}));
    }
    let state = b.execute(
        "const l = window.__live, box = document.getElementById('live-box');
         return [l.viewer.game.name, box.dataset.liveTurn, l.viewer.live(), box.dataset.liveState];",
    );
    assert_eq!(state, json!(["vindinium", "600", true, "live"]));
    wait_until(
        b,
        "the live viewer catches up with the newest move",
        Duration::from_secs(10),
        "return document.getElementById('live-box').dataset.turn === '600'
           && window.__live.viewer.following();",
    );
    check_legend(b, f, "#live-box", 600);
    b.execute("document.getElementById('live-box').scrollIntoView({block: 'start'});");
    v.cam.snap("vindinium-live");
    for from in (half + 1..rows.len()).step_by(50) {
        let to = (from + 50).min(rows.len());
        emit("rows", &json!({"from": from, "rows": rows[from..to]}));
    }
    emit(
        "end",
        &json!({"status": "finished", "result": r["result"], "replay": null}),
    );
    wait_until(
        b,
        "the live viewer shows the last move",
        Duration::from_secs(20),
        "return document.getElementById('live-box').dataset.turn === '1200'
           && !window.__live.viewer.live();",
    );
    check_legend(b, f, "#live-box", 1200);
    assert!(b
        .text("#live-box .bbv-result")
        .contains("ada wins with 1,285 gold"));
    assert_eq!(b.text("p.bbv-live-status"), "Finished");
    b.execute("document.getElementById('live-box').remove(); document.querySelector('p.bbv-live-status').remove();");
}

/// Scrolls the page to the board, as a visitor would to watch.
fn scroll_to_board(b: &Session) {
    b.execute(
        "document.querySelector('[data-viewer] .bbv-summary').scrollIntoView({block: 'start'});",
    );
}

fn go_to(b: &Session, t: u64) {
    b.execute(&format!("window.bottleBatsViewer.goTo({t});"));
}

#[test]
fn the_viewer_draws_a_vindinium_game_at_laptop_and_phone_width() {
    let Some(tools) = browser_tools("the Vindinium viewer's browser test") else {
        return;
    };
    let f = Fixture::load("m5");
    let file = f.file("vindinium-m5.json");
    let site = Site::start("vindinium-viewer");
    let browser = Browser::open(&tools, "vindinium-viewer");
    let started = Instant::now();
    let v = &mut Visit::new(&site, &browser.session);
    let b = v.b;
    viewport(b, LAPTOP);
    v.page("/viewer");
    b.wait_text("main h1", "Replay viewer");
    watch_errors(b);

    // Opened from the file input: the Vindinium viewer, at move 0, as the crate has it.
    let (_, open_ms, read_ms) = open_file(b, &file);
    assert_eq!(
        b.execute(
            "return document.querySelector('[data-viewer]').classList.contains('bbv-vindinium');"
        ),
        json!(true),
        "the replay's format picks the Vindinium viewer"
    );
    assert_eq!(check_state(b, &f, "opened"), 0);
    assert!(b
        .text("[data-viewer] .bbv-summary")
        .contains("18 × 18 · 20 mines · 1,200 moves"));
    assert_eq!(
        b.find_all("[data-viewer] polyline.bbv-series").len(),
        8,
        "gold and mines, four heroes"
    );
    let names = b.execute(
        "return [...document.querySelectorAll('[data-viewer] .bbv-legend .bbv-name')].map(e => e.textContent);",
    );
    assert_eq!(names, json!(["ada", "bob", "cyd", "dee"]));

    // Play: the move goes on by itself; pause.
    b.click("[data-viewer] button.bbv-play");
    wait_until(
        b,
        "playing moves on",
        Duration::from_secs(10),
        "return Number(document.querySelector('[data-viewer]').dataset.turn) >= 20;",
    );
    b.click("[data-viewer] button.bbv-play");
    assert_eq!(
        b.execute("return window.bottleBatsViewer.playing();"),
        json!(false)
    );
    let t = shown_turn(b) as u64;
    // Back to a state the fixture holds with the keys: ← steps a move.
    b.execute("document.activeElement.blur();");
    for _ in 0..t % 10 {
        b.press(&[ARROW_LEFT]);
    }
    assert_eq!(check_state(b, &f, "played, then ←"), t - t % 10);

    // Seek with the scrub bar to about the middle, then to a kept state.
    b.click_at("[data-viewer] input.bbv-range", 0.5, Some(0.3));
    let mid = shown_turn(b) as u64;
    assert!((500..=700).contains(&mid), "scrubbed to move {mid}");
    b.execute("document.activeElement.blur();");
    for _ in 0..(10 - mid % 10) % 10 {
        b.press(&[ARROW_RIGHT]);
    }
    let mid = check_state(b, &f, "scrubbed, then →");
    wait_until(
        b,
        "the address links to the move",
        Duration::from_secs(2),
        &format!("return location.hash === '#t={mid}';"),
    );
    scroll_to_board(b);
    v.cam.snap("vindinium-laptop");

    // What a frame of playing costs in script (the board drawn, a hero walking, the
    // state replayed when the move changes): measured, for docs/measurements.md.
    let frame_ms = b
        .execute(
            "const v = window.bottleBatsViewer, t = v.turn(), start = performance.now();
             for (let i = 0; i < 400; i++) v._render(100 + i * 0.37);
             const ms = (performance.now() - start) / 400; v.goTo(t); return ms;",
        )
        .as_f64()
        .unwrap();

    // Every state the fixture holds, seeking backwards (each from its keyframe).
    let kept: Vec<u64> = f.states.iter().map(|s| s["t"].as_u64().unwrap()).collect();
    for &t in kept.iter().rev() {
        go_to(b, t);
        check_state(b, &f, "seeking");
    }

    // The problems of a reply: a warning, under the board at the state it answered.
    let warned = (f.replay["notes"].as_array().unwrap().iter())
        .find(|n| n["warning"].is_string())
        .expect("the game has a warning");
    let row = warned["t"].as_u64().unwrap();
    go_to(b, row - 1);
    let problems = b.text("[data-viewer] .bbv-problems");
    let name = ["ada", "bob", "cyd", "dee"][((row - 1) % 4) as usize];
    // The quoted answer is shown as code, without its backquotes.
    let warning = warned["warning"].as_str().unwrap().replace('`', "");
    assert!(
        problems.contains(name) && problems.contains(&warning),
        "{problems}"
    );

    // The crash: the legend says when; the end: the result.
    b.press(&[END]);
    assert_eq!(check_state(b, &f, "End"), 1200);
    assert!(b
        .text("[data-viewer] .bbv-legend")
        .contains("crashed at move"));
    assert!(b.text("[data-viewer] .bbv-events").contains("The end"));
    assert!(b
        .text("[data-viewer] .bbv-result")
        .contains("ada wins with 1,285 gold"));
    scroll_to_board(b);
    v.cam.snap("vindinium-laptop-end");
    b.press(&[HOME]);
    assert_eq!(check_state(b, &f, "Home"), 0);
    b.press(&[SPACE]);
    assert_eq!(
        b.execute("return window.bottleBatsViewer.playing();"),
        json!(true)
    );
    b.press(&[SPACE]);

    // Names and zoom: the tools of the Bottle Bats viewer.
    go_to(b, mid);
    b.click("[data-viewer] button.bbv-names");
    b.click("[data-viewer] button.bbv-zoom-in");
    assert_eq!(
        b.execute("return document.querySelector('[data-viewer] .bbv-map').classList.contains('bbv-zoomed');"),
        json!(true)
    );
    scroll_to_board(b);
    v.cam.snap("vindinium-laptop-zoomed");
    b.execute("window.bottleBatsViewer.command('zoom-reset');");
    b.click("[data-viewer] button.bbv-names");
    check_state(b, &f, "after zooming back");

    // At phone width: the board fills the width, nothing is wider than the screen, and
    // the board still shows the crate's state.
    viewport(b, PHONE);
    let wide = b.execute(
        "return [document.documentElement.scrollWidth, document.documentElement.clientWidth,
                 document.querySelector('[data-viewer] canvas').getBoundingClientRect().width];",
    );
    assert!(
        wide[0].as_f64() <= wide[1].as_f64(),
        "wider than the phone: {wide}"
    );
    assert!(
        wide[2].as_f64().unwrap() >= 300.0,
        "the board at phone width: {wide}"
    );
    check_state(b, &f, "at phone width");
    scroll_to_board(b);
    v.cam.snap("vindinium-phone");
    b.press(&[ARROW_RIGHT]);
    assert_eq!(shown_turn(b) as u64, mid + 1);
    b.press(&[ARROW_LEFT]);
    viewport(b, LAPTOP);
    a_live_match_is_followed(v, &f);
    no_errors(b, "while showing the Vindinium game");

    eprintln!(
        "vindinium viewer test: the 1,200-move replay was drawn {open_ms:.0} ms after the \
         file was chosen (reading and replaying the moves {read_ms:.0} ms); a frame takes \
         {frame_ms:.2} ms of script; {} states checked; {} screenshots; {:.1} s with the \
         browser",
        kept.len(),
        v.cam.taken.len(),
        started.elapsed().as_secs_f64()
    );
}
