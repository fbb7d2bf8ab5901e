//! Live streams hammered: one address cannot take every slot, a crowd on other
//! matches leaves room for the featured one, viewers of one match share one feed, and
//! a finished match's stream sends its stored rows in bounded chunks; the channel's
//! questions (`/api/live`, a tournament's screen) and its organizer's form mistyped on
//! purpose.

use std::net::IpAddr;
use std::sync::Arc;

use server::web::live_feed::{NoSlot, FEATURED_SLOTS, MAX_STREAMS, PER_ADDRESS};

use crate::common;

fn ip(n: u32) -> IpAddr {
    IpAddr::from(std::net::Ipv4Addr::from(0x0a00_0000 + n))
}

#[tokio::test]
async fn one_address_cannot_take_every_stream_and_the_featured_match_keeps_room() {
    let c = common::Client::new().await;
    let feeds = c.state.live_feeds.clone();
    // One address: its share, then refused, while others still get in.
    let mut held: Vec<_> = (0..PER_ADDRESS)
        .map(|_| feeds.slot(ip(1), false).unwrap())
        .collect();
    assert_eq!(feeds.slot(ip(1), false).err(), Some(NoSlot::Address));
    assert_eq!(feeds.slot(ip(1), true).err(), Some(NoSlot::Address));
    // Many addresses fill what other matches may take...
    let mut n = 2;
    while held.len() < MAX_STREAMS - FEATURED_SLOTS {
        held.push(feeds.slot(ip(n), false).unwrap());
        n += 1;
    }
    assert_eq!(feeds.slot(ip(n), false).err(), Some(NoSlot::Full));
    // ...and the featured match's viewers still get in, up to the whole.
    while held.len() < MAX_STREAMS {
        held.push(feeds.slot(ip(n), true).unwrap());
        n += 1;
    }
    assert_eq!(feeds.slot(ip(n), true).err(), Some(NoSlot::Full));
    // Slots come back when streams close.
    held.truncate(10);
    assert_eq!(feeds.open(), 10);
    assert!(feeds.slot(ip(1), false).is_ok());
}

/// IPv6 addresses count by their /64, as logins and downloads do: one host commonly
/// holds a whole /64, and three of its addresses took 48 streams of 48.
#[tokio::test]
async fn streams_from_one_ipv6_network_share_one_allowance() {
    let c = common::Client::new().await;
    let feeds = c.state.live_feeds.clone();
    let mut held = Vec::new();
    for host in 1..=3 {
        let ip: IpAddr = format!("2001:db8:5:5::{host}").parse().unwrap();
        for _ in 0..PER_ADDRESS {
            if let Ok(slot) = feeds.slot(ip, false) {
                held.push(slot);
            }
        }
    }
    assert_eq!(held.len(), PER_ADDRESS, "one /64's streams");
    let other: IpAddr = "2001:db8:5:6::1".parse().unwrap();
    assert!(feeds.slot(other, false).is_ok(), "the next /64 gets in");
}

#[tokio::test]
async fn viewers_share_a_feed_and_a_finished_match_comes_in_chunks() {
    let mut c = common::Client::new().await;
    let b = common::house_ladder(&c.state.db, "abuse-live", "ring-2p").await;
    let db = c.state.db.clone();
    // Two idle bots: the game lasts all its turns.
    let (map, idle): (i64, (i64, i64)) = (
        sqlx::query_scalar("select id from maps where name = 'ring-2p'")
            .fetch_one(&db)
            .await
            .unwrap(),
        sqlx::query_as("select id, active_version_id from bots where name = 'idle'")
            .fetch_one(&db)
            .await
            .unwrap(),
    );
    // A second bot playing idle's build.
    let twin: i64 = sqlx::query_scalar(
        "insert into bots (owner_id, name, mu, sigma) select owner_id, 'twin', mu, sigma \
         from bots where name = 'idle' returning id",
    )
    .fetch_one(&db)
    .await
    .unwrap();
    let version = server::ids::VersionId(idle.1);
    let seats = [
        (server::ids::BotId(idle.0), version),
        (server::ids::BotId(twin), version),
    ];
    let mut conn = db.acquire().await.unwrap();
    let id = server::ranker::insert_match(
        &mut conn,
        server::ids::MapId(map),
        &seats,
        server::ranker::Purpose::Ranked,
    )
    .await
    .unwrap();
    drop(conn);
    let one = c.state.live_feeds.feed(&db, id);
    let two = c.state.live_feeds.feed(&db, id);
    assert!(Arc::ptr_eq(&one, &two), "one feed per match");
    drop((one, two));
    let w = common::worker(&b, "live", 180);
    assert!(w.run_one().await.unwrap());
    let r = c.get(&format!("/matches/{id}/turns")).await;
    assert_eq!(r.status, 200);
    let mut rows = 0;
    let mut events = 0;
    for data in r.body.lines().filter_map(|l| l.strip_prefix("data: ")) {
        let v: serde_json::Value = serde_json::from_str(data).unwrap();
        if let Some(chunk) = v["rows"].as_array() {
            assert_eq!(v["from"], rows, "the chunks follow each other");
            assert!(chunk.len() <= 50, "{} rows in one event", chunk.len());
            rows += chunk.len();
            events += 1;
        }
    }
    assert_eq!(rows, 181, "every turn's row: {}", r.body.len());
    assert!(events >= 4);
    assert!(r.body.contains("event: end"));
}

#[tokio::test]
async fn the_channels_questions_and_form_take_nothing_but_what_they_expect() {
    let mut c = common::Client::new().await;
    // Any number, however large or negative, is a game after which none is left;
    // anything else is refused as a bad request, never a server error.
    for path in ["/api/live?after=-5", "/api/live?after=9223372036854775807"] {
        let r = c.get(path).await;
        assert_eq!(r.status, 200, "{path}: {}", r.body);
        assert_eq!(r.json()["match"], serde_json::Value::Null, "{path}");
    }
    for path in [
        "/api/live?after=1e99",
        "/api/live?after=0&after=1",
        "/api/live?tournament=x",
        "/api/live?tournament=99999999999999999999",
    ] {
        let r = c.get(path).await;
        assert_eq!(r.status, 400, "{path}: {}", r.body);
    }
    assert_eq!(c.get("/api/live?tournament=-1").await.status, 404);
    assert_eq!(c.get("/tournaments/x/screen").await.status, 400);
    assert_eq!(c.get("/tournaments/-1/screen").await.status, 404);

    // The organizer's form: a field of 100 kB, or a number past any range, changes
    // nothing.
    c.register("olga", "organizer password").await;
    sqlx::query("update users set is_admin = true where name = 'olga'")
        .execute(&c.state.db)
        .await
        .unwrap();
    let huge = "9".repeat(100_000);
    for (seconds, delay) in [
        (huge.as_str(), "0"),
        ("30", huge.as_str()),
        ("4294967296", "0"),
    ] {
        let r = c
            .post("/admin/live", &[("seconds", seconds), ("delay", delay)])
            .await;
        assert!(
            r.status.is_redirection() || r.status.is_client_error(),
            "{}",
            r.status
        );
    }
    let channel = server::live::channel(&c.state.db, 0).await.unwrap();
    assert_eq!(channel.seconds, server::live::DEFAULT_SECONDS);
    assert_eq!(channel.delay, 0);
}
