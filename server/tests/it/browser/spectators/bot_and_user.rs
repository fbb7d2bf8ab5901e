//! A bot's page (its record, rating chart and recent matches, and to its owner an
//! error board whose links open the replay at the problem) and a user's page.

use super::super::harness::{wait_for_path, Visit};
use super::ladder::{api_match_ids, board_rank, get_json};
use super::page::{check_forts, fetch_replay, listed_ids, log_out, table, viewer_ready};
use super::{BOT, OWNER, PROBLEM_TURN};

/// From the match's result, the bot page shows the record of `/api/bots/NAME`, the
/// rating chart and its recent matches.
pub fn the_bot_page_shows_its_record_as_the_api(v: &mut Visit) {
    let (b, site) = (v.b, v.site);
    b.click(&format!("table.result a[href='/bots/{BOT}']"));
    wait_for_path(b, &format!("/bots/{BOT}"));
    b.wait_text("main h1", BOT);
    let api = get_json(site, &format!("/api/bots/{BOT}"), &[]);
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
    let (own, _) = api_match_ids(site, &format!("?bot={BOT}"));
    assert_eq!(
        listed_ids(b, "#record table.matches"),
        own.iter().take(10).copied().collect::<Vec<_>>(),
        "its recent matches"
    );
    // Where it stands, as the leaderboard has it; there its owner finds it marked.
    let board = get_json(site, "/api/leaderboard", &[]);
    let rows = board["leaderboard"].as_array().unwrap();
    let place = rows.iter().position(|r| r["bot"] == BOT).unwrap() + 1;
    assert_eq!(
        b.text("#record .standing .rank"),
        format!("#{place} of {} Bottle Bats bots", rows.len())
    );
    assert!(b.text("#record .standing").contains("last played"));
    v.page("/leaderboard");
    b.wait_text("#leaderboard", BOT);
    let mine = b.execute(
        "return [...document.querySelectorAll('#leaderboard tr.mine td.bot > a')].map(a => a.textContent);",
    );
    assert_eq!(
        mine,
        serde_json::json!([BOT]),
        "the owner's bots are marked"
    );
    v.page(&format!("/bots/{BOT}"));
    b.wait_text("main h1", BOT);
}

/// The owner's error board links to the problems, each at the turn of the bad
/// command. Returns the links.
pub fn the_owners_error_board_links_to_the_problems(v: &mut Visit) -> Vec<String> {
    let b = v.b;
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
    // Each line gives the kind, and the message with its commands drawn as code.
    let lines: Vec<String> = serde_json::from_value(b.execute(
        "return [...document.querySelectorAll('#errors li.problem')].map(li => li.innerHTML);",
    ))
    .unwrap();
    for line in &lines {
        assert!(
            line.contains("<code>nowhere else 1</code>") && !line.contains('`'),
            "the board says which command and why, without backticks: {line}"
        );
    }
    v.cam.both("bot-owner");
    v.cam.scroll_to("#errors");
    v.cam.snap("error-board");
    problems
}

/// A link of the board opens the replay at that turn, where the warning is.
pub fn a_link_of_the_board_opens_the_replay_at_the_warning(v: &mut Visit, href: &str) {
    let b = v.b;
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
    // The warning's text, in the caption for everyone and in full in the owner's panel.
    let warning = &replay.turns[turn]
        .events
        .warnings
        .iter()
        .find(|w| w.0 == me)
        .unwrap()
        .1;
    let plain = warning.replace('`', "");
    let caption = b.wait_text(".bbv-problems", "there is no fort");
    assert!(caption.contains(&format!("{BOT}: {plain}")), "{caption}");
    let panel = b.wait_text(".stderr-problems", "there is no fort");
    assert_eq!(
        panel.trim(),
        plain,
        "the owner's panel gives the whole text"
    );
    assert_eq!(
        b.find_all(".stderr-problems code").len(),
        2,
        "the command and the fort as code"
    );
    v.cam.scroll_to("#stderr");
    v.cam.snap("owner-panel-warning");
}

/// Others see its record, not its board.
pub fn others_see_the_bots_record_not_its_board(v: &mut Visit) {
    let b = v.b;
    log_out(b);
    v.page(&format!("/bots/{BOT}"));
    b.wait_text("#record", "Rating");
    assert!(
        b.find_all("#errors").is_empty(),
        "the error board is the owner's"
    );
    v.cam.both("bot");
}

/// From the bot, its owner's page lists the user's bots and matches; the house's lists
/// its four bots.
pub fn a_user_page_lists_the_users_bots_and_matches(v: &mut Visit) {
    let (b, site) = (v.b, v.site);
    b.click(&format!(".bot-summary a[href='/users/{OWNER}']"));
    wait_for_path(b, &format!("/users/{OWNER}"));
    b.wait_text("main h1", OWNER);
    let bots = table(b, "#user-bots table");
    let rank = board_rank(&get_json(site, "/api/leaderboard", &[]), BOT);
    assert_eq!(bots.len(), 1, "{bots:?}");
    assert_eq!(bots[0][0], rank.to_string());
    assert_eq!(bots[0][1], BOT);
    let (theirs, _) = api_match_ids(site, &format!("?user={OWNER}"));
    assert_eq!(
        listed_ids(b, "table.matches"),
        theirs.iter().take(10).copied().collect::<Vec<_>>()
    );
    v.cam.both("user");
    v.page("/users/house");
    b.wait_text("main h1", "house");
    assert_eq!(table(b, "#user-bots table").len(), 4);
}
