//! What a tournament request is refused for, and by whom; cancelling one.

use serde_json::{json, Value};

use super::site;
use crate::builds::PW;
use crate::challenges::api_json;
use crate::common::Client;

async fn refused(c: &mut Client, token: &str, ask: Value) -> (u16, String) {
    let r = api_json(c, "/api/tournaments", token, &ask).await;
    let message = r.json()["error"].as_str().unwrap_or_default().to_string();
    (r.status.as_u16(), message)
}

#[tokio::test]
async fn bad_requests_are_refused_with_the_reason_and_only_organizers_make_tournaments() {
    let (mut c, _b, token) = site("refused").await;
    let rr = |extra: Value| {
        let mut ask = json!({"name": "Final", "participants": "all", "format": "round-robin"});
        for (k, v) in extra.as_object().unwrap() {
            ask[k] = v.clone();
        }
        ask
    };
    let cases: Vec<(Value, u16, &str)> = vec![
        (rr(json!({"format": "knockout"})), 422, "format"),
        (rr(json!({"participants": "everyone"})), 400, "\"all\""),
        (
            rr(json!({"participants": 3})),
            422,
            "\"all\", {\"top\": K} or a list of bot names",
        ),
        (
            rr(json!({"participants": ["idle", "nobody"]})),
            409,
            "`nobody` is not a bot that plays",
        ),
        (rr(json!({"participants": ["idle"]})), 409, "at least 2"),
        (rr(json!({"participants": {"top": 1}})), 409, "at least 2"),
        (rr(json!({"players_per_game": 3})), 400, "duels"),
        (
            rr(json!({"format": "groups", "players_per_game": 9})),
            400,
            "2 to 8 players",
        ),
        (
            rr(json!({"format": "groups", "players_per_game": 3, "maps": ["ring-2p"]})),
            400,
            "is for 2 players",
        ),
        (
            rr(json!({"format": "groups", "players_per_game": 4, "games": 0})),
            400,
            "1 to 5000 games",
        ),
        (
            rr(json!({"format": "swiss", "rounds": 51})),
            400,
            "1 to 50 rounds",
        ),
        (rr(json!({"games": 3})), 400, "`games` is for groups"),
        (rr(json!({"maps": ["atlantis"]})), 400, "no map `atlantis`"),
        (
            rr(json!({"maps": ["ring-2p", "ring-2p"]})),
            400,
            "named twice",
        ),
        (rr(json!({"name": ""})), 400, "1 to 100 characters"),
        (
            rr(json!({"name": "x".repeat(101)})),
            400,
            "1 to 100 characters",
        ),
        (rr(json!({"surprise": 1})), 422, "unknown field"),
    ];
    for (ask, status, says) in cases {
        let (got, message) = refused(&mut c, &token, ask.clone()).await;
        assert_eq!(got, status, "{ask}: {message}");
        assert!(message.contains(says), "{ask}: {message}");
    }
    only_organizers(&c, rr(json!({}))).await;
}

/// A contestant, and nobody at all, are refused.
async fn only_organizers(c: &Client, ask: Value) {
    let mut bob = c.stranger();
    bob.register("bob", PW).await;
    let bob_token = bob.new_token("b").await;
    let (status, message) = refused(&mut bob, &bob_token, ask.clone()).await;
    assert_eq!(status, 403, "{message}");
    assert!(message.contains("organizers"));
    let (status, _) = refused(&mut bob, "not-a-token", ask).await;
    assert_eq!(status, 401);
    assert_eq!(
        bob.post(
            "/admin/tournaments",
            &[("name", "x"), ("format", "swiss"), ("who", "all")]
        )
        .await
        .status,
        403
    );
}

#[tokio::test]
async fn a_cancelled_tournament_voids_its_games_and_at_most_four_run_at_once() {
    let (mut c, _b, token) = site("cancel").await;
    let ask = json!({"name": "Final", "participants": "all", "format": "round-robin",
                     "maps": ["ring-2p"]});
    let mut ids = Vec::new();
    for _ in 0..4 {
        let r = api_json(&mut c, "/api/tournaments", &token, &ask).await;
        assert_eq!(r.status, 201, "{}", r.body);
        ids.push(r.json()["id"].as_i64().unwrap());
    }
    let (status, message) = refused(&mut c, &token, ask.clone()).await;
    assert_eq!(status, 429, "{message}");
    assert!(message.contains("at most 4 run at once"), "{message}");

    let r = api_json(
        &mut c,
        &format!("/api/tournaments/{}/cancel", ids[0]),
        &token,
        &json!({}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let v = c.get(&format!("/api/tournaments/{}", ids[0])).await.json();
    assert_eq!(v["status"], "cancelled");
    assert!(v["matches"]
        .as_array()
        .unwrap()
        .iter()
        .all(|m| m["status"] == "void"));
    let again = api_json(
        &mut c,
        &format!("/api/tournaments/{}/cancel", ids[0]),
        &token,
        &json!({}),
    )
    .await;
    assert_eq!(again.status, 409);
    // The page's button does the same.
    let r = c
        .post(&format!("/admin/tournaments/{}/cancel", ids[1]), &[])
        .await;
    assert_eq!(r.status, 303);
    assert!(c
        .get(&format!("/tournaments/{}", ids[1]))
        .await
        .body
        .contains("Cancelled"));
    // Room for a new one now.
    assert_eq!(
        api_json(&mut c, "/api/tournaments", &token, &ask)
            .await
            .status,
        201
    );
    assert_eq!(c.get("/api/tournaments/999").await.status, 404);
}
