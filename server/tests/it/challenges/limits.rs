//! What challenges and A/B tests refuse, each with its reason: bad requests, another's
//! bot, the owner's limits, and challenges turned off.

use serde_json::json;

use super::{api_json, site};
use crate::builds::PW;
use crate::common::{self, Client};

fn config(games_per_hour: u32, at_once: u32) -> server::config::Config {
    let settings = server::config::Settings {
        pending_builds: Some(100),
        challenge_games_per_hour: Some(games_per_hour),
        challenges_at_once: Some(at_once),
        ..Default::default()
    };
    server::config::Config::load(settings, None).unwrap()
}

async fn refused(
    c: &mut Client,
    token: &str,
    path: &str,
    body: serde_json::Value,
) -> (u16, String) {
    let r = api_json(c, path, token, &body).await;
    assert!(
        r.status.is_client_error() || r.status == 503,
        "{path} {body}: {} {}",
        r.status,
        r.body
    );
    (
        r.status.as_u16(),
        r.json()["error"].as_str().unwrap_or_default().to_string(),
    )
}

/// `base` with the fields of `change` (JSON text) put over it.
fn over(base: &serde_json::Value, change: &str) -> serde_json::Value {
    let mut v = base.clone();
    let change: serde_json::Value = serde_json::from_str(change).unwrap();
    for (k, x) in change.as_object().unwrap() {
        v[k] = x.clone();
    }
    v
}

/// Each request of `cases` (changes to `base`) is refused with its status, saying so.
async fn each_refused(
    c: &mut Client,
    token: &str,
    path: &str,
    base: serde_json::Value,
    cases: &[(&str, u16, &str)],
) {
    for (change, status, says) in cases {
        let body = over(&base, change);
        let (got, message) = refused(c, token, path, body.clone()).await;
        assert_eq!(got, *status, "{body}: {message}");
        assert!(
            message.contains(says),
            "{body}: {message:?} should say {says:?}"
        );
    }
}

#[tokio::test]
async fn bad_requests_are_refused_with_their_reason() {
    let (mut c, _b, token) = site("refusals", config(100, 2)).await;
    let base = json!({"bot": "mine", "opponents": ["idle"], "games": 2});
    each_refused(
        &mut c,
        &token,
        "/api/challenges",
        base,
        &[
            (r#"{"games": 0}"#, 400, "1 to 20 games"),
            (r#"{"games": 21}"#, 400, "1 to 20 games"),
            (r#"{"games": -1}"#, 400, "1 to 20 games"),
            (r#"{"opponents": ["nobody"]}"#, 400, "`nobody`"),
            (
                r#"{"opponents": ["idle", "nobody-here", "🦇"]}"#,
                400,
                "No bot of Bottle Bats plays under the names `nobody-here` and `🦇`",
            ),
            (
                r#"{"opponents": ["Strnog"]}"#,
                400,
                "under the name `Strnog` (did you mean `strong`?)",
            ),
            (r#"{"opponents": ["mine"]}"#, 400, "against itself"),
            // Copies of one bot cannot take turns: they must all fit in one game.
            (
                r#"{"opponents": ["8 × strong"]}"#,
                400,
                "at most 8 players: with a bot in several seats, name at most 7 opponents in all, not 8",
            ),
            (r#"{"opponents": {"top": 9}}"#, 400, "1 to 7 opponents"),
            (r#"{"maps": ["triad-3p"]}"#, 400, "for 3 players, not 2"),
            (r#"{"players": 3}"#, 400, "2 to 2 players"),
            (r#"{"version": 7}"#, 400, "no version 7"),
            (
                r#"{"bot": "idle", "opponents": ["random"]}"#,
                403,
                "not yours",
            ),
            (r#"{"bot": "ghost"}"#, 400, "no bot called"),
            (
                r#"{"opponents": {"near": 3}, "players": 4}"#,
                409,
                "no map for 4 players",
            ),
            (r#"{"extra": 1}"#, 422, "extra"),
            (r#"{"opponents": "idle"}"#, 422, "a list of bot names"),
        ],
    )
    .await;
    let base = json!({"bot": "mine", "candidate": 1, "games": 4});
    each_refused(
        &mut c,
        &token,
        "/api/abtests",
        base,
        &[
            ("{}", 409, "is the active one"),
            (r#"{"games": 5}"#, 400, "even number"),
            // Over the API as on the form: the range, not the JSON parser's words.
            (r#"{"games": -4}"#, 400, "from 2 to 100, not -4"),
            (r#"{"candidate": 9}"#, 400, "no version 9"),
            (r#"{"bot": "greedy"}"#, 403, "not yours"),
        ],
    )
    .await;
    without_a_token_or_form_token_nothing_is_queued(&mut c).await;
}

/// No token, no form token: nothing queued; the form says what is wrong.
async fn without_a_token_or_form_token_nothing_is_queued(c: &mut Client) {
    let body = json!({"bot": "mine", "opponents": ["idle"], "games": 1}).to_string();
    let req = axum::http::Request::post("/api/challenges")
        .header("content-type", "application/json")
        .body(axum::body::Body::from(body))
        .unwrap();
    assert_eq!(c.stranger().send(req).await.status, 401);
    let r = c
        .post_raw(
            "/challenges",
            &[("bot", "mine"), ("names", "idle"), ("games", "1")],
        )
        .await;
    assert_eq!(r.status, 403);
    let queued: i64 = sqlx::query_scalar("select count(*) from challenges")
        .fetch_one(&c.state.db)
        .await
        .unwrap();
    assert_eq!(queued, 0, "nothing refused was queued");
    // The form says what is wrong, with what was typed.
    let r = c
        .post(
            "/challenges",
            &[
                ("bot", "mine"),
                ("mode", "named"),
                ("names", "idle nobody"),
                ("games", "3"),
            ],
        )
        .await;
    assert_eq!(r.status, 400);
    // A list typed in one field comes back one name a field.
    assert!(
        r.body.contains("<code>nobody</code>")
            && r.body.contains("name=\"names\" value=\"idle\"")
            && r.body.contains("name=\"names\" value=\"nobody\""),
        "{}",
        r.body
    );
}

#[tokio::test]
async fn the_form_completes_opponents_from_the_bots_that_play_one_a_field() {
    let (mut c, _b, _token) = site("form", config(100, 2)).await;
    let form = c.get("/challenges/new").await;
    let list = form
        .body
        .split("<datalist id=\"rivals\">")
        .nth(1)
        .and_then(|l| l.split("</datalist>").next())
        .unwrap_or_else(|| panic!("no completion list: {}", form.body));
    for bot in ["idle", "random", "greedy", "strong"] {
        assert!(
            list.contains(&format!(
                "<option value=\"{bot}\" data-game=\"bottlebats\">"
            )),
            "{list}"
        );
    }
    assert_eq!(
        form.body.matches("list=\"rivals\"").count(),
        7,
        "as many fields as opponents at one game"
    );
    // One name a field, played as named.
    let r = c
        .post(
            "/challenges",
            &[
                ("bot", "mine"),
                ("mode", "named"),
                ("names", "idle"),
                ("names", ""),
                ("names", "strong"),
                ("games", "2"),
            ],
        )
        .await;
    assert_eq!(r.status, 303, "{}", r.body);
    let asked: String = sqlx::query_scalar("select asked from challenges")
        .fetch_one(&c.state.db)
        .await
        .unwrap();
    assert_eq!(asked, "idle, strong");
    // A number out of range says the range.
    let r = c
        .post(
            "/challenges",
            &[
                ("bot", "mine"),
                ("mode", "near"),
                ("k", "1"),
                ("games", "-1"),
            ],
        )
        .await;
    assert_eq!(r.status, 400);
    assert!(r.body.contains("whole number from 1 to 20"), "{}", r.body);
}

#[tokio::test]
async fn owners_are_held_to_their_limits_and_organizers_can_turn_challenges_off() {
    let (mut c, b, token) = site("limits", config(10, 1)).await;
    let ask = |games: u32| json!({"bot": "mine", "opponents": {"near": 1}, "games": games});
    let r = api_json(&mut c, "/api/challenges", &token, &ask(6)).await;
    assert_eq!(r.status, 201, "{}", r.body);
    // One at once: the second waits for the first to finish.
    let (status, message) = refused(&mut c, &token, "/api/challenges", ask(2)).await;
    assert_eq!(status, 429);
    assert!(message.contains("still playing"), "{message}");
    sqlx::query(
        "update matches set status = 'void', void_reason = 'test' where challenge_id is not null",
    )
    .execute(&c.state.db)
    .await
    .unwrap();
    // Ten games an hour: 6 asked, 4 left.
    let (status, message) = refused(&mut c, &token, "/api/challenges", ask(5)).await;
    assert_eq!(status, 429);
    assert!(
        message.contains("10 games an hour and have 4 left"),
        "{message}"
    );
    let r = api_json(&mut c, "/api/challenges", &token, &ask(4)).await;
    assert_eq!(r.status, 201, "{}", r.body);

    // Another user has their own allowance, and cannot see a way into alice's bot.
    let mut bob = c.stranger();
    bob.register("bob", PW).await;
    let bob_token = bob.new_token("b").await;
    let (status, _) = refused(&mut bob, &bob_token, "/api/challenges", ask(1)).await;
    assert_eq!(status, 403);

    // Off: refused with the reason, and the queued games are not played.
    sqlx::query("update users set is_admin = true where name = 'alice'")
        .execute(&c.state.db)
        .await
        .unwrap();
    let r = c
        .post("/admin/ranker", &[("action", "challenges-off")])
        .await;
    assert_eq!(r.status, 303);
    let (status, message) = refused(&mut c, &token, "/api/challenges", ask(1)).await;
    assert_eq!(status, 503);
    assert!(
        message.contains("turned off by the organizers"),
        "{message}"
    );
    assert!(c
        .get("/admin")
        .await
        .body
        .contains("Challenges and A/B tests are <strong>off</strong>"));
    let w = common::worker(&b, "off", 40);
    assert!(
        w.claim().await.unwrap().is_none(),
        "a challenge's game was played while off"
    );
    c.post("/admin/ranker", &[("action", "challenges-on")])
        .await;
    let claimed = w.claim().await.unwrap().expect("played again once on");
    assert!(!claimed.ranked);
}

/// The A/B test form of a version on the bot page: refused, the page comes back with
/// the games as typed in that version's form, marked, and the reason above the
/// versions.
#[tokio::test]
async fn a_refused_ab_test_comes_back_on_the_bot_page_with_the_games_typed() {
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    let db = c.state.db.clone();
    crate::ladder::by_game::bot_of(&db, "alice", "Keeper", "bottlebats", 25.0).await;
    sqlx::query(
        "insert into bot_versions (bot_id, number, language, entry, archive, archive_name, \
             archive_sha256, status) \
         select id, 2, 'python', 'bot.py', '\\x00', 'bot.py', sha256('\\x00'), 'ready' \
         from bots where name = 'Keeper'",
    )
    .execute(&db)
    .await
    .unwrap();
    for (games, says) in [
        ("7", "Ask for an even number of games from 2 to 100, not 7"),
        (
            "ten",
            "The number of games is a whole number, not <code>ten</code>.",
        ),
    ] {
        let r = c
            .post(
                "/abtests",
                &[("bot", "Keeper"), ("candidate", "2"), ("games", games)],
            )
            .await;
        assert_eq!(r.status, 400, "{games}: {}", r.body);
        assert!(r.body.contains(says), "{games}: {}", r.body);
        let at = r
            .body
            .find("<input type=\"number\" name=\"games\"")
            .unwrap();
        let field = &r.body[at..at + r.body[at..].find('>').unwrap()];
        assert!(
            field.contains(&format!("value=\"{games}\"")) && field.contains("aria-invalid"),
            "{field}"
        );
        assert!(r.body.contains("<h1"), "the bot page: {}", r.body);
    }
}

/// A refused challenge gives its fields back escaped and cut to their lengths: a
/// number's 20 characters, an opponent's name's 64.
#[tokio::test]
async fn a_refused_challenge_gives_back_its_fields_cut_and_escaped() {
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    crate::ladder::by_game::bot_of(&c.state.db, "alice", "mine", "bottlebats", 25.0).await;
    let version = "1".repeat(50);
    let rival = format!("<x>{}", "n".repeat(200));
    let r = c
        .post(
            "/challenges",
            &[
                ("bot", "mine"),
                ("version", &version),
                ("mode", "named"),
                ("names", &rival),
                ("games", "4"),
            ],
        )
        .await;
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(
        r.body.contains("The version is a whole number"),
        "{}",
        r.body
    );
    assert!(r.body.contains(&format!(
        "name=\"version\" min=\"1\" value=\"{}\"",
        "1".repeat(20)
    )));
    assert!(!r.body.contains(&"1".repeat(21)));
    let kept = format!("<x>{}", "n".repeat(61));
    assert!(
        [
            kept.replace('<', "&#60;").replace('>', "&#62;"),
            kept.replace('<', "&lt;").replace('>', "&gt;"),
        ]
        .iter()
        .any(|k| r.body.contains(&format!("name=\"names\" value=\"{k}\""))),
        "{}",
        r.body
    );
    assert!(!r.body.contains(&"n".repeat(62)));
    assert!(r.body.contains("name=\"games\" min=\"1\""));
}
