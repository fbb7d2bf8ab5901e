//! Downloads of the `bottlebats` program (tens of MiB; hundreds in a debug build) that
//! are asked for and never read. Each used to hold one of the runtime's blocking
//! threads until the connection went idle: 560 of them took every such thread, and
//! logins (which hash on one) and matches (played on one) waited with them.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::Command;
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use server::web::guard::{DOWNLOADS_AT_ONCE, DOWNLOADS_AT_ONCE_PER_ADDRESS};

use super::http::{csrf, data_dir, post};
use crate::common::binary::{start_with, Server};

const BIN: &str = env!("CARGO_BIN_EXE_bottlebats");
const PASSWORD: &str = "correct horse battery";

/// The threads of a process.
fn threads(pid: u32) -> usize {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("Threads:"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap()
}

/// Waits for a log line containing `what`; false when none came within `within`.
fn logged(log: &Receiver<String>, what: &str, within: Duration) -> bool {
    let deadline = Instant::now() + within;
    while let Ok(line) = log.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
        if line.contains(what) {
            return true;
        }
    }
    false
}

/// A download of the program from `address` (as the trusted proxy forwards it), of
/// which only the status line is read.
fn download(s: &Server, address: &str) -> (TcpStream, String) {
    let mut c = TcpStream::connect(&s.addr).unwrap();
    write!(
        c,
        "GET /downloads/bottlebats HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: {address}\r\n\r\n"
    )
    .unwrap();
    c.set_read_timeout(Some(Duration::from_secs(2))).unwrap();
    let mut head = [0u8; 12];
    let status = match c.read_exact(&mut head) {
        Ok(()) => String::from_utf8_lossy(&head[9..12]).into_owned(),
        Err(_) => "none".into(),
    };
    (c, status)
}

#[test]
fn downloads_never_read_leave_logins_and_matches_their_threads() {
    let url = tokio::runtime::Runtime::new()
        .unwrap()
        .block_on(crate::common::fresh_url());
    let dir = data_dir("never-read-downloads");
    // Idle connections are kept far longer than the test takes.
    let s = start_with(
        &[
            "--workers",
            "1",
            "--data-dir",
            &dir,
            "--trusted-proxy",
            "127.0.0.1",
            "--idle-timeout",
            "600",
            "--request-timeout",
            "600",
        ],
        Some(&url),
    );
    let pid = s.child.id();
    let made = Command::new(BIN)
        .args(["admin", "create-user", "honest", "--password", PASSWORD])
        .args(["--data-dir", &dir])
        .env("DATABASE_URL", &url)
        .output()
        .unwrap();
    assert!(made.status.success(), "{made:?}");
    assert!(
        logged(&s.log, "recorded", Duration::from_secs(300)),
        "the house bots played a first match"
    );
    // The program is hashed at its first download (for long in a debug build): done
    // before the flood.
    let mut c = TcpStream::connect(&s.addr).unwrap();
    write!(
        c,
        "GET /downloads/bottlebats.sha256 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    c.set_read_timeout(Some(Duration::from_secs(300))).unwrap();
    let mut sha = String::new();
    c.read_to_string(&mut sha).unwrap();
    assert!(sha.starts_with("HTTP/1.1 200"), "{sha}");
    let before = threads(pid);

    // 56 addresses, 10 downloads each, none read, and 6 more addresses of one IPv6 /64.
    let addresses: Vec<String> = (1..=56)
        .map(|i| format!("10.0.0.{i}"))
        .chain((1..=6).map(|i| format!("2001:db8:7:7::{i}")))
        .collect();
    let mut held = Vec::new();
    let mut served = 0;
    let mut from_the_network = 0;
    let mut statuses = std::collections::BTreeMap::new();
    for address in &addresses {
        for _ in 0..10 {
            let (c, status) = download(&s, address);
            *statuses.entry(status.clone()).or_insert(0) += 1;
            if status == "200" {
                served += 1;
                from_the_network += usize::from(address.starts_with("2001:"));
            }
            held.push(c);
        }
    }
    std::thread::sleep(Duration::from_secs(2));
    let during = threads(pid);
    println!(
        "{served} of {} downloads served at once ({statuses:?}); threads {before} before, \
         {during} during",
        held.len()
    );
    assert!(served > 0, "some downloads are served");
    assert!(
        !statuses.contains_key("none"),
        "every download is answered at once, served or refused"
    );
    assert!(
        served <= DOWNLOADS_AT_ONCE,
        "{served} downloads in flight, past the site's {DOWNLOADS_AT_ONCE}"
    );
    assert!(
        from_the_network <= DOWNLOADS_AT_ONCE_PER_ADDRESS,
        "one /64 had {from_the_network} downloads in flight"
    );
    assert!(
        during < before + 40,
        "the server went from {before} to {during} threads"
    );

    // An honest visitor from elsewhere logs in at once...
    let token = csrf(&s);
    let started = Instant::now();
    let answer = post(
        &s.addr,
        "/login",
        &token,
        &format!("csrf={token}&name=honest&password=correct+horse+battery&next=%2F"),
    );
    assert!(answer.starts_with("HTTP/1.1 303"), "{answer}");
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "a login took {:?}",
        started.elapsed()
    );
    // ... and matches go on being played and recorded.
    assert!(
        logged(&s.log, "recorded", Duration::from_secs(120)),
        "no match was recorded while the downloads were held"
    );

    // Once the readers are gone, their places are free again.
    drop(held);
    std::thread::sleep(Duration::from_secs(2));
    let (mut c, status) = download(&s, "10.9.9.9");
    assert_eq!(status, "200");
    let mut body = Vec::new();
    c.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let mut buf = vec![0u8; 1 << 20];
    while body.len() < 4 << 20 {
        match c.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => body.extend_from_slice(&buf[..n]),
        }
    }
    assert!(
        body.len() >= 4 << 20,
        "a download runs: {} bytes",
        body.len()
    );
    drop(c);
    s.stop();
}
