//! Uploading bots in the browser and over the API: what is accepted, and every kind of
//! bad upload answered with a clear message while nothing is stored.

use crate::common;

use axum::http::StatusCode;
use common::{tar_gz_of, zip_of, Client};

const PW: &str = "correct horse battery";
const BOT: &[u8] = b"import sys\nprint('0 commands:')\n";

async fn counts(c: &Client) -> (i64, i64) {
    sqlx::query_as("select (select count(*) from bots), (select count(*) from bot_versions)")
        .fetch_one(&c.state.db)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_bot_uploaded_in_the_browser_waits_for_its_build() {
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    let r = c
        .upload(
            "/bots/new",
            &[("name", "Pythia"), ("language", "auto")],
            Some(("bot.py", BOT)),
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    assert_eq!(r.location(), Some("/bots/Pythia"));
    let page = c.get("/bots/pythia").await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains("<h1>Pythia</h1>"));
    assert!(page.body.contains("status pending"), "{}", page.body);
    assert!(
        page.body.contains("Upload a new version"),
        "the owner can upload"
    );
    let stranger = c.get("/bots/Pythia").await;
    assert!(stranger.body.contains("no version plays yet"));
    let (language, entry): (String, String) =
        sqlx::query_as("select language, entry from bot_versions")
            .fetch_one(&c.state.db)
            .await
            .unwrap();
    assert_eq!((language.as_str(), entry.as_str()), ("python", "bot.py"));
    let profile = c.get("/profile").await;
    assert!(
        profile.body.contains("href=\"/bots/Pythia\""),
        "the profile lists the bot"
    );
    assert!(profile.body.contains("none yet") && profile.body.contains("status pending"));
}

#[tokio::test]
async fn archives_are_recognised_by_their_entry_file() {
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    let cases: Vec<(&str, &str, Vec<u8>, &str, &str)> = vec![
        (
            "zipped",
            "bot.zip",
            zip_of(&[("bot.py", BOT), ("lib/util.py", b"x = 1")]),
            "python",
            "bot.py",
        ),
        (
            "folder",
            "bot.zip",
            zip_of(&[("mybot/", b""), ("mybot/bot.sh", b"echo")]),
            "shell",
            "bot.sh",
        ),
        (
            "tarred",
            "bot.tar.gz",
            tar_gz_of(&[("./main.py", BOT)]),
            "python",
            "main.py",
        ),
        (
            "single_sh",
            "run.sh",
            b"echo '0 commands:'".to_vec(),
            "shell",
            "run.sh",
        ),
    ];
    for (name, file, bytes, language, entry) in cases {
        let r = c
            .upload("/bots/new", &[("name", name)], Some((file, &bytes)))
            .await;
        assert_eq!(r.status, StatusCode::SEE_OTHER, "{name}: {}", r.body);
        let got: (String, String) = sqlx::query_as(
            "select v.language, v.entry from bot_versions v join bots b on b.id = v.bot_id where b.name = $1",
        )
        .bind(name)
        .fetch_one(&c.state.db)
        .await
        .unwrap();
        assert_eq!(got, (language.to_string(), entry.to_string()), "{name}");
    }
    // Custom commands, as in 2016.
    let r = c
        .upload(
            "/bots/new",
            &[
                ("name", "custom"),
                ("language", "custom"),
                ("compile_command", "make"),
                ("run_command", "./mine"),
            ],
            Some(("src.zip", &zip_of(&[("Makefile", b"all:")]))),
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
}

#[tokio::test]
async fn the_api_creates_bots_and_versions_with_a_token() {
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    let token = c.new_token("ci").await;
    let mut api = c.stranger();
    let r = api
        .api_upload(
            "/api/bots",
            &token,
            &[("name", "apibot")],
            Some(("bot.py", BOT)),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    let v: serde_json::Value = serde_json::from_str(&r.body).unwrap();
    assert_eq!(v["bot"], "apibot");
    assert_eq!(v["version"], 1);
    assert_eq!(v["status"], "pending");
    let r = api
        .api_upload(
            "/api/bots/apibot/versions",
            &token,
            &[("language", "python")],
            Some(("bot.py", BOT)),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    assert!(r.body.contains("\"version\":2"));
    let r = api.get("/api/bots/apibot").await;
    assert_eq!(r.status, StatusCode::OK);
    let v: serde_json::Value = serde_json::from_str(&r.body).unwrap();
    assert_eq!(v["owner"], "alice");
    assert_eq!(v["versions"].as_array().unwrap().len(), 2);
    assert_eq!(v["versions"][0]["status"], "pending");
    // No token, a wrong token: refused, nothing stored.
    let r = api
        .api_upload(
            "/api/bots",
            "bbt_wrong",
            &[("name", "x")],
            Some(("bot.py", BOT)),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    assert!(r.body.contains("Invalid API token"), "{}", r.body);
    let r = api
        .send(
            axum::http::Request::post("/api/bots")
                .body(axum::body::Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    assert!(r.body.contains("Authorization: Bearer"), "{}", r.body);
    assert_eq!(
        api.get("/api/bots/nope").await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(counts(&c).await, (1, 2));
}

/// A .tar.gz with one raw entry (a name and type that `tar::Builder` would refuse).
fn raw_tar(name: &[u8], kind: tar::EntryType, data: &[u8]) -> Vec<u8> {
    let mut h = tar::Header::new_old();
    {
        let raw = h.as_old_mut();
        raw.name[..name.len()].copy_from_slice(name);
    }
    h.set_entry_type(kind);
    h.set_size(data.len() as u64);
    h.set_mode(0o644);
    h.set_cksum();
    let mut tar = h.as_bytes().to_vec();
    tar.extend_from_slice(data);
    tar.resize(tar.len().div_ceil(512) * 512 + 1024, 0);
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut gz, &tar).unwrap();
    gz.finish().unwrap()
}

fn zip_with_symlink() -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    w.add_symlink(
        "bot.py",
        "/etc/passwd",
        zip::write::SimpleFileOptions::default(),
    )
    .unwrap();
    w.finish().unwrap().into_inner()
}

#[tokio::test]
async fn bad_uploads_are_refused_with_a_clear_message_and_store_nothing() {
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    for (name, file, bytes, message) in refused_uploads() {
        let r = c
            .upload("/bots/new", &[("name", name)], Some((file, &bytes)))
            .await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{name}: {}", r.body);
        // Quoted names and commands are shown as code, never with backticks.
        let shown = server::web::format::code_spans(message);
        assert!(r.body.contains(&shown), "{name}: expected `{shown}`");
    }
    let r = c.upload("/bots/new", &[("name", "nofile")], None).await;
    assert!(r.body.contains("Choose a file to upload."));
    let r = c
        .upload(
            "/bots/new",
            &[("name", "cust"), ("language", "custom")],
            Some(("bot.py", BOT)),
        )
        .await;
    assert!(r.body.contains("give at least the run command"));
    assert_eq!(counts(&c).await, (0, 0), "nothing was stored");
    assert!(no_scratch_folder_left(), "scratch folders are removed");
}

/// Uploads the form refuses: (bot name, file name, bytes, what the refusal says).
type Refused = Vec<(&'static str, &'static str, Vec<u8>, &'static str)>;

/// Every upload the form refuses, in the order they are tried.
fn refused_uploads() -> Refused {
    let mut cases = empty_or_too_big();
    cases.extend(entries_outside_or_special());
    cases.extend(unreadable_or_badly_named());
    cases
}

/// An empty file, a zip bomb and an archive of too many files.
fn empty_or_too_big() -> Refused {
    let zeros = vec![0u8; 80 * 1024 * 1024];
    let bomb = zip_of(&[("bot.py", &zeros)]);
    assert!(
        bomb.len() < 1024 * 1024,
        "a real bomb: {} bytes",
        bomb.len()
    );
    let many: Vec<(String, Vec<u8>)> = (0..2100)
        .map(|i| (format!("f{i}.py"), vec![b'x']))
        .collect();
    let many_refs: Vec<(&str, &[u8])> = many
        .iter()
        .map(|(n, d)| (n.as_str(), d.as_slice()))
        .collect();
    vec![
        ("empty", "bot.py", vec![], "`bot.py` is empty."),
        ("bomb", "bot.zip", bomb, "unpacks to more than 64 MiB"),
        (
            "many",
            "bot.zip",
            zip_of(&many_refs),
            "more than 2000 files",
        ),
    ]
}

/// Archive entries that point outside their folder, links, devices and names that
/// are not UTF-8.
fn entries_outside_or_special() -> Refused {
    vec![
        (
            "dotdot",
            "bot.zip",
            zip_of(&[("../bot.py", BOT)]),
            "points outside its folder",
        ),
        (
            "absolute",
            "bot.zip",
            zip_of(&[("/etc/bot.py", BOT)]),
            "points outside its folder",
        ),
        (
            "tardotdot",
            "bot.tar.gz",
            raw_tar(b"a/../../bot.py", tar::EntryType::Regular, BOT),
            "points outside its folder",
        ),
        (
            "symlink",
            "bot.zip",
            zip_with_symlink(),
            "is a link or a special file",
        ),
        (
            "tarlink",
            "bot.tar.gz",
            raw_tar(b"bot.py", tar::EntryType::Symlink, b""),
            "is a link or a special file",
        ),
        (
            "device",
            "bot.tar.gz",
            raw_tar(b"bot.py", tar::EntryType::Char, b""),
            "is a link or a special file",
        ),
        (
            "latin1",
            "bot.tar.gz",
            raw_tar(b"b\xf6t.py", tar::EntryType::Regular, BOT),
            "not valid UTF-8",
        ),
    ]
}

/// Files no language uses, a damaged zip, and bad bot names.
fn unreadable_or_badly_named() -> Refused {
    vec![
        (
            "nolang",
            "bot.zip",
            zip_of(&[("notes.txt", b"hello")]),
            "no entry file found",
        ),
        (
            "noext",
            "README",
            b"hello".to_vec(),
            "No language offered here uses files like `README`",
        ),
        (
            "badzip",
            "bot.zip",
            b"PK\x03\x04 this is not really a zip".to_vec(),
            "damaged",
        ),
        (
            "corrupt",
            "corrupt.zip",
            b"half of a download".to_vec(),
            "`corrupt.zip` is not a readable zip archive",
        ),
        (
            "corrupttar",
            "bot.tar.gz",
            b"not gzip at all".to_vec(),
            "`bot.tar.gz` is not a readable .tar.gz archive",
        ),
        (
            "bad name!",
            "bot.py",
            BOT.to_vec(),
            "A bot name is 1 to 32 letters",
        ),
        ("", "bot.py", BOT.to_vec(), "A bot name is 1 to 32 letters"),
    ]
}

/// No upload's scratch folder of the last minute is left in the temporary folder
/// (older ones are another run's).
fn no_scratch_folder_left() -> bool {
    std::fs::read_dir(std::env::temp_dir())
        .unwrap()
        .filter_map(Result::ok)
        .all(|e| {
            !e.file_name()
                .to_string_lossy()
                .starts_with("bottlebats-upload-")
                || e.metadata()
                    .map(|m| m.modified().unwrap().elapsed().unwrap().as_secs() > 60)
                    .unwrap_or(true)
        })
}

#[tokio::test]
async fn an_upload_over_the_size_limit_gets_a_readable_413() {
    let mut config = common::test_config();
    config.max_upload_bytes = 1024 * 1024;
    let mut c = Client::with_config(config).await;
    c.register("alice", PW).await;
    let big = vec![b'#'; 1024 * 1024 + 10];
    let r = c
        .upload("/bots/new", &[("name", "big")], Some(("bot.py", &big)))
        .await;
    assert_eq!(r.status, StatusCode::PAYLOAD_TOO_LARGE);
    // Answered on the form, with what was typed kept.
    assert!(
        r.body.contains("larger than this site accepts (1 MiB)")
            && r.body
                .contains("<form method=\"post\" action=\"/bots/new\"")
            && r.body.contains("value=\"big\""),
        "{}",
        r.body
    );
    let huge = vec![b'#'; 3 * 1024 * 1024];
    let r = c
        .upload("/bots/new", &[("name", "huge")], Some(("bot.py", &huge)))
        .await;
    assert_eq!(r.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(
        r.body.contains("larger than this site accepts (1 MiB)"),
        "{}",
        r.body
    );
    assert_eq!(counts(&c).await, (0, 0));
}

#[tokio::test]
async fn names_are_unique_and_only_the_owner_uploads_versions_or_downloads_sources() {
    let mut alice = Client::new().await;
    alice.register("alice", PW).await;
    alice
        .upload("/bots/new", &[("name", "Taken")], Some(("bot.py", BOT)))
        .await;
    let mut bob = alice.stranger();
    bob.register("bob", PW).await;
    let r = bob
        .upload("/bots/new", &[("name", "tAKEN")], Some(("bot.py", BOT)))
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert!(r
        .body
        .contains("A bot called <code>tAKEN</code> exists already"));
    let r = bob
        .upload("/bots/Taken/versions", &[], Some(("bot.py", BOT)))
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    assert!(!bob
        .get("/bots/Taken")
        .await
        .body
        .contains("Upload a new version"));
    assert_eq!(
        bob.get("/bots/Taken/versions/1/source").await.status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(bob.get("/bots/nope").await.status, StatusCode::NOT_FOUND);
    let mut anon = alice.stranger();
    assert_eq!(
        anon.get("/bots/Taken/versions/1/source").await.status,
        StatusCode::SEE_OTHER
    );
    let r = alice.get("/bots/Taken/versions/1/source").await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.body.as_bytes(), BOT);
    assert!(r.headers["content-disposition"]
        .to_str()
        .unwrap()
        .contains("Taken-v1-bot.py"));
    assert_eq!(counts(&alice).await, (1, 1));
}

#[tokio::test]
async fn a_bot_page_refreshes_itself_only_while_a_recent_version_is_on_its_way() {
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    c.upload("/bots/new", &[("name", "Waiter")], Some(("bot.py", BOT)))
        .await;
    let page = c.get("/bots/Waiter").await;
    assert!(
        page.body
            .contains("<meta http-equiv=\"refresh\" content=\"5\">"),
        "{}",
        page.body
    );
    assert!(page.body.contains("Version 1 is being built and tested"));
    assert!(page
        .body
        .contains("This page refreshes itself every 5 seconds"));
    // Waiting for long: the builder is busy or stopped; the page stops refreshing.
    sqlx::query("update bot_versions set created_at = now() - interval '11 minutes'")
        .execute(&c.state.db)
        .await
        .unwrap();
    let page = c.get("/bots/Waiter").await;
    assert!(!page.body.contains("http-equiv=\"refresh\""));
    assert!(page.body.contains("the builder is busy or stopped"));
    // Nothing on its way: no notice at all.
    sqlx::query("update bot_versions set status = 'failed', failure = 'it broke'")
        .execute(&c.state.db)
        .await
        .unwrap();
    let page = c.get("/bots/Waiter").await;
    assert!(!page.body.contains("http-equiv=\"refresh\""));
    assert!(!page.body.contains("being built and tested"));
    assert!(page.body.contains("Why it failed:</strong> it broke"));
    assert!(
        !c.stranger()
            .get("/bots/Waiter")
            .await
            .body
            .contains("it broke"),
        "only the owner sees why"
    );
}

/// The opening tag of the page's first element that starts with `start`.
fn tag<'a>(body: &'a str, start: &str) -> &'a str {
    let at = body
        .find(start)
        .unwrap_or_else(|| panic!("no `{start}` in the page: {body}"));
    &body[at..=at + body[at..].find('>').unwrap()]
}

/// A refused upload of a new version comes back with the language, the commands (cut
/// to their fields' 1000 characters, escaped) and the candidate box as they were; so
/// does a refused new bot.
#[tokio::test]
async fn a_refused_upload_comes_back_with_its_language_and_commands() {
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    let r = c
        .upload("/bots/new", &[("name", "Keeper")], Some(("bot.py", BOT)))
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    // Version 1 plays: the form offers to upload a candidate.
    for sql in [
        "update bots set active_version_id = v.id from bot_versions v where v.bot_id = bots.id",
        "update bot_versions set status = 'active'",
    ] {
        sqlx::query(sql).execute(&c.state.db).await.unwrap();
    }
    let run = format!("./bot {}", "x".repeat(2000));
    let fields = [
        ("language", "custom"),
        ("compile_command", "make <b>all</b>"),
        ("run_command", run.as_str()),
        ("candidate", "on"),
    ];
    for path in ["/bots/Keeper/versions", "/bots/new"] {
        let named = [&[("name", "Keeper2")][..], &fields].concat();
        let r = c.upload(path, &named, Some(("bot.py", b""))).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{path}: {}", r.body);
        let b = &r.body;
        assert!(b.contains("<code>bot.py</code> is empty."), "{path}: {b}");
        assert!(
            tag(b, "<option value=\"custom\"").contains(" selected"),
            "{path}"
        );
        assert!(
            tag(b, "<details class=\"custom\"").contains(" open"),
            "{path}"
        );
        let compile = tag(b, "<input name=\"compile_command\"");
        assert!(
            compile.contains("value=\"make &#60;b&#62;all&#60;/b&#62;\"")
                || compile.contains("value=\"make &lt;b&gt;all&lt;/b&gt;\""),
            "{path}: {compile}"
        );
        let kept: String = run.chars().take(1000).collect();
        let field = tag(b, "<input name=\"run_command\"");
        assert!(
            field.contains(&format!("value=\"{kept}\"")),
            "{path}: cut to 1000"
        );
        if path.ends_with("versions") {
            assert!(tag(b, "<input type=\"checkbox\" name=\"candidate\"").contains(" checked"));
        } else {
            assert!(tag(b, "<input name=\"name\"").contains("value=\"Keeper2\""));
        }
    }
    assert_eq!(counts(&c).await, (1, 1), "nothing more was stored");
}

/// A refused remote bot comes back in its own form, with its name as typed and the
/// refusal beside it; the upload form stays empty.
#[tokio::test]
async fn a_refused_remote_bot_comes_back_in_its_own_form() {
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    let r = c.post("/bots/new-remote", &[("name", "far <away>")]).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.body);
    let b = &r.body;
    let remote = &b[b
        .find("action=\"/bots/new-remote\"")
        .expect("the remote form")..];
    let before = &b[..b.find("action=\"/bots/new-remote\"").unwrap()];
    assert!(
        before.contains("id=\"remote-error\"") && before.contains("A bot name is"),
        "the refusal is the remote form's: {b}"
    );
    let name = tag(remote, "<input name=\"name\"");
    assert!(
        name.contains("value=\"far &#60;away&#62;\"")
            || name.contains("value=\"far &lt;away&gt;\""),
        "{name}"
    );
    assert!(name.contains("autofocus"));
    let upload = tag(b, "<input name=\"name\"");
    assert!(
        upload.contains("value=\"\"") && !upload.contains("autofocus"),
        "{upload}"
    );
}
