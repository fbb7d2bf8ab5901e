//! Challenges and A/B tests played by real bots: what the API and the pages say, and
//! that no rating or record moves.

use serde_json::json;

use super::{api_json, ladder_state, site};

/// An A/B test's match: scenario, arm, map, bots and versions by seat.
type PairRow = (i32, String, i64, Vec<i64>, Vec<i64>);
use crate::builds::{greedy, status};
use crate::common;

#[tokio::test]
async fn a_challenge_plays_unranked_games_with_rotating_seats() {
    let (mut c, b, token) = site("played", common::test_config()).await;
    let before = ladder_state(&c).await;
    let r = api_json(
        &mut c,
        "/api/challenges",
        &token,
        &json!({"bot": "mine", "opponents": ["idle", "strong"], "games": 4, "players": 2,
                "maps": ["ring-2p"]}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.json()["id"].as_i64().unwrap();
    assert_eq!(r.json()["url"], format!("/challenges/{id}"));
    let queued = c
        .api_get(&format!("/api/challenges/{id}"), &token)
        .await
        .json();
    assert_eq!(queued["status"], "queued");
    assert_eq!(queued["total"], 4);

    // The page says so to anyone, with its games waiting.
    let page = c.stranger().get(&format!("/challenges/{id}")).await;
    assert_eq!(page.status, 200);
    assert!(page.body.contains("0 of 4 games"), "{}", page.body);
    assert!(page.body.contains("unranked"));

    let w = common::worker(&b, "challenger", 40);
    while w.run_one().await.unwrap() {}

    let v = c
        .api_get(&format!("/api/challenges/{id}"), &token)
        .await
        .json();
    assert_eq!(v["status"], "finished", "{v}");
    assert_eq!(v["done"], 4);
    the_games_rotate_and_add_up(&v);
    // No rating, record or rating history moved.
    assert_eq!(
        ladder_state(&c).await,
        before,
        "unranked games changed the ladder"
    );

    let first = v["games"][0]["match"].as_i64().unwrap();
    they_are_marked_unranked(&mut c, id, first).await;

    // The page, finished, stops following.
    let page = c.get(&format!("/challenges/{id}")).await;
    assert!(page.body.contains("Done: 4 of 4 games"), "{}", page.body);
    assert!(page.body.contains("data-live-done"));
}

/// Duels against idle and strong in turn, mine at each seat twice, on ring-2p; the
/// summary adds up, against each opponent and on each map.
fn the_games_rotate_and_add_up(v: &serde_json::Value) {
    let games = v["games"].as_array().unwrap();
    // Duels against idle and strong in turn, mine at each seat twice.
    let rivals: Vec<&str> = games
        .iter()
        .map(|g| {
            let p = g["players"].as_array().unwrap();
            p.iter()
                .map(|x| x.as_str().unwrap())
                .find(|n| *n != "mine")
                .unwrap()
        })
        .collect();
    assert_eq!(rivals, ["idle", "strong", "idle", "strong"]);
    let seats: Vec<usize> = games
        .iter()
        .map(|g| {
            g["players"]
                .as_array()
                .unwrap()
                .iter()
                .position(|x| x == "mine")
                .unwrap()
        })
        .collect();
    assert_eq!(seats, [0, 1, 0, 1]);
    for g in games {
        assert_eq!(g["map"], "ring-2p");
        assert!(
            g["ranks"].as_array().unwrap().iter().all(|r| r.is_i64()),
            "{g}"
        );
    }
    // The summary adds up, against each opponent and on each map.
    let s = &v["summary"];
    let sum = |x: &serde_json::Value| {
        x["wins"].as_i64().unwrap() + x["draws"].as_i64().unwrap() + x["losses"].as_i64().unwrap()
    };
    assert_eq!(sum(s), 4);
    assert_eq!(s["opponents"].as_array().unwrap().len(), 2);
    assert!(
        s["opponents"]
            .as_array()
            .unwrap()
            .iter()
            .all(|o| sum(o) == 2),
        "{s}"
    );
    assert_eq!(s["maps"][0]["map"], "ring-2p");
    assert_eq!(sum(&s["maps"][0]), 4);
}

/// Marked unranked in the lists, the match's JSON and its page; the filter finds them;
/// the opponents' owner sees them.
async fn they_are_marked_unranked(c: &mut crate::common::Client, id: i64, first: i64) {
    // Marked unranked in the lists, the match's JSON and its page; the filter finds them.
    let all = c.get("/api/matches?kind=unranked").await.json();
    assert_eq!(all["matches"].as_array().unwrap().len(), 4);
    assert!(all["matches"]
        .as_array()
        .unwrap()
        .iter()
        .all(|m| m["ranked"] == false));
    let ranked = c.get("/api/matches?kind=ranked").await.json();
    assert!(ranked["matches"].as_array().unwrap().is_empty());
    let m = c.get(&format!("/api/matches/{first}")).await.json();
    assert_eq!(
        (m["ranked"].clone(), m["challenge"].clone()),
        (json!(false), json!(id))
    );
    let page = c.get(&format!("/matches/{first}")).await;
    assert!(
        page.body.contains(&format!("href=\"/challenges/{id}\"")),
        "{}",
        page.body
    );
    let list = c.get("/matches?kind=unranked").await;
    assert_eq!(list.body.matches("tag unranked").count(), 4);
    // The bot page's recent matches are its ranked ones; the unranked are a link away.
    let page = c.get("/bots/mine").await.body;
    assert!(
        page.contains("No finished ranked match yet")
            && page.contains("href=\"/matches?bot=mine&amp;kind=unranked\""),
        "{page}"
    );
    assert!(!page.contains(&format!("href=\"/matches/{first}\"")));
    // The opponents' owner sees them among its bots' matches.
    let house = c.get("/api/matches?user=house").await.json();
    assert_eq!(house["matches"].as_array().unwrap().len(), 4);
}

/// The A/B test's `games` matches come in pairs that differ only in the version.
async fn its_games_come_in_pairs(c: &crate::common::Client, id: i64, games: usize) {
    let pairs: Vec<PairRow> = sqlx::query_as(
        "select m.scenario, m.arm, m.map_id, \
             array(select bot_id from match_players p where p.match_id = m.id order by seat), \
             array(select version_id from match_players p where p.match_id = m.id order by seat) \
         from matches m where challenge_id = $1 order by m.id",
    )
    .bind(id)
    .fetch_all(&c.state.db)
    .await
    .unwrap();
    assert_eq!(pairs.len(), games);
    for p in pairs.chunks(2) {
        let (a, b) = (&p[0], &p[1]);
        assert_eq!((a.0, a.1.as_str(), b.0, b.1.as_str()), (b.0, "a", a.0, "b"));
        assert_eq!((a.2, &a.3), (b.2, &b.3), "same map and seats");
        let differ = a.4.iter().zip(&b.4).filter(|(x, y)| x != y).count();
        assert_eq!(differ, 1, "only the bot's version differs: {a:?} {b:?}");
    }
}

/// Version 2 of `mine`, a candidate, built and ready, with its button on the bot page.
async fn a_ready_candidate(c: &mut crate::common::Client, b: &server::builds::Builder) {
    c.upload(
        "/bots/mine/versions",
        &[("candidate", "on")],
        Some(("bot.py", greedy())),
    )
    .await;
    while b.build_next().await.unwrap() {}
    assert_eq!(status(c, "mine", 2).await.0, "ready");
    let page = c.get("/bots/mine").await;
    assert!(page.body.contains("Start the A/B test"), "the button");
}

#[tokio::test]
async fn an_ab_test_pairs_its_games_and_gives_an_interval_and_a_verdict() {
    // An allowance for the games the verdict asks for, on top of the first six.
    let settings = server::config::Settings {
        pending_builds: Some(100),
        challenge_games_per_hour: Some(1000),
        ..Default::default()
    };
    let config = server::config::Config::load(settings, None).unwrap();
    let (mut c, b, token) = site("abtest", config).await;
    a_ready_candidate(&mut c, &b).await;
    let before = ladder_state(&c).await;

    let r = api_json(
        &mut c,
        "/api/abtests",
        &token,
        &json!({"bot": "mine", "candidate": 2, "games": 6}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.json()["id"].as_i64().unwrap();
    assert_eq!(r.json()["url"], format!("/abtests/{id}"));
    its_games_come_in_pairs(&c, id, 6).await;

    let w = common::worker(&b, "abtester", 40);
    it_tells_the_time_left_once_two_games_are_done(&mut c, &w, id).await;
    while w.run_one().await.unwrap() {}
    let v = c
        .api_get(&format!("/api/abtests/{id}"), &token)
        .await
        .json();
    assert_eq!(v["status"], "finished", "{v}");
    assert_eq!(
        (v["a"]["version"].clone(), v["b"]["version"].clone()),
        (json!(1), json!(2))
    );
    let n = |s: &serde_json::Value| {
        s["wins"].as_i64().unwrap() + s["draws"].as_i64().unwrap() + s["losses"].as_i64().unwrap()
    };
    assert_eq!((n(&v["a"]), n(&v["b"])), (3, 3), "{v}");
    assert_eq!(v["pairs"], 3);
    let (lo, hi) = (
        v["ci95"][0].as_f64().unwrap(),
        v["ci95"][1].as_f64().unwrap(),
    );
    let d = v["difference"].as_f64().unwrap();
    assert!(lo <= d && d <= hi, "{v}");
    // Three scenarios are too few for a verdict: it says how many more would tell.
    let verdict = v["verdict"].as_str().unwrap();
    assert!(
        verdict.starts_with("No difference found yet — "),
        "{verdict}"
    );
    assert!(verdict.ends_with(" more games would tell"), "{verdict}");
    assert_eq!(
        ladder_state(&c).await,
        before,
        "unranked games changed the ladder"
    );

    // The page shows both sides, the verdict and the owner's "Make B active".
    let page = c.get(&format!("/abtests/{id}")).await;
    assert!(
        page.body.contains("B: version 2") && page.body.contains(verdict),
        "{}",
        page.body
    );
    assert!(page.body.contains("Make B active"));
    its_owner_adds_the_games_that_would_tell(&mut c, &w, id, verdict).await;
    assert!(!c
        .stranger()
        .get(&format!("/abtests/{id}"))
        .await
        .body
        .contains("Make B active"));
    let r = c.post("/bots/mine/versions/2/activate", &[]).await;
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(crate::builds::active(&c, "mine").await, Some(2));
    // A challenge's id is not an A/B test's.
    assert_eq!(c.get(&format!("/challenges/{id}")).await.status, 404);
}

/// Before two games are done the progress says the time left will come; after, it
/// tells it for the games still to play.
async fn it_tells_the_time_left_once_two_games_are_done(
    c: &mut crate::common::Client,
    w: &server::worker::Worker,
    id: i64,
) {
    let page = c.get(&format!("/abtests/{id}/live")).await;
    assert!(
        page.body
            .contains("The time left shows once two games have finished"),
        "{}",
        page.body
    );
    for _ in 0..2 {
        assert!(w.run_one().await.unwrap());
    }
    let page = c.get(&format!("/abtests/{id}/live")).await;
    let told = page
        .body
        .split("class=\"time-left\">")
        .nth(1)
        .unwrap_or_default();
    assert!(
        told.starts_with("<strong>") && told.contains("left for the 4 games to play"),
        "{}",
        page.body
    );
}

/// "N more games would tell" comes with a button for its owner only; pressed, the
/// games join the test as new scenarios of the same two versions, and play.
async fn its_owner_adds_the_games_that_would_tell(
    c: &mut crate::common::Client,
    w: &server::worker::Worker,
    id: i64,
    verdict: &str,
) {
    let said: u32 = verdict
        .trim_start_matches("No difference found yet — ")
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap();
    let offered = (said + said % 2).min(server::challenges::MAX_AB_GAMES);
    let page = c.get(&format!("/abtests/{id}")).await;
    assert!(
        page.body.contains(&format!("Play {offered} more games")),
        "{}",
        page.body
    );
    let mut stranger = c.stranger();
    assert!(!stranger
        .get(&format!("/abtests/{id}"))
        .await
        .body
        .contains("more games</button>"));
    let more = format!("/abtests/{id}/more");
    let games = offered.to_string();
    stranger.register("mallory", crate::builds::PW).await;
    let r = stranger.post(&more, &[("games", &games)]).await;
    assert_eq!(r.status, 403, "another's A/B test: {}", r.body);
    assert!(r.body.contains("not yours"), "{}", r.body);
    let r = c.post(&more, &[("games", "-4")]).await;
    assert_eq!(r.status, 400);
    assert!(r.body.contains("from 2 to 100, not -4"), "{}", r.body);
    let r = c.post(&more, &[("games", &games)]).await;
    assert_eq!(r.status, 303, "{}", r.body);
    its_games_come_in_pairs(c, id, 6 + offered as usize).await;
    let scenarios: Vec<i32> = sqlx::query_scalar(
        "select distinct scenario from matches where challenge_id = $1 order by scenario",
    )
    .bind(id)
    .fetch_all(&c.state.db)
    .await
    .unwrap();
    assert_eq!(
        scenarios,
        (0..(3 + offered as i32 / 2)).collect::<Vec<_>>(),
        "they go on where the test stopped"
    );
    assert!(w.run_one().await.unwrap(), "the added games are played");
    let page = c.get(&format!("/abtests/{id}")).await;
    assert!(
        page.body
            .contains(&format!("Playing: 7 of {} games", 6 + offered)),
        "{}",
        page.body
    );
}

/// "Me against 2 × strong": one opponent in two seats of every game, told apart in the
/// game, listed once a match, counted once a game against the challenger.
#[tokio::test]
async fn one_opponent_takes_several_seats_of_a_challenge() {
    let (mut c, b, token) = site("seats", common::test_config()).await;
    let before = ladder_state(&c).await;
    let r = api_json(
        &mut c,
        "/api/challenges",
        &token,
        &json!({"bot": "mine", "opponents": ["2 × strong"], "games": 3, "maps": ["triad-3p"]}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.json()["id"].as_i64().unwrap();
    // The same in a list: a name given twice is two seats.
    let again =
        json!({"bot": "mine", "opponents": ["strong", "strong"], "games": 1, "maps": ["triad-3p"]});
    let r = api_json(&mut c, "/api/challenges", &token, &again).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let w = common::worker(&b, "seats", 40);
    while w.run_one().await.unwrap() {}

    let v = c
        .api_get(&format!("/api/challenges/{id}"), &token)
        .await
        .json();
    assert_eq!(v["status"], "finished", "{v}");
    assert_eq!(v["opponents"], "2 × strong", "{v}");
    for g in v["games"].as_array().unwrap() {
        let mut players: Vec<&str> = (g["players"].as_array().unwrap().iter())
            .map(|p| p.as_str().unwrap())
            .collect();
        players.sort();
        assert_eq!(players, ["mine", "strong", "strong"], "{g}");
    }
    // Against strong: one result a game, whatever its two seats did.
    let s = &v["summary"];
    assert_eq!(s["opponents"].as_array().unwrap().len(), 1, "{s}");
    assert_eq!(s["opponents"][0]["bot"], "strong");
    let sum = |x: &serde_json::Value| {
        x["wins"].as_i64().unwrap() + x["draws"].as_i64().unwrap() + x["losses"].as_i64().unwrap()
    };
    assert_eq!(sum(&s["opponents"][0]), 3, "{s}");

    // Its page lists each player of each game with its forts.
    let page = c.get(&format!("/challenges/{id}")).await.body;
    assert_eq!(page.matches(" forts</small>").count(), 9, "{page}");
    // ... each named as in the game, and the opponents said once.
    assert_eq!(page.matches(">strong-2</span> <small").count(), 3, "{page}");
    assert!(page.contains("against 2 × strong</h1>"), "{page}");
    let list = c.get("/matches?bot=strong&kind=unranked").await.body;
    assert!(list.contains(">strong-2</a>"), "{list}");
    // In the game, the second seat is `strong-2`: the replay names three players.
    let first = v["games"][0]["match"].as_i64().unwrap();
    let replay = c.get(&format!("/api/matches/{first}/replay")).await.json();
    let mut names: Vec<&str> = (replay["players"].as_array().unwrap().iter())
        .map(|p| p.as_str().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["mine", "strong", "strong-2"],
        "{}",
        replay["players"]
    );
    // The match page shows every seat; strong's list shows each match once.
    let page = c.get(&format!("/matches/{first}")).await.body;
    assert_eq!(page.matches("href=\"/bots/strong\"").count(), 2, "{page}");
    assert!(page.contains(">as strong-2</small>"), "{page}");
    let listed = c.get("/api/matches?bot=strong").await.json();
    let ids: Vec<i64> = (listed["matches"].as_array().unwrap().iter())
        .map(|m| m["id"].as_i64().unwrap())
        .collect();
    let mut distinct = ids.clone();
    distinct.dedup();
    assert_eq!((ids.len(), distinct.len()), (4, 4), "{listed}");
    // Unranked as any challenge: no rating or record moved.
    assert_eq!(ladder_state(&c).await, before);

    // The ladder never seats a bot twice.
    let twice: i64 = sqlx::query_scalar(
        "select count(*) from (select 1 from match_players p join matches m on m.id = p.match_id \
         where m.challenge_id is null group by p.match_id, p.bot_id having count(*) > 1) x",
    )
    .fetch_one(&c.state.db)
    .await
    .unwrap();
    assert_eq!(twice, 0);
}
