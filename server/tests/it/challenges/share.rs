//! The workers' share: ranked matches first, but a challenge's game whenever
//! challenges had less than 15% of the workers' time over the latest matches; and
//! a challenge's game at once when no ranked match waits.

use serde_json::json;
use server::ranker::{self, matchmaking::Settings};

use super::{api_json, site};
use crate::common;

/// Adds `n` finished matches of 30 s each (of `challenge`, or ranked), started
/// `minutes_ago` minutes ago and one a minute before each other.
async fn history(db: &sqlx::PgPool, n: i32, minutes_ago: i32, challenge: Option<i64>) {
    sqlx::query(
        "insert into matches (status, map_id, challenge_id, started_at, finished_at, replay) \
         select 'finished', (select min(id) from maps), $3, \
             now() - make_interval(mins => $2 + i), \
             now() - make_interval(mins => $2 + i) + interval '30 seconds', '\\x00' \
         from generate_series(0, $1 - 1) i",
    )
    .bind(n)
    .bind(minutes_ago)
    .bind(challenge)
    .execute(db)
    .await
    .unwrap();
}

#[tokio::test]
async fn challenges_get_a_share_of_the_workers_while_ranked_matches_wait() {
    let (mut c, b, token) = site("share", common::test_config()).await;
    let db = c.state.db.clone();
    assert_eq!(
        ranker::schedule(&db, 2, &Settings::default())
            .await
            .unwrap(),
        2
    );
    let r = api_json(
        &mut c,
        "/api/challenges",
        &token,
        &json!({"bot": "mine", "opponents": ["idle"], "games": 2}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.json()["id"].as_i64().unwrap();
    // The scheduler's buffer counts ranked matches only.
    assert_eq!(
        ranker::schedule(&db, 2, &Settings::default())
            .await
            .unwrap(),
        0
    );
    let w = common::worker(&b, "share", 40);
    let put_back = || async {
        sqlx::query("update matches set status = 'queued', started_at = null, lease_owner = null where status = 'running'")
            .execute(&db)
            .await
            .unwrap();
    };

    // Lately all ranked: the challenge's game goes first, though queued after.
    history(&db, 20, 60, None).await;
    assert!(!w.claim().await.unwrap().unwrap().ranked);
    put_back().await;

    // A quarter of the latest time to challenges: ranked first again.
    history(&db, 5, 10, Some(id)).await;
    assert!(w.claim().await.unwrap().unwrap().ranked);
    put_back().await;
    // Two in twenty (10%): challenges are owed time.
    sqlx::query("delete from matches where id in (select id from matches where challenge_id is not null and status = 'finished' order by id limit 3)")
        .execute(&db)
        .await
        .unwrap();
    assert!(!w.claim().await.unwrap().unwrap().ranked);
    put_back().await;

    // With no ranked match waiting, a challenge's game is played whatever the share.
    history(&db, 10, 5, Some(id)).await;
    sqlx::query("update matches set status = 'void', void_reason = 'test' where status = 'queued' and challenge_id is null")
        .execute(&db)
        .await
        .unwrap();
    assert!(!w.claim().await.unwrap().unwrap().ranked);
}
