//! Games on one site: with Vindinium open beside Bottle Bats, contestants upload
//! Vindinium bots through the API, which pass their game's smoke test (against its
//! house bots, on its smoke map) and play rated four-hero games among their own kind;
//! `/api/games` says what is open, and lists filter by game.

use crate::builds::{active, builder, status, PW};
use crate::common::Client;

use axum::http::StatusCode;

/// A Vindinium bot that walks towards the nearest mine it does not own, by BFS.
const MINER: &str = r#"
import json, sys
from collections import deque
for line in sys.stdin:
    s = json.loads(line)
    g, me = s["game"], s["hero"]
    n, t = g["board"]["size"], g["board"]["tiles"]
    tile = lambda x, y: t[2 * (x * n + y): 2 * (x * n + y) + 2]
    start = (me["pos"]["x"], me["pos"]["y"])
    mine = "$%d" % me["id"]
    seen, todo, move = {start}, deque([(start, None)]), "Stay"
    while todo:
        (x, y), first = todo.popleft()
        for d, (dx, dy) in (("North", (-1, 0)), ("South", (1, 0)), ("East", (0, 1)), ("West", (0, -1))):
            nx, ny = x + dx, y + dy
            if not (0 <= nx < n and 0 <= ny < n) or (nx, ny) in seen:
                continue
            seen.add((nx, ny))
            k = tile(nx, ny)
            if k.startswith("$") and k != mine:
                move = first or d
                todo.clear()
                break
            if k == "  ":
                todo.append(((nx, ny), first or d))
    print(move, flush=True)
"#;

async fn open_both(c: &Client) {
    let both = ["bottlebats".to_string(), "vindinium".to_string()];
    server::games::set_open(&c.state.db, &both).await.unwrap();
    server::house::register(&c.state.db).await.unwrap();
    server::ranker::load_shipped_maps(&c.state.db)
        .await
        .unwrap();
}

#[tokio::test]
async fn vindinium_bots_build_play_rated_games_and_are_listed_by_game() {
    let mut c = Client::new().await;
    open_both(&c).await;
    let b = builder(&c, "games");
    while b.build_next().await.unwrap() {}
    for name in ["ann", "ben", "cat"] {
        let mut u = c.stranger();
        u.register(name, PW).await;
        let token = u.new_token("kit").await;
        let r = u
            .api_upload(
                "/api/bots",
                &token,
                &[("name", &format!("{name}-miner")), ("game", "vindinium")],
                Some(("bot.py", MINER.as_bytes())),
            )
            .await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    }
    while b.build_next().await.unwrap() {}
    for name in ["ann", "ben", "cat"] {
        let bot = format!("{name}-miner");
        assert_eq!(status(&c, &bot, 1).await, ("active".into(), None), "{bot}");
        assert_eq!(active(&c, &bot).await, Some(1));
    }

    // /api/games: both open, Bottle Bats the default, each with its own bots.
    let games = c.get("/api/games").await.json();
    let list = games["games"].as_array().unwrap();
    assert_eq!(list.len(), 2, "{games}");
    assert_eq!(list[0]["name"], "bottlebats");
    assert_eq!(list[0]["default"], true);
    assert_eq!(list[1]["name"], "vindinium");
    assert_eq!(list[1]["seats"]["min"], 4);
    assert_eq!(list[1]["max_turns"], 1200);
    // The three contestants' and the four house heroes.
    assert_eq!(list[1]["active_bots"], 7, "{games}");

    // The scheduler makes Vindinium games of four among Vindinium bots on its maps.
    let settings = server::ranker::matchmaking::Settings::default();
    let made = server::ranker::schedule(&c.state.db, 1, &settings)
        .await
        .unwrap();
    assert!(made >= 1);
    let queued: Vec<(String, String, i64)> = sqlx::query_as(
        "select m.game, maps.game, (select count(*) from match_players p join bots b on b.id = p.bot_id \
             where p.match_id = m.id and b.game = m.game) from matches m join maps on maps.id = m.map_id \
         where m.status = 'queued'",
    )
    .fetch_all(&c.state.db)
    .await
    .unwrap();
    let vindinium: Vec<_> = queued.iter().filter(|q| q.0 == "vindinium").collect();
    assert_eq!(vindinium.len(), 1, "{queued:?}");
    assert_eq!(vindinium[0].1, "vindinium", "on a Vindinium map");
    assert_eq!(vindinium[0].2, 4, "four Vindinium heroes");
    sqlx::query(
        "update matches set status = 'void', void_reason = 'test' where game <> 'vindinium'",
    )
    .execute(&c.state.db)
    .await
    .unwrap();

    // Closed, its queued match waits; open again, it is played.
    let w = crate::common::worker(&b, "games", 1200);
    let bottlebats_only = ["bottlebats".to_string()];
    server::games::set_open(&c.state.db, &bottlebats_only)
        .await
        .unwrap();
    assert!(!w.run_one().await.unwrap(), "a closed game's match waits");
    open_both(&c).await;
    assert!(w.run_one().await.unwrap());
    let (id, turns): (i64, i32) = sqlx::query_as(
        "select id, turns from matches where game = 'vindinium' and status = 'finished'",
    )
    .fetch_one(&c.state.db)
    .await
    .unwrap();
    assert_eq!(turns, 1200, "a whole game of the game's own length");

    // The result: each hero's gold, mines and deaths; ratings moved.
    let m = c.get(&format!("/api/matches/{id}")).await.json();
    assert_eq!(m["game"], "vindinium");
    let players = m["players"].as_array().unwrap();
    assert_eq!(players.len(), 4);
    for p in players {
        for stat in ["gold", "mines", "deaths"] {
            assert!(p[stat].is_i64(), "{stat} of {p}");
        }
        assert!(p["mu_after"].is_number(), "rated: {p}");
        assert_eq!(p["warnings"], 0, "{p}");
    }
    let gold: Vec<i64> = players
        .iter()
        .map(|p| p["gold"].as_i64().unwrap())
        .collect();
    assert!(gold.iter().any(|&g| g > 0), "miners earn gold: {gold:?}");
    let page = c.get(&format!("/matches/{id}")).await;
    assert!(page.body.contains(">Gold</th>") && page.body.contains(">Deaths</th>"));
    assert!(!page.body.contains(">Forts</th>"));
    assert!(page.body.contains("Game log (JSON lines)"));
    // The game's own log: every state as the bots read it, then the winner.
    let log = c.get(&format!("/matches/{id}/log.txt")).await;
    assert_eq!(log.status, StatusCode::OK);
    let lines: Vec<&str> = log.body.lines().collect();
    assert_eq!(lines.len(), 1202, "1,201 states and the winner");
    assert!(lines[1201].starts_with("{\"winner\":"), "{}", lines[1201]);
    let replay = c.get(&format!("/api/matches/{id}/replay")).await;
    assert!(replay.body.contains("\"format\":\"vindinium-replay\""));

    // Lists by game: the default game's without `game`, Vindinium's with it.
    let listed = c.get("/api/matches?game=vindinium").await.json();
    assert_eq!(listed["game"], "vindinium");
    assert_eq!(listed["matches"][0]["id"], id, "{listed}");
    let default = c.get("/api/matches").await.json();
    assert_eq!(default["game"], "bottlebats");
    assert!(
        !default["matches"]
            .as_array()
            .unwrap()
            .iter()
            .any(|x| x["id"] == id),
        "{default}"
    );
    // The list says the game's words: its moves, and each hero's gold.
    let list = c.get("/matches?game=vindinium").await.body;
    assert!(list.contains(&format!("{turns} moves")), "{list}");
    let most = gold.iter().max().unwrap();
    assert!(
        list.contains(&format!(r#"<span class="first-stat">{most} gold</span>"#)),
        "{list}"
    );
    // On a four-player ladder, "won" says it counts first places only.
    let board = c.get("/leaderboard?game=vindinium").await.body;
    assert!(board.contains(">Won first</th>"), "{board}");
    let bot_page = c.get("/bots/ann-miner").await.body;
    assert!(
        bot_page.contains("won counts the games finished first alone"),
        "{bot_page}"
    );
    // The menu keeps the game of the page it is on (the default game's pages keep
    // plain links), so New bot and the leaderboard open on it.
    let mut visitor = c.stranger();
    visitor.register("menu", PW).await;
    let own = visitor.get("/bots/ann-miner").await.body;
    for page in [&board, &bot_page, &list, &own] {
        let menu = &page[..page.find("</nav>").unwrap()];
        for link in ["/leaderboard", "/matches", "/live"] {
            assert!(
                menu.contains(&format!(r#"href="{link}?game=vindinium""#)),
                "{link} in {menu}"
            );
        }
    }
    assert!(own.contains(r#"href="/bots/new?game=vindinium""#), "{own}");
    let plain = visitor.get("/leaderboard?game=bottlebats").await.body;
    assert!(plain.contains(r#"href="/bots/new">"#), "{plain}");
    let odd = c.get("/leaderboard?game=%22%3E").await;
    assert!(!odd.body.contains("?game=\">"), "{}", odd.body);
    let r = c.get("/api/matches?game=chess").await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert!(r.json()["error"]
        .as_str()
        .unwrap()
        .contains("open games: bottlebats, vindinium"));
    let r = c.get("/matches?game=chess").await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    // The site's pages name the second game and link its rules.
    // The home page shows each open game as an equal.
    let home = c.get("/").await.body;
    for game in ["bottlebats", "vindinium"] {
        assert!(home.contains(&format!(r#"data-game="{game}""#)), "{home}");
        for link in [
            format!("/getting-started?game={game}"),
            format!("/rules/{game}"),
            format!("/leaderboard?game={game}"),
            format!("/live?game={game}"),
        ] {
            assert!(
                home.contains(&format!(r#"href="{link}""#)),
                "{link}: {home}"
            );
        }
    }
    // Each game's rules for players, in the site's layout, linking the other's.
    let rules = c.get("/rules/vindinium").await.body;
    assert!(rules.contains("Most gold wins"), "{rules}");
    assert!(
        rules.contains(r#"href="/docs/vindinium/rules.md""#),
        "{rules}"
    );
    assert!(rules.contains(r#"href="/rules/bottlebats""#), "{rules}");
    let rules = c.get("/rules").await.body;
    assert!(rules.contains(r#"href="/rules/vindinium""#), "{rules}");
    let doc = c.get("/docs/vindinium/rules.md").await;
    assert_eq!(doc.status, StatusCode::OK);
    assert!(doc.body.contains("Vindinium"));
    let old = c.get("/docs/vindinium-rules.md").await;
    assert_eq!(old.status, StatusCode::PERMANENT_REDIRECT);
    assert_eq!(old.headers["location"], "/docs/vindinium/rules.md");
    assert_eq!(c.get("/rules/chess").await.status, StatusCode::NOT_FOUND);
    let mut ann = c.stranger();
    ann.login("ann", PW).await;
    let form = ann.get("/bots/new").await.body;
    assert!(
        form.contains(r#"<option value="vindinium""#),
        "the upload form offers it"
    );
    challenges_and_tournaments_of_vindinium(&mut c).await;
}

/// A Vindinium bot's challenge meets Vindinium bots on Vindinium maps, four a game;
/// a tournament of Vindinium is played in groups of four.
async fn challenges_and_tournaments_of_vindinium(c: &mut Client) {
    use crate::challenges::api_json;
    use serde_json::json;
    let mut ann = c.stranger();
    ann.login("ann", PW).await;
    let token = ann.new_token("challenges").await;
    let ask = |opponents| json!({"bot": "ann-miner", "opponents": opponents, "games": 2});
    let r = api_json(
        &mut ann,
        "/api/challenges",
        &token,
        &ask(json!(["ben-miner"])),
    )
    .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.body);
    assert!(
        r.body.contains("at least 4 players: ask for 3 opponents"),
        "{}",
        r.body
    );
    let r = api_json(&mut ann, "/api/challenges", &token, &ask(json!({"top": 3}))).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    let seats: Vec<(String, String, i64)> = sqlx::query_as(
        "select m.game, maps.game, count(*) from matches m join maps on maps.id = m.map_id \
         join match_players p on p.match_id = m.id join bots b on b.id = p.bot_id \
         where m.challenge_id is not null and b.game = 'vindinium' group by m.id, m.game, maps.game",
    )
    .fetch_all(&c.state.db)
    .await
    .unwrap();
    assert_eq!(seats.len(), 2, "{seats:?}");
    assert!(
        seats
            .iter()
            .all(|s| s == &("vindinium".into(), "vindinium".into(), 4)),
        "{seats:?}"
    );

    c.register("olga", PW).await;
    sqlx::query("update users set is_admin = true where name = 'olga'")
        .execute(&c.state.db)
        .await
        .unwrap();
    let token = c.new_token("tournaments").await;
    let duel = json!({"name": "Duels", "game": "vindinium", "participants": "all", "format": "round-robin"});
    let r = api_json(c, "/api/tournaments", &token, &duel).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.body);
    assert!(
        r.body.contains("A game of Vindinium has 4 players"),
        "{}",
        r.body
    );
    let groups = json!({"name": "Heroes", "game": "vindinium", "participants": "all",
        "format": "groups", "players_per_game": 4, "games": 3, "seed": 7});
    let r = api_json(c, "/api/tournaments", &token, &groups).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    let t = r.json()["id"].as_i64().unwrap();
    let games: Vec<(String, i64)> = sqlx::query_as(
        "select m.game, (select count(*) from match_players p join bots b on b.id = p.bot_id \
             where p.match_id = m.id and b.game = 'vindinium') from matches m where m.tournament_id = $1",
    )
    .bind(t)
    .fetch_all(&c.state.db)
    .await
    .unwrap();
    assert_eq!(games, vec![("vindinium".to_string(), 4); 3]);
}

#[tokio::test]
async fn a_closed_game_takes_no_bots() {
    let mut c = Client::new().await;
    c.register("ann", PW).await;
    let token = c.new_token("kit").await;
    let r = c
        .api_upload(
            "/api/bots",
            &token,
            &[("name", "hero"), ("game", "vindinium")],
            Some(("bot.py", MINER.as_bytes())),
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.body);
    assert!(
        r.body.contains("no open game is called `vindinium`"),
        "{}",
        r.body
    );
    let games = c.get("/api/games").await.json();
    assert_eq!(games["games"].as_array().unwrap().len(), 1, "{games}");
    let r = server::games::set_open(&c.state.db, &["nope".to_string()]).await;
    assert!(r
        .unwrap_err()
        .to_string()
        .contains("no game is called `nope`"));
}

/// Every Vindinium kit this server can build, downloaded from the getting-started page
/// and uploaded through the API, passes its smoke test and plays; the local kit's
/// config plays as it comes.
#[tokio::test]
async fn every_vindinium_kit_downloads_uploads_builds_and_plays() {
    let mut c = Client::new().await;
    open_both(&c).await;
    let b = builder(&c, "vindinium-kits");
    while b.build_next().await.unwrap() {}
    c.register("kit", PW).await;
    let token = c.new_token("kits").await;
    let chooser = c.get("/getting-started").await.body;
    assert!(
        chooser.contains(r#"href="/getting-started?game=vindinium#steps""#),
        "Getting started asks which game: {chooser}"
    );
    let page = c.get("/getting-started?game=vindinium").await.body;
    assert!(
        page.contains(r#"href="/downloads/vindinium-local-kit.zip""#),
        "{page}"
    );
    assert!(
        page.contains(r#"href="/bots/new?game=vindinium""#),
        "{page}"
    );
    // Registering is asked of a visitor, not of someone logged in.
    assert!(page.contains("Upload your bot on the"), "{page}");
    let anonymous = c
        .stranger()
        .get("/getting-started?game=vindinium")
        .await
        .body;
    assert!(
        anonymous.contains("Register</a>, then upload"),
        "{anonymous}"
    );
    // How to point a 2014 client at this site, with its address in the command.
    assert!(
        page.contains("Already have a Vindinium client from 2014?")
            && page.contains("/api/training</code>")
            && page.contains("python client.py KEY training 30 http://"),
        "{page}"
    );
    // The link's form has the game chosen; a name that is no open game chooses none.
    let form = c.get("/bots/new?game=vindinium").await.body;
    assert!(
        form.contains(r#"<option value="vindinium" selected>"#),
        "{form}"
    );
    let form = c.get("/bots/new?game=chess").await.body;
    assert!(
        !form.contains(r#"<option value="vindinium" selected>"#),
        "{form}"
    );
    let mut tried = Vec::new();
    for lang in server::starters::languages_of("vindinium") {
        let link = format!("/starters/vindinium/{lang}.zip");
        if !c.state.languages.get(lang).is_some_and(|l| l.available) {
            assert!(
                !page.contains(&link),
                "{link} is offered, yet not built here"
            );
            println!("skipping the Vindinium {lang} kit: its toolchain is not installed");
            continue;
        }
        assert!(
            page.contains(&link),
            "the getting-started page offers {link}"
        );
        let (got, _) = c.get_bytes(&link).await;
        assert_eq!(got, StatusCode::OK, "{link}");
        let zip = server::starters::zip_of("vindinium", lang).unwrap();
        let name = format!("hero-{lang}");
        let r = c
            .api_upload(
                "/api/bots",
                &token,
                &[("name", &name), ("game", "vindinium")],
                Some((&format!("{lang}.zip"), zip.as_slice())),
            )
            .await;
        assert_eq!(r.status, StatusCode::CREATED, "{lang}: {}", r.body);
        b.build_next().await.unwrap();
        let (st, failure) = status(&c, &name, 1).await;
        assert_eq!(st, "active", "{lang}: {failure:?}");
        tried.push(lang);
    }
    println!("Vindinium kits built and tested: {tried:?}");
    assert!(tried.contains(&"python"));
    assert_eq!(
        c.get("/starters/vindinium/cobol.zip").await.status,
        StatusCode::NOT_FOUND
    );
    let (got, kit) = c.get_bytes("/downloads/vindinium-local-kit.zip").await;
    assert_eq!(got, StatusCode::OK);
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("vindinium-local-kit");
    let _ = std::fs::remove_dir_all(&dir);
    zip::ZipArchive::new(std::io::Cursor::new(kit))
        .unwrap()
        .extract(&dir)
        .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_bottlebats"))
        .args(["play", "config.json"])
        .current_dir(dir.join("vindinium-local"))
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(said.contains("Moves played: 1200"), "{said}");
    let log = std::fs::read_to_string(dir.join("vindinium-local/game.jsonl")).unwrap();
    assert_eq!(log.lines().count(), 1202);
}

#[tokio::test]
async fn vindinium_downloads_are_not_offered_while_it_is_closed() {
    let mut c = Client::new().await;
    for path in [
        "/downloads/vindinium-local-kit.zip",
        "/starters/vindinium-python.zip",
        "/starters/vindinium/python.zip",
        "/docs/vindinium/rules.md",
        "/rules/vindinium",
    ] {
        assert_eq!(c.get(path).await.status, StatusCode::NOT_FOUND, "{path}");
    }
    assert!(!c
        .get("/getting-started")
        .await
        .body
        .contains("vindinium-local-kit"));
}

/// Every game of the registry passes the conformance suite (random and fuzzed answers
/// on generated maps to the end: live rows against the stored replay, statistics,
/// ranks, logs, problems), and has the content a site needs: house bots for its smoke
/// test, a local kit, its rules and its players' pages.
#[test]
fn every_game_of_the_registry_conforms_and_ships_its_content() {
    for content in server::games::all() {
        let name = content.name();
        let report = game_interface::conformance::check(content.kind, 6, 11)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(report.matches, 6, "{name}");
        let house: Vec<String> = content
            .house_bots()
            .iter()
            .map(|b| b.name.to_string())
            .collect();
        for opponent in content.smoke_opponents() {
            assert!(
                house.contains(&opponent),
                "{name}: smoke opponent {opponent} in {house:?}"
            );
        }
        content
            .smoke_map()
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(!content.maps().is_empty(), "{name} has maps or a board");
        for (map, text) in content.maps() {
            content
                .kind
                .map_info(&text)
                .unwrap_or_else(|e| panic!("{name} {map}: {e}"));
        }
    }
    assert_eq!(
        server::games::all().count(),
        server::games::registry().names().len()
    );
}

/// A version that crashes at its 50th move passed a 50-turn test game and went on to
/// crash in every ranked game; the test game is now a whole game, so it fails there,
/// in each game, with its exception first.
#[tokio::test]
async fn a_bot_that_crashes_at_its_50th_move_fails_its_test_game_in_every_game() {
    let mut c = Client::new().await;
    open_both(&c).await;
    let b = builder(&c, "crash-at-50");
    while b.build_next().await.unwrap() {}
    c.register("late", PW).await;
    let token = c.new_token("late").await;
    // Bottle Bats: reads its three sections a turn, answers nothing, and at its 50th
    // turn indexes past a list.
    let bottlebats = b"import sys\nturn = 0\nwhile True:\n    for _ in range(3):\n        n = int(sys.stdin.readline().split()[0])\n        for _ in range(n): sys.stdin.readline()\n    if turn == 50:\n        print([][turn])\n    print('0 commands:', flush=True)\n    turn += 1\n";
    // Vindinium: stays, and at its hero's 50th move reads a key the state lacks.
    let vindinium = b"import json, sys\nmoves = 0\nfor line in sys.stdin:\n    state = json.loads(line)\n    if moves == 50:\n        print(state['nothing'])\n    print('Stay', flush=True)\n    moves += 1\n";
    for (game, source, cause) in [
        (
            "bottlebats",
            &bottlebats[..],
            "IndexError: list index out of range, at bot.py line 8",
        ),
        (
            "vindinium",
            &vindinium[..],
            "KeyError: 'nothing', at bot.py line 6",
        ),
    ] {
        let name = format!("late-{game}");
        let r = c
            .api_upload(
                "/api/bots",
                &token,
                &[("name", &name), ("game", game)],
                Some(("bot.py", source)),
            )
            .await;
        assert_eq!(r.status, StatusCode::CREATED, "{game}: {}", r.body);
        b.build_next().await.unwrap();
        let (st, failure) = status(&c, &name, 1).await;
        assert_eq!(st, "failed", "{game}: {failure:?}");
        let failure = failure.unwrap();
        assert!(failure.starts_with(cause), "{game}: {failure}");
    }
}

/// A bot uploaded for the wrong game fails its test game, and is told which game it
/// looks like: it plays a few turns of the other open game without a fault.
#[tokio::test]
async fn a_bot_of_the_other_game_is_told_which_game_it_speaks() {
    let mut c = Client::new().await;
    open_both(&c).await;
    let b = builder(&c, "wrong-game");
    while b.build_next().await.unwrap() {}
    c.register("mixed", PW).await;
    let token = c.new_token("mixed").await;
    let hero = b"import sys\nfor line in sys.stdin:\n    print('Stay', flush=True)\n";
    let r = c
        .api_upload(
            "/api/bots",
            &token,
            &[("name", "heroic"), ("game", "bottlebats")],
            Some(("bot.py", &hero[..])),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    b.build_next().await.unwrap();
    let (st, failure) = status(&c, "heroic", 1).await;
    assert_eq!(st, "failed");
    let failure = failure.unwrap();
    assert!(
        failure.starts_with("This looks like a Vindinium bot, and this bot is for Bottle Bats."),
        "{failure}"
    );
    // What to do is about the game, not the error the other game's protocol caused.
    assert!(
        failure.ends_with("Upload it as a new Vindinium bot (New bot, game Vindinium); a bot that has played no ranked game can also change its game on its page."),
        "{failure}"
    );
    assert!(!failure.contains("Fix that error"), "{failure}");
    // A Bottle Bats bot that fails for its own reasons is not sent elsewhere.
    let broken = b"import sys\nsys.exit(3)\n";
    c.api_upload(
        "/api/bots",
        &token,
        &[("name", "broken"), ("game", "bottlebats")],
        Some(("bot.py", &broken[..])),
    )
    .await;
    b.build_next().await.unwrap();
    let (_, failure) = status(&c, "broken", 1).await;
    assert!(!failure.unwrap().contains("looks like"), "a bot of no game");

    // Its page offers what the failure says: it becomes a Vindinium bot, and its
    // version is tested again there and plays.
    let page = c.get("/bots/heroic").await.body;
    assert!(
        page.contains(r#"action="/bots/heroic/game""#)
            && page.contains(r#"<option value="vindinium">Vindinium</option>"#),
        "{page}"
    );
    // Nobody else may change it.
    let mut other = c.stranger();
    other.register("nosy", PW).await;
    let r = other
        .post("/bots/heroic/game", &[("game", "vindinium")])
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.body);
    let r = c.post("/bots/heroic/game", &[("game", "chess")]).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.body);
    let (card, said) = (
        r.body.find(r#"id="wrong-game""#),
        r.body.find("is no game open on this site"),
    );
    assert!(
        card.is_some() && said.is_some() && card < said,
        "said beside its form: {}",
        r.body
    );
    let r = c.post("/bots/heroic/game", &[("game", "vindinium")]).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    b.build_next().await.unwrap();
    assert_eq!(status(&c, "heroic", 1).await, ("active".into(), None));
    let game: String = sqlx::query_scalar("select game from bots where name = 'heroic'")
        .fetch_one(&c.state.db)
        .await
        .unwrap();
    assert_eq!(game, "vindinium");
    // Once on the ladder it keeps its game, whatever is posted.
    let page = c.get("/bots/heroic").await.body;
    assert!(!page.contains(r#"action="/bots/heroic/game""#), "{page}");
    let r = c.post("/bots/heroic/game", &[("game", "bottlebats")]).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.body);
    assert!(r.body.contains("never played a ranked game"), "{}", r.body);

    // The broken bot, which played no match, is deleted (the box ticked), its name free.
    let r = c.post("/bots/broken/delete", &[]).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.body);
    assert!(r.body.contains("Tick the box"), "{}", r.body);
    let r = c.post("/bots/broken/delete", &[("sure", "on")]).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    assert_eq!(c.get("/bots/broken").await.status, StatusCode::NOT_FOUND);
    let r = c
        .api_upload(
            "/api/bots",
            &token,
            &[("name", "broken"), ("game", "bottlebats")],
            Some(("bot.py", &broken[..])),
        )
        .await;
    assert_eq!(
        r.status,
        StatusCode::CREATED,
        "the name is free: {}",
        r.body
    );
}

/// The (bot, active version) of the bot called `name`.
async fn playing(db: &sqlx::PgPool, name: &str) -> (server::ids::BotId, server::ids::VersionId) {
    let (bot, version): (i64, i64) =
        sqlx::query_as("select id, active_version_id from bots where name = $1")
            .bind(name)
            .fetch_one(db)
            .await
            .unwrap();
    (server::ids::BotId(bot), server::ids::VersionId(version))
}

/// A version that passes its test game and crashes in ranked games (here: only where
/// no house bot of the test game sits) is held off the ladder after a run of crashes,
/// its previous version plays again, and its page says why, with the exception.
#[tokio::test]
async fn a_version_that_crashes_on_the_ladder_is_held_off_it_and_the_previous_plays_again() {
    let mut c = Client::new().await;
    open_both(&c).await;
    let b = builder(&c, "guard");
    while b.build_next().await.unwrap() {}
    c.register("sly", PW).await;
    let token = c.new_token("sly").await;
    // Bottle Bats: quiet on its test game's map (ring-2p, where it holds `kavaim`), an
    // IndexError at its 5th turn on any other.
    let good_bb = b"import sys\nwhile True:\n    for _ in range(3):\n        n = int(sys.stdin.readline().split()[0])\n        for _ in range(n): sys.stdin.readline()\n    print('0 commands:', flush=True)\n";
    let sly_bb = b"import sys\nturn = 0\nwhile True:\n    seen = ''\n    for _ in range(3):\n        n = int(sys.stdin.readline().split()[0])\n        for _ in range(n): seen += sys.stdin.readline()\n    if turn == 5 and 'kavaim' not in seen:\n        print([][turn])\n    print('0 commands:', flush=True)\n    turn += 1\n";
    // Vindinium: likewise, a KeyError at its 5th move where no house hero sits.
    let good_v = b"import sys\nfor line in sys.stdin:\n    print('Stay', flush=True)\n";
    let sly_v = b"import json, sys\nmoves = 0\nfor line in sys.stdin:\n    names = [h['name'] for h in json.loads(line)['game']['heroes']]\n    if moves == 5 and not any(n.startswith('house-') for n in names):\n        print({}['nothing'])\n    print('Stay', flush=True)\n    moves += 1\n";
    // (game, the good version, the sly one, a ladder map, the cause its page shows)
    type Case<'a> = (&'a str, &'a [u8], &'a [u8], &'a str, &'a str);
    let games: [Case; 2] = [
        (
            "bottlebats",
            good_bb,
            sly_bb,
            "duel-2p",
            "IndexError: list index out of range, at bot.py line 9); ",
        ),
        (
            "vindinium",
            good_v,
            sly_v,
            "m1",
            "KeyError: &#39;nothing&#39;, at bot.py line 6); ",
        ),
    ];
    for (game, good, sly, map, cause) in games {
        let name = format!("sly-{game}");
        let r = c
            .api_upload(
                "/api/bots",
                &token,
                &[("name", &name), ("game", game)],
                Some(("bot.py", good)),
            )
            .await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
        b.build_next().await.unwrap();
        let r = c
            .api_upload(
                &format!("/api/bots/{name}/versions"),
                &token,
                &[],
                Some(("bot.py", sly)),
            )
            .await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
        b.build_next().await.unwrap();
        assert_eq!(
            status(&c, &name, 2).await,
            ("active".into(), None),
            "{game}: it passes its test game"
        );
        let me = playing(&c.state.db, &name).await;
        let map: i64 = sqlx::query_scalar("select id from maps where name = $1")
            .bind(map)
            .fetch_one(&c.state.db)
            .await
            .unwrap();
        let house: Vec<_> = match game {
            "bottlebats" => vec![playing(&c.state.db, "idle").await],
            _ => vec![
                playing(&c.state.db, "vin-random").await,
                playing(&c.state.db, "vin-miner").await,
                playing(&c.state.db, "vin-fighter").await,
            ],
        };
        let w = crate::common::worker(&b, "guard", 40);
        for i in 0..server::crash_guard::IN_A_ROW {
            let seats: Vec<_> = std::iter::once(me).chain(house.iter().copied()).collect();
            let mut conn = c.state.db.acquire().await.unwrap();
            server::ranker::insert_match(
                &mut conn,
                server::ids::MapId(map),
                &seats,
                server::ranker::Purpose::Ranked,
            )
            .await
            .unwrap();
            drop(conn);
            assert!(w.run_one().await.unwrap(), "{game}: game {i}");
            let held = active(&c, &name).await == Some(1);
            let rows: Vec<(Option<String>, Option<i32>)> = sqlx::query_as(
                "select error, timeouts from match_players where bot_id = $1 order by match_id",
            )
            .bind(me.0 .0)
            .fetch_all(&c.state.db)
            .await
            .unwrap();
            assert_eq!(
                held,
                i + 1 == server::crash_guard::IN_A_ROW,
                "{game}: held after game {i}? {rows:?}"
            );
        }
        // The previous version plays again; the page says why, the cause first.
        let page = c.get(&format!("/bots/{name}")).await.body;
        assert!(page.contains("version 1 plays"), "{page}");
        assert!(page.contains("Version 2 was held off the ladder: it crashed or timed out in its last 5 ranked games in a row"), "{page}");
        assert!(page.contains(cause), "{game}: {page}");
        assert!(
            page.contains("<span class=\"status held\">held</span>"),
            "{page}"
        );
        // Its row in the versions says why too, as a failed version's does.
        assert!(
            page.contains("<strong>Why it is held:</strong> Version 2 was held"),
            "{page}"
        );
    }
}

/// The challenge form offers the maps of the bot's game and says what its game seats;
/// a refused challenge comes back as typed.
#[tokio::test]
async fn the_challenge_form_follows_the_bots_game() {
    let mut c = Client::new().await;
    open_both(&c).await;
    let b = builder(&c, "challenge-form");
    while b.build_next().await.unwrap() {}
    c.register("duo", PW).await;
    let token = c.new_token("duo").await;
    let r = c
        .api_upload(
            "/api/bots",
            &token,
            &[("name", "duo-hero"), ("game", "vindinium")],
            Some(("bot.py", MINER.as_bytes())),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    b.build_next().await.unwrap();
    let form = c.get("/challenges/new?bot=duo-hero").await.body;
    assert!(
        form.contains("exactly 4: your bot and 3 opponents"),
        "{form}"
    );
    assert!(form.contains(r#"<label class="check" data-game="vindinium"><input type="checkbox" name="map" value="m1">"#), "{form}");
    assert!(
        !form.contains(r#"value="duel-2p""#),
        "only its game's maps: {form}"
    );
    assert!(
        form.contains(r#"<option value="vin-strong" data-game="vindinium">"#),
        "{form}"
    );
    // Refused (a game of four needs three opponents): every field comes back.
    let r = c
        .post(
            "/challenges",
            &[
                ("bot", "duo-hero"),
                ("mode", "named"),
                ("names", "vin-strong"),
                ("games", "7"),
                ("map", "m2"),
            ],
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.body);
    assert!(r.body.contains("at least 4 players"), "{}", r.body);
    assert!(
        r.body.contains(r#"name="names" value="vin-strong""#),
        "{}",
        r.body
    );
    assert!(
        r.body.contains(r#"name="games" min="1""#) && r.body.contains(r#"value="7""#),
        "{}",
        r.body
    );
    assert!(r.body.contains(r#"value="m2" checked"#), "{}", r.body);
    assert!(
        r.body.contains("one bot may take several seats"),
        "{}",
        r.body
    );

    // "Me against 3 × vin-strong", typed as the refusal suggests: three heroes of one
    // bot, told apart in the game.
    let r = c
        .post(
            "/challenges",
            &[
                ("bot", "duo-hero"),
                ("mode", "named"),
                ("names", "3 × vin-strong"),
                ("games", "1"),
                ("map", "m2"),
            ],
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let page = r.headers["location"].to_str().unwrap().to_string();
    let w = crate::common::worker(&b, "challenge-form", 400);
    while w.run_one().await.unwrap() {}
    let body = c.get(&page).await.body;
    assert!(body.contains("3 × vin-strong"), "{body}");
    assert!(body.contains("Done: 1 of 1 game"), "{body}");
    assert_eq!(body.matches(" gold</small>").count(), 4, "{body}");
    assert!(body.contains(">vin-strong-3</span> <small"), "{body}");
    // A bot's matches are listed under its game, whatever the default game.
    let listed = c.get("/api/matches?bot=vin-strong").await.json();
    assert_eq!(listed["game"], "vindinium", "{listed}");
    let id: i64 = sqlx::query_scalar("select id from matches where challenge_id is not null")
        .fetch_one(&c.state.db)
        .await
        .unwrap();
    let replay = c.get(&format!("/api/matches/{id}/replay")).await.json();
    let heroes: Vec<&str> = (replay["heroes"].as_array().unwrap().iter())
        .map(|h| h.as_str().unwrap())
        .collect();
    assert_eq!(
        heroes,
        ["duo-hero", "vin-strong", "vin-strong-2", "vin-strong-3"],
        "{replay}"
    );
}

/// House bots' names differ where screens cut them (`vin-fighter`, `vin-miner`); a site
/// whose house bots had the former long names (`vindinium-strong`) keeps them, renamed,
/// with their rating and games.
#[tokio::test]
async fn house_bots_of_the_former_long_names_are_renamed_and_keep_their_record() {
    let c = Client::new().await;
    open_both(&c).await;
    let names: Vec<String> =
        sqlx::query_scalar("select b.name from bots b join users u on u.id = b.owner_id where u.name = 'house' and b.game = 'vindinium' order by b.name")
            .fetch_all(&c.state.db)
            .await
            .unwrap();
    assert_eq!(
        names,
        ["vin-fighter", "vin-miner", "vin-random", "vin-strong"]
    );
    let cut: std::collections::HashSet<String> =
        names.iter().map(|n| n.chars().take(8).collect()).collect();
    assert_eq!(
        cut.len(),
        names.len(),
        "their first 8 letters tell them apart"
    );
    // As an older release registered it, with games played.
    let id: i64 = sqlx::query_scalar(
        "update bots set name = 'vindinium-strong', games = 7 where name = 'vin-strong' returning id",
    )
    .fetch_one(&c.state.db)
    .await
    .unwrap();
    server::house::register(&c.state.db).await.unwrap();
    let (now, games): (String, i32) = sqlx::query_as("select name, games from bots where id = $1")
        .bind(id)
        .fetch_one(&c.state.db)
        .await
        .unwrap();
    assert_eq!((now.as_str(), games), ("vin-strong", 7));
    let left: i64 = sqlx::query_scalar("select count(*) from bots where name like 'vindinium-%'")
        .fetch_one(&c.state.db)
        .await
        .unwrap();
    assert_eq!(left, 0);
}
