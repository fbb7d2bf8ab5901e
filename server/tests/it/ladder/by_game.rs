//! Each game its own ladder, with Bottle Bats and Vindinium open: the leaderboard (its
//! page, its rows, its search, its JSON) lists one game's bots ranked 1..n, Bottle
//! Bats' without `game`; an unknown or closed game is refused; a bot's page, its
//! owner's pages and the user page rank it among its own game's bots; the pages switch
//! between the open games; and each game's live channel features its own matches.

use axum::http::StatusCode;
use serde_json::Value;
use sqlx::PgPool;

use super::PW;
use crate::common::Client;

/// Bottle Bats bots (ann's), best first: three.
const BOTTLEBATS: [&str; 3] = ["bb-top", "bb-mid", "bb-low"];
/// Vindinium bots (ann's and ben's), best first: four, rated in between and above the
/// Bottle Bats bots so that one ranking of both would interleave them.
const VINDINIUM: [&str; 4] = ["vin-a", "vin-b", "vin-c", "vin-d"];

/// Opens both games (before any page reads the open games) with their maps.
pub async fn open_both(db: &PgPool) {
    let both = ["bottlebats".to_string(), "vindinium".to_string()];
    server::games::set_open(db, &both).await.unwrap();
    server::ranker::load_shipped_maps(db).await.unwrap();
}

/// A bot of `game` owned by `owner`, rated `mu` (σ 1), with a version that plays.
pub async fn bot_of(db: &PgPool, owner: &str, name: &str, game: &str, mu: f64) {
    sqlx::query(
        "insert into bots (owner_id, name, mu, sigma, game) \
         select id, $2, $3, 1, $4 from users where name = $1",
    )
    .bind(owner)
    .bind(name)
    .bind(mu)
    .bind(game)
    .execute(db)
    .await
    .unwrap();
    sqlx::query(
        "with v as (insert into bot_versions (bot_id, number, language, entry, archive, \
             archive_name, archive_sha256, status) \
           select id, 1, 'python', 'bot.py', '\\x00', 'bot.py', sha256('\\x00'), 'active' \
           from bots where name = $1 returning id, bot_id) \
         update bots set active_version_id = v.id from v where bots.id = v.bot_id",
    )
    .bind(name)
    .execute(db)
    .await
    .unwrap();
}

/// Ann (logged in) and Ben with bots of both games, and a stranger.
async fn two_ladders() -> (Client, Client) {
    let mut ann = Client::new().await;
    let db = ann.state.db.clone();
    open_both(&db).await;
    ann.register("ann", PW).await;
    ann.stranger().register("ben", PW).await;
    for (bot, mu) in BOTTLEBATS.iter().zip([40.0, 30.0, 20.0]) {
        bot_of(&db, "ann", bot, "bottlebats", mu).await;
    }
    for (i, (bot, mu)) in VINDINIUM.iter().zip([50.0, 35.0, 25.0, 10.0]).enumerate() {
        let owner = if i % 2 == 0 { "ann" } else { "ben" };
        bot_of(&db, owner, bot, "vindinium", mu).await;
    }
    let stranger = ann.stranger();
    (ann, stranger)
}

/// The (rank, bot) of each row of leaderboard rows.
fn ranked(rows: &str) -> Vec<(usize, String)> {
    super::paging::ranked(rows)
}

/// The (rank, bot) of each standing of `/api/leaderboard`.
fn api_ranked(v: &Value) -> Vec<(usize, String)> {
    (v["leaderboard"].as_array().unwrap().iter())
        .map(|s| {
            let rank = s["rank"].as_u64().unwrap() as usize;
            (rank, s["bot"].as_str().unwrap().to_string())
        })
        .collect()
}

/// `names` ranked 1, 2, ... in their order.
fn in_order(names: &[&str]) -> Vec<(usize, String)> {
    (names.iter().enumerate())
        .map(|(i, n)| (i + 1, n.to_string()))
        .collect()
}

#[tokio::test]
async fn each_game_has_its_own_leaderboard_and_the_default_url_is_bottle_bats() {
    let (mut ann, mut stranger) = two_ladders().await;

    // The pages: the default game's without `game`, Vindinium's with it; ranks 1..n.
    let default = stranger.get("/leaderboard").await;
    assert_eq!(default.status, StatusCode::OK);
    let table = super::paging::tbody(&default.body, "leaderboard");
    assert_eq!(ranked(table), in_order(&BOTTLEBATS));
    assert!(default.body.contains("of 3 bots"), "{}", default.body);
    let vin = stranger.get("/leaderboard?game=vindinium").await;
    assert_eq!(vin.status, StatusCode::OK);
    let table = super::paging::tbody(&vin.body, "leaderboard");
    assert_eq!(ranked(table), in_order(&VINDINIUM));
    assert!(vin.body.contains("of 4 bots"));
    // Its table refreshes from the game's rows, which are the same.
    assert!(vin
        .body
        .contains(r#"data-live="/leaderboard/rows?game=vindinium""#));
    let rows = stranger.get("/leaderboard/rows?game=vindinium").await;
    assert_eq!(ranked(&rows.body), in_order(&VINDINIUM));
    let rows = stranger.get("/leaderboard/rows").await;
    assert_eq!(ranked(&rows.body), in_order(&BOTTLEBATS));

    // The switcher: both games, the one shown marked, and its live channel.
    assert!(default
        .body
        .contains(r#"<a href="/leaderboard" aria-current="page">Bottle Bats</a>"#));
    assert!(default
        .body
        .contains(r#"<a href="/leaderboard?game=vindinium">Vindinium</a>"#));
    assert!(default.body.contains(r#"href="/live">Watch live</a>"#));
    assert!(vin
        .body
        .contains(r#"<a href="/leaderboard?game=vindinium" aria-current="page">Vindinium</a>"#));
    assert!(vin
        .body
        .contains(r#"href="/live?game=vindinium">Watch live</a>"#));
    // A search keeps to the game shown: the form carries it.
    assert!(vin
        .body
        .contains(r#"<input type="hidden" name="game" value="vindinium">"#));
    let found = stranger.get("/leaderboard?game=vindinium&q=ben").await;
    let table = super::paging::tbody(&found.body, "leaderboard");
    assert_eq!(
        ranked(table),
        vec![(2, "vin-b".to_string()), (4, "vin-d".to_string())]
    );
    let found = stranger.get("/leaderboard?game=vindinium&q=bb-").await;
    assert!(found.body.contains("No bot or owner name starts with"));

    // The visitor's bots of the game shown, among their neighbours.
    let mine = ann.get("/leaderboard?game=vindinium").await;
    let table = super::paging::tbody(&mine.body, "my-bots");
    assert_eq!(ranked(table), in_order(&VINDINIUM));
    assert!(
        mine.body
            .contains(r#"data-live="/leaderboard/rows?game=vindinium&#38;mine=1""#),
        "{}",
        mine.body
    );

    // The API: the same lists, whole or by page, each saying its game.
    let all = stranger.get("/api/leaderboard").await.json();
    assert_eq!(all["game"], "bottlebats");
    assert_eq!(api_ranked(&all), in_order(&BOTTLEBATS));
    let all = stranger.get("/api/leaderboard?game=vindinium").await.json();
    assert_eq!(all["game"], "vindinium");
    assert_eq!(api_ranked(&all), in_order(&VINDINIUM));
    let games = stranger.get("/api/games").await.json();
    assert_eq!(
        games["games"][1]["leaderboard"],
        "/api/leaderboard?game=vindinium"
    );
    assert_eq!(games["games"][1]["live"], "/api/live?game=vindinium");
    let page = (stranger
        .get("/api/leaderboard?game=vindinium&page=2&limit=3")
        .await)
        .json();
    assert_eq!(page["bots"], 4);
    assert_eq!(page["pages"], 2);
    assert_eq!(api_ranked(&page), vec![(4, "vin-d".to_string())]);

    // A game that is not there is refused, named, on every door.
    for path in [
        "/leaderboard?game=nope",
        "/leaderboard/rows?game=nope",
        "/api/leaderboard?game=nope",
        "/api/leaderboard?game=nope&page=1",
        "/live?game=nope",
        "/api/live?game=nope",
    ] {
        let r = stranger.get(path).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{path}");
        assert!(
            r.body.contains("open games: bottlebats, vindinium"),
            "{path}: {}",
            r.body
        );
    }
    assert_eq!(
        stranger.get("/api/leaderboard?game=nope").await.json()["error"]
            .as_str()
            .unwrap(),
        "no open game is called `nope`; open games: bottlebats, vindinium"
    );

    // The match list switches the same way, and filters within its game.
    let matches = stranger.get("/matches?game=vindinium").await.body;
    assert!(
        matches.contains(r#"<a href="/matches?game=vindinium" aria-current="page">Vindinium</a>"#)
    );
    assert!(matches.contains(r#"<input type="hidden" name="game" value="vindinium">"#));
    // Its map filter offers the game's maps only.
    assert!(matches.contains(r#"<option value="m1""#), "{matches}");
    assert!(!matches.contains(r#"<option value="duel-2p""#));
    let bottlebats = stranger.get("/matches").await.body;
    assert!(bottlebats.contains(r#"<option value="duel-2p""#));
    // The home page leads to the other game's ladder.
    let home = stranger.get("/").await.body;
    assert!(home.contains(r#"href="/leaderboard?game=vindinium""#));
}

#[tokio::test]
async fn a_bot_is_ranked_among_its_own_games_bots_everywhere() {
    let (mut ann, mut stranger) = two_ladders().await;
    // Every bot stood a day ago as it does now (the places of a day ago are read once
    // and kept: set before any page).
    sqlx::query("update bots set created_at = now() - interval '2 days'")
        .execute(&ann.state.db)
        .await
        .unwrap();
    // A bot page: vin-c is 3rd of Vindinium's 4, whatever the Bottle Bats bots' ratings
    // (5th of both), and was 3rd of them yesterday.
    let page = stranger.get("/bots/vin-c").await;
    assert!(
        page.body
            .contains(r#"<strong class="rank">#3 of 4 Vindinium bots</strong>"#),
        "{}",
        page.body
    );
    assert!(
        page.body.contains("no change since yesterday"),
        "{}",
        page.body
    );
    let page = stranger.get("/bots/bb-mid").await;
    assert!(
        page.body
            .contains(r#"<strong class="rank">#2 of 3 Bottle Bats bots</strong>"#),
        "{}",
        page.body
    );
    // The owner's profile and home page.
    for path in ["/profile", "/"] {
        let body = ann.get(path).await.body;
        for rank in [
            "#1 of 3 Bottle Bats bots",
            "#3 of 3 Bottle Bats bots",
            "#1 of 4 Vindinium bots",
            "#3 of 4 Vindinium bots",
        ] {
            assert!(body.contains(rank), "{path}: {rank}");
        }
    }
    // The user page: a table of each game's bots, ranked in it.
    let user = stranger.get("/users/ben").await.body;
    assert!(user.contains("2 bots on the ladder"), "{user}");
    assert!(user.contains("best rank <strong>2</strong> in Vindinium"));
    assert!(user.contains(r#"<h3 class="board-game">Vindinium</h3>"#));
    assert!(!user.contains(r#"<h3 class="board-game">Bottle Bats</h3>"#));
}

#[tokio::test]
async fn each_games_live_channel_features_its_own_matches() {
    let (_, mut stranger) = two_ladders().await;
    let db = stranger.state.db.clone();
    // A running match of each game: Vindinium's has the best rated bot of all.
    for (game, bots) in [
        ("bottlebats", &BOTTLEBATS[..2]),
        ("vindinium", &VINDINIUM[..]),
    ] {
        sqlx::query(
            "with m as (insert into matches (status, map_id, started_at) \
                 select 'running', id, now() from maps where game = $1 order by id limit 1 \
                 returning id) \
             insert into match_players (match_id, seat, bot_id, version_id) \
             select m.id, b.i - 1, bots.id, bots.active_version_id \
             from m, unnest($2::text[]) with ordinality b(name, i) join bots on bots.name = b.name",
        )
        .bind(game)
        .bind(bots)
        .execute(&db)
        .await
        .unwrap();
    }
    let (bottlebats, vindinium): (i64, i64) = sqlx::query_as(
        "select min(id) filter (where game = 'bottlebats'), min(id) filter (where game = 'vindinium') \
         from matches",
    )
    .fetch_one(&db)
    .await
    .unwrap();
    let live = stranger.get("/api/live").await.json();
    assert_eq!(live["game"], "bottlebats");
    assert_eq!(live["match"], bottlebats, "{live}");
    let live = stranger.get("/api/live?game=vindinium").await.json();
    assert_eq!(live["game"], "vindinium");
    assert_eq!(live["match"], vindinium, "{live}");
    assert_eq!(live["players"].as_array().unwrap().len(), 4);
    // None newer than it: the channel waits.
    let after = vindinium;
    let next = (stranger
        .get(&format!("/api/live?game=vindinium&after={after}"))
        .await)
        .json();
    assert_eq!(next["match"], Value::Null);
    // The big screen of a game asks for its channel, titled with the game.
    let screen = stranger.get("/live?game=vindinium").await.body;
    assert!(screen.contains(r#"data-game="vindinium""#));
    assert!(screen.contains("<title>Live · Vindinium</title>"));
    // It counts in the game's words, and leads to the other open game's channel.
    assert!(
        screen.contains(r#"<span class="screen-turn-label">Move</span>"#),
        "{screen}"
    );
    assert!(screen.contains(r#"<nav class="screen-switch" aria-label="Other games"><a href="/live?game=bottlebats">Bottle Bats</a></nav>"#), "{screen}");
    let screen = stranger.get("/live").await.body;
    assert!(!screen.contains(r#"main class="screen" data-screen data-state="idle" data-game"#));
    assert!(screen.contains("<title>Live · Bottle Bats</title>"));
    assert!(screen.contains(r#"<span class="screen-turn-label">Turn</span>"#));
    assert!(screen.contains(r#"href="/live?game=vindinium">Vindinium</a>"#));
    // A paused ladder says so on its channel.
    assert_eq!(stranger.get("/api/live").await.json()["paused"], false);
    server::ranker::set_paused(&db, true).await.unwrap();
    assert_eq!(stranger.get("/api/live").await.json()["paused"], true);
}

#[tokio::test]
async fn a_closed_games_ladder_is_refused_and_one_game_shows_no_switcher() {
    let mut c = Client::new().await;
    let r = c.get("/leaderboard?game=vindinium").await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert!(r.body.contains("open games: bottlebats"), "{}", r.body);
    let r = c.get("/api/leaderboard?game=vindinium").await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert_eq!(c.get("/api/live?game=vindinium").await.status, 400);
    // With one game open, the pages are as they were: no switcher.
    for path in ["/leaderboard", "/matches", "/leaderboard?game=bottlebats"] {
        let r = c.get(path).await;
        assert_eq!(r.status, StatusCode::OK, "{path}");
        assert!(!r.body.contains("game-switch"), "{path}");
    }
}
