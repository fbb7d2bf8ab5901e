//! Costly pages kept light: a bot page with megabytes of build logs, a rating
//! history of 20,000 games, the classic log of a match.

use axum::body::Body;
use axum::http::{Request, StatusCode};

use super::PW;
use crate::common::{self, Client};

#[tokio::test]
async fn a_bot_page_loads_build_logs_only_for_its_owner_and_only_the_newest() {
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    c.upload(
        "/bots/new",
        &[("name", "verbose")],
        Some(("bot.py", b"print()")),
    )
    .await;
    // 30 versions, each with a long build log and test-game stderr.
    sqlx::query(
        "insert into bot_versions (bot_id, number, language, entry, archive, archive_name, archive_sha256, \
             status, failure, build_log, smoke_stderr) \
         select b.id, n, 'python', 'bot.py', '\\x00', 'bot.py', sha256('\\x00'), 'failed', 'it failed', \
             'LOG' || n || ' ' || repeat('l', 400000), 'ERR' || n || ' ' || repeat('e', 400000) \
         from bots b, generate_series(2, 31) n",
    )
    .execute(&c.state.db)
    .await
    .unwrap();
    let mut stranger = c.stranger();
    let page = stranger.get("/bots/verbose").await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(
        page.body.len() < 200_000,
        "a stranger's page is {} bytes",
        page.body.len()
    );
    assert!(!page.body.contains("LOG31"));
    let page = c.get("/bots/verbose").await;
    assert!(
        page.body.len() < 3 * 2 * 70_000 + 200_000,
        "the owner's page is {} bytes",
        page.body.len()
    );
    for n in [31, 30, 29] {
        assert!(
            page.body.contains(&format!("LOG{n} ")),
            "version {n} inline"
        );
    }
    assert!(!page.body.contains("LOG28 "), "older logs are a link away");
    assert!(page.body.contains("/bots/verbose/versions/28/logs"));
    let full = c.get("/bots/verbose/versions/28/logs").await;
    assert_eq!(full.status, StatusCode::OK);
    assert!(full.body.contains("LOG28") && full.body.contains("ERR28"));
    assert!(full.body.len() > 800_000, "the whole logs");
    let r = stranger.get("/bots/verbose/versions/28/logs").await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "log in first");
    let mut bob = c.stranger();
    bob.register("bob", PW).await;
    let r = bob.get("/bots/verbose/versions/28/logs").await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn a_long_rating_history_draws_a_light_chart() {
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    c.upload(
        "/bots/new",
        &[("name", "veteran")],
        Some(("bot.py", b"print()")),
    )
    .await;
    // 20,000 matches, and a rating change in each.
    sqlx::query("insert into maps (name, text, seats) values ('m', 'x', 2)")
        .execute(&c.state.db)
        .await
        .unwrap();
    sqlx::query(
        "insert into matches (map_id, status, void_reason) \
         select id, 'void', 'a test' from maps, generate_series(1, 20000)",
    )
    .execute(&c.state.db)
    .await
    .unwrap();
    sqlx::query(
        "insert into rating_history (bot_id, match_id, mu, sigma, at) \
         select b.id, m.id, 25 + sin(m.id), 8, now() - make_interval(secs => 20000 - m.id) \
         from bots b, matches m",
    )
    .execute(&c.state.db)
    .await
    .unwrap();
    let page = c.stranger().get("/bots/veteran").await;
    assert!(
        page.body.contains("over 20000 games"),
        "the caption counts every game"
    );
    let points = page
        .body
        .split("<polyline points=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .split(' ')
        .count();
    assert!((2..=501).contains(&points), "{points} points");
    assert!(page.body.len() < 100_000, "{} bytes", page.body.len());
}

#[tokio::test]
async fn the_classic_log_is_printed_once_and_served_gzipped() {
    let mut c = Client::new().await;
    let b = common::house_ladder(&c.state.db, "abuse-log", "ring-2p").await;
    let w = common::worker(&b, "abuse-log", 60);
    server::ranker::schedule(&c.state.db, 1, &Default::default())
        .await
        .unwrap();
    assert!(w.run_one().await.unwrap());
    let id: i64 = sqlx::query_scalar("select id from matches where status = 'finished'")
        .fetch_one(&c.state.db)
        .await
        .unwrap();
    let path = format!("/matches/{id}/log.txt");
    let plain = c.get(&path).await;
    assert_eq!(plain.status, StatusCode::OK);
    assert!(plain.body.starts_with("# STEP"), "{}", &plain.body[..40]);
    // Printed once: with its replay gone from the database, the log is still served.
    sqlx::query("update matches set status = 'void', void_reason = 'a test', replay = null, finished_at = null")
        .execute(&c.state.db)
        .await
        .unwrap();
    let r = c
        .send(
            Request::get(&path)
                .header("accept-encoding", "br, gzip")
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.headers["content-encoding"], "gzip");
    assert_eq!(c.get(&path).await.body, plain.body);
}
