//! Starter kits: the folders of `bots/starters/`, embedded at build time and served as
//! zips from the getting-started page.

use std::collections::HashMap;
use std::io::Write;
use std::sync::{Arc, Mutex, OnceLock};

include!(concat!(env!("OUT_DIR"), "/starters.rs"));

/// The languages with a kit, with their display names, in the order shown.
pub fn kits() -> Vec<(&'static str, &'static str)> {
    STARTERS
        .iter()
        .map(|(lang, _)| {
            let name = match *lang {
                "python" => "Python",
                "rust" => "Rust",
                "cpp" => "C++",
                "javascript" => "JavaScript (Node)",
                "java" => "Java",
                other => other,
            };
            (*lang, name)
        })
        .collect()
}

/// The zip of a kit, made once: its files in a folder `bottlebats-LANG/`.
pub fn zip(lang: &str) -> Option<Arc<Vec<u8>>> {
    static CACHE: OnceLock<Mutex<HashMap<String, Arc<Vec<u8>>>>> = OnceLock::new();
    let (_, files) = STARTERS.iter().find(|(l, _)| *l == lang)?;
    let cache = CACHE.get_or_init(Default::default);
    let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(z) = cache.get(lang) {
        return Some(z.clone());
    }
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default().unix_permissions(0o644);
    for (path, bytes) in files.iter() {
        w.start_file(format!("bottlebats-{lang}/{path}"), options)
            .ok()?;
        w.write_all(bytes).ok()?;
    }
    let bytes = Arc::new(w.finish().ok()?.into_inner());
    cache.insert(lang.to_string(), bytes.clone());
    Some(bytes)
}
