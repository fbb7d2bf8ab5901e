//! Games with real bot processes: one match of any game played through the game
//! interface, with bots started by a [`process::Launcher`] (plain processes as the
//! 2016 arbiter ran them, or the [`sandbox`] for strangers' code). [`bottlebats`] reads
//! a Bottle Bats match back in the engine's types.
//!
//! Architecture invariant: the runner decides nothing about the game; it plays any
//! game through the game interface (`game_interface::Match`), handing it each seat's
//! answer and the runner's own notes of the turn. Everything that touches the
//! operating system (processes, pipes, clocks, cgroups, namespaces) lives in this
//! crate, never in `engine`.

pub mod bottlebats;
pub mod matches;
pub mod process;
pub mod sandbox;

pub use bottlebats::{run_match, run_match_watched, MatchResult};
pub use matches::{run_game, GameResult, MatchConfig, OnTimeout, PlayerReport, RunError};

#[cfg(test)]
mod tests {
    /// The runner decides nothing about any game: no source of it names a game's crate
    /// but `bottlebats.rs`, the engine's types read back for the local tool and tests.
    #[test]
    fn only_the_bottlebats_module_names_a_game() {
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
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = Vec::new();
        walk(&src, &mut files);
        assert!(files.len() > 8, "{files:?}");
        let mut wrong = Vec::new();
        for path in &files {
            let rel = path.strip_prefix(&src).unwrap();
            if rel == std::path::Path::new("bottlebats.rs") || rel == std::path::Path::new("lib.rs")
            {
                continue;
            }
            let text = std::fs::read_to_string(path).unwrap();
            if text.contains("engine::") || text.contains("vindinium::") {
                wrong.push(rel.display().to_string());
            }
        }
        assert!(wrong.is_empty(), "runner modules naming a game: {wrong:?}");
    }
}
