//! Uploads hammered: concurrent versions of one bot, more builds queued than a
//! contestant's share, archives of thousands of folders.

use axum::http::StatusCode;

use super::PW;
use crate::common::{self, Client};

#[tokio::test]
async fn concurrent_uploads_of_one_bot_get_one_version_number_each() {
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    let token = c.new_token("laptop").await;
    let r = c
        .api_upload(
            "/api/bots",
            &token,
            &[("name", "racer")],
            Some(("bot.py", b"print()")),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED);
    let all = (0..6).map(|_| {
        let mut v = c.stranger();
        let token = token.clone();
        tokio::spawn(async move {
            v.api_upload(
                "/api/bots/racer/versions",
                &token,
                &[],
                Some(("bot.py", b"print()")),
            )
            .await
        })
    });
    for r in all {
        let r = r.await.unwrap();
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    }
    let numbers: Vec<i32> = sqlx::query_scalar("select number from bot_versions order by number")
        .fetch_all(&c.state.db)
        .await
        .unwrap();
    assert_eq!(numbers, (1..=7).collect::<Vec<_>>());
}

#[tokio::test]
async fn one_contestant_cannot_queue_more_than_three_builds_and_builds_take_turns() {
    let config = server::config::Config::load(Default::default(), None).unwrap();
    assert_eq!(config.pending_builds, 3, "the default");
    let mut alice = Client::with_config(config).await;
    alice.register("alice", PW).await;
    let mut bob = alice.stranger();
    bob.register("bob", PW).await;
    for i in 0..3 {
        let r = alice
            .upload(
                "/bots/new",
                &[("name", &format!("a{i}"))],
                Some(("bot.py", b"print()")),
            )
            .await;
        assert_eq!(r.status, StatusCode::SEE_OTHER);
    }
    let r = alice
        .upload("/bots/new", &[("name", "a3")], Some(("bot.py", b"print()")))
        .await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(r.body.contains("waiting to be built"), "{}", r.body);
    let r = bob
        .upload("/bots/new", &[("name", "b0")], Some(("bot.py", b"print()")))
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "bob has his own share");
    // The builder takes them in turn by owner: bob's one comes second, not fourth.
    let b = common::builder(&alice.state.db, "abuse-turns");
    let mut order = Vec::new();
    while let Some(job) = b.claim().await.unwrap() {
        order.push(job.bot_name);
    }
    assert_eq!(order, ["a0", "b0", "a1", "a2"]);
}

#[tokio::test]
async fn an_archive_of_folders_counts_against_the_entry_cap() {
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    // 5,000 folders and one small bot, under a megabyte gzipped.
    let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    let mut t = tar::Builder::new(gz);
    for i in 0..5000 {
        let mut h = tar::Header::new_gnu();
        h.set_entry_type(tar::EntryType::Directory);
        h.set_size(0);
        h.set_mode(0o755);
        h.set_cksum();
        t.append_data(&mut h, format!("d/{i}/"), std::io::empty())
            .unwrap();
    }
    let mut h = tar::Header::new_gnu();
    h.set_size(7);
    h.set_mode(0o644);
    h.set_cksum();
    t.append_data(&mut h, "bot.py", &b"print()"[..]).unwrap();
    let bytes = t.into_inner().unwrap().finish().unwrap();
    assert!(bytes.len() < 1 << 20);
    let r = c
        .upload(
            "/bots/new",
            &[("name", "folders")],
            Some(("bot.tar.gz", &bytes)),
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert!(
        r.body.contains("more than 2000 files and folders"),
        "{}",
        r.body
    );
    let zip = common::zip_of(
        &(0..2500)
            .map(|i| (format!("d{i}/"), &b""[..]))
            .collect::<Vec<_>>()
            .iter()
            .map(|(n, b)| (n.as_str(), *b))
            .chain([("bot.py", &b"print()"[..])])
            .collect::<Vec<_>>(),
    );
    let r = c
        .upload("/bots/new", &[("name", "zipped")], Some(("bot.zip", &zip)))
        .await;
    assert!(
        r.body.contains("more than 2000 files and folders"),
        "{}",
        r.body
    );
    let bots: i64 = sqlx::query_scalar("select count(*) from bots")
        .fetch_one(&c.state.db)
        .await
        .unwrap();
    assert_eq!(bots, 0, "nothing stored");
}

/// An upload form proves it comes from this site with its first field: an upload with
/// no token, a wrong one, the token only in the address (as forms once sent it), or a
/// file before the token is refused before the file is read, and stores nothing. No
/// page puts the token in an address.
#[tokio::test]
async fn an_upload_without_its_token_first_is_refused() {
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    let csrf = c.csrf().await;
    let wrong = "0".repeat(64);
    let bot: &[u8] = b"print('0 commands:', flush=True)";
    // (what is wrong, where it is sent, its fields before the file)
    type Case<'a> = (&'a str, String, Vec<(&'a str, &'a str)>);
    let cases: Vec<Case> = vec![
        ("no token", "/bots/new".into(), vec![("name", "a")]),
        (
            "a wrong token",
            "/bots/new".into(),
            vec![("csrf", &wrong), ("name", "b")],
        ),
        (
            "the token in the address",
            format!("/bots/new?csrf={csrf}"),
            vec![("name", "c")],
        ),
        (
            "a field before the token",
            "/bots/new".into(),
            vec![("name", "d"), ("csrf", &csrf)],
        ),
    ];
    for (what, path, fields) in cases {
        let (ctype, body) = common::multipart(&fields, Some(("bot.py", bot)));
        let req = axum::http::Request::post(path)
            .header("content-type", ctype)
            .body(axum::body::Body::from(body))
            .unwrap();
        let r = c.send(req).await;
        assert_eq!(r.status, StatusCode::FORBIDDEN, "{what}: {}", r.body);
        assert!(r.body.contains("not sent from this site"), "{what}");
    }
    // The file before the token: refused too (the reader never takes a file first).
    let (ctype, body) = common::multipart(&[], Some(("bot.py", bot)));
    let req = axum::http::Request::post("/bots/new")
        .header("content-type", ctype)
        .body(axum::body::Body::from(body))
        .unwrap();
    assert_eq!(
        c.send(req).await.status,
        StatusCode::FORBIDDEN,
        "a file first"
    );
    let stored: i64 = sqlx::query_scalar("select count(*) from bots")
        .fetch_one(&c.state.db)
        .await
        .unwrap();
    assert_eq!(stored, 0, "nothing was stored");
    // The real form works, and no page carries the token in an address.
    let r = c
        .upload("/bots/new", &[("name", "fine")], Some(("bot.py", bot)))
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    for page in ["/bots/new", "/bots/fine", "/profile", "/admin"] {
        let body = c.get(page).await.body;
        assert!(
            !body.contains("csrf="),
            "{page} puts the token in an address"
        );
    }
}

/// Choosing the version a bot plays: never another's bot, never a version that did not
/// pass, never without the form's token, and not over and over (each change starts the
/// rating's uncertainty over).
#[tokio::test]
async fn the_version_a_bot_plays_is_chosen_by_its_owner_only_and_not_too_often() {
    let mut alice = Client::new().await;
    alice.register("alice", PW).await;
    for _ in 0..4 {
        alice
            .upload(
                "/bots/new",
                &[("name", "flip")],
                Some(("bot.py", b"print()")),
            )
            .await;
        alice
            .upload("/bots/flip/versions", &[], Some(("bot.py", b"print()")))
            .await;
    }
    // As builds would leave them: 1 retired, 2 active, 3 ready, 4 failed, 5 pending.
    for (n, status, failure) in [
        (1, "retired", None),
        (2, "active", None),
        (3, "ready", None),
        (4, "failed", Some("it did not build")),
    ] {
        sqlx::query(
            "update bot_versions set status = $2, failure = $3 \
             where number = $1 and bot_id = (select id from bots where name = 'flip')",
        )
        .bind(n)
        .bind(status)
        .bind(failure)
        .execute(&alice.state.db)
        .await
        .unwrap();
    }
    let mut mallory = alice.stranger();
    mallory.register("mallory", PW).await;
    let token = mallory.new_token("script").await;
    let r = crate::candidates::api_post(&mut mallory, "/api/bots/flip/versions/3/activate", &token)
        .await;
    assert_eq!(
        r.status,
        StatusCode::FORBIDDEN,
        "another's bot, with a token"
    );
    assert!(r.json()["error"].is_string(), "a JSON refusal");
    let r = mallory.post("/bots/flip/versions/3/activate", &[]).await;
    assert_eq!(
        r.status,
        StatusCode::FORBIDDEN,
        "another's bot, with the page"
    );
    let r = alice.post_raw("/bots/flip/versions/3/activate", &[]).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "without the form's token");
    for (n, why) in [(4, "is failed"), (5, "is pending")] {
        let r = alice
            .post(&format!("/bots/flip/versions/{n}/activate"), &[])
            .await;
        assert_eq!(r.status, StatusCode::CONFLICT, "version {n}");
        assert!(r.body.contains(why), "version {n}: {}", r.body);
    }
    let db = alice.state.db.clone();
    let active = || async {
        sqlx::query_scalar::<_, i32>(
            "select v.number from bots b join bot_versions v on v.id = b.active_version_id",
        )
        .fetch_one(&db)
        .await
        .unwrap()
    };
    let r = alice.post("/bots/flip/versions/3/activate", &[]).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    assert_eq!(active().await, 3);
    for n in [1, 2, 1, 2] {
        let r = alice
            .post(&format!("/bots/flip/versions/{n}/activate"), &[])
            .await;
        assert_eq!(r.status, StatusCode::CONFLICT, "flipping to {n}");
    }
    assert_eq!(active().await, 3, "one change a minute");
}

/// Copies of one bot would crowd the ladder and a tournament's top K: an account has
/// at most `bots_per_account` bots (5 by default), at once too.
#[tokio::test]
async fn an_account_cannot_have_more_bots_than_the_cap_even_at_once() {
    let config = server::config::Config::load(Default::default(), None).unwrap();
    assert_eq!(config.bots_per_account, 5, "the default");
    let settings = server::config::Settings {
        pending_builds: Some(100),
        ..Default::default()
    };
    let mut c = Client::with_config(server::config::Config::load(settings, None).unwrap()).await;
    c.register("alice", PW).await;
    let token = c.new_token("laptop").await;
    let all: Vec<_> = (0..8)
        .map(|i| {
            let mut v = c.stranger();
            let token = token.clone();
            tokio::spawn(async move {
                let name = format!("copy{i}");
                v.api_upload(
                    "/api/bots",
                    &token,
                    &[("name", &name)],
                    Some(("bot.py", b"print()")),
                )
                .await
            })
        })
        .collect();
    let mut refused = Vec::new();
    for r in all {
        let r = r.await.unwrap();
        if r.status != StatusCode::CREATED {
            refused.push((r.status, r.body));
        }
    }
    assert_eq!(refused.len(), 3, "{refused:?}");
    assert!(
        refused[0].1.contains("the most one account may have"),
        "{refused:?}"
    );
    let bots: i64 = sqlx::query_scalar("select count(*) from bots")
        .fetch_one(&c.state.db)
        .await
        .unwrap();
    assert_eq!(bots, 5);
}

/// A closed game's bots take no new versions and no challenges (its games would only
/// wait, holding one of the contestant's challenge slots), on the forms and the API,
/// with a message that names the game.
#[tokio::test]
async fn a_closed_games_bots_take_no_versions_and_no_challenges() {
    let mut c = Client::new().await;
    let db = c.state.db.clone();
    crate::ladder::by_game::open_both(&db).await;
    c.register("alice", PW).await;
    let token = c.new_token("laptop").await;
    let mut bob = c.stranger();
    bob.register("bob", PW).await;
    crate::ladder::by_game::bot_of(&db, "alice", "hero", "vindinium", 25.0).await;
    for (i, name) in ["foe1", "foe2", "foe3"].iter().enumerate() {
        crate::ladder::by_game::bot_of(&db, "bob", name, "vindinium", 24.0 + i as f64).await;
    }
    server::games::set_open(&db, &["bottlebats".to_string()])
        .await
        .unwrap();
    let closed = |body: &str| body.contains("Vindinium") && body.contains("closed");
    let r = c
        .upload("/bots/hero/versions", &[], Some(("bot.py", b"print()")))
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.body);
    assert!(closed(&r.body), "{}", r.body);
    let r = c
        .api_upload(
            "/api/bots/hero/versions",
            &token,
            &[],
            Some(("bot.py", b"print()")),
        )
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.body);
    assert!(closed(&r.body), "{}", r.body);
    let ask = serde_json::json!({"bot": "hero", "opponents": ["foe1", "foe2", "foe3"], "games": 1});
    let r = crate::challenges::api_json(&mut c, "/api/challenges", &token, &ask).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.body);
    assert!(closed(&r.body), "{}", r.body);
    let r = c
        .post(
            "/challenges",
            &[
                ("bot", "hero"),
                ("mode", "named"),
                ("names", "foe1 foe2 foe3"),
                ("games", "1"),
            ],
        )
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.body);
    assert!(closed(&r.body), "{}", r.body);
    let versions: i64 = sqlx::query_scalar(
        "select count(*) from bot_versions v join bots b on b.id = v.bot_id where b.name = 'hero'",
    )
    .fetch_one(&db)
    .await
    .unwrap();
    let queued: i64 = sqlx::query_scalar("select count(*) from matches")
        .fetch_one(&db)
        .await
        .unwrap();
    assert_eq!((versions, queued), (1, 0), "nothing new was kept");
}
