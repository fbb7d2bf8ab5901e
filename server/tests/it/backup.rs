//! Backups bring a whole competition back: users, tokens, bots, versions and their
//! archives, matches and replays, ratings and their history.

use crate::common;

use std::process::Command;

use common::Client;
use sqlx::PgPool;

/// A fingerprint of everything a competition is made of.
async fn fingerprint(db: &PgPool) -> Vec<String> {
    let queries = [
        "select string_agg(concat_ws(':', name, is_admin, password_hash), ',' order by id) from users",
        "select string_agg(encode(token_hash, 'hex'), ',' order by id) from api_tokens",
        "select string_agg(concat_ws(':', name, active_version_id, mu, sigma, games), ',' order by id) from bots",
        "select string_agg(concat_ws(':', number, status, md5(archive)), ',' order by id) from bot_versions",
        "select string_agg(concat_ws(':', status, md5(replay)), ',' order by id) from matches",
        "select string_agg(concat_ws(':', rank, mu_after, md5(stderr)), ',' order by match_id, seat) from match_players",
        "select string_agg(mu::text, ',' order by bot_id, match_id) from rating_history",
        "select string_agg(concat_ws(':', name, enabled, game), ',' order by id) from maps",
        "select string_agg(concat_ws(':', name, status, format), ',' order by id) from tournaments",
        "select array_to_string(games, ',') from ranker",
        "select string_agg(concat_ws(':', game, turns), ',' order by id) from matches",
    ];
    let mut out = Vec::new();
    for q in queries {
        out.push(
            sqlx::query_scalar::<_, Option<String>>(q)
                .fetch_one(db)
                .await
                .unwrap()
                .unwrap_or_default(),
        );
    }
    out
}

fn admin(url: &str, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_bottlebats"))
        .arg("admin")
        .args(args)
        .env("DATABASE_URL", url)
        .output()
        .unwrap()
}

#[tokio::test]
async fn a_backup_restores_the_whole_competition_into_an_empty_database() {
    let mut c = Client::new().await;
    c.register("alice", "correct horse battery").await;
    c.post("/profile/tokens", &[("name", "ci")]).await;
    let db = c.state.db.clone();
    let b = common::house_ladder(&db, "backup", "ring-2p").await;
    let w = common::worker(&b, "backup", 30);
    for _ in 0..3 {
        server::ranker::schedule(&db, 1, &Default::default())
            .await
            .unwrap();
        w.run_one().await.unwrap();
    }
    let before = fingerprint(&db).await;
    assert!(!before[4].is_empty(), "matches were played");
    let workers = "select count(*) from workers";
    let alive: i64 = sqlx::query_scalar(workers).fetch_one(&db).await.unwrap();
    assert!(alive > 0, "the worker said it is alive");

    let base = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("backup");
    std::fs::create_dir_all(&base).unwrap();
    let file = base.join("competition.dump");
    let out = admin(
        &common::url_of_pool(&db).await,
        &["backup", file.to_str().unwrap()],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("backed up to"));

    let empty = common::fresh_url().await;
    let out = admin(&empty, &["restore", file.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let restored = sqlx::postgres::PgPoolOptions::new()
        .connect(&empty)
        .await
        .unwrap();
    assert_eq!(fingerprint(&restored).await, before, "everything came back");
    let listed: i64 = sqlx::query_scalar(workers)
        .fetch_one(&restored)
        .await
        .unwrap();
    assert_eq!(
        listed, 0,
        "the backup's workers are not alive in the restored database"
    );
    // And it works: a login on the restored site.
    let state = server::web::AppState::new(
        restored.clone(),
        common::test_config(),
        (*c.state.languages).clone(),
    );
    let mut again = Client {
        app: server::web::app(state.clone()),
        state,
        cookies: Default::default(),
        ip: "198.51.100.9:1".parse().unwrap(),
    };
    assert_eq!(
        again.login("alice", "correct horse battery").await.status,
        axum::http::StatusCode::SEE_OTHER
    );

    let out = admin(
        &empty,
        &["restore", base.join("missing.dump").to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("there is no backup file"));
}

/// A finished Vindinium match of four heroes of `owner` (bots made for it, on
/// Vindinium's leaderboard), with its stored replay: its id.
async fn vindinium_match(db: &PgPool, w: &server::worker::Worker, owner: &str) -> i64 {
    let names: Vec<String> = ["v1", "v2", "v3", "v4"].map(String::from).to_vec();
    let mut seats = Vec::new();
    for (i, name) in names.iter().enumerate() {
        crate::ladder::by_game::bot_of(db, owner, name, "vindinium", 20.0 + i as f64).await;
        let (b, v): (i64, i64) =
            sqlx::query_as("select id, active_version_id from bots where name = $1")
                .bind(name)
                .fetch_one(db)
                .await
                .unwrap();
        seats.push((server::ids::BotId(b), server::ids::VersionId(v)));
    }
    let (map, text): (i64, String) = sqlx::query_as("select id, text from maps where name = 'm1'")
        .fetch_one(db)
        .await
        .unwrap();
    let kind = server::games::kind("vindinium").unwrap();
    let mut m = kind.setup(&text, &names, 40).unwrap();
    let dirs = ["North", "East", "South", "West", "Stay"];
    let mut n = 0;
    while !m.is_over() {
        let seat = m.to_answer()[0];
        let answer = game_interface::Answer::Lines(vec![dirs[n % 5].into()]);
        m.step(&[(seat, answer)], &game_interface::RunnerNotes::default());
        n += 1;
    }
    let mut conn = db.acquire().await.unwrap();
    let id = server::ranker::insert_match(
        &mut conn,
        server::ids::MapId(map),
        &seats,
        server::ranker::Purpose::Ranked,
    )
    .await
    .unwrap();
    drop(conn);
    // Recorded as a worker records it: the result, every seat, the ratings.
    sqlx::query(
        "update matches set status = 'running', lease_owner = 'backup', \
             lease_until = now() + interval '1 minute', started_at = now() where id = $1",
    )
    .bind(id.0)
    .execute(db)
    .await
    .unwrap();
    let claimed = server::worker::Claimed {
        id,
        ranked: true,
        tournament: None,
        attempts: 1,
        game: "vindinium".into(),
        map_text: text,
        players: (seats.iter().enumerate())
            .map(|(i, (bot, version))| server::worker::ClaimedSeat {
                seat: i as i32,
                bot: *bot,
                name: names[i].clone(),
                version: *version,
                out: false,
            })
            .collect(),
        practice: false,
        max_turns: None,
    };
    let reports = (names.iter())
        .map(|n| engine::PlayerReport {
            name: n.clone(),
            ..Default::default()
        })
        .collect();
    let played = server::worker::Played::of(&*m, reports);
    assert!(w.record(&claimed, &played).await.unwrap());
    id.0
}

/// What visitors see of a competition: both games' leaderboards, the open games, the
/// tournaments, the finished matches and a Vindinium replay.
async fn seen(c: &mut Client, vindinium: i64) -> Vec<String> {
    let mut out = Vec::new();
    for path in [
        "/api/games".to_string(),
        "/api/leaderboard?game=bottlebats".into(),
        "/api/leaderboard?game=vindinium".into(),
        "/api/tournaments".into(),
        "/api/tournaments/1".into(),
        "/api/matches?game=bottlebats".into(),
        "/api/matches?game=vindinium".into(),
        format!("/api/matches/{vindinium}/replay"),
    ] {
        let r = c.get(&path).await;
        assert_eq!(r.status, axum::http::StatusCode::OK, "{path}: {}", r.body);
        out.push(format!("{path}: {}", r.body));
    }
    out
}

/// A visitor of a site on `db`, with caches of its own.
fn visitor(db: &PgPool, languages: &server::languages::Languages) -> Client {
    let state = server::web::AppState::new(db.clone(), common::test_config(), languages.clone());
    Client {
        app: server::web::app(state.clone()),
        state,
        cookies: Default::default(),
        ip: "198.51.100.9:1".parse().unwrap(),
    }
}

/// `admin` on the embedded database of data folder `dir` (no `DATABASE_URL`), with
/// `input` on its stdin.
fn admin_in(dir: &std::path::Path, args: &[&str], input: &str) -> std::process::Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_bottlebats"))
        .arg("admin")
        .args(args)
        .arg("--data-dir")
        .arg(dir)
        .env_remove("DATABASE_URL")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// A site of both games (ranked matches of each, a tournament, a Vindinium replay),
/// backed up, restored into a fresh data folder (which had no database yet: `database
/// "bottlebats" does not exist` before), and restored again over that folder's
/// database, which the command says it replaces and does only once confirmed.
#[tokio::test]
async fn both_games_restore_into_a_fresh_data_folder_and_over_a_used_one() {
    let (mut c, b, token) = crate::tournaments::site("backup-both").await;
    let db = c.state.db.clone();
    crate::ladder::by_game::open_both(&db).await;
    let w = common::worker(&b, "backup-both", 30);
    for _ in 0..2 {
        server::ranker::schedule(&db, 1, &Default::default())
            .await
            .unwrap();
        w.run_one().await.unwrap();
    }
    let ask = serde_json::json!({"name": "Cup", "participants": ["idle", "greedy"],
                                 "format": "round-robin", "maps": ["ring-2p"]});
    let r = crate::challenges::api_json(&mut c, "/api/tournaments", &token, &ask).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let m = w.claim().await.unwrap().expect("a game of the tournament");
    let result = w.play(&m).await.unwrap().unwrap();
    assert!(w.record(&m, &result).await.unwrap());
    let backup_worker = server::worker::Worker {
        name: "backup".into(),
        ..common::worker(&b, "backup", 30)
    };
    let vindinium = vindinium_match(&db, &backup_worker, "olga").await;
    let before = fingerprint(&db).await;
    let shown = seen(&mut visitor(&db, &c.state.languages), vindinium).await;

    let base = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("backup-both");
    let _ = std::fs::remove_dir_all(&base);
    std::fs::create_dir_all(&base).unwrap();
    let file = base.join("both.dump");
    let out = admin(
        &common::url_of_pool(&db).await,
        &["backup", file.to_str().unwrap()],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // A fresh data folder: its database is made, then filled.
    let fresh = base.join("fresh");
    let out = admin_in(&fresh, &["restore", file.to_str().unwrap()], "");
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let check = |label: &'static str| {
        let fresh = fresh.clone();
        let (before, shown, languages) = (before.clone(), shown.clone(), c.state.languages.clone());
        async move {
            let pg = server::db::EmbeddedPg::start(&fresh, None).unwrap();
            let restored = sqlx::postgres::PgPoolOptions::new()
                .connect_with(pg.options("bottlebats"))
                .await
                .unwrap();
            assert_eq!(
                fingerprint(&restored).await,
                before,
                "{label}: everything came back"
            );
            let mut again = visitor(&restored, &languages);
            assert_eq!(
                seen(&mut again, vindinium).await,
                shown,
                "{label}: what visitors see"
            );
            restored.close().await;
            pg.stop_now();
        }
    };
    check("a fresh folder").await;

    // The same folder again: it holds a competition now, which the command names and
    // replaces only once told so.
    let out = admin_in(&fresh, &["restore", file.to_str().unwrap()], "no\n");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!out.status.success(), "{said}");
    assert!(
        said.contains("replaces") && said.contains("accounts"),
        "{said}"
    );
    let out = admin_in(&fresh, &["restore", file.to_str().unwrap()], "yes\n");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = admin_in(&fresh, &["restore", file.to_str().unwrap(), "--yes"], "");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    check("a used folder").await;
}
