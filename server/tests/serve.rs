//! The binary as an organizer runs it: `bottlebats serve` over real TCP on a free
//! port, the embedded database kept across restarts, `admin create-user` on the same
//! database whether `serve` runs or not, a clean stop on SIGTERM, and a clear message
//! when PostgreSQL is missing.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_bottlebats");

/// A running `bottlebats serve` and the address it serves on.
struct Server {
    child: Child,
    addr: String,
    log: std::sync::mpsc::Receiver<String>,
}

fn start(args: &[&str]) -> Server {
    start_with(args, None)
}

// The child is waited for by `Server::stop`, or killed by `Drop` if a test fails.
#[allow(clippy::zombie_processes)]
fn start_with(args: &[&str], database_url: Option<&str>) -> Server {
    let mut cmd = Command::new(BIN);
    cmd.arg("serve")
        .args(["--listen", "127.0.0.1:0"])
        .args(args);
    match database_url {
        Some(url) => cmd.env("DATABASE_URL", url),
        None => cmd.env_remove("DATABASE_URL"),
    };
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    for pipe in [
        Box::new(child.stdout.take().unwrap()) as Box<dyn Read + Send>,
        Box::new(child.stderr.take().unwrap()),
    ] {
        let tx = tx.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(pipe).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
    }
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let line = rx
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            .expect("the server said where it serves");
        if let Some(url) = line.split("serving Bottle Bats on http://").nth(1) {
            return Server {
                child,
                addr: url.trim().to_string(),
                log: rx,
            };
        }
    }
}

impl Server {
    /// A raw HTTP/1.1 request; returns the status line and the whole response.
    fn request(&self, method: &str, path: &str, headers: &str, body: &str) -> (u16, String) {
        let mut s = TcpStream::connect(&self.addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        write!(
            s,
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Length: {}\r\n{headers}\r\n{body}",
            self.addr,
            body.len()
        )
        .unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).unwrap();
        let status = out
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or(0);
        (status, out)
    }

    /// SIGTERM, then waits; returns everything it logged.
    fn stop(mut self) -> String {
        // SAFETY: signalling our own child.
        unsafe { libc::kill(self.child.id() as i32, libc::SIGTERM) };
        let status = self.child.wait().unwrap();
        assert!(status.success(), "serve exits cleanly on SIGTERM: {status}");
        self.log.try_iter().collect::<Vec<_>>().join("\n")
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        // Only reached with the server still running when a test failed.
        if self.child.try_wait().ok().flatten().is_none() {
            // SAFETY: signalling our own child.
            unsafe { libc::kill(self.child.id() as i32, libc::SIGTERM) };
            let _ = self.child.wait();
        }
    }
}

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
