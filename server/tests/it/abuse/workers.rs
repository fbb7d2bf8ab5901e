//! Workers against slow bots: a bot is in one match at a time, so a bot that takes
//! its time holds one worker, not every worker that claims a match of it.

use crate::common;
use server::ids::{BotId, MapId, VersionId};

async fn bot(db: &sqlx::PgPool, name: &str) -> (BotId, VersionId) {
    let (id, v): (i64, i64) =
        sqlx::query_as("select id, active_version_id from bots where name = $1")
            .bind(name)
            .fetch_one(db)
            .await
            .unwrap();
    (BotId(id), VersionId(v))
}

#[tokio::test]
async fn a_bot_playing_one_match_is_not_put_in_another_at_once() {
    let c = common::Client::new().await;
    let db = c.state.db.clone();
    let b = common::house_ladder(&db, "abuse-one-at-a-time", "ring-2p").await;
    let map: i64 = sqlx::query_scalar("select id from maps where name = 'ring-2p'")
        .fetch_one(&db)
        .await
        .unwrap();
    let (idle, random, greedy) = (
        bot(&db, "idle").await,
        bot(&db, "random").await,
        bot(&db, "greedy").await,
    );
    let mut conn = db.acquire().await.unwrap();
    for other in [random, greedy] {
        server::ranker::insert_match(
            &mut conn,
            MapId(map),
            &[idle, other],
            server::ranker::Purpose::Ranked,
        )
        .await
        .unwrap();
    }
    drop(conn);
    let first = common::worker(&b, "first", 50);
    let second = common::worker(&b, "second", 50);
    let m = first.claim().await.unwrap().expect("the first match");
    assert!(
        second.claim().await.unwrap().is_none(),
        "idle is playing: its other match waits"
    );
    let result = first.play(&m).await.unwrap().unwrap();
    assert!(first.record(&m, &result).await.unwrap());
    let next = second.claim().await.unwrap().expect("idle is free again");
    assert_ne!(next.id, m.id);
}

/// A worker killed outright stops saying it is alive: once silent for a lease it is
/// forgotten, by the next heartbeat of any worker and in the organizer's status.
#[tokio::test]
async fn a_worker_silent_for_a_lease_is_forgotten() {
    let c = common::Client::new().await;
    let db = c.state.db.clone();
    let b = common::house_ladder(&db, "abuse-dead-worker", "ring-2p").await;
    sqlx::query(
        "insert into workers (name, heartbeat_at) values ('killed', now() - interval '61 seconds')",
    )
    .execute(&db)
    .await
    .unwrap();
    let status = server::ranker::status(&db).await.unwrap();
    assert!(
        status.workers.iter().all(|w| w.name != "killed"),
        "{:?}",
        status.workers
    );
    common::worker(&b, "alive", 50)
        .heartbeat(None)
        .await
        .unwrap();
    let names: Vec<String> = sqlx::query_scalar("select name from workers order by name")
        .fetch_all(&db)
        .await
        .unwrap();
    assert_eq!(names, ["alive"]);
}

/// A version that crashes in some of its ranked games only, never five in a row and
/// not in most of its first ten, still cannot stay on the ladder by crashing slowly:
/// once most of its last twenty ranked games faulted, it is held off.
#[tokio::test]
async fn a_version_that_crashes_slowly_is_held_off_the_ladder_too() {
    let mut c = common::Client::new().await;
    let db = c.state.db.clone();
    let b = common::house_ladder(&db, "abuse-slow-crashes", "ring-2p").await;
    c.register("slow", crate::builds::PW).await;
    // Quiet on ring-2p (where it holds `kavaim`), an exception at turn 3 elsewhere.
    let bot_source = b"import sys\nturn = 0\nwhile True:\n    seen = ''\n    for _ in range(3):\n        n = int(sys.stdin.readline().split()[0])\n        for _ in range(n): seen += sys.stdin.readline()\n    if turn == 3 and 'kavaim' not in seen:\n        raise ValueError('not my map')\n    print('0 commands:', flush=True)\n    turn += 1\n";
    c.upload(
        "/bots/new",
        &[("name", "slowpoke")],
        Some(("bot.py", bot_source)),
    )
    .await;
    b.build_next().await.unwrap();
    let me = bot(&db, "slowpoke").await;
    let idle = bot(&db, "idle").await;
    let map = |name: &'static str| {
        let db = db.clone();
        async move {
            let id: i64 = sqlx::query_scalar("select id from maps where name = $1")
                .bind(name)
                .fetch_one(&db)
                .await
                .unwrap();
            MapId(id)
        }
    };
    let (good, bad) = (map("ring-2p").await, map("duel-2p").await);
    let w = common::worker(&b, "slow", 30);
    // Ten games, every other one a crash: not held. Then two crashes in three.
    let plan = "xoxoxoxoxo".to_string() + &"xxo".repeat(10);
    let mut held_at = None;
    for (i, c) in plan.chars().enumerate() {
        let seat_map = if c == 'x' { bad } else { good };
        let mut conn = db.acquire().await.unwrap();
        server::ranker::insert_match(
            &mut conn,
            seat_map,
            &[me, idle],
            server::ranker::Purpose::Ranked,
        )
        .await
        .unwrap();
        drop(conn);
        assert!(w.run_one().await.unwrap());
        let active: Option<i64> =
            sqlx::query_scalar("select active_version_id from bots where id = $1")
                .bind(me.0 .0)
                .fetch_one(&db)
                .await
                .unwrap();
        if active.is_none() {
            held_at = Some(i + 1);
            break;
        }
    }
    let held_at = held_at.expect("held off the ladder");
    assert!(held_at > 10, "not in its first ten: {held_at}");
    assert!(held_at <= 24, "within its last twenty: {held_at}");
    let held: String = sqlx::query_scalar("select held from bot_versions where id = $1")
        .bind(me.1 .0)
        .fetch_one(&db)
        .await
        .unwrap();
    assert!(
        held.contains("of its last 20 ranked games (ValueError: not my map, at bot.py line 9)"),
        "{held}"
    );
    assert!(
        held.contains("the bot plays no more ranked games until a new version passes"),
        "{held}"
    );
}

/// Four Vindinium heroes that sleep while their replies are awaited, each well within
/// the time of a move. Heroes answer one at a time, so a budget per hero let the game
/// hold its worker for four budgets (17 minutes at the default); the heroes now share
/// one, and the game's replies take the budget at most.
#[test]
fn heroes_that_sleep_in_turn_share_one_budget_for_the_game() {
    use std::time::{Duration, Instant};
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("abuse-sleepy-heroes");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("sleepy.py"),
        "import sys, time\nfor line in sys.stdin:\n    time.sleep(0.1)\n    print('Stay', flush=True)\n",
    )
    .unwrap();
    let names: Vec<String> = ["ann", "ben", "cat", "dan"].map(String::from).to_vec();
    let specs: Vec<engine::process::BotSpec> = (names.iter())
        .map(|name| engine::process::BotSpec {
            name: name.clone(),
            command: "/usr/bin/python3 sleepy.py".into(),
            dir: dir.clone(),
        })
        .collect();
    let kind = server::games::kind("vindinium").unwrap();
    let budget = Duration::from_secs(2);
    let config = engine::MatchConfig {
        max_turns: 400,
        turn_timeout: Duration::from_secs(1),
        startup_timeout: Duration::from_secs(5),
        game_wall_budget: Some(budget),
        ..engine::MatchConfig::default()
    };
    let m = kind
        .setup(vindinium::ORIGINAL_MAPS[0].1, &names, 400)
        .unwrap();
    let started = Instant::now();
    let r = engine::run_game(
        m,
        kind.framing(),
        &specs,
        &engine::process::LocalLauncher,
        &config,
        &mut |_| true,
    )
    .unwrap();
    let took = started.elapsed();
    let replies: Duration = r.players.iter().map(|p| p.time_used).sum();
    println!("the game took {took:?}, its replies {replies:?}");
    for p in &r.players {
        let error = p.error.as_deref().unwrap_or("");
        assert!(
            error.contains("out of time for the game") && error.contains("its share of the 2 s"),
            "{}: {error}",
            p.name
        );
    }
    // 100 moves of 0.1 s each would be 10 s a hero; one budget of 2 s for the four.
    assert!(
        replies < budget + Duration::from_millis(500),
        "the replies took {replies:?} in all"
    );
    assert!(took < budget * 2, "the game took {took:?}");
}

/// A match whose bot left the ladder after it was queued (by a path that did not void
/// it) is voided by the worker that claims it, never played, and the bot's build
/// leaves that worker's cache.
#[tokio::test]
async fn a_worker_voids_a_claimed_match_of_a_bot_out_of_the_ladder() {
    let c = common::Client::new().await;
    let db = c.state.db.clone();
    let b = common::house_ladder(&db, "abuse-out-of-ladder", "ring-2p").await;
    let map: i64 = sqlx::query_scalar("select id from maps where name = 'ring-2p'")
        .fetch_one(&db)
        .await
        .unwrap();
    let (idle, greedy) = (bot(&db, "idle").await, bot(&db, "greedy").await);
    assert!(b.cache.cached(greedy.1).is_some());
    let mut conn = db.acquire().await.unwrap();
    let id = server::ranker::insert_match(
        &mut conn,
        MapId(map),
        &[idle, greedy],
        server::ranker::Purpose::Ranked,
    )
    .await
    .unwrap();
    drop(conn);
    sqlx::query("update bots set disabled = true where name = 'greedy'")
        .execute(&db)
        .await
        .unwrap();
    let w = common::worker(&b, "out-of-ladder", 50);
    assert!(w.run_one().await.unwrap(), "the match was taken");
    let (status, reason): (String, Option<String>) =
        sqlx::query_as("select status, void_reason from matches where id = $1")
            .bind(id.0)
            .fetch_one(&db)
            .await
            .unwrap();
    assert_eq!(status, "void");
    assert!(reason
        .unwrap_or_default()
        .contains("`greedy` is out of the ladder"));
    assert!(
        b.cache.cached(greedy.1).is_none(),
        "its build left the cache"
    );
}

/// A Vindinium hero whose child process floods stderr: what is kept is bounded by the
/// caps, and so is what the runner spends on it. It used to wait, at every move, for
/// the pipe to be read before filing the bot's stderr, though all of it was dropped:
/// games of 0.3–1.2 s took 7–24 s (68 s under load); its waiting is recorded now.
#[test]
fn a_hero_flooding_stderr_costs_the_runner_no_more_than_what_is_kept() {
    use std::time::Duration;
    let bot = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../games/vindinium/tests/bots/vindinium.py")
        .canonicalize()
        .unwrap();
    let names: Vec<String> = ["flood", "ben", "cat", "dan"].map(String::from).to_vec();
    let specs: Vec<engine::process::BotSpec> = (names.iter().enumerate())
        .map(|(i, name)| engine::process::BotSpec {
            name: name.clone(),
            command: format!(
                "/usr/bin/python3 {} {}",
                bot.display(),
                if i == 0 { "flood" } else { "random" }
            ),
            dir: std::env::temp_dir(),
        })
        .collect();
    let kind = server::games::kind("vindinium").unwrap();
    let config = engine::MatchConfig {
        turn_timeout: Duration::from_secs(1),
        startup_timeout: Duration::from_secs(10),
        ..engine::MatchConfig::default()
    };
    let m = kind
        .setup(vindinium::ORIGINAL_MAPS[0].1, &names, 1200)
        .unwrap();
    let r = engine::run_game(
        m,
        kind.framing(),
        &specs,
        &engine::process::LocalLauncher,
        &config,
        &mut |_| true,
    )
    .unwrap();
    assert_eq!(r.game.turn(), 1200, "every move was played");
    let flood = &r.players[0];
    let kept: usize = flood.stderr.iter().map(|(_, b)| b.len()).sum();
    println!(
        "kept {kept} bytes, dropped {} MB; the runner waited {:?} for its stderr",
        flood.stderr_dropped / 1_000_000,
        flood.stderr_waited
    );
    assert!(kept <= config.stderr_game_bytes, "{kept} bytes kept");
    assert!(flood.stderr_dropped > 0, "it did flood");
    // What could be kept is read within a few turns; then nothing is waited for.
    assert!(
        flood.stderr_waited < Duration::from_millis(100),
        "the runner waited {:?} for a flood it dropped",
        flood.stderr_waited
    );
}
