//! What a contestant downloads to play at home: the program the site runs, checked by
//! its SHA-256, and the local kit, which plays a game as it comes.

use std::process::Command;

use axum::http::StatusCode;
use sha2::{Digest, Sha256};

use crate::common::Client;

#[tokio::test]
async fn the_program_downloads_with_the_sha256_the_page_shows() {
    let mut c = Client::new().await;
    let page = c.get("/getting-started").await.body;
    let (status, program) = c.get_bytes("/downloads/bottlebats").await;
    assert_eq!(status, StatusCode::OK);
    let exe = std::fs::read(std::env::current_exe().unwrap()).unwrap();
    assert!(program == exe, "the program the site runs");
    let sha = hex::encode(Sha256::digest(&program));
    assert!(
        page.contains(&format!("<code class=\"sha256\">{sha}</code>")),
        "the page shows it"
    );
    assert!(page.contains("href=\"/downloads/bottlebats\""));
    let file = c.get("/downloads/bottlebats.sha256").await.body;
    assert_eq!(
        file,
        format!("{sha}  bottlebats\n"),
        "as sha256sum -c reads it"
    );
}

#[tokio::test]
async fn the_local_kit_plays_a_game_out_of_the_box() {
    let mut c = Client::new().await;
    let old = c.get("/downloads/local-kit.zip").await;
    assert_eq!(
        old.status,
        StatusCode::PERMANENT_REDIRECT,
        "the first address still leads to it"
    );
    assert_eq!(
        old.headers["location"],
        "/downloads/bottlebats-local-kit.zip"
    );
    let (status, zip) = c.get_bytes("/downloads/bottlebats-local-kit.zip").await;
    assert_eq!(status, StatusCode::OK);
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("local-kit");
    let _ = std::fs::remove_dir_all(&dir);
    zip::ZipArchive::new(std::io::Cursor::new(zip))
        .unwrap()
        .extract(&dir)
        .unwrap();
    let kit = dir.join("bottlebats-local");
    for path in [
        "README.md",
        "config.json",
        "maps/duel-2p.map",
        "maps/vast-2p.map",
        "bots/strong/bot.py",
        "bots/idle/bot.py",
    ] {
        assert!(kit.join(path).exists(), "the kit holds {path}");
    }
    let out = Command::new(env!("CARGO_BIN_EXE_bottlebats"))
        .args(["play", "config.json"])
        .current_dir(&kit)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.starts_with("Winner: "), "{stdout}");
    assert!(kit.join("game.json").exists() && kit.join("game.log").exists());
}

/// The source for other platforms: the workspace as it builds (manifests, lock file,
/// sources, the folders the program embeds, the SQL's offline metadata), without build
/// output or tests; cargo reads it as the same workspace.
#[tokio::test]
async fn the_source_archive_holds_the_workspace_that_builds_the_program() {
    let mut c = Client::new().await;
    let page = c.get("/getting-started").await.body;
    assert!(page.contains("href=\"/downloads/bottlebats-source.tar.gz\""));
    let (status, gz) = c.get_bytes("/downloads/bottlebats-source.tar.gz").await;
    assert_eq!(status, StatusCode::OK);
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("source-archive");
    let _ = std::fs::remove_dir_all(&dir);
    tar::Archive::new(flate2::read::GzDecoder::new(&gz[..]))
        .unpack(&dir)
        .unwrap();
    let src = dir.join("bottlebats-source");
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for path in [
        "Cargo.toml",
        "Cargo.lock",
        "server/src/main.rs",
        "server/build.rs",
        "games/bottlebats/src/lib.rs",
        "engine/src/lib.rs",
        "games/interface/src/lib.rs",
        "games/vindinium/src/lib.rs",
        "migrations",
        ".sqlx",
        ".cargo/config.toml",
        "templates/base.html",
        "static/viewer/viewer.mjs",
        "maps/bottlebats/duel-2p.map",
        "games/bottlebats/bots/house/strong/bot.py",
        "games/bottlebats/rules.md",
    ] {
        assert!(src.join(path).exists(), "the archive holds {path}");
    }
    assert_eq!(
        std::fs::read(src.join("server/src/main.rs")).unwrap(),
        std::fs::read(repo.join("server/src/main.rs")).unwrap(),
        "as the program was built"
    );
    for left_out in ["target", "server/tests", ".ci", "docker"] {
        assert!(!src.join(left_out).exists(), "{left_out} is left out");
    }
    let metadata = std::process::Command::new(env!("CARGO"))
        .args([
            "metadata",
            "--offline",
            "--format-version",
            "1",
            "--no-deps",
        ])
        .current_dir(&src)
        .output()
        .unwrap();
    assert!(
        metadata.status.success(),
        "cargo reads the workspace: {}",
        String::from_utf8_lossy(&metadata.stderr)
    );
    let text = String::from_utf8_lossy(&metadata.stdout);
    for package in [
        "\"name\":\"server\"",
        "\"name\":\"engine\"",
        "\"name\":\"runner\"",
        "\"name\":\"vindinium\"",
    ] {
        assert!(text.contains(package), "{package}");
    }
}
