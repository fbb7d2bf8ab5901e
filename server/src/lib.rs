//! The Bottle Bats platform: the web app, its database, accounts, and the commands of
//! the `bottlebats` binary. `main.rs` only calls [`cli::main`].

/// The platform's program, and the name of its database, metrics and cgroups.
pub const PROGRAM: &str = "bottlebats";
/// This build's version.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
/// The git revision this build was made from ("unknown" from a copy without `.git`).
pub const REVISION: &str = env!("BOTTLEBATS_GIT_REVISION");
/// What `--version` prints after the name.
pub const LONG_VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (revision ",
    env!("BOTTLEBATS_GIT_REVISION"),
    ")"
);

pub mod accounts;
pub mod archive;
pub mod build_cache;
pub mod builds;
pub mod challenges;
pub mod cli;
pub mod clusters;
pub mod compress;
pub mod config;
pub mod contest;
pub mod db;
pub mod dedicated;
pub mod downloads;
pub mod embedded;
pub mod games;
pub mod house;
pub mod ids;
pub mod languages;
pub mod live;
pub mod metrics;
pub mod play;
pub mod ranker;
pub mod serve;
pub mod standings;
pub mod starters;
pub mod status;
pub mod tokens;
pub mod tournaments;
pub mod uploads;
pub mod web;
pub mod worker;

#[cfg(test)]
mod layers {
    /// The server's sources below `src/`, with their paths relative to it.
    fn sources() -> Vec<(std::path::PathBuf, String)> {
        sources_of("server")
    }

    /// The sources below `src/` of the workspace's crate in `folder`, with their paths
    /// relative to it.
    fn sources_of(folder: &str) -> Vec<(std::path::PathBuf, String)> {
        fn walk(dir: &std::path::Path, found: &mut Vec<std::path::PathBuf>) {
            for e in std::fs::read_dir(dir).unwrap() {
                let path = e.unwrap().path();
                if path.is_dir() {
                    walk(&path, found);
                } else if path.extension().is_some_and(|x| x == "rs") {
                    found.push(path);
                }
            }
        }
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join(folder)
            .join("src");
        let mut files = Vec::new();
        walk(&src, &mut files);
        assert!(files.len() > 8, "{files:?}");
        (files.into_iter())
            .map(|path| {
                let text = std::fs::read_to_string(&path).unwrap();
                (path.strip_prefix(&src).unwrap().to_path_buf(), text)
            })
            .collect()
    }

    /// The game crates of the workspace: (folder under `games/`, crate name, game
    /// name), from the workspace's manifests, every folder of `games/` but the
    /// interface's.
    fn game_crates() -> Vec<(String, String)> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
        let members: toml::Table = toml::from_str(&manifest).unwrap();
        let members = members["workspace"]["members"].as_array().unwrap();
        let games: Vec<(String, String)> = (members.iter())
            .filter_map(|m| m.as_str()?.strip_prefix("games/").map(str::to_string))
            .filter(|folder| folder != "interface")
            .map(|folder| {
                let text =
                    std::fs::read_to_string(root.join("games").join(&folder).join("Cargo.toml"))
                        .unwrap();
                let t: toml::Table = toml::from_str(&text).unwrap();
                let name = t["package"]["name"].as_str().unwrap().replace('-', "_");
                (folder, name)
            })
            .collect();
        assert!(games.len() >= 2, "{games:?}");
        games
    }

    /// What of `text` names the game crate `krate` or the game `name`: its paths
    /// (`NAME::`), or the name as a string literal (except the platform's own name,
    /// which is its first game's: the program, its database and its metrics are called
    /// `bottlebats`).
    fn names_a_game(text: &str, krate: &str, name: &str) -> bool {
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        let path = format!("{krate}::");
        let literal = format!("\"{name}\"");
        let by_path = code
            .match_indices(&path)
            .any(|(i, _)| !code[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_'));
        by_path || (name != crate::PROGRAM && code.contains(&literal))
    }

    /// The platform is generic: only the registry (`games.rs`) names a game's crate or
    /// a game; the ranker, workers, builds, challenges, tournaments, accounts, the web
    /// layer and the local tool iterate the registry. Tests (`#[cfg(test)]` modules)
    /// may play a game of their own.
    #[test]
    fn only_the_registry_names_a_game() {
        let mut wrong = Vec::new();
        for (rel, text) in sources() {
            if rel == std::path::Path::new("games.rs") {
                continue;
            }
            for (folder, krate) in game_crates() {
                if names_a_game(&text, &krate, &folder) {
                    wrong.push(format!("{} names {folder}", rel.display()));
                }
            }
        }
        assert!(wrong.is_empty(), "modules naming a game: {wrong:?}");
        // The check sees what it is for.
        assert!(names_a_game(
            "use vindinium::plugin;",
            "vindinium",
            "vindinium"
        ));
        assert!(names_a_game(
            "if g == \"vindinium\" {",
            "vindinium",
            "vindinium"
        ));
        assert!(!names_a_game("my_vindinium::x", "vindinium", "vindinium"));
    }

    /// The engine decides nothing about any game and depends on none: no source of it
    /// names a game's crate or a game.
    #[test]
    fn the_engine_names_no_game() {
        let mut wrong = Vec::new();
        for (rel, text) in sources_of("engine") {
            for (folder, krate) in game_crates() {
                if names_a_game(&text, &krate, &folder) {
                    wrong.push(format!("{} names {folder}", rel.display()));
                }
            }
        }
        assert!(wrong.is_empty(), "engine modules naming a game: {wrong:?}");
    }

    /// The domain modules never reach into the web layer; only the entry points that
    /// wire the site (`serve.rs`, `cli/`; `lib.rs` declares the modules) and the web
    /// modules themselves may.
    #[test]
    fn the_domain_does_not_import_the_web_layer() {
        let mut wrong = Vec::new();
        for (rel, text) in sources() {
            let entry = rel.starts_with("web")
                || rel.starts_with("cli")
                || rel == std::path::Path::new("serve.rs")
                || rel == std::path::Path::new("lib.rs");
            if !entry && (text.contains("crate::web") || text.contains("super::web")) {
                wrong.push(rel.display().to_string());
            }
        }
        assert!(wrong.is_empty(), "domain modules importing web: {wrong:?}");
    }
}
