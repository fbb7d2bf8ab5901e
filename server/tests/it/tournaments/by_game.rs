//! Tournaments of a game of four (Vindinium, open beside Bottle Bats): its groups are
//! of four unless told otherwise, and duels, which it cannot play, are refused saying
//! so and pointing at the format.

use serde_json::json;

use crate::builds::PW;
use crate::challenges::api_json;
use crate::common::Client;
use crate::ladder::by_game::{bot_of, open_both};

/// Both games open with their maps; olga, an organizer, logged in; and a bot of each
/// game for each of four owners.
pub async fn organizer_site() -> Client {
    let mut c = Client::new().await;
    let db = c.state.db.clone();
    open_both(&db).await;
    c.register("olga", PW).await;
    sqlx::query("update users set is_admin = true where name = 'olga'")
        .execute(&db)
        .await
        .unwrap();
    for owner in ["ann", "ben", "cat", "dan"] {
        sqlx::query("insert into users (name, password_hash) values ($1, 'none')")
            .bind(owner)
            .execute(&db)
            .await
            .unwrap();
        bot_of(&db, owner, &format!("bb-{owner}"), "bottlebats", 25.0).await;
        bot_of(&db, owner, &format!("vin-{owner}"), "vindinium", 25.0).await;
    }
    c
}

#[tokio::test]
async fn a_game_of_four_plays_groups_of_four_unless_told_otherwise() {
    let mut c = organizer_site().await;
    let token = c.new_token("t").await;
    let ask = |format: &str| json!({"name": "Heroes", "game": "vindinium", "participants": "all", "format": format});
    for (ask, says) in [
        (
            ask("round-robin"),
            "A game of Vindinium has 4 players, and a round robin is played in duels: play free-for-all groups of 4.",
        ),
        (
            ask("swiss"),
            "A game of Vindinium has 4 players, and a Swiss tournament is played in duels: play free-for-all groups of 4.",
        ),
        (
            {
                let mut a = ask("groups");
                a["players_per_game"] = json!(3);
                a
            },
            "A game of Vindinium has 4 players: play groups of that size.",
        ),
    ] {
        let r = api_json(&mut c, "/api/tournaments", &token, &ask).await;
        assert_eq!(r.status, 400, "{ask}: {}", r.body);
        assert_eq!(r.json()["error"], says, "{ask}");
    }
    let r = api_json(&mut c, "/api/tournaments", &token, &ask("groups")).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.json()["id"].as_i64().unwrap();
    let t = c.get(&format!("/api/tournaments/{id}")).await.json();
    assert_eq!(t["players_per_game"], 4, "{t}");
    assert_eq!(t["standings"].as_array().map(Vec::len), Some(4), "{t}");
}
