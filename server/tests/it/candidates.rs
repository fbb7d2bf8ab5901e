//! Candidate versions: built and tested like any other, a passing one waits (ready)
//! while the active version keeps playing, until its owner makes it active, on the
//! page or with the API; going back to a retired version; what is refused.

use crate::builds::{active, builder, greedy, status, PW};
use crate::common::Client;

use axum::http::StatusCode;

async fn sigma(c: &Client, bot: &str) -> f64 {
    sqlx::query_scalar("select sigma from bots where name = $1")
        .bind(bot)
        .fetch_one(&c.state.db)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_candidate_waits_until_its_owner_makes_it_active() {
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    let b = builder(&c, "candidate");
    c.upload("/bots/new", &[("name", "cand")], Some(("bot.py", greedy())))
        .await;
    b.build_next().await.unwrap();
    assert_eq!(active(&c, "cand").await, Some(1));

    // The form offers it once a version plays; version 1 keeps playing meanwhile.
    let page = c.get("/bots/cand").await;
    assert!(page.body.contains(r#"name="candidate""#), "the checkbox");
    sqlx::query("update bots set sigma = 2.5 where name = 'cand'")
        .execute(&c.state.db)
        .await
        .unwrap();
    c.upload(
        "/bots/cand/versions",
        &[("candidate", "on")],
        Some(("bot.py", greedy())),
    )
    .await;
    b.build_next().await.unwrap();
    assert_eq!(status(&c, "cand", 2).await, ("ready".into(), None));
    assert_eq!(
        active(&c, "cand").await,
        Some(1),
        "the active version plays on"
    );
    assert_eq!(sigma(&c, "cand").await, 2.5, "its rating is untouched");
    let page = c.get("/bots/cand").await;
    assert!(page.body.contains("Make it active"), "{}", page.body);

    // Nobody else may choose.
    let mut mallory = c.stranger();
    mallory.register("mallory", PW).await;
    let r = mallory.post("/bots/cand/versions/2/activate", &[]).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    assert_eq!(active(&c, "cand").await, Some(1));

    // Its owner makes it active: version 1 retires, the rating starts over its sigma.
    let r = c.post("/bots/cand/versions/2/activate", &[]).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    assert_eq!(r.location(), Some("/bots/cand#versions"));
    assert_eq!(active(&c, "cand").await, Some(2));
    assert_eq!(status(&c, "cand", 1).await.0, "retired");
    assert!(sigma(&c, "cand").await > 8.0);

    // Going back at once is refused, and says why; a minute later it is taken.
    let r = c.post("/bots/cand/versions/1/activate", &[]).await;
    assert_eq!(r.status, StatusCode::CONFLICT);
    assert!(r.body.contains("less than a minute ago"), "{}", r.body);
    assert_eq!(active(&c, "cand").await, Some(2));
    sqlx::query("update bots set activated_at = now() - interval '2 minutes'")
        .execute(&c.state.db)
        .await
        .unwrap();
    let r = c.post("/bots/cand/versions/1/activate", &[]).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    assert_eq!(active(&c, "cand").await, Some(1));
    assert_eq!(status(&c, "cand", 2).await.0, "retired");

    with_the_api(&mut c, &b).await;
}

/// With the API: a candidate upload, then making it active; an unknown version.
async fn with_the_api(c: &mut Client, b: &server::builds::Builder) {
    let token = c.new_token("script").await;
    let r = c
        .api_upload(
            "/api/bots/cand/versions",
            &token,
            &[("candidate", "true")],
            Some(("bot.py", greedy())),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    b.build_next().await.unwrap();
    assert_eq!(status(c, "cand", 3).await.0, "ready");
    sqlx::query("update bots set activated_at = now() - interval '2 minutes'")
        .execute(&c.state.db)
        .await
        .unwrap();
    let r = api_post(c, "/api/bots/cand/versions/3/activate", &token).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.json()["active_version"], 3);
    assert_eq!(active(c, "cand").await, Some(3));
    let r = api_post(c, "/api/bots/cand/versions/9/activate", &token).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert!(r.json()["error"].as_str().unwrap().contains("no version 9"));
}

pub async fn api_post(c: &mut Client, path: &str, token: &str) -> crate::common::Resp {
    let req = axum::http::Request::post(path)
        .header("authorization", format!("Bearer {token}"))
        .body(axum::body::Body::empty())
        .unwrap();
    c.send(req).await
}

/// The dashboard says which version plays and that a newer one waits; the bot page
/// says, before and after, that making a version active starts its rating over and
/// why, and explains μ and σ in words; the A/B test's form has a row of its own.
#[tokio::test]
async fn the_pages_say_which_version_plays_and_why_the_rating_starts_over() {
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    let b = builder(&c, "started-over");
    c.upload("/bots/new", &[("name", "cand")], Some(("bot.py", greedy())))
        .await;
    b.build_next().await.unwrap();
    c.upload(
        "/bots/cand/versions",
        &[("candidate", "on")],
        Some(("bot.py", greedy())),
    )
    .await;
    b.build_next().await.unwrap();
    assert_eq!(status(&c, "cand", 2).await.0, "ready");
    let home = c.get("/").await.body;
    let mine = home.split("id=\"my-bots\"").nth(1).unwrap();
    assert!(mine.contains("version 1 plays"), "{mine}");
    assert!(
        mine.contains("href=\"/bots/cand#version-2\">not playing: make it active or A/B test it"),
        "{mine}"
    );

    let page = c.get("/bots/cand").await.body;
    assert!(
        page.contains("Its rating starts over with wider uncertainty"),
        "said at the button"
    );
    let files = page.split("<td class=\"files\">").nth(1).unwrap();
    let files = files.split("</td>").next().unwrap();
    assert!(
        !files.contains("A/B test"),
        "the A/B test's form is not in the Files column: {files}"
    );
    assert!(page.contains("<tr class=\"choose\">") && page.contains("Start the A/B test"));
    assert!(page.contains("What do μ and σ mean?") && page.contains("19 times in 20"));
    assert!(!page.contains("started-over"), "no version was chosen yet");

    // Forty ranked games of version 1, then version 2 is chosen.
    sqlx::query("update bots set games = 40, version_games = 40, sigma = 1.2 where name = 'cand'")
        .execute(&c.state.db)
        .await
        .unwrap();
    let r = c.post("/bots/cand/versions/2/activate", &[]).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let page = c.get("/bots/cand").await.body;
    assert!(
        page.contains("Version 2 has not played a ranked game since it was chosen: its rating started over with wider uncertainty"),
        "{page}"
    );
    // The same in the part the page fetches again to stay up to date.
    let record = c.get("/bots/cand/record").await.body;
    assert!(record.contains("started-over"));
    // Once a few dozen games have narrowed it, the page stops saying so.
    sqlx::query("update bots set games = 80, version_games = 40 where name = 'cand'")
        .execute(&c.state.db)
        .await
        .unwrap();
    assert!(!c.get("/bots/cand").await.body.contains("started-over"));
    let home = c.get("/").await.body;
    assert!(home.contains("version 2 plays") && !home.contains("not playing"));
}
