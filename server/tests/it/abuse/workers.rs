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
