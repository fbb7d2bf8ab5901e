//! The leaderboard of a big ladder in headless Chromium, at 1366×768 and on a phone
//! (390×844): 232 bots of 42 owners (`crate::ladder::paging::big_ladder`), with a
//! 32-character bot name and a 32-character owner name at the top, and a contestant
//! (`mira`) with a bot there, two further down and a disabled one.
//!
//! - A stranger sees the top 50, pages on with the links and the page box, and finds
//!   bots by the start of their name or their owner's.
//! - The long names wrap in their cells: the table fits the page at 1366 px and at
//!   390 px, where rank, name and rating show without scrolling sideways.
//! - Logged in, the contestant sees each bot among its neighbours, marked; the profile
//!   on a phone shows rank, name, rating and status, and the disabled bot's row is no
//!   taller than its reason needs; the home page's list of bots fits a phone.
//!
//! Screenshots go to `target/screenshots/board-*.png`.

use serde_json::Value;

use super::harness::{browser_tools, viewport, wait_for_path, Browser, Site, Visit, PHONE};
use super::spectators::page::{log_in, table};

const LAPTOP: (u32, u32) = (1366, 768);
const OWNER: &str = "mira";
const LONG_BOT: &str = "the-longest-bot-name-of-them-all";
const LONG_OWNER: &str = "owner-with-the-longest-name-32ch";
const REASON: &str = "disabled by the organizer: it crashed in every game on the six-player maps";

/// The big ladder, mira's bot with the longest name second, and the longest owner's
/// bot first.
fn seed(site: &Site) {
    site.admin(&[
        "create-user",
        OWNER,
        "--password",
        super::spectators::PASSWORD,
    ]);
    site.admin(&[
        "create-user",
        LONG_OWNER,
        "--password",
        super::spectators::PASSWORD,
    ]);
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let db = sqlx::PgPool::connect(&site.database_url).await.unwrap();
        // Before the ladder, which gives them a version that plays.
        for (owner, bot, mu) in [(LONG_OWNER, "BigBertha", 3000.0), (OWNER, LONG_BOT, 2500.0)] {
            sqlx::query(
                "insert into bots (owner_id, name, mu, sigma) \
                 select u.id, $2, $3, 1 from users u where u.name = $1",
            )
            .bind(owner)
            .bind(bot)
            .bind(mu)
            .execute(&db)
            .await
            .unwrap();
        }
        crate::ladder::paging::big_ladder(&db, OWNER).await;
        sqlx::query("update bots set disabled_reason = $1 where name = 'mira-off'")
            .bind(REASON)
            .execute(&db)
            .await
            .unwrap();
        db.close().await;
    });
}

/// Whether the page scrolls sideways, and whether any table scrolls inside its box.
fn overflows(v: &Visit) -> Value {
    v.b.execute(
        "const d = document.documentElement;
         return [d.scrollWidth > d.clientWidth,
                 [...document.querySelectorAll('.table-scroll')].some(t => t.scrollWidth > t.clientWidth)];",
    )
}

/// For each row of the table `css`, whether the cells `cells` (CSS of each) are shown
/// whole inside the window.
fn cells_in_view(v: &Visit, css: &str, cells: &[&str]) -> Value {
    v.b.execute(&format!(
        "const w = document.documentElement.clientWidth;
         return [...document.querySelectorAll('{css} tbody tr:not(.gap):not(.detail)')].map(tr =>
           {cells:?}.map(c => {{ const td = tr.querySelector(c);
             if (!td || td.offsetParent === null) return false;
             const r = td.getBoundingClientRect(); return r.left >= 0 && r.right <= w && r.width > 0; }})
             .every(x => x));"
    ))
}

/// Screenshots of the page at 1366×768 and 390×844 (the page itself never scrolls
/// sideways, nor do its tables), each checked with `check` at that size.
fn both(v: &mut Visit, name: &str, check: impl Fn(&Visit, &str)) {
    for (size, at) in [(LAPTOP, "desktop"), (PHONE, "phone")] {
        viewport(v.b, size);
        assert_eq!(
            overflows(v),
            serde_json::json!([false, false]),
            "{name} at {at}"
        );
        check(v, at);
        v.cam.snap(&format!("board-{name}-{at}"));
    }
    viewport(v.b, LAPTOP);
}

fn first_column(v: &Visit, css: &str) -> Vec<String> {
    table(v.b, css).into_iter().map(|r| r[0].clone()).collect()
}

#[test]
fn the_leaderboard_pages_finds_and_fits_a_laptop_and_a_phone() {
    let Some(tools) = browser_tools("the leaderboard's browser test") else {
        return;
    };
    let site = Site::start("board");
    // Its bots have no program: unmatched, they keep the standings they are given.
    site.admin(&["pause"]);
    seed(&site);
    let browser = Browser::open(&tools, "board");
    let v = &mut Visit::new(&site, &browser.session);
    viewport(v.b, LAPTOP);

    // The top of the ladder, the longest names first.
    v.page("/leaderboard");
    v.b.wait_text("main h1", "Leaderboard");
    let ranks = first_column(v, "#leaderboard");
    assert_eq!(ranks.len(), 50);
    assert_eq!((ranks[0].as_str(), ranks[49].as_str()), ("1", "50"));
    let top = table(v.b, "#leaderboard");
    assert_eq!(
        (top[0][1].as_str(), top[0][2].as_str()),
        ("BigBertha", LONG_OWNER)
    );
    assert_eq!(top[1][1], LONG_BOT);
    both(v, "top", |v, at| {
        let cells = [".rank", ".bot", ".rating"];
        assert_eq!(
            cells_in_view(v, "#leaderboard", &cells),
            serde_json::json!(vec![true; 50]),
            "at {at}: rank, name and rating of every row in view"
        );
    });

    // Further down: the next page, then a page typed in.
    v.b.click("nav.board-pager a.next");
    wait_for_path(v.b, "/leaderboard?page=2");
    assert_eq!(first_column(v, "#leaderboard")[0], "51");
    v.b.fill("form.page-jump input[name=page]", "4");
    v.b.click("form.page-jump button");
    wait_for_path(v.b, "/leaderboard?page=4");
    let ranks = first_column(v, "#leaderboard");
    assert_eq!((ranks[0].as_str(), ranks.len()), ("151", 50));
    both(v, "page-4", |_, _| {});

    // A search by owner: their bots with the ladder's ranks.
    v.b.fill("form.board-search input[name=q]", "fan007");
    v.b.click("form.board-search button");
    wait_for_path(v.b, "/leaderboard?q=fan007");
    let found = table(v.b, "#leaderboard");
    assert_eq!(found.len(), 6);
    assert!(found.iter().all(|r| r[2] == "fan007"), "{found:?}");
    both(v, "search", |_, _| {});

    // Mira's own bots among their neighbours, marked, above the top.
    log_in(v.b, &site, OWNER);
    v.page("/leaderboard");
    v.b.wait_text("main h1", "Leaderboard");
    let mine = v.b.execute(
        "return [...document.querySelectorAll('#my-bots tbody tr.mine td.bot > a')].map(a => a.textContent);",
    );
    assert_eq!(mine, serde_json::json!([LONG_BOT, "mira-high", "mira-low"]));
    assert_eq!(
        v.b.execute("return document.querySelectorAll('#my-bots tr.gap').length;"),
        serde_json::json!(2),
        "a gap before the 2nd and 3rd bots' neighbourhoods"
    );
    both(v, "mine", |v, at| {
        let cells = [".rank", ".bot", ".rating"];
        let rows = cells_in_view(v, "#my-bots", &cells);
        assert!(
            rows.as_array().unwrap().iter().all(|r| r == true),
            "at {at}: {rows}"
        );
    });

    // The profile on a phone: rank, name, rating and status of each bot; the disabled
    // bot's row as tall as its reason needs.
    v.page("/profile");
    v.b.wait_text("main h1", OWNER);
    both(v, "profile", |v, at| {
        let cells = [".bot", ".playing", ".rank", ".rating"];
        let rows = cells_in_view(v, "#bots table", &cells);
        let rows = rows.as_array().unwrap();
        assert!(
            rows.len() >= 3 && rows.iter().all(|r| r == true),
            "at {at}: {rows:?}"
        );
        let heights = v.b.execute(
            "return [...document.querySelectorAll('#bots tbody tr:not(.detail)')].map(tr => tr.getBoundingClientRect().height);",
        );
        let heights: Vec<f64> = heights
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h.as_f64().unwrap())
            .collect();
        let (short, tall) = heights
            .iter()
            .fold((f64::MAX, 0f64), |(a, b), &h| (a.min(h), b.max(h)));
        // The reason is two lines at most on a phone: a row of a few lines, no more.
        assert!(tall < 3.5 * short, "at {at}: rows {heights:?}");
        assert!(v.b.text("#bots").contains(REASON), "the reason is shown");
    });

    // The home page's list of bots, the longest name within a phone's width.
    v.page("/");
    v.b.wait_text("#my-bots", LONG_BOT);
    both(v, "home", |_, _| {});
}

/// Vindinium's bots beside the big Bottle Bats ladder: the longest name first.
const VINDINIUM_BOTS: [(&str, f64); 3] = [
    ("the-longest-vindinium-hero-name", 4000.0),
    ("gold-digger", 3500.0),
    ("tavern-regular", 3200.0),
];

/// Two games open: the leaderboard switches between their ladders with the switcher,
/// which fits a laptop and a phone. Screenshots `board-games-*`.
#[test]
fn the_leaderboard_switches_between_the_open_games() {
    let Some(tools) = browser_tools("the leaderboard's game switcher test") else {
        return;
    };
    let site = Site::start_with("board-games", &["--games", "bottlebats,vindinium"]);
    // Its bots have no program: were they matched, they would crash and be held off
    // the ladder (it happened on a loaded machine, where the test ran long).
    site.admin(&["pause"]);
    seed(&site);
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let db = sqlx::PgPool::connect(&site.database_url).await.unwrap();
        for (bot, mu) in VINDINIUM_BOTS {
            crate::ladder::by_game::bot_of(&db, OWNER, bot, "vindinium", mu).await;
        }
        db.close().await;
    });
    // The ladder's standings are cached a moment: wait until they hold the bots just
    // made.
    let start = std::time::Instant::now();
    loop {
        let (_, body) = site.request("GET", "/api/leaderboard?game=vindinium", &[], b"");
        if body.contains(VINDINIUM_BOTS[0].0) {
            break;
        }
        assert!(
            start.elapsed() < std::time::Duration::from_secs(60),
            "the seeded bots never reached the standings: {body}"
        );
        std::thread::sleep(std::time::Duration::from_millis(250));
    }
    let browser = Browser::open(&tools, "board-games");
    let v = &mut Visit::new(&site, &browser.session);
    viewport(v.b, LAPTOP);

    // Bottle Bats' ladder at the usual address, marked in the switcher.
    v.page("/leaderboard");
    v.b.wait_text("main h1", "Leaderboard");
    let current = "return [...document.querySelectorAll('.game-switch a')].map(a => [a.textContent, a.getAttribute('aria-current')]);";
    assert_eq!(
        v.b.execute(current),
        serde_json::json!([
            ["Bottle Bats", "page"],
            ["Vindinium", null],
            ["Watch live", null]
        ])
    );
    assert_eq!(table(v.b, "#leaderboard")[0][1], "BigBertha");
    both(v, "games-bottlebats", |_, _| {});

    // Vindinium's: its own bots, ranked from 1.
    v.b.click(".game-switch a[href='/leaderboard?game=vindinium']");
    wait_for_path(v.b, "/leaderboard?game=vindinium");
    let rows = table(v.b, "#leaderboard");
    let top: Vec<(&str, &str)> = (rows.iter().take(3))
        .map(|r| (r[0].as_str(), r[1].as_str()))
        .collect();
    assert_eq!(
        top,
        [
            ("1", VINDINIUM_BOTS[0].0),
            ("2", VINDINIUM_BOTS[1].0),
            ("3", VINDINIUM_BOTS[2].0)
        ]
    );
    assert!(
        !rows
            .iter()
            .any(|r| r[1].starts_with("bot0") || r[1] == "BigBertha"),
        "no Bottle Bats bot: {rows:?}"
    );
    assert_eq!(
        v.b.execute(current)[1],
        serde_json::json!(["Vindinium", "page"])
    );
    both(v, "games-vindinium", |v, at| {
        let cells = [".rank", ".bot", ".rating"];
        let rows = cells_in_view(v, "#leaderboard", &cells);
        assert!(
            rows.as_array().unwrap().iter().all(|r| r == true),
            "at {at}: {rows}"
        );
        let fits = v.b.execute(
            "const w = document.documentElement.clientWidth;
             return [...document.querySelectorAll('.game-switch a')].every(a => { const r = a.getBoundingClientRect(); return r.left >= 0 && r.right <= w; });",
        );
        assert_eq!(fits, serde_json::json!(true), "at {at}: the switcher fits");
    });

    // A search keeps to the game shown.
    v.b.fill("form.board-search input[name=q]", "gold");
    v.b.click("form.board-search button");
    wait_for_path(v.b, "/leaderboard?game=vindinium&q=gold");
    let found = table(v.b, "#leaderboard");
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(
        (found[0][0].as_str(), found[0][1].as_str()),
        ("2", "gold-digger")
    );
}
