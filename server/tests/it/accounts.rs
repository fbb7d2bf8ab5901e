//! Accounts end to end through the web app, against a real PostgreSQL: register, log
//! in and out, sessions, CSRF, rate limits, tokens, password change, deletion, and bad
//! input of every kind.

use crate::common;

use axum::http::StatusCode;
use common::Client;

const PW: &str = "correct horse battery";

#[tokio::test]
async fn registering_logs_you_in_and_shows_your_profile() {
    let mut c = Client::new().await;
    let r = c.register("alice", PW).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    assert_eq!(r.location(), Some("/profile"));
    let session = r
        .set_cookies()
        .into_iter()
        .find(|c| c.starts_with("bb_session="))
        .unwrap();
    assert!(
        session.contains("HttpOnly") && session.contains("SameSite=Lax"),
        "{session}"
    );
    assert!(!session.contains("Secure"), "no Secure flag without https");
    let page = c.get("/profile").await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains("<h1>alice</h1>"));
    assert!(c.get("/").await.body.contains("Log out"));
}

#[tokio::test]
async fn cookies_are_secure_when_the_site_is_served_over_https() {
    let mut config = common::test_config();
    config.base_url = Some("https://bots.example.org".into());
    let mut c = Client::with_config(config).await;
    let r = c.register("alice", PW).await;
    assert!(
        r.set_cookies().iter().all(|c| c.contains("Secure")),
        "{:?}",
        r.set_cookies()
    );
}

#[tokio::test]
async fn names_are_unique_whatever_their_case() {
    let mut c = Client::new().await;
    c.register("Alice", PW).await;
    let mut other = c.stranger();
    let r = other.register("aLICE", PW).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert!(
        r.body
            .contains("The name <code>aLICE</code> is taken; choose another."),
        "{}",
        r.body
    );
    assert!(!other.cookies.contains_key("bb_session"));
}

#[tokio::test]
async fn bad_registrations_say_what_is_wrong_and_store_nothing() {
    let mut c = Client::new().await;
    let long = "x".repeat(300);
    let cases: Vec<(&str, &str, &str, &str)> = vec![
        ("a", PW, PW, "A name is 2 to 32 letters"),
        (
            &long,
            PW,
            PW,
            "That name has 300 characters; a name is 2 to 32 letters",
        ),
        (
            "<script>alert(1)</script>",
            PW,
            PW,
            "A name is 2 to 32 letters",
        ),
        (
            "bob'; drop table users; --",
            PW,
            PW,
            "A name is 2 to 32 letters",
        ),
        ("bob", "short", "short", "at least 8 characters"),
        ("bob", &long, &long, "at most 256 characters"),
        ("bob", PW, "something else", "The two passwords differ."),
    ];
    for (name, pw, pw2, message) in cases {
        let r = c
            .post(
                "/register",
                &[("name", name), ("password", pw), ("password2", pw2)],
            )
            .await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{name}");
        assert!(r.body.contains(message), "{name}: expected `{message}`");
        assert!(
            !r.body.contains("<script>alert"),
            "the name is escaped when shown back"
        );
    }
    let users: i64 = sqlx::query_scalar("select count(*) from users")
        .fetch_one(&c.state.db)
        .await
        .unwrap();
    assert_eq!(users, 0);
}

#[tokio::test]
async fn logging_out_ends_the_session_even_for_a_replayed_cookie() {
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    let stolen = c.cookies["bb_session"].clone();
    let r = c.post("/logout", &[]).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    assert!(
        !c.cookies.contains_key("bb_session"),
        "the cookie is removed"
    );
    let mut thief = c.stranger();
    thief.cookies.insert("bb_session".into(), stolen);
    let r = thief.get("/profile").await;
    assert_eq!(
        r.status,
        StatusCode::SEE_OTHER,
        "the old cookie opens nothing"
    );
    assert_eq!(r.location(), Some("/login?next=%2Fprofile"));
}

#[tokio::test]
async fn a_login_gets_a_new_session_id_and_goes_where_it_was_asked() {
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    let first = c.cookies["bb_session"].clone();
    let r = c
        .post(
            "/login",
            &[
                ("name", "ALICE"),
                ("password", PW),
                ("next", "/profile#tokens"),
            ],
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    assert_eq!(r.location(), Some("/profile#tokens"));
    let second = c.cookies["bb_session"].clone();
    assert_ne!(first, second);
    let mut old = c.stranger();
    old.cookies.insert("bb_session".into(), first);
    assert_eq!(
        old.get("/profile").await.status,
        StatusCode::SEE_OTHER,
        "the old session ended"
    );
    // Only local redirects.
    let r = c
        .post(
            "/login",
            &[
                ("name", "alice"),
                ("password", PW),
                ("next", "https://evil.example"),
            ],
        )
        .await;
    assert_eq!(r.location(), Some("/profile"));
}

#[tokio::test]
async fn an_unknown_name_and_a_wrong_password_get_the_same_answer() {
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    let mut v = c.stranger();
    let wrong = v.login("alice", "not the password").await;
    let unknown = v.login("nobody", "not the password").await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED);
    assert_eq!(unknown.status, StatusCode::UNAUTHORIZED);
    assert!(wrong.body.contains("Wrong name or password."));
    let strip = |b: &str| b.replace("alice", "").replace("nobody", "");
    assert_eq!(
        strip(&wrong.body),
        strip(&unknown.body),
        "the pages differ only in the name typed"
    );
    let sql = v.login("' or '1'='1", "' or '1'='1").await;
    assert_eq!(sql.status, StatusCode::UNAUTHORIZED);
    assert!(!v.cookies.contains_key("bb_session"));
}

#[tokio::test]
async fn failed_logins_are_limited_per_account_and_per_address() {
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    let mut v = c.stranger();
    for _ in 0..5 {
        assert!(v
            .login("alice", "wrong")
            .await
            .body
            .contains("Wrong name or password."));
    }
    let r = v.login("alice", PW).await;
    assert!(
        r.body.contains("Too many failed logins for this account"),
        "even the right password waits, from the address that failed"
    );
    // Another account from the same address still works until the address limit.
    c.stranger().register("bob", PW).await;
    let r = v.login("bob", PW).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    for i in 0..20 {
        v.login(&format!("ghost{i}"), "wrong").await;
    }
    let r = v.login("bob", PW).await;
    assert!(
        r.body.contains("Too many login attempts"),
        "the address is limited too"
    );
}

#[tokio::test]
async fn every_form_needs_the_csrf_token() {
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    let forms: &[(&str, &[(&str, &str)])] = &[
        (
            "/register",
            &[("name", "bob"), ("password", PW), ("password2", PW)],
        ),
        ("/login", &[("name", "alice"), ("password", PW)]),
        ("/logout", &[]),
        (
            "/profile/password",
            &[
                ("current", PW),
                ("password", "another one!"),
                ("password2", "another one!"),
            ],
        ),
        ("/profile/tokens", &[("name", "laptop")]),
        ("/profile/tokens/1/revoke", &[]),
        ("/profile/delete", &[("password", PW), ("confirm", "yes")]),
    ];
    for (path, fields) in forms {
        let r = c.post_raw(path, fields).await;
        assert_eq!(r.status, StatusCode::FORBIDDEN, "{path} without a token");
        let mut with_wrong: Vec<(&str, &str)> = fields.to_vec();
        with_wrong.push((
            "csrf",
            "0000000000000000000000000000000000000000000000000000000000000000",
        ));
        assert_eq!(
            c.post_raw(path, &with_wrong).await.status,
            StatusCode::FORBIDDEN,
            "{path} with a wrong token"
        );
    }
    assert_eq!(
        c.get("/profile").await.status,
        StatusCode::OK,
        "still logged in, nothing changed"
    );
}

#[tokio::test]
async fn tokens_are_made_shown_once_listed_used_and_revoked() {
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    let r = c
        .post("/profile/tokens", &[("name", "<b>laptop</b>")])
        .await;
    assert_eq!(r.status, StatusCode::OK);
    let token = r
        .body
        .split("id=\"new-token\">")
        .nth(1)
        .unwrap()
        .split('<')
        .next()
        .unwrap()
        .to_string();
    assert!(token.starts_with("bbt_") && token.len() == 68, "{token}");
    assert!(
        r.body.contains("&#60;b&#62;laptop&#60;/b&#62;")
            || r.body.contains("&lt;b&gt;laptop&lt;/b&gt;")
    );
    let stored: Vec<u8> = sqlx::query_scalar("select token_hash from api_tokens")
        .fetch_one(&c.state.db)
        .await
        .unwrap();
    assert_eq!(stored.len(), 32, "only a hash is stored");
    assert!(!c.get("/profile").await.body.contains(&token), "shown once");

    let me = |token: &str| {
        axum::http::Request::get("/api/me")
            .header("authorization", format!("Bearer {token}"))
            .body(axum::body::Body::empty())
            .unwrap()
    };
    let mut api = c.stranger();
    let r = api.send(me(&token)).await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.body.contains("\"name\":\"alice\""), "{}", r.body);
    assert!(
        !c.get("/profile").await.body.contains(">never<"),
        "last use is shown"
    );

    let id: i64 = sqlx::query_scalar("select id from api_tokens")
        .fetch_one(&c.state.db)
        .await
        .unwrap();
    let mut thief = c.stranger();
    thief.register("mallory", PW).await;
    let r = thief
        .post(&format!("/profile/tokens/{id}/revoke"), &[])
        .await;
    assert!(
        r.body.contains("That token was already gone."),
        "another account cannot revoke it"
    );
    assert_eq!(api.send(me(&token)).await.status, StatusCode::OK);
    let r = c.post(&format!("/profile/tokens/{id}/revoke"), &[]).await;
    assert!(r.body.contains("The token was revoked."));
    assert_eq!(api.send(me(&token)).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        api.send(me("bbt_nonsense")).await.status,
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test]
async fn changing_the_password_needs_the_current_one() {
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    let new = "a brand new password";
    let r = c
        .post(
            "/profile/password",
            &[("current", "wrong"), ("password", new), ("password2", new)],
        )
        .await;
    assert!(r.body.contains("Your current password is not right."));
    let r = c
        .post(
            "/profile/password",
            &[("current", PW), ("password", new), ("password2", new)],
        )
        .await;
    assert!(r.body.contains("Your password was changed."));
    let mut v = c.stranger();
    assert_eq!(v.login("alice", PW).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(v.login("alice", new).await.status, StatusCode::SEE_OTHER);
}

#[tokio::test]
async fn deleting_the_account_removes_it_and_its_sessions() {
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    let r = c.post("/profile/delete", &[("password", PW)]).await;
    assert!(r.body.contains("Tick the box to confirm."));
    let r = c
        .post(
            "/profile/delete",
            &[("password", "wrong"), ("confirm", "yes")],
        )
        .await;
    assert!(r.body.contains("That password is not right."));
    let r = c
        .post("/profile/delete", &[("password", PW), ("confirm", "yes")])
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    let left: i64 =
        sqlx::query_scalar("select (select count(*) from users) + (select count(*) from sessions)")
            .fetch_one(&c.state.db)
            .await
            .unwrap();
    assert_eq!(left, 0);
    assert_eq!(
        c.stranger().login("alice", PW).await.status,
        StatusCode::UNAUTHORIZED
    );
    // The name is free again.
    assert_eq!(
        c.stranger().register("alice", PW).await.status,
        StatusCode::SEE_OTHER
    );
}

#[tokio::test]
async fn over_long_fields_are_refused_cleanly() {
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    let long = "y".repeat(100_000);
    let r = c.post("/profile/tokens", &[("name", &long)]).await;
    assert_eq!(
        r.status,
        StatusCode::PAYLOAD_TOO_LARGE,
        "a 100 KB form is refused"
    );
    let r = c
        .post("/profile/tokens", &[("name", &"z".repeat(65))])
        .await;
    assert!(r
        .body
        .contains("Give the token a name of 1 to 64 characters"));
    let r = c
        .post("/login", &[("name", &"n".repeat(5000)), ("password", PW)])
        .await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn an_error_page_keeps_the_logged_in_visitors_header() {
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    for (path, status) in [
        ("/no/such/page", StatusCode::NOT_FOUND),
        ("/bots/nobody", StatusCode::NOT_FOUND),
        ("/matches/abc", StatusCode::BAD_REQUEST),
        ("/admin", StatusCode::FORBIDDEN),
        ("/static/none.css", StatusCode::NOT_FOUND),
    ] {
        let r = c.get(path).await;
        assert_eq!(r.status, status, "{path}");
        assert!(
            r.body.contains("class=\"who-name\">alice<") && !r.body.contains(">Log in<"),
            "{path} shows alice's header: {}",
            r.body
        );
        assert!(
            r.body.contains("action=\"/logout\"") && !r.body.contains("name=\"csrf\" value=\"\""),
            "{path}: she can log out from it (a form with her CSRF token)"
        );
        let other = c.stranger().get(path).await;
        if path == "/admin" {
            assert_eq!(other.status, StatusCode::SEE_OTHER, "to the login page");
            continue;
        }
        assert_eq!(other.status, status, "{path}");
        assert!(
            other.body.contains(">Log in<") && !other.body.contains("alice"),
            "{path} to a stranger: {}",
            other.body
        );
    }
    // The refusal a logged-in visitor meets most: a form from a stale page.
    let r = c.post_raw("/profile/tokens", &[("name", "laptop")]).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    assert!(r.body.contains("reload the page"));
    assert!(
        r.body.contains("class=\"who-name\">alice<")
            && !r.body.contains("name=\"csrf\" value=\"\""),
        "a CSRF refusal shows alice's header: {}",
        r.body
    );
    assert!(r.headers["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/html"));
}

#[tokio::test]
async fn pages_anyone_can_read_and_the_error_pages() {
    let mut c = Client::new().await;
    for (path, text) in [
        ("/", "Write a bot"),
        ("/rules", "Sieges"),
        ("/getting-started", "config.json"),
    ] {
        let r = c.get(path).await;
        assert_eq!(r.status, StatusCode::OK, "{path}");
        assert!(r.body.contains(text), "{path}");
        assert_eq!(r.headers["x-frame-options"], "DENY");
    }
    let r = c.get("/no/such/page").await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert!(r.body.contains("Page not found"));
    let health: serde_json::Value = serde_json::from_str(&c.get("/healthz").await.body).unwrap();
    assert_eq!(health["status"], "ok");
    assert_eq!(health["database"], "ok");
    assert_eq!(health["version"], server::VERSION);
    // The database going away: health says so, pages show the 500 page, not a panic.
    c.state.db.close().await;
    let r = c.get("/healthz").await;
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE);
    c.cookies.insert("bb_session".into(), "x".into());
    let r = c.get("/").await;
    assert_eq!(r.status, StatusCode::INTERNAL_SERVER_ERROR);
    assert!(r.body.contains("The server ran into a problem"));
}

/// A name past the limit is refused with the limit and its length, not cut short by
/// the form; the rule's code spans are shown as code, not as raw backticks.
#[tokio::test]
async fn an_over_long_name_is_refused_with_the_limit() {
    let mut c = Client::new().await;
    let form = c.get("/register").await.body;
    assert!(
        !form.contains("maxlength=\"32\""),
        "the browser would cut it silently"
    );
    let long = "a".repeat(300);
    let r = c.register(&long, PW).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.body);
    assert!(
        r.body
            .contains("That name has 300 characters; a name is 2 to 32"),
        "{}",
        r.body
    );
    assert!(r.body.contains("<code>-</code>"), "{}", r.body);
    assert!(!r.body.contains("`-`"), "{}", r.body);
    let users: i64 = sqlx::query_scalar("select count(*) from users")
        .fetch_one(&c.state.db)
        .await
        .unwrap();
    assert_eq!(users, 0);
    c.register("alice", PW).await;
    let up = c
        .upload(
            "/bots/new",
            &[("name", &"b".repeat(300))],
            Some(("bot.py", b"print()")),
        )
        .await;
    assert!(
        up.body
            .contains("That name has 300 characters; a bot name is 1 to 32"),
        "{}",
        up.body
    );
}

/// Refused forms give back what was typed, escaped and cut to the field's length,
/// but never a password.
#[tokio::test]
async fn refused_account_forms_keep_what_was_typed_but_never_a_password() {
    let mut c = Client::new().await;
    let r = c
        .post(
            "/register",
            &[
                ("name", "bob"),
                ("password", "Zq7-short"),
                ("password2", "Zq7-other!"),
            ],
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert!(r.body.contains("The two passwords differ."));
    assert!(r.body.contains("name=\"name\" value=\"bob\""));
    assert!(!r.body.contains("Zq7-"), "no password is echoed");
    c.register("bob", PW).await;
    let mut other = c.stranger();
    let r = other
        .post("/login", &[("name", "bob"), ("password", "Zq7-wrong-one")])
        .await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    assert!(r.body.contains("name=\"name\" value=\"bob\""));
    assert!(!r.body.contains("Zq7-"));
    let r = c
        .post(
            "/profile/password",
            &[
                ("current", "Zq7-not-it"),
                ("password", "Zq7-new-secret"),
                ("password2", "Zq7-new-secret"),
            ],
        )
        .await;
    assert!(r.body.contains("Your current password is not right."));
    assert!(!r.body.contains("Zq7-"));
    // A token's name past its 64 characters: refused, given back escaped and cut.
    let long = format!("<i>{}", "z".repeat(100));
    let r = c.post("/profile/tokens", &[("name", &long)]).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert!(r
        .body
        .contains("Give the token a name of 1 to 64 characters"));
    let kept = format!("<i>{}", "z".repeat(61));
    let shown = [
        kept.replace('<', "&#60;").replace('>', "&#62;"),
        kept.replace('<', "&lt;").replace('>', "&gt;"),
    ];
    assert!(
        shown.iter().any(|s| r
            .body
            .contains(&format!("value=\"{s}\" aria-invalid=\"true\""))),
        "{}",
        r.body
    );
    assert!(!r.body.contains(&"z".repeat(62)));
}
