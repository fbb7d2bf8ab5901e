//! Logins, registrations, redirects, tokens and sessions: huge names, guesses in
//! parallel, forged addresses, open redirects, forged forms, a stolen session.

use axum::body::Body;
use axum::http::{Request, StatusCode};

use super::{from, PW};
use crate::common::{self, Client};

#[tokio::test]
async fn huge_login_names_are_refused_before_anything_is_kept() {
    // The server's own memory through this attack is measured in `abuse/http.rs`.
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    let mut v = from(&c, "203.0.113.1");
    for i in 0..50 {
        let name = format!("{i}{}", "n".repeat(1_900_000));
        let r = v.login(&name, "wrong password").await;
        assert_eq!(r.status, StatusCode::PAYLOAD_TOO_LARGE, "a 1.9 MB name");
    }
    for i in 0..300 {
        // Small enough for the form, longer than any account's name.
        let name = format!("{i}{}", "n".repeat(200));
        let r = v.login(&name, "wrong password").await;
        assert!(r.status.is_client_error());
    }
    let (logins, _, accounts, failing) = c.state.guard.sizes();
    assert!(
        logins <= 1 && accounts == 0 && failing == 0,
        "names were not kept: {:?}",
        c.state.guard.sizes()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_guesses_are_counted_before_the_password_check() {
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    // 30 guesses at once from two addresses, each with its form ready.
    let mut guessers = Vec::new();
    for i in 0..30 {
        let mut v = from(&c, &format!("203.0.113.{}", 10 + i % 2));
        v.csrf().await;
        guessers.push(v);
    }
    let start = std::sync::Arc::new(tokio::sync::Barrier::new(30));
    let guesses: Vec<_> = guessers
        .into_iter()
        .map(|mut v| {
            let start = start.clone();
            tokio::spawn(async move {
                start.wait().await;
                v.login("alice", "a wrong guess").await
            })
        })
        .collect();
    let mut checked = 0;
    for g in guesses {
        let r = g.await.unwrap();
        if r.body.contains("Wrong name or password.") {
            checked += 1;
        } else if !busy(&r) {
            assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS, "{}", r.body);
        }
    }
    // Five free failures; one more only if an address's first guess came after five
    // others were answered (an address with no failures yet is taken as the owner's).
    assert!(
        checked <= 6,
        "{checked} of 30 concurrent guesses were checked against the password"
    );
    // An address that guessed waits, even with the right password...
    let mut guesser = from(&c, "203.0.113.10");
    let r = login_when_free(&mut guesser, "alice", PW).await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS, "{}", r.body);
    assert!(r.body.contains("Too many failed logins for this account"));
    // ... but alice, from an address with no failures, is not locked out.
    let mut alice = from(&c, "198.51.100.200");
    let r = login_when_free(&mut alice, "alice", PW).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    assert!(alice.cookies.contains_key("bb_session"));
}

/// The server refused to queue a password check (every hasher of the process stayed
/// busy, as happens when the whole test suite registers accounts at once): no check
/// was made, and none was counted.
fn busy(r: &common::Resp) -> bool {
    r.status == StatusCode::SERVICE_UNAVAILABLE && r.body.contains("busy checking passwords")
}

/// A login, tried again while the server says it is too busy to check the password.
async fn login_when_free(v: &mut Client, name: &str, password: &str) -> common::Resp {
    for _ in 0..20 {
        let r = v.login(name, password).await;
        if !busy(&r) {
            return r;
        }
        tokio::time::sleep(std::time::Duration::from_secs(1)).await;
    }
    panic!("the server stayed too busy to check a password for 20 tries");
}

#[tokio::test]
async fn forwarded_addresses_count_only_behind_the_trusted_proxy() {
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    let attempt = |ip: &str, forwarded: String| {
        let mut v = from(&c, ip);
        async move {
            let csrf = v.csrf().await;
            let body = format!("name=ghost&password=wrong+password&csrf={csrf}");
            v.send(
                Request::post("/login")
                    .header("content-type", "application/x-www-form-urlencoded")
                    .header("x-forwarded-for", forwarded)
                    .body(Body::from(body))
                    .unwrap(),
            )
            .await
        }
    };
    // Not configured: a client on loopback cannot pick a new address per request.
    let mut last = None;
    for i in 0..21 {
        last = Some(attempt("127.0.0.1", format!("192.0.2.{i}")).await.status);
    }
    assert_eq!(last, Some(StatusCode::TOO_MANY_REQUESTS));
    // Configured: the proxy's header names each client.
    let config = server::config::Config {
        trusted_proxy: Some("127.0.0.1".parse().unwrap()),
        ..common::test_config()
    };
    let c = Client::with_config(config).await;
    for i in 0..25 {
        let mut v = from(&c, "127.0.0.1");
        let csrf = v.csrf().await;
        let r = v
            .send(
                Request::post("/login")
                    .header("content-type", "application/x-www-form-urlencoded")
                    .header("x-forwarded-for", format!("192.0.2.{i}"))
                    .body(Body::from(format!(
                        "name=ghost&password=wrong+password&csrf={csrf}"
                    )))
                    .unwrap(),
            )
            .await;
        assert_eq!(r.status, StatusCode::UNAUTHORIZED, "attempt {i}");
    }
}

#[tokio::test]
async fn registrations_are_limited_per_address() {
    let c = Client::new().await;
    let mut v = from(&c, "203.0.113.50");
    for i in 0..20 {
        let r = v.register(&format!("user{i}"), PW).await;
        assert_eq!(r.status, StatusCode::SEE_OTHER, "registration {i}");
        v.post("/logout", &[]).await;
    }
    let r = v.register("one-more", PW).await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(r.body.contains("Too many registrations from your address"));
    let r = from(&c, "203.0.113.51").register("elsewhere", PW).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "another address may");
}

#[tokio::test]
async fn the_login_redirect_goes_only_to_a_plain_local_path() {
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    for next in [
        "/\t/evil.example/phish",
        "/\n/evil.example",
        "/\\evil.example",
        "//evil.example",
        "/ /evil.example",
        "https://evil.example",
    ] {
        let mut v = c.stranger();
        let r = v
            .post(
                "/login",
                &[("name", "alice"), ("password", PW), ("next", next)],
            )
            .await;
        assert_eq!(r.status, StatusCode::SEE_OTHER, "{next:?}");
        assert_eq!(r.location(), Some("/profile"), "{next:?}");
    }
    // The same through the login page's address, percent-encoded.
    for next in ["%2F%09%2Fevil.example%2Fphish", "%2F%0A%2Fevil.example"] {
        let r = c.get(&format!("/login?next={next}")).await;
        assert_eq!(r.status, StatusCode::SEE_OTHER, "{next}");
        assert_eq!(r.location(), Some("/profile"), "{next}");
    }
    let mut v = c.stranger();
    let r = v
        .post(
            "/login",
            &[("name", "alice"), ("password", PW), ("next", "/bots/x?y=1")],
        )
        .await;
    assert_eq!(r.location(), Some("/bots/x?y=1"), "a plain path is kept");
}

#[tokio::test]
async fn a_bearer_header_spares_the_csrf_token_only_when_it_is_valid() {
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    let token = c.new_token("laptop").await;
    let tokens = |c: &Client| {
        let db = c.state.db.clone();
        async move {
            sqlx::query_scalar::<_, i64>("select count(*) from api_tokens")
                .fetch_one(&db)
                .await
                .unwrap()
        }
    };
    assert_eq!(tokens(&c).await, 1);
    for bearer in ["Bearer junk", "bearer junk", "Bearer "] {
        let r = c
            .send(
                Request::post("/profile/tokens")
                    .header("content-type", "application/x-www-form-urlencoded")
                    .header("authorization", bearer)
                    .body(Body::from("name=sneaky"))
                    .unwrap(),
            )
            .await;
        assert_eq!(r.status, StatusCode::FORBIDDEN, "{bearer:?}");
    }
    // A valid token: the request is the token's alone, the session cookie is ignored.
    let r = c
        .send(
            Request::post("/profile/tokens")
                .header("content-type", "application/x-www-form-urlencoded")
                .header("authorization", format!("Bearer {token}"))
                .body(Body::from("name=sneaky"))
                .unwrap(),
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "sent to log in");
    assert!(r.location().unwrap().starts_with("/login"));
    assert_eq!(tokens(&c).await, 1, "no token was made");
}

#[tokio::test]
async fn changing_the_password_logs_out_every_other_session() {
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    let mut laptop = c.stranger();
    laptop.login("alice", PW).await;
    assert_eq!(laptop.get("/profile").await.status, StatusCode::OK);
    let r = c
        .post(
            "/profile/password",
            &[
                ("current", PW),
                ("password", "a new password"),
                ("password2", "a new password"),
            ],
        )
        .await;
    assert!(
        r.body.contains("your one other session was logged out"),
        "{}",
        r.body
    );
    assert_eq!(c.get("/profile").await.status, StatusCode::OK, "still in");
    let r = laptop.get("/profile").await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "the other session ended");
}

/// A stolen session guessing the account's password on the profile's forms, which
/// check it: 30 wrong passwords on `/profile/password` took 0.8 s and the right one
/// was then confirmed (and changed). They are held to the login's limits now: the
/// account's back-off after a few failures, and the address's attempts.
#[tokio::test]
async fn the_profiles_password_forms_are_no_guessing_oracle() {
    let mut c = Client::new().await;
    c.register("victim", PW).await;
    let mut thief = from(&c, "203.0.113.66");
    thief.cookies = c.cookies.clone();
    let new = "a brand new password";
    let mut refused = 0;
    for i in 0..30 {
        let guess = format!("guess number {i}");
        let r = thief
            .post(
                "/profile/password",
                &[("current", &guess), ("password", new), ("password2", new)],
            )
            .await;
        assert_ne!(r.status, StatusCode::OK, "{}", r.body);
        if r.status == StatusCode::TOO_MANY_REQUESTS {
            refused += 1;
        }
    }
    assert!(
        refused >= 30 - server::web::guard::FREE_FAILURES as usize,
        "{refused} of 30 guesses refused"
    );
    // The right password is not confirmed now, on either form.
    let r = thief
        .post(
            "/profile/password",
            &[("current", PW), ("password", new), ("password2", new)],
        )
        .await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS, "{}", r.body);
    assert!(!r.body.contains("Your password was changed"));
    let r = thief
        .post("/profile/delete", &[("password", PW), ("confirm", "yes")])
        .await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS, "{}", r.body);
    // The account is whole, and its owner, from an address without failures, logs in
    // with the password it had.
    let mut owner = from(&c, "198.51.100.7");
    assert_eq!(
        owner.login("victim", PW).await.status,
        StatusCode::SEE_OTHER
    );
}
