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

pub mod page;
mod vindinium;
pub mod watching;

use super::harness;
use super::webdriver;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bottlebats::game::Game;
use bottlebats::replay::{Events, Replay};
use bottlebats::scripted::play_random_game;
use harness::{browser_tools, viewport, Browser, Site, Visit, DESKTOP, PHONE};
use page::{
    check_forts, frames, marches_on_roads, marches_shown, no_errors, open_file, response_head,
    shown_turn, wait_until, watch_errors, Frames,
};
use serde_json::json;
use webdriver::{ARROW_LEFT, ARROW_RIGHT, END, HOME, SPACE};

/// The first frame of a 500-turn replay must be drawn within this (the goal is under a
/// second; the margin keeps a loaded CI machine from failing the test).
const READY_LIMIT: Duration = Duration::from_secs(3);

/// A 500-turn game of 8 random players on a generated 97-fort map, as a replay.
fn long_game() -> Replay {
    let map = bottlebats::generate::generate(&bottlebats::generate::GenerateOptions {
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

/// The long game as the two files a visitor would open: the JSON replay and the
/// classic log.
struct Files {
    json: PathBuf,
    /// The same game as a compact (v2) replay.
    compact: PathBuf,
    log: PathBuf,
    json_size: u64,
    log_size: usize,
}

fn files_of(replay: &Replay) -> Files {
    let dir = harness::scratch("viewer-files");
    let json = dir.join("game.json");
    std::fs::write(&json, replay.to_json()).unwrap();
    let log = dir.join("game.log");
    let mut text = Vec::new();
    replay.write_classic_log(&mut text).unwrap();
    std::fs::write(&log, &text).unwrap();
    let json_size = std::fs::metadata(&json).unwrap().len();
    let compact = dir.join("game-v2.json");
    std::fs::write(
        &compact,
        serde_json::to_string(&bottlebats::replay_v2::encode(replay)).unwrap(),
    )
    .unwrap();
    Files {
        json,
        compact,
        log,
        json_size,
        log_size: text.len(),
    }
}

#[test]
fn the_viewer_draws_the_replay_and_the_classic_log_of_a_500_turn_game_at_any_turn() {
    let Some(tools) = browser_tools("the replay viewer's browser test") else {
        return;
    };
    let replay = long_game();
    let last = replay.turns.len() - 1;
    assert_eq!(last, 500);
    let files = files_of(&replay);

    let site = Site::start("viewer");
    let browser = Browser::open(&tools, "viewer");
    let started = Instant::now();
    let v = &mut Visit::new(&site, &browser.session);

    the_empty_page_offers_to_open_a_file(v);
    let (seen, page_ms, read_ms) = the_json_replay_is_drawn_at_turn_0_quickly(v, &replay, &files);
    playing_moves_the_turn_on_until_paused(v, &replay);
    let t = the_mouse_scrubs_to_about_40_percent(v, &replay);
    let (frame_ms, idle, at_1x, at_16x) = frames_are_drawn_smoothly(v, &replay, t);
    the_keyboard_steps_jumps_plays_and_pauses(v, &replay, t, last);
    the_match_page_hears_each_change_of_turn_and_remembers_the_speed(v);
    watching::the_board_and_its_controls_fit_the_window(v, |v| {
        v.page("/viewer");
        open_file(v.b, &files.json);
    });
    let (labels, left_out) = watching::busy_marches_never_cover_each_others_labels(v, &replay);
    watching::a_tap_tells_a_forts_and_a_marchs_details(v, &replay);
    watching::the_result_can_be_hidden_until_the_end(v);
    watching::a_colour_blind_palette_is_kept(v, |v| {
        v.page("/viewer");
        open_file(v.b, &files.json);
    });
    watching::names_zoom_and_full_screen(v);
    let (log_seen, log_ms, log_read_ms) =
        the_classic_log_draws_the_same_forts(v, &replay, &files, t, last);
    a_link_to_turn_123_opens_there(v, &replay, &files);
    the_keyboard_steps_at_phone_width(v);
    the_compact_replay_draws_the_same_forts(v, &replay, &files, t);
    a_replay_it_cannot_load_says_why(v);
    a_six_player_game_fits_at_1366_by_768(v);
    the_files_are_served_with_their_types(&site);

    eprintln!(
        "viewer test: the 500-turn replay ({} forts, 8 players, {:.1} MB of JSON) was drawn \
         {page_ms:.0} ms after the file was chosen (reading and parsing {read_ms:.0} ms; \
         {} ms as the test saw it); the classic log ({:.1} MB) in {log_ms:.0} ms (parsing \
         {log_read_ms:.0} ms; {} ms); a frame takes {frame_ms:.2} ms of script; idle: {idle}; \
         playing at 1×: {at_1x}; at 16×: {at_16x}; busy turns: {labels} march labels shown, \
         {left_out} left out; {} screenshots; {:.1} s with the browser",
        replay.map.forts.len(),
        files.json_size as f64 / 1e6,
        seen.as_millis(),
        files.log_size as f64 / 1e6,
        log_seen.as_millis(),
        v.cam.taken.len(),
        started.elapsed().as_secs_f64()
    );
}

/// The empty page: a file input that says nothing is uploaded. From then on the page's
/// errors are watched.
fn the_empty_page_offers_to_open_a_file(v: &mut Visit) {
    let b = v.b;
    v.page("/viewer");
    b.wait_text("main h1", "Replay viewer");
    assert!(b
        .text("main label.file")
        .contains("Open a replay or a log from your computer; it is not uploaded"));
    assert!(
        !b.displayed(&b.find("[data-viewer]")),
        "no viewer before a file"
    );
    v.cam.both("viewer-empty");
    watch_errors(b);
}

/// The JSON replay from the file input: drawn at turn 0, quickly, with its legend and
/// charts. Returns the times `open_file` measured.
fn the_json_replay_is_drawn_at_turn_0_quickly(
    v: &mut Visit,
    replay: &Replay,
    files: &Files,
) -> (Duration, f64, f64) {
    let b = v.b;
    let (seen, page_ms, read_ms) = open_file(b, &files.json);
    assert_eq!(shown_turn(b), 0);
    check_forts(b, replay, "the first turn");
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
    (seen, page_ms, read_ms)
}

/// Play for a while: the turn moves on by itself, marches walk, then pause.
fn playing_moves_the_turn_on_until_paused(v: &mut Visit, replay: &Replay) {
    let b = v.b;
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
    let t = check_forts(b, replay, "after playing");
    assert!(t >= 3, "played to turn {t}");
}

/// Scrub to about 40% of the game with the mouse: the forts, the marches, the address,
/// the legend and the turn follow. Returns the turn.
fn the_mouse_scrubs_to_about_40_percent(v: &mut Visit, replay: &Replay) -> usize {
    let b = v.b;
    b.click_at("[data-viewer] input.bbv-range", 0.4, Some(0.35));
    let t = check_forts(b, replay, "after scrubbing");
    assert!((150..=250).contains(&t), "scrubbed to turn {t}");
    assert_eq!(
        b.property(&b.find("[data-viewer] input.bbv-range"), "value"),
        json!(t.to_string())
    );
    let on_roads = marches_shown(b);
    assert_eq!(
        on_roads,
        marches_on_roads(replay, t),
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
    t
}

/// Smoothness: the script time of one frame (marches, flashes, cursors, and the forts
/// and legend when the turn changes), then the frames the browser draws: idle (what
/// this machine gives any page), playing at 1× and at 16×. Back at turn `t` after.
fn frames_are_drawn_smoothly(
    v: &mut Visit,
    replay: &Replay,
    t: usize,
) -> (f64, Frames, Frames, Frames) {
    let b = v.b;
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
    assert_eq!(check_forts(b, replay, "back after playing"), t);
    (frame_ms, idle, at_1x, at_16x)
}

/// The keyboard, with the focus on the page: arrows step, Home and End jump, space
/// plays and pauses.
fn the_keyboard_steps_jumps_plays_and_pauses(
    v: &mut Visit,
    replay: &Replay,
    t: usize,
    last: usize,
) {
    let b = v.b;
    b.execute("document.activeElement.blur();");
    b.press(&[ARROW_RIGHT]);
    assert_eq!(check_forts(b, replay, "after →"), t + 1);
    b.press(&[ARROW_LEFT, ARROW_LEFT]);
    assert_eq!(check_forts(b, replay, "after ← ←"), t - 1);
    b.press(&[ARROW_RIGHT]);
    assert_eq!(shown_turn(b), t);
    v.cam.both("viewer-game");
    b.press(&[END]);
    assert_eq!(check_forts(b, replay, "after End"), last);
    assert!(b.text("[data-viewer] .bbv-events").contains("Turn 500"));
    v.cam.both("viewer-end");
    b.press(&[HOME]);
    assert_eq!(check_forts(b, replay, "after Home"), 0);
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
    check_forts(b, replay, "after playing with space");
}

/// The turn-change event the match page listens to; the speeds: "auto" (the game in
/// about 30 s) by default, and a speed chosen in the menu is the next viewer's.
fn the_match_page_hears_each_change_of_turn_and_remembers_the_speed(v: &mut Visit) {
    let b = v.b;
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

    let speeds = b.execute(
        "return [...document.querySelectorAll('[data-viewer] .bbv-speed option')].map(o => o.value);",
    );
    assert_eq!(speeds, json!(["auto", "0.5", "1", "2", "4", "8", "16"]));
    let auto = b.execute(
        "const v = window.bottleBatsViewer;
         const fresh = new v.constructor(document.createElement('div'), v.game, v.replay,
                                         { hash: false, keyboard: false });
         const answer = [fresh.speed(), fresh.lastTurn() / fresh.turnsPerSecond(),
                         document.querySelector('[data-viewer] .bbv-speed option').textContent];
         fresh.destroy();
         return answer;",
    );
    assert_eq!(
        auto[0],
        json!("auto"),
        "auto by default (nothing chosen yet)"
    );
    let secs = auto[1].as_f64().unwrap();
    assert!(
        (29.0..=31.0).contains(&secs),
        "a game lasts about 30 s: {secs}"
    );
    assert_eq!(auto[2], json!("Auto (30 s)"));
    let next = b.execute(
        "const select = document.querySelector('[data-viewer] .bbv-speed select');
         select.value = '4'; select.dispatchEvent(new Event('change'));
         const v = window.bottleBatsViewer;
         const box = document.createElement('div');
         const other = new v.constructor(box, v.game, v.replay, { hash: false, keyboard: false });
         const speed = other.speed(); other.destroy();
         localStorage.removeItem('bottlebats-viewer-speed');
         return [v.speed(), speed];",
    );
    assert_eq!(
        next,
        json!([4, 4]),
        "chosen, and remembered for the next game"
    );
}

/// The same game as a compact (v2) replay: the same forts at the same turns.
fn the_compact_replay_draws_the_same_forts(
    v: &mut Visit,
    replay: &Replay,
    files: &Files,
    t: usize,
) {
    let b = v.b;
    v.page("/viewer");
    b.wait_text("main h1", "Replay viewer");
    open_file(b, &files.compact);
    for turn in [0, t, replay.turns.len() - 1] {
        b.execute(&format!("window.bottleBatsViewer.goTo({turn});"));
        assert_eq!(check_forts(b, replay, "the compact replay"), turn);
    }
    assert_eq!(
        marches_shown(b),
        marches_on_roads(replay, replay.turns.len() - 1)
    );
}

/// The same game as a classic log: the same forts at the same turn, and at others; no
/// error reported while playing the files. Returns the times `open_file` measured.
fn the_classic_log_draws_the_same_forts(
    v: &mut Visit,
    replay: &Replay,
    files: &Files,
    t: usize,
    last: usize,
) -> (Duration, f64, f64) {
    let b = v.b;
    let opened = open_file(b, &files.log);
    b.execute(&format!("window.bottleBatsViewer.goTo({t});"));
    assert_eq!(check_forts(b, replay, "the classic log"), t);
    let on_roads = marches_shown(b);
    assert_eq!(
        on_roads,
        marches_on_roads(replay, t),
        "the classic log's marches"
    );
    assert!(b.text("[data-viewer] .bbv-summary").contains("classic log"));
    for turn in [0, 1, 137, last] {
        b.execute(&format!("window.bottleBatsViewer.goTo({turn});"));
        assert_eq!(check_forts(b, replay, "the classic log"), turn);
    }
    no_errors(b, "while playing the files");
    opened
}

/// A link to turn 123 opens there (from another page: the same page with another
/// hash would only move the game already open).
fn a_link_to_turn_123_opens_there(v: &mut Visit, replay: &Replay, files: &Files) {
    let b = v.b;
    v.page("/rules");
    v.page("/viewer#t=123");
    b.wait_text("main h1", "Replay viewer");
    watch_errors(b);
    open_file(b, &files.json);
    assert_eq!(check_forts(b, replay, "#t=123"), 123);
    no_errors(b, "opening at #t=123");
}

/// At phone width the keyboard still steps (the screenshots above checked that
/// nothing is wider than a phone).
fn the_keyboard_steps_at_phone_width(v: &mut Visit) {
    let b = v.b;
    viewport(b, PHONE);
    b.execute("document.activeElement.blur();");
    b.press(&[ARROW_RIGHT]);
    assert_eq!(shown_turn(b), 124);
    viewport(b, DESKTOP);
}

/// `?replay=` it cannot load says why.
/// A game on a shipped 6-player map (hex-6p) at 1366×768: the map, its controls and
/// the legend's six rows are in the window, each row on one line, and the map keeps
/// its room: as wide as its column or as high as the window lets it be.
fn a_six_player_game_fits_at_1366_by_768(v: &mut Visit) {
    let (_, text) = (server::games::content("bottlebats")
        .unwrap()
        .maps()
        .into_iter())
    .find(|(name, _)| *name == "hex-6p")
    .unwrap();
    let map = Arc::new(bottlebats::map::Map::parse(&text).unwrap());
    let names: Vec<String> = [
        "amberwing",
        "blue_heron_v7",
        "coral-snake",
        "dusk_moth",
        "emerald",
        "firefly_final",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let mut game = Game::new(map, &names, 200).unwrap();
    let mut replay = Replay::start(&game);
    play_random_game(&mut game, 6, |g, ev| replay.push(Events::of(ev), g));
    replay.finish(&game, &game.outcome());
    let file = harness::scratch("viewer-6p").join("hex-6p.json");
    std::fs::write(&file, replay.to_json()).unwrap();
    viewport(v.b, (1366, 768));
    v.page("/viewer");
    open_file(v.b, &file);
    let b = v.b;
    b.execute("window.bottleBatsViewer.goTo(40);");
    let fit = b.execute(
        "const box = (s) => document.querySelector(s).getBoundingClientRect();
         const svg = box('.bbv-svg'), stage = box('.bbv-stage'), controls = box('.bbv-controls');
         const rows = [...document.querySelectorAll('.bbv-legend tbody tr')].map(tr => tr.getBoundingClientRect());
         const vb = document.querySelector('.bbv-svg').viewBox.baseVal;
         return [svg.width, svg.height, stage.width, controls.bottom, window.innerHeight,
           Math.max(...rows.map(r => r.bottom)), Math.max(...rows.map(r => r.height)), rows.length,
           vb.width / vb.height,
           document.documentElement.scrollWidth <= document.documentElement.clientWidth];",
    );
    v.cam.snap("viewer-6p-1366x768");
    let [w, h, column, bottom, inner, legend_bottom, row_height, rows, aspect, no_sideways] =
        serde_json::from_value::<[serde_json::Value; 10]>(fit).unwrap();
    let f = |x: &serde_json::Value| x.as_f64().unwrap();
    assert_eq!(rows, json!(6));
    assert_eq!(no_sideways, json!(true), "no sideways scroll");
    assert!(
        f(&bottom) <= f(&inner),
        "the controls end at {bottom} of {inner}"
    );
    assert!(
        f(&legend_bottom) <= f(&inner),
        "the legend ends at {legend_bottom} of {inner}"
    );
    assert!(
        f(&row_height) < 40.0,
        "a legend row is {row_height} px high: on one line"
    );
    // The drawing is its map's shape, and it fills its column's width or the height.
    let drawn = f(&w).min(f(&h) * f(&aspect));
    assert!(
        drawn >= f(&column) - 2.0 || f(&h) >= f(&inner) - 400.0,
        "the map is drawn {drawn:.0} px wide in a {column} px column, {h} px high"
    );
    assert!(
        f(&column) >= 0.55 * 1366.0,
        "the map's column is {column} px of 1366"
    );
    eprintln!("6-player map at 1366×768: drawn {drawn:.0} × {h} px in a {column} px column");
    viewport(v.b, DESKTOP);
}

fn a_replay_it_cannot_load_says_why(v: &mut Visit) {
    let b = v.b;
    v.page("/viewer?replay=/no/such/replay.json");
    let said = b.wait_text("[data-viewer-status]", "could not be loaded");
    assert!(said.contains("404"), "{said}");
    assert!(b.text("[data-viewer-status]").contains("404"));
    v.page("/viewer?replay=https://example.com/replay.json");
    b.wait_text("[data-viewer-status]", "only loads replays from this site");
    v.page("/viewer?replay=/static/viewer.css");
    b.wait_text(
        "[data-viewer-status]",
        "neither a JSON replay nor a game's log",
    );
}

/// The files are served as they should be.
fn the_files_are_served_with_their_types(site: &Site) {
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
}
