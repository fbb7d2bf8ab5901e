//! A tiny blocking W3C WebDriver client: HTTP/1.1 over a `TcpStream` to chromedriver
//! on localhost, JSON with serde_json. Only what the browser test needs.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// The key under which W3C WebDriver returns an element reference.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// Keys for [`Session::press`], as WebDriver names them.
pub const ARROW_LEFT: &str = "\u{E012}";
pub const ARROW_RIGHT: &str = "\u{E014}";
pub const HOME: &str = "\u{E011}";
pub const END: &str = "\u{E010}";
pub const SPACE: &str = "\u{E00D}";

/// One HTTP request to the driver at `addr`; the parsed `value` of the answer, or the
/// driver's error message.
pub fn call(addr: &str, method: &str, path: &str, body: Option<&Value>) -> Result<Value, String> {
    let mut s = TcpStream::connect(addr).map_err(|e| format!("connect to {addr}: {e}"))?;
    s.set_read_timeout(Some(Duration::from_secs(30)))
        .map_err(|e| e.to_string())?;
    let body = body.map(Value::to_string).unwrap_or_default();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: application/json; charset=utf-8\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes())
        .and_then(|()| s.write_all(body.as_bytes()))
        .map_err(|e| format!("{method} {path}: {e}"))?;
    // chromedriver keeps the connection open: read the header, then the body it announces.
    let mut raw = Vec::new();
    let mut buf = [0u8; 64 * 1024];
    let mut body_at = None;
    loop {
        if body_at.is_none() {
            body_at = raw.windows(4).position(|w| w == b"\r\n\r\n").map(|p| p + 4);
        }
        if let Some(at) = body_at {
            let head = String::from_utf8_lossy(&raw[..at]).to_lowercase();
            let length = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|n| n.trim().parse::<usize>().ok());
            let done = match length {
                Some(n) => raw.len() >= at + n,
                None => raw.ends_with(b"0\r\n\r\n"),
            };
            if done {
                break;
            }
        }
        let n = s
            .read(&mut buf)
            .map_err(|e| format!("{method} {path}: {e}"))?;
        if n == 0 {
            break;
        }
        raw.extend_from_slice(&buf[..n]);
    }
    let split = body_at.ok_or_else(|| format!("{method} {path}: no HTTP header in the answer"))?;
    let head = String::from_utf8_lossy(&raw[..split]).to_lowercase();
    let mut payload = raw[split..].to_vec();
    if head.contains("transfer-encoding: chunked") {
        payload = dechunk(&payload);
    }
    let status: u16 = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let json: Value = serde_json::from_slice(&payload).map_err(|e| {
        format!(
            "{method} {path}: HTTP {status}, not JSON ({e}): {}",
            String::from_utf8_lossy(&payload)
        )
    })?;
    let value = json.get("value").cloned().unwrap_or(Value::Null);
    if status == 200 {
        Ok(value)
    } else {
        Err(format!(
            "{method} {path}: HTTP {status}: {} {}",
            value["error"].as_str().unwrap_or(""),
            value["message"].as_str().unwrap_or("")
        ))
    }
}

/// Undoes `Transfer-Encoding: chunked`.
fn dechunk(mut data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(eol) = data.windows(2).position(|w| w == b"\r\n") {
        let size = String::from_utf8_lossy(&data[..eol]);
        let size =
            usize::from_str_radix(size.split(';').next().unwrap_or("").trim(), 16).unwrap_or(0);
        if size == 0 || data.len() < eol + 2 + size {
            break;
        }
        out.extend_from_slice(&data[eol + 2..eol + 2 + size]);
        data = &data[(eol + 4 + size).min(data.len())..];
    }
    out
}

/// A browser session. Dropping it closes the browser.
pub struct Session {
    addr: String,
    id: String,
    /// Where to leave `failure-NAME.png` and `failure-NAME.html` when a wait gives up:
    /// the folder and the test's name.
    pub failure: Option<(std::path::PathBuf, String)>,
}

/// An element of the current page.
#[derive(Clone, Debug)]
pub struct Element(String);

impl Session {
    /// A new session with these capabilities.
    pub fn new(addr: &str, capabilities: Value) -> Result<Session, String> {
        let v = call(
            addr,
            "POST",
            "/session",
            Some(&json!({ "capabilities": { "alwaysMatch": capabilities } })),
        )?;
        let id = v["sessionId"]
            .as_str()
            .ok_or_else(|| format!("no session id in {v}"))?
            .to_string();
        Ok(Session {
            addr: addr.to_string(),
            id,
            failure: None,
        })
    }

    /// A command of this session; panics with the driver's message on failure.
    pub fn cmd(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        self.try_cmd(method, path, body)
            .unwrap_or_else(|e| panic!("{e}"))
    }

    pub fn try_cmd(&self, method: &str, path: &str, body: Option<Value>) -> Result<Value, String> {
        let path = format!("/session/{}{path}", self.id);
        call(&self.addr, method, &path, body.as_ref())
    }

    pub fn goto(&self, url: &str) {
        self.cmd("POST", "/url", Some(json!({ "url": url })));
    }

    /// Loads the current page again.
    pub fn refresh(&self) {
        self.cmd("POST", "/refresh", Some(json!({})));
    }

    pub fn url(&self) -> String {
        self.cmd("GET", "/url", None)
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// The window's outer size in CSS pixels.
    pub fn set_size(&self, width: u32, height: u32) {
        self.cmd(
            "POST",
            "/window/rect",
            Some(json!({ "width": width, "height": height })),
        );
    }

    /// Every element matching a CSS selector, now.
    pub fn find_all(&self, css: &str) -> Vec<Element> {
        let v = self.cmd(
            "POST",
            "/elements",
            Some(json!({ "using": "css selector", "value": css })),
        );
        v.as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|e| e[ELEMENT].as_str().map(|s| Element(s.to_string())))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The first element matching a CSS selector, waiting up to 5 seconds for it.
    pub fn find(&self, css: &str) -> Element {
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            if let Some(e) = self.find_all(css).into_iter().next() {
                return e;
            }
            if Instant::now() >= deadline {
                self.give_up(&format!("no element `{css}` on {}", self.url()));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The text a user sees in an element (hidden parts excluded).
    pub fn text_of(&self, e: &Element) -> String {
        self.cmd("GET", &format!("/element/{}/text", e.0), None)
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// The visible text of the first element matching `css`.
    pub fn text(&self, css: &str) -> String {
        let e = self.find(css);
        self.text_of(&e)
    }

    /// The visible text of the first element matching `css` now, if there is one and
    /// the page was not replaced between finding and reading it.
    pub fn text_now(&self, css: &str) -> Option<String> {
        let e = self.find_all(css).into_iter().next()?;
        self.try_cmd("GET", &format!("/element/{}/text", e.0), None)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
    }

    /// Waits up to 5 seconds for the visible text of `css` to contain `want`; returns it.
    pub fn wait_text(&self, css: &str, want: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            // The page may be replaced between finding and reading: try again then.
            let got = self.text_now(css).unwrap_or_default();
            if got.contains(want) {
                return got;
            }
            if Instant::now() >= deadline {
                self.give_up(&format!(
                    "`{css}` on {} shows {got:?}, not {want:?}",
                    self.url()
                ));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Runs a script in the page (WebDriver scripts are not bound by the page's CSP).
    /// Clicks with the mouse at `fraction` of the width of the first element matching
    /// `css` (scrolled into view), halfway down; pressed at `from` (a fraction too) and
    /// dragged there when given, as a hand would.
    pub fn click_at(&self, css: &str, fraction: f64, from: Option<f64>) {
        let r = self.execute(&format!(
            "const e = document.querySelector('{css}'); e.scrollIntoView({{block: 'center'}});
             const r = e.getBoundingClientRect(); return [r.left, r.top, r.width, r.height];"
        ));
        let r: Vec<f64> = serde_json::from_value(r).unwrap();
        let y = (r[1] + r[3] / 2.0).round() as i64;
        let x = |f: f64| (r[0] + r[2] * f).round() as i64;
        let at = |f: f64| json!({"type": "pointerMove", "x": x(f), "y": y, "origin": "viewport"});
        let mut actions = vec![
            at(from.unwrap_or(fraction)),
            json!({"type": "pointerDown", "button": 0}),
        ];
        if from.is_some() {
            let mut drag = at(fraction);
            drag["duration"] = json!(100);
            actions.push(drag);
        }
        actions.push(json!({"type": "pointerUp", "button": 0}));
        self.cmd(
            "POST",
            "/actions",
            Some(json!({"actions": [{
                "type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
                "actions": actions,
            }]})),
        );
        self.cmd("DELETE", "/actions", None);
    }

    pub fn execute(&self, script: &str) -> Value {
        self.cmd(
            "POST",
            "/execute/sync",
            Some(json!({ "script": script, "args": [] })),
        )
    }

    pub fn displayed(&self, e: &Element) -> bool {
        self.cmd("GET", &format!("/element/{}/displayed", e.0), None)
            .as_bool()
            .unwrap_or(false)
    }

    pub fn property(&self, e: &Element, name: &str) -> Value {
        self.cmd("GET", &format!("/element/{}/property/{name}", e.0), None)
    }

    pub fn click(&self, css: &str) {
        let e = self.find(css);
        self.cmd("POST", &format!("/element/{}/click", e.0), Some(json!({})));
    }

    /// Replaces the content of a form field.
    pub fn fill(&self, css: &str, text: &str) {
        let e = self.find(css);
        self.cmd("POST", &format!("/element/{}/clear", e.0), Some(json!({})));
        self.cmd(
            "POST",
            &format!("/element/{}/value", e.0),
            Some(json!({ "text": text })),
        );
    }

    /// Types into a field without clearing it first. For `<input type=file>`, `text`
    /// is the absolute path of a local file, which the field then holds.
    pub fn send_keys(&self, css: &str, text: &str) {
        let e = self.find(css);
        self.cmd(
            "POST",
            &format!("/element/{}/value", e.0),
            Some(json!({ "text": text })),
        );
    }

    /// Leaves the page as it is (screenshot and HTML) for a person to look at, then panics.
    /// Presses keys on whatever has the focus, through WebDriver actions.
    pub fn press(&self, keys: &[&str]) {
        let actions: Vec<Value> = keys
            .iter()
            .flat_map(|k| {
                [
                    json!({"type": "keyDown", "value": k}),
                    json!({"type": "keyUp", "value": k}),
                ]
            })
            .collect();
        self.cmd(
            "POST",
            "/actions",
            Some(json!({"actions": [{"type": "key", "id": "keyboard", "actions": actions}]})),
        );
        self.cmd("DELETE", "/actions", None);
    }

    pub fn give_up(&self, message: &str) -> ! {
        if let Some((dir, name)) = &self.failure {
            use base64::Engine;
            let png = base64::engine::general_purpose::STANDARD.decode(self.screenshot());
            let html = self.cmd("GET", "/source", None);
            let (png_file, html_file) = (
                format!("failure-{name}.png"),
                format!("failure-{name}.html"),
            );
            let _ = std::fs::write(dir.join(&png_file), png.unwrap_or_default());
            let _ = std::fs::write(dir.join(&html_file), html.as_str().unwrap_or_default());
            panic!(
                "{message}\n(the page is in {}/{png_file} and {html_file})",
                dir.display()
            );
        }
        panic!("{message}");
    }

    /// A PNG of the viewport, base64 as WebDriver sends it.
    pub fn screenshot(&self) -> String {
        self.cmd("GET", "/screenshot", None)
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// A PNG of the whole page, base64, through chromedriver's DevTools passthrough.
    pub fn full_page_screenshot(&self) -> String {
        let cdp = |cmd: &str, params: Value| {
            self.cmd(
                "POST",
                "/goog/cdp/execute",
                Some(json!({ "cmd": cmd, "params": params })),
            )
        };
        let size = &cdp("Page.getLayoutMetrics", json!({}))["cssContentSize"];
        let clip = json!({
            "x": 0, "y": 0, "scale": 1,
            "width": size["width"].as_f64().unwrap_or(1.0),
            "height": size["height"].as_f64().unwrap_or(1.0),
        });
        cdp(
            "Page.captureScreenshot",
            json!({ "format": "png", "captureBeyondViewport": true, "clip": clip }),
        )["data"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = call(&self.addr, "DELETE", &format!("/session/{}", self.id), None);
    }
}
