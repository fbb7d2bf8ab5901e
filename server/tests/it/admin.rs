//! The organizer's controls, on the /admin page and as `bottlebats admin` commands.

use crate::common;

use axum::http::StatusCode;
use common::Client;

const PW: &str = "organizer password";

/// A client logged in as an organizer, and a ladder with two queued matches.
async fn organizer() -> Client {
    let mut c = Client::new().await;
    c.register("olga", PW).await;
    sqlx::query("update users set is_admin = true where name = 'olga'")
        .execute(&c.state.db)
        .await
        .unwrap();
    server::ranker::load_shipped_maps(&c.state.db)
        .await
        .unwrap();
    // Two bots with active versions, without building them: the queue is what matters.
    for name in ["ann", "ben"] {
        sqlx::query(
            "with u as (insert into users (name, password_hash) values ($1, '!') returning id), \
                  b as (insert into bots (owner_id, name, mu, sigma) select id, $1, $2, $3 from u returning id) \
             insert into bot_versions (bot_id, number, language, entry, archive, archive_name, archive_sha256, status) \
                 select id, 1, 'python', 'bot.py', '\\x00', 'bot.py', sha256('\\x00'), 'active' from b",
        )
        .bind(name)
        .bind(server::ranker::rating::MU)
        .bind(server::ranker::rating::SIGMA)
        .execute(&c.state.db)
        .await
        .unwrap();
    }
    sqlx::query(
        "update bots b set active_version_id = v.id from bot_versions v where v.bot_id = b.id",
    )
    .execute(&c.state.db)
    .await
    .unwrap();
    let made = server::ranker::schedule(&c.state.db, 2, &Default::default())
        .await
        .unwrap();
    let bots: Vec<(String, Option<i64>)> =
        sqlx::query_as("select name, active_version_id from bots")
            .fetch_all(&c.state.db)
            .await
            .unwrap();
    assert_eq!(made, 2, "two matches queued between {bots:?}");
    c
}

async fn paused(c: &Client) -> bool {
    server::ranker::is_paused(&c.state.db).await.unwrap()
}

#[tokio::test]
async fn only_organizers_see_the_organizer_page() {
    let mut c = organizer().await;
    let r = c.get("/admin").await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.body.contains("The ranker is <strong>running</strong>"));
    assert!(r.body.contains("2 queued"));
    assert!(r.body.contains("ring-2p") || r.body.contains("duel-2p"));
    assert!(
        c.get("/").await.body.contains("href=\"/admin\""),
        "organizers get a link"
    );
    let mut other = c.stranger();
    other.register("carl", "a normal password").await;
    assert_eq!(other.get("/admin").await.status, StatusCode::FORBIDDEN);
    assert!(!other.get("/").await.body.contains("href=\"/admin\""));
    assert_eq!(
        other
            .post("/admin/ranker", &[("action", "pause")])
            .await
            .status,
        StatusCode::FORBIDDEN
    );
    assert!(!paused(&c).await);
    let mut anon = c.stranger();
    assert_eq!(anon.get("/admin").await.status, StatusCode::SEE_OTHER);
}

#[tokio::test]
async fn organizers_pause_void_requeue_and_disable() {
    let mut c = organizer().await;
    pauses_and_resumes_the_ranker(&mut c).await;
    voids_and_requeues_a_match(&mut c).await;
    takes_a_bot_out_of_the_ladder_and_back(&mut c).await;
    takes_a_map_out_of_matchmaking(&mut c).await;
}

async fn pauses_and_resumes_the_ranker(c: &mut Client) {
    let r = c.post("/admin/ranker", &[("action", "pause")]).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "post/redirect/get");
    assert_eq!(r.location(), Some("/admin"));
    let r = c.get("/admin").await;
    assert!(
        !c.get("/admin").await.body.contains("The ranker is paused:"),
        "the outcome is shown once"
    );
    assert!(r.body.contains("The ranker is paused"));
    assert!(paused(c).await);
    c.post_follow("/admin/ranker", &[("action", "resume")])
        .await;
    assert!(!paused(c).await);
}

async fn voids_and_requeues_a_match(c: &mut Client) {
    let ids: Vec<i64> = sqlx::query_scalar("select id from matches order by id")
        .fetch_all(&c.state.db)
        .await
        .unwrap();
    let r = c
        .post_follow(
            "/admin/matches",
            &[
                ("action", "void"),
                ("id", &ids[0].to_string()),
                ("reason", "<b>bad map</b>"),
            ],
        )
        .await;
    assert!(
        r.body.contains(&format!("Match {} is void", ids[0])),
        "{}",
        r.body
    );
    assert!(
        r.body.contains("&#60;b&#62;bad map") || r.body.contains("&lt;b&gt;bad map"),
        "escaped"
    );
    // Refused: the form comes back as typed, the match's field marked.
    let r = c
        .post(
            "/admin/matches",
            &[
                ("action", "void"),
                ("id", &ids[0].to_string()),
                ("reason", "twice"),
            ],
        )
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.body);
    assert!(r.body.contains("cannot be voided"));
    assert!(r.body.contains(&format!(
        "name=\"id\" required maxlength=\"20\" placeholder=\"1234\" value=\"{}\" aria-invalid=\"true\"",
        ids[0]
    )));
    assert!(r
        .body
        .contains("placeholder=\"voided by an organizer\" value=\"twice\""));
    let r = c
        .post_follow(
            "/admin/matches",
            &[("action", "requeue"), ("id", &ids[0].to_string())],
        )
        .await;
    assert!(r.body.contains("is back in the queue"));
    let r = c
        .post("/admin/matches", &[("action", "requeue"), ("id", "nope")])
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert!(r.body.contains("<code>nope</code> is not a match number"));
    assert!(r.body.contains("value=\"nope\" aria-invalid=\"true\""));
}

/// Disabling a bot voids its queued matches; enabling it brings it back.
async fn takes_a_bot_out_of_the_ladder_and_back(c: &mut Client) {
    let r = c
        .post_follow("/admin/bots", &[("action", "disable"), ("name", "ann")])
        .await;
    assert!(r.body.contains("Bot <code>ann</code> is out of the ladder"));
    let queued: i64 = sqlx::query_scalar("select count(*) from matches where status = 'queued'")
        .fetch_one(&c.state.db)
        .await
        .unwrap();
    assert_eq!(queued, 0, "its queued matches are void");
    assert_eq!(
        server::ranker::schedule(&c.state.db, 2, &Default::default())
            .await
            .unwrap(),
        0,
        "ben has nobody left"
    );
    let r = c
        .post(
            "/admin/bots",
            &[
                ("action", "disable"),
                ("name", "nobody"),
                ("reason", "spam"),
            ],
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert!(r.body.contains("There is no bot <code>nobody</code>."));
    assert!(r
        .body
        .contains("data-find=\"/admin/bots/find\" value=\"nobody\" aria-invalid=\"true\""));
    assert!(r
        .body
        .contains("placeholder=\"disabled by an organizer\" value=\"spam\""));
    c.post_follow("/admin/bots", &[("action", "enable"), ("name", "ann")])
        .await;
}

#[tokio::test]
async fn organizers_pick_the_bot_to_disable_from_a_list_or_a_search() {
    let mut c = organizer().await;
    // ann played last: she comes first in the list, with her owner.
    sqlx::query("update bots set last_game_at = now() where name = 'ann'")
        .execute(&c.state.db)
        .await
        .unwrap();
    let page = c.get("/admin").await.body;
    let list = page
        .split("<datalist id=\"admin-bots\">")
        .nth(1)
        .and_then(|l| l.split("</datalist>").next())
        .expect("the page lists the bots");
    assert!(
        list.starts_with("<option value=\"ann\" label=\"ann\"></option><option value=\"ben\""),
        "{list}"
    );
    // A search finds bots by their name or their owner's, names that start with the
    // text first, and says which are disabled.
    c.post("/admin/bots", &[("action", "disable"), ("name", "ben")])
        .await;
    let found = c.get("/admin/bots/find?q=N").await.json();
    assert_eq!(
        found,
        serde_json::json!([
            {"name": "ann", "owner": "ann", "disabled": false},
            {"name": "ben", "owner": "ben", "disabled": true},
        ])
    );
    let by_owner = c.get("/admin/bots/find?q=BE").await.json();
    assert_eq!(by_owner.as_array().unwrap().len(), 1, "{by_owner}");
    assert_eq!(by_owner[0]["name"], "ben");
    // `_` is a character searched for, not a wildcard.
    assert_eq!(
        c.get("/admin/bots/find?q=a_n").await.json(),
        serde_json::json!([])
    );
}

/// A disabled map gets no new match.
async fn takes_a_map_out_of_matchmaking(c: &mut Client) {
    let r = c
        .post_follow("/admin/maps", &[("action", "disable"), ("name", "duel-2p")])
        .await;
    assert!(r
        .body
        .contains("Map <code>duel-2p</code> is out of matchmaking."));
    for _ in 0..5 {
        server::ranker::schedule(&c.state.db, 10, &Default::default())
            .await
            .unwrap();
    }
    let on_disabled: i64 = sqlx::query_scalar(
        "select count(*) from matches m join maps on maps.id = m.map_id where maps.name = 'duel-2p' and m.status = 'queued'",
    )
    .fetch_one(&c.state.db)
    .await
    .unwrap();
    assert_eq!(on_disabled, 0);
}

#[tokio::test]
async fn the_admin_commands_reach_the_same_database() {
    let url = common::fresh_url().await;
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_bottlebats"))
            .arg("admin")
            .args(args)
            .env("DATABASE_URL", &url)
            .output()
            .unwrap()
    };
    let text = |o: &std::process::Output| {
        format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        )
    };
    let map = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("admin-map.txt");
    std::fs::write(
        &map,
        "2 forts:\na 0 0 p1 10\nb 3 4 p2 10\n1 roads:\na b\n0 marches:\n",
    )
    .unwrap();
    let o = run(&["add-map", "tiny", map.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    let o = run(&["add-map", "tiny", map.to_str().unwrap()]);
    assert!(text(&o).contains("a map called `tiny` exists already"));
    std::fs::write(&map, "1 forts:\na 0 0 p1 10\n1 roads:\na zz\n0 marches:\n").unwrap();
    let o = run(&["add-map", "broken", map.to_str().unwrap()]);
    assert!(
        text(&o).contains("line 4: road names unknown fort `zz`"),
        "{}",
        text(&o)
    );
    assert!(run(&["pause"]).status.success());
    let o = run(&["status"]);
    assert!(text(&o).contains("ranker: PAUSED"), "{}", text(&o));
    assert!(text(&o).contains("tiny"));
    assert!(run(&["resume"]).status.success());
    assert!(text(&run(&["status"])).contains("ranker: running"));
    assert!(run(&["disable-map", "tiny"]).status.success());
    assert!(text(&run(&["status"])).contains("(disabled)"));
    let o = run(&["void", "12345"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("match 12345 cannot be voided"));
    let o = run(&["disable-bot", "ghost"]);
    assert!(text(&o).contains("there is no bot `ghost`"));
}

/// A disabled bot never looks healthy to its owner: its page, the profile and the API
/// say it is disabled and give the organizer's reason (cut to 200 characters); others
/// see that it is disabled, not why.
#[tokio::test]
async fn a_disabled_bot_says_so_and_why_to_its_owner() {
    let mut olga = organizer().await;
    let mut alice = olga.stranger();
    alice.register("alice", "alice's password").await;
    alice
        .upload(
            "/bots/new",
            &[("name", "Vex")],
            Some(("bot.py", b"print()")),
        )
        .await;
    let token = alice.new_token("cli").await;
    let reason = format!("<i>copied</i> from another entry {}", "x".repeat(300));
    let r = olga
        .post_follow(
            "/admin/bots",
            &[("action", "disable"), ("name", "vex"), ("reason", &reason)],
        )
        .await;
    assert!(r.body.contains("is out of the ladder"), "{}", r.body);
    let kept: String = reason.chars().take(200).collect();
    let shown = kept.replace('<', "&#60;").replace('>', "&#62;");

    let page = alice.get("/bots/Vex").await.body;
    assert!(
        page.contains("This bot is disabled: it plays no matches"),
        "{page}"
    );
    assert!(page.contains(&shown), "the reason, escaped and cut: {page}");
    assert!(!page.contains("version 1 plays"));
    let profile = alice.get("/profile").await.body;
    assert!(profile.contains("status failed\">disabled</span>") && profile.contains(&shown));
    let api = alice.api_get("/api/bots/Vex", &token).await.json();
    assert_eq!(api["disabled"], true);
    assert_eq!(api["disabled_reason"], kept.as_str());

    let mut stranger = olga.stranger();
    let page = stranger.get("/bots/Vex").await.body;
    assert!(page.contains("This bot is disabled") && !page.contains("copied"));
    let api = stranger.get("/api/bots/Vex").await.json();
    assert_eq!(
        (api["disabled"].clone(), api["disabled_reason"].clone()),
        (true.into(), serde_json::Value::Null)
    );

    olga.post_follow("/admin/bots", &[("action", "enable"), ("name", "Vex")])
        .await;
    let page = alice.get("/bots/Vex").await.body;
    assert!(!page.contains("This bot is disabled"), "enabled again");
}

/// The live channel's pace and delay, as `/api/live` and the streams read them.
async fn channel(c: &Client) -> server::live::Channel {
    server::live::channel(&c.state.db, c.state.config.live_delay)
        .await
        .unwrap()
}

#[tokio::test]
async fn organizers_set_the_live_channels_pace_and_delay_within_bounds() {
    let mut c = organizer().await;
    let before = channel(&c).await;
    assert_eq!(before.seconds, server::live::DEFAULT_SECONDS);
    assert_eq!(c.get("/api/live").await.json()["seconds"], 45);
    let page = c.get("/admin").await.body;
    assert!(
        page.contains("action=\"/admin/live\""),
        "the form is on /admin"
    );
    assert!(page.contains("name=\"seconds\"") && page.contains("value=\"45\""));

    let r = c
        .post_follow("/admin/live", &[("seconds", "20"), ("delay", "3")])
        .await;
    assert!(r.body.contains("over 20 s, 3 turns behind"), "{}", r.body);
    assert_eq!(
        channel(&c).await,
        server::live::Channel {
            seconds: 20,
            delay: 3
        }
    );
    // The next game the channel asks for takes it, no restart.
    assert_eq!(c.get("/api/live").await.json()["seconds"], 20);
    assert!(c.get("/admin").await.body.contains("value=\"20\""));

    // Out of range, or not numbers: refused, saying why, the form as typed with the
    // field at fault marked, and nothing changes.
    for (seconds, delay, wrong) in [
        ("9", "0", "seconds"),
        ("301", "0", "seconds"),
        ("30", "101", "delay"),
        ("ten", "0", "seconds"),
        ("30", "", "delay"),
    ] {
        let r = c
            .post("/admin/live", &[("seconds", seconds), ("delay", delay)])
            .await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST);
        assert!(
            r.body.contains("alert error") && r.body.contains("is a whole number from"),
            "{seconds}/{delay}: {}",
            r.body
        );
        for (field, typed) in [("seconds", seconds), ("delay", delay)] {
            let at = r.body.find(&format!("<input name=\"{field}\"")).unwrap();
            let input = &r.body[at..at + r.body[at..].find('>').unwrap()];
            assert!(input.contains(&format!("value=\"{typed}\"")), "{input}");
            assert_eq!(input.contains("aria-invalid"), field == wrong, "{input}");
        }
        assert_eq!(channel(&c).await.seconds, 20, "{seconds}/{delay}");
        assert_eq!(channel(&c).await.delay, 3, "{seconds}/{delay}");
    }

    // Not an organizer, not logged in, or without the form's token: refused.
    let mut carl = c.stranger();
    carl.register("carl", "a normal password").await;
    let ask = [("seconds", "10"), ("delay", "0")];
    assert_eq!(
        carl.post("/admin/live", &ask).await.status,
        StatusCode::FORBIDDEN
    );
    let mut anon = c.stranger();
    let r = anon.post("/admin/live", &ask).await;
    assert!(
        r.location().is_some_and(|l| l.starts_with("/login")),
        "a visitor is sent to log in: {r:?}"
    );
    assert_eq!(
        c.post_raw("/admin/live", &ask).await.status,
        StatusCode::FORBIDDEN,
        "a form without its CSRF token"
    );
    assert_eq!(channel(&c).await.seconds, 20);
}
