//! The repository's folders the binary carries, embedded by `build.rs` (which says
//! why it walks them itself): each a list of [`File`]s by their path in the folder,
//! `/` between folders, in order of path. Build outputs left in a bot's or a kit's
//! folder (`target/`, `__pycache__/`, a compiled `bot`, ...) are not embedded.
//!
//! - `STATIC` — `static/`, served under `/static/` (`web/mod.rs`);
//! - `MAPS` — `games/bottlebats/maps/`, the shipped maps (`games::shipped_maps`);
//! - `HOUSE_BOTS` — `games/bottlebats/bots/house/`, a folder per house bot (`house.rs`);
//! - `VINDINIUM_HOUSE_BOTS` — `games/vindinium/bots/house/`, Vindinium's (`house.rs`);
//! - `VINDINIUM_STARTERS` — `games/vindinium/bots/starters/`, its kits (`starters.rs`);
//! - `STARTERS` — `games/bottlebats/bots/starters/`, a folder per starter kit (`starters.rs`);
//! - `SOURCE` — the platform's own source, served as an archive (`downloads.rs`).

/// One embedded file.
#[derive(Debug)]
pub struct File {
    /// Its path in its folder.
    pub path: &'static str,
    pub bytes: &'static [u8],
}

impl File {
    /// The file as text (every embedded map and bot is UTF-8; `build.rs` does not
    /// check, so this says which file is not).
    pub fn text(&self) -> &'static str {
        std::str::from_utf8(self.bytes)
            .unwrap_or_else(|_| panic!("{} is embedded as text but is not UTF-8", self.path))
    }

    /// Its name without the folders and the extension (`duel-2p` of `duel-2p.map`).
    pub fn stem(&self) -> &'static str {
        let name = self.path.rsplit('/').next().unwrap_or(self.path);
        name.rsplit_once('.').map_or(name, |(stem, _)| stem)
    }
}

include!(concat!(env!("OUT_DIR"), "/embedded.rs"));

/// The file of `folder` at `path`.
pub fn find(folder: &'static [File], path: &str) -> Option<&'static File> {
    folder.iter().find(|f| f.path == path)
}

/// The first-level subfolders of `folder` (the house bots, the kits), in order.
pub fn subfolders(folder: &'static [File]) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = folder
        .iter()
        .filter_map(|f| f.path.split_once('/').map(|(dir, _)| dir))
        .collect();
    names.dedup();
    names
}

/// The files of `folder` in its subfolder `dir`, with their paths in it.
pub fn files_in<'a>(
    folder: &'static [File],
    dir: &'a str,
) -> impl Iterator<Item = (&'static str, &'static File)> + 'a {
    folder.iter().filter_map(move |f| {
        f.path
            .strip_prefix(dir)
            .and_then(|rest| rest.strip_prefix('/'))
            .map(|rest| (rest, f))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_folders_are_embedded_without_build_outputs() {
        assert!(find(STATIC, "viewer/viewer.mjs").is_some());
        assert!(MAPS.iter().any(|m| m.stem() == "duel-2p"));
        assert_eq!(
            subfolders(HOUSE_BOTS),
            ["greedy", "idle", "random", "strong"]
        );
        assert!(subfolders(STARTERS).contains(&"python"));
        for f in STATIC.iter().chain(MAPS).chain(HOUSE_BOTS).chain(STARTERS) {
            assert!(
                !f.path.contains("__pycache__") && !f.path.contains("target/"),
                "{}",
                f.path
            );
        }
    }
}
