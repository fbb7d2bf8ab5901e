//! The leaderboard and the match list, against the API.

use std::collections::BTreeSet;
use std::time::Duration;

use serde_json::json;

use super::super::harness::{wait_for_path, Visit};
use super::ladder::{api_match_ids, games, get_json, pause, Db};
use super::page::{listed_ids, table, wait_until};
use super::{BOT, OWN_MATCHES};

/// The leaderboard lists the bots in rating order, as `/api/leaderboard` does, and
/// keeps itself up to date. Returns its rows.
pub fn the_leaderboard_lists_the_bots_as_the_api(v: &mut Visit) -> Vec<Vec<String>> {
    let (b, site) = (v.b, v.site);
    v.page("/leaderboard");
    b.wait_text("main h1", "Leaderboard");
    let board = get_json(site, "/api/leaderboard", &[])["leaderboard"].clone();
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
    v.cam.both("leaderboard");
    rows
}

/// One more match (the ranker resumed for it): the table takes its rows again from the
/// server when it refreshes (every 15 s while visible, and when the page becomes
/// visible again) and then reads exactly as the page the server draws.
pub fn the_leaderboard_refreshes_after_one_more_match(
    v: &mut Visit,
    db: &Db,
    rows: &[Vec<String>],
) {
    let (b, site) = (v.b, v.site);
    b.execute("document.querySelector('#leaderboard tbody').dataset.old = '1';");
    let before = games(&get_json(site, "/api/leaderboard", &[]));
    assert!(site.admin(&["resume"]).contains("runs"));
    wait_until(
        b,
        "one more match is recorded",
        Duration::from_secs(60),
        || games(&get_json(site, "/api/leaderboard", &[])) > before,
    );
    pause(site, db);
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
    let now = get_json(site, "/api/leaderboard", &[]);
    for (row, api) in refreshed.iter().zip(now["leaderboard"].as_array().unwrap()) {
        assert_eq!(row[1], api["bot"].as_str().unwrap());
        assert_eq!(row[6], api["games"].to_string());
    }
}

/// The match list agrees with `/api/matches` and pages on with "Older matches".
/// Returns the first page's ids.
pub fn the_match_list_agrees_with_the_api_and_pages_on(v: &mut Visit) -> Vec<i64> {
    let (b, site) = (v.b, v.site);
    b.click("header .links a[href='/matches']");
    wait_for_path(b, "/matches");
    b.wait_text("main h1", "Matches");
    let (first, next) = api_match_ids(site, "");
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
    v.cam.both("matches");
    if let Some(cursor) = next {
        b.click("main .pager a.button");
        wait_for_path(b, &format!("/matches?cursor={cursor}"));
        let (second, _) = api_match_ids(site, &format!("?cursor={cursor}"));
        let shown = listed_ids(b, "table.matches");
        assert_eq!(shown, second, "the second page, as the API");
        assert!(shown
            .iter()
            .all(|id| !first.contains(id) && *id < first[49]));
        assert!(b.text("main .pager").contains("Newest"));
        v.cam.both("matches-older");
    }
    first
}

/// A filter nothing matches says so, and offers to clear the filters.
pub fn a_filter_nothing_matches_says_so_and_clears(v: &mut Visit, first: &[i64]) {
    let b = v.b;
    v.page("/matches?bot=nobody");
    b.wait_text("main", "No finished match matches these filters yet.");
    assert!(b.find_all("table.matches").is_empty());
    b.click("form.filters a.clear");
    wait_until(b, "the filters are cleared", Duration::from_secs(5), || {
        b.url().ends_with("/matches")
    });
    assert_eq!(listed_ids(b, "table.matches"), first);
}

/// Filtered by the contestant's bot: its matches, as the API. Returns their ids.
pub fn the_list_filters_by_the_contestants_bot(v: &mut Visit) -> Vec<i64> {
    let (b, site) = (v.b, v.site);
    b.fill("form.filters input[name=bot]", BOT);
    b.click("form.filters button[type=submit]");
    wait_until(b, "the filter applies", Duration::from_secs(5), || {
        b.url().contains(&format!("bot={BOT}"))
    });
    b.wait_text("main h1", "Matches");
    let (own, _) = api_match_ids(site, &format!("?bot={BOT}"));
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
    own
}
