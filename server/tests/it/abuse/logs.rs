//! A game's log (`/matches/N/log.txt`), which anyone may ask for. A Vindinium board
//! grows with the square of its map's longest line: 400 bytes on one line made a board
//! of 200 × 200 that `admin add-map` took, and the log of its 1,201 states was built
//! whole in memory, 826 MB for one anonymous request.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use game_interface::{Answer, RunnerNotes};
use rand::{Rng, SeedableRng};
use server::ids::{BotId, MapId, MatchId, VersionId};
use server::web::rendered::{BODIES_PER_ADDRESS, RENDERS_AT_ONCE, STALL};

use super::http::{data_dir, rss, MIB};
use crate::common::binary::{start_with, Server};
use crate::ladder::by_game::{bot_of, open_both};

/// 400 characters on one line: a board of 200 × 200 by the original's reading.
fn wide_map() -> String {
    format!("@1@2@3@4$-[]{}", "  ".repeat(194))
}

/// The largest board there is, 100 × 100: heroes, mines and taverns on the first rows.
fn largest_map() -> String {
    let mut rows = vec![format!("@1$-[]{}$-@2", "  ".repeat(95))];
    rows.push(format!("$-{}$-", "  ".repeat(98)));
    for _ in 0..96 {
        rows.push(String::new());
    }
    rows.push(format!("$-{}$-", "  ".repeat(98)));
    rows.push(format!("@3$-[]{}$-@4", "  ".repeat(95)));
    rows.join("\n")
}

#[tokio::test]
async fn a_board_over_the_games_limit_is_refused_wherever_a_map_is_read() {
    let c = crate::common::Client::new().await;
    open_both(&c.state.db).await;
    let refused = server::ranker::add_map(&c.state.db, "vindinium", "wide", &wide_map())
        .await
        .unwrap_err()
        .to_string();
    assert!(
        refused.contains("200 × 200") && refused.contains("at most 100 × 100"),
        "{refused}"
    );
    let kind = server::games::kind("vindinium").unwrap();
    assert!(kind.map_info(&wide_map()).is_err());
    let names: Vec<String> = ["a", "b", "c", "d"].map(String::from).to_vec();
    assert!(kind.setup(&wide_map(), &names, 10).is_err());
    assert!(
        server::ranker::add_map(&c.state.db, "vindinium", "largest", &largest_map())
            .await
            .unwrap()
    );

    // `admin add-map` and `play` read maps the same way.
    let dir = std::path::PathBuf::from(data_dir("wide-map"));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("wide.txt"), wide_map()).unwrap();
    let url = crate::common::url_of_pool(&c.state.db).await;
    let bin = env!("CARGO_BIN_EXE_bottlebats");
    let out = std::process::Command::new(bin)
        .args(["admin", "add-map", "wide"])
        .arg(dir.join("wide.txt"))
        .args(["--game", "vindinium"])
        .env("DATABASE_URL", &url)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && said.contains("at most 100 × 100"),
        "{said}"
    );
    std::fs::write(
        dir.join("config.json"),
        r#"{ "game": "vindinium", "players": { "a": "true", "b": "true", "c": "true", "d": "true" },
             "mapfile": "wide.txt" }"#,
    )
    .unwrap();
    let out = std::process::Command::new(bin)
        .args(["play", "config.json"])
        .current_dir(&dir)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && said.contains("at most 100 × 100"),
        "{said}"
    );
    let maps: i64 = sqlx::query_scalar("select count(*) from maps where name = 'wide'")
        .fetch_one(&c.state.db)
        .await
        .unwrap();
    assert_eq!(maps, 0);
}

/// A finished Vindinium match of 1,200 moves on the largest board, heroes moving at
/// random: its id.
async fn long_game(db: &sqlx::PgPool) -> MatchId {
    open_both(db).await;
    sqlx::query("insert into users (name, password_hash) values ('owner', 'x')")
        .execute(db)
        .await
        .unwrap();
    let names: Vec<String> = ["h1", "h2", "h3", "h4"].map(String::from).to_vec();
    let mut seats = Vec::new();
    for name in &names {
        bot_of(db, "owner", name, "vindinium", 25.0).await;
        let (b, v): (i64, i64) =
            sqlx::query_as("select id, active_version_id from bots where name = $1")
                .bind(name)
                .fetch_one(db)
                .await
                .unwrap();
        seats.push((BotId(b), VersionId(v)));
    }
    assert!(
        server::ranker::add_map(db, "vindinium", "largest", &largest_map())
            .await
            .unwrap()
    );
    let map: i64 = sqlx::query_scalar("select id from maps where name = 'largest'")
        .fetch_one(db)
        .await
        .unwrap();
    let kind = server::games::kind("vindinium").unwrap();
    let mut m = kind.setup(&largest_map(), &names, 1200).unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    while !m.is_over() {
        let seat = m.to_answer()[0];
        let dir = ["North", "South", "East", "West"][rng.gen_range(0..4)];
        m.step(
            &[(seat, Answer::Lines(vec![dir.into()]))],
            &RunnerNotes::default(),
        );
    }
    let mut conn = db.acquire().await.unwrap();
    let id = server::ranker::insert_match(
        &mut conn,
        MapId(map),
        &seats,
        server::ranker::Purpose::Ranked,
    )
    .await
    .unwrap();
    sqlx::query(
        "update matches set status = 'finished', started_at = now(), finished_at = now(), \
         turns = $2, replay = $3 where id = $1",
    )
    .bind(id.0)
    .bind(m.turn() as i32)
    .bind(server::compress::gzip(m.replay_json().as_bytes()))
    .execute(&mut *conn)
    .await
    .unwrap();
    id
}

/// Asks for `path` from `address` (forwarded by the trusted proxy), taking gzip or not.
fn ask(s: &Server, path: &str, address: &str, gzip: bool) -> TcpStream {
    let mut c = TcpStream::connect(&s.addr).unwrap();
    let encoding = if gzip {
        "Accept-Encoding: gzip\r\n"
    } else {
        ""
    };
    write!(
        c,
        "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Forwarded-For: {address}\r\n\
         {encoding}\r\n"
    )
    .unwrap();
    c
}

/// Everything the server sends on `c` until it closes it: head and body.
fn read_all(mut c: TcpStream) -> Vec<u8> {
    c.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    let mut all = Vec::new();
    c.read_to_end(&mut all).unwrap();
    all
}

/// A response's body, and whether it came whole (with its last chunk, or as long as
/// its `Content-Length`).
fn unchunk(response: &[u8]) -> (Vec<u8>, bool) {
    let at = response.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4;
    let head = String::from_utf8_lossy(&response[..at]).to_lowercase();
    let mut rest = &response[at..];
    if let Some(length) = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|n| n.trim().parse::<usize>().ok())
    {
        return (rest.to_vec(), rest.len() == length);
    }
    let mut body = Vec::new();
    loop {
        let Some(eol) = rest.windows(2).position(|w| w == b"\r\n") else {
            return (body, false);
        };
        let size = usize::from_str_radix(std::str::from_utf8(&rest[..eol]).unwrap(), 16).unwrap();
        if size == 0 {
            return (body, true);
        }
        if rest.len() < eol + 2 + size {
            return (body, false);
        }
        body.extend_from_slice(&rest[eol + 2..eol + 2 + size]);
        rest = &rest[eol + 4 + size..];
    }
}

#[test]
fn a_long_games_log_is_written_a_state_at_a_time_and_slow_readers_let_go() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let url = rt.block_on(crate::common::fresh_url());
    let id = rt.block_on(async {
        let db = sqlx::PgPool::connect(&url).await.unwrap();
        let id = long_game(&db).await;
        db.close().await;
        id
    });
    let dir = data_dir("long-log");
    let s = start_with(
        &[
            "--workers",
            "0",
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
    let path = format!("/matches/{id}/log.txt");

    // The whole log, plain then gzipped, while the server's memory is watched.
    let before = rss(pid);
    let peak = super::http::Peak::watch(pid);
    let plain = read_all(ask(&s, &path, "10.1.0.1", false));
    let (text, whole) = unchunk(&plain);
    assert!(whole, "the plain log ends with its last chunk");
    let gz = read_all(ask(&s, &path, "10.1.0.1", true));
    let peak = peak.end();
    let head = String::from_utf8_lossy(&gz[..gz.len().min(400)]).to_lowercase();
    assert!(head.contains("content-encoding: gzip"), "{head}");
    let (gzipped, whole) = unchunk(&gz);
    assert!(whole, "the gzipped log ends with its last chunk");
    let inflated = server::compress::gunzip(&gzipped).unwrap();
    assert!(inflated == text, "the same log either way");
    let text = String::from_utf8(text).unwrap();
    assert_eq!(text.lines().count(), 1202, "1,201 states and the winner");
    assert!(text.lines().nth(1201).unwrap().starts_with("{\"winner\":"));
    println!(
        "a log of {} MB ({} MB gzipped): the server's memory went from {} to {} MiB",
        text.len() / 1_000_000,
        gzipped.len() / 1_000_000,
        before / MIB,
        peak / MIB
    );
    assert!(
        peak < before + 64 * MIB,
        "the server's memory went from {} to {} MiB",
        before / MIB,
        peak / MIB
    );

    // Readers that never read: a few renders at once, then refusals; once the stalled
    // renders are let go their places are free again.
    let mut held = Vec::new();
    let mut served = 0;
    for i in 0..(RENDERS_AT_ONCE + 2) {
        for _ in 0..(BODIES_PER_ADDRESS + 1) {
            let mut c = ask(&s, &path, &format!("10.2.0.{i}"), false);
            c.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
            let mut status = [0u8; 12];
            c.read_exact(&mut status).unwrap();
            served += usize::from(&status[9..] == b"200");
            held.push(c);
        }
    }
    assert_eq!(served, RENDERS_AT_ONCE, "renders under way at once");
    let started = Instant::now();
    loop {
        let mut c = ask(&s, &path, "10.3.0.1", false);
        c.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let mut status = [0u8; 12];
        c.read_exact(&mut status).unwrap();
        if &status[9..] == b"200" {
            break;
        }
        assert!(
            started.elapsed() < STALL * 3,
            "the stalled renders were never let go"
        );
        std::thread::sleep(Duration::from_millis(500));
    }
    // The stalled readers' logs end cut short, never as if whole.
    let (_, whole) = unchunk(&read_all(held.remove(0)));
    assert!(!whole, "a log cut short ends without its last chunk");
    drop(held);
    s.stop();
}
