//! Remote bots (docs/remote.md) over real sockets: `bottlebats serve` on a free port,
//! and the contestant's side as they run it, `bottlebats connect` (the real binary)
//! with `bot.py` behind it.
//!
//! - `ladder.rs`: rated games of both games, the bot flagged remote, the same program
//!   uploaded playing the same moves, practice games;
//! - `trouble.rs`: a connection dropped mid-game, a slow network against the time rule.
//!
//! The limits (two sessions with one key, a revoked key, a no-show, attempts, the
//! sessions' cap) are in the abuse suite, `abuse/remote.rs`, on this harness.

mod http_api;
mod ladder;
mod trouble;

use std::io::{BufRead, BufReader, Read};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use serde_json::Value;
use sqlx::PgPool;

pub use crate::browser::harness::{Site, BIN};
pub use server::remote::NO_SHOWS_TO_PAUSE as NO_SHOWS;
pub use server::web::remote::{ADDRESS_BURST, KEY_BURST};

/// The fixture bot of these tests.
pub fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/it/remote/bot.py")
}

/// The site's database, from a test's own thread.
pub struct Db {
    rt: tokio::runtime::Runtime,
    pub pool: PgPool,
}

impl Db {
    pub fn of(site: &Site) -> Db {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let pool = rt
            .block_on(
                sqlx::postgres::PgPoolOptions::new()
                    .max_connections(2)
                    .connect(&site.database_url),
            )
            .unwrap();
        Db { rt, pool }
    }

    pub fn run<T>(&self, f: impl std::future::Future<Output = T>) -> T {
        self.rt.block_on(f)
    }

    pub fn exec(&self, sql: &str) {
        self.run(sqlx::query(sqlx::AssertSqlSafe(sql.to_string())).execute(&self.pool))
            .unwrap();
    }

    /// The one value `sql` selects, as JSON (`select to_jsonb(...)` or a plain value
    /// cast to it).
    pub fn json(&self, sql: &str) -> Value {
        let q = format!("select to_jsonb(x.v) from ({sql}) x(v)");
        self.run(
            sqlx::query_scalar::<_, Option<Value>>(sqlx::AssertSqlSafe(q)).fetch_one(&self.pool),
        )
        .unwrap()
        .unwrap_or(Value::Null)
    }

    /// Runs `sql`, which returns one id (an insert's).
    pub fn id(&self, sql: &str) -> i64 {
        self.run(
            sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(sql.to_string()))
                .fetch_one(&self.pool),
        )
        .unwrap()
    }

    /// Waits until `sql` selects true.
    pub fn wait_for(&self, sql: &str, limit: Duration, what: &str) {
        let start = Instant::now();
        while self.json(sql) != Value::Bool(true) {
            assert!(start.elapsed() < limit, "{what}: not within {limit:?}");
            std::thread::sleep(Duration::from_millis(250));
        }
    }
}

/// A site of both games whose house bots are built, with one small map of each game
/// in play (short games), hosted matches played by one worker and remote ones by
/// `remote_matches`.
pub fn site(name: &str, extra: &[&str]) -> (Site, Db) {
    let mut args = vec![
        "--games",
        "bottlebats,vindinium",
        "--workers",
        "1",
        "--remote-matches",
        "2",
    ];
    args.extend_from_slice(extra);
    let site = Site::start_with(name, &args);
    let db = Db::of(&site);
    db.exec("update maps set enabled = name in ('ring-2p', 'm1')");
    db.wait_for(
        "select count(*) >= 8 and bool_and(b.active_version_id is not null)
         from bots b join users u on u.id = b.owner_id where u.name = 'house'",
        Duration::from_secs(300),
        "the house bots of both games built",
    );
    (site, db)
}

/// A user (`bottlebats admin create-user`).
pub fn user(site: &Site, name: &str) {
    site.admin(&["create-user", name, "--password", "correct horse battery"]);
}

/// A key for `user`'s remote bot `bot` of `game`, made if needed.
pub fn key(site: &Site, user: &str, bot: &str, game: &str) -> String {
    let out = site.admin(&["remote-key", user, bot, "--game", game]);
    out.lines().last().unwrap().trim().to_string()
}

/// `bottlebats connect` running, its output (stdout and stderr) line by line.
pub struct Connected {
    child: Child,
    pub lines: Receiver<String>,
    pub seen: Vec<String>,
}

/// Runs `bottlebats connect SITE --key KEY ARGS -- python3 bot.py` with `env`; `site`
/// is the site's address.
pub fn connect(site: &str, key: &str, args: &[&str], env: &[(&str, &str)]) -> Connected {
    let fixture = fixture();
    let bot = ["/usr/bin/python3", fixture.to_str().unwrap()];
    connect_command(site, key, args, env, &bot)
}

/// Runs `bottlebats connect SITE --key KEY ARGS -- BOT…` with `env`.
pub fn connect_command(
    site: &str,
    key: &str,
    args: &[&str],
    env: &[(&str, &str)],
    bot: &[&str],
) -> Connected {
    let mut cmd = Command::new(BIN);
    cmd.arg("connect")
        .arg(site)
        .args(["--key", key])
        .args(args)
        .arg("--")
        .args(bot)
        .envs(env.iter().copied())
        .env_remove("BOTTLEBATS_KEY")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let mut child = cmd.spawn().unwrap();
    let (tx, lines) = std::sync::mpsc::channel();
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
    Connected {
        child,
        lines,
        seen: Vec::new(),
    }
}

impl Connected {
    /// Waits for a line containing `pattern`; returns it.
    pub fn wait_line(&mut self, pattern: &str, limit: Duration) -> String {
        let deadline = Instant::now() + limit;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if line.contains(pattern) {
                        return line;
                    }
                }
                Err(_) => panic!(
                    "`bottlebats connect` said no `{pattern}` within {limit:?}:\n{}",
                    self.seen.join("\n")
                ),
            }
        }
    }

    /// Waits for it to exit; its status and every line it wrote.
    pub fn wait_exit(&mut self, limit: Duration) -> (ExitStatus, String) {
        let deadline = Instant::now() + limit;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                // What is still in the pipes.
                std::thread::sleep(Duration::from_millis(100));
                self.seen.extend(self.lines.try_iter());
                return (status, self.seen.join("\n"));
            }
            if let Ok(line) = self.lines.recv_timeout(Duration::from_millis(100)) {
                self.seen.push(line);
            }
            assert!(
                Instant::now() < deadline,
                "`bottlebats connect` still runs after {limit:?}:\n{}",
                self.seen.join("\n")
            );
        }
    }

    /// Kills it outright (its bot with it): the network gone, as far as the site can
    /// tell.
    pub fn kill(&mut self) {
        // SAFETY: signalling the process group of our own child.
        unsafe { libc::kill(-(self.child.id() as i32), libc::SIGKILL) };
        let _ = self.child.wait();
    }

    /// Asks it to stop, as Ctrl-C does.
    pub fn interrupt(&mut self) {
        // SAFETY: signalling our own child.
        unsafe { libc::kill(self.child.id() as i32, libc::SIGINT) };
    }
}

impl Drop for Connected {
    fn drop(&mut self) {
        if self.child.try_wait().ok().flatten().is_none() {
            self.kill();
        }
    }
}

/// The site's JSON at `path`.
pub fn get_json(site: &Site, path: &str) -> Value {
    let (status, body) = site.request("GET", path, &[], b"");
    assert_eq!(status, 200, "GET {path}: {body}");
    serde_json::from_str(&body).unwrap_or_else(|e| panic!("GET {path}: {e}: {body}"))
}

/// The finished matches of `bot`, newest first, as the database has them: (id, ranked,
/// practice, remote).
pub fn matches_of(db: &Db, bot: &str) -> Vec<(i64, bool, bool, bool)> {
    let rows = db.json(&format!(
        "select coalesce(jsonb_agg(jsonb_build_array(m.id, m.ranked, m.practice, m.remote)
                 order by m.id desc), '[]')
         from matches m join match_players p on p.match_id = m.id join bots b on b.id = p.bot_id
         where b.name = '{bot}' and m.status = 'finished'"
    ));
    (rows.as_array().unwrap().iter())
        .map(|r| {
            (
                r[0].as_i64().unwrap(),
                r[1].as_bool().unwrap(),
                r[2].as_bool().unwrap(),
                r[3].as_bool().unwrap(),
            )
        })
        .collect()
}
