//! What `static/` holds, as the site serves it: every file under `static/` is served
//! at `/static/PATH`, with its own bytes and the content type its extension calls for
//! (a module served as anything but JavaScript is refused by browsers), so a new file
//! cannot be left out of the binary.

mod common;

use std::path::Path;

use axum::http::StatusCode;

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
        files.iter().any(|f| f == "style.css") && files.len() > 5,
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
    let r = c.get("/static/none.js").await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
}
