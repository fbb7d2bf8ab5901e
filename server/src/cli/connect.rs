//! `bottlebats connect https://SITE --key KEY -- ./mybot args…`: plays a remote bot's
//! matches from this machine (docs/remote.md).
//!
//! One session (a WebSocket, `crate::remote::wire`) to the site; for each match
//! offered a fresh process of the command, started with the arguments an uploaded bot
//! gets in that game (its player's or hero's name) appended, its standard input and
//! output carried byte for byte, its standard error shown here and sent to the site.
//! Each match's address, result and reply times are printed. It goes on until Ctrl-C
//! (or `--games N`), and reconnects by itself, with back-off, when the network drops.
//!
//! The client speaks `ws://` and `wss://` (rustls with the Mozilla roots built in, so
//! it needs nothing of the system's).

use std::process::{ExitCode, Stdio};
use std::time::Duration;

use anyhow::{bail, Context};
use futures_util::{SinkExt, StreamExt};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::process::{Child, ChildStdin, Command};
use tokio::sync::{mpsc, watch};
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::Message;

use crate::remote::wire::{
    self, ClientMessage, Ending, Offer, ServerMessage, MAX_CHUNK, STDERR, STDIN, STDOUT,
};

/// What `connect` was asked.
#[derive(Debug, Clone)]
pub struct Options {
    /// The site, `https://…` or `http://…`.
    pub site: String,
    pub key: String,
    /// Unrated games against house bots only.
    pub practice: bool,
    /// Stop after this many matches played.
    pub games: Option<u32>,
    /// The bot's command and its arguments.
    pub command: Vec<String>,
    /// Delays everything sent to the site by this long (to try a slow network).
    pub delay: Duration,
}

/// The longest wait between two attempts to connect.
const MOST_BACKOFF: Duration = Duration::from_secs(60);

/// Why a session ended.
enum Over {
    /// The games asked for are played.
    Done,
    /// Ctrl-C.
    Interrupted,
    /// The site refused for good (a wrong or revoked key, a paused bot): say why.
    Refused(String),
    /// Something here stops it: the bot cannot be started, the site never answered.
    Failed(String),
    /// The connection dropped or the server said goodbye: try again.
    Dropped(String),
    /// The site asks to wait before trying again.
    Wait(String, Duration),
}

pub fn run(options: Options) -> anyhow::Result<ExitCode> {
    if options.command.is_empty() {
        bail!("give the bot's command after `--`, e.g. `bottlebats connect SITE --key KEY -- ./mybot`");
    }
    if !options.key.starts_with(crate::remote::keys::PREFIX) {
        bail!(
            "that is not a remote bot's key (they start with `{}`; make one on the bot's page)",
            crate::remote::keys::PREFIX
        );
    }
    // Found now, not at the first match: a mistyped command would otherwise decline
    // match after match, and each counts against the bot.
    startable(&options.command[0])?;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let code = rt.block_on(sessions(options))?;
    rt.shutdown_timeout(Duration::from_millis(500));
    Ok(code)
}

/// The session's address: the site's, `ws` for `http`.
fn address(site: &str, practice: bool) -> anyhow::Result<String> {
    let site = site.trim_end_matches('/');
    let base = if let Some(rest) = site.strip_prefix("https://") {
        format!("wss://{rest}")
    } else if let Some(rest) = site.strip_prefix("http://") {
        format!("ws://{rest}")
    } else {
        bail!("the site's address starts with https:// or http://, got `{site}`");
    };
    let mode = if practice { "?mode=practice" } else { "" };
    Ok(format!("{base}{}{mode}", wire::PATH))
}

/// That `program` can be started: a path to an executable file, or a name found on
/// `PATH`.
fn startable(program: &str) -> anyhow::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let executable = |p: &std::path::Path| {
        std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    if program.contains('/') {
        let path = std::path::Path::new(program);
        let Ok(meta) = std::fs::metadata(path) else {
            bail!("the bot's command `{program}` cannot be started: there is no such file");
        };
        if !executable(path) {
            bail!(
                "the bot's command `{program}` cannot be started: {}",
                if meta.is_dir() {
                    "it is a folder"
                } else {
                    "it is not executable (`chmod +x` it, or give its interpreter first: `-- python3 bot.py`)"
                }
            );
        }
        return Ok(());
    }
    let found = std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| executable(&dir.join(program))));
    if !found {
        bail!(
            "the bot's command `{program}` cannot be started: no program of that name is on \
             PATH (a file here is `./{program}`)"
        );
    }
    Ok(())
}

/// Until Ctrl-C: each session ends at it, and says so about the match it was playing.
async fn interrupted(stop: &mut watch::Receiver<bool>) {
    if stop.wait_for(|s| *s).await.is_err() {
        std::future::pending::<()>().await;
    }
}

/// Sessions one after another until done, refused or interrupted.
async fn sessions(options: Options) -> anyhow::Result<ExitCode> {
    let url = address(&options.site, options.practice)?;
    let (stop_tx, stop) = watch::channel(false);
    tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            let _ = stop_tx.send(true);
        }
    });
    let mut played = 0u32;
    let mut backoff = Duration::from_secs(1);
    let mut connected_before = false;
    loop {
        let started = Instant::now();
        let over = session(
            &url,
            &options,
            &mut played,
            &mut connected_before,
            stop.clone(),
        )
        .await;
        match over {
            Over::Done => {
                println!("played {played} match(es); done");
                return Ok(ExitCode::SUCCESS);
            }
            Over::Interrupted => {
                println!("interrupted after {played} match(es)");
                return Ok(ExitCode::SUCCESS);
            }
            Over::Refused(why) => {
                eprintln!("the site refused the session: {why}");
                return Ok(ExitCode::FAILURE);
            }
            Over::Failed(why) => {
                eprintln!("{why}");
                return Ok(ExitCode::FAILURE);
            }
            Over::Dropped(why) | Over::Wait(why, _) if started.elapsed() > MOST_BACKOFF => {
                // It had been connected a good while: start the back-off over.
                backoff = Duration::from_secs(1);
                eprintln!("{why}; reconnecting in {} s", backoff.as_secs());
            }
            Over::Dropped(why) => eprintln!("{why}; reconnecting in {} s", backoff.as_secs()),
            Over::Wait(why, wait) => {
                backoff = backoff.max(wait);
                eprintln!("{why}; trying again in {} s", backoff.as_secs());
            }
        }
        let mut waiting = stop.clone();
        tokio::select! {
            _ = tokio::time::sleep(backoff) => {}
            _ = interrupted(&mut waiting) => {
                println!("interrupted after {played} match(es)");
                return Ok(ExitCode::SUCCESS);
            }
        }
        backoff = (backoff * 2).min(MOST_BACKOFF);
    }
}

/// What the refusal of a connection says.
fn refusal(response: &tokio_tungstenite::tungstenite::http::Response<Option<Vec<u8>>>) -> String {
    let body = response.body().as_deref().unwrap_or_default();
    serde_json::from_slice::<serde_json::Value>(body)
        .ok()
        .and_then(|v| v["error"].as_str().map(str::to_string))
        .unwrap_or_else(|| format!("HTTP {}", response.status()))
}

/// Something to send to the site, when it is due (`--delay`).
struct Outgoing {
    due: Instant,
    message: Message,
}

/// One session: connects, then plays what the site offers.
async fn session(
    url: &str,
    options: &Options,
    played: &mut u32,
    connected_before: &mut bool,
    mut stop: watch::Receiver<bool>,
) -> Over {
    let mut request = match url.into_client_request() {
        Ok(r) => r,
        Err(e) => return Over::Refused(format!("the address `{url}` cannot be used: {e}")),
    };
    let Ok(key) = HeaderValue::from_str(&options.key) else {
        return Over::Refused("the key holds characters no header can".into());
    };
    request.headers_mut().insert(wire::KEY_HEADER, key);
    // Replies are small and each is awaited: sent at once, not held for more.
    let connected = tokio::select! {
        c = tokio_tungstenite::connect_async_with_config(request, None, true) => c,
        _ = interrupted(&mut stop) => return Over::Interrupted,
    };
    let socket = match connected {
        Ok((socket, _)) => socket,
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            let why = refusal(&response);
            return match response.status().as_u16() {
                // A session of ours the site has not seen end yet (the network dropped
                // under it): it does within a minute.
                409 if *connected_before => Over::Wait(why, Duration::from_secs(10)),
                429 | 503 => {
                    let wait = (response.headers().get("retry-after"))
                        .and_then(|v| v.to_str().ok()?.parse().ok())
                        .map_or(Duration::from_secs(5), Duration::from_secs);
                    Over::Wait(why, wait)
                }
                500..=599 => Over::Dropped(why),
                _ => Over::Refused(why),
            };
        }
        // Never reached: the address is likely wrong; say so rather than wait forever.
        Err(e) if !*connected_before => {
            return Over::Failed(format!(
                "cannot reach the site at {url}: {e} (is the address right?)"
            ))
        }
        Err(e) => return Over::Dropped(format!("cannot reach the site: {e}")),
    };
    *connected_before = true;
    let (mut sink, mut stream) = socket.split();
    let (out, mut out_rx) = mpsc::channel::<Outgoing>(256);
    let writer = tokio::spawn(async move {
        while let Some(o) = out_rx.recv().await {
            // A timer costs up to a millisecond of the clock's tick: only when asked.
            if o.due > Instant::now() {
                tokio::time::sleep_until(o.due).await;
            }
            if sink.send(o.message).await.is_err() {
                break;
            }
        }
        let _ = sink.close().await;
    });
    let sender = Sender {
        out,
        delay: options.delay,
    };
    let mut current: Option<Match> = None;
    let over = loop {
        let frame = tokio::select! {
            frame = stream.next() => frame,
            _ = interrupted(&mut stop) => break Over::Interrupted,
            exited = exit_of(&mut current) => {
                if let (Some(m), Some((code, signal))) = (&current, exited) {
                    sender.text(&ClientMessage::Exit { id: m.offer.id, code, signal }).await;
                }
                continue;
            }
        };
        let message = match frame {
            Some(Ok(m)) => m,
            Some(Err(e)) => break Over::Dropped(format!("the connection dropped: {e}")),
            None => break Over::Dropped("the site closed the connection".into()),
        };
        match message {
            Message::Binary(bytes) => {
                if let (Some(m), Some((&STDIN, rest))) = (&mut current, bytes.split_first()) {
                    m.input(rest);
                }
            }
            Message::Text(text) => {
                let said: ServerMessage = match serde_json::from_str(text.as_str()) {
                    Ok(s) => s,
                    Err(e) => break Over::Dropped(format!("the site said something unknown: {e}")),
                };
                match said {
                    ServerMessage::Hello {
                        bot, game, mode, ..
                    } => println!("connected as `{bot}` ({game}, {mode}); waiting for a match"),
                    ServerMessage::Offer { offer, url } => {
                        if let Some(m) = current.take() {
                            m.kill().await;
                        }
                        match Match::start(offer, &url, options, &sender).await {
                            Ok(m) => current = Some(m),
                            Err(e) => break Over::Failed(format!("{e:#}")),
                        }
                    }
                    ServerMessage::Kill { id } => {
                        if let Some(m) = current.as_mut().filter(|m| m.offer.id == id) {
                            m.kill_now();
                        }
                    }
                    ServerMessage::End { ending, url } => {
                        if let Some(m) = current.take() {
                            m.kill().await;
                        }
                        report(&ending, &url);
                        if ending.status == "finished" {
                            *played += 1;
                        }
                        if options.games.is_some_and(|n| *played >= n) {
                            break Over::Done;
                        }
                    }
                    ServerMessage::Bye { reason, reconnect } => {
                        break if reconnect {
                            Over::Dropped(format!("the site ended the session: {reason}"))
                        } else {
                            Over::Refused(reason)
                        };
                    }
                }
            }
            Message::Close(_) => break Over::Dropped("the site closed the connection".into()),
            _ => {}
        }
    };
    if let Some(m) = current.take() {
        let how = match over {
            Over::Dropped(_) => Some("the connection dropped during it"),
            Over::Interrupted => Some("stopped by Ctrl-C during it"),
            _ => None,
        };
        if let Some(how) = how {
            println!(
                "match {}: {how}, which counts as the bot's crash (in a ranked match, a loss)",
                m.offer.match_id
            );
        }
        m.kill().await;
    }
    let _ = sender
        .out
        .send(Outgoing {
            due: Instant::now(),
            message: Message::Close(None),
        })
        .await;
    drop(sender);
    let _ = tokio::time::timeout(Duration::from_secs(2), writer).await;
    over
}

/// The way to the site, with the delay asked for.
#[derive(Clone)]
struct Sender {
    out: mpsc::Sender<Outgoing>,
    delay: Duration,
}

impl Sender {
    async fn send(&self, message: Message) {
        let due = Instant::now() + self.delay;
        let _ = self.out.send(Outgoing { due, message }).await;
    }

    async fn text(&self, m: &ClientMessage) {
        let text = serde_json::to_string(m).unwrap_or_default();
        self.send(Message::Text(text.into())).await;
    }

    async fn bytes(&self, stream: u8, bytes: &[u8]) {
        let mut frame = Vec::with_capacity(bytes.len() + 1);
        frame.push(stream);
        frame.extend_from_slice(bytes);
        self.send(Message::Binary(frame.into())).await;
    }
}

/// One match's bot process here.
struct Match {
    offer: Offer,
    child: Child,
    /// The bot's input, written by a task of its own: a bot that does not read blocks
    /// only that task, never the session (its pings, its end).
    stdin: Option<mpsc::UnboundedSender<Vec<u8>>>,
    /// The readers of its output and errors, until each is done.
    readers: Vec<Option<tokio::task::JoinHandle<()>>>,
    exited: bool,
}

impl Match {
    /// Starts the bot for `offer` and accepts the match.
    async fn start(
        offer: Offer,
        url: &str,
        options: &Options,
        sender: &Sender,
    ) -> anyhow::Result<Match> {
        let opponents: Vec<&str> = (offer.players.iter().enumerate())
            .filter(|(i, _)| *i != offer.seat)
            .map(|(_, p)| p.as_str())
            .collect();
        println!(
            "match {} ({}{}, {} on {}, seat {} of {}, against {}): {url}",
            offer.match_id,
            offer.game,
            if offer.practice {
                ", practice"
            } else if offer.ranked {
                ", ranked"
            } else {
                ""
            },
            offer.args.join(" "),
            offer.map,
            offer.seat + 1,
            offer.players.len(),
            opponents.join(", "),
        );
        let mut command = Command::new(&options.command[0]);
        command
            .args(&options.command[1..])
            .args(&offer.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .kill_on_drop(true);
        let mut child = match command.spawn() {
            Ok(c) => c,
            Err(e) => {
                sender
                    .text(&ClientMessage::Decline {
                        id: offer.id,
                        reason: format!("the bot could not be started: {e}"),
                    })
                    .await;
                bail!(
                    "the bot's command `{}` could not be started: {e}; the match was declined, which counts as a no-show",
                    options.command[0]
                );
            }
        };
        sender.text(&ClientMessage::Accept { id: offer.id }).await;
        let stdout = child.stdout.take().context("the bot's output")?;
        let stderr = child.stderr.take().context("the bot's errors")?;
        let readers = vec![
            Some(tokio::spawn(carry(stdout, STDOUT, sender.clone(), false))),
            Some(tokio::spawn(carry(stderr, STDERR, sender.clone(), true))),
        ];
        Ok(Match {
            stdin: child
                .stdin
                .take()
                .map(|s| feed(s, offer.id, sender.clone())),
            offer,
            child,
            readers,
            exited: false,
        })
    }

    /// Bytes for the bot's input; none: its input ends.
    fn input(&mut self, bytes: &[u8]) {
        if bytes.is_empty() {
            self.stdin = None;
            return;
        }
        if let Some(stdin) = &self.stdin {
            if stdin.send(bytes.to_vec()).is_err() {
                self.stdin = None;
            }
        }
    }

    /// Kills the bot's whole process group at once.
    fn kill_now(&mut self) {
        if let Some(pid) = self.child.id() {
            // SAFETY: kill(2) on the process group of a child this process started.
            unsafe { libc::kill(-(pid as i32), libc::SIGKILL) };
        }
        let _ = self.child.start_kill();
    }

    /// Ends the bot: its input closed, a moment to exit, then killed.
    async fn kill(mut self) {
        self.stdin = None;
        if !self.exited
            && tokio::time::timeout(Duration::from_millis(200), self.child.wait())
                .await
                .is_err()
        {
            self.kill_now();
        }
        let _ = self.child.wait().await;
        for r in self.readers.into_iter().flatten() {
            r.abort();
        }
    }
}

/// Writes what comes for the bot's input to it, in order, until the session closes
/// it; tells the site when the bot closed it (writing failed).
fn feed(mut stdin: ChildStdin, id: uuid::Uuid, sender: Sender) -> mpsc::UnboundedSender<Vec<u8>> {
    let (tx, mut rx) = mpsc::unbounded_channel::<Vec<u8>>();
    tokio::spawn(async move {
        while let Some(bytes) = rx.recv().await {
            let written = async {
                stdin.write_all(&bytes).await?;
                stdin.flush().await
            };
            if written.await.is_err() {
                sender.text(&ClientMessage::InputClosed { id }).await;
                return;
            }
        }
    });
    tx
}

/// When the current bot exits (after what it wrote was sent): its code or signal.
async fn exit_of(current: &mut Option<Match>) -> Option<(Option<i32>, Option<i32>)> {
    let Some(m) = current.as_mut().filter(|m| !m.exited) else {
        return std::future::pending().await;
    };
    let status = m.child.wait().await.ok()?;
    // What it wrote goes first: its readers end with its streams (a descendant may
    // hold them open: not for long).
    for reader in &mut m.readers {
        if let Some(r) = reader {
            if tokio::time::timeout(Duration::from_millis(200), r)
                .await
                .is_ok()
            {
                *reader = None;
            }
        }
    }
    m.exited = true;
    use std::os::unix::process::ExitStatusExt;
    Some((status.code(), status.signal()))
}

/// Carries one of the bot's streams to the site as it comes (shown here too, for its
/// errors), then its end.
async fn carry(
    mut from: impl tokio::io::AsyncRead + Unpin,
    stream: u8,
    sender: Sender,
    show: bool,
) {
    let mut buf = vec![0u8; MAX_CHUNK];
    loop {
        let n = match from.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        if show {
            use std::io::Write;
            let mut err = std::io::stderr().lock();
            let _ = err.write_all(&buf[..n]);
            let _ = err.flush();
        }
        sender.bytes(stream, &buf[..n]).await;
    }
    sender.bytes(stream, &[]).await;
}

/// Prints how a match ended.
fn report(e: &Ending, url: &str) {
    if e.status != "finished" {
        println!(
            "match {}: void, it does not count ({}): {url}",
            e.match_id,
            e.reason.as_deref().unwrap_or("no reason given")
        );
        return;
    }
    let rank = e.ranks.get(e.seat).copied().unwrap_or(0);
    let mut line = format!(
        "match {}: {}, rank {rank} of {} in {} turns",
        e.match_id,
        e.outcome.as_deref().unwrap_or("over"),
        e.ranks.len(),
        e.turns.unwrap_or(0)
    );
    if let Some(l) = &e.latency {
        line.push_str(&format!(
            "; reply time on the site's clock (network included) over {} moves: median {} ms, p90 {} ms, max {} ms",
            l.moves, l.median_ms, l.p90_ms, l.max_ms
        ));
    }
    if e.timeouts > 0 {
        line.push_str(&format!("; {} timeout(s)", e.timeouts));
    }
    if let Some(err) = &e.error {
        line.push_str(&format!("; removed: {err}"));
    }
    println!("{line}: {url}");
}
