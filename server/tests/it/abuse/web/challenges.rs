//! Challenges hammered: a burst of requests at once gets no more than the owner's
//! allowance, oversized and malformed requests are refused before any work, and what a
//! hostile name says comes back escaped.

use serde_json::json;

use crate::challenges::{api_json, site};

#[tokio::test]
async fn a_burst_of_challenges_gets_the_allowance_and_no_more() {
    let (c, _b, token) = site("abuse", crate::common::test_config()).await;
    // 20 at once, from one owner: the default allows 2 playing at once.
    let mut tasks = Vec::new();
    for _ in 0..20 {
        let mut c = c.stranger();
        let token = token.clone();
        tasks.push(tokio::spawn(async move {
            let body = json!({"bot": "mine", "opponents": {"near": 1}, "games": 1});
            api_json(&mut c, "/api/challenges", &token, &body)
                .await
                .status
                .as_u16()
        }));
    }
    let mut statuses = Vec::new();
    for t in tasks {
        statuses.push(t.await.unwrap());
    }
    statuses.sort();
    assert_eq!(
        statuses.iter().filter(|s| **s == 201).count(),
        2,
        "{statuses:?}"
    );
    assert!(
        statuses.iter().all(|s| *s == 201 || *s == 429),
        "{statuses:?}"
    );
    let queued: i64 =
        sqlx::query_scalar("select count(*) from matches where challenge_id is not null")
            .fetch_one(&c.state.db)
            .await
            .unwrap();
    assert_eq!(queued, 2);

    malformed_requests_are_refused(&c, &token).await;
}

/// Oversized and malformed requests, and hostile names, refused with their reason.
async fn malformed_requests_are_refused(c: &crate::common::Client, token: &str) {
    let mut c = c.stranger();
    // Oversized: refused before it is read.
    let names: Vec<String> = (0..20_000).map(|i| format!("bot{i}")).collect();
    let r = api_json(
        &mut c,
        "/api/challenges",
        token,
        &json!({"bot": "mine", "opponents": names, "games": 1}),
    )
    .await;
    assert_eq!(r.status, 413, "{}", r.body);
    // Too many names, within the size limit.
    let names: Vec<String> = (0..500).map(|i| format!("b{i}")).collect();
    let r = api_json(
        &mut c,
        "/api/challenges",
        token,
        &json!({"bot": "mine", "opponents": names, "games": 1}),
    )
    .await;
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.json()["error"]
        .as_str()
        .unwrap()
        .contains("1 to 15 opponents"));
    // Seats asked for by count: a huge count, or counts that add up past the cap, are
    // refused before a name is repeated; copies of one bot that cannot all sit in one
    // game are refused with the game's limit, and more players than it has with its
    // range.
    for opponents in [
        json!(["18446744073709551616 × strong"]),
        json!(["15 × strong", "1 × idle"]),
        json!(vec!["15 × strong"; 400]),
        json!(["0 × strong"]),
    ] {
        let r = api_json(
            &mut c,
            "/api/challenges",
            token,
            &json!({"bot": "mine", "opponents": opponents, "games": 1}),
        )
        .await;
        assert_eq!(r.status, 400, "{opponents}: {}", r.body);
        assert!(r.body.contains("1 to 15 opponents"), "{}", r.body);
    }
    let r = api_json(
        &mut c,
        "/api/challenges",
        token,
        &json!({"bot": "mine", "opponents": ["15 × strong"], "games": 1, "players": 9}),
    )
    .await;
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(
        r.body.contains("at most 8 players: with a bot in several seats, name at most 7 opponents in all, not 15"),
        "{}",
        r.body
    );
    let r = api_json(
        &mut c,
        "/api/challenges",
        token,
        &json!({"bot": "mine", "opponents": ["strong"], "games": 1, "players": 9}),
    )
    .await;
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.body.contains("2 to 2 players"), "{}", r.body);
    // Numbers out of range are refused with the range; of the wrong kind, by the parser.
    for (games, status) in [
        (json!(-1), 400),
        (json!(4_294_967_296u64), 400),
        (json!(i64::MIN), 400),
        (json!(u64::MAX), 422),
        (json!("many"), 422),
        (json!(2.5), 422),
    ] {
        let r = api_json(
            &mut c,
            "/api/challenges",
            token,
            &json!({"bot": "mine", "opponents": ["idle"], "games": games}),
        )
        .await;
        assert_eq!(r.status, status, "games {games}: {}", r.body);
        if status == 400 {
            assert!(r.body.contains("1 to 20 games"), "{}", r.body);
        }
    }
    // A hostile name is named back, as text.
    let r = api_json(
        &mut c,
        "/api/challenges",
        token,
        &json!({"bot": "mine", "opponents": ["<script>x</script>"], "games": 1}),
    )
    .await;
    assert_eq!(r.status, 400);
    let mut browser = c.stranger();
    browser.login("alice", crate::builds::PW).await;
    let r = browser
        .post(
            "/challenges",
            &[
                ("bot", "mine"),
                ("mode", "named"),
                ("names", "<script>x</script>"),
                ("games", "1"),
            ],
        )
        .await;
    assert_eq!(r.status, 400);
    assert!(!r.body.contains("<script>x"), "unescaped: {}", r.body);
    // Addresses that name nothing.
    assert_eq!(c.get("/api/challenges/99999999").await.status, 404);
    assert_eq!(c.get("/api/abtests/-1").await.status, 404);
    assert_eq!(c.get("/challenges/x").await.status, 400);
    // A whole game's stderr by a seat that is not one: nothing read, nothing said.
    for seat in [
        "..%2F..%2Fetc.txt",
        "99999999999999.txt",
        "-1.txt",
        "1.txt.txt",
        "%00.txt",
    ] {
        let r = browser.get(&format!("/matches/1/stderr/{seat}")).await;
        assert!(r.status == 404 || r.status == 400, "{seat}: {}", r.body);
    }
}

/// Games added to an A/B test: only by its owner, with the form's token, in range, and
/// never past [`server::challenges::MAX_AB_TOTAL`] for one test.
#[tokio::test]
async fn more_games_of_an_ab_test_are_bounded_and_only_its_owners() {
    let settings = server::config::Settings {
        pending_builds: Some(100),
        challenge_games_per_hour: Some(10_000),
        ..Default::default()
    };
    let config = server::config::Config::load(settings, None).unwrap();
    let (mut c, b, token) = site("more", config).await;
    c.upload(
        "/bots/mine/versions",
        &[("candidate", "on")],
        Some(("bot.py", crate::builds::greedy())),
    )
    .await;
    while b.build_next().await.unwrap() {}
    let ab = json!({"bot": "mine", "candidate": 2, "games": 100});
    let r = api_json(&mut c, "/api/abtests", &token, &ab).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.json()["id"].as_i64().unwrap();
    let more = format!("/abtests/{id}/more");
    // Without the form's token, nothing is added.
    let r = c.post_raw(&more, &[("games", "10")]).await;
    assert_eq!(r.status, 403);
    for games in [
        "0",
        "3",
        "102",
        "-9223372036854775808",
        "99999999999999999999",
        "many",
    ] {
        let r = c.post(&more, &[("games", games)]).await;
        assert!(
            r.status == 400 || r.status == 422,
            "{games}: {} {}",
            r.status,
            r.body
        );
    }
    for _ in 0..3 {
        let r = c.post(&more, &[("games", "100")]).await;
        assert_eq!(r.status, 303, "{}", r.body);
    }
    let r = c.post(&more, &[("games", "2")]).await;
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.body.contains("at most 400 games"), "{}", r.body);
    let queued: i64 = sqlx::query_scalar("select count(*) from matches where challenge_id = $1")
        .bind(id)
        .fetch_one(&c.state.db)
        .await
        .unwrap();
    assert_eq!(queued, 400);
    // Not a test, or not one at all.
    let challenge = json!({"bot": "mine", "opponents": ["idle"], "games": 1});
    let r = api_json(&mut c, "/api/challenges", &token, &challenge).await;
    let other = r.json()["id"].as_i64().unwrap();
    for id in [other.to_string(), "99999999".into(), "-1".into()] {
        let r = c
            .post(&format!("/abtests/{id}/more"), &[("games", "2")])
            .await;
        assert_eq!(r.status, 400, "{id}: {}", r.body);
        assert!(r.body.contains("There is no A/B test"), "{}", r.body);
    }
    assert_eq!(
        c.post("/abtests/x/more", &[("games", "2")]).await.status,
        400
    );
}

/// After the deadline what plays is fixed: a candidate uploaded before it can be
/// neither made active nor A/B tested, on the page or through the API, while the
/// active version plays on.
#[tokio::test]
async fn after_the_deadline_a_pre_uploaded_candidate_cannot_be_chosen() {
    let (mut c, b, token) = site("deadline", crate::common::test_config()).await;
    c.upload(
        "/bots/mine/versions",
        &[("candidate", "on")],
        Some(("bot.py", crate::builds::greedy())),
    )
    .await;
    while b.build_next().await.unwrap() {}
    assert_eq!(crate::builds::status(&c, "mine", 2).await.0, "ready");
    // Closed by the database's clock a minute ago.
    sqlx::query("update ranker set deadline = now() - interval '1 minute'")
        .execute(&c.state.db)
        .await
        .unwrap();
    let ab = json!({"bot": "mine", "candidate": 2, "games": 10});
    let r = api_json(&mut c, "/api/abtests", &token, &ab).await;
    assert_eq!(r.status, 403, "{}", r.body);
    assert!(r.body.contains("what plays is fixed"), "{}", r.body);
    let r = api_json(
        &mut c,
        "/api/bots/mine/versions/2/activate",
        &token,
        &json!({}),
    )
    .await;
    assert_eq!(r.status, 403, "{}", r.body);
    let r = c.post("/bots/mine/versions/2/activate", &[]).await;
    assert_eq!(r.status, 403, "{}", r.body);
    assert_eq!(crate::builds::active(&c, "mine").await, Some(1));
    // Making the active version active again is no change, and is not refused.
    let r = c.post("/bots/mine/versions/1/activate", &[]).await;
    assert_eq!(r.status, 303, "{}", r.body);
}

/// Challenge games count against their owner by the workers' time they take, not only
/// by their number: a few slow games (a challenge between one's own sleeping bots,
/// say) use up the hour's allowance as many quick ones would. Past it new requests are
/// refused and the owner's queued games wait, while the workers play everyone else's.
#[tokio::test]
async fn slow_challenge_games_count_against_their_owner_by_time() {
    let (mut c, b, token) = site("by-time", crate::common::test_config()).await;
    let body = json!({"bot": "mine", "opponents": {"near": 1}, "games": 10});
    let r = api_json(&mut c, "/api/challenges", &token, &body).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.json()["id"].as_i64().unwrap();
    // Eight of its ten games played in the last hour, 4.5 minutes each: 36 minutes of
    // the workers' time, past the default 30, in 10 of the 100 games allowed an hour.
    sqlx::query(
        "update matches set status = 'finished', started_at = now() - interval '40 minutes', \
             finished_at = now() - interval '35 minutes 30 seconds', replay = '\\x00' \
         where id in (select id from matches where challenge_id = $1 order by id limit 8)",
    )
    .bind(id)
    .execute(&c.state.db)
    .await
    .unwrap();
    let alice: i64 = sqlx::query_scalar("select id from users where name = 'alice'")
        .fetch_one(&c.state.db)
        .await
        .unwrap();
    let played = server::challenges::seconds_played(
        &mut c.state.db.acquire().await.unwrap(),
        server::ids::UserId(alice),
    )
    .await
    .unwrap();
    assert!((played - 36.0 * 60.0).abs() < 1.0, "{played}");
    let again = json!({"bot": "mine", "opponents": {"near": 1}, "games": 1});
    let r = api_json(&mut c, "/api/challenges", &token, &again).await;
    assert_eq!(r.status, 429, "{}", r.body);
    let error = r.json()["error"].as_str().unwrap().to_string();
    assert!(
        error.contains("took 36 minutes") && error.contains("the most is 30"),
        "{error}"
    );
    // Its two games still queued wait...
    let w = crate::common::worker(&b, "by-time", 50);
    assert!(w.claim().await.unwrap().is_none(), "the owner's games wait");
    // ... until the slow games are more than an hour old.
    sqlx::query(
        "update matches set started_at = started_at - interval '1 hour', \
             finished_at = finished_at - interval '1 hour' \
         where challenge_id = $1 and status = 'finished'",
    )
    .bind(id)
    .execute(&c.state.db)
    .await
    .unwrap();
    let m = w.claim().await.unwrap().expect("a game of the challenge");
    assert!(!m.ranked);
    let r = api_json(&mut c, "/api/challenges", &token, &again).await;
    assert_eq!(r.status, 201, "{}", r.body);
}
