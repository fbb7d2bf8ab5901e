//! What the browser tests share: the site (`bottlebats serve` on a free port and a
//! fresh database), chromedriver with headless Chromium, the screenshot camera, a
//! visit (the three together, for tests written as steps), and a plain HTTP/1.1
//! request for the API.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use base64::Engine;
use serde_json::json;

use super::webdriver::{self, Session};
use crate::common;

pub const BIN: &str = env!("CARGO_BIN_EXE_bottlebats");
pub const DESKTOP: (u32, u32) = (1280, 900);
pub const PHONE: (u32, u32) = (390, 844);
/// How long a build and its 50-turn test game may take before the tests give up.
pub const BUILD_DEADLINE: Duration = Duration::from_secs(60);

/// The first of `names` on the PATH.
fn on_path(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    names.iter().find_map(|name| {
        std::env::split_paths(&path)
            .map(|dir| dir.join(name))
            .find(|p| p.is_file())
    })
}

/// The Python starter kit's bot, as a contestant would upload it.
pub fn starter_bot() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../games/bottlebats/bots/starters/python/bot.py")
        .canonicalize()
        .unwrap()
}

/// A folder of this test run under `target/tmp`, emptied.
pub fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A child process in its own process group, ended with its whole group when dropped
/// (so chromedriver takes the browser with it, even when the test fails).
pub struct Guard {
    child: Child,
    name: &'static str,
}

impl Drop for Guard {
    fn drop(&mut self) {
        if self.child.try_wait().ok().flatten().is_some() {
            return;
        }
        let group = -(self.child.id() as i32);
        // SAFETY: signalling the process group of our own child.
        unsafe { libc::kill(group, libc::SIGTERM) };
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if self.child.try_wait().ok().flatten().is_some() {
                // Leftovers of the group (browser helpers) go too.
                // SAFETY: as above.
                unsafe { libc::kill(group, libc::SIGKILL) };
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        eprintln!("{} did not stop on SIGTERM; killing it", self.name);
        // SAFETY: as above.
        unsafe { libc::kill(group, libc::SIGKILL) };
        let _ = self.child.wait();
    }
}

/// Starts a command in its own process group, output piped.
fn spawn(cmd: &mut Command, name: &'static str) -> Guard {
    let child = cmd
        .process_group(0)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {name}: {e}"));
    Guard { child, name }
}

/// Every line the child writes, on a channel.
fn lines(guard: &mut Guard) -> std::sync::mpsc::Receiver<String> {
    let (tx, rx) = std::sync::mpsc::channel();
    for pipe in [
        Box::new(guard.child.stdout.take().unwrap()) as Box<dyn Read + Send>,
        Box::new(guard.child.stderr.take().unwrap()),
    ] {
        let tx = tx.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(pipe).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
    }
    rx
}

/// `bottlebats serve` on a free port and a fresh database, with its builder: uploads
/// are built and smoke-tested in the background as on a real site.
pub struct Site {
    /// `http://127.0.0.1:PORT`
    pub url: String,
    /// `127.0.0.1:PORT`
    pub addr: String,
    /// The database it uses, for `bottlebats admin`.
    pub database_url: String,
    pub data_dir: PathBuf,
    _server: Guard,
}

impl Site {
    /// Starts it with its data in `target/tmp/NAME-data`.
    pub fn start(name: &str) -> Site {
        Site::start_with(name, &[])
    }

    /// [`Site::start`] with more arguments of `serve` (`--games bottlebats,vindinium`).
    pub fn start_with(name: &str, extra: &[&str]) -> Site {
        let database_url = tokio::runtime::Runtime::new()
            .unwrap()
            .block_on(common::fresh_url());
        let data_dir = scratch(&format!("{name}-data"));
        // `best-effort`: where the sandbox lacks a protection (a CI container without
        // user namespaces), uploads are still built rather than waiting for it. Where
        // every protection is active, as `bottlebats doctor` shows here, it changes
        // nothing.
        let mut server = spawn(
            Command::new(BIN)
                .args([
                    "serve",
                    "--listen",
                    "127.0.0.1:0",
                    "--sandbox",
                    "best-effort",
                ])
                .args(extra)
                .arg("--data-dir")
                .arg(&data_dir)
                .env("DATABASE_URL", &database_url),
            "bottlebats serve",
        );
        let log = lines(&mut server);
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let line = log
                .recv_timeout(deadline.saturating_duration_since(Instant::now()))
                .expect("the server said where it serves");
            if let Some(addr) = line.split("serving Bottle Bats on http://").nth(1) {
                // Keep draining its output so it never blocks on a full pipe.
                std::thread::spawn(move || log.into_iter().for_each(drop));
                let addr = addr.trim().to_string();
                return Site {
                    url: format!("http://{addr}"),
                    addr,
                    database_url,
                    data_dir,
                    _server: server,
                };
            }
        }
    }

    /// `bottlebats admin ARGS` on the site's database; its stdout, or a panic with
    /// its stderr.
    pub fn admin(&self, args: &[&str]) -> String {
        let out = Command::new(BIN)
            .arg("admin")
            .arg("--data-dir")
            .arg(&self.data_dir)
            .args(args)
            .env("DATABASE_URL", &self.database_url)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "bottlebats admin {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// One HTTP/1.1 request over TCP; the status and the body.
    pub fn request(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> (u16, String) {
        let mut s = TcpStream::connect(&self.addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        let mut head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Length: {}\r\n",
            self.addr,
            body.len()
        );
        for (k, v) in headers {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        head.push_str("\r\n");
        s.write_all(head.as_bytes()).unwrap();
        s.write_all(body).unwrap();
        let mut raw = Vec::new();
        s.read_to_end(&mut raw).unwrap();
        let raw = String::from_utf8_lossy(&raw).into_owned();
        let (head, body) = raw.split_once("\r\n\r\n").unwrap_or((&raw, ""));
        let status = head
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or(0);
        assert!(
            !head.to_lowercase().contains("transfer-encoding: chunked"),
            "{method} {path}: a chunked answer, which this client does not read"
        );
        (status, body.to_string())
    }
}

/// chromium and chromedriver, or `None` after saying that the test skips.
pub fn browser_tools(test: &str) -> Option<(PathBuf, PathBuf)> {
    let chrome = on_path(&["chromium", "chromium-browser", "google-chrome"]);
    match (chrome, on_path(&["chromedriver"])) {
        (Some(chrome), Some(driver)) => Some((chrome, driver)),
        _ => {
            eprintln!(
                "SKIPPED {test}: chromium and chromedriver are not both installed \
                 (apt-get install chromium chromium-driver)"
            );
            None
        }
    }
}

/// chromedriver on a free port, once it says it is ready; its address.
fn start_driver(driver: &Path) -> (Guard, String) {
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut guard = spawn(
        Command::new(driver).arg(format!("--port={port}")),
        "chromedriver",
    );
    let log = lines(&mut guard);
    std::thread::spawn(move || log.into_iter().for_each(drop));
    let addr = format!("127.0.0.1:{port}");
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let status = webdriver::call(&addr, "GET", "/status", None);
        if status.is_ok_and(|v| v["ready"] == json!(true)) {
            return (guard, addr);
        }
        assert!(
            Instant::now() < deadline,
            "chromedriver did not get ready in 15 s"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// One browser at a time: two Chromiums and a bot build at once on a small machine
/// make the tests' few-second waits flaky.
static ONE_BROWSER: Mutex<()> = Mutex::new(());

/// Headless Chromium through chromedriver. Dropping it closes the session, then ends
/// chromedriver with the browser's processes.
pub struct Browser {
    pub session: Session,
    _driver: Guard,
    _turn: MutexGuard<'static, ()>,
}

impl Browser {
    /// Opens a browser for the test `name`, whose page is left in
    /// `target/screenshots/failure-NAME.png` (and `.html`) when a wait gives up.
    pub fn open((chrome, driver): &(PathBuf, PathBuf), name: &str) -> Browser {
        let turn = ONE_BROWSER.lock().unwrap_or_else(|e| e.into_inner());
        let (guard, addr) = start_driver(driver);
        let profile = scratch(&format!("browser-profile-{name}"));
        let mut session = Session::new(
            &addr,
            json!({
                "browserName": "chrome",
                "goog:chromeOptions": {
                    "binary": chrome,
                    "args": [
                        "--headless", "--no-sandbox", "--disable-gpu",
                        "--disable-background-networking", "--disable-component-update",
                        "--disable-sync", "--no-first-run", "--disable-quic",
                        "--hide-scrollbars",
                        format!("--user-data-dir={}", profile.display()),
                    ],
                },
            }),
        )
        .unwrap_or_else(|e| panic!("chromedriver could not start Chromium: {e}"));
        let dir = screenshot_dir();
        let _ = std::fs::remove_file(dir.join(format!("failure-{name}.png")));
        let _ = std::fs::remove_file(dir.join(format!("failure-{name}.html")));
        session.failure = Some((dir, name.to_string()));
        viewport(&session, DESKTOP);
        Browser {
            session,
            _driver: guard,
            _turn: turn,
        }
    }
}

/// `target/screenshots`, made if needed.
pub fn screenshot_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir.canonicalize().unwrap()
}

/// Sizes the window so the page itself (the viewport) is `width` × `height`: headless
/// Chromium keeps some of the window for browser chrome it does not draw.
pub fn viewport(b: &Session, (width, height): (u32, u32)) {
    b.set_size(width, height);
    let inner = b.execute("return [window.innerWidth, window.innerHeight];");
    let (w, h) = (inner[0].as_i64().unwrap(), inner[1].as_i64().unwrap());
    if (w, h) != (i64::from(width), i64::from(height)) {
        let grow = |want: u32, got: i64| (2 * i64::from(want) - got).max(1) as u32;
        b.set_size(grow(width, w), grow(height, h));
    }
}

/// Waits up to 5 seconds for the browser to be on `path` (after a click or a form).
pub fn wait_for_path(b: &Session, path: &str) {
    let deadline = Instant::now() + Duration::from_secs(5);
    while !b.url().ends_with(path) {
        if Instant::now() >= deadline {
            b.give_up(&format!("on {}, not {path}", b.url()));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Takes the screenshots of one page, at desktop and at phone width, and checks that
/// nothing is wider than the phone's screen. Leaves the window at desktop size.
pub struct Camera<'a> {
    b: &'a Session,
    dir: PathBuf,
    pub taken: Vec<String>,
}

impl<'a> Camera<'a> {
    pub fn new(b: &'a Session) -> Camera<'a> {
        Camera {
            b,
            dir: screenshot_dir(),
            taken: Vec::new(),
        }
    }

    fn save(&mut self, file: &str, base64_png: &str) {
        let png = base64::engine::general_purpose::STANDARD
            .decode(base64_png)
            .expect("the screenshot is base64");
        assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "{file} is a PNG");
        std::fs::write(self.dir.join(file), png).unwrap();
        self.taken.push(file.to_string());
    }

    /// The viewport and the whole page, at the window's current size.
    pub fn snap(&mut self, name: &str) {
        let shot = self.b.screenshot();
        self.save(&format!("{name}.png"), &shot);
        let full = self.b.full_page_screenshot();
        self.save(&format!("{name}-full.png"), &full);
    }

    /// Scrolls the page so that the element `css` is at the top of the window.
    pub fn scroll_to(&self, css: &str) {
        self.b.execute(&format!(
            "document.querySelector({css:?}).scrollIntoView({{block: 'start'}});"
        ));
    }

    pub fn both(&mut self, name: &str) {
        viewport(self.b, DESKTOP);
        self.snap(&format!("{name}-desktop"));
        viewport(self.b, PHONE);
        self.no_sideways_scroll(name);
        self.no_buttons_overlap(name);
        self.snap(&format!("{name}-phone"));
        viewport(self.b, DESKTOP);
    }

    /// No two of the page's visible buttons overlap (the first 80 of them).
    fn no_buttons_overlap(&self, name: &str) {
        let overlaps = self.b.execute(
            "const els = [...document.querySelectorAll('a.button, button, .button')]
               .filter((e) => e.offsetParent !== null).slice(0, 80);
             const out = [];
             for (let i = 0; i < els.length; i++) for (let j = i + 1; j < els.length; j++) {
               const [a, b] = [els[i], els[j]];
               if (a.contains(b) || b.contains(a)) continue;
               const [r, q] = [a.getBoundingClientRect(), b.getBoundingClientRect()];
               const w = Math.min(r.right, q.right) - Math.max(r.left, q.left);
               const h = Math.min(r.bottom, q.bottom) - Math.max(r.top, q.top);
               if (w > 1 && h > 1) out.push(a.textContent.trim() + ' / ' + b.textContent.trim());
             }
             return out;",
        );
        assert_eq!(
            overlaps,
            serde_json::json!([]),
            "{name}: buttons overlap at phone width"
        );
    }

    /// At phone width the page itself never scrolls sideways (wide code and tables
    /// scroll inside their own box).
    fn no_sideways_scroll(&self, name: &str) {
        let v = self.b.execute(
            "return [document.documentElement.scrollWidth, document.documentElement.clientWidth];",
        );
        let (wide, seen) = (v[0].as_i64().unwrap(), v[1].as_i64().unwrap());
        assert!(
            wide <= seen,
            "{name} at phone width is {wide} px wide in a {seen} px window"
        );
    }
}

/// A browser on a site, with its camera: what a browser test walks through, a step
/// at a time.
pub struct Visit<'a> {
    pub site: &'a Site,
    pub b: &'a Session,
    pub cam: Camera<'a>,
}

impl<'a> Visit<'a> {
    pub fn new(site: &'a Site, b: &'a Session) -> Visit<'a> {
        Visit {
            site,
            b,
            cam: Camera::new(b),
        }
    }

    /// Opens `path` of the site.
    pub fn page(&self, path: &str) {
        self.b.goto(&format!("{}{path}", self.site.url));
    }
}

/// Each fort as the replay has it at turn `t`: (name, owner name, garrison).
pub fn expected_forts(replay: &bottlebats::Replay, t: usize) -> Vec<(String, String, u64)> {
    let turn = &replay.turns[t];
    replay
        .map
        .forts
        .iter()
        .enumerate()
        .map(|(i, (name, _, _))| {
            let owner = match turn.owners[i] {
                o if o < 0 => "neutral".to_string(),
                o => replay.players[o as usize].clone(),
            };
            (name.clone(), owner, turn.garrisons[i])
        })
        .collect()
}

/// Waits up to `limit` for the text of `css` to contain `want` (the page updating
/// itself: it is never reloaded here).
pub fn wait_long(b: &Session, css: &str, want: &str, limit: Duration) -> String {
    let deadline = Instant::now() + limit;
    loop {
        let got = b.text_now(css).unwrap_or_default();
        if got.contains(want) {
            return got;
        }
        if Instant::now() >= deadline {
            b.give_up(&format!("`{css}` shows {got:?}, not {want:?}"));
        }
        std::thread::sleep(Duration::from_millis(250));
    }
}

/// The id at the end of the address, once the browser is on `prefix`ID.
pub fn wait_for_id(b: &Session, prefix: &str) -> i64 {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let url = b.url();
        if let Some(id) = url.rsplit_once(prefix).and_then(|(_, id)| id.parse().ok()) {
            return id;
        }
        assert!(Instant::now() < deadline, "not on {prefix}ID: {url}");
        std::thread::sleep(Duration::from_millis(50));
    }
}
