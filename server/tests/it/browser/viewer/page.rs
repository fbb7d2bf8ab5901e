//! Reading and driving the viewer's page: the forts it draws and the turn it shows,
//! files opened through its input, clicks on the scrub bar, the frames it paints, the
//! errors it reports, and the headers the server sends with its files.

use std::path::Path;
use std::time::{Duration, Instant};

use bottlebats::replay::Replay;
use serde_json::json;

use super::super::harness::expected_forts;
use super::super::webdriver::Session;

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
pub fn shown_turn(b: &Session) -> usize {
    let v = b.execute("return document.querySelector('[data-viewer]').dataset.turn;");
    v.as_str()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no data-turn: {v}"))
}

/// Checks that the forts drawn are those of the replay at the turn shown; returns it.
pub fn check_forts(b: &Session, replay: &Replay, what: &str) -> usize {
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
pub fn marches_on_roads(replay: &Replay, t: usize) -> usize {
    replay.turns[t]
        .marches
        .iter()
        .filter(|m| {
            let length = replay.map.roads[m.0].2 as i64;
            let walked = t as i64 - m.4;
            walked > 0 && walked < length
        })
        // One mark per owner on a road going one way.
        .map(|m| (m.0, m.1, m.2))
        .collect::<std::collections::HashSet<_>>()
        .len()
}

/// The marks the viewer shows on the roads now.
pub fn marches_shown(b: &Session) -> usize {
    b.execute(
        "return [...document.querySelectorAll('[data-viewer] g.bbv-march')]
           .filter(g => g.getAttribute('display') !== 'none').length;",
    )
    .as_u64()
    .unwrap() as usize
}

/// Waits up to `limit` for `script` to return true.
pub fn wait_until(b: &Session, what: &str, limit: Duration, script: &str) -> Duration {
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
pub fn open_file(b: &Session, file: &Path) -> (Duration, f64, f64) {
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

/// How the browser draws for `time`: idle, or playing from turn 100 at `speed`. The
/// turns played, and a summary of the intervals between frames.
pub fn frames(b: &Session, speed: Option<f64>, time: Duration) -> (u64, Frames) {
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
pub struct Frames {
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
pub fn watch_errors(b: &Session) {
    b.execute(
        "window.__errors = [];
         window.addEventListener('error', e => window.__errors.push(String(e.message)));
         document.addEventListener('securitypolicyviolation',
           e => window.__errors.push('CSP: ' + e.violatedDirective + ' ' + e.blockedURI));",
    );
}

pub fn no_errors(b: &Session, when: &str) {
    let errors = b.execute("return window.__errors || [];");
    assert_eq!(errors, json!([]), "the page reported errors {when}");
}

/// The status line and headers of a GET, lowercased.
pub fn response_head(addr: &str, path: &str) -> String {
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
