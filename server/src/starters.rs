//! Starter kits: the folders of `bots/starters/`, embedded at build time and served as
//! zips from the getting-started page.

use std::collections::HashMap;
use std::io::Write;
use std::sync::{Arc, Mutex, OnceLock};

use crate::languages::Languages;

use crate::embedded::{files_in, subfolders, STARTERS};

/// The languages with a kit (its folder's name, a key of the languages table).
pub fn languages() -> Vec<&'static str> {
    subfolders(STARTERS)
}

/// The languages with a kit that this server can build and run, in the order shown,
/// each with its name in the site's languages table: a kit for a language the server
/// cannot build would only lead to a refused upload.
pub fn kits(languages: &Languages) -> Vec<(&'static str, String)> {
    self::languages()
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

/// The zip of a kit, made once: its files in a folder `bottlebats-LANG/`.
pub fn zip(lang: &str) -> Option<Arc<Vec<u8>>> {
    static CACHE: OnceLock<Mutex<HashMap<String, Arc<Vec<u8>>>>> = OnceLock::new();
    if !self::languages().contains(&lang) {
        return None;
    }
    let cache = CACHE.get_or_init(Default::default);
    let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(z) = cache.get(lang) {
        return Some(z.clone());
    }
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default().unix_permissions(0o644);
    for (path, file) in files_in(STARTERS, lang) {
        w.start_file(format!("bottlebats-{lang}/{path}"), options)
            .ok()?;
        w.write_all(file.bytes).ok()?;
    }
    let bytes = Arc::new(w.finish().ok()?.into_inner());
    cache.insert(lang.to_string(), bytes.clone());
    Some(bytes)
}
