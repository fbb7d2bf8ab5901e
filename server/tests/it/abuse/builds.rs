//! Builds that try to fill the disk, plant setuid files, or outlive their process.

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use server::build_cache::BuildCache;
use server::builds::Builder;

use crate::common::Client;

const PW: &str = "correct horse battery";
const MIB: u64 = 1024 * 1024;

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// A builder whose builds may write `size_cap` bytes, in a folder of its own.
fn builder(c: &Client, test: &str, size_cap: u64, total_cap: u64) -> (Builder, PathBuf) {
    let base = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("abuse-{test}"));
    let _ = std::fs::remove_dir_all(&base);
    let cache = BuildCache::new(base.join("builds"), size_cap, total_cap).unwrap();
    let dir = cache.dir().to_path_buf();
    let b = Builder::new(
        c.state.db.clone(),
        Arc::new(engine::sandbox::Sandbox::new(Default::default())),
        c.state.languages.clone(),
        cache,
        base.join("house"),
    );
    (b, dir)
}

/// Uploads a bot with the contestant's own build and run commands.
async fn custom(c: &mut Client, name: &str, compile: &str) {
    let r = c
        .upload(
            "/bots/new",
            &[
                ("name", name),
                ("language", "custom"),
                ("compile_command", compile),
                ("run_command", "/usr/bin/python3 bot.py"),
            ],
            Some(("bot.py", b"import sys\n")),
        )
        .await;
    assert_eq!(r.status, axum::http::StatusCode::SEE_OTHER, "{}", r.body);
}

async fn failure(c: &Client, bot: &str) -> Option<String> {
    sqlx::query_scalar(
        "select v.failure from bot_versions v join bots b on b.id = v.bot_id where b.name = $1",
    )
    .bind(bot)
    .fetch_one(&c.state.db)
    .await
    .unwrap()
}

/// What a build folder holds besides kept builds' markers and folders.
fn leftovers(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".tmp") || n.contains(".keep") || n.contains(".probe"))
        .collect()
}

/// Mounts under `dir`, from this process's mount table.
fn mounts_under(dir: &Path) -> usize {
    let dir = dir.canonicalize().unwrap();
    std::fs::read_to_string("/proc/self/mountinfo")
        .unwrap()
        .lines()
        .filter(|l| {
            l.split_whitespace()
                .nth(4)
                .is_some_and(|m| Path::new(m).starts_with(&dir))
        })
        .count()
}

#[tokio::test]
async fn a_build_that_fills_the_disk_is_stopped_and_leaves_nothing() {
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    let (b, dir) = builder(&c, "fill", 8 * MIB, 10 << 30);
    custom(
        &mut c,
        "filler",
        "head -c 6000000 /dev/zero > big1; head -c 6000000 /dev/zero > big2; exit 3",
    )
    .await;
    custom(&mut c, "keeper", "head -c 12000000 /dev/zero > big").await;
    custom(
        &mut c,
        "inodes",
        "mkdir d && cd d && seq 25000 | xargs touch",
    )
    .await;
    while b.build_next().await.unwrap() {}
    for bot in ["filler", "keeper"] {
        let why = failure(&c, bot).await.unwrap_or_default();
        assert!(why.contains("wrote more than 8 MiB"), "{bot}: {why}");
    }
    let why = failure(&c, "inodes").await.unwrap_or_default();
    assert!(why.contains("more than 20000 files and folders"), "{why}");
    assert!(leftovers(&dir).is_empty(), "{:?}", leftovers(&dir));
    let kept: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.file_name())
        .collect();
    assert!(kept.is_empty(), "nothing kept: {kept:?}");
    assert_eq!(mounts_under(&dir), 0, "no workspace left mounted");
}

#[tokio::test]
async fn a_kept_build_is_the_servers_without_setuid_and_checked_before_it_runs() {
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    let (b, _) = builder(&c, "setuid", 64 * MIB, 10 << 30);
    custom(
        &mut c,
        "planter",
        "cp /bin/true t && chmod 4755 t && chmod 2777 . && mkdir -p w && chmod 777 w && ln -s /etc/shadow s",
    )
    .await;
    let job = b.claim().await.unwrap().unwrap();
    let built = tokio::task::spawn_blocking({
        let b = b.clone();
        move || b.build(&job).unwrap()
    })
    .await
    .unwrap();
    let (root, _) = built.outcome.expect("the build passes");
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    for (name, want) in [("t", 0o755), (".", 0o755), ("w", 0o755)] {
        let meta = std::fs::symlink_metadata(root.join(name)).unwrap();
        assert_eq!(meta.uid(), me, "{name} belongs to the server");
        assert_eq!(
            meta.mode() & 0o7777,
            want,
            "{name}: no setuid, setgid or write for others"
        );
    }
    let link = std::fs::read_link(root.join("s")).unwrap();
    assert_eq!(link, Path::new("/etc/shadow"), "a link stays a link");
    let id: server::ids::VersionId = sqlx::query_scalar("select id from bot_versions")
        .fetch_one(&c.state.db)
        .await
        .unwrap();
    assert_eq!(b.cached(id), Some(root.clone()));
    // A file of the build changes on disk: the build is not run, but built again.
    let t = root.join("t");
    let mut perm = std::fs::metadata(&t).unwrap().permissions();
    perm.set_mode(0o777);
    std::fs::set_permissions(&t, perm).unwrap();
    std::fs::write(&t, b"#!/bin/sh\necho planted\n").unwrap();
    assert_eq!(b.cached(id), None);
    assert!(!root.exists(), "the changed build is dropped");
}

#[tokio::test]
async fn what_an_interrupted_build_left_is_swept_at_start() {
    let c = Client::new().await;
    let (b, dir) = builder(&c, "sweep", 8 * MIB, 10 << 30);
    // A workspace and a half-made copy of a process that is gone.
    let gone = 0x3fff_fff0;
    let ws = dir.join(format!("v77.tmp-{gone}-0"));
    std::fs::create_dir_all(ws.join("deep")).unwrap();
    std::fs::write(ws.join("deep/big"), vec![0u8; 1 << 20]).unwrap();
    std::fs::create_dir_all(dir.join(format!("v78.keep-{gone}-3"))).unwrap();
    // One of a process still running (ours) stays.
    let live = dir.join(format!("v79.tmp-{}-0", std::process::id()));
    std::fs::create_dir_all(&live).unwrap();
    b.cache.sweep();
    assert!(!ws.exists() && !dir.join(format!("v78.keep-{gone}-3")).exists());
    assert!(live.exists());
    std::fs::remove_dir(&live).unwrap();
}

#[tokio::test]
async fn the_build_cache_trims_itself_to_its_size() {
    let mut c = Client::new().await;
    c.register("alice", PW).await;
    let base = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("abuse-trim");
    let _ = std::fs::remove_dir_all(&base);
    // 3 MiB in all; no build counts as in use.
    let mut cache = BuildCache::new(base.join("builds"), 8 * MIB, 3 * MIB).unwrap();
    cache.in_use = Duration::ZERO;
    let b = Builder::new(
        c.state.db.clone(),
        Arc::new(engine::sandbox::Sandbox::new(Default::default())),
        c.state.languages.clone(),
        cache,
        base.join("house"),
    );
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let running = tokio::spawn(server::builds::run(b.clone(), stopped));
    for i in 0..3 {
        custom(
            &mut c,
            &format!("big{i}"),
            "head -c 2000000 /dev/urandom > blob",
        )
        .await;
    }
    // The builder's own loop builds them and trims the cache after each.
    let deadline = std::time::Instant::now() + Duration::from_secs(120);
    loop {
        let waiting: i64 = sqlx::query_scalar(
            "select count(*) from bot_versions where status in ('pending', 'building', 'testing')",
        )
        .fetch_one(&c.state.db)
        .await
        .unwrap();
        if waiting == 0 {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the builds never ended"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let _ = stop.send(true);
    running.await.unwrap();
    assert!(
        b.cache.size() <= 3 * MIB,
        "the cache holds {} bytes",
        b.cache.size()
    );
    let ids: Vec<server::ids::VersionId> =
        sqlx::query_scalar("select id from bot_versions order by id")
            .fetch_all(&c.state.db)
            .await
            .unwrap();
    assert!(b.cached(ids[0]).is_none(), "the oldest went");
    assert!(b.cached(ids[2]).is_some(), "the newest stayed");
}

#[test]
fn workspaces_are_tmpfs_mounts_when_the_server_may_mount() {
    if !is_root() {
        println!("skipping: not root, so builds are watched folders rather than tmpfs mounts");
        return;
    }
    let base = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("abuse-tmpfs");
    let _ = std::fs::remove_dir_all(&base);
    let cache = BuildCache::new(base.join("builds"), 4 * MIB, MIB).unwrap();
    let ws = cache.workspace(server::ids::VersionId(1)).unwrap();
    assert_eq!(mounts_under(ws.path()), 1, "{}", cache.quota_kind());
    // Writes past the size are refused by the kernel, not just noticed.
    let big = std::fs::write(ws.path().join("big"), vec![1u8; 5 * MIB as usize]);
    assert!(big.is_err(), "a 5 MiB file in a 4 MiB workspace");
    assert!(ws.over().is_some());
    let path = ws.path().to_path_buf();
    drop(ws);
    assert!(!path.exists());
    assert_eq!(mounts_under(cache.dir()), 0);
}

/// A server stopping while builds run does not wait for their threads, so their
/// workspaces are never dropped: the stop unmounts what they left, and a data folder
/// can be deleted afterwards.
#[test]
fn a_stop_in_the_middle_of_builds_leaves_no_workspace_mounted() {
    if !is_root() {
        println!("skipping: builds get a tmpfs only as root");
        return;
    }
    let base = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("abuse-stop-mid-build");
    let _ = std::fs::remove_dir_all(&base);
    let cache = BuildCache::new(base.join("builds"), 4 * MIB, 64 * MIB).unwrap();
    let running: Vec<_> = [7, 8]
        .map(|v| cache.workspace(server::ids::VersionId(v)).unwrap())
        .into();
    assert_eq!(mounts_under(cache.dir()), 2, "two builds running");
    // The process ends with their threads still at work: nothing drops them.
    std::mem::forget(running);
    cache.unmount_all();
    assert_eq!(mounts_under(cache.dir()), 0);
    assert!(
        leftovers(cache.dir()).is_empty(),
        "{:?}",
        leftovers(cache.dir())
    );
    std::fs::remove_dir_all(&base).unwrap();
}
