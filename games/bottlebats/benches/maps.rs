//! The maps benchmarks play on: the shipped ones, and the 2-player 24-fort map of the
//! runner's and the replay's benchmarks. Shared by the engine's and the runner's
//! benchmarks.

use std::path::{Path, PathBuf};

use bottlebats::map::Map;

/// Bottle Bats' `maps/` (`maps/bottlebats/`), whichever crate includes this file.
fn maps_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .find(|d| d.join("Cargo.lock").is_file())
        .expect("the workspace root")
        .join("maps/bottlebats")
}

/// The maps of `maps/` that parse, by file name.
pub fn shipped_maps() -> Vec<(String, Map)> {
    let dir = maps_dir();
    let mut maps = Vec::new();
    for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if let Ok(text) = std::fs::read_to_string(&path) {
            if let Ok(map) = Map::parse(&text) {
                maps.push((
                    path.file_name().unwrap().to_string_lossy().into_owned(),
                    map,
                ));
            }
        }
    }
    maps.sort_by(|a, b| a.0.cmp(&b.0));
    maps
}

/// The first 2-player 24-fort map of `maps/`, or one generated like it.
pub fn duel_map() -> (String, Map) {
    shipped_maps()
        .into_iter()
        .find(|(_, m)| m.seats.len() == 2 && m.forts.len() == 24)
        .unwrap_or_else(|| {
            let opts = bottlebats::generate::GenerateOptions {
                players: 2,
                seed: 1,
                forts: Some(24),
            };
            (
                "generated 24-fort map".into(),
                bottlebats::generate::generate(&opts).unwrap(),
            )
        })
}
