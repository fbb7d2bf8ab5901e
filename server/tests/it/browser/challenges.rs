//! A contestant's own matches in a real browser, on `bottlebats serve` with its worker
//! and the house bots' ladder running: from the house bot `idle`'s page, "Challenge
//! idle", the form, and the challenge's page following its games live until they are
//! all played, with the summary against `idle` and on the map; then a candidate
//! version uploaded over the API, its "Start the A/B test" on the bot page, the A/B
//! test's page following its pairs of games to a verdict, and "Make B active".
//!
//! Only `ring-2p` and `triad-3p` are left in play (`bottlebats admin disable-map`), so
//! games are short. Screenshots at desktop and phone width go to `target/screenshots/`.

use std::time::{Duration, Instant};

use serde_json::Value;

use super::harness::{
    browser_tools, wait_for_id, wait_for_path, wait_long, Browser, Site, Visit, BUILD_DEADLINE,
};
use crate::common;

const PASSWORD: &str = "a long enough secret";
/// How long the games of a challenge may take, sharing the worker with the ladder.
const PLAY_DEADLINE: Duration = Duration::from_secs(240);

fn json_of(site: &Site, path: &str, token: &str) -> Value {
    let (status, body) = site.request("GET", path, &[("Authorization", token)], b"");
    assert_eq!(status, 200, "GET {path}: {body}");
    serde_json::from_str(&body).unwrap()
}

/// A version of `mine` uploaded over the API, polled until `want`.
fn upload(site: &Site, token: &str, path: &str, fields: &[(&str, &str)], want: &str) {
    let (ctype, body) = common::multipart(fields, Some(("bot.py", crate::builds::greedy())));
    let (status, answer) = site.request(
        "POST",
        path,
        &[("Content-Type", ctype.as_str()), ("Authorization", token)],
        &body,
    );
    assert_eq!(status, 201, "{answer}");
    let start = Instant::now();
    loop {
        let v = json_of(site, "/api/bots/mine", token);
        let status = v["versions"][0]["status"]
            .as_str()
            .unwrap_or("")
            .to_string();
        if status == want {
            return;
        }
        assert!(!status.is_empty() && status != "failed", "{v}");
        assert!(start.elapsed() < BUILD_DEADLINE, "not {want} in time: {v}");
        std::thread::sleep(Duration::from_millis(250));
    }
}

#[test]
fn a_contestant_challenges_a_bot_and_ab_tests_a_candidate_from_the_pages() {
    let Some(tools) = browser_tools("the challenges' browser test") else {
        return;
    };
    let started = Instant::now();
    let site = Site::start("challenges");
    for (map, _) in server::games::content("bottlebats").unwrap().maps() {
        if map != "ring-2p" && map != "triad-3p" {
            site.admin(&["disable-map", map]);
        }
    }
    site.admin(&["create-user", "alice", "--password", PASSWORD]);
    let token = format!(
        "Bearer {}",
        site.admin(&["create-token", "alice", "--name", "ci"])
            .lines()
            .last()
            .unwrap()
            .trim()
    );
    upload(&site, &token, "/api/bots", &[("name", "mine")], "active");

    let browser = Browser::open(&tools, "challenges");
    let v = &mut Visit::new(&site, &browser.session);
    v.page("/login");
    v.b.fill("input[name=name]", "alice");
    v.b.fill("input[name=password]", PASSWORD);
    v.b.click("main button[type=submit]");
    wait_for_path(v.b, "/profile");

    challenge_idle_from_its_page(v, &token);
    ab_test_a_candidate_from_the_bot_page(v, &token);
    eprintln!(
        "challenges browser test: {} screenshots, {:.1} s",
        v.cam.taken.len(),
        started.elapsed().as_secs_f64()
    );
}

/// From idle's page to the form, filled in for idle; its page follows the games
/// without a reload, to the end, and sums them up as the API does.
fn challenge_idle_from_its_page(v: &mut Visit, token: &str) {
    v.page("/bots/idle");
    v.b.click(".challenge-link a");
    wait_for_path(v.b, "/challenges/new?opponent=idle");
    assert_eq!(
        v.b.property(&v.b.find("input[name=names]"), "value"),
        "idle"
    );
    // The opponents' fields complete from the bots that play.
    let listed: Vec<String> = serde_json::from_value(v.b.execute(
        "return [...document.querySelectorAll('datalist#rivals option')].map(o => o.value);",
    ))
    .unwrap();
    // The house bots that play by now (one may still be in its smoke test).
    assert!(
        listed.iter().any(|n| n == "idle") && listed.len() >= 3,
        "{listed:?}"
    );
    // Typing an opponent's name chooses "These bots", whatever was chosen before.
    v.b.click("input[name=mode][value=top]");
    v.b.send_keys(".name-fields input:nth-child(2)", "random");
    assert_eq!(
        v.b.property(&v.b.find("input[name=mode][value=named]"), "checked"),
        true,
        "typing a name chooses these bots"
    );
    v.b.fill(".name-fields input:nth-child(2)", "");
    v.b.fill("input[name=games]", "2");
    v.b.click("input[name=map][value=ring-2p]");
    v.cam.both("challenge-form");
    v.b.click(".challenge-form button[type=submit]");
    let id = wait_for_id(v.b, "/challenges/");
    v.b.wait_text(".challenge-head h1", "mine");
    // It follows the games without a reload, to the end.
    wait_long(
        v.b,
        ".challenge-progress h2",
        "Done: 2 of 2 games",
        PLAY_DEADLINE,
    );
    let api = json_of(v.site, &format!("/api/challenges/{id}"), token);
    assert_eq!(api["status"], "finished");
    let row = v.b.text("table.against tbody tr");
    let s = &api["summary"]["opponents"][0];
    assert_eq!(
        row,
        format!("idle {} {} {}", s["wins"], s["draws"], s["losses"]),
        "{api}"
    );
    assert!(v.b.text("table.on-map tbody").starts_with("ring-2p"));
    assert_eq!(v.b.find_all("table.games tbody tr").len(), 2);
    v.cam.both("challenge-page");
}

/// A candidate, its A/B test from the bot page, to the verdict and "Make B active".
fn ab_test_a_candidate_from_the_bot_page(v: &mut Visit, token: &str) {
    upload(
        v.site,
        token,
        "/api/bots/mine/versions",
        &[("candidate", "true")],
        "ready",
    );
    v.page("/bots/mine");
    v.b.fill("form.abtest input[name=games]", "4");
    v.cam.both("bot-page-abtest");
    // The A/B test's form has a row of its own under the version, not the Files column.
    let placed: Value = v.b.execute(
        "const f = document.querySelector('form.abtest'); \
         return [!!f.closest('td.files'), f.closest('tr').className, \
                 Math.round(f.getBoundingClientRect().width)];",
    );
    assert_eq!(
        (placed[0].clone(), placed[1].clone()),
        (Value::Bool(false), "choose".into())
    );
    assert!(placed[2].as_f64().unwrap() >= 300.0, "{placed}");
    v.b.click("form.abtest button[type=submit]");
    let ab = wait_for_id(v.b, "/abtests/");
    wait_long(
        v.b,
        ".challenge-progress h2",
        "Done: 4 of 4 games",
        PLAY_DEADLINE,
    );
    let api = json_of(v.site, &format!("/api/abtests/{ab}"), token);
    let verdict = api["verdict"].as_str().unwrap();
    v.b.wait_text(".verdict", verdict);
    assert!(v.b.text(".difference").contains("95% interval"));
    assert!(v.b.text("tr.side-b").starts_with("B: version 2"));
    // Two scenarios are too few: the games that would tell are a button away.
    assert!(v.b.text("form.more-games button").ends_with("more games"));
    v.cam.both("abtest-page");
    v.b.click("form.make-b button");
    wait_for_path(v.b, "/bots/mine#versions");
    v.b.wait_text(".bot-summary .plays", "version 2 plays");
}
