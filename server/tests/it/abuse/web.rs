//! Forms and endpoints hammered: logins, registrations, redirects, tokens, uploads,
//! costly pages.

use std::net::SocketAddr;

use axum::body::Body;
use axum::http::{Request, StatusCode};

use crate::common::{self, Client};

const PW: &str = "correct horse battery";

/// A visitor of the same site from its own address.
fn from(c: &Client, ip: &str) -> Client {
    let mut v = c.stranger();
    v.ip = format!("{ip}:40000").parse::<SocketAddr>().unwrap();
    v
}

#[tokio::test]
async fn huge_login_names_are_refused_before_anything_is_kept() {
    // The server's own memory through this attack is measured in `http.rs`.
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    let mut v = from(&c, "203.0.113.1");
    for i in 0..50 {
        let name = format!("{i}{}", "n".repeat(1_900_000));
        let r = v.login(&name, "wrong password").await;
        assert_eq!(r.status, StatusCode::PAYLOAD_TOO_LARGE, "a 1.9 MB name");
    }
    for i in 0..300 {
        // Small enough for the form, longer than any account's name.
        let name = format!("{i}{}", "n".repeat(200));
        let r = v.login(&name, "wrong password").await;
        assert!(r.status.is_client_error());
    }
    let (logins, _, accounts, failing) = c.state.guard.sizes();
    assert!(
        logins <= 1 && accounts == 0 && failing == 0,
        "names were not kept: {:?}",
        c.state.guard.sizes()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_guesses_are_counted_before_the_password_check() {
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    // 30 guesses at once from two addresses, each with its form ready.
    let mut guessers = Vec::new();
    for i in 0..30 {
        let mut v = from(&c, &format!("203.0.113.{}", 10 + i % 2));
        v.csrf().await;
        guessers.push(v);
    }
    let start = std::sync::Arc::new(tokio::sync::Barrier::new(30));
    let guesses: Vec<_> = guessers
        .into_iter()
        .map(|mut v| {
            let start = start.clone();
            tokio::spawn(async move {
                start.wait().await;
                v.login("alice", "a wrong guess").await
            })
        })
        .collect();
    let mut checked = 0;
    for g in guesses {
        let r = g.await.unwrap();
        if r.body.contains("Wrong name or password.") {
            checked += 1;
        } else {
            assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS, "{}", r.body);
        }
    }
    // Five free failures; one more only if an address's first guess came after five
    // others were answered (an address with no failures yet is taken as the owner's).
    assert!(
        checked <= 6,
        "{checked} of 30 concurrent guesses were checked against the password"
    );
    // An address that guessed waits, even with the right password...
    let mut guesser = from(&c, "203.0.113.10");
    let r = guesser.login("alice", PW).await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(r.body.contains("Too many failed logins for this account"));
    // ... but alice, from an address with no failures, is not locked out.
    let mut alice = from(&c, "198.51.100.200");
    let r = alice.login("alice", PW).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    assert!(alice.cookies.contains_key("bb_session"));
}

#[tokio::test]
async fn forwarded_addresses_count_only_behind_the_trusted_proxy() {
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    let attempt = |ip: &str, forwarded: String| {
        let mut v = from(&c, ip);
        async move {
            let csrf = v.csrf().await;
            let body = format!("name=ghost&password=wrong+password&csrf={csrf}");
            v.send(
                Request::post("/login")
                    .header("content-type", "application/x-www-form-urlencoded")
                    .header("x-forwarded-for", forwarded)
                    .body(Body::from(body))
                    .unwrap(),
            )
            .await
        }
    };
    // Not configured: a client on loopback cannot pick a new address per request.
    let mut last = None;
    for i in 0..21 {
        last = Some(attempt("127.0.0.1", format!("192.0.2.{i}")).await.status);
    }
    assert_eq!(last, Some(StatusCode::TOO_MANY_REQUESTS));
    // Configured: the proxy's header names each client.
    let config = server::config::Config {
        trusted_proxy: Some("127.0.0.1".parse().unwrap()),
        ..common::test_config()
    };
    let c = Client::with_config(config).await;
    for i in 0..25 {
        let mut v = from(&c, "127.0.0.1");
        let csrf = v.csrf().await;
        let r = v
            .send(
                Request::post("/login")
                    .header("content-type", "application/x-www-form-urlencoded")
                    .header("x-forwarded-for", format!("192.0.2.{i}"))
                    .body(Body::from(format!(
                        "name=ghost&password=wrong+password&csrf={csrf}"
                    )))
                    .unwrap(),
            )
            .await;
        assert_eq!(r.status, StatusCode::UNAUTHORIZED, "attempt {i}");
    }
}

#[tokio::test]
async fn registrations_are_limited_per_address() {
    let c = Client::new().await;
    let mut v = from(&c, "203.0.113.50");
    for i in 0..20 {
        let r = v.register(&format!("user{i}"), PW).await;
        assert_eq!(r.status, StatusCode::SEE_OTHER, "registration {i}");
        v.post("/logout", &[]).await;
    }
    let r = v.register("one-more", PW).await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(r.body.contains("Too many registrations from your address"));
    let r = from(&c, "203.0.113.51").register("elsewhere", PW).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "another address may");
}

#[tokio::test]
async fn the_login_redirect_goes_only_to_a_plain_local_path() {
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    for next in [
        "/\t/evil.example/phish",
        "/\n/evil.example",
        "/\\evil.example",
        "//evil.example",
        "/ /evil.example",
        "https://evil.example",
    ] {
        let mut v = c.stranger();
        let r = v
            .post(
                "/login",
                &[("name", "alice"), ("password", PW), ("next", next)],
            )
            .await;
        assert_eq!(r.status, StatusCode::SEE_OTHER, "{next:?}");
        assert_eq!(r.location(), Some("/profile"), "{next:?}");
    }
    // The same through the login page's address, percent-encoded.
    for next in ["%2F%09%2Fevil.example%2Fphish", "%2F%0A%2Fevil.example"] {
        let r = c.get(&format!("/login?next={next}")).await;
        assert_eq!(r.status, StatusCode::SEE_OTHER, "{next}");
        assert_eq!(r.location(), Some("/profile"), "{next}");
    }
    let mut v = c.stranger();
    let r = v
        .post(
            "/login",
            &[("name", "alice"), ("password", PW), ("next", "/bots/x?y=1")],
        )
        .await;
    assert_eq!(r.location(), Some("/bots/x?y=1"), "a plain path is kept");
}

#[tokio::test]
async fn a_bearer_header_spares_the_csrf_token_only_when_it_is_valid() {
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    let token = c.new_token("laptop").await;
    let tokens = |c: &Client| {
        let db = c.state.db.clone();
        async move {
            sqlx::query_scalar::<_, i64>("select count(*) from api_tokens")
                .fetch_one(&db)
                .await
                .unwrap()
        }
    };
    assert_eq!(tokens(&c).await, 1);
    for bearer in ["Bearer junk", "bearer junk", "Bearer "] {
        let r = c
            .send(
                Request::post("/profile/tokens")
                    .header("content-type", "application/x-www-form-urlencoded")
                    .header("authorization", bearer)
                    .body(Body::from("name=sneaky"))
                    .unwrap(),
            )
            .await;
        assert_eq!(r.status, StatusCode::FORBIDDEN, "{bearer:?}");
    }
    // A valid token: the request is the token's alone, the session cookie is ignored.
    let r = c
        .send(
            Request::post("/profile/tokens")
                .header("content-type", "application/x-www-form-urlencoded")
                .header("authorization", format!("Bearer {token}"))
                .body(Body::from("name=sneaky"))
                .unwrap(),
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "sent to log in");
    assert!(r.location().unwrap().starts_with("/login"));
    assert_eq!(tokens(&c).await, 1, "no token was made");
}

#[tokio::test]
async fn changing_the_password_logs_out_every_other_session() {
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    let mut laptop = c.stranger();
    laptop.login("alice", PW).await;
    assert_eq!(laptop.get("/profile").await.status, StatusCode::OK);
    let r = c
        .post(
            "/profile/password",
            &[
                ("current", PW),
                ("password", "a new password"),
                ("password2", "a new password"),
            ],
        )
        .await;
    assert!(
        r.body.contains("your one other session was logged out"),
        "{}",
        r.body
    );
    assert_eq!(c.get("/profile").await.status, StatusCode::OK, "still in");
    let r = laptop.get("/profile").await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "the other session ended");
}

#[tokio::test]
async fn every_api_refusal_is_json() {
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    let token = c.new_token("laptop").await;
    let mut api = c.stranger();
    let json_error = |r: &common::Resp| {
        let v: serde_json::Value = serde_json::from_str(&r.body)
            .unwrap_or_else(|_| panic!("not JSON ({}): {}", r.status, r.body));
        v["error"].as_str().unwrap().to_string()
    };
    let cases = [
        (
            Request::post("/api/bots"),
            StatusCode::UNAUTHORIZED,
            "Bearer",
        ),
        (
            Request::get("/api/no/such/thing"),
            StatusCode::NOT_FOUND,
            "nothing",
        ),
        (
            Request::delete("/api/leaderboard").header("authorization", format!("Bearer {token}")),
            StatusCode::METHOD_NOT_ALLOWED,
            "method",
        ),
        (
            Request::get("/api/me").header("authorization", "Bearer bbt_nope"),
            StatusCode::UNAUTHORIZED,
            "Invalid API token",
        ),
        (Request::get("/api/me"), StatusCode::UNAUTHORIZED, "Bearer"),
        (
            Request::get("/api/matches?cursor=abc"),
            StatusCode::BAD_REQUEST,
            "could not be read",
        ),
    ];
    for (req, status, says) in cases {
        let r = api.send(req.body(Body::empty()).unwrap()).await;
        assert_eq!(r.status, status, "{}", r.body);
        let error = json_error(&r);
        assert!(error.contains(says), "{error}");
    }
    // The scheme's case does not matter.
    let r = api
        .send(
            Request::get("/api/me")
                .header("authorization", format!("bearer {token}"))
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
}

#[tokio::test]
async fn the_health_check_names_no_database_error() {
    let c = Client::new().await;
    let name: String = sqlx::query_scalar("select current_database()")
        .fetch_one(&c.state.db)
        .await
        .unwrap();
    // The database goes away under the site.
    let admin = crate::common::fresh_db().await;
    c.state.db.close().await;
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "drop database \"{name}\" with (force)"
    )))
    .execute(&admin)
    .await
    .unwrap();
    let mut v = c.stranger();
    let r = v.get("/healthz").await;
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(!r.body.contains(&name), "{}", r.body);
    assert!(r.body.contains("\"status\":\"error\""), "{}", r.body);
}

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
    sqlx::query("insert into maps (name, text, seats, forts) values ('m', 'x', 2, 2)")
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
async fn metrics_need_the_token_when_one_is_set_and_are_read_at_most_every_ten_seconds() {
    let c = Client::new().await;
    sqlx::query("insert into workers (name, heartbeat_at) values ('host-a-1', now())")
        .execute(&c.state.db)
        .await
        .unwrap();
    let mut v = c.stranger();
    let r = v.get("/metrics").await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.body.contains("bottlebats_workers 1"), "{}", r.body);
    assert!(
        !r.body.contains("host-a-1"),
        "public metrics name no worker"
    );
    // Read again at once: the ladder's state is the one read a moment ago.
    sqlx::query("insert into workers (name, heartbeat_at) values ('host-b-1', now())")
        .execute(&c.state.db)
        .await
        .unwrap();
    assert!(v
        .get("/metrics")
        .await
        .body
        .contains("bottlebats_workers 1"));

    let config = server::config::Config {
        metrics_token: Some("s3cret-metrics".into()),
        ..common::test_config()
    };
    let c = Client::with_config(config).await;
    sqlx::query("insert into workers (name, heartbeat_at) values ('host-c-1', now())")
        .execute(&c.state.db)
        .await
        .unwrap();
    let mut v = c.stranger();
    assert_eq!(v.get("/metrics").await.status, StatusCode::UNAUTHORIZED);
    let r = v
        .send(
            Request::get("/metrics")
                .header("authorization", "Bearer s3cret-metrics")
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(
        r.body
            .contains("worker_heartbeat_age_seconds{worker=\"host-c-1\"}"),
        "{}",
        r.body
    );
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
