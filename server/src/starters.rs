//! Starter kits: the folders of each game's `games/NAME/bots/starters/`, a folder per
//! language, embedded at build time and served as zips from Getting started
//! (`/starters/GAME/LANG.zip`).

use std::collections::HashMap;
use std::io::Write;
use std::sync::{Arc, Mutex, OnceLock};

use crate::embedded::{files_in, subfolders, File};
use crate::languages::Languages;

/// The kits of `game`, a folder per language; none for a game without kits.
fn folder(game: &str) -> &'static [File] {
    crate::embedded::game(game).map_or(&[], |g| g.starters)
}

/// The languages with a kit of `game` (its folders' names, keys of the languages
/// table).
pub fn languages_of(game: &str) -> Vec<&'static str> {
    subfolders(folder(game))
}

/// The name of a kit's zip and of its folder inside: `GAME-LANG`.
pub fn kit_name(game: &str, lang: &str) -> String {
    format!("{game}-{lang}")
}

/// The languages with a kit of `game` that this server can build and run, in the
/// order shown, each with its name in the site's languages table: a kit for a language
/// the server cannot build would only lead to a refused upload.
pub fn kits_of(game: &str, languages: &Languages) -> Vec<(&'static str, String)> {
    languages_of(game)
        .into_iter()
        .filter(|lang| offered(languages, lang))
        .map(|lang| {
            let name = languages
                .get(lang)
                .map_or_else(|| lang.to_string(), |e| e.language.name.clone());
            (lang, name)
        })
        .collect()
}

/// Whether the kit of `lang` can be built and run here.
pub fn offered(languages: &Languages, lang: &str) -> bool {
    languages.get(lang).is_some_and(|e| e.available)
}

/// The zip of `game`'s kit in `lang`, made once: its files in a folder named by
/// [`kit_name`].
pub fn zip_of(game: &str, lang: &str) -> Option<Arc<Vec<u8>>> {
    static CACHE: OnceLock<Mutex<HashMap<String, Arc<Vec<u8>>>>> = OnceLock::new();
    if !languages_of(game).contains(&lang) {
        return None;
    }
    let name = kit_name(game, lang);
    let cache = CACHE.get_or_init(Default::default);
    let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(z) = cache.get(&name) {
        return Some(z.clone());
    }
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default().unix_permissions(0o644);
    for (path, file) in files_in(folder(game), lang) {
        w.start_file(format!("{name}/{path}"), options).ok()?;
        w.write_all(file.bytes).ok()?;
    }
    let bytes = Arc::new(w.finish().ok()?.into_inner());
    cache.insert(name, bytes.clone());
    Some(bytes)
}
