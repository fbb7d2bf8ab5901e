//! The API, the health check and the metrics: refusals a script can read, no
//! database error named, workers named only to the holder of the metrics token.

use axum::body::Body;
use axum::http::{Request, StatusCode};

use super::PW;
use crate::common::{self, Client};

#[tokio::test]
async fn every_api_refusal_is_json() {
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    let token = c.new_token("laptop").await;
    let mut api = c.stranger();
    let json_error = |r: &common::Resp| {
        let v: serde_json::Value = serde_json::from_str(&r.body)
            .unwrap_or_else(|_| panic!("not JSON ({}): {}", r.status, r.body));
        v["error"].as_str().unwrap().to_string()
    };
    let cases = [
        (
            Request::post("/api/bots"),
            StatusCode::UNAUTHORIZED,
            "Bearer",
        ),
        (
            Request::get("/api/no/such/thing"),
            StatusCode::NOT_FOUND,
            "nothing",
        ),
        (
            Request::delete("/api/leaderboard").header("authorization", format!("Bearer {token}")),
            StatusCode::METHOD_NOT_ALLOWED,
            "method",
        ),
        (
            Request::get("/api/me").header("authorization", "Bearer bbt_nope"),
            StatusCode::UNAUTHORIZED,
            "Invalid API token",
        ),
        (Request::get("/api/me"), StatusCode::UNAUTHORIZED, "Bearer"),
        (
            Request::get("/api/matches?cursor=abc"),
            StatusCode::BAD_REQUEST,
            "could not be read",
        ),
    ];
    for (req, status, says) in cases {
        let r = api.send(req.body(Body::empty()).unwrap()).await;
        assert_eq!(r.status, status, "{}", r.body);
        let error = json_error(&r);
        assert!(error.contains(says), "{error}");
    }
    // The scheme's case does not matter.
    let r = api
        .send(
            Request::get("/api/me")
                .header("authorization", format!("bearer {token}"))
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
}

#[tokio::test]
async fn the_health_check_names_no_database_error() {
    let c = Client::new().await;
    let name: String = sqlx::query_scalar("select current_database()")
        .fetch_one(&c.state.db)
        .await
        .unwrap();
    // The database goes away under the site.
    let admin = crate::common::fresh_db().await;
    c.state.db.close().await;
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "drop database \"{name}\" with (force)"
    )))
    .execute(&admin)
    .await
    .unwrap();
    let mut v = c.stranger();
    let r = v.get("/healthz").await;
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(!r.body.contains(&name), "{}", r.body);
    assert!(r.body.contains("\"status\":\"error\""), "{}", r.body);
}

#[tokio::test]
async fn metrics_need_the_token_when_one_is_set_and_are_read_at_most_every_ten_seconds() {
    let c = Client::new().await;
    sqlx::query("insert into workers (name, heartbeat_at) values ('host-a-1', now())")
        .execute(&c.state.db)
        .await
        .unwrap();
    let mut v = c.stranger();
    let r = v.get("/metrics").await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.body.contains("bottlebats_workers 1"), "{}", r.body);
    assert!(
        !r.body.contains("host-a-1"),
        "public metrics name no worker"
    );
    // Read again at once: the ladder's state is the one read a moment ago.
    sqlx::query("insert into workers (name, heartbeat_at) values ('host-b-1', now())")
        .execute(&c.state.db)
        .await
        .unwrap();
    assert!(v
        .get("/metrics")
        .await
        .body
        .contains("bottlebats_workers 1"));

    let config = server::config::Config {
        metrics_token: Some("s3cret-metrics".into()),
        ..common::test_config()
    };
    let c = Client::with_config(config).await;
    sqlx::query("insert into workers (name, heartbeat_at) values ('host-c-1', now())")
        .execute(&c.state.db)
        .await
        .unwrap();
    let mut v = c.stranger();
    assert_eq!(v.get("/metrics").await.status, StatusCode::UNAUTHORIZED);
    let r = v
        .send(
            Request::get("/metrics")
                .header("authorization", "Bearer s3cret-metrics")
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(
        r.body
            .contains("worker_heartbeat_age_seconds{worker=\"host-c-1\"}"),
        "{}",
        r.body
    );
}

/// The program weighs tens of MiB: one address gets it a few times, then is told to
/// wait, while another address still gets it.
#[tokio::test]
async fn the_program_downloads_a_few_times_an_hour_per_address() {
    let mut c = crate::common::Client::new().await;
    let allowed = server::web::guard::DOWNLOADS_PER_ADDRESS;
    for i in 0..allowed {
        let (status, _) = c.get_bytes("/downloads/bottlebats").await;
        assert_eq!(status, axum::http::StatusCode::OK, "download {i}");
    }
    let r = c.get("/downloads/bottlebats").await;
    assert_eq!(r.status, axum::http::StatusCode::TOO_MANY_REQUESTS);
    assert!(
        r.body.contains("Too many downloads of the program"),
        "{}",
        r.body
    );
    let mut other = c.stranger();
    let (status, _) = other.get_bytes("/downloads/bottlebats").await;
    assert_eq!(
        status,
        axum::http::StatusCode::OK,
        "another address is not held back"
    );
}
