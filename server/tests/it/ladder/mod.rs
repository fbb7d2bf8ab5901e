//! What spectators and contestants read: the leaderboard, the match list with its
//! filters and stable pages, a match with its downloads, the owner-only stderr, a
//! user's page and the JSON API; every filter across its pages (`filters`), and the
//! answers to what goes wrong (`errors`).

pub mod by_game;
mod errors;
mod filters;
mod match_page;
pub mod paging;
mod replays;

use crate::common;

use axum::http::StatusCode;
use common::Client;
use server::worker::Worker;

const PW: &str = "correct horse battery";

/// A ladder: the house bots and alice's bot, built, with `matches` matches played.
async fn ladder(test: &str, matches: usize) -> (Client, Worker) {
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    let db = c.state.db.clone();
    let b = common::builder(&db, test);
    server::house::register(&db).await.unwrap();
    server::ranker::load_shipped_maps(&db).await.unwrap();
    let chatty = b"import sys\nme = sys.argv[-1]\nturn = 0\nwhile True:\n    for _ in range(3):\n        line = sys.stdin.readline()\n        if not line: sys.exit(0)\n        for _ in range(int(line.split()[0])): sys.stdin.readline()\n    sys.stderr.write('thinking about turn %d\\n' % turn)\n    sys.stderr.flush()\n    print('1 commands:\\nnowhere else 1', flush=True)\n    turn += 1\n";
    c.upload("/bots/new", &[("name", "chatty")], Some(("bot.py", chatty)))
        .await;
    while b.build_next().await.unwrap() {}
    sqlx::query("update maps set enabled = (name = 'ring-2p')")
        .execute(&db)
        .await
        .unwrap();
    let w = common::worker(&b, &format!("test-{test}"), 30);
    // At least `matches` matches, and until alice's bot has played two: its page draws
    // a rating chart from the second game on.
    let mut played = 0;
    loop {
        let chatty: i64 = sqlx::query_scalar(
            "select count(*) from match_players p join bots b on b.id = p.bot_id join matches m on m.id = p.match_id \
             where b.name = 'chatty' and m.status = 'finished'",
        )
        .fetch_one(&db)
        .await
        .unwrap();
        if played >= matches && chatty >= 2 {
            break;
        }
        server::ranker::schedule(&db, 2, &Default::default())
            .await
            .unwrap();
        if w.run_one().await.unwrap() {
            played += 1;
        }
    }
    (c, w)
}

#[tokio::test]
async fn the_leaderboard_ranks_by_conservative_rating_in_html_and_json() {
    let (mut c, _) = ladder("board", 8).await;
    let r = c.get("/leaderboard").await;
    assert_eq!(r.status, StatusCode::OK);
    for bot in ["idle", "random", "greedy", "strong", "chatty"] {
        assert!(
            r.body.contains(&format!("href=\"/bots/{bot}\"")),
            "{bot} is listed"
        );
    }
    assert!(
        r.body.contains("data-live=\"/leaderboard/rows\""),
        "the page updates itself"
    );
    // From its own rows, which the server also serves alone.
    let rows = c.get("/leaderboard/rows").await;
    assert_eq!(rows.status, StatusCode::OK);
    assert_eq!(rows.headers["content-type"], "text/html; charset=utf-8");
    let tbody = rows.body.trim();
    assert!(
        tbody.starts_with("<tbody>") && tbody.ends_with("</tbody>"),
        "{tbody}"
    );
    assert!(r.body.contains(tbody), "the page's rows are these");
    assert_eq!(tbody.matches("<tr ").count(), 5);
    let api = c.get("/api/leaderboard").await;
    assert_eq!(api.headers["access-control-allow-origin"], "*");
    let v: serde_json::Value = serde_json::from_str(&api.body).unwrap();
    let rows = v["leaderboard"].as_array().unwrap();
    assert_eq!(rows.len(), 5);
    let ratings: Vec<f64> = rows.iter().map(|r| r["rating"].as_f64().unwrap()).collect();
    assert!(
        ratings.windows(2).all(|w| w[0] >= w[1]),
        "sorted by mu - 3 sigma: {ratings:?}"
    );
    for r in rows {
        let expect = r["mu"].as_f64().unwrap() - 3.0 * r["sigma"].as_f64().unwrap();
        assert!(
            (r["rating"].as_f64().unwrap() - expect).abs() < 0.03,
            "rounded to 2 decimals"
        );
    }
    let games: i64 = rows.iter().map(|r| r["games"].as_i64().unwrap()).sum();
    let matches: i64 = sqlx::query_scalar("select count(*) from matches where status = 'finished'")
        .fetch_one(&c.state.db)
        .await
        .unwrap();
    assert_eq!(
        games,
        2 * matches,
        "every duel counted for both players, once"
    );
}

#[tokio::test]
async fn the_match_list_filters_and_pages_stably_while_matches_arrive() {
    let (mut c, w) = ladder("list", 6).await;
    // Make the list longer than a page with copies of a finished match.
    sqlx::query(
        "insert into matches (status, map_id, turns, started_at, finished_at, replay, attempts) \
         select 'finished', map_id, turns, started_at, finished_at, replay, 1 from matches, generate_series(1, 60) \
         where id = (select min(id) from matches where status = 'finished')",
    )
    .execute(&c.state.db)
    .await
    .unwrap();
    let total: i64 = sqlx::query_scalar("select count(*) from matches where status = 'finished'")
        .fetch_one(&c.state.db)
        .await
        .unwrap();
    let page1 = c.get("/api/matches").await;
    let v: serde_json::Value = serde_json::from_str(&page1.body).unwrap();
    let first: Vec<i64> = v["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_i64().unwrap())
        .collect();
    assert_eq!(first.len(), 50);
    let finished: Vec<i64> = sqlx::query_scalar("select id from matches where status = 'finished' order by finished_at desc, id desc limit 50")
        .fetch_all(&c.state.db)
        .await
        .unwrap();
    assert_eq!(first, finished, "the most recently finished first");
    let cursor = v["next_cursor"].as_i64().expect("a next page");
    // A new match finishes meanwhile: the next page is unchanged by it.
    server::ranker::schedule(&c.state.db, 1, &Default::default())
        .await
        .unwrap();
    assert!(w.run_one().await.unwrap());
    let page2 = c.get(&format!("/api/matches?cursor={cursor}")).await;
    let v2: serde_json::Value = serde_json::from_str(&page2.body).unwrap();
    let second: Vec<i64> = v2["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_i64().unwrap())
        .collect();
    assert!(
        second.iter().all(|id| !first.contains(id)),
        "no repeats: {second:?}"
    );
    assert_eq!(
        (first.len() + second.len()) as i64,
        total,
        "every match that had finished, once"
    );
    let fresh = c.get("/api/matches").await;
    let v3: serde_json::Value = serde_json::from_str(&fresh.body).unwrap();
    let top = v3["matches"][0]["id"].as_i64().unwrap();
    assert!(
        !first.contains(&top) && !second.contains(&top),
        "the new one leads the first page"
    );

    let html = c.get("/matches").await;
    assert!(html.body.contains("Older matches"), "the page links onward");
    let mine = c.get("/api/matches?bot=chatty").await;
    let v: serde_json::Value = serde_json::from_str(&mine.body).unwrap();
    assert!(v["matches"].as_array().unwrap().iter().all(|m| m["players"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["bot"] == "chatty")));
    let by_owner = c.get("/matches?user=alice").await;
    assert!(by_owner.body.contains("href=\"/bots/chatty\""));
    let none = c.get("/matches?map=octo-8p").await;
    assert!(none
        .body
        .contains("No finished match matches these filters yet."));
    let user = c.get("/users/alice").await;
    assert!(user.body.contains("<h1>alice</h1>") && user.body.contains("href=\"/bots/chatty\""));
    assert_eq!(c.get("/users/nobody").await.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn metrics_report_the_queue_matches_problems_workers_and_http_latency() {
    let (c, w) = ladder("metrics", 2).await;
    w.heartbeat(None).await.unwrap();
    // With a metrics token, /metrics names each worker.
    let config = server::config::Config {
        metrics_token: Some("metrics-token".into()),
        ..common::test_config()
    };
    let state = server::web::AppState::new(
        c.state.db.clone(),
        config,
        server::languages::Languages::load(None).unwrap(),
    );
    let mut c = Client {
        app: server::web::app(state.clone()),
        state,
        ..c
    };
    c.get("/leaderboard").await;
    let r = c
        .send(
            axum::http::Request::get("/metrics")
                .header("authorization", "Bearer metrics-token")
                .body(axum::body::Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.headers["content-type"]
        .to_str()
        .unwrap()
        .starts_with("application/openmetrics-text"));
    let finished: i64 =
        sqlx::query_scalar("select count(*) from matches where status = 'finished'")
            .fetch_one(&c.state.db)
            .await
            .unwrap();
    let text = &r.body;
    assert!(
        text.contains(&format!(
            "bottlebats_matches{{kind=\"finished\"}} {finished}"
        )),
        "{text}"
    );
    assert!(text.contains("bottlebats_queue_matches{kind=\"queued\"}"));
    assert!(text.contains("bottlebats_workers 1"));
    assert!(text.contains("bottlebats_worker_heartbeat_age_seconds{worker=\"test-metrics\"}"));
    let warnings = text
        .lines()
        .find(|l| l.starts_with("bottlebats_bot_problems{kind=\"warning\"}"))
        .and_then(|l| l.split_whitespace().last())
        .and_then(|v| v.parse::<i64>().ok())
        .unwrap();
    assert!(warnings > 0, "chatty's bad command is counted");
    assert!(text.contains("bottlebats_http_request_duration_seconds_count{method=\"GET\",route=\"/leaderboard\",status=\"200\"}"));
    assert!(text.contains("bottlebats_match_duration_seconds_count"));
    assert!(text.contains(&format!(
        "bottlebats_build_info{{version=\"{}\",revision=\"{}\"}} 1",
        server::VERSION,
        server::REVISION
    )));
    assert!(text.trim_end().ends_with("# EOF"));
}

#[tokio::test]
async fn a_bot_page_shows_its_record_chart_matches_and_its_owner_an_error_board() {
    let (mut alice, _) = ladder("botpage", 6).await;
    let page = alice.get("/bots/chatty").await;
    assert!(page.body.contains("id=\"record\""));
    assert!(
        page.body.contains("<polyline points=\""),
        "a rating chart after a few games"
    );
    assert!(page
        .body
        .contains("href=\"/matches?bot=chatty&amp;kind=ranked\""));
    assert!(
        page.body.contains("Error board"),
        "its owner sees the error board"
    );
    let (id, turn): (i64, i32) = sqlx::query_as(
        "select p.match_id, p.problem_turn from match_players p join bots b on b.id = p.bot_id \
         where b.name = 'chatty' and p.problem_turn is not null order by p.match_id desc limit 1",
    )
    .fetch_one(&alice.state.db)
    .await
    .unwrap();
    assert_eq!(turn, 0, "chatty's bad command shows from the first turn");
    assert!(
        page.body
            .contains(&format!("href=\"/matches/{id}#t={turn}\"")),
        "linked to the turn"
    );
    assert!(page.body.contains("invalid command"));
    let other = alice.stranger().get("/bots/chatty").await;
    assert!(other.body.contains("id=\"record\"") && !other.body.contains("Error board"));
    let api = alice.get("/api/bots/chatty").await;
    let v: serde_json::Value = serde_json::from_str(&api.body).unwrap();
    let expect = v["mu"].as_f64().unwrap() - 3.0 * v["sigma"].as_f64().unwrap();
    assert!(
        (v["rating"].as_f64().unwrap() - expect).abs() < 0.03,
        "rounded to 2 decimals"
    );
    assert!(v["games"].as_i64().unwrap() >= 1);
    assert_eq!(api.headers["access-control-allow-origin"], "*");

    // A second version, which crashed in chatty's newest match: each version's board
    // lists its own problems only.
    let db = &alice.state.db;
    sqlx::query(
        "insert into bot_versions (bot_id, number, language, entry, archive, archive_name, archive_sha256, status) \
         select bot_id, 2, language, entry, archive, archive_name, archive_sha256, 'retired' \
         from bot_versions v join bots b on b.id = v.bot_id where b.name = 'chatty' and v.number = 1",
    )
    .execute(db)
    .await
    .unwrap();
    let newest: i64 = sqlx::query_scalar(
        "update match_players p set version_id = v.id, error = 'crashed (exit status 1)', problem_turn = 7, \
             problems = '[{\"kind\":\"removed\",\"text\":\"crashed (exit status 1)\",\"first_turn\":7,\"count\":1}]' \
         from bot_versions v join bots b on b.id = v.bot_id \
         where b.name = 'chatty' and v.number = 2 and p.bot_id = b.id \
           and p.match_id = (select max(match_id) from match_players where bot_id = b.id and rank is not null) \
         returning p.match_id",
    )
    .fetch_one(db)
    .await
    .unwrap();
    let page = alice.get("/bots/chatty").await.body;
    let v2 = page.split("<h3>Version 2</h3>").nth(1).unwrap();
    let (v2, v1) = v2
        .split_once("<h3>Version 1</h3>")
        .expect("both versions, newest first");
    assert!(
        v2.contains(&format!("href=\"/matches/{newest}#t=7\"")),
        "{v2}"
    );
    assert!(v2.contains("crashed (exit status 1)") && v2.contains("<strong>1</strong> removals"));
    assert!(!v1.contains(&format!("href=\"/matches/{newest}#")), "{v1}");
    assert!(v1.contains("invalid command"));
    let matches: std::collections::HashSet<&str> = v1
        .split("href=\"/matches/")
        .skip(1)
        .filter_map(|l| l.split('#').next())
        .collect();
    assert!(
        matches.len() <= 8,
        "the problems of the 8 latest matches with problems, a version"
    );
}

/// A bot's page says where it stands (its place, its change since yesterday, μ's
/// interval) and when it plays (last, and its place in line), and keeps that up to date
/// from `/bots/NAME/record`; the leaderboard marks its owner's rows; the owner's home
/// page shows their bots and latest matches.
#[tokio::test]
async fn a_bot_page_says_where_it_stands_and_when_it_plays() {
    let (mut alice, _) = ladder("standing", 4).await;
    let db = alice.state.db.clone();
    let ranks = server::standings::standings(&db, "bottlebats")
        .await
        .unwrap();
    let place = ranks.iter().position(|s| s.name == "chatty").unwrap() + 1;
    // A day ago every bot stood as it does now, but chatty was last. (The places of a
    // day ago are read once and kept for 10 minutes: set them before any page.)
    sqlx::query("update bots set created_at = now() - interval '2 days'")
        .execute(&db)
        .await
        .unwrap();
    sqlx::query(
        "insert into rating_history (bot_id, match_id, mu, sigma, at)
         select b.id, (select min(id) from matches), case when b.name = 'chatty' then -50 else b.mu end,
                b.sigma, now() - interval '30 hours' from bots b
         on conflict (bot_id, match_id) do update set mu = excluded.mu, at = excluded.at",
    )
    .execute(&db)
    .await
    .unwrap();
    let page = alice.get("/bots/chatty").await.body;
    assert!(
        page.contains(&format!(
            "<strong class=\"rank\">#{place} of {} Bottle Bats bots</strong>",
            ranks.len()
        )),
        "its place as the leaderboard has it"
    );
    assert!(
        page.contains("μ between ") && page.contains("last played "),
        "{page}"
    );
    assert!(
        page.contains("usually within about ") && page.contains("in line (least played first)"),
        "when it plays next, at the ladder's pace: {page}"
    );
    // Paused, the page says so rather than promising a game; frozen likewise.
    server::ranker::set_paused(&db, true).await.unwrap();
    alice.state.contest.forget(); // as /admin does: pages read the phase from a cache
    let paused = alice.get("/bots/chatty/record").await.body;
    assert!(
        paused.contains("Next match: none for now: the organizers paused the ladder"),
        "{paused}"
    );
    server::ranker::set_paused(&db, false).await.unwrap();
    sqlx::query(
        "update ranker set deadline = now() - interval '1 minute', freeze_at_deadline = true",
    )
    .execute(&db)
    .await
    .unwrap();
    alice.state.contest.forget();
    let frozen = alice.get("/bots/chatty/record").await.body;
    assert!(
        frozen.contains("Next match: none: the ladder froze at the submission deadline"),
        "{frozen}"
    );
    sqlx::query("update ranker set deadline = null")
        .execute(&db)
        .await
        .unwrap();
    assert!(page.contains("data-live-section=\"/bots/chatty/record\""));
    let fragment = alice.get("/bots/chatty/record").await;
    assert_eq!(fragment.status, axum::http::StatusCode::OK);
    assert!(
        fragment.body.trim_start().starts_with("<h2>Record</h2>"),
        "the section alone"
    );
    let up = ranks.len() - place;
    if up > 0 {
        assert!(
            fragment.body.contains(&format!("▲ {up} since yesterday")),
            "{}",
            fragment.body
        );
    } else {
        assert!(fragment.body.contains("no change since yesterday"));
    }
    assert!(
        !fragment.body.contains("Error board"),
        "the fragment is the same for all"
    );

    let board = alice.get("/leaderboard").await.body;
    assert!(board.contains("data-me=\"alice\"") && board.contains("data-owner=\"alice\""));
    let home = alice.get("/").await.body;
    assert!(home.contains("id=\"my-bots\"") && home.contains("href=\"/bots/chatty\""));
    assert!(home.contains(&format!("#{place} of {} Bottle Bats bots", ranks.len())));
    assert!(home.contains("Your latest matches"));
    let stranger = alice.stranger().get("/").await.body;
    assert!(
        !stranger.contains("id=\"my-bots\""),
        "strangers get the plain home page"
    );
    assert_eq!(
        alice.stranger().get("/bots/nobody/record").await.status,
        axum::http::StatusCode::NOT_FOUND
    );
}
