//! What a contestant and an organizer are told: the ladder paused on every page, the
//! organizer's login landing on /admin, the complete rules linked from the rules page,
//! commands with the site's own address, and a disabled bot's reason as one sentence.

use axum::http::StatusCode;

use crate::builds::PW;
use crate::common::{test_config, Client};

#[tokio::test]
async fn a_paused_ladder_is_said_on_every_page() {
    let mut running = Client::new().await;
    assert!(!running.get("/").await.body.contains("The ladder is paused"));
    // (The phase is read at most every 3 s: a fresh site reads it at once.)
    let c = Client::new().await;
    server::ranker::set_paused(&c.state.db, true).await.unwrap();
    for path in ["/", "/leaderboard", "/rules"] {
        let page = c.stranger().get(path).await.body;
        assert!(
            page.contains("<strong>The ladder is paused</strong>"),
            "{path}: {page}"
        );
    }
}

#[tokio::test]
async fn an_organizer_lands_on_admin_and_a_contestant_on_their_profile() {
    let mut c = Client::new().await;
    c.register("olga", PW).await;
    c.stranger().register("carl", PW).await;
    sqlx::query("update users set is_admin = true where name = 'olga'")
        .execute(&c.state.db)
        .await
        .unwrap();
    let olga = c.stranger().login("olga", PW).await;
    assert_eq!(olga.location(), Some("/admin"));
    // Through the login page, which sends its (empty) `next` field, as a browser does.
    let mut browser = c.stranger();
    let form = browser.get("/login").await.body;
    assert!(form.contains("name=\"next\" value=\"\""), "{form}");
    let r = browser
        .post(
            "/login",
            &[("name", "olga"), ("password", PW), ("next", "")],
        )
        .await;
    assert_eq!(r.location(), Some("/admin"));
    let carl = c.stranger().login("carl", PW).await;
    assert_eq!(carl.location(), Some("/profile"));
}

#[tokio::test]
async fn the_rules_page_links_the_complete_rules_and_commands_name_the_site() {
    let mut config = test_config();
    config.base_url = Some("https://bots.example.org/".into());
    let mut c = Client::with_config(config).await;
    assert!(c
        .get("/rules")
        .await
        .body
        .contains("href=\"/docs/bottlebats/rules.md\""));
    let old = c.get("/docs/rules.md").await;
    assert_eq!(old.status, StatusCode::PERMANENT_REDIRECT);
    assert_eq!(old.headers["location"], "/docs/bottlebats/rules.md");
    let rules = c.get("/docs/bottlebats/rules.md").await;
    assert_eq!(rules.status, StatusCode::OK);
    assert!(rules.body.starts_with("# "), "{}", &rules.body[..80]);
    assert!(rules.body.contains("## 7. The bot process"));
    let start = c.get("/getting-started").await.body;
    assert!(!start.contains("THIS-SITE"));
    assert!(
        start.contains(
            "curl -o bottlebats-local.zip https://bots.example.org/downloads/bottlebats-local-kit.zip"
        ),
        "{start}"
    );
    assert!(start.contains("./bottlebats play config.json"));
    assert!(c
        .get("/api")
        .await
        .body
        .contains("https://bots.example.org/api/leaderboard"));
}

#[tokio::test]
async fn a_disabled_bots_reason_reads_as_one_sentence() {
    let c = Client::new().await;
    let b = crate::common::house_ladder(&c.state.db, "disabled-reason", "ring-2p").await;
    drop(b);
    server::ranker::set_bot_disabled(&c.state.db, "greedy", Some("it crashed the workers. "))
        .await
        .unwrap();
    // Its owner's page ends the sentence itself: the reason is kept without its period.
    let kept: String = sqlx::query_scalar("select disabled_reason from bots where name = 'greedy'")
        .fetch_one(&c.state.db)
        .await
        .unwrap();
    assert_eq!(kept, "it crashed the workers");
}
