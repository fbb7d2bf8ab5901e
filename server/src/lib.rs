//! The Bottle Bats platform: the web app, its database, accounts, and the commands of
//! the `bottlebats` binary. `main.rs` only calls [`cli::main`].

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
pub mod remote;
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

    /// The platform is generic: only the modules that bring the games and their files
    /// in (`games.rs`, `house.rs`, `starters.rs`, `downloads.rs`), the local tool
    /// (`play.rs`) and the command line's map tools (`cli/`) name a game's crate; the ranker, workers, builds, challenges, tournaments,
    /// accounts and the web layer see a game through the game interface. Tests
    /// (`#[cfg(test)]` modules) may play a game of their own.
    #[test]
    fn only_the_game_adapters_name_a_game() {
        let mut wrong = Vec::new();
        for (rel, text) in sources() {
            let adapter = [
                "games.rs",
                "house.rs",
                "starters.rs",
                "downloads.rs",
                "play.rs",
                "lib.rs",
            ]
            .iter()
            .any(|f| rel == std::path::Path::new(f))
                || rel.starts_with("cli");
            let code = text.split("#[cfg(test)]").next().unwrap_or_default();
            if !adapter && (code.contains("engine::") || code.contains("vindinium::")) {
                wrong.push(rel.display().to_string());
            }
        }
        assert!(wrong.is_empty(), "generic modules naming a game: {wrong:?}");
    }

    /// The runner decides nothing about any game: no source of it names a game's crate
    /// but `bottlebats.rs` (the engine's types read back for the local tool, tests and
    /// benches) and `lib.rs`, which declares it.
    #[test]
    fn the_runners_core_names_no_game() {
        let runner = sources_of("runner");
        let wrong: Vec<String> = (runner.iter())
            .filter(|(rel, _)| {
                !["bottlebats.rs", "lib.rs"]
                    .iter()
                    .any(|f| rel == std::path::Path::new(f))
            })
            .filter(|(_, text)| text.contains("engine::") || text.contains("vindinium::"))
            .map(|(rel, _)| rel.display().to_string())
            .collect();
        assert!(wrong.is_empty(), "runner modules naming a game: {wrong:?}");
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
