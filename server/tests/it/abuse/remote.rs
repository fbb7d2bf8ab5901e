//! Remote bots' sessions (docs/remote.md) as a careless or hostile contestant tries
//! them, over real sockets: a second session with one key, a key revoked mid-session,
//! no-shows, connection attempts in a loop (per key and per address, IPv6 by /64),
//! more sessions than the server takes (beside its HTTP connections), frames and
//! replies over the caps, and remote bots against the per-account cap on bots.

use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

use crate::remote::{connect, get_json, key, site, user, Site};

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A session opened by hand (a client of the test's own), or the refusal: its status
/// and message.
async fn open(site: &Site, key: &str) -> Result<Socket, (u16, String)> {
    let url = format!("ws://{}/api/remote/v1/connect", site.addr);
    let mut request = url.into_client_request().unwrap();
    request
        .headers_mut()
        .insert("bottlebats-key", key.parse().unwrap());
    match tokio_tungstenite::connect_async(request).await {
        Ok((socket, _)) => Ok(socket),
        Err(tokio_tungstenite::tungstenite::Error::Http(r)) => {
            let body = r.body().clone().unwrap_or_default();
            let v: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
            Err((
                r.status().as_u16(),
                v["error"].as_str().unwrap_or("").to_string(),
            ))
        }
        Err(e) => panic!("connecting: {e}"),
    }
}

/// The next text message of the session, within `limit`.
async fn next_text(socket: &mut Socket, limit: Duration) -> Value {
    let deadline = tokio::time::Instant::now() + limit;
    loop {
        let frame = tokio::time::timeout_at(deadline, socket.next())
            .await
            .expect("a message in time")
            .expect("the session goes on")
            .expect("a frame");
        if let Message::Text(t) = frame {
            return serde_json::from_str(t.as_str()).unwrap();
        }
    }
}

/// Waits for the message of `kind`, dropping the others (pings, a match's bytes).
async fn wait_for(socket: &mut Socket, kind: &str, limit: Duration) -> Value {
    let deadline = tokio::time::Instant::now() + limit;
    loop {
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        let m = next_text(socket, left).await;
        if m["type"] == kind {
            return m;
        }
    }
}

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

#[test]
fn one_session_per_bot_and_a_revoked_key_ends_its_session_at_once() {
    let (site, _db) = site("abuse-remote-keys", &[]);
    user(&site, "gina");
    let key = key(&site, "gina", "gina-home", "bottlebats");
    let mut first = connect(&site.url, &key, &[], &[]);
    first.wait_line("connected as `gina-home`", Duration::from_secs(30));
    // A second `bottlebats connect` with the same key is refused, and says why.
    let mut second = connect(&site.url, &key, &[], &[]);
    let (status, out) = second.wait_exit(Duration::from_secs(30));
    assert!(!status.success(), "{out}");
    assert!(
        out.contains("is connected already through `bottlebats connect` (since 20"),
        "{out}"
    );
    assert!(
        out.contains("UTC): one session or game at a time per bot"),
        "{out}"
    );
    let refused = rt().block_on(open(&site, &key)).err();
    assert_eq!(refused.map(|r| r.0), Some(409));
    // A new key made by the organizer's command (another process) revokes this one:
    // the session ends at once, saying so, and the client stops.
    first.wait_line(", ranked, ", Duration::from_secs(60));
    let started = Instant::now();
    let new_key = crate::remote::key(&site, "gina", "gina-home", "bottlebats");
    let (status, out) = first.wait_exit(Duration::from_secs(20));
    let took = started.elapsed();
    assert!(!status.success(), "{out}");
    assert!(out.contains("its key was revoked"), "{out}");
    assert!(
        took < Duration::from_secs(8),
        "ended {took:?} after the revocation"
    );
    let refused = rt().block_on(open(&site, &key)).err().unwrap();
    assert_eq!(refused.0, 401, "{refused:?}");
    assert!(refused.1.contains("revoked"), "{refused:?}");
    // The new key works.
    let mut again = connect(&site.url, &new_key, &["--games", "1"], &[]);
    let (status, out) = again.wait_exit(Duration::from_secs(300));
    assert!(status.success(), "{out}");
}

#[test]
fn no_shows_void_their_matches_and_repeated_ones_pause_the_bot() {
    let (site, db) = site("abuse-remote-no-show", &[]);
    user(&site, "hank");
    let key = key(&site, "hank", "hank-home", "bottlebats");
    let voided = rt().block_on(async {
        let mut voided = Vec::new();
        let mut socket = open(&site, &key).await.unwrap();
        let hello = next_text(&mut socket, Duration::from_secs(10)).await;
        assert_eq!(hello["type"], "hello", "{hello}");
        for _ in 1..=crate::remote::NO_SHOWS {
            let offer = wait_for(&mut socket, "offer", Duration::from_secs(60)).await;
            assert_eq!(offer["accept_ms"], 10_000, "{offer}");
            // Offered, never answered: the match is void after 10 s.
            let started = Instant::now();
            let end = wait_for(&mut socket, "end", Duration::from_secs(30)).await;
            assert!(started.elapsed() >= Duration::from_secs(9), "{end}");
            assert_eq!(end["status"], "void", "{end}");
            assert!(
                end["reason"]
                    .as_str()
                    .unwrap()
                    .contains("did not accept the match within 10 s (a no-show)"),
                "{end}"
            );
            assert_eq!(end["match"], offer["match"]);
            voided.push(offer["match_id"].as_i64().unwrap());
        }
        // The third in a row pauses it: the session ends for good.
        let bye = wait_for(&mut socket, "bye", Duration::from_secs(30)).await;
        assert_eq!(bye["reconnect"], false, "{bye}");
        assert!(bye["reason"].as_str().unwrap().contains("paused"), "{bye}");
        let refused = open(&site, &key).await.err().unwrap();
        assert_eq!(refused.0, 403, "{refused:?}");
        assert!(refused.1.contains("paused after 3 matches"), "{refused:?}");
        voided
    });
    for id in voided {
        let status = db.json(&format!("select status from matches where id = {id}"));
        assert_eq!(status, "void", "match {id}");
    }
    // Its owner reads why on its page (here: its API), and resumes it there.
    let token = site.admin(&["create-token", "hank"]);
    let token = token.lines().last().unwrap().trim();
    let auth = format!("Bearer {token}");
    let (_, body) = site.request(
        "GET",
        "/api/bots/hank-home",
        &[("Authorization", &auth)],
        b"",
    );
    let api: Value = serde_json::from_str(&body).unwrap();
    assert!(
        api["remote_paused"]
            .as_str()
            .unwrap()
            .contains("paused after 3"),
        "{api}"
    );
    let public = get_json(&site, "/api/bots/hank-home");
    assert!(
        public["remote_paused"].is_null(),
        "only its owner sees why: {public}"
    );
    db.exec("update bots set remote_paused = null, remote_no_shows = 0 where name = 'hank-home'");
    let mut home = connect(&site.url, &key, &["--games", "1"], &[]);
    let (status, out) = home.wait_exit(Duration::from_secs(300));
    assert!(status.success(), "{out}");
}

#[test]
fn attempts_are_limited_per_key_and_per_address_and_sessions_have_their_own_cap() {
    // No house bot needs to play here: sessions stay idle.
    let site = Site::start_with(
        "abuse-remote-limits",
        &[
            "--trusted-proxy",
            "127.0.0.1",
            "--remote-sessions",
            "2",
            "--max-connections",
            "2",
        ],
    );
    let attempt = |key: &str, from: &str| {
        site.request(
            "GET",
            "/api/remote/v1/connect",
            &[("Bottlebats-Key", key), ("X-Forwarded-For", from)],
            b"",
        )
    };
    // One key tried in a loop: 10 at once, then refused, saying how long to wait.
    let wrong = "bbr_0000000000000000000000000000000000000000000000000000000000000000";
    for _ in 0..crate::remote::KEY_BURST {
        assert_eq!(attempt(wrong, "2001:db8::1").0, 401);
    }
    let (status, body) = attempt(wrong, "2001:db8::1");
    assert_eq!(status, 429, "{body}");
    assert!(body.contains("with this key"), "{body}");
    // One address (an IPv6 /64) trying ever new keys: 60 at once in all.
    for i in crate::remote::KEY_BURST + 1..crate::remote::ADDRESS_BURST {
        let key = format!("bbr_{i:064}");
        assert_eq!(
            attempt(&key, &format!("2001:db8::{:x}", i + 2)).0,
            401,
            "attempt {i}"
        );
    }
    let (status, body) = attempt("bbr_other", "2001:db8::ffff");
    assert_eq!(status, 429, "{body}");
    assert!(body.contains("from your address"), "{body}");
    // Another /64 is another address.
    assert_eq!(attempt("bbr_other", "2001:db8:0:1::1").0, 401);

    // Sessions: two at most here, and they hold none of the two HTTP connections.
    user(&site, "ivy");
    let keys: Vec<String> = (1..=3)
        .map(|i| key(&site, "ivy", &format!("ivy-{i}"), "bottlebats"))
        .collect();
    rt().block_on(async {
        let mut held = Vec::new();
        for k in &keys[..2] {
            let mut s = open(&site, k).await.unwrap();
            assert_eq!(
                next_text(&mut s, Duration::from_secs(10)).await["type"],
                "hello"
            );
            held.push(s);
        }
        let refused = open(&site, &keys[2]).await.err().unwrap();
        assert_eq!(refused.0, 503, "{refused:?}");
        assert!(refused.1.contains("holds 2 remote sessions"), "{refused:?}");
        for _ in 0..3 {
            let (status, _) = site.request("GET", "/healthz", &[], b"");
            assert_eq!(status, 200, "the site serves beside its sessions");
        }
        // One leaves: its place is free again.
        let mut gone = held.pop().unwrap();
        gone.close(None).await.unwrap();
        drop(gone);
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            match open(&site, &keys[2]).await {
                Ok(_) => break,
                Err(e) => assert!(Instant::now() < deadline, "{e:?}"),
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    });
}

#[test]
fn frames_over_the_cap_end_the_session_and_long_replies_are_judged_as_uploaded_ones() {
    let (site, db) = site("abuse-remote-caps", &[]);
    user(&site, "jack");
    let key = key(&site, "jack", "jack-home", "bottlebats");
    let id = rt().block_on(async {
        // A reply line of 100,000 bytes, sent in frames within the cap: the runner
        // judges it as it judges an uploaded bot's (games/bottlebats/rules.md §7).
        let mut socket = open(&site, &key).await.unwrap();
        let offer = wait_for(&mut socket, "offer", Duration::from_secs(60)).await;
        let accept = json!({"type": "accept", "match": offer["match"]}).to_string();
        socket.send(Message::Text(accept.into())).await.unwrap();
        let long = vec![b'x'; 100_000];
        let mut bytes = b"1 commands:\n".to_vec();
        bytes.extend_from_slice(&long);
        bytes.push(b'\n');
        for chunk in bytes.chunks(60_000) {
            let mut frame = vec![1u8];
            frame.extend_from_slice(chunk);
            socket.send(Message::Binary(frame.into())).await.unwrap();
        }
        let end = wait_for(&mut socket, "end", Duration::from_secs(60)).await;
        assert_eq!(end["status"], "finished", "{end}");
        assert!(
            end["error"]
                .as_str()
                .unwrap()
                .contains("wrote a line longer than 65536 bytes"),
            "{end}"
        );
        // One frame over the cap (64 KiB and its stream byte): the session ends, and
        // its match is its crash.
        let offer = wait_for(&mut socket, "offer", Duration::from_secs(60)).await;
        let accept = json!({"type": "accept", "match": offer["match"]}).to_string();
        socket.send(Message::Text(accept.into())).await.unwrap();
        let mut frame = vec![1u8];
        frame.extend_from_slice(&vec![b'y'; 70_000]);
        let _ = socket.send(Message::Binary(frame.into())).await;
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        loop {
            match tokio::time::timeout_at(deadline, socket.next()).await {
                Ok(None | Some(Err(_)) | Some(Ok(Message::Close(_)))) => break,
                Ok(Some(Ok(_))) => {}
                Err(_) => panic!("the session outlived a frame over the cap"),
            }
        }
        offer["match_id"].as_i64().unwrap()
    });
    db.wait_for(
        &format!(
            "select p.error like '%connection to the remote bot was lost%'
             from match_players p join bots b on b.id = p.bot_id
             where p.match_id = {id} and b.name = 'jack-home'"
        ),
        Duration::from_secs(60),
        "the frame over the cap ended its match as its crash",
    );
}

/// Remote bots count in the per-account cap on bots, made on the site or the API.
#[tokio::test]
async fn remote_bots_count_in_the_cap_on_bots() {
    let mut config = crate::common::test_config();
    config.bots_per_account = 2;
    let mut c = crate::common::Client::with_config(config).await;
    c.register("kim", "correct horse battery").await;
    let token = c.new_token("script").await;
    let make = |name: &str| {
        axum::http::Request::post("/api/bots")
            .header("authorization", format!("Bearer {token}"))
            .header("content-type", "application/json")
            .body(axum::body::Body::from(
                json!({"name": name, "remote": true}).to_string(),
            ))
            .unwrap()
    };
    let r = c.send(make("kim-1")).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let made = r.json();
    assert!(made["key"].as_str().unwrap().starts_with("bbr_"), "{made}");
    assert!(
        made["connect"].as_str().unwrap().contains("--key bbr_"),
        "{made}"
    );
    // The site's own address (the request's, with no base URL set), not a placeholder.
    assert!(
        (made["connect"].as_str().unwrap()).starts_with("bottlebats connect http://"),
        "{made}"
    );
    // On the site's own form too.
    let page = c.post("/bots/new-remote", &[("name", "kim-2")]).await;
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(
        page.body.contains("id=\"remote-key\">bbr_"),
        "{}",
        page.body
    );
    assert!(!page.body.contains("THIS-SITE"), "{}", page.body);
    // It has no source here to download.
    assert!(!page.body.contains("/versions/1/source"), "{}", page.body);
    let r = c.send(make("kim-3")).await;
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r
        .body
        .contains("the most one account may have here (remote bots count too)"));
    // And a remote bot takes no upload.
    let (ctype, body) = crate::common::multipart(&[], Some(("bot.py", b"print(1)\n")));
    let req = axum::http::Request::post("/api/bots/kim-1/versions")
        .header("authorization", format!("Bearer {token}"))
        .header("content-type", ctype)
        .body(axum::body::Body::from(body))
        .unwrap();
    let r = c.send(req).await;
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.body.contains("is a remote bot"), "{}", r.body);
}

/// A game's own HTTP API (docs/remote.md, "Playing over HTTP") meets the same limits:
/// a large body, a flood of moves with made-up tokens, keys tried in a loop, a key of a
/// game without such an API, a site that takes practice games only.
#[test]
fn the_http_api_refuses_large_bodies_made_up_tokens_key_loops_and_other_games_keys() {
    let (site, db) = site("abuse-http-api", &[]);
    user(&site, "mallory");
    let post = |path: &str, body: &[u8]| {
        site.request(
            "POST",
            path,
            &[("Content-Type", "application/x-www-form-urlencoded")],
            body,
        )
    };
    // A body past 4 KiB is refused before anything is read of it.
    let big = format!("key={}", "k".repeat(5000));
    assert_eq!(post("/api/training", big.as_bytes()).0, 413);
    // Made-up tokens: each is a short 404, and nothing is held for them.
    let started = Instant::now();
    for i in 0..300 {
        let (status, body) = post(&format!("/api/{i}/{i:064x}/play"), b"dir=North");
        assert_eq!(status, 404, "{body}");
        assert!(body.starts_with("Vindinium - Unknown game"), "{body}");
    }
    println!("300 made-up moves answered in {:?}", started.elapsed());
    // A key of a game without an HTTP API is told how its bot plays instead.
    let bats = key(&site, "mallory", "mallory-bats", "bottlebats");
    let (status, body) = post("/api/training", format!("key={bats}").as_bytes());
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("which has no HTTP API"), "{body}");
    // Rated games where the site takes practice games only.
    let hero = key(&site, "mallory", "mallory-hero", "vindinium");
    db.exec("update ranker set remote = 'practice'");
    let (status, body) = post("/api/arena", format!("key={hero}").as_bytes());
    assert_eq!(status, 403, "{body}");
    assert!(body.contains("practice games only"), "{body}");
    db.exec("update ranker set remote = 'ladder'");
    // Keys tried in a loop from one address: limited before any key is looked up.
    let mut limited = None;
    for i in 0..200 {
        let (status, body) = post("/api/arena", format!("key=bbk_guess{i}").as_bytes());
        if status == 429 {
            limited = Some((i, body));
            break;
        }
        assert_eq!((status, body.as_str()), (400, "Vindinium - Key not found"));
    }
    let (i, body) = limited.expect("attempts from one address are limited");
    assert!(
        i >= crate::remote::ADDRESS_BURST as usize - 5,
        "limited after {i}"
    );
    assert!(body.contains("try again in"), "{body}");
}
