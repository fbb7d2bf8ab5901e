//! A match page: its result and its replay, the viewer driven by keys, the scrub bar
//! and the address, and the stderr panel, refused to strangers and following the turn
//! for the bot's owner.

use std::collections::BTreeSet;
use std::time::Duration;

use bottlebats::Replay;
use serde_json::Value;

use super::super::harness::{wait_for_path, Site, Visit};
use super::super::webdriver::{ARROW_LEFT, ARROW_RIGHT, END, HOME, SPACE};
use super::ladder::get_json;
use super::page::{
    check_forts, fetch_replay, log_in, log_out, shown_turn, status_in_page, table, viewer_ready,
    wait_hash, wait_until,
};
use super::{BOT, OWNER, PROBLEM_TURN};

/// The match the replay is looked at in: the contestant's longest.
pub struct Match {
    pub id: i64,
    /// As `/api/matches/ID` has it.
    api: Value,
    /// The contestant's bot's stderr in it.
    stderr_url: String,
}

/// The contestant's longest match of those listed.
pub fn the_contestants_longest_match(site: &Site, own: &[i64]) -> Match {
    let m = own
        .iter()
        .map(|id| get_json(site, &format!("/api/matches/{id}"), &[]))
        .max_by_key(|m| m["turns"].as_i64().unwrap())
        .unwrap();
    let id = m["id"].as_i64().unwrap();
    let seat = m["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["bot"] == BOT)
        .unwrap()["seat"]
        .as_i64()
        .unwrap();
    Match {
        id,
        api: m,
        stderr_url: format!("/matches/{id}/stderr/{seat}"),
    }
}

/// As a stranger, from the list: the result and the replay, no stderr. Returns the
/// replay.
pub fn a_stranger_sees_the_result_and_the_replay_but_no_stderr(v: &mut Visit, m: &Match) -> Replay {
    let (b, site, id) = (v.b, v.site, m.id);
    b.click(&format!("table.matches a[href='/matches/{id}']"));
    wait_for_path(b, &format!("/matches/{id}"));
    b.wait_text("main h1", &format!("Match {id}"));
    viewer_ready(b);
    let replay = fetch_replay(b, id);
    let last = replay.turns.len() - 1;
    assert_eq!(last as i64, m.api["turns"].as_i64().unwrap());
    assert!(last > 10, "a match long enough to look at: {last} turns");
    let result = table(b, "table.result");
    assert_eq!(result.len(), replay.players.len());
    for (row, p) in result.iter().zip(m.api["players"].as_array().unwrap()) {
        assert!(row[1].starts_with(p["bot"].as_str().unwrap()), "{row:?}");
        assert_eq!(row[0], p["rank"].to_string());
    }
    assert!(b.find_all("#stderr").is_empty(), "strangers see no stderr");
    assert_eq!(status_in_page(b, &m.stderr_url), 401);
    check_forts(b, &replay, Some(0), "opened");
    let (s, _) = site.request("GET", &m.stderr_url, &[], b"");
    assert_eq!(s, 401);
    replay
}

/// Play, then pause, with the space bar; the arrows step; the scrub bar, clicked at
/// three quarters, jumps; End and Home go to the ends. The forts follow each time.
pub fn keys_and_the_scrub_bar_move_the_replay(v: &mut Visit, replay: &Replay) {
    let b = v.b;
    let last = replay.turns.len() - 1;
    b.execute("document.activeElement && document.activeElement.blur();");
    b.press(&[SPACE]);
    wait_until(b, "the replay plays", Duration::from_secs(5), || {
        shown_turn(b) >= 3
    });
    b.press(&[SPACE]);
    let t = shown_turn(b);
    wait_hash(b, t);
    std::thread::sleep(Duration::from_millis(300));
    let t = check_forts(b, replay, Some(t), "paused");
    assert!(t >= 3);
    // The arrows step.
    b.press(&[ARROW_RIGHT, ARROW_RIGHT, ARROW_RIGHT]);
    check_forts(b, replay, Some(t + 3), "three steps on");
    b.press(&[ARROW_LEFT]);
    check_forts(b, replay, Some(t + 2), "one step back");
    wait_hash(b, t + 2);
    // The scrub bar, clicked at three quarters.
    b.click_at("#viewer input[type=range]", 0.75, None);
    let scrubbed = check_forts(b, replay, None, "scrubbed");
    assert!(
        (scrubbed as f64 - 0.75 * last as f64).abs() <= 0.05 * last as f64 + 2.0,
        "clicked at 3/4 of {last} turns, shows {scrubbed}"
    );
    wait_hash(b, scrubbed);
    b.execute("document.activeElement && document.activeElement.blur();");
    b.press(&[END]);
    check_forts(b, replay, Some(last), "the end");
    b.press(&[HOME]);
    check_forts(b, replay, Some(0), "the start");
}

/// A link to a turn opens there; changing the address moves the viewer. Returns the
/// turn linked to, the middle of the match.
pub fn a_link_to_a_turn_opens_there_and_the_address_moves_it(
    v: &mut Visit,
    m: &Match,
    replay: &Replay,
) -> usize {
    let (b, id) = (v.b, m.id);
    let last = replay.turns.len() - 1;
    let mid = last / 2;
    v.page(&format!("/matches/{id}#t={mid}"));
    b.refresh(); // a new load, not a move within the page
    viewer_ready(b);
    check_forts(b, replay, Some(mid), "opened at #t=");
    b.execute(&format!("location.hash = '#t={}';", mid + 1));
    wait_until(
        b,
        "the viewer follows the address",
        Duration::from_secs(3),
        || shown_turn(b) == mid + 1,
    );
    check_forts(b, replay, Some(mid + 1), "the address changed");
    b.execute("window.scrollTo(0, 0);");
    v.cam.both("match");
    mid
}

/// A stranger with an account is refused the stderr too.
pub fn a_stranger_with_an_account_is_refused_the_stderr(v: &mut Visit, m: &Match) {
    let (b, id) = (v.b, m.id);
    log_in(b, v.site, "otto");
    v.page(&format!("/matches/{id}#t={PROBLEM_TURN}"));
    viewer_ready(b);
    assert!(b.find_all("#stderr").is_empty(), "others see no stderr");
    assert_eq!(status_in_page(b, &m.stderr_url), 403);
    // The warning is in the public replay: its text is in everyone's caption.
    let caption = b.wait_text(".bbv-problems", "there is no fort");
    assert!(
        caption.starts_with(&format!("{BOT}: ignored nowhere else 1")),
        "{caption}"
    );
    log_out(b);
}

/// The owner, logged in, opens the match at the problem's turn and reads the stderr
/// stored: a line a turn, filed by turn. Returns it.
pub fn the_owner_reads_the_bots_stderr(v: &mut Visit, m: &Match) -> Vec<(usize, String)> {
    let (b, id, stderr_url) = (v.b, m.id, &m.stderr_url);
    log_in(b, v.site, OWNER);
    v.page(&format!("/matches/{id}#t={PROBLEM_TURN}"));
    viewer_ready(b);
    assert_eq!(status_in_page(b, stderr_url), 200);
    let log: Vec<(usize, String)> = serde_json::from_value(b.execute(&format!(
        "return fetch('{stderr_url}').then(r => r.json());"
    )))
    .unwrap();
    // A line a turn while the bot plays (it may be knocked out before the match ends).
    assert!(log.len() > 10, "a line a turn: {log:?}");
    assert!(
        log.windows(2).all(|w| w[0].0 < w[1].0),
        "filed by turn: {log:?}"
    );
    // The bot writes "turn N:" where N is its own count of the states it read. The
    // runner files stderr under the turn being played when it reads it; a line read
    // after the reply it came before lands in the next turn. Said, not failed: the
    // panel is checked against what was stored.
    let late = log
        .iter()
        .flat_map(|(t, text)| text.lines().map(move |l| (*t, l)))
        .filter_map(|(t, l)| {
            let n: usize = l.strip_prefix("turn ")?.split(':').next()?.parse().ok()?;
            Some(t != n)
        })
        .filter(|&late| late)
        .count();
    if late > 0 {
        eprintln!("note: {late} of {} stderr lines are filed under another turn than the one the bot wrote them in", log.len());
    }
    log
}

/// The owner's stderr panel follows the turn: stepping from the problem's turn, at the
/// end, and in the middle (`mid`).
pub fn the_stderr_panel_follows_the_turn(
    v: &mut Visit,
    replay: &Replay,
    log: &[(usize, String)],
    mid: usize,
) {
    let b = v.b;
    let last = replay.turns.len() - 1;
    let expected = |t: usize| {
        let text: String = log
            .iter()
            .filter(|(turn, _)| *turn == t)
            .map(|(_, s)| s.as_str())
            .collect();
        if text.is_empty() {
            format!("(nothing on stderr in turn {t})")
        } else {
            text
        }
    };
    let panel = || -> String {
        b.execute("return document.querySelector('#stderr .stderr-text').textContent;")
            .as_str()
            .unwrap()
            .to_string()
    };
    b.wait_text("#stderr h2", "stderr");
    wait_until(b, "the stderr is loaded", Duration::from_secs(5), || {
        panel() != "(loading)"
    });
    let mut seen = BTreeSet::new();
    for step in 0..4 {
        let t = check_forts(b, replay, Some(PROBLEM_TURN + step), "the owner steps");
        assert_eq!(panel(), expected(t), "the stderr of turn {t}");
        seen.insert(panel());
        b.execute("document.activeElement && document.activeElement.blur();");
        b.press(&[ARROW_RIGHT]);
    }
    assert_eq!(seen.len(), 4, "the panel changes with the turn: {seen:?}");
    assert!(
        log.iter()
            .any(|(t, s)| *t == PROBLEM_TURN && s.contains("turn")),
        "the bot's own lines: {log:?}"
    );
    b.press(&[END]);
    assert_eq!(panel(), expected(last));
    b.execute(&format!("location.hash = '#t={mid}';"));
    wait_until(
        b,
        "the viewer goes to the middle",
        Duration::from_secs(3),
        || shown_turn(b) == mid,
    );
    assert_eq!(panel(), expected(mid));
    b.execute("window.scrollTo(0, 0);");
    v.cam.both("match-owner");
}
