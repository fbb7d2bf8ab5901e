//! What `static/` holds, as the site serves it and as node tests it:
//!
//! - every file under `static/` is served at `/static/PATH`, with its own bytes and the
//!   content type its extension calls for (a module served as anything but JavaScript
//!   is refused by browsers), so a new file cannot be left out of the binary;
//! - the viewer's modules pass their tests under node's own test runner
//!   (`server/tests/js/*.test.mjs`), among them a game of the engine read from its
//!   classic log, which must be the game of its JSON replay. Skipped, saying so,
//!   without node 18 or later.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use axum::http::StatusCode;
use bottlebats::game::Game;
use bottlebats::replay::{Events, Replay};

/// Every file under `dir`, by its path from `root` with `/` between folders.
fn files_under(root: &Path, dir: &Path, found: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files_under(root, &path, found);
        } else {
            let rel = path.strip_prefix(root).unwrap();
            let parts: Vec<_> = rel.iter().map(|p| p.to_str().unwrap()).collect();
            found.push(parts.join("/"));
        }
    }
}

/// The content type a static file must be served with, from its extension.
fn content_type(path: &str) -> &'static str {
    match path.rsplit_once('.').map_or("", |(_, ext)| ext) {
        "css" => "text/css; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "json" => "application/json",
        other => panic!(
            "{path}: say here and in server/src/web/mod.rs (`content_type`) how .{other} \
             files are served"
        ),
    }
}

#[tokio::test]
async fn every_file_in_static_is_served_with_its_content_type() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../static");
    let mut files = Vec::new();
    files_under(&root, &root, &mut files);
    files.sort();
    assert!(
        files.iter().any(|f| f == "viewer/viewer.mjs") && files.len() > 10,
        "{files:?}"
    );
    let mut c = common::Client::new().await;
    for file in &files {
        let r = c.get(&format!("/static/{file}")).await;
        assert_eq!(
            r.status,
            StatusCode::OK,
            "static/{file} is not served: add it to ASSETS in server/src/web/mod.rs"
        );
        assert_eq!(r.headers["content-type"], content_type(file), "{file}");
        let bytes = std::fs::read(root.join(file)).unwrap();
        assert!(
            r.body == String::from_utf8_lossy(&bytes),
            "static/{file}: the bytes served are not the file's"
        );
    }
    let r = c.get("/static/viewer/none.mjs").await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
}

/// node, if it is 18 or later (the first with `node --test`).
fn node() -> Option<PathBuf> {
    let out = Command::new("node").arg("--version").output().ok()?;
    let version = String::from_utf8_lossy(&out.stdout);
    let major: u32 = version
        .trim()
        .trim_start_matches('v')
        .split('.')
        .next()?
        .parse()
        .ok()?;
    (out.status.success() && major >= 18).then(|| PathBuf::from("node"))
}

/// A game of three random players on a generated map, as a replay.
fn a_game() -> Replay {
    let map = bottlebats::generate::generate(&bottlebats::generate::GenerateOptions {
        players: 3,
        seed: 5,
        forts: Some(30),
    })
    .unwrap();
    let names: Vec<String> = ["red", "blue", "green"].map(String::from).to_vec();
    let mut game = Game::new(Arc::new(map), &names, 150).unwrap();
    let mut replay = Replay::start(&game);
    bottlebats::scripted::play_random_game(&mut game, 5, |g, ev| replay.push(Events::of(ev), g));
    replay.finish(&game, &game.outcome());
    replay
}

/// Games for the viewer's reader of the compact replay: each as `NAME.v2.json` and, as
/// the engine's reader gives it back, `NAME.v1.json`. Every style of play, games that
/// end by elimination and by the turn limit, a removed and timed-out bot, keyframes
/// passed.
fn write_compact_games(dir: &Path) {
    use bottlebats::scripted::{recorded, Style};
    std::fs::create_dir_all(dir).unwrap();
    let map = |name: &str| {
        let maps = server::games::content("bottlebats").unwrap().maps();
        let (_, text) = maps.iter().find(|(stem, _)| *stem == name).unwrap();
        bottlebats::Map::parse(text).unwrap()
    };
    let games = [
        (
            "octo-random",
            recorded(map("octo-8p"), Style::Random(1), 500),
        ),
        (
            "duel-random",
            recorded(map("duel-2p"), Style::Random(1), 500),
        ),
        ("hex-greedy", recorded(map("hex-6p"), Style::Greedy, 500)),
        (
            "triad-troubled",
            recorded(map("triad-3p"), Style::Troubled(4), 200),
        ),
        ("duel-idle", recorded(map("duel-2p"), Style::Idle, 300)),
    ];
    for (name, game) in games {
        let compact = bottlebats::replay_v2::encode(&game);
        let back = bottlebats::replay_v2::decode(&compact).unwrap();
        std::fs::write(dir.join(format!("{name}.v2.json")), compact.to_json()).unwrap();
        std::fs::write(dir.join(format!("{name}.v1.json")), back.to_json()).unwrap();
    }
}

#[test]
fn the_viewers_modules_pass_their_node_tests() {
    let Some(node) = node() else {
        eprintln!("SKIPPED the viewer's node tests: node 18 or later is not installed");
        return;
    };
    let fixtures = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("js-fixtures");
    let _ = std::fs::remove_dir_all(&fixtures);
    std::fs::create_dir_all(&fixtures).unwrap();
    let replay = a_game();
    assert!(
        replay.turns.iter().any(|t| !t.marches.is_empty()),
        "the game has marches to compare"
    );
    std::fs::write(fixtures.join("game.json"), replay.to_json()).unwrap();
    let compact = bottlebats::replay_v2::encode(&replay);
    std::fs::write(
        fixtures.join("game-v2.json"),
        serde_json::to_string(&compact).unwrap(),
    )
    .unwrap();
    let mut log = Vec::new();
    replay.write_classic_log(&mut log).unwrap();
    std::fs::write(fixtures.join("game.log"), log).unwrap();
    write_compact_games(&fixtures.join("compact"));

    // The core's tests, then each game's (games/NAME/tests/js/), for every game of the
    // registry.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let games = server::games::registry().names();
    let dirs = std::iter::once(root.join("tests/js")).chain(
        games
            .iter()
            .map(|g| root.join("../games").join(g).join("tests/js")),
    );
    let mut tests: Vec<PathBuf> = Vec::new();
    for dir in dirs {
        let mut found: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .filter(|p| p.to_str().is_some_and(|p| p.ends_with(".test.mjs")))
            .collect();
        found.sort();
        assert!(!found.is_empty(), "no tests in {}", dir.display());
        tests.extend(found);
    }
    let out = Command::new(node)
        .arg("--test")
        .args(&tests)
        .env("BOTTLEBATS_JS_FIXTURES", &fixtures)
        .env("BOTTLEBATS_GAMES", games.join(","))
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "node --test failed:\n{report}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary: Vec<&str> = report
        .lines()
        .filter(|l| l.starts_with("# pass") || l.starts_with("# skipped"))
        .collect();
    assert!(
        !summary
            .iter()
            .any(|l| l.starts_with("# skipped") && *l != "# skipped 0"),
        "every node test ran: {summary:?}"
    );
    eprintln!("node tests of the viewer: {}", summary.join(", "));
}
