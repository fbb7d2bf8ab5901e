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
        "select string_agg(concat_ws(':', name, enabled), ',' order by id) from maps",
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
