//! The account pages in a real browser: `bottlebats serve` on a free port, headless
//! Chromium driven through chromedriver (W3C WebDriver). A visitor registers, logs out,
//! mistypes the password, logs in, makes and revokes an API token and reads the other
//! pages; each step checks the text the page shows. Screenshots of every page at desktop
//! and phone width go to `target/screenshots/` for people to look at.
//!
//! Skips, saying so, when `chromium` or `chromedriver` is not installed
//! (`apt-get install chromium chromium-driver`).

mod common;
#[path = "browser/webdriver.rs"]
mod webdriver;

use std::io::{BufRead, BufReader, Read};
use std::net::TcpListener;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine;
use serde_json::json;
use webdriver::Session;

const BIN: &str = env!("CARGO_BIN_EXE_bottlebats");
const DESKTOP: (u32, u32) = (1280, 900);
const PHONE: (u32, u32) = (390, 844);
const PASSWORD: &str = "a long enough secret";

/// The first of `names` on the PATH.
fn on_path(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    names.iter().find_map(|name| {
        std::env::split_paths(&path)
            .map(|dir| dir.join(name))
            .find(|p| p.is_file())
    })
}

/// A child process in its own process group, ended with its whole group when dropped
/// (so chromedriver takes the browser with it, even when the test fails).
struct Guard {
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

/// `bottlebats serve` on a fresh database; its base URL.
fn start_server(database_url: &str) -> (Guard, String) {
    let data = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("browser-data");
    let _ = std::fs::remove_dir_all(&data);
    let mut guard = spawn(
        Command::new(BIN)
            .args(["serve", "--listen", "127.0.0.1:0", "--data-dir"])
            .arg(&data)
            .env("DATABASE_URL", database_url),
        "bottlebats serve",
    );
    let log = lines(&mut guard);
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let line = log
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            .expect("the server said where it serves");
        if let Some(addr) = line.split("serving Bottle Bats on http://").nth(1) {
            // Keep draining its output so it never blocks on a full pipe.
            std::thread::spawn(move || log.into_iter().for_each(drop));
            return (guard, format!("http://{}", addr.trim()));
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

/// Sizes the window so the page itself (the viewport) is `width` × `height`: headless
/// Chromium keeps some of the window for browser chrome it does not draw.
fn viewport(b: &Session, (width, height): (u32, u32)) {
    b.set_size(width, height);
    let inner = b.execute("return [window.innerWidth, window.innerHeight];");
    let (w, h) = (inner[0].as_i64().unwrap(), inner[1].as_i64().unwrap());
    if (w, h) != (i64::from(width), i64::from(height)) {
        let grow = |want: u32, got: i64| (2 * i64::from(want) - got).max(1) as u32;
        b.set_size(grow(width, w), grow(height, h));
    }
}

/// Takes the screenshots of one page, at desktop and at phone width, and checks that
/// nothing is wider than the phone's screen. Leaves the window at desktop size.
struct Camera<'a> {
    b: &'a Session,
    dir: PathBuf,
    taken: Vec<String>,
}

impl Camera<'_> {
    fn save(&mut self, file: &str, base64_png: &str) {
        let png = base64::engine::general_purpose::STANDARD
            .decode(base64_png)
            .expect("the screenshot is base64");
        assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "{file} is a PNG");
        std::fs::write(self.dir.join(file), png).unwrap();
        self.taken.push(file.to_string());
    }

    /// The viewport and the whole page, at the window's current size.
    fn snap(&mut self, name: &str) {
        let shot = self.b.screenshot();
        self.save(&format!("{name}.png"), &shot);
        let full = self.b.full_page_screenshot();
        self.save(&format!("{name}-full.png"), &full);
    }

    fn both(&mut self, name: &str) {
        viewport(self.b, DESKTOP);
        self.snap(&format!("{name}-desktop"));
        viewport(self.b, PHONE);
        self.no_sideways_scroll(name);
        self.snap(&format!("{name}-phone"));
        viewport(self.b, DESKTOP);
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

#[test]
fn a_visitor_registers_logs_in_makes_a_token_and_reads_the_pages() {
    let started = Instant::now();
    let chrome = on_path(&["chromium", "chromium-browser", "google-chrome"]);
    let (Some(chrome), Some(driver)) = (chrome, on_path(&["chromedriver"])) else {
        eprintln!(
            "SKIPPED the browser test: chromium and chromedriver are not both installed \
             (apt-get install chromium chromium-driver)"
        );
        return;
    };
    let rt = tokio::runtime::Runtime::new().unwrap();
    let database_url = rt.block_on(common::fresh_url());

    // Dropped in reverse order on any exit: the browser session, chromedriver with the
    // browser's processes, then the server.
    let (_server, site) = start_server(&database_url);
    let (_driver, driver_addr) = start_driver(&driver);
    let profile = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("browser-profile");
    let _ = std::fs::remove_dir_all(&profile);
    let mut b = Session::new(
        &driver_addr,
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
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    let dir = dir.canonicalize().unwrap();
    let _ = std::fs::remove_file(dir.join("failure.png"));
    let _ = std::fs::remove_file(dir.join("failure.html"));
    b.failure_dir = Some(dir.clone());
    let mut cam = Camera {
        b: &b,
        dir,
        taken: Vec::new(),
    };
    let page = |path: &str| b.goto(&format!("{site}{path}"));
    let at = |path: &str| {
        let deadline = Instant::now() + Duration::from_secs(5);
        while !b.url().ends_with(path) {
            assert!(Instant::now() < deadline, "on {}, not {path}", b.url());
            std::thread::sleep(Duration::from_millis(50));
        }
    };
    viewport(&b, DESKTOP);

    // The home page, as a stranger sees it.
    page("/");
    b.wait_text("h1", "Write a bot. Take the forts.");
    assert_eq!(b.text("header .account"), "Log in\nRegister");
    cam.both("home");

    // On a phone the menu is folded behind the button and opens with it.
    viewport(&b, PHONE);
    let rules_link = b.find("header .links a");
    assert!(!b.displayed(&rules_link), "the menu starts folded");
    b.click("header label.menu-button");
    assert!(b.displayed(&rules_link), "the button opens the menu");
    assert_eq!(b.text("header .links"), "Rules\nGetting started");
    assert_eq!(b.text("header .account"), "Log in\nRegister");
    cam.snap("menu-open-phone");
    b.click("header label.menu-button");
    assert!(!b.displayed(&rules_link), "the button folds it again");
    viewport(&b, DESKTOP);

    // Registering logs you in and shows your profile.
    b.click("header .account a[href='/register']");
    b.wait_text("h1", "Register");
    cam.both("register");
    b.fill("input[name=name]", "gwen");
    b.fill("input[name=password]", PASSWORD);
    b.fill("input[name=password2]", PASSWORD);
    b.click("main button[type=submit]");
    at("/profile");
    assert_eq!(b.wait_text("main h1", "gwen"), "gwen");
    assert_eq!(b.text("header .account .who"), "gwen");
    assert!(b.text("#tokens").contains("You have no tokens."));

    // Logging out: back home, the menu offers to log in again.
    b.click("header .account button");
    b.wait_text("header .account", "Log in");
    assert!(!b.text("header .account").contains("gwen"));
    at("/");

    // A wrong password says so and keeps the name typed.
    b.click("header .account a[href='/login']");
    b.wait_text("h1", "Log in");
    cam.both("login");
    b.fill("input[name=name]", "gwen");
    b.fill("input[name=password]", "not my password");
    b.click("main button[type=submit]");
    assert_eq!(
        b.wait_text(".alert.error", "Wrong name or password."),
        "Wrong name or password."
    );
    assert_eq!(
        b.property(&b.find("input[name=name]"), "value"),
        json!("gwen")
    );
    cam.both("login-error");

    // The right one logs in.
    b.fill("input[name=password]", PASSWORD);
    b.click("main button[type=submit]");
    at("/profile");
    b.wait_text("main h1", "gwen");

    // A new API token is shown once.
    b.fill("#tokens input[name=name]", "laptop");
    b.click("#tokens form.row button");
    let token = b.wait_text("#new-token", "bbt_");
    assert!(token.starts_with("bbt_") && token.len() > 20, "{token}");
    assert!(b.text("#tokens table").contains("laptop"));
    cam.both("profile-token");
    page("/profile");
    b.wait_text("#tokens table", "laptop");
    assert!(b.find_all("#new-token").is_empty(), "shown only once");
    assert!(!b.text("main").contains(&token));

    // Revoking it empties the list.
    b.click("#tokens button.danger");
    b.wait_text("#tokens .alert.success", "The token was revoked.");
    assert!(b.text("#tokens").contains("You have no tokens."));
    assert!(b.find_all("#tokens table").is_empty());

    // The other pages.
    page("/rules");
    b.wait_text("h1", "The rules");
    assert!(b.text("main").contains("Sieges"));
    cam.both("rules");
    page("/getting-started");
    b.wait_text("h1", "Getting started");
    assert!(b.text("main").contains("config.json"));
    cam.both("getting-started");
    page("/");
    b.wait_text("h1", "Write a bot. Take the forts.");
    assert_eq!(b.text("header .account .who"), "gwen");

    // The menu on a phone, logged in.
    viewport(&b, PHONE);
    b.click("header label.menu-button");
    b.wait_text("header .account", "gwen");
    assert!(b.text("header .account").contains("Log out"));
    cam.snap("menu-open-logged-in-phone");
    viewport(&b, DESKTOP);

    page("/no/such/page");
    b.wait_text("h1", "Page not found");
    assert_eq!(b.text(".error-page .status"), "404");
    assert!(b.text("main").contains("There is nothing at this address."));
    assert_eq!(
        b.text("header .account .who"),
        "gwen",
        "the 404 page knows you"
    );
    cam.both("not-found");

    eprintln!(
        "browser test: {} screenshots in target/screenshots in {:.1} s",
        cam.taken.len(),
        started.elapsed().as_secs_f64()
    );
}
