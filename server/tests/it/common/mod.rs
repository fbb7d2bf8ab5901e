//! Test support: a real PostgreSQL and a fresh, migrated database per test.
//!
//! With `DATABASE_URL` set, test databases are created on that server. Otherwise the
//! same embedded cluster the product uses runs in `target/tmp/test-pg`, started by
//! the first test that needs it and stopped when that test binary exits.

pub mod binary;

use std::path::PathBuf;
use std::str::FromStr;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;

use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::{ConnectOptions, Connection, PgPool};

struct Cluster {
    admin: PgConnectOptions,
    embedded: Option<server::db::EmbeddedPg>,
}

static CLUSTER: OnceLock<Cluster> = OnceLock::new();

/// Held shared by every test process using the embedded cluster.
static USERS: OnceLock<std::fs::File> = OnceLock::new();

fn lock_file(path: &std::path::Path) -> std::fs::File {
    std::fs::File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .unwrap()
}

fn flock(file: &std::fs::File, how: i32) -> bool {
    // SAFETY: flock on a file we hold open.
    unsafe { libc::flock(std::os::fd::AsRawFd::as_raw_fd(file), how) == 0 }
}

/// At exit: stops the cluster unless another test process still uses it.
extern "C" fn stop_cluster() {
    let (Some(pg), Some(users)) = (CLUSTER.get().and_then(|c| c.embedded.as_ref()), USERS.get())
    else {
        return;
    };
    flock(users, libc::LOCK_UN);
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("test-pg");
    let last = lock_file(&dir.join("users.lock"));
    if flock(&last, libc::LOCK_EX | libc::LOCK_NB) {
        pg.stop_now();
    }
}

fn cluster() -> &'static Cluster {
    CLUSTER.get_or_init(|| {
        if let Ok(url) = std::env::var("DATABASE_URL") {
            return Cluster {
                admin: PgConnectOptions::from_str(&url).expect("DATABASE_URL is a PostgreSQL URL"),
                embedded: None,
            };
        }
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("test-pg");
        std::fs::create_dir_all(&dir).unwrap();
        // Every test process using the cluster holds this shared; the last one out
        // stops it (see `stop_cluster`).
        let users = lock_file(&dir.join("users.lock"));
        flock(&users, libc::LOCK_SH);
        let _ = USERS.set(users);
        // One process at a time starts it; the others find it running.
        let start = lock_file(&dir.join("start.lock"));
        flock(&start, libc::LOCK_EX);
        let pg = server::db::EmbeddedPg::start(&dir, None).unwrap_or_else(|e| panic!("{e:#}"));
        drop(start);
        // SAFETY: registering a plain extern "C" function.
        unsafe { libc::atexit(stop_cluster) };
        Cluster {
            admin: pg.options("postgres"),
            embedded: Some(pg),
        }
    })
}

static NEXT: AtomicU32 = AtomicU32::new(0);

/// Options for a new, empty, migrated database of its own.
pub async fn fresh_options() -> PgConnectOptions {
    let c = cluster();
    let name = format!(
        "test_{}_{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    );
    let mut admin = c
        .admin
        .clone()
        .connect()
        .await
        .expect("connect to the test cluster");
    // Databases of test runs that are over.
    let old: Vec<String> =
        sqlx::query_scalar("select datname from pg_database where datname like 'test\\_%'")
            .fetch_all(&mut admin)
            .await
            .unwrap();
    for db in old {
        let pid: i32 = db
            .split('_')
            .nth(1)
            .and_then(|p| p.parse().ok())
            .unwrap_or(0);
        // SAFETY: signal 0 only checks that the process exists.
        if pid != 0 && unsafe { libc::kill(pid, 0) } != 0 {
            let _ = sqlx::query(sqlx::AssertSqlSafe(format!(
                "drop database if exists \"{db}\" with (force)"
            )))
            .execute(&mut admin)
            .await;
        }
    }
    sqlx::query(sqlx::AssertSqlSafe(format!("create database \"{name}\"")))
        .execute(&mut admin)
        .await
        .unwrap();
    admin.close().await.ok();
    let opts = c.admin.clone().database(&name);
    let pool = PgPoolOptions::new()
        .max_connections(2)
        .connect_with(opts.clone())
        .await
        .unwrap();
    server::db::MIGRATOR.run(&pool).await.unwrap();
    pool.close().await;
    opts
}

/// A pool on a fresh database.
pub async fn fresh_db() -> PgPool {
    PgPoolOptions::new()
        .max_connections(8)
        .connect_with(fresh_options().await)
        .await
        .unwrap()
}

/// A PostgreSQL URL for a fresh database, for driving the binary.
pub async fn fresh_url() -> String {
    let opts = fresh_options().await;
    url_of(opts.get_database().unwrap_or_default())
}

/// A PostgreSQL URL for a database of the test cluster.
pub fn url_of(database: &str) -> String {
    let c = cluster();
    match &c.embedded {
        Some(_) => {
            let (socket, port) = socket_of(&c.admin);
            format!("postgres://bottlebats@localhost:{port}/{database}?host={socket}")
        }
        None => {
            let base = std::env::var("DATABASE_URL").unwrap();
            let (head, _) = base.rsplit_once('/').unwrap();
            format!("{head}/{database}")
        }
    }
}

/// The URL of the database a pool is on.
pub async fn url_of_pool(pool: &PgPool) -> String {
    let name: String = sqlx::query_scalar("select current_database()")
        .fetch_one(pool)
        .await
        .unwrap();
    url_of(&name)
}

fn socket_of(opts: &PgConnectOptions) -> (String, u16) {
    (
        opts.get_socket()
            .map(|p| p.display().to_string())
            .unwrap_or_default(),
        opts.get_port(),
    )
}

/// A browser for tests: keeps cookies, sends forms with the CSRF token.
pub struct Client {
    pub app: axum::Router,
    pub state: server::web::AppState,
    pub cookies: std::collections::BTreeMap<String, String>,
    pub ip: std::net::SocketAddr,
}

/// A response with its body read.
#[derive(Debug)]
pub struct Resp {
    pub status: axum::http::StatusCode,
    pub headers: axum::http::HeaderMap,
    pub body: String,
}

impl Resp {
    pub fn location(&self) -> Option<&str> {
        self.headers.get("location").and_then(|v| v.to_str().ok())
    }
    /// The body as JSON (panics, saying so, when it is not).
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON: {e}: {}", self.body))
    }
    pub fn set_cookies(&self) -> Vec<String> {
        self.headers
            .get_all("set-cookie")
            .iter()
            .filter_map(|v| v.to_str().ok().map(str::to_string))
            .collect()
    }
}

/// A config as tests use it: the defaults, but for the cap on versions waiting to be
/// built, which tests that upload many versions at once would hit (the abuse suite
/// tests the default).
pub fn test_config() -> server::config::Config {
    let settings = server::config::Settings {
        pending_builds: Some(100),
        ..Default::default()
    };
    server::config::Config::load(settings, None).unwrap()
}

impl Client {
    pub async fn new() -> Client {
        Client::with_config(test_config()).await
    }

    pub async fn with_config(config: server::config::Config) -> Client {
        let languages = server::languages::Languages::load(config.languages.as_deref()).unwrap();
        let state = server::web::AppState::new(fresh_db().await, config, languages);
        Client {
            app: server::web::app(state.clone()),
            state,
            cookies: Default::default(),
            ip: "198.51.100.7:40000".parse().unwrap(),
        }
    }

    /// Another visitor of the same site (no cookies).
    pub fn stranger(&self) -> Client {
        Client {
            app: self.app.clone(),
            state: self.state.clone(),
            cookies: Default::default(),
            ip: "198.51.100.8:40000".parse().unwrap(),
        }
    }

    pub async fn send(&mut self, req: axum::http::Request<axum::body::Body>) -> Resp {
        use http_body_util::BodyExt;
        use tower::ServiceExt;
        let mut req = req;
        if !self.cookies.is_empty() && !req.headers().contains_key("cookie") {
            let header: Vec<String> = self
                .cookies
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            req.headers_mut()
                .insert("cookie", header.join("; ").parse().unwrap());
        }
        req.extensions_mut()
            .insert(axum::extract::ConnectInfo(self.ip));
        let resp = self.app.clone().oneshot(req).await.unwrap();
        let (parts, body) = resp.into_parts();
        let bytes = body.collect().await.unwrap().to_bytes();
        let resp = Resp {
            status: parts.status,
            headers: parts.headers,
            body: String::from_utf8_lossy(&bytes).into_owned(),
        };
        for c in resp.set_cookies() {
            let c = cookie::Cookie::parse(c).unwrap();
            if c.max_age() == Some(cookie::time::Duration::ZERO) {
                self.cookies.remove(c.name());
            } else {
                self.cookies
                    .insert(c.name().to_string(), c.value().to_string());
            }
        }
        resp
    }

    /// A GET whose body is bytes (a download): its status and body.
    pub async fn get_bytes(&mut self, path: &str) -> (axum::http::StatusCode, Vec<u8>) {
        use http_body_util::BodyExt;
        use tower::ServiceExt;
        let mut req = axum::http::Request::get(path)
            .body(axum::body::Body::empty())
            .unwrap();
        req.extensions_mut()
            .insert(axum::extract::ConnectInfo(self.ip));
        let resp = self.app.clone().oneshot(req).await.unwrap();
        let status = resp.status();
        let bytes = resp.into_body().collect().await.unwrap().to_bytes();
        (status, bytes.to_vec())
    }

    pub async fn get(&mut self, path: &str) -> Resp {
        let req = axum::http::Request::get(path)
            .body(axum::body::Body::empty())
            .unwrap();
        self.send(req).await
    }

    /// The CSRF token, visiting the home page first if there is none yet.
    pub async fn csrf(&mut self) -> String {
        if !self.cookies.contains_key("bb_csrf") {
            self.get("/").await;
        }
        self.cookies["bb_csrf"].clone()
    }

    /// Posts a form with the CSRF token added.
    pub async fn post(&mut self, path: &str, fields: &[(&str, &str)]) -> Resp {
        let csrf = self.csrf().await;
        let mut all: Vec<(&str, &str)> = fields.to_vec();
        all.push(("csrf", &csrf));
        self.post_raw(path, &all).await
    }

    /// Posts a form as [`Client::post`] does, then, as a browser, follows its redirect
    /// (post/redirect/get): the page that follows.
    pub async fn post_follow(&mut self, path: &str, fields: &[(&str, &str)]) -> Resp {
        let r = self.post(path, fields).await;
        assert_eq!(
            r.status,
            axum::http::StatusCode::SEE_OTHER,
            "POST {path} redirects: {}",
            r.body
        );
        let to = r.location().expect("a redirect says where").to_string();
        self.get(&to).await
    }

    /// Posts exactly these fields.
    pub async fn post_raw(&mut self, path: &str, fields: &[(&str, &str)]) -> Resp {
        let body = form_urlencoded::Serializer::new(String::new())
            .extend_pairs(fields)
            .finish();
        let req = axum::http::Request::post(path)
            .header("content-type", "application/x-www-form-urlencoded")
            .body(axum::body::Body::from(body))
            .unwrap();
        self.send(req).await
    }

    /// Registers and stays logged in.
    pub async fn register(&mut self, name: &str, password: &str) -> Resp {
        self.post(
            "/register",
            &[
                ("name", name),
                ("password", password),
                ("password2", password),
            ],
        )
        .await
    }

    pub async fn login(&mut self, name: &str, password: &str) -> Resp {
        self.post("/login", &[("name", name), ("password", password)])
            .await
    }
}

/// A multipart form body: (field, value) pairs and an optional file.
pub fn multipart(fields: &[(&str, &str)], file: Option<(&str, &[u8])>) -> (String, Vec<u8>) {
    let boundary = "----bottlebats-test-boundary-7MA4YWxkTrZu0gW";
    let mut body = Vec::new();
    for (k, v) in fields {
        body.extend_from_slice(
            format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{k}\"\r\n\r\n{v}\r\n")
                .as_bytes(),
        );
    }
    if let Some((name, bytes)) = file {
        body.extend_from_slice(
            format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\nContent-Type: application/octet-stream\r\n\r\n"
            )
            .as_bytes(),
        );
        body.extend_from_slice(bytes);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

impl Client {
    /// Posts a multipart form as the browser does (CSRF token in the query).
    pub async fn upload(
        &mut self,
        path: &str,
        fields: &[(&str, &str)],
        file: Option<(&str, &[u8])>,
    ) -> Resp {
        // As the browser's form sends it: the token first, then the fields.
        let csrf = self.csrf().await;
        let mut all: Vec<(&str, &str)> = vec![("csrf", &csrf)];
        all.extend_from_slice(fields);
        let (ctype, body) = multipart(&all, file);
        let req = axum::http::Request::post(path)
            .header("content-type", ctype)
            .body(axum::body::Body::from(body))
            .unwrap();
        self.send(req).await
    }

    /// Gets `path` with an API token (and no cookies, as a script would).
    pub async fn api_get(&mut self, path: &str, token: &str) -> Resp {
        let req = axum::http::Request::get(path)
            .header("authorization", format!("Bearer {token}"))
            .body(axum::body::Body::empty())
            .unwrap();
        self.send(req).await
    }

    /// Posts a multipart form with an API token.
    pub async fn api_upload(
        &mut self,
        path: &str,
        token: &str,
        fields: &[(&str, &str)],
        file: Option<(&str, &[u8])>,
    ) -> Resp {
        let (ctype, body) = multipart(fields, file);
        let req = axum::http::Request::post(path)
            .header("content-type", ctype)
            .header("authorization", format!("Bearer {token}"))
            .body(axum::body::Body::from(body))
            .unwrap();
        self.send(req).await
    }
}

/// A zip of (path, contents) entries, made with the `zip` crate.
pub fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
    use std::io::Write;
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, data) in entries {
        if name.ends_with('/') {
            w.add_directory(*name, zip::write::SimpleFileOptions::default())
                .unwrap();
        } else {
            w.start_file(*name, zip::write::SimpleFileOptions::default())
                .unwrap();
            w.write_all(data).unwrap();
        }
    }
    w.finish().unwrap().into_inner()
}

/// A .tar.gz of (path, contents) entries.
pub fn tar_gz_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    let mut t = tar::Builder::new(gz);
    for (name, data) in entries {
        let mut h = tar::Header::new_gnu();
        h.set_size(data.len() as u64);
        h.set_mode(0o644);
        h.set_cksum();
        t.append_data(&mut h, name, *data).unwrap();
    }
    t.into_inner().unwrap().finish().unwrap()
}

/// A builder for a test's database, its build cache and house bot in target/tmp.
pub fn builder(db: &PgPool, test: &str) -> server::builds::Builder {
    let base = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("ladder-{test}"));
    let _ = std::fs::remove_dir_all(&base);
    server::builds::Builder::new(
        db.clone(),
        // The machine's own slot pool (default lock folder), like a server's.
        std::sync::Arc::new(engine::sandbox::Sandbox::new(Default::default())),
        std::sync::Arc::new(server::languages::Languages::load(None).unwrap()),
        server::build_cache::BuildCache::new(base.join("builds"), 256 << 20, 10 << 30).unwrap(),
        base.join("house"),
    )
}

/// The house bots registered and built, the shipped maps loaded, and only `map` left
/// enabled so that test games are short.
pub async fn house_ladder(db: &PgPool, test: &str, map: &str) -> server::builds::Builder {
    let b = builder(db, test);
    server::house::register(db).await.unwrap();
    server::ranker::load_shipped_maps(db).await.unwrap();
    while b.build_next().await.unwrap() {}
    sqlx::query("update maps set enabled = (name = $1)")
        .bind(map)
        .execute(db)
        .await
        .unwrap();
    b
}

/// A worker playing games of at most `max_steps` turns.
pub fn worker(b: &server::builds::Builder, name: &str, max_steps: u32) -> server::worker::Worker {
    server::worker::Worker {
        name: name.into(),
        db: b.db.clone(),
        builder: b.clone(),
        match_config: engine::MatchConfig {
            max_turns: max_steps,
            ..Default::default()
        },
        stop: std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false)),
        challenge_minutes_per_hour: test_config().challenge_limits.minutes_per_hour,
    }
}

impl Client {
    /// Makes an API token on the profile page and returns it.
    pub async fn new_token(&mut self, name: &str) -> String {
        let r = self.post("/profile/tokens", &[("name", name)]).await;
        r.body
            .split("id=\"new-token\">")
            .nth(1)
            .unwrap()
            .split('<')
            .next()
            .unwrap()
            .to_string()
    }
}
