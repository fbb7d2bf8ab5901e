//! Tournaments and live streams hammered: a burst of tournaments at once gets the cap
//! on running ones and no more, oversized and hostile requests are refused or escaped,
//! and a live stream of a match that does not exist is refused before it opens.

use serde_json::json;

use crate::challenges::api_json;
use crate::tournaments::site;

#[tokio::test]
async fn a_burst_of_tournaments_gets_the_cap_and_hostile_requests_are_refused() {
    let (c, _b, token) = site("abuse").await;
    // 12 at once, from one organizer: 4 may run at once.
    let mut tasks = Vec::new();
    for _ in 0..12 {
        let mut c = c.stranger();
        let token = token.clone();
        tasks.push(tokio::spawn(async move {
            let body = json!({"name": "Burst", "participants": ["idle", "strong"],
                              "format": "round-robin", "maps": ["ring-2p"]});
            api_json(&mut c, "/api/tournaments", &token, &body)
                .await
                .status
                .as_u16()
        }));
    }
    let mut statuses = Vec::new();
    for t in tasks {
        statuses.push(t.await.unwrap());
    }
    assert_eq!(
        statuses.iter().filter(|s| **s == 201).count(),
        4,
        "{statuses:?}"
    );
    assert!(
        statuses.iter().all(|s| *s == 201 || *s == 429),
        "{statuses:?}"
    );
    let made: i64 = sqlx::query_scalar("select count(*) from tournaments")
        .fetch_one(&c.state.db)
        .await
        .unwrap();
    assert_eq!(made, 4);

    let mut c = c.stranger();
    // Oversized: refused before it is read.
    let names: Vec<String> = (0..20_000).map(|i| format!("bot{i}")).collect();
    let big = json!({"name": "Big", "participants": names, "format": "round-robin"});
    assert_eq!(
        api_json(&mut c, "/api/tournaments", &token, &big)
            .await
            .status,
        413
    );
    // A hostile name is stored as text and shown escaped.
    sqlx::query("update tournaments set name = '<script>alert(1)</script>' where id = 1")
        .execute(&c.state.db)
        .await
        .unwrap();
    let page = c.get("/tournaments/1").await.body;
    assert!(!page.contains("<script>alert"), "{page}");
    assert!(page.contains("<h1>&#60;script&#62;alert(1)"), "{page}");
    // Pairs and exports of what is not there.
    assert_eq!(
        c.get("/tournaments/1/games?a=idle&b=%3Cnobody%3E")
            .await
            .status,
        400
    );
    assert_eq!(c.get("/tournaments/x").await.status, 400);
    assert_eq!(c.get("/tournaments/999/standings.csv").await.status, 404);
    // A live stream of no match is refused at once, not held open.
    assert_eq!(c.get("/matches/999999/turns").await.status, 404);
    a_contestant_cannot_cancel(&c).await;
}

async fn a_contestant_cannot_cancel(c: &crate::common::Client) {
    let mut bob = c.stranger();
    bob.register("bob", crate::builds::PW).await;
    let bob_token = bob.new_token("b").await;
    let r = api_json(
        &mut bob,
        "/api/tournaments/1/cancel",
        &bob_token,
        &json!({}),
    )
    .await;
    assert_eq!(r.status, 403);
    assert_eq!(
        bob.post("/admin/tournaments/1/cancel", &[]).await.status,
        403
    );
}

/// An account whose bot played a tournament is deleted: the tournament's pages, its
/// exports and the live page still answer, with the bot under an anonymous name, and
/// every past game keeps all its seats.
#[tokio::test]
async fn deleting_an_account_keeps_the_tournaments_its_bots_played() {
    let (mut c, b, token) = site("deleted-account").await;
    let db = c.state.db.clone();
    let mut bob = bob_owns(&c, &["greedy"]).await;
    let ask = json!({"name": "Cup", "participants": ["idle", "greedy", "strong"],
                     "format": "round-robin", "maps": ["ring-2p"]});
    let r = api_json(&mut c, "/api/tournaments", &token, &ask).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let w = crate::common::worker(&b, "cup", 40);
    for _ in 0..6 {
        let m = w.claim().await.unwrap().expect("a game of the tournament");
        let result = w.play(&m).await.unwrap().unwrap();
        assert!(w.record(&m, &result).await.unwrap());
        server::tournaments::advance(&db, m.tournament.unwrap())
            .await
            .unwrap();
    }
    let seats = "select count(*) from match_players";
    let before: i64 = sqlx::query_scalar(seats).fetch_one(&db).await.unwrap();

    let gone = bob
        .post(
            "/profile/delete",
            &[("password", crate::builds::PW), ("confirm", "yes")],
        )
        .await;
    assert_eq!(gone.status, 303, "{}", gone.body);
    let after: i64 = sqlx::query_scalar(seats).fetch_one(&db).await.unwrap();
    assert_eq!(after, before, "every past game keeps its seats");
    let mut v = c.stranger();
    for path in [
        "/tournaments/1",
        "/tournaments/1/standings.csv",
        "/live",
        "/api/live",
        "/leaderboard",
    ] {
        let r = v.get(path).await;
        assert_eq!(r.status, 200, "{path}: {}", r.body);
    }
    // A name a spreadsheet would run as a formula opens as text.
    sqlx::query("update bots set name = '-1-1' where name = 'idle'")
        .execute(&db)
        .await
        .unwrap();
    let (_, csv) = v.get_bytes("/tournaments/1/standings.csv").await;
    let csv = String::from_utf8(csv).unwrap();
    assert!(csv.contains(",\"'-1-1\","), "{csv}");
    let t = v.get("/api/tournaments/1").await.json();
    // A finished tournament's standings are fitted once and stored with it.
    let stored: bool =
        sqlx::query_scalar("select standings is not null from tournaments where id = 1")
            .fetch_one(&db)
            .await
            .unwrap();
    assert!(stored, "the standings of a finished tournament are kept");
    assert_eq!(t["standings"].as_array().unwrap().len(), 3, "{t}");
    assert_eq!(t["done"], 6);
    let names: Vec<&str> = t["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["bot"].as_str().unwrap())
        .collect();
    assert!(names.iter().any(|n| n.starts_with("deleted~")), "{names:?}");
    assert!(!names.contains(&"greedy"), "{names:?}");
    // The name is free again, and the old account cannot log in.
    assert_eq!(v.login("bob", crate::builds::PW).await.status, 401);
    assert!(v
        .register("bob", crate::builds::PW)
        .await
        .status
        .is_redirection());
    let disabled: bool =
        sqlx::query_scalar("select disabled from bots where name like 'deleted~%'")
            .fetch_one(&db)
            .await
            .unwrap();
    assert!(disabled, "a deleted account's bot leaves the ladder");
}

/// One owner's bots: "all" and the top K take its best one only; named, they never
/// meet in a round robin, and groups refuse them.
#[tokio::test]
async fn one_owners_bots_get_one_place_unless_named_and_never_meet() {
    let (mut c, _b, token) = site("kin").await;
    let db = c.state.db.clone();
    bob_owns(&c, &["greedy", "random"]).await;
    let all =
        json!({"name": "All", "participants": "all", "format": "round-robin", "maps": ["ring-2p"]});
    let r = api_json(&mut c, "/api/tournaments", &token, &all).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let t = c
        .get(&format!("/api/tournaments/{}", r.json()["id"]))
        .await
        .json();
    let names: Vec<&str> = t["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["bot"].as_str().unwrap())
        .collect();
    assert_eq!(
        names
            .iter()
            .filter(|n| ["greedy", "random"].contains(n))
            .count(),
        1,
        "{names:?}"
    );
    let named = json!({"name": "Named", "participants": ["greedy", "random", "idle"],
                       "format": "round-robin", "maps": ["ring-2p"]});
    let r = api_json(&mut c, "/api/tournaments", &token, &named).await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(
        r.json()["queued"],
        4,
        "6 ordered pairs less bob's two: {}",
        r.body
    );
    let id = r.json()["id"].as_i64().unwrap();
    let kin: i64 = sqlx::query_scalar(
        "select count(*) from matches m where m.tournament_id = $1 and (
             select count(*) from match_players p join bots b on b.id = p.bot_id
             where p.match_id = m.id and b.name in ('greedy', 'random')) = 2",
    )
    .bind(id)
    .fetch_one(&db)
    .await
    .unwrap();
    assert_eq!(kin, 0, "bob's bots never meet");
    let groups = json!({"name": "Groups", "participants": ["greedy", "random", "idle", "strong"],
                        "format": "groups", "players_per_game": 2, "maps": ["ring-2p"]});
    let r = api_json(&mut c, "/api/tournaments", &token, &groups).await;
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(r.body.contains("one owner"), "{}", r.body);
}

/// A contestant, bob, made the owner of the house bots `bots`.
async fn bob_owns(c: &crate::common::Client, bots: &[&str]) -> crate::common::Client {
    let mut bob = c.stranger();
    bob.register("bob", crate::builds::PW).await;
    sqlx::query(
        "update bots set owner_id = (select id from users where name = 'bob') where name = any($1)",
    )
    .bind(bots)
    .execute(&c.state.db)
    .await
    .unwrap();
    bob
}

/// A contestant deletes the account while a Swiss tournament runs: the bot is withdrawn,
/// with a note in the standings; later rounds pair the others only, so it plays no game
/// made after the deletion (it played six, from the build cache, in the issue), and its
/// build leaves the cache.
#[tokio::test]
async fn a_deleted_accounts_bot_is_withdrawn_from_a_running_tournament() {
    let (mut c, b, token) = site("withdrawn").await;
    let db = c.state.db.clone();
    let mut bob = bob_owns(&c, &["greedy"]).await;
    let ask = json!({"name": "Swiss", "participants": ["idle", "greedy", "strong", "random"],
                     "format": "swiss", "rounds": 3, "maps": ["ring-2p"]});
    let r = api_json(&mut c, "/api/tournaments", &token, &ask).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.json()["id"].as_i64().unwrap();
    let version: i64 =
        sqlx::query_scalar("select active_version_id from bots where name = 'greedy'")
            .fetch_one(&db)
            .await
            .unwrap();
    let version = server::ids::VersionId(version);
    // Round 0: two pairs, each on the map both ways.
    let w = crate::common::worker(&b, "swiss", 40);
    for _ in 0..4 {
        let m = w.claim().await.unwrap().expect("a game of round 0");
        assert_eq!(m.tournament.map(|t| t.0), Some(id));
        let result = w.play(&m).await.unwrap().unwrap();
        assert!(w.record(&m, &result).await.unwrap());
        server::tournaments::advance(&db, m.tournament.unwrap())
            .await
            .unwrap();
    }
    assert!(b.cache.cached(version).is_some(), "greedy's build is kept");
    let gone = bob
        .post(
            "/profile/delete",
            &[("password", crate::builds::PW), ("confirm", "yes")],
        )
        .await;
    assert_eq!(gone.status, 303, "{}", gone.body);
    let deleted_at: time::OffsetDateTime =
        sqlx::query_scalar("select deleted_at from users where name like 'deleted~%'")
            .fetch_one(&db)
            .await
            .unwrap();
    // The rest of the tournament, as the workers would play it.
    for _ in 0..40 {
        if !w.run_one().await.unwrap() {
            server::tournaments::advance_all(&db).await.unwrap();
            let open: i64 = sqlx::query_scalar(
                "select count(*) from matches where status = 'queued' and tournament_id = $1",
            )
            .bind(id)
            .fetch_one(&db)
            .await
            .unwrap();
            if open == 0 {
                break;
            }
        }
    }
    let status: String = sqlx::query_scalar("select status from tournaments where id = $1")
        .bind(id)
        .fetch_one(&db)
        .await
        .unwrap();
    assert_eq!(status, "finished");
    let (made_after, played_after): (i64, i64) = sqlx::query_as(
        "select count(*), count(*) filter (where m.status = 'finished')
         from matches m join match_players p on p.match_id = m.id
         join bots b on b.id = p.bot_id
         where b.name like 'deleted~%' and m.created_at > $1",
    )
    .bind(deleted_at)
    .fetch_one(&db)
    .await
    .unwrap();
    assert_eq!(
        (made_after, played_after),
        (0, 0),
        "games made for the deleted bot after the deletion, and played"
    );
    let later: i64 = sqlx::query_scalar(
        "select count(*) from matches where tournament_id = $1 and round > 1 and status = 'finished'",
    )
    .bind(id)
    .fetch_one(&db)
    .await
    .unwrap();
    assert!(later > 0, "later rounds paired the three others");
    // The standings say so, on the page and in the API.
    let mut v = c.stranger();
    let t = v.get(&format!("/api/tournaments/{id}")).await.json();
    let rows = t["standings"].as_array().unwrap();
    let out: Vec<&serde_json::Value> = rows.iter().filter(|r| !r["withdrawn"].is_null()).collect();
    assert_eq!(out.len(), 1, "{t}");
    assert!(out[0]["bot"].as_str().unwrap().starts_with("deleted~"));
    assert_eq!(out[0]["withdrawn"], server::tournaments::WITHDRAWN_DELETED);
    let page = v.get(&format!("/tournaments/{id}")).await.body;
    assert!(
        page.contains("withdrawn: its owner deleted the account"),
        "{page}"
    );
    // The builds of bots out of the ladder leave the cache.
    b.upkeep().await;
    assert!(
        b.cache.cached(version).is_none(),
        "the deleted bot's build is gone"
    );
}
