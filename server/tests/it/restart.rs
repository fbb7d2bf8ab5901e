//! Restarts lose nothing: the whole server is stopped and started again while its
//! ladder plays; every match ends exactly once and every rating counts it once.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_bottlebats");

/// Starts `serve` on the data folder and returns once it plays matches.
fn start(dir: &Path) -> (Child, std::sync::mpsc::Receiver<String>) {
    let mut command = Command::new(BIN);
    // SAFETY: prctl is async-signal-safe. A test that fails leaves no server running:
    // the server is told to stop when the thread that started it ends.
    unsafe {
        std::os::unix::process::CommandExt::pre_exec(&mut command, || {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM);
            Ok(())
        });
    }
    let mut child = command
        .args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--workers",
            "1",
            "--data-dir",
        ])
        .arg(dir)
        .env_remove("DATABASE_URL")
        .env("BOTTLEBATS_LOG", "info")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    // The logs go to stdout.
    let err = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(err).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    (child, rx)
}

/// Waits for a log line containing `what`.
fn wait_for(rx: &std::sync::mpsc::Receiver<String>, what: &str, seconds: u64) {
    let deadline = Instant::now() + Duration::from_secs(seconds);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(line) if line.contains(what) => return,
            Ok(_) => {}
            Err(_) => panic!("the server never logged `{what}`"),
        }
    }
}

fn stop(mut child: Child) {
    // SAFETY: signalling our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let status = child.wait().unwrap();
    assert!(status.success(), "a clean stop: {status}");
}

fn psql(dir: &Path, sql: &str) -> String {
    let cluster = server::db::EmbeddedPg::folder_of(dir).unwrap();
    let pid = std::fs::read_to_string(cluster.join("postmaster.pid")).unwrap();
    let port = pid.lines().nth(3).unwrap().trim().to_string();
    let bin = [
        "/usr/lib/postgresql/17/bin",
        "/usr/lib/postgresql/16/bin",
        "/usr/lib/postgresql/15/bin",
        "/usr/bin",
    ]
    .iter()
    .map(|d| Path::new(d).join("psql"))
    .find(|p| p.is_file())
    .unwrap_or_else(|| "psql".into());
    let out = Command::new(bin)
        .args(["-h"])
        .arg(&cluster)
        .args([
            "-p",
            &port,
            "-U",
            "bottlebats",
            "-d",
            "bottlebats",
            "-tAc",
            sql,
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

#[test]
fn stopping_and_restarting_the_server_mid_ladder_loses_and_doubles_nothing() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("restart");
    let _ = std::fs::remove_dir_all(&dir);
    let (child, log) = start(&dir);
    wait_for(&log, "recorded", 120);
    // Stop while the next match is being played.
    wait_for(&log, "playing", 60);
    let old = child.id();
    stop(child);

    let (child, log) = start(&dir);
    wait_for(&log, "serving Bottle Bats", 60);
    // The new server's own workers may already play; none of the old one's may.
    let running = psql(
        &dir,
        &format!("select count(*) from matches where status = 'running' and lease_owner like '%-{old}-%'"),
    );
    assert_eq!(running, "0", "the stopped server gave its match back");
    wait_for(&log, "recorded", 120);
    wait_for(&log, "recorded", 120);
    stop(child);

    // Start once more only to read the database (the embedded cluster stops with serve).
    let (child, log) = start(&dir);
    wait_for(&log, "serving Bottle Bats", 60);
    let checks = [
        // Every finished match has one rating entry per seat, no more.
        "select count(*) from matches m where m.status = 'finished' and \
           (select count(*) from rating_history h where h.match_id = m.id) <> \
           (select count(*) from match_players p where p.match_id = m.id)",
        // Every bot's games are its seats in finished matches.
        "select count(*) from bots b where b.games <> \
           (select count(*) from match_players p join matches m on m.id = p.match_id \
            where p.bot_id = b.id and m.status = 'finished')",
        // Nothing unfinished carries a result.
        "select count(*) from match_players p join matches m on m.id = p.match_id \
         where m.status <> 'finished' and p.mu_after is not null",
    ];
    for sql in checks {
        assert_eq!(psql(&dir, sql), "0", "{sql}");
    }
    let finished: i64 = psql(
        &dir,
        "select count(*) from matches where status = 'finished'",
    )
    .parse()
    .unwrap();
    assert!(finished >= 3, "the ladder went on: {finished} matches");
    let requeued: i64 = psql(&dir, "select count(*) from matches where attempts > 1")
        .parse()
        .unwrap();
    assert!(requeued >= 1, "the interrupted match was played again");
    stop(child);
}
