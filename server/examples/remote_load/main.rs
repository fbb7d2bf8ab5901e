//! The remote bots' benchmark tool, driven by `bench/remote.sh` (its figures are in
//! docs/measurements.md):
//!
//! - `overhead`: a remote seat's cost per move. A site of its own (the real web app, hub
//!   and WebSocket transport, an embedded database in a scratch folder) and the real
//!   `bottlebats connect` over loopback carry seat 0 of a Bottle Bats game; the same
//!   game is then played with both seats hosted (plain processes, pipes). The bot is
//!   the runner's idle fixture, which answers at once, so a turn's time is the
//!   transport's; each turn is timed on the runner's side (µs), and the medians
//!   compared.
//! - `keys`: N remote bots and their keys on a served site's database.
//! - `sessions`: holds one session per key (each from an address of its own, through
//!   the site's trusted proxy), idle, until its standard input closes.
//! - `pages`: each path requested N times, one after another; p50, p99 and the longest.

use std::collections::HashMap;
use std::io::{BufRead, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use clap::{Parser, Subcommand};
use engine::process::{BotProcess, BotSpec, LocalLauncher};
use engine::remote::Seats;
use engine::{run_game, MatchConfig};
use futures_util::StreamExt;
use server::ids::MatchId;
use server::remote::hub::{Assignment, Player};
use server::remote::wire::{Ending, Offer};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

#[derive(Parser)]
struct Args {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    Overhead {
        /// Turns of each game.
        #[arg(long, default_value_t = 2000)]
        turns: u32,
        /// The `bottlebats` binary (default: beside this tool's folder).
        #[arg(long)]
        bin: Option<PathBuf>,
    },
    Keys {
        #[arg(long)]
        data_dir: PathBuf,
        #[arg(long)]
        count: usize,
    },
    Sessions {
        #[arg(long)]
        url: String,
        #[arg(long)]
        keys: PathBuf,
    },
    Pages {
        #[arg(long)]
        url: String,
        #[arg(long, default_value_t = 500)]
        requests: usize,
        paths: Vec<String>,
    },
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    match args.command {
        Cmd::Overhead { turns, bin } => rt.block_on(overhead(turns, bin)),
        Cmd::Keys { data_dir, count } => rt.block_on(keys(&data_dir, count)),
        Cmd::Sessions { url, keys } => rt.block_on(sessions(&url, &keys)),
        Cmd::Pages {
            url,
            requests,
            paths,
        } => pages(&url, requests, &paths),
    }
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The runner's fixture bot in `mode`, as a command line.
fn fixture(mode: &str) -> Vec<String> {
    vec![
        "/usr/bin/python3".into(),
        repo()
            .join("engine/tests/bots/fixture.py")
            .display()
            .to_string(),
        mode.into(),
    ]
}

/// The median, 90th percentile and longest of `d`, in µs.
fn spread(mut d: Vec<Duration>) -> (u128, u128, u128) {
    d.sort_unstable();
    let at = |q: f64| d[((d.len() - 1) as f64 * q).round() as usize].as_micros();
    (at(0.5), at(0.9), at(1.0))
}

/// Plays one game of `turns` turns on `launcher`; each turn's time.
fn timed_game(
    launcher: &dyn engine::process::Launcher,
    turns: u32,
) -> anyhow::Result<Vec<Duration>> {
    let content = server::games::content("bottlebats")?;
    let kind = content.kind;
    let names = ["bench-remote".to_string(), "hosted".to_string()];
    let m = kind
        .setup(&content.smoke_map()?, &names, turns)
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let config = MatchConfig {
        max_turns: turns,
        ..MatchConfig::default()
    };
    let specs: Vec<BotSpec> = names
        .iter()
        .map(|n| BotSpec {
            name: n.clone(),
            command: fixture("idle").join(" "),
            dir: std::env::temp_dir(),
        })
        .collect();
    let mut marks = Vec::with_capacity(turns as usize + 1);
    run_game(m, kind.framing(), &specs, launcher, &config, &mut |_| {
        marks.push(Instant::now());
        true
    })?;
    // The first turn starts the bots: it is left out.
    Ok(marks.windows(2).skip(1).map(|w| w[1] - w[0]).collect())
}

async fn overhead(turns: u32, bin: Option<PathBuf>) -> anyhow::Result<()> {
    let bin = match bin {
        Some(b) => b,
        None => std::env::current_exe()?
            .parent()
            .and_then(Path::parent)
            .context("the tool's folder")?
            .join("bottlebats"),
    };
    let scratch =
        std::env::temp_dir().join(format!("bottlebats-remote-bench-{}", std::process::id()));
    std::fs::create_dir_all(&scratch)?;
    let result = overhead_in(turns, &bin, &scratch).await;
    let _ = std::fs::remove_dir_all(&scratch);
    result
}

async fn overhead_in(turns: u32, bin: &Path, scratch: &Path) -> anyhow::Result<()> {
    server::serve::init_logging("warn");
    let config = server::config::Config::load(
        server::config::Settings {
            data_dir: Some(scratch.to_path_buf()),
            ..Default::default()
        },
        None,
    )?;
    let db = server::db::Database::open(&config).await?;
    let pool = db.pool.clone();
    // Nobody else offers this site's bot a match: the tool does.
    server::ranker::set_paused(&pool, true).await?;
    (server::accounts::create_user(&pool, "bench", "bench password", false).await?)
        .map_err(anyhow::Error::msg)?;
    let bot = server::remote::find_or_create(&pool, "bench", "bench-remote", "bottlebats").await?;
    let key = server::remote::keys::renew(&pool, bot).await?;
    let languages = server::languages::Languages::load(None)?;
    let state = server::web::AppState::new(pool.clone(), config.clone(), languages);
    let sandbox = Arc::new(engine::sandbox::Sandbox::new(Default::default()));
    let builder = server::serve::builder(&config, &pool, sandbox, state.languages.clone())?;
    state.remote.start(Player {
        builder,
        match_config: MatchConfig::default(),
        settings: Default::default(),
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let url = format!("http://{}", listener.local_addr()?);
    let hub = state.remote.clone();
    tokio::spawn(server::web::serve(state, listener, std::future::pending()));

    let mut client = std::process::Command::new(bin)
        .args(["connect", &url, "--key", &key, "--games", "1", "--"])
        .args(fixture("idle"))
        .stdout(std::process::Stdio::null())
        .spawn()
        .with_context(|| format!("starting {}", bin.display()))?;
    let deadline = Instant::now() + Duration::from_secs(30);
    while !hub.is_idle(bot) {
        if Instant::now() > deadline {
            bail!("`bottlebats connect` did not connect within 30 s");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (process, link) = server::remote::seat::open(Duration::ZERO)?;
    let (accept, accepted) = tokio::sync::oneshot::channel();
    let (end, ending) = tokio::sync::oneshot::channel();
    let offer = Offer {
        id: uuid::Uuid::new_v4(),
        match_id: MatchId(0),
        game: "bottlebats".into(),
        map: "ring-2p".into(),
        seat: 0,
        players: vec!["bench-remote".into(), "hosted".into()],
        args: vec!["bench-remote".into()],
        ranked: false,
        practice: true,
        tournament: None,
        reply_ms: 2000,
        first_reply_ms: 10_000,
        allowance_ms: 0,
        max_turns: turns,
        accept_ms: 10_000,
    };
    let id = offer.id;
    if !hub.assign(
        bot,
        Assignment {
            offer,
            accept,
            link,
            ending,
        },
    ) {
        bail!("the session went away");
    }
    if let Err(why) = tokio::time::timeout(Duration::from_secs(10), accepted)
        .await
        .context("no answer to the offer")??
    {
        bail!("the client declined the offer: {why}");
    }
    let remote_turns = tokio::task::spawn_blocking(move || {
        let seats: HashMap<String, Box<dyn BotProcess>> = HashMap::from([(
            "bench-remote".to_string(),
            Box::new(process) as Box<dyn BotProcess>,
        )]);
        timed_game(&Seats::new(&LocalLauncher, seats), turns)
    })
    .await??;
    let _ = end.send(Ending {
        id,
        match_id: MatchId(0),
        status: "finished".into(),
        reason: None,
        turns: Some(turns),
        seat: 0,
        players: vec![],
        ranks: vec![1, 1],
        outcome: Some("draw".into()),
        error: None,
        timeouts: 0,
        warnings: 0,
        latency: None,
        last_view: None,
    });
    let _ = tokio::task::spawn_blocking(move || client.wait()).await;
    let hosted_turns =
        tokio::task::spawn_blocking(move || timed_game(&LocalLauncher, turns)).await??;
    let (r50, r90, rmax) = spread(remote_turns.clone());
    let (h50, h90, hmax) = spread(hosted_turns.clone());
    println!(
        "turns timed: remote {} / hosted {}",
        remote_turns.len(),
        hosted_turns.len()
    );
    println!("a turn, hosted seat:  median {h50} µs, p90 {h90} µs, max {hmax} µs");
    println!("a turn, remote seat:  median {r50} µs, p90 {r90} µs, max {rmax} µs");
    println!(
        "added by the remote seat at the median: {} µs (goal: under 1000 µs)",
        r50 as i128 - h50 as i128
    );
    db.close().await;
    Ok(())
}

async fn keys(data_dir: &Path, count: usize) -> anyhow::Result<()> {
    let config = server::config::Config::load(
        server::config::Settings {
            data_dir: Some(data_dir.to_path_buf()),
            ..Default::default()
        },
        None,
    )?;
    let db = server::db::Database::open(&config).await?;
    let _ = server::accounts::create_user(&db.pool, "load", "load password", false).await?;
    let mut out = std::io::stdout().lock();
    for i in 0..count {
        let bot =
            server::remote::find_or_create(&db.pool, "load", &format!("load-{i}"), "bottlebats")
                .await?;
        writeln!(out, "{}", server::remote::keys::renew(&db.pool, bot).await?)?;
    }
    db.close().await;
    Ok(())
}

async fn sessions(url: &str, keys: &Path) -> anyhow::Result<()> {
    let keys: Vec<String> = std::fs::read_to_string(keys)?
        .lines()
        .map(str::to_string)
        .collect();
    let ws = url.replacen("http://", "ws://", 1) + server::remote::wire::PATH;
    let started = Instant::now();
    let (tx, mut held) = tokio::sync::mpsc::channel::<bool>(keys.len().max(1));
    let limit = Arc::new(tokio::sync::Semaphore::new(32));
    for (i, key) in keys.iter().enumerate() {
        let (ws, key, tx, limit) = (ws.clone(), key.clone(), tx.clone(), limit.clone());
        tokio::spawn(async move {
            let permit = limit.acquire_owned().await;
            let mut request = ws.into_client_request().expect("an address");
            let headers = request.headers_mut();
            headers.insert("bottlebats-key", key.parse().expect("a key"));
            // Each from an address of its own, as a real population is.
            let from = format!("10.{}.{}.{}", i >> 16 & 255, i >> 8 & 255, i & 255);
            headers.insert("x-forwarded-for", from.parse().expect("an address"));
            let Ok((mut socket, _)) = tokio_tungstenite::connect_async(request).await else {
                let _ = tx.send(false).await;
                return;
            };
            // The hello, then nothing but the server's pings (answered by the library).
            let ok = matches!(socket.next().await, Some(Ok(_)));
            let _ = tx.send(ok).await;
            drop(permit);
            while let Some(Ok(_)) = socket.next().await {}
        });
    }
    drop(tx);
    let (mut ok, mut failed) = (0, 0);
    while ok + failed < keys.len() {
        match held.recv().await {
            Some(true) => ok += 1,
            Some(false) => failed += 1,
            None => break,
        }
    }
    println!(
        "held {ok} sessions ({failed} refused) after {:.1} s",
        started.elapsed().as_secs_f64()
    );
    // Until told to stop (stdin closed).
    tokio::task::spawn_blocking(|| {
        let mut sink = String::new();
        while std::io::stdin().lock().read_line(&mut sink).unwrap_or(0) > 0 {}
    })
    .await?;
    Ok(())
}

/// One GET over a connection of its own; its time, or an error for a status not 200.
fn get(addr: &str, path: &str) -> anyhow::Result<Duration> {
    let started = Instant::now();
    let mut s = TcpStream::connect(addr)?;
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )?;
    let mut answer = Vec::new();
    s.read_to_end(&mut answer)?;
    let took = started.elapsed();
    if !answer.starts_with(b"HTTP/1.1 200") {
        bail!(
            "GET {path}: {}",
            String::from_utf8_lossy(&answer[..answer.len().min(80)])
        );
    }
    Ok(took)
}

fn pages(url: &str, requests: usize, paths: &[String]) -> anyhow::Result<()> {
    let addr = url.trim_start_matches("http://").trim_end_matches('/');
    for path in paths {
        let times: Vec<Duration> = (0..requests)
            .map(|_| get(addr, path))
            .collect::<anyhow::Result<_>>()?;
        let (p50, _, max) = spread(times.clone());
        let mut sorted = times;
        sorted.sort_unstable();
        let p99 = sorted[((sorted.len() - 1) as f64 * 0.99).round() as usize].as_micros();
        println!(
            "{path:<24} p50 {:>6.2} ms   p99 {:>6.2} ms   max {:>6.2} ms",
            p50 as f64 / 1000.0,
            p99 as f64 / 1000.0,
            max as f64 / 1000.0
        );
    }
    Ok(())
}
