//! The binary as an organizer runs it: `bottlebats serve` over real TCP on a free
//! port, the embedded database kept across restarts, `admin create-user` on the same
//! database whether `serve` runs or not, a clean stop on SIGTERM, and a clear message
//! when PostgreSQL is missing.

use crate::common;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::binary::{start, start_with, Server};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_bottlebats");

fn data_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("serve-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn cookie(response: &str, name: &str) -> String {
    response
        .lines()
        .filter_map(|l| l.strip_prefix("set-cookie: "))
        .find(|c| c.starts_with(&format!("{name}=")))
        .map(|c| c.split(';').next().unwrap().to_string())
        .unwrap_or_default()
}

fn admin(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new(BIN)
        .arg("admin")
        .arg("--data-dir")
        .arg(dir)
        .args(args)
        .env_remove("DATABASE_URL")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

#[test]
fn the_embedded_site_serves_over_tcp_keeps_its_data_and_stops_cleanly() {
    let dir = data_dir("embedded");
    let d = dir.to_str().unwrap();
    let server = start(&["--data-dir", d]);
    let (status, home) = server.request("GET", "/", "", "");
    assert_eq!(status, 200);
    assert!(home.contains("Write a bot"));
    assert_eq!(server.request("GET", "/healthz", "", "").0, 200);

    // An organizer made while the server runs can log in over HTTP.
    let out = admin(
        &dir,
        &[
            "create-user",
            "olga",
            "--admin",
            "--password",
            "organizer pass",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let csrf = cookie(&home, "bb_csrf");
    let token = csrf.split('=').nth(1).unwrap();
    let login = |server: &Server| {
        server.request(
            "POST",
            "/login",
            &format!("Cookie: {csrf}\r\nContent-Type: application/x-www-form-urlencoded\r\n"),
            &format!("name=olga&password=organizer+pass&csrf={token}"),
        )
    };
    let (status, resp) = login(&server);
    assert_eq!(status, 303, "{resp}");
    let log = server.stop();
    assert!(log.contains("stopped the embedded PostgreSQL"), "{log}");

    // While the server is down, admin starts and stops the database itself.
    let out = admin(
        &dir,
        &["create-user", "bob", "--password", "bob's password"],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = admin(
        &dir,
        &["create-user", "BOB", "--password", "bob's password"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("The name `BOB` is taken"));
    let out = admin(&dir, &["create-token", "bob"]);
    let printed = String::from_utf8_lossy(&out.stdout);
    assert!(
        printed.lines().last().unwrap().starts_with("bbt_"),
        "the token is on the last line: {printed}"
    );

    // Restarted, everything is still there.
    let server = start(&["--data-dir", d]);
    let (status, _) = login(&server);
    assert_eq!(status, 303, "olga survived the restart");
    server.stop();
}

#[test]
fn without_postgres_binaries_or_database_url_the_error_says_what_to_install() {
    let dir = data_dir("no-pg");
    let out = Command::new(BIN)
        .args(["serve", "--listen", "127.0.0.1:0", "--data-dir"])
        .arg(&dir)
        .env_remove("DATABASE_URL")
        .env("BOTTLEBATS_POSTGRES_BIN", "/nonexistent")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("apt install postgresql") && err.contains("DATABASE_URL"),
        "{err}"
    );
}

#[test]
fn without_a_command_the_settings_are_read_from_the_environment_as_for_serve() {
    // `bottlebats` alone serves; its settings come from the environment as well. A
    // share out of range must stop it before anything starts.
    let dir = data_dir("no-command");
    let mut child = Command::new(BIN)
        .env("BOTTLEBATS_MULTI_PLAYER_SHARE", "2")
        .env("BOTTLEBATS_LISTEN", "127.0.0.1:0")
        .env("BOTTLEBATS_DATA_DIR", &dir)
        .env("BOTTLEBATS_POSTGRES_BIN", "/nonexistent")
        .env_remove("DATABASE_URL")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("`bottlebats` ignored BOTTLEBATS_MULTI_PLAYER_SHARE=2 and kept running");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(!status.success());
    assert!(
        err.contains("multi_player_share must be between 0 and 1"),
        "{err}"
    );
}

#[test]
fn a_database_url_is_used_instead_of_the_embedded_cluster() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let url = rt.block_on(common::fresh_url());
    let dir = data_dir("url");
    let d = dir.to_str().unwrap();
    let server = start_with(&["--data-dir", d], Some(&url));
    assert_eq!(server.request("GET", "/healthz", "", "").0, 200);
    server.stop();
    assert!(
        !dir.join("postgres").exists() && !dir.join("postgres.location").exists(),
        "no embedded cluster was made"
    );
}

/// Sends `signal` and waits at most `within` for the server to end; how long it took.
fn stop_within(server: &mut common::binary::Server, signal: i32, within: Duration) -> Duration {
    let started = Instant::now();
    // SAFETY: signalling our own child.
    unsafe { libc::kill(server.child.id() as i32, signal) };
    while started.elapsed() < within {
        if server.child.try_wait().unwrap().is_some() {
            return started.elapsed();
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!(
        "the server was still running {} s after the signal",
        within.as_secs()
    );
}

/// Waits until the server has logged `what`.
fn wait_log(server: &common::binary::Server, what: &str) {
    let deadline = Instant::now() + Duration::from_secs(120);
    while Instant::now() < deadline {
        if let Ok(line) = server.log.recv_timeout(Duration::from_millis(200)) {
            if line.contains(what) {
                return;
            }
        }
    }
    panic!("the server never logged `{what}`");
}

#[test]
fn a_server_whose_database_went_away_still_stops_when_asked() {
    // The embedded cluster's folder removed while the server builds and plays.
    let dir = data_dir("db-gone");
    let d = dir.to_str().unwrap();
    let mut server = start(&["--data-dir", d, "--workers", "1"]);
    wait_log(&server, "building");
    let cluster = server::db::EmbeddedPg::folder_of(&dir).unwrap();
    let postmaster: i32 = std::fs::read_to_string(cluster.join("postmaster.pid"))
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .parse()
        .unwrap();
    // The running postmaster may write new files as they go: remove until none is left.
    for folder in [&cluster, &dir] {
        for _ in 0..50 {
            if std::fs::remove_dir_all(folder).is_ok() || !folder.exists() {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    std::thread::sleep(Duration::from_secs(1));
    let took = stop_within(&mut server, libc::SIGINT, Duration::from_secs(10));
    println!(
        "stopped {:.1} s after SIGINT with its cluster gone",
        took.as_secs_f64()
    );
    // SAFETY: the orphaned postmaster, which nothing can stop through its folder.
    unsafe { libc::kill(postmaster, libc::SIGQUIT) };

    // An external PostgreSQL stopped under a running server.
    let external = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("serve-external-pg");
    // A fresh cluster: one left by an earlier run holds house bots built already, and
    // the server would then never log a build.
    let _ = std::fs::remove_dir_all(&external);
    let pg = server::db::EmbeddedPg::start(&external, None).unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(pg.create_database("bottlebats")).unwrap();
    let opts = pg.options("bottlebats");
    let url = format!(
        "postgres://bottlebats@localhost:{}/bottlebats?host={}",
        opts.get_port(),
        opts.get_socket().unwrap().display()
    );
    let dir = data_dir("db-stopped");
    let mut server = start_with(
        &["--data-dir", dir.to_str().unwrap(), "--workers", "1"],
        Some(&url),
    );
    wait_log(&server, "building");
    pg.stop_now();
    std::thread::sleep(Duration::from_secs(1));
    let took = stop_within(&mut server, libc::SIGTERM, Duration::from_secs(10));
    println!(
        "stopped {:.1} s after SIGTERM with its database stopped",
        took.as_secs_f64()
    );
}

#[test]
fn the_version_names_its_revision_and_admin_settings_go_anywhere() {
    let out = Command::new(BIN).arg("--version").output().unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(
        said.starts_with(&format!("bottlebats {} (revision ", server::VERSION)),
        "{said}"
    );
    assert_eq!(server::REVISION.len() >= 7, server::REVISION != "unknown");

    // The data folder after the subcommand, as an organizer would type it.
    let dir = data_dir("settings-after");
    let out = Command::new(BIN)
        .args([
            "admin",
            "create-user",
            "olga",
            "--password",
            "organizer pass",
            "--data-dir",
        ])
        .arg(&dir)
        .env_remove("DATABASE_URL")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // ... and before it, on the same database.
    let out = admin(
        &dir,
        &["create-user", "olga", "--password", "organizer pass"],
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("is taken"));
    // Each command's help shows the settings it uses.
    let help = Command::new(BIN)
        .args(["admin", "create-user", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(
        help.contains("--data-dir") && !help.contains("--listen"),
        "{help}"
    );
    let help = Command::new(BIN)
        .args(["worker", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(
        help.contains("--workers") && !help.contains("--listen"),
        "{help}"
    );

    let server = start(&["--data-dir", dir.to_str().unwrap()]);
    let (status, health) = server.request("GET", "/healthz", "", "");
    assert_eq!(status, 200);
    assert!(
        health.contains(&format!("\"revision\":\"{}\"", server::REVISION)),
        "{health}"
    );
    server.stop();
}
