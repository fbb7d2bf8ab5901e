//! Challenges and A/B tests over HTTP: games played by real bots in the sandbox
//! (`played.rs`: the API, the pages, the unranked guarantee, the pairing), the limits
//! and refusals (`limits.rs`), and the workers' share between ranked and challenge
//! matches (`share.rs`).

mod limits;
mod played;
mod share;

use serde_json::Value;
use server::builds::Builder;

use crate::builds::{greedy, PW};
use crate::common::{self, Client, Resp};

/// A site with the house bots built (idle, random, greedy, strong) on `ring-2p` and
/// `triad-3p`, and alice's bot `mine` (the greedy house bot's code) active; alice's
/// API token.
pub async fn site(test: &str, config: server::config::Config) -> (Client, Builder, String) {
    let mut c = Client::with_config(config).await;
    let b = common::house_ladder(&c.state.db, &format!("challenges-{test}"), "ring-2p").await;
    sqlx::query("update maps set enabled = (name in ('ring-2p', 'triad-3p'))")
        .execute(&c.state.db)
        .await
        .unwrap();
    c.register("alice", PW).await;
    c.upload("/bots/new", &[("name", "mine")], Some(("bot.py", greedy())))
        .await;
    while b.build_next().await.unwrap() {}
    let token = c.new_token("challenges").await;
    (c, b, token)
}

/// A JSON request with an API token.
pub async fn api_json(c: &mut Client, path: &str, token: &str, body: &Value) -> Resp {
    let req = axum::http::Request::post(path)
        .header("authorization", format!("Bearer {token}"))
        .header("content-type", "application/json")
        .body(axum::body::Body::from(body.to_string()))
        .unwrap();
    c.send(req).await
}

/// Every bot's rating and record, and the rating history's size: what an unranked
/// game must leave as it was.
pub async fn ladder_state(c: &Client) -> (Vec<(String, f64, f64, i32, i32, i32, i32)>, i64) {
    let bots = sqlx::query_as(
        "select name, mu, sigma, games, wins, losses, draws from bots order by name",
    )
    .fetch_all(&c.state.db)
    .await
    .unwrap();
    let history: i64 = sqlx::query_scalar("select count(*) from rating_history")
        .fetch_one(&c.state.db)
        .await
        .unwrap();
    (bots, history)
}
