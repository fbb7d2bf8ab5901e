//! The submission deadline: the countdown every page shows before it, uploads refused
//! after it, and the ladder frozen or not as the organizer chose.

use server::builds::Builder;

use crate::builds::{greedy, PW};
use crate::common::{self, Client};

use super::site;

#[tokio::test]
async fn after_the_deadline_uploads_are_refused_and_a_frozen_ladder_plays_only_tournaments() {
    let (mut c, b, token) = site("deadline").await;
    before_it(&mut c).await;
    after_it(&mut c, &b, &token).await;
    frozen(&mut c, &b, &token).await;
    removed(&mut c).await;
}

/// Before: a countdown on every page, uploads taken; a deadline that is not a date is
/// refused with the forms it takes.
async fn before_it(c: &mut Client) {
    let r = c
        .post(
            "/admin/contest",
            &[("action", "set"), ("deadline", "2099-12-01 18:00")],
        )
        .await;
    assert_eq!(r.status, 303);
    let home = c.stranger().get("/").await.body;
    assert!(home.contains("Submissions close in"), "{home}");
    assert!(
        home.contains("data-countdown=\"2099-12-01T18:00:00Z\""),
        "{home}"
    );
    let up = c
        .upload(
            "/bots/new",
            &[("name", "early")],
            Some(("bot.py", greedy())),
        )
        .await;
    assert_eq!(up.status, 303, "{}", up.body);
    let r = c
        .post(
            "/admin/contest",
            &[("action", "set"), ("deadline", "friday"), ("freeze", "on")],
        )
        .await;
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.body.contains("2026-12-01 18:00"), "{}", r.body);
    // As typed, the field marked, the box still ticked.
    assert!(
        r.body
            .contains("value=\"friday\" placeholder=\"2026-12-01 18:00\"")
            && r.body.contains("aria-describedby=\"contest-error\""),
        "{}",
        r.body
    );
    assert!(r.body.contains("name=\"freeze\" value=\"on\" checked"));
    assert_eq!(
        c.get("/api/contest").await.json()["deadline"],
        "2099-12-01T18:00:00Z"
    );
}

/// A deadline already past closes the contest at once: the form says so and saves it
/// only once the organizer ticks the box; sent without it, nothing changes.
async fn a_past_deadline_asks_first(c: &mut Client) {
    let past = [
        ("action", "set"),
        ("deadline", "2020-01-01 00:00"),
        ("freeze", "on"),
    ];
    let r = c.post("/admin/contest", &past).await;
    assert_eq!(r.status, 409, "{}", r.body);
    for said in [
        "Not saved yet: this takes effect at once.",
        "The deadline 2020-01-01 00:00 UTC is already past: saving it closes submissions at once",
        "the ladder freezes now",
        "name=\"confirm\"",
        "value=\"2020-01-01 00:00\"",
    ] {
        assert!(r.body.contains(said), "{said}: {}", r.body);
    }
    let api = c.get("/api/contest").await.json();
    assert_eq!(api["closed"], false, "{api}");
    assert_eq!(api["deadline"], "2099-12-01T18:00:00Z", "{api}");
    let confirmed = [past.as_slice(), &[("confirm", "yes")]].concat();
    let r = c.post("/admin/contest", &confirmed).await;
    assert_eq!(r.status, 303, "{}", r.body);
}

/// After, with the ladder frozen: uploads refused on the site and the API, the forms
/// gone, the versions uploaded before built.
async fn after_it(c: &mut Client, b: &Builder, token: &str) {
    a_past_deadline_asks_first(c).await;
    let api = c.get("/api/contest").await.json();
    assert_eq!(
        (api["closed"].as_bool(), api["frozen"].as_bool()),
        (Some(true), Some(true)),
        "{api}"
    );
    let late = c
        .upload("/bots/new", &[("name", "late")], Some(("bot.py", greedy())))
        .await;
    assert_eq!(late.status, 403, "{}", late.body);
    assert!(
        late.body
            .contains("Submissions closed at 2020-01-01 00:00 UTC"),
        "{}",
        late.body
    );
    let by_api = c
        .api_upload(
            "/api/bots/early/versions",
            token,
            &[],
            Some(("bot.py", greedy())),
        )
        .await;
    assert_eq!(by_api.status, 403, "{}", by_api.body);
    assert!(c
        .get("/bots/new")
        .await
        .body
        .contains("Submissions are closed"));
    assert!(c
        .stranger()
        .get("/")
        .await
        .body
        .contains("The ladder is frozen"));
    // Versions uploaded before still build and stay.
    while b.build_next().await.unwrap() {}
    let early: i64 = sqlx::query_scalar("select count(*) from bot_versions v join bots b on b.id = v.bot_id where b.name = 'early' and v.status = 'active'")
        .fetch_one(&c.state.db)
        .await
        .unwrap();
    assert_eq!(early, 1);
}

/// Frozen: nothing is scheduled and queued ranked matches wait; tournaments play.
async fn frozen(c: &mut Client, b: &Builder, token: &str) {
    sqlx::query("update ranker set freeze_at_deadline = false")
        .execute(&c.state.db)
        .await
        .unwrap();
    assert!(
        server::ranker::schedule(&c.state.db, 3, &Default::default())
            .await
            .unwrap()
            > 0
    );
    sqlx::query("update ranker set freeze_at_deadline = true")
        .execute(&c.state.db)
        .await
        .unwrap();
    assert_eq!(
        server::ranker::schedule(&c.state.db, 10, &Default::default())
            .await
            .unwrap(),
        0
    );
    let w = common::worker(b, "frozen", 40);
    assert!(
        w.claim().await.unwrap().is_none(),
        "a ranked match was played while frozen"
    );
    let ask = serde_json::json!({"name": "Final", "participants": ["idle", "strong"],
                                 "format": "round-robin", "maps": ["ring-2p"]});
    let r = crate::challenges::api_json(c, "/api/tournaments", token, &ask).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let m = w.claim().await.unwrap().expect("the tournament's game");
    assert!(m.tournament.is_some());
}

/// Removed: submissions open again, and the banner is gone.
async fn removed(c: &mut Client) {
    c.post("/admin/contest", &[("action", "remove")]).await;
    let home = c.stranger().get("/").await.body;
    assert!(!home.contains("contest-banner"), "{home}");
    let mut bob = c.stranger();
    bob.register("bob", PW).await;
    let up = bob
        .upload("/bots/new", &[("name", "bobs")], Some(("bot.py", greedy())))
        .await;
    assert_eq!(up.status, 303, "{}", up.body);
}
