//! What a server offers is what it can build: a language whose toolchain is missing is
//! named nowhere as offered (home, getting started, kits, the API), and the pages say
//! what the organizers would install for it.

use crate::common::{test_config, Client};

/// A site whose Rust needs a compiler no machine has.
async fn site_without_rust() -> Client {
    let table = server::languages::DEFAULT_TOML.replace(
        "requires = [\"rustc\"]",
        "requires = [\"no-such-rustc-here\"]",
    );
    assert_ne!(
        table,
        server::languages::DEFAULT_TOML,
        "the table asks for rustc"
    );
    let path = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("languages-no-rust.toml");
    std::fs::write(&path, table).unwrap();
    let mut config = test_config();
    config.languages = Some(path);
    Client::with_config(config).await
}

#[tokio::test]
async fn a_language_the_server_cannot_build_is_offered_nowhere() {
    let mut c = site_without_rust().await;
    let home = c.get("/").await.body;
    assert!(home.contains("this site builds"), "{home}");
    assert!(!home.contains("Rust"), "{home}");
    assert!(home.contains("Python"), "{home}");

    let page = c.get("/getting-started").await.body;
    assert!(
        !page.contains("/starters/bottlebats/rust.zip"),
        "no kit offered"
    );
    assert!(page.contains("/starters/bottlebats/python.zip"));
    assert!(
        page.contains("Rust (single file) (it needs <code>no-such-rustc-here</code>)"),
        "{page}"
    );
    let kit = c.get("/starters/bottlebats/rust.zip").await;
    assert_eq!(kit.status, 404);
    assert!(kit.body.contains("does not build Rust"), "{}", kit.body);
    assert_eq!(c.get("/starters/bottlebats/python.zip").await.status, 200);
    let old = c.get("/starters/python.zip").await;
    assert_eq!(old.status, 308, "the kits' first addresses lead on");
    assert_eq!(old.headers["location"], "/starters/bottlebats/python.zip");

    let api = c.get("/api/languages").await.json();
    let keys: Vec<&str> = api["languages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["key"].as_str().unwrap())
        .collect();
    assert!(keys.contains(&"python") && !keys.contains(&"rust"), "{api}");
    assert_eq!(
        api["not_offered"][0]["needs"], "no-such-rustc-here",
        "{api}"
    );
    let python = api["languages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["key"] == "python")
        .unwrap();
    assert_eq!(python["kit"], "/starters/bottlebats/python.zip");

    c.register("alice", crate::builds::PW).await;
    let form = c.get("/bots/new").await.body;
    assert!(
        !form.contains("Rust"),
        "the upload form offers it not: {form}"
    );
}
