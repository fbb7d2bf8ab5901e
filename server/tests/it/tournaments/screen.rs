//! A tournament on the live channel: `/api/live` gives its games in the order queued,
//! the points over the games shown so far between them, and once every game is shown
//! and it is over its final standings; its own big screen, which its page opens.

use serde_json::{json, Value};

use super::site;
use crate::challenges::api_json;
use crate::common::{self, Client};

async fn live(c: &mut Client, id: i64, after: i64) -> Value {
    let r = c
        .get(&format!("/api/live?tournament={id}&after={after}"))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()
}

/// The points of the standings in `v`.
fn points(v: &Value) -> f64 {
    (v["tournament"]["standings"].as_array().unwrap().iter())
        .map(|r| r["points"].as_f64().unwrap())
        .sum()
}

#[tokio::test]
async fn the_channel_shows_a_tournaments_games_in_order_with_the_standings_then_the_final() {
    let (mut c, b, token) = site("channel").await;
    let ask = json!({"name": "Cup", "participants": ["idle", "random", "greedy"],
                     "format": "round-robin", "maps": ["ring-2p"], "seed": 3});
    let r = api_json(&mut c, "/api/tournaments", &token, &ask).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.json()["id"].as_i64().unwrap();
    let games: Vec<i64> =
        sqlx::query_scalar("select id from matches where tournament_id = $1 order by id")
            .bind(id)
            .fetch_all(&c.state.db)
            .await
            .unwrap();
    assert_eq!(games.len(), 6);

    // The channel, asked without a tournament, turns to the one running, from its start.
    let v = c.stranger().get("/api/live?after=999999").await.json();
    assert_eq!(v["tournament"]["id"], id, "{v}");
    assert_eq!(v["match"], games[0]);
    assert_eq!(v["tournament"]["shown"], 0);
    assert_eq!(
        v["tournament"]["screen"],
        format!("/tournaments/{id}/screen")
    );
    // Past its last game while it still runs: nothing yet, and not over.
    let v = live(&mut c, id, games[5]).await;
    assert_eq!(
        (v["match"].clone(), v["tournament"]["over"].clone()),
        (Value::Null, json!(false))
    );

    let w = common::worker(&b, "channel", 60);
    for _ in 0..6 {
        let m = w.claim().await.unwrap().expect("a game of the tournament");
        let result = w.play(&m).await.unwrap().unwrap();
        assert!(w.record(&m, &result).await.unwrap());
        server::tournaments::advance(&c.state.db, m.tournament.unwrap())
            .await
            .unwrap();
    }

    // Game after game, in order: the points counted are those of the games shown only.
    for (k, &shown) in games.iter().enumerate().take(5) {
        let v = live(&mut c, id, shown).await;
        assert_eq!(v["match"], games[k + 1], "after game {k}: {v}");
        assert_eq!(v["tournament"]["shown"], k + 1);
        assert_eq!(v["tournament"]["over"], false);
        assert_eq!(points(&v), (k + 1) as f64, "one point a duel: {v}");
        assert_eq!(v["turns"], format!("/matches/{}/turns", games[k + 1]));
    }
    // After the last: the final standings, those of the tournament's page.
    let v = live(&mut c, id, games[5]).await;
    assert_eq!(v["match"], Value::Null);
    assert_eq!(v["tournament"]["over"], true, "{v}");
    assert_eq!(points(&v), 6.0);
    let api = c.get(&format!("/api/tournaments/{id}")).await.json();
    let names = |rows: &Value, key: &str| -> Vec<String> {
        (rows.as_array().unwrap().iter())
            .map(|r| r[key].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(
        names(&v["tournament"]["standings"], "bot"),
        names(&api["standings"], "bot")
    );
    // Over: the channel asked without it goes back to the ladder.
    assert_eq!(c.get("/api/live").await.json()["tournament"], Value::Null);

    // Its own big screen, which its page's "Big screen" opens.
    let page = c.get(&format!("/tournaments/{id}")).await.body;
    assert!(page.contains(&format!("href=\"/tournaments/{id}/screen\"")));
    let screen = c.get(&format!("/tournaments/{id}/screen")).await;
    assert_eq!(screen.status, 200);
    assert!(screen.body.contains(&format!("data-tournament=\"{id}\"")));
    assert!(screen.body.contains("<title>Live · Cup</title>"));
    assert_eq!(c.get("/tournaments/999/screen").await.status, 404);
    // The channel is a link of the navigation, on every page.
    for path in ["/", "/tournaments", "/rules", "/no-such-page"] {
        let body = c.stranger().get(path).await.body;
        assert!(body.contains("<a href=\"/live\""), "{path}");
    }
    assert_eq!(c.get("/api/live?tournament=999").await.status, 404);
}
