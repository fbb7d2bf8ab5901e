//! The spectators' pages in a real browser: `bottlebats serve` on a fresh database,
//! its worker playing the house bots' ladder, and a contestant's bot (the Python
//! starter kit, writing a line on stderr each turn and one bad command at turn 5)
//! uploaded over the API with a token from `bottlebats admin create-token`.
//!
//! Once enough matches are played the ranker is paused (`bottlebats admin pause`), so
//! the pages and the API hold still while they are compared; then, in headless
//! Chromium:
//!
//! - the leaderboard lists the bots in rating order, as `/api/leaderboard` does, and
//!   after one more match (the ranker resumed for it) takes its rows again from the
//!   server (`static/live.mjs`, `/leaderboard/rows`) exactly as the page draws them;
//! - the match list agrees with `/api/matches`, pages on with "Older matches" and
//!   filters by bot;
//! - a match page draws its replay: play, pause, arrows, the scrub bar, Home/End and
//!   `#t=N` all show the forts (owners and garrisons) of the replay at that turn;
//!   strangers get no stderr panel and their requests for it are refused (401, 403);
//!   the owner's panel follows the turn with the bot's stderr of that turn;
//! - the bot page shows the record of `/api/bots/NAME`, the rating chart, the recent
//!   matches, and to its owner an error board whose links open the replay at the
//!   turn of the problem;
//! - a user page lists the user's bots and matches.
//!
//! Screenshots of each page at desktop and phone width go to `target/screenshots/`.
//! Skipped, saying so, without chromium and chromedriver.

use super::harness;
use super::webdriver;
use crate::common;

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use engine::Replay;
use harness::{browser_tools, expected_forts, wait_for_path, Browser, Camera, Site};
use serde_json::{json, Value};
use webdriver::{Session, ARROW_LEFT, ARROW_RIGHT, END, HOME, SPACE};

const PASSWORD: &str = "a long enough secret";
const OWNER: &str = "mira";
const BOT: &str = "Kestrel";
/// The turn at which the contestant's bot sends a command that cannot be carried out.
const PROBLEM_TURN: usize = 5;
/// Matches the contestant's bot plays before the pages are read.
const OWN_MATCHES: usize = 4;
/// The list shows 50 matches a page; more than that to see a second page.
const FOR_PAGING: usize = 51;

/// The Python starter kit's bot, telling on stderr what it does each turn and sending
/// a command to a fort that does not exist at `PROBLEM_TURN`.
fn contestant_bot() -> Vec<u8> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../bots/starters/python/bot.py"
    );
    let source = std::fs::read_to_string(path).unwrap();
    let hook = "        orders = bot.commands()\n";
    assert!(
        source.contains(hook),
        "the starter bot's main loop changed: update this test's hook"
    );
    source
        .replacen(
            hook,
            &format!(
                "{hook}        print(\"turn %d: %d orders\" % (bot.turn, len(orders)), file=sys.stderr, flush=True)\n\
                 \x20       if bot.turn == {PROBLEM_TURN}:\n\
                 \x20           orders.append((\"nowhere\", \"else\", 1))\n"
            ),
            1,
        )
        .into_bytes()
}

/// A JSON answer of the site, read as a script would.
fn get_json(site: &Site, path: &str, headers: &[(&str, &str)]) -> Value {
    let (status, body) = site.request("GET", path, headers, b"");
    assert_eq!(status, 200, "GET {path}: {body}");
    serde_json::from_str(&body).unwrap_or_else(|e| panic!("GET {path}: {e}: {body}"))
}

/// The ids of a page of `/api/matches` (with `query`), and the next cursor.
fn api_match_ids(site: &Site, query: &str) -> (Vec<i64>, Option<i64>) {
    let v = get_json(site, &format!("/api/matches{query}"), &[]);
    let ids = v["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_i64().unwrap())
        .collect();
    (ids, v["next_cursor"].as_i64())
}

/// The ladder's database, to see when no match is running.
struct Db {
    rt: tokio::runtime::Runtime,
    pool: sqlx::PgPool,
}

impl Db {
    fn open(url: &str) -> Db {
        let rt = tokio::runtime::Runtime::new().unwrap();
        let pool = rt
            .block_on(
                sqlx::postgres::PgPoolOptions::new()
                    .max_connections(1)
                    .connect(url),
            )
            .unwrap();
        Db { rt, pool }
    }

    fn count(&self, sql: &'static str) -> i64 {
        self.rt
            .block_on(sqlx::query_scalar::<_, i64>(sql).fetch_one(&self.pool))
            .unwrap()
    }
}

/// `bottlebats admin pause`, then waits for the match being played to be recorded and
/// for `/api/leaderboard` to count it (the site may serve a leaderboard a moment old):
/// from then on the ladder holds still.
fn pause(site: &Site, db: &Db) {
    assert!(site.admin(&["pause"]).contains("paused"));
    let start = Instant::now();
    while db.count("select count(*) from matches where status = 'running'") > 0 {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "a match still runs a minute after the pause"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let played = db.count(
        "select count(*) from match_players p join matches m on m.id = p.match_id \
         where m.status = 'finished'",
    );
    while games(&get_json(site, "/api/leaderboard", &[])) != played {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "/api/leaderboard does not count the {played} games played"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The games of all bots of a leaderboard, as `/api/leaderboard` says.
fn games(board: &Value) -> i64 {
    board["leaderboard"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["games"].as_i64().unwrap())
        .sum()
}

/// Waits up to `limit` for `done`, every 50 ms.
fn wait_until(b: &Session, what: &str, limit: Duration, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        if start.elapsed() > limit {
            b.give_up(&format!("{what}: not within {} s", limit.as_secs_f64()));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Logs in through the form.
fn log_in(b: &Session, site: &Site, name: &str) {
    b.goto(&format!("{}/login", site.url));
    b.fill("input[name=name]", name);
    b.fill("input[name=password]", PASSWORD);
    b.click("main button[type=submit]");
    wait_for_path(b, "/profile");
    b.wait_text("header .account .who", name);
}

fn log_out(b: &Session) {
    b.click("header .account button");
    b.wait_text("header .account", "Log in");
}

/// The cells' text of each row of the table `css`, as the browser shows it.
fn table(b: &Session, css: &str) -> Vec<Vec<String>> {
    let v = b.execute(&format!(
        "return [...document.querySelectorAll('{css} tbody tr')].map(tr =>
           [...tr.cells].map(td => td.innerText.trim()));"
    ));
    serde_json::from_value(v).unwrap()
}

/// The match ids of a list of matches (`match_rows.html`) on the page.
fn listed_ids(b: &Session, css: &str) -> Vec<i64> {
    table(b, css)
        .iter()
        .map(|r| r[0].parse().unwrap_or_else(|_| panic!("a match id: {r:?}")))
        .collect()
}

/// Clicks the middle of the first element matching `css` at `fraction` of its width.
fn click_at(b: &Session, css: &str, fraction: f64) {
    let r = b.execute(&format!(
        "const e = document.querySelector('{css}'); e.scrollIntoView({{block: 'center'}});
         const r = e.getBoundingClientRect(); return [r.left, r.top, r.width, r.height];"
    ));
    let r: Vec<f64> = serde_json::from_value(r).unwrap();
    let (x, y) = (
        (r[0] + r[2] * fraction).round() as i64,
        (r[1] + r[3] / 2.0).round() as i64,
    );
    b.cmd(
        "POST",
        "/actions",
        Some(json!({"actions": [{
            "type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
            "actions": [
                {"type": "pointerMove", "x": x, "y": y, "origin": "viewport"},
                {"type": "pointerDown", "button": 0},
                {"type": "pointerUp", "button": 0},
            ],
        }]})),
    );
    b.cmd("DELETE", "/actions", None);
}

/// The turn the viewer shows (its container's `data-turn`).
fn shown_turn(b: &Session) -> usize {
    let v = b.execute("return document.getElementById('viewer').dataset.turn;");
    v.as_str()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no data-turn on #viewer: {v}"))
}

/// Waits for the viewer to have drawn its replay.
fn viewer_ready(b: &Session) {
    b.find("#viewer[data-ready]");
}

/// Waits for the address to end with `#t=TURN` (the viewer writes it a moment after a
/// step).
fn wait_hash(b: &Session, turn: usize) {
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
fn check_forts(b: &Session, replay: &Replay, turn: Option<usize>, what: &str) -> usize {
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
fn fetch_replay(b: &Session, id: i64) -> Replay {
    let text = b.execute(&format!(
        "return fetch('/api/matches/{id}/replay').then(r => r.text());"
    ));
    Replay::from_json(text.as_str().unwrap()).unwrap()
}

/// The HTTP status the page gets for `path`.
fn status_in_page(b: &Session, path: &str) -> i64 {
    b.execute(&format!(
        "return fetch('{path}', {{credentials: 'same-origin'}}).then(r => r.status);"
    ))
    .as_i64()
    .unwrap()
}

#[test]
fn spectators_follow_the_ladder_matches_replays_bots_and_users() {
    let Some(tools) = browser_tools("the spectator pages' browser test") else {
        return;
    };
    let started = Instant::now();
    let site = Site::start("spectators");
    let db = Db::open(&site.database_url);

    // A contestant and a stranger with an account; the contestant's bot over the API.
    site.admin(&["create-user", OWNER, "--password", PASSWORD]);
    site.admin(&["create-user", "otto", "--password", PASSWORD]);
    let out = site.admin(&["create-token", OWNER, "--name", "ci"]);
    let token = out.lines().last().unwrap_or("").trim().to_string();
    let auth = format!("Bearer {token}");
    let (content_type, body) =
        common::multipart(&[("name", BOT)], Some(("bot.py", &contestant_bot())));
    let (status, answer) = site.request(
        "POST",
        "/api/bots",
        &[
            ("Content-Type", content_type.as_str()),
            ("Authorization", auth.as_str()),
        ],
        &body,
    );
    assert_eq!(status, 201, "{answer}");
    let uploaded = Instant::now();
    loop {
        let v = get_json(
            &site,
            &format!("/api/bots/{BOT}"),
            &[("Authorization", &auth)],
        );
        match v["versions"][0]["status"].as_str().unwrap_or("") {
            "active" => break,
            "pending" | "building" | "testing" => {}
            other => panic!("{BOT} version 1 is {other}: {v}"),
        }
        assert!(
            uploaded.elapsed() < Duration::from_secs(90),
            "{BOT} is not live after 90 s"
        );
        std::thread::sleep(Duration::from_millis(250));
    }
    let live_after = uploaded.elapsed();

    // The worker plays on: until the bot has played a few matches and, if it comes
    // soon enough, the list has a second page.
    let mut paging = false;
    loop {
        let (own, _) = api_match_ids(&site, &format!("?bot={BOT}"));
        let (_, next) = api_match_ids(&site, "");
        paging = paging || next.is_some();
        let waited = uploaded.elapsed();
        if own.len() >= OWN_MATCHES && (paging || waited > Duration::from_secs(75)) {
            break;
        }
        assert!(
            waited < Duration::from_secs(180),
            "{BOT} played {} matches in {} s",
            own.len(),
            waited.as_secs()
        );
        std::thread::sleep(Duration::from_millis(500));
    }
    pause(&site, &db);
    let finished = db.count("select count(*) from matches where status = 'finished'") as usize;
    if finished < FOR_PAGING {
        eprintln!("only {finished} matches: the list has one page, its paging is not checked");
    }
    let ladder_ready = started.elapsed();

    let browser = Browser::open(&tools, "spectators");
    let browsing = Instant::now();
    let b = &browser.session;
    let mut cam = Camera::new(b);
    let page = |path: &str| b.goto(&format!("{}{path}", site.url));

    // ---------------------------------------------------------------- leaderboard
    page("/leaderboard");
    b.wait_text("main h1", "Leaderboard");
    let board = get_json(&site, "/api/leaderboard", &[])["leaderboard"].clone();
    let board = board.as_array().unwrap();
    let rows = table(b, "#leaderboard");
    assert_eq!(rows.len(), board.len(), "every bot on the ladder: {rows:?}");
    let bots: BTreeSet<&str> = board.iter().map(|r| r["bot"].as_str().unwrap()).collect();
    for bot in ["idle", "random", "greedy", "strong", BOT] {
        assert!(bots.contains(bot), "{bot} is on the leaderboard");
    }
    let mut previous = f64::INFINITY;
    for (row, api) in rows.iter().zip(board) {
        let rating: f64 = row[4].parse().unwrap();
        assert!(rating <= previous, "in rating order: {rows:?}");
        previous = rating;
        assert_eq!(row[0], api["rank"].to_string(), "{row:?} vs {api}");
        assert_eq!(row[1], api["bot"].as_str().unwrap(), "{row:?} vs {api}");
        assert_eq!(row[2], api["owner"].as_str().unwrap(), "{row:?} vs {api}");
        assert_eq!(row[3], api["language"].as_str().unwrap());
        assert_eq!(row[4], format!("{:.2}", api["rating"].as_f64().unwrap()));
        assert_eq!(row[6], api["games"].to_string());
    }
    assert_eq!(
        b.execute("return document.getElementById('leaderboard').dataset.live;"),
        json!("/leaderboard/rows"),
        "the table keeps itself up to date"
    );
    cam.both("leaderboard");

    // One more match: the table takes its rows again from the server when it refreshes
    // (every 15 s while visible, and when the page becomes visible again) and then
    // reads exactly as the page the server draws.
    b.execute("document.querySelector('#leaderboard tbody').dataset.old = '1';");
    let before = games(&get_json(&site, "/api/leaderboard", &[]));
    assert!(site.admin(&["resume"]).contains("runs"));
    wait_until(
        b,
        "one more match is recorded",
        Duration::from_secs(60),
        || games(&get_json(&site, "/api/leaderboard", &[])) > before,
    );
    pause(&site, &db);
    b.execute("document.dispatchEvent(new Event('visibilitychange'));");
    wait_until(
        b,
        "the leaderboard refreshes",
        Duration::from_secs(5),
        || {
            b.execute("return !document.querySelector('#leaderboard tbody').dataset.old;")
                == json!(true)
        },
    );
    let refreshed = table(b, "#leaderboard");
    assert_ne!(refreshed, rows, "the table shows the new match");
    // Cell by cell, classes and markup included.
    let cells = "return [...document.querySelectorAll('#leaderboard tbody tr')].map(tr =>
                   [...tr.cells].map(td => td.className + ' | ' + td.innerHTML));";
    let rebuilt = b.execute(cells);
    b.refresh();
    b.wait_text("main h1", "Leaderboard");
    assert_eq!(
        table(b, "#leaderboard"),
        refreshed,
        "the rebuilt table reads as the server draws it"
    );
    assert_eq!(
        b.execute(cells),
        rebuilt,
        "and is made of the same elements"
    );
    let now = get_json(&site, "/api/leaderboard", &[]);
    for (row, api) in refreshed.iter().zip(now["leaderboard"].as_array().unwrap()) {
        assert_eq!(row[1], api["bot"].as_str().unwrap());
        assert_eq!(row[6], api["games"].to_string());
    }

    // ---------------------------------------------------------------- matches
    b.click("header .links a[href='/matches']");
    wait_for_path(b, "/matches");
    b.wait_text("main h1", "Matches");
    let (first, next) = api_match_ids(&site, "");
    assert_eq!(
        listed_ids(b, "table.matches"),
        first,
        "newest first, as the API"
    );
    let players = b.execute(
        "return [...document.querySelectorAll('table.matches tbody tr')].map(tr =>
           tr.querySelectorAll('td.players a[href^=\"/bots/\"]').length);",
    );
    assert!(
        players
            .as_array()
            .unwrap()
            .iter()
            .all(|n| n.as_i64().unwrap() >= 2),
        "two players or more in each match: {players}"
    );
    cam.both("matches");
    if let Some(cursor) = next {
        b.click("main .pager a.button");
        wait_for_path(b, &format!("/matches?cursor={cursor}"));
        let (second, _) = api_match_ids(&site, &format!("?cursor={cursor}"));
        let shown = listed_ids(b, "table.matches");
        assert_eq!(shown, second, "the second page, as the API");
        assert!(shown
            .iter()
            .all(|id| !first.contains(id) && *id < first[49]));
        assert!(b.text("main .pager").contains("Newest"));
        cam.both("matches-older");
    }
    // A filter nothing matches says so, and offers to clear the filters.
    page("/matches?bot=nobody");
    b.wait_text("main", "No finished match matches these filters yet.");
    assert!(b.find_all("table.matches").is_empty());
    b.click("form.filters a.clear");
    wait_until(b, "the filters are cleared", Duration::from_secs(5), || {
        b.url().ends_with("/matches")
    });
    assert_eq!(listed_ids(b, "table.matches"), first);
    // Filtered by the contestant's bot.
    b.fill("form.filters input[name=bot]", BOT);
    b.click("form.filters button[type=submit]");
    wait_until(b, "the filter applies", Duration::from_secs(5), || {
        b.url().contains(&format!("bot={BOT}"))
    });
    b.wait_text("main h1", "Matches");
    let (own, _) = api_match_ids(&site, &format!("?bot={BOT}"));
    assert!(own.len() >= OWN_MATCHES);
    assert_eq!(
        listed_ids(b, "table.matches"),
        own,
        "its matches, as the API"
    );
    for row in table(b, "table.matches") {
        assert!(row[1].contains(BOT), "{row:?}");
    }
    assert_eq!(
        b.property(&b.find("form.filters input[name=bot]"), "value"),
        json!(BOT),
        "the filter stays in its field"
    );

    // ---------------------------------------------------------------- a match
    // The contestant's longest match.
    let m = own
        .iter()
        .map(|id| get_json(&site, &format!("/api/matches/{id}"), &[]))
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
    let stderr_url = format!("/matches/{id}/stderr/{seat}");

    // As a stranger: the result and the replay, no stderr.
    b.click(&format!("table.matches a[href='/matches/{id}']"));
    wait_for_path(b, &format!("/matches/{id}"));
    b.wait_text("main h1", &format!("Match {id}"));
    viewer_ready(b);
    let replay = fetch_replay(b, id);
    let last = replay.turns.len() - 1;
    assert_eq!(last as i64, m["turns"].as_i64().unwrap());
    assert!(last > 10, "a match long enough to look at: {last} turns");
    let result = table(b, "table.result");
    assert_eq!(result.len(), replay.players.len());
    for (row, p) in result.iter().zip(m["players"].as_array().unwrap()) {
        assert!(row[1].starts_with(p["bot"].as_str().unwrap()), "{row:?}");
        assert_eq!(row[0], p["rank"].to_string());
    }
    assert!(b.find_all("#stderr").is_empty(), "strangers see no stderr");
    assert_eq!(status_in_page(b, &stderr_url), 401);
    check_forts(b, &replay, Some(0), "opened");
    let (s, _) = site.request("GET", &stderr_url, &[], b"");
    assert_eq!(s, 401);

    // Play, then pause, with the space bar.
    b.execute("document.activeElement && document.activeElement.blur();");
    b.press(&[SPACE]);
    wait_until(b, "the replay plays", Duration::from_secs(5), || {
        shown_turn(b) >= 3
    });
    b.press(&[SPACE]);
    let t = shown_turn(b);
    wait_hash(b, t);
    std::thread::sleep(Duration::from_millis(300));
    let t = check_forts(b, &replay, Some(t), "paused");
    assert!(t >= 3);
    // The arrows step.
    b.press(&[ARROW_RIGHT, ARROW_RIGHT, ARROW_RIGHT]);
    check_forts(b, &replay, Some(t + 3), "three steps on");
    b.press(&[ARROW_LEFT]);
    check_forts(b, &replay, Some(t + 2), "one step back");
    wait_hash(b, t + 2);
    // The scrub bar, clicked at three quarters.
    click_at(b, "#viewer input[type=range]", 0.75);
    let scrubbed = check_forts(b, &replay, None, "scrubbed");
    assert!(
        (scrubbed as f64 - 0.75 * last as f64).abs() <= 0.05 * last as f64 + 2.0,
        "clicked at 3/4 of {last} turns, shows {scrubbed}"
    );
    wait_hash(b, scrubbed);
    b.execute("document.activeElement && document.activeElement.blur();");
    b.press(&[END]);
    check_forts(b, &replay, Some(last), "the end");
    b.press(&[HOME]);
    check_forts(b, &replay, Some(0), "the start");
    // A link to a turn opens there; changing the address moves the viewer.
    let mid = last / 2;
    page(&format!("/matches/{id}#t={mid}"));
    b.refresh(); // a new load, not a move within the page
    viewer_ready(b);
    check_forts(b, &replay, Some(mid), "opened at #t=");
    b.execute(&format!("location.hash = '#t={}';", mid + 1));
    wait_until(
        b,
        "the viewer follows the address",
        Duration::from_secs(3),
        || shown_turn(b) == mid + 1,
    );
    check_forts(b, &replay, Some(mid + 1), "the address changed");
    b.execute("window.scrollTo(0, 0);");
    cam.both("match");

    // A stranger with an account is refused too.
    log_in(b, &site, "otto");
    page(&format!("/matches/{id}"));
    viewer_ready(b);
    assert!(b.find_all("#stderr").is_empty(), "others see no stderr");
    assert_eq!(status_in_page(b, &stderr_url), 403);
    log_out(b);

    // The owner: the stderr panel follows the turn.
    log_in(b, &site, OWNER);
    page(&format!("/matches/{id}#t={PROBLEM_TURN}"));
    viewer_ready(b);
    assert_eq!(status_in_page(b, &stderr_url), 200);
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
        let t = check_forts(b, &replay, Some(PROBLEM_TURN + step), "the owner steps");
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
    cam.both("match-owner");

    // ---------------------------------------------------------------- the bot
    b.click(&format!("table.result a[href='/bots/{BOT}']"));
    wait_for_path(b, &format!("/bots/{BOT}"));
    b.wait_text("main h1", BOT);
    let api = get_json(&site, &format!("/api/bots/{BOT}"), &[]);
    let record: Vec<(String, String)> = serde_json::from_value(b.execute(
        "return [...document.querySelectorAll('#record dl.record > div')].map(d =>
           [d.querySelector('dt').innerText.trim(), d.querySelector('dd').innerText.trim()]);",
    ))
    .unwrap();
    let value = |name: &str| {
        record
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .unwrap_or_else(|| panic!("no {name} in {record:?}"))
            .1
            .clone()
    };
    assert_eq!(
        value("Rating"),
        format!("{:.2}", api["rating"].as_f64().unwrap())
    );
    assert_eq!(value("Games"), api["games"].to_string());
    assert_eq!(value("Won"), api["wins"].to_string());
    assert_eq!(value("Lost"), api["losses"].to_string());
    assert_eq!(value("Drawn"), api["draws"].to_string());
    let points = b.execute(
        "return document.querySelector('#record .rating-chart polyline').getAttribute('points');",
    );
    assert_eq!(
        points.as_str().unwrap().split_whitespace().count() as i64,
        api["games"].as_i64().unwrap(),
        "a point a game in the chart"
    );
    let (own, _) = api_match_ids(&site, &format!("?bot={BOT}"));
    assert_eq!(
        listed_ids(b, "#record table.matches"),
        own.iter().take(10).copied().collect::<Vec<_>>(),
        "its recent matches"
    );
    let problems: Vec<String> = serde_json::from_value(b.execute(
        "return [...document.querySelectorAll('#errors a[href^=\"/matches/\"]')].map(a => a.getAttribute('href'));",
    ))
    .unwrap();
    assert!(
        !problems.is_empty(),
        "the owner's error board links to the problems"
    );
    for href in &problems {
        assert!(
            href.ends_with(&format!("#t={PROBLEM_TURN}")),
            "the bad command of turn {PROBLEM_TURN}: {href}"
        );
    }
    assert!(b.text("#errors").contains("invalid command"));
    cam.both("bot-owner");
    // A link of the board opens the replay at that turn, where the warning is.
    let href = &problems[0];
    let (path, turn) = href.split_once("#t=").unwrap();
    let turn: usize = turn.parse().unwrap();
    let problem_match: i64 = path.trim_start_matches("/matches/").parse().unwrap();
    b.click(&format!("#errors a[href='{href}']"));
    wait_for_path(b, href);
    viewer_ready(b);
    let replay = fetch_replay(b, problem_match);
    check_forts(b, &replay, Some(turn), "opened from the error board");
    let me = replay.players.iter().position(|p| p == BOT).unwrap();
    assert!(
        replay.turns[turn].events.warnings.iter().any(|w| w.0 == me),
        "the warning is in turn {turn}"
    );
    assert!(b
        .text("#viewer")
        .contains(&format!("{turn} / {}", replay.turns.len() - 1)));

    // Others see its record, not its board.
    log_out(b);
    page(&format!("/bots/{BOT}"));
    b.wait_text("#record", "Rating");
    assert!(
        b.find_all("#errors").is_empty(),
        "the error board is the owner's"
    );
    cam.both("bot");

    // ---------------------------------------------------------------- a user
    b.click(&format!(".bot-summary a[href='/users/{OWNER}']"));
    wait_for_path(b, &format!("/users/{OWNER}"));
    b.wait_text("main h1", OWNER);
    let bots = table(b, "#user-bots table");
    let rank = board_rank(&get_json(&site, "/api/leaderboard", &[]), BOT);
    assert_eq!(bots.len(), 1, "{bots:?}");
    assert_eq!(bots[0][0], rank.to_string());
    assert_eq!(bots[0][1], BOT);
    let (theirs, _) = api_match_ids(&site, &format!("?user={OWNER}"));
    assert_eq!(
        listed_ids(b, "table.matches"),
        theirs.iter().take(10).copied().collect::<Vec<_>>()
    );
    cam.both("user");
    page("/users/house");
    b.wait_text("main h1", "house");
    assert_eq!(table(b, "#user-bots table").len(), 4);

    eprintln!(
        "spectator test: {BOT} live {:.1} s after its upload; ladder of {finished} matches \
         ready after {:.1} s; {:.1} s in the browser; {} screenshots; {:.1} s in all",
        live_after.as_secs_f64(),
        ladder_ready.as_secs_f64(),
        browsing.elapsed().as_secs_f64(),
        cam.taken.len(),
        started.elapsed().as_secs_f64()
    );
}

/// A bot's rank in `/api/leaderboard`.
fn board_rank(board: &Value, bot: &str) -> i64 {
    board["leaderboard"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["bot"] == bot)
        .unwrap_or_else(|| panic!("{bot} is not on the leaderboard"))["rank"]
        .as_i64()
        .unwrap()
}
