//! What the API and the pages answer to what goes wrong: an internal error, a
//! malformed address.

use crate::common::Client;

use axum::http::StatusCode;

#[tokio::test]
async fn the_api_hides_an_internal_error_behind_a_plain_message() {
    let mut c = Client::new().await;
    // The database going away is the platform's trouble: the client hears that
    // something went wrong, never the driver's words.
    c.state.db.close().await;
    for path in ["/api/matches", "/api/matches/1", "/api/bots/someone"] {
        let r = c.get(path).await;
        assert_eq!(r.status, StatusCode::INTERNAL_SERVER_ERROR, "{path}");
        let v: serde_json::Value = serde_json::from_str(&r.body).expect("JSON");
        let said = v["error"].as_str().unwrap();
        assert!(
            said.contains("The server ran into a problem"),
            "{path}: {said}"
        );
        assert!(!said.to_lowercase().contains("pool"), "{path}: {said}");
    }
}

#[tokio::test]
async fn a_malformed_address_gets_the_sites_own_answer() {
    let mut c = Client::new().await;
    for path in [
        "/matches?cursor=abc",
        "/matches/abc",
        "/bots/%00",
        "/users/x%00y",
        "/matches?user=%00",
    ] {
        let r = c.get(path).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{path}");
        assert!(
            r.body
                .contains("<h1>That request could not be handled</h1>")
                && r.body.contains("The request could not be read"),
            "{path}: the error page, not a bare line: {}",
            r.body
        );
    }
    for path in [
        "/api/matches?cursor=abc",
        "/api/matches/abc",
        "/api/bots/%00",
        "/api/matches?bot=%00",
    ] {
        let r = c.get(path).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{path}");
        let v: serde_json::Value = serde_json::from_str(&r.body).expect("JSON");
        assert!(
            v["error"].as_str().unwrap().contains("could not be read"),
            "{path}: {}",
            r.body
        );
    }
    // What was fine stays fine.
    assert_eq!(c.get("/api/matches?cursor=5").await.status, StatusCode::OK);
}
