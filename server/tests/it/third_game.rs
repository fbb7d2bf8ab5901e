//! A third game, added as a contributor adds one (docs/adding-a-game.md): Connect Four
//! ships closed; opened beside Bottle Bats, its house bots register and pass their
//! smoke test on its one board, a contestant's starter kit does too, the scheduler
//! pairs its bots on its board and a worker plays a ranked match whose page, replay and
//! log are the game's own; its pages, rules and local kit are served like any game's.

use crate::builds::{active, builder, status, PW};
use crate::common::Client;

use axum::http::StatusCode;

async fn open_connectfour(c: &Client) {
    let open = ["bottlebats".to_string(), "connectfour".to_string()];
    server::games::set_open(&c.state.db, &open).await.unwrap();
    server::house::register(&c.state.db).await.unwrap();
    server::ranker::load_shipped_maps(&c.state.db)
        .await
        .unwrap();
}

/// A bot that answers column 9 to every board: every answer is a forfeit
/// (games/connectfour/rules.md §6).
const NINE: &str = "import sys\nfor line in sys.stdin:\n    print(9, flush=True)\n";

#[tokio::test]
async fn connectfour_is_closed_until_opened() {
    let mut c = Client::new().await;
    for path in [
        "/rules/connectfour",
        "/docs/connectfour/rules.md",
        "/downloads/connectfour-local-kit.zip",
        "/starters/connectfour/python.zip",
    ] {
        assert_eq!(c.get(path).await.status, StatusCode::NOT_FOUND, "{path}");
    }
    let games = c.get("/api/games").await.json();
    let names: Vec<&str> = (games["games"].as_array().unwrap().iter())
        .map(|g| g["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["bottlebats"]);
    assert!(!c.get("/").await.body.contains("data-game=\"connectfour\""));
}

#[tokio::test]
async fn connectfour_house_bots_pass_their_smoke_test_and_play_a_ranked_match() {
    let mut c = Client::new().await;
    open_connectfour(&c).await;
    let b = builder(&c, "third-game");
    while b.build_next().await.unwrap() {}
    for bot in ["c4-random", "c4-strong"] {
        assert_eq!(status(&c, bot, 1).await, ("active".into(), None), "{bot}");
    }
    // Its one board is its one map, named after it.
    let maps: Vec<(String, String)> =
        sqlx::query_as("select name, game from maps where game = 'connectfour'")
            .fetch_all(&c.state.db)
            .await
            .unwrap();
    assert_eq!(maps, [("connectfour".into(), "connectfour".into())]);

    // A contestant's starter kit, as Getting started offers it, passes too.
    c.register("ann", PW).await;
    let token = c.new_token("kit").await;
    let page = c.get("/getting-started?game=connectfour").await.body;
    for link in [
        "/starters/connectfour/python.zip",
        "/downloads/connectfour-local-kit.zip",
        "/bots/new?game=connectfour",
    ] {
        assert!(page.contains(&format!("href=\"{link}\"")), "{link}: {page}");
    }
    assert!(
        page.contains("drops its disc in the column nearest the centre"),
        "bot.html"
    );
    // Its local kit carries no maps, and Getting started does not promise any.
    assert!(page.contains("the house bots and a ready"), "{page}");
    assert!(!page.contains("the ladder's maps"), "{page}");
    let bb = c.get("/getting-started?game=bottlebats").await.body;
    assert!(bb.contains("the ladder's maps, the house bots"), "{bb}");
    let zip = server::starters::zip_of("connectfour", "python").unwrap();
    let r = c
        .api_upload(
            "/api/bots",
            &token,
            &[("name", "ann-four"), ("game", "connectfour")],
            Some(("python.zip", zip.as_slice())),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    while b.build_next().await.unwrap() {}
    assert_eq!(status(&c, "ann-four", 1).await, ("active".into(), None));
    assert_eq!(active(&c, "ann-four").await, Some(1));

    // The scheduler pairs Connect Four bots on its board; a worker plays one match.
    let settings = server::ranker::matchmaking::Settings::default();
    let made = server::ranker::schedule(&c.state.db, 1, &settings)
        .await
        .unwrap();
    assert!(made >= 1);
    sqlx::query(
        "update matches set status = 'void', void_reason = 'test' \
         where game <> 'connectfour' and status = 'queued'",
    )
    .execute(&c.state.db)
    .await
    .unwrap();
    let w = crate::common::worker(&b, "third-game", 42);
    assert!(w.run_one().await.unwrap(), "a Connect Four match is played");
    let (id, turns): (i64, i32) = sqlx::query_as(
        "select id, turns from matches where game = 'connectfour' and status = 'finished'",
    )
    .fetch_one(&c.state.db)
    .await
    .unwrap();
    assert!((7..=42).contains(&turns), "{turns} moves");

    let m = c.get(&format!("/api/matches/{id}")).await.json();
    assert_eq!(m["game"], "connectfour");
    assert_eq!(m["map"], "connectfour");
    let players = m["players"].as_array().unwrap();
    assert_eq!(players.len(), 2);
    let mut discs = 0;
    for p in players {
        assert!(p["bot"].as_str().unwrap().len() > 2, "{p}");
        assert_eq!(
            p["forfeits"], 0,
            "house bots and the kit never forfeit: {p}"
        );
        assert!(p["mu_after"].is_number(), "rated: {p}");
        assert_eq!(p["error"], serde_json::Value::Null, "{p}");
        discs += p["discs"].as_i64().unwrap();
    }
    assert_eq!(discs, i64::from(turns), "a disc a move");

    // The match page: the game's statistics and its own log's title, and its log.
    let page = c.get(&format!("/matches/{id}")).await.body;
    assert!(
        page.contains(">Discs</th>") && page.contains(">Forfeits</th>"),
        "{page}"
    );
    assert!(!page.contains(">Forts</th>"));
    assert!(page.contains(">Game log (text)</a>"), "{page}");
    assert!(!page.contains("Classic log"), "not Bottle Bats' log");
    assert!(page.contains(&format!("data-replay=\"/matches/{id}/replay.json\"")));
    let log = c.get(&format!("/matches/{id}/log.txt")).await;
    assert_eq!(log.status, StatusCode::OK);
    let lines: Vec<&str> = log.body.lines().collect();
    assert!(lines[0].starts_with("Connect Four: "), "{}", lines[0]);
    assert!(lines[0].ends_with(", 42 moves at most"), "{}", lines[0]);
    assert_eq!(
        log.body.matches("\nmove ").count(),
        turns as usize + 1,
        "every board"
    );
    let last = lines.last().unwrap();
    assert!(
        last.starts_with("result: ")
            && (last.ends_with("wins with four in a row") || last.contains("draw")),
        "{last}"
    );
    let replay = c.get(&format!("/api/matches/{id}/replay")).await;
    let v: serde_json::Value = serde_json::from_str(&replay.body).unwrap();
    assert_eq!(v["format"], "connectfour-replay");
    assert_eq!(v["moves"].as_str().unwrap().len(), turns as usize);

    // Its pages, as any open game's.
    let home = c.get("/").await.body;
    assert!(home.contains("data-game=\"connectfour\""), "{home}");
    assert!(home.contains("Write a bot. Line up four."), "{home}");
    let rules = c.get("/rules/connectfour").await.body;
    assert!(rules.contains("6. Forfeits and time"), "{rules}");
    assert!(rules.contains("href=\"/docs/connectfour/rules.md\""));
    let doc = c.get("/docs/connectfour/rules.md").await;
    assert_eq!(doc.status, StatusCode::OK);
    assert!(doc.body.starts_with("# Connect Four: the rules"));
    let listed = c.get("/api/matches?game=connectfour").await.json();
    assert_eq!(listed["matches"][0]["id"], id, "{listed}");
}

/// The local kit plays as it comes with `bottlebats play`.
#[tokio::test]
async fn the_connectfour_local_kit_plays() {
    let mut c = Client::new().await;
    open_connectfour(&c).await;
    let (got, kit) = c.get_bytes("/downloads/connectfour-local-kit.zip").await;
    assert_eq!(got, StatusCode::OK);
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("connectfour-local-kit");
    let _ = std::fs::remove_dir_all(&dir);
    zip::ZipArchive::new(std::io::Cursor::new(kit))
        .unwrap()
        .extract(&dir)
        .unwrap();
    let kit = dir.join("connectfour-local");
    assert!(kit.join("bots/strong/bot.py").is_file());
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_bottlebats"))
        .args(["play", "config.json"])
        .current_dir(&kit)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(said.starts_with("Winner: strong\n"), "{said}");
    assert!(said.contains("Moves played: "), "{said}");
    assert!(said.contains("discs  forfeits"), "{said}");
    let log = std::fs::read_to_string(kit.join("game.txt")).unwrap();
    assert!(
        log.ends_with("result: strong wins with four in a row\n"),
        "{log}"
    );
    let replay = std::fs::read_to_string(kit.join("game.json")).unwrap();
    assert!(replay.starts_with("{\"format\":\"connectfour-replay\""));
}

/// A bot the game removes at its first move must fail its smoke test: a version that
/// cannot play one legal move should never join the ladder.
#[tokio::test]
async fn a_bot_answering_only_illegal_columns_fails_its_smoke_test() {
    let mut c = Client::new().await;
    open_connectfour(&c).await;
    let b = builder(&c, "third-game-illegal");
    while b.build_next().await.unwrap() {}
    c.register("ben", PW).await;
    let token = c.new_token("kit").await;
    let r = c
        .api_upload(
            "/api/bots",
            &token,
            &[("name", "ben-nine"), ("game", "connectfour")],
            Some(("bot.py", NINE.as_bytes())),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    while b.build_next().await.unwrap() {}
    let (st, failure) = status(&c, "ben-nine", 1).await;
    assert_eq!(st, "failed", "{failure:?}");
    let failure = failure.unwrap_or_default();
    assert!(failure.contains("is not a column"), "{failure}");
    assert_eq!(active(&c, "ben-nine").await, None);
}
