//! Over the API, with no browser but the same served site: a token made with
//! `bottlebats admin create-token` uploads a bot with a multipart POST over TCP, which
//! then goes live.

use super::harness;
use crate::common;

use std::time::{Duration, Instant};

use harness::{starter_bot, Site, BUILD_DEADLINE};
use serde_json::{json, Value};

const PASSWORD: &str = "a long enough secret";

#[test]
fn the_api_uploads_a_bot_with_a_token_made_by_the_admin_command_and_it_goes_live() {
    let started = Instant::now();
    let site = Site::start("api-upload");
    site.admin(&["create-user", "ada", "--password", PASSWORD]);
    let out = site.admin(&["create-token", "ada", "--name", "ci"]);
    let token = out.lines().last().unwrap_or("").trim().to_string();
    assert!(
        token.starts_with("bbt_"),
        "the last line is the token: {out}"
    );
    let auth = format!("Bearer {token}");

    // curl -H "Authorization: Bearer …" -F name=Lovelace -F file=@bot.py URL/api/bots
    let bot = std::fs::read(starter_bot()).unwrap();
    let (content_type, body) = common::multipart(&[("name", "Lovelace")], Some(("bot.py", &bot)));
    let headers = [
        ("Content-Type", content_type.as_str()),
        ("Authorization", auth.as_str()),
    ];
    let wrong = [headers[0], ("Authorization", "Bearer bbt_not_a_token")];
    let (status, answer) = site.request("POST", "/api/bots", &wrong, &body);
    assert_eq!(status, 401, "a wrong token uploads nothing: {answer}");
    let (status, answer) = site.request("POST", "/api/bots", &headers, &body);
    assert_eq!(status, 201, "{answer}");
    let v: Value = serde_json::from_str(&answer).unwrap();
    assert_eq!(
        v,
        json!({ "bot": "Lovelace", "version": 1, "status": "pending", "url": "/bots/Lovelace" })
    );

    // Polled as a script would, until the version plays.
    let mut seen = Vec::new();
    let until_live = Instant::now();
    let bot = loop {
        let (status, answer) = site.request(
            "GET",
            "/api/bots/Lovelace",
            &[("Authorization", &auth)],
            b"",
        );
        assert_eq!(status, 200, "{answer}");
        let v: Value = serde_json::from_str(&answer).unwrap();
        let now = v["versions"][0]["status"]
            .as_str()
            .unwrap_or("")
            .to_string();
        if seen.last() != Some(&now) {
            seen.push(now.clone());
        }
        match now.as_str() {
            "active" => break v,
            "pending" | "building" | "testing" => {}
            other => panic!("version 1 is {other}: {answer}"),
        }
        assert!(
            until_live.elapsed() < BUILD_DEADLINE,
            "version 1 is still {now} after {} s",
            BUILD_DEADLINE.as_secs()
        );
        std::thread::sleep(Duration::from_millis(250));
    };
    assert_eq!(bot["active_version"], 1, "{bot}");
    assert_eq!(bot["owner"], "ada");
    assert_eq!(
        bot["versions"][0]["failure"],
        Value::Null,
        "the owner sees no failure"
    );
    eprintln!(
        "API test: statuses {seen:?}; live {:.1} s after the upload; {:.1} s in all",
        until_live.elapsed().as_secs_f64(),
        started.elapsed().as_secs_f64()
    );
}
