//! `bottlebats serve` as a child process on a free port, for tests that need the
//! binary over real TCP.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_bottlebats");

/// A running `bottlebats serve` and the address it serves on.
pub struct Server {
    pub child: Child,
    pub addr: String,
    pub log: std::sync::mpsc::Receiver<String>,
}

pub fn start(args: &[&str]) -> Server {
    start_with(args, None)
}

// The child is waited for by `Server::stop`, or killed by `Drop` if a test fails.
#[allow(clippy::zombie_processes)]
pub fn start_with(args: &[&str], database_url: Option<&str>) -> Server {
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
    pub fn request(&self, method: &str, path: &str, headers: &str, body: &str) -> (u16, String) {
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
    pub fn stop(mut self) -> String {
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
