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

/// A leaderboard address as a hostile visitor writes it, the query encoded.
fn board_search(path: &str, q: &str) -> String {
    let query = form_urlencoded::Serializer::new(String::new())
        .append_pair("q", q)
        .finish();
    format!("{path}?{query}")
}

#[tokio::test]
async fn the_leaderboard_answers_odd_pages_and_searches_with_bounded_work() {
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    crate::ladder::paging::big_ladder(&c.state.db, "alice").await;
    // Alice has 40 bots more: her own rows stay a few neighbourhoods.
    sqlx::query(
        "insert into bots (owner_id, name, mu, sigma, active_version_id) \
         select u.id, 'many-' || g, 1000 - 5 * g, 1, \
             (select active_version_id from bots where name = 'alice-high') \
         from users u, generate_series(1, 40) g where u.name = 'alice'",
    )
    .execute(&c.state.db)
    .await
    .unwrap();
    let mut s = c.stranger();
    // Pages past any ladder, or no page numbers at all: missing or refused.
    for (path, status) in [
        (
            "/leaderboard?page=18446744073709551615",
            StatusCode::NOT_FOUND,
        ),
        (
            "/leaderboard/rows?page=18446744073709551615",
            StatusCode::NOT_FOUND,
        ),
        (
            "/leaderboard?page=18446744073709551616",
            StatusCode::BAD_REQUEST,
        ),
        ("/leaderboard?page=-1", StatusCode::BAD_REQUEST),
        ("/leaderboard?page=1e9", StatusCode::BAD_REQUEST),
        ("/leaderboard?page=", StatusCode::BAD_REQUEST),
        (
            "/api/leaderboard?page=18446744073709551615&limit=500",
            StatusCode::OK,
        ),
        ("/api/leaderboard?limit=501", StatusCode::BAD_REQUEST),
        ("/api/leaderboard?limit=0", StatusCode::BAD_REQUEST),
        ("/api/leaderboard?page=0", StatusCode::BAD_REQUEST),
        (
            "/api/leaderboard?limit=18446744073709551616",
            StatusCode::BAD_REQUEST,
        ),
    ] {
        let r = s.get(path).await;
        assert_eq!(r.status, status, "{path}: {}", r.body);
        assert!(r.body.len() < 60_000, "{path}: {} bytes", r.body.len());
    }
    let far = s
        .get("/api/leaderboard?page=18446744073709551615&limit=500")
        .await;
    assert_eq!(far.json()["leaderboard"].as_array().unwrap().len(), 0);
    // Searches long, odd or hostile: cut to a name's length, escaped, a page at most.
    let long = "bot".repeat(5_000);
    // A NUL is refused, as in every address of the site.
    let nul = s.get(&board_search("/leaderboard", "\0")).await;
    assert_eq!(nul.status, StatusCode::BAD_REQUEST);
    for q in [
        long.as_str(),
        "<script>alert(1)</script>",
        "%",
        "_",
        "ÄÖ😀",
        "' or 1=1 --",
        "\u{202e}bot",
        "   ",
    ] {
        for path in ["/leaderboard", "/leaderboard/rows"] {
            let r = s.get(&board_search(path, q)).await;
            assert_eq!(r.status, StatusCode::OK, "{q:?}");
            assert!(
                r.body.len() < 60_000,
                "{path} {q:?}: {} bytes",
                r.body.len()
            );
            assert!(!r.body.contains("<script>alert"), "escaped");
            assert!(r.body.matches("<tr data-owner=").count() <= 50);
        }
    }
    let cut = s.get(&board_search("/leaderboard", &long)).await;
    assert!(cut.body.contains("id=\"search-cut\""));
    // Many requests, every page and prefix: each answer a page at most.
    for i in 0..200 {
        let page = s
            .get(&format!("/leaderboard/rows?page={}", 1 + i % 5))
            .await;
        let found = s.get(&format!("/leaderboard/rows?q=bot{}", i % 3)).await;
        for r in [page, found] {
            assert_eq!(r.status, StatusCode::OK);
            assert!(r.body.matches("<tr data-owner=").count() <= 50);
        }
    }
    // 42 bots of her own: the best 10, each with its neighbours.
    let mine = c.get("/leaderboard/rows?mine=1").await;
    let rows = mine.body.matches("<tr data-owner=").count();
    assert!((10..=50).contains(&rows), "{rows} rows of her own bots");
    let page = c.get("/leaderboard").await;
    assert!(page.body.len() < 120_000, "{} bytes", page.body.len());
}

/// A game as a hostile visitor names it, the query encoded.
fn of_game(path: &str, game: &str) -> String {
    let query = form_urlencoded::Serializer::new(String::new())
        .append_pair("game", game)
        .finish();
    format!("{path}?{query}")
}

#[tokio::test]
async fn odd_game_names_are_refused_briefly_and_never_become_a_leaderboard() {
    let mut c = Client::new().await;
    crate::ladder::by_game::open_both(&c.state.db).await;
    c.register("alice", PW).await;
    crate::ladder::by_game::bot_of(&c.state.db, "alice", "miner", "vindinium", 30.0).await;
    let long = "vindinium".repeat(2_000);
    let odd = [
        long.as_str(),
        "nope",
        "Vindinium",
        "vindinium ",
        " vindinium",
        "vindinium\u{301}",
        "../vindinium",
        "vindinium,bottlebats",
        "<script>alert(1)</script>",
        "%00",
    ];
    for path in [
        "/leaderboard",
        "/leaderboard/rows",
        "/api/leaderboard",
        "/matches",
        "/api/matches",
        "/live",
        "/api/live",
    ] {
        for game in odd {
            let r = c.get(&of_game(path, game)).await;
            assert_eq!(r.status, StatusCode::BAD_REQUEST, "{path} {game:.40}");
            // The refusal names what was asked at most 40 characters long, escaped in a page.
            assert!(r.body.len() < 20_000, "{path}: {} bytes", r.body.len());
            assert!(!r.body.contains(&"vindinium".repeat(5)), "{path}");
            let html = r.headers["content-type"]
                .to_str()
                .unwrap()
                .starts_with("text/html");
            assert!(!html || !r.body.contains("<script>alert"), "{path}");
        }
    }
    // Repeated, the address is refused: never two games at once.
    let r = c
        .get("/api/leaderboard?game=vindinium&game=bottlebats")
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.body);
    // An empty name is the default game's, as no name at all.
    let r = c.get("/api/leaderboard?game=").await;
    assert_eq!(r.json()["game"], "bottlebats");
    // However many names were tried, the cache holds a leaderboard of each open game
    // shown, by the registry's name.
    assert_eq!(
        c.state.leaderboard.games(),
        1,
        "only the default game was shown"
    );
    let r = c.get("/leaderboard?game=vindinium").await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(c.state.leaderboard.games(), 2);
}
