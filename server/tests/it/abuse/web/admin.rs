//! The organizer's page asked by others and with hostile fields: the bot search
//! answers organizers only, with a bounded list for any text; the deadline form with a
//! long field or a past deadline unconfirmed changes nothing.

use axum::http::StatusCode;

use super::PW;
use crate::common::Client;

/// A site with 500 bots of 500 owners, all named `bot…` and `owner…`, and an organizer.
async fn crowded() -> Client {
    let mut c = Client::new().await;
    c.register("olga", PW).await;
    sqlx::query("update users set is_admin = true where name = 'olga'")
        .execute(&c.state.db)
        .await
        .unwrap();
    sqlx::query(
        "with u as (insert into users (name, password_hash) \
                    select 'owner' || n, '!' from generate_series(1, 500) n returning id, name) \
         insert into bots (owner_id, name, mu, sigma) \
             select id, replace(name, 'owner', 'bot'), $1, $2 from u",
    )
    .bind(server::ranker::rating::MU)
    .bind(server::ranker::rating::SIGMA)
    .execute(&c.state.db)
    .await
    .unwrap();
    c
}

#[tokio::test]
async fn the_bot_search_is_for_organizers_and_bounded() {
    let mut c = crowded().await;
    let mut anon = c.stranger();
    assert_eq!(
        anon.get("/admin/bots/find?q=bot").await.status,
        StatusCode::SEE_OTHER
    );
    let mut carl = c.stranger();
    carl.register("carl", "a normal password").await;
    let r = carl.get("/admin/bots/find?q=bot").await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    assert!(!r.body.contains("bot1"), "{}", r.body);

    // Every bot matches: the answer is bounded all the same, as is the page's list.
    let all = c.get("/admin/bots/find?q=o").await.json();
    assert_eq!(all.as_array().unwrap().len(), 50);
    let page = c.get("/admin").await.body;
    assert_eq!(page.matches("<option value=\"bot").count(), 300);
    // Wildcards are text; a text longer than any name is refused before any query.
    assert_eq!(
        c.get("/admin/bots/find?q=%25").await.json(),
        serde_json::json!([])
    );
    let long = format!("/admin/bots/find?q={}", "b".repeat(5_000));
    assert_eq!(c.get(&long).await.status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn the_deadline_form_takes_no_huge_or_unconfirmed_past_deadline() {
    let mut c = crowded().await;
    // Far past the field's length: refused, the form given back with what was typed
    // cut to the field's 40 characters, and no cookie carrying it.
    let long = "2".repeat(10_000);
    let r = c
        .post("/admin/contest", &[("action", "set"), ("deadline", &long)])
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert!(r.body.contains(&format!("value=\"{}\"", "2".repeat(40))));
    assert!(!r.body.contains(&"2".repeat(41)));
    let cookies = r.set_cookies().join("; ");
    assert!(cookies.len() < 1000, "{} bytes of cookies", cookies.len());
    // Past deadlines, the earliest there are, wait for a confirmation.
    for deadline in ["1970-01-01 00:00", "0000-01-01 00:00"] {
        let r = c
            .post(
                "/admin/contest",
                &[("action", "set"), ("deadline", deadline), ("freeze", "on")],
            )
            .await;
        assert_eq!(r.status, StatusCode::CONFLICT, "{deadline}");
    }
    let contest = server::contest::load(&c.state.db).await.unwrap();
    assert_eq!(contest.deadline, None);
}
