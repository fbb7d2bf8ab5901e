//! The repository's folders the binary carries, embedded by `build.rs` (which says
//! why it walks them itself): each a list of [`File`]s by their path in the folder,
//! `/` between folders, in order of path. Build outputs left in a bot's or a kit's
//! folder (`target/`, `__pycache__/`, a compiled `bot`, ...) are not embedded.
//!
//! - `STATIC` — `static/`, served under `/static/` (`web/mod.rs`);
//! - `GAMES` — each game's content ([`GameFiles`], found by the game's name with
//!   [`game`]): the folders of `games/NAME/` that hold a `rules.md`, with their maps
//!   (`maps/NAME/`), house bots, starter kits and local kit;
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

/// A game's content, as its folders hold it.
#[derive(Debug)]
pub struct GameFiles {
    /// The game's name (its folder's).
    pub name: &'static str,
    /// `maps/NAME/`: its shipped maps.
    pub maps: &'static [File],
    /// `games/NAME/bots/house/`: a folder per house bot, each with a `bot.py`.
    pub house: &'static [File],
    /// `games/NAME/bots/starters/`: a folder per starter kit, named by its language.
    pub starters: &'static [File],
    /// `games/NAME/kit/`: the local kit's own files (`README.md`, `config.json`).
    pub kit: &'static [File],
    /// `games/NAME/site/`: its pages' own parts, HTML: `rules.html` (the rules for
    /// players), `bot.html` (what a bot reads and writes, with an example).
    pub site: &'static [File],
    /// `games/NAME/rules.md`: the complete rules, for implementers.
    pub rules: &'static str,
}

include!(concat!(env!("OUT_DIR"), "/embedded.rs"));

/// The content of the game called `name`; none for a game without a folder.
pub fn game(name: &str) -> Option<&'static GameFiles> {
    GAMES.iter().find(|g| g.name == name)
}

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
        // Every game of the registry has its content, with house bots to smoke-test
        // against and a kit to play at home.
        for name in crate::games::registry().names() {
            let g = game(name).unwrap_or_else(|| panic!("no content for {name}"));
            assert!(!subfolders(g.house).is_empty(), "{name} has no house bots");
            assert!(find(g.kit, "config.json").is_some(), "{name} has no kit");
            assert!(g.rules.starts_with('#'), "{name}'s rules");
        }
        for g in GAMES {
            for part in ["rules.html", "bot.html"] {
                assert!(
                    find(g.site, part).is_some(),
                    "{} has no site/{part}",
                    g.name
                );
            }
        }
        let all = GAMES
            .iter()
            .flat_map(|g| g.maps.iter().chain(g.house).chain(g.starters));
        for f in STATIC.iter().chain(all) {
            assert!(
                !f.path.contains("__pycache__") && !f.path.contains("target/"),
                "{}",
                f.path
            );
        }
    }
}
