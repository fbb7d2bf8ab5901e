//! The binary over real TCP against slow, idle, greedy and flooding clients, and its
//! memory through the floods.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::common::binary::{start_with, Server};

pub(super) const MIB: u64 = 1024 * 1024;

pub(super) fn data_dir(name: &str) -> String {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("abuse-http-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir.display().to_string()
}

/// A server on a fresh database with `args`, playing no matches.
fn server(name: &str, args: &[&str]) -> Server {
    let url = tokio::runtime::Runtime::new()
        .unwrap()
        .block_on(crate::common::fresh_url());
    let dir = data_dir(name);
    let mut all = vec!["--workers", "0", "--data-dir", &dir];
    all.extend_from_slice(args);
    start_with(&all, Some(&url))
}

/// Reads until the server closes the connection or `within` passes; what was read,
/// and whether it closed.
pub(super) fn read_until_closed(s: &mut TcpStream, within: Duration) -> (Vec<u8>, bool) {
    let deadline = Instant::now() + within;
    let mut got = Vec::new();
    let mut buf = [0u8; 65536];
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return (got, false);
        }
        s.set_read_timeout(Some(left)).unwrap();
        match s.read(&mut buf) {
            Ok(0) => return (got, true),
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                return (got, false)
            }
            Err(_) => return (got, true),
        }
    }
}

/// Resident memory of a process, bytes.
pub(super) fn rss(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        })
        .unwrap_or(0)
        * 1024
}

/// Samples a process's resident memory until stopped; its peak.
struct Peak {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    thread: std::thread::JoinHandle<u64>,
}

impl Peak {
    fn watch(pid: u32) -> Peak {
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let s = stop.clone();
        let thread = std::thread::spawn(move || {
            let mut peak = 0;
            while !s.load(std::sync::atomic::Ordering::Relaxed) {
                peak = peak.max(rss(pid));
                std::thread::sleep(Duration::from_millis(5));
            }
            peak
        });
        Peak { stop, thread }
    }

    fn end(self) -> u64 {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        self.thread.join().unwrap()
    }
}

#[test]
fn slow_headers_and_idle_connections_are_closed() {
    let s = server("slow", &["--header-timeout", "1", "--idle-timeout", "3"]);
    // Headers that never end.
    let mut slow = TcpStream::connect(&s.addr).unwrap();
    slow.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n").unwrap();
    let started = Instant::now();
    let (_, closed) = read_until_closed(&mut slow, Duration::from_secs(8));
    assert!(closed, "a request whose headers never end was kept open");
    assert!(started.elapsed() < Duration::from_secs(5));
    // A kept-alive connection, idle after its answer.
    let mut idle = TcpStream::connect(&s.addr).unwrap();
    write!(idle, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
    let started = Instant::now();
    let (got, closed) = read_until_closed(&mut idle, Duration::from_secs(8));
    assert!(String::from_utf8_lossy(&got).starts_with("HTTP/1.1 200"));
    assert!(closed, "an idle kept-alive connection was kept open");
    assert!(started.elapsed() < Duration::from_secs(5));
    s.stop();
}

#[test]
fn a_client_that_stops_reading_is_let_go() {
    let s = server("reader", &["--idle-timeout", "2"]);
    let mut greedy = TcpStream::connect(&s.addr).unwrap();
    // 400 answers of about 36 KB asked for at once, none read: far more than the
    // socket buffers hold.
    let one = b"GET /static/style.css HTTP/1.1\r\nHost: x\r\n\r\n";
    let all: Vec<u8> = one.iter().copied().cycle().take(one.len() * 400).collect();
    greedy.write_all(&all).unwrap();
    std::thread::sleep(Duration::from_secs(5));
    let (got, closed) = read_until_closed(&mut greedy, Duration::from_secs(20));
    let answers = String::from_utf8_lossy(&got)
        .matches("HTTP/1.1 200")
        .count();
    assert!(
        closed && answers < 400,
        "{answers} answers, closed: {closed}"
    );
    s.stop();
}

#[test]
fn connections_past_the_cap_wait_their_turn() {
    let s = server(
        "cap",
        &[
            "--max-connections",
            "2",
            "--header-timeout",
            "30",
            "--idle-timeout",
            "30",
        ],
    );
    let mut holders: Vec<TcpStream> = (0..2)
        .map(|_| {
            let mut h = TcpStream::connect(&s.addr).unwrap();
            h.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n").unwrap();
            h
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    let mut third = TcpStream::connect(&s.addr).unwrap();
    write!(
        third,
        "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let (got, _) = read_until_closed(&mut third, Duration::from_millis(1500));
    assert!(
        got.is_empty(),
        "a third connection was served past the cap of 2"
    );
    drop(holders.pop());
    let (got, closed) = read_until_closed(&mut third, Duration::from_secs(10));
    assert!(
        closed && String::from_utf8_lossy(&got).starts_with("HTTP/1.1 200"),
        "served once a place was free: {}",
        String::from_utf8_lossy(&got)
    );
    drop(holders);
    s.stop();
}

/// The CSRF cookie and token of a fresh visitor.
pub(super) fn csrf(s: &Server) -> String {
    let (_, home) = s.request("GET", "/", "", "");
    home.lines()
        .filter_map(|l| l.strip_prefix("set-cookie: bb_csrf="))
        .map(|c| c.split(';').next().unwrap().to_string())
        .next()
        .unwrap()
}

/// Posts a form, ignoring a connection the server closes before reading it all.
pub(super) fn post(addr: &str, path: &str, token: &str, body: &str) -> String {
    let mut c = TcpStream::connect(addr).unwrap();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nCookie: bb_csrf={token}\r\n\
         Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    let _ = c.write_all(head.as_bytes());
    let _ = c.write_all(body.as_bytes());
    let (got, _) = read_until_closed(&mut c, Duration::from_secs(60));
    String::from_utf8_lossy(&got).into_owned()
}

#[test]
fn floods_of_huge_logins_and_registrations_keep_the_server_small() {
    let s = server("flood", &["--registrations-per-hour", "1000"]);
    let pid = s.child.id();
    let token = csrf(&s);
    let peak = Peak::watch(pid);
    for i in 0..300 {
        let body = format!(
            "csrf={token}&password=guess&name={i}{}",
            "n".repeat(1_900_000)
        );
        let answer = post(&s.addr, "/login", &token, &body);
        assert!(
            answer.is_empty() || answer.starts_with("HTTP/1.1 413"),
            "{}",
            &answer[..answer.len().min(200)]
        );
    }
    let registrations: Vec<_> = (0..40)
        .map(|i| {
            let (addr, token) = (s.addr.clone(), token.clone());
            std::thread::spawn(move || {
                post(
                    &addr,
                    "/register",
                    &token,
                    &format!("csrf={token}&name=flood{i}&password=a+long+password&password2=a+long+password"),
                )
            })
        })
        .collect();
    for r in registrations {
        let answer = r.join().unwrap();
        assert!(
            answer.starts_with("HTTP/1.1 303") || answer.starts_with("HTTP/1.1 503"),
            "{}",
            &answer[..answer.len().min(200)]
        );
    }
    let peak = peak.end();
    println!("the server's memory peaked at {} MiB", peak / MIB);
    // 40 hashes at once would take 760 MiB; glibc's allocator, left to itself, kept
    // 19 MiB per hash forever (see `cli::fixed_mmap_threshold`).
    assert!(
        peak < 150 * MIB,
        "the server's memory peaked at {} MiB",
        peak / MIB
    );
    s.stop();
}
