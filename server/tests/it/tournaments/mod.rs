//! Tournaments and the contest's end over HTTP: a tournament played by real bots
//! through the API (`played.rs`: standings, exports, the unranked guarantee, the
//! workers' order, exactly once), its refusals (`refused.rs`), and the submission
//! deadline (`deadline.rs`).

mod by_game;
mod deadline;
mod form;
mod played;
mod refused;
mod screen;

use server::builds::Builder;

use crate::builds::PW;
use crate::common::{self, Client};

/// A site with the house bots built (idle, random, greedy, strong), `ring-2p` and
/// `duel-2p` enabled, and the organizer olga logged in; her API token.
pub async fn site(test: &str) -> (Client, Builder, String) {
    let mut c = Client::new().await;
    let b = common::house_ladder(&c.state.db, &format!("tournaments-{test}"), "ring-2p").await;
    sqlx::query("update maps set enabled = (name in ('ring-2p', 'duel-2p'))")
        .execute(&c.state.db)
        .await
        .unwrap();
    c.register("olga", PW).await;
    sqlx::query("update users set is_admin = true where name = 'olga'")
        .execute(&c.state.db)
        .await
        .unwrap();
    let token = c.new_token("tournaments").await;
    (c, b, token)
}
