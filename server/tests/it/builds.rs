//! Builds of uploaded versions, end to end: upload, build in the sandbox, smoke test
//! against a house bot, and what the owner sees when any of it fails.

use crate::common;

use std::sync::Arc;
use std::time::Duration;

use common::Client;
use server::builds::Builder;

pub const PW: &str = "correct horse battery";

pub fn builder(c: &Client, test: &str) -> Builder {
    let base = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("builds-{test}"));
    let _ = std::fs::remove_dir_all(&base);
    // The default lock folder: slots are shared by every process on the machine.
    let sandbox = engine::sandbox::Sandbox::new(engine::sandbox::SandboxConfig::default());
    Builder::new(
        c.state.db.clone(),
        Arc::new(sandbox),
        c.state.languages.clone(),
        server::build_cache::BuildCache::new(base.join("builds"), 256 << 20, 10 << 30).unwrap(),
        base.join("house"),
    )
}

pub async fn status(c: &Client, bot: &str, number: i32) -> (String, Option<String>) {
    sqlx::query_as(
        "select v.status, v.failure from bot_versions v join bots b on b.id = v.bot_id \
         where b.name = $1 and v.number = $2",
    )
    .bind(bot)
    .bind(number)
    .fetch_one(&c.state.db)
    .await
    .unwrap()
}

pub async fn active(c: &Client, bot: &str) -> Option<i32> {
    sqlx::query_scalar(
        "select v.number from bots b join bot_versions v on v.id = b.active_version_id where b.name = $1",
    )
    .bind(bot)
    .fetch_optional(&c.state.db)
    .await
    .unwrap()
}

pub fn greedy() -> &'static [u8] {
    server::house::bots()
        .iter()
        .find(|b| b.name == "greedy")
        .unwrap()
        .source
        .as_bytes()
}

#[tokio::test]
async fn an_upload_is_built_tested_and_becomes_active() {
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    let b = builder(&c, "active");
    c.upload(
        "/bots/new",
        &[("name", "mybot")],
        Some(("bot.py", greedy())),
    )
    .await;
    assert!(
        b.build_next().await.unwrap(),
        "there was a version to build"
    );
    assert!(!b.build_next().await.unwrap(), "and only one");
    assert_eq!(status(&c, "mybot", 1).await, ("active".into(), None));
    assert_eq!(active(&c, "mybot").await, Some(1));
    let page = c.get("/bots/mybot").await;
    assert!(page.body.contains("version 1 plays"), "{}", page.body);
    assert!(
        page.body.contains("test game"),
        "the owner can download the test game"
    );
    // The test game's replay: compact, inflated for a client that takes no gzip.
    let r = c.get("/bots/mybot/versions/1/smoke.json").await;
    assert!(r.headers.get("content-encoding").is_none());
    assert_eq!(
        bottlebats::replay_v2::read_any(&r.body)
            .unwrap()
            .players
            .len(),
        2
    );
    assert!(r.body.contains(r#""version":2"#));
    // A second good version replaces it; the first is retired; the rating keeps its
    // mu and its sigma starts over.
    sqlx::query("update bots set mu = 31.5, sigma = 2.0, version_games = 40 where name = 'mybot'")
        .execute(&c.state.db)
        .await
        .unwrap();
    c.upload("/bots/mybot/versions", &[], Some(("bot.py", greedy())))
        .await;
    b.build_next().await.unwrap();
    assert_eq!(status(&c, "mybot", 1).await.0, "retired");
    assert_eq!(active(&c, "mybot").await, Some(2));
    let (mu, sigma, games): (f64, f64, i32) =
        sqlx::query_as("select mu, sigma, version_games from bots where name = 'mybot'")
            .fetch_one(&c.state.db)
            .await
            .unwrap();
    assert_eq!((mu, sigma, games), (31.5, 25.0 / 3.0, 0));
    let id: server::ids::VersionId =
        sqlx::query_scalar("select active_version_id from bots where name = 'mybot'")
            .fetch_one(&c.state.db)
            .await
            .unwrap();
    assert!(
        b.cached(id)
            .is_some_and(|root| root.join("bot.py").is_file()),
        "the build is cached"
    );
}

#[tokio::test]
async fn a_compile_error_fails_the_version_with_its_build_log() {
    if !std::path::Path::new("/usr/bin/cc").exists() {
        println!("skipping: no C compiler");
        return;
    }
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    let b = builder(&c, "compile");
    let r = c
        .upload(
            "/bots/new",
            &[("name", "broken")],
            Some(("bot.c", b"int main( { oops }")),
        )
        .await;
    assert_eq!(r.status, axum::http::StatusCode::SEE_OTHER, "{}", r.body);
    b.build_next().await.unwrap();
    let (st, failure) = status(&c, "broken", 1).await;
    assert_eq!(st, "failed");
    assert!(failure
        .unwrap()
        .contains("the build failed (exit status 1)"));
    let page = c.get("/bots/broken").await;
    assert!(page.body.contains("Build log of version 1"));
    assert!(
        page.body.contains("error"),
        "the compiler's message is shown"
    );
    let stranger = c.stranger().get("/bots/broken").await;
    assert!(
        !stranger.body.contains("Build log"),
        "only the owner sees the build log"
    );
    assert!(!stranger.body.contains("the build failed"), "or the reason");
}

#[tokio::test]
async fn a_bot_that_crashes_in_its_test_game_fails_and_the_active_version_stays() {
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    let b = builder(&c, "crash");
    c.upload(
        "/bots/new",
        &[("name", "shaky")],
        Some(("bot.py", greedy())),
    )
    .await;
    b.build_next().await.unwrap();
    let crash = b"import sys\nfor turn in range(3):\n    for _ in range(3):\n        n = int(sys.stdin.readline().split()[0])\n        for _ in range(n): sys.stdin.readline()\n    print('0 commands:', flush=True)\nsys.stderr.write('giving up now\\n')\nsys.exit(4)\n";
    c.upload("/bots/shaky/versions", &[], Some(("bot.py", crash)))
        .await;
    b.build_next().await.unwrap();
    let (st, failure) = status(&c, "shaky", 2).await;
    assert_eq!(st, "failed");
    let failure = failure.unwrap();
    assert!(
        failure.starts_with("Its test game against a house bot ended for it at turn 3: its output ended: the bot exited with status 4."),
        "{failure}"
    );
    assert!(
        failure.contains("Its error output says: `giving up now`."),
        "{failure}"
    );
    assert_eq!(
        active(&c, "shaky").await,
        Some(1),
        "the failed version did not replace the active one"
    );
    let page = c.get("/bots/shaky").await;
    assert!(
        page.body.contains("giving up now"),
        "its stderr is shown to the owner"
    );
    let r = c.get("/bots/shaky/versions/2/smoke.json").await;
    assert_eq!(
        r.status,
        axum::http::StatusCode::OK,
        "the test game's replay is there"
    );
}

#[tokio::test]
async fn a_bot_that_overruns_its_cpu_time_in_its_test_game_fails() {
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    let b = builder(&c, "timeout");
    let slow = b"import sys, time\nturn = 0\nwhile True:\n    for _ in range(3):\n        line = sys.stdin.readline()\n        if not line: sys.exit(0)\n        for _ in range(int(line.split()[0])): sys.stdin.readline()\n    if turn == 1:\n        t = time.process_time()\n        while time.process_time() - t < 2.5: pass\n    print('0 commands:', flush=True)\n    turn += 1\n";
    c.upload("/bots/new", &[("name", "sleepy")], Some(("bot.py", slow)))
        .await;
    b.build_next().await.unwrap();
    let (st, failure) = status(&c, "sleepy", 1).await;
    assert_eq!(st, "failed");
    let failure = failure.unwrap();
    // The test game ends at the first timeout, and says so.
    assert!(
        failure.starts_with(
            "Its test game against a house bot ended for it at turn 1: timed out: no reply within"
        ),
        "{failure}"
    );
    assert!(!failure.contains("flush"), "it did reply before: {failure}");
}

/// A bot that writes its replies without flushing them never answers: it fails within
/// seconds (it uses no CPU while it waits), with a hint at the likely cause.
#[tokio::test]
async fn a_bot_that_never_flushes_fails_in_seconds_with_a_hint() {
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    let b = builder(&c, "noflush");
    let silent = b"import sys\nwhile True:\n    for _ in range(3):\n        line = sys.stdin.readline()\n        if not line: sys.exit(0)\n        for _ in range(int(line.split()[0])): sys.stdin.readline()\n    print('0 commands:')\n";
    c.upload("/bots/new", &[("name", "mute")], Some(("bot.py", silent)))
        .await;
    b.build_next().await.unwrap();
    let (st, failure) = status(&c, "mute", 1).await;
    assert_eq!(st, "failed");
    let failure = failure.unwrap();
    assert!(
        failure.contains("If it runs, does it flush stdout after each reply"),
        "{failure}"
    );
    // Stopped by the idle cap, not the 30 s wall clock of its first turn.
    assert!(failure.contains("no CPU used for 3 s"), "{failure}");
}

/// While the test game plays, the bot's page says which turn it is on.
#[tokio::test]
async fn the_bot_page_shows_the_test_games_turn() {
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    let b = builder(&c, "progress");
    let slow = b"import sys, time\nwhile True:\n    for _ in range(3):\n        line = sys.stdin.readline()\n        if not line: sys.exit(0)\n        for _ in range(int(line.split()[0])): sys.stdin.readline()\n    time.sleep(0.06)\n    print('0 commands:', flush=True)\n";
    c.upload("/bots/new", &[("name", "steady")], Some(("bot.py", slow)))
        .await;
    let building = tokio::spawn(async move { b.build_next().await.unwrap() });
    let mut seen = Vec::new();
    while !building.is_finished() {
        let page = c.get("/bots/steady").await.body;
        if let Some(at) = page.find("<span class=\"test-turn\">") {
            let rest = &page[at + 24..];
            let turn: u32 = rest[..rest.find('<').unwrap()].parse().unwrap();
            assert!(page.contains(&format!(
                "turn <span class=\"test-turn\">{turn}</span> of 50"
            )));
            assert!(page.contains("<progress"), "a progress bar too");
            seen.push(turn);
        }
        tokio::time::sleep(std::time::Duration::from_millis(150)).await;
    }
    building.await.unwrap();
    assert!(
        seen.iter().any(|&t| t >= 5) && seen.windows(2).all(|w| w[0] <= w[1]),
        "the page followed the game's turns: {seen:?}"
    );
    let page = c.get("/bots/steady").await.body;
    assert!(
        page.contains("href=\"/viewer?replay=/bots/steady/versions/1/smoke.json\""),
        "the test game opens in the viewer"
    );
}

#[tokio::test]
async fn an_interrupted_build_is_picked_up_again_and_gives_up_after_three_tries() {
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    let b = builder(&c, "lease");
    c.upload("/bots/new", &[("name", "lost")], Some(("bot.py", greedy())))
        .await;
    // A builder took it and died: the lease runs out.
    sqlx::query("update bot_versions set status = 'building', attempts = 1, lease_until = now() - interval '1 second'")
        .execute(&c.state.db)
        .await
        .unwrap();
    assert!(b.build_next().await.unwrap());
    assert_eq!(
        status(&c, "lost", 1).await.0,
        "active",
        "built on the second attempt"
    );

    c.upload("/bots/lost/versions", &[], Some(("bot.py", greedy())))
        .await;
    sqlx::query("update bot_versions set status = 'testing', attempts = 3, lease_until = now() - interval '1 second' where number = 2")
        .execute(&c.state.db)
        .await
        .unwrap();
    b.build_next().await.unwrap();
    let (st, failure) = status(&c, "lost", 2).await;
    assert_eq!(st, "failed");
    assert!(failure
        .unwrap()
        .contains("interrupted 3 times by a problem of the platform"));
    assert_eq!(active(&c, "lost").await, Some(1));
}

#[tokio::test]
async fn the_build_cache_is_rebuilt_from_the_database_and_evicted_by_age_and_size() {
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    let b = builder(&c, "cache");
    c.upload(
        "/bots/new",
        &[("name", "cached")],
        Some(("bot.py", greedy())),
    )
    .await;
    b.build_next().await.unwrap();
    let id: server::ids::VersionId = sqlx::query_scalar("select id from bot_versions")
        .fetch_one(&c.state.db)
        .await
        .unwrap();
    assert!(b.cached(id).is_some());
    let hour = Duration::from_secs(3600);
    b.cache.evict_with(u64::MAX, hour, Duration::ZERO);
    assert!(b.cached(id).is_some(), "recent and small: kept");
    b.cache.evict_with(0, hour, hour);
    assert!(b.cached(id).is_some(), "over the size, but in use: kept");
    b.cache.evict_with(0, hour, Duration::ZERO);
    assert!(b.cached(id).is_none(), "over the size: evicted");
    let (root, recipe) = b.artifact(id).await.unwrap();
    assert!(
        root.join("bot.py").is_file(),
        "rebuilt from the archive in the database"
    );
    assert_eq!(recipe.run, "/usr/bin/python3 bot.py");
    assert!(b.cached(id).is_some());
    std::thread::sleep(Duration::from_millis(1100));
    b.cache
        .evict_with(u64::MAX, Duration::from_secs(1), Duration::ZERO);
    assert!(
        b.cached(id).is_none(),
        "unused for longer than the age: evicted"
    );
}

#[tokio::test]
async fn every_starter_kit_downloads_uploads_builds_and_passes_its_test_game() {
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    let b = builder(&c, "starters");
    let page = c.get("/getting-started").await;
    let mut tried = Vec::new();
    for lang in server::starters::languages_of("bottlebats") {
        let link = format!("/starters/bottlebats/{lang}.zip");
        let key = if lang == "cpp" { "cpp" } else { lang };
        if !c.state.languages.get(key).is_some_and(|l| l.available) {
            assert!(
                !page.body.contains(&link),
                "{link} is offered, yet not built here"
            );
            println!(
                "skipping the {lang} kit: its toolchain is not installed where the sandbox sees it"
            );
            continue;
        }
        assert!(
            page.body.contains(&link),
            "the getting-started page offers {link}"
        );
        let r = c
            .send(
                axum::http::Request::get(&link)
                    .body(axum::body::Body::empty())
                    .unwrap(),
            )
            .await;
        assert_eq!(r.status, axum::http::StatusCode::OK);
        assert_eq!(r.headers["content-type"], "application/zip");
        // The body went through a String; fetch the bytes themselves.
        let zip = server::starters::zip_of("bottlebats", lang).unwrap();
        let name = format!("starter-{lang}");
        let r = c
            .upload(
                "/bots/new",
                &[("name", &name)],
                Some((&format!("{lang}.zip"), zip.as_slice())),
            )
            .await;
        assert_eq!(
            r.status,
            axum::http::StatusCode::SEE_OTHER,
            "{lang}: {}",
            r.body
        );
        b.build_next().await.unwrap();
        let (st, failure) = status(&c, &name, 1).await;
        assert_eq!(st, "active", "{lang}: {failure:?}");
        tried.push(lang);
    }
    println!("starter kits built and tested: {tried:?}");
    assert!(tried.contains(&"python"));
    assert_eq!(
        c.get("/starters/bottlebats/cobol.zip").await.status,
        axum::http::StatusCode::NOT_FOUND
    );
}

/// A syntax error and a bot that prints garbage: the failure leads with what happened
/// (how the bot ended, the line of its stderr that names the error, the reply quoted),
/// then the likely fix, and shows no path of the server's.
#[tokio::test]
async fn a_failure_leads_with_its_cause_and_hides_the_servers_paths() {
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    let b = builder(&c, "causes");
    c.upload(
        "/bots/new",
        &[("name", "typo")],
        Some(("bot.py", b"def f(\n")),
    )
    .await;
    b.build_next().await.unwrap();
    let (st, failure) = status(&c, "typo", 1).await;
    assert_eq!(st, "failed");
    let failure = failure.unwrap();
    assert!(
        failure.starts_with("SyntaxError: '(' was never closed, at bot.py line 1. Its test game against a house bot ended for it at turn 0: its output ended: the bot exited with status 1."),
        "{failure}"
    );
    assert!(failure.contains("SyntaxError"), "{failure}");
    assert!(!failure.contains("flush"), "{failure}");
    let stderr: String = sqlx::query_scalar(
        "select smoke_stderr from bot_versions v join bots b on b.id = v.bot_id where b.name = 'typo'",
    )
    .fetch_one(&c.state.db)
    .await
    .unwrap();
    assert!(stderr.contains("\"bot.py\""), "{stderr}");
    assert!(!stderr.contains("/builds/"), "{stderr}");
    assert!(!stderr.contains(env!("CARGO_TARGET_TMPDIR")), "{stderr}");

    let garbage =
        b"import sys\nsys.stdin.readline()\nprint('hello world', flush=True)\nsys.stdin.read()\n";
    c.upload(
        "/bots/new",
        &[("name", "chatty")],
        Some(("bot.py", garbage)),
    )
    .await;
    b.build_next().await.unwrap();
    let (_, failure) = status(&c, "chatty", 1).await;
    let failure = failure.unwrap();
    assert!(
        failure.starts_with("Its test game against a house bot ended for it at turn 0: invalid reply header `hello world`"),
        "{failure}"
    );
    assert!(failure.contains("belongs on stderr"), "{failure}");
}
