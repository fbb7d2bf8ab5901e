//! A match's replay and classic log as they are downloaded: the compact replay (v2),
//! gzipped as stored for a browser and inflated for a client that takes no gzip, the
//! classic log printed from it, and a replay stored before v2 still opening.

use axum::http::StatusCode;

use crate::common::Client;

/// The replay of finished match `id` and its classic log, as `anon` downloads them.
pub async fn the_replay_and_its_classic_log_are_served(anon: &mut Client, id: i64) {
    let gzipped = anon
        .send(
            axum::http::Request::get(format!("/api/matches/{id}/replay"))
                .header("accept-encoding", "gzip, deflate, br")
                .body(axum::body::Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(gzipped.headers["content-encoding"], "gzip");
    assert_eq!(gzipped.headers["vary"], "accept-encoding");
    let plain = anon.get(&format!("/api/matches/{id}/replay")).await;
    assert!(plain.headers.get("content-encoding").is_none());
    assert!(plain.body.contains(r#""version":2"#), "the compact replay");
    // Played by real bots through the runner, every turn but the first is derived.
    let compact: bottlebats::replay_v2::CompactReplay = serde_json::from_str(&plain.body).unwrap();
    let keyframes = compact.turns.iter().filter(|r| r.k.is_some()).count();
    assert_eq!(
        keyframes,
        compact.turns.len().div_ceil(250),
        "keyframes only when due"
    );
    let replay = bottlebats::replay_v2::read_any(&plain.body).unwrap();
    let mut classic = Vec::new();
    replay.write_classic_log(&mut classic).unwrap();
    let log = anon.get(&format!("/matches/{id}/log.txt")).await;
    assert!(log.body.starts_with("# STEP: 0\n"));
    assert_eq!(
        log.body.as_bytes(),
        classic,
        "the classic log of the compact replay"
    );
}

/// A match stored before the compact replay (its replay in v1's JSON) still opens: its
/// replay is served as it is (the viewer reads both) and its classic log is the same.
#[tokio::test]
async fn a_match_stored_with_a_version_1_replay_still_opens() {
    let (c, _) = super::ladder("v1-replay", 1).await;
    let (id, stored): (i64, Vec<u8>) = sqlx::query_as(
        "select id, replay from matches where status = 'finished' order by id limit 1",
    )
    .fetch_one(&c.state.db)
    .await
    .unwrap();
    let v2 = String::from_utf8(server::compress::gunzip(&stored).unwrap()).unwrap();
    let v1 = bottlebats::replay_v2::read_any(&v2).unwrap();
    let mut classic = Vec::new();
    v1.write_classic_log(&mut classic).unwrap();
    let old = server::compress::gzip(v1.to_json().as_bytes());
    sqlx::query("update matches set replay = $1 where id = $2")
        .bind(&old)
        .bind(id)
        .execute(&c.state.db)
        .await
        .unwrap();
    let mut anon = c.stranger();
    let served = anon.get(&format!("/api/matches/{id}/replay")).await;
    assert!(
        served.body.contains(r#""version":1"#),
        "served as it is stored"
    );
    assert_eq!(
        bottlebats::Replay::from_json(&served.body).unwrap().turns,
        {
            let mut turns = v1.turns.clone();
            turns.iter_mut().for_each(|t| t.events.sends.clear());
            turns
        }
    );
    let log = anon.get(&format!("/matches/{id}/log.txt")).await;
    assert_eq!(log.status, StatusCode::OK);
    assert_eq!(log.body.as_bytes(), classic, "the same classic log");
}
