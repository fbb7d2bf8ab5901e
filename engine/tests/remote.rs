//! Remote seats (`engine::remote`): a seat whose bytes are carried elsewhere plays as a
//! hosted seat does, its replies get the seat's allowance on top of the game's time,
//! and a lost connection is said as such. The far end here is a thread per pipe that
//! carries the bytes to a local process, as the server's connection does to the
//! contestant's machine.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::Arc;
use std::time::Duration;

use bottlebats::map::Map;
use engine::process::{BotProcess, BotSpec, LocalLauncher};
use engine::remote::{seat, SeatEnds, Seats};
#[path = "support/bottlebats.rs"]
mod bottlebats_match;
use bottlebats_match::{run_match, MatchResult};
use engine::MatchConfig;

const MAP: &str = include_str!("line.map");

fn fixture(mode: &str) -> String {
    format!(
        "/usr/bin/python3 {}/tests/bots/fixture.py {mode}",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn workdir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("remote-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn config() -> MatchConfig {
    MatchConfig {
        max_turns: 30,
        turn_timeout: Duration::from_millis(400),
        startup_timeout: Duration::from_millis(3000),
        ..MatchConfig::default()
    }
}

/// Copies `from` to `to` until `from` ends (or after `limit` bytes, when given: a
/// connection that drops), then drops both.
fn carry(mut from: impl Read + Send + 'static, mut to: impl Write + Send + 'static) {
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = from.read(&mut buf) {
            if n == 0 || to.write_all(&buf[..n]).and_then(|()| to.flush()).is_err() {
                break;
            }
        }
    });
}

/// A remote seat carried to a local process running `command NAME`. With `drop_after`
/// the connection is lost once that many states were carried.
fn remote_bot(
    name: &str,
    command: &str,
    allowance: Duration,
    drop_after: Option<usize>,
) -> Box<dyn BotProcess> {
    let pid = Arc::new(AtomicI32::new(0));
    let to_kill = pid.clone();
    let (process, ends) = seat(
        allowance,
        Box::new(move || {
            let pid = to_kill.load(Ordering::SeqCst);
            if pid > 0 {
                // SAFETY: kill(2) on the child this test started.
                unsafe { libc::kill(pid, libc::SIGKILL) };
            }
        }),
    )
    .unwrap();
    let SeatEnds {
        input,
        output,
        errors,
        status,
    } = ends;
    let mut child = Command::new("/bin/sh")
        .arg("-c")
        .arg(format!("exec {command} {name}"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    pid.store(child.id() as i32, Ordering::SeqCst);
    let stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    carry(child.stderr.take().unwrap(), std::fs::File::from(errors));
    match drop_after {
        None => {
            carry(std::fs::File::from(input), stdin);
            carry(stdout, std::fs::File::from(output));
            std::thread::spawn(move || {
                use std::os::unix::process::ExitStatusExt;
                let exit = child.wait().unwrap();
                status.exited(exit.into_raw());
            });
        }
        Some(states) => {
            // Reads states until the `states`-th has been carried, then the
            // connection is gone: every end dropped, the bot left running here.
            std::thread::spawn(move || {
                let (mut input, mut stdin) = (std::fs::File::from(input), stdin);
                let mut output = std::fs::File::from(output);
                let mut stdout = stdout;
                let mut seen = 0;
                let mut buf = [0u8; 4096];
                while seen < states {
                    let n = input.read(&mut buf).unwrap();
                    stdin.write_all(&buf[..n]).unwrap();
                    // Three sections a state, each ending with `:` on its header line.
                    seen += buf[..n].windows(8).filter(|w| w == b"marches:").count();
                    let n = stdout.read(&mut buf).unwrap();
                    output.write_all(&buf[..n]).unwrap();
                }
                status.gone("the connection to the remote bot was lost");
                drop((input, output, child));
            });
        }
    }
    Box::new(process)
}

fn play(
    test: &str,
    alice: Option<Box<dyn BotProcess>>,
    modes: (&str, &str),
    config: &MatchConfig,
) -> MatchResult {
    let dir = workdir(test);
    let specs = [("alice", modes.0), ("bob", modes.1)].map(|(name, mode)| BotSpec {
        name: name.to_string(),
        command: fixture(mode),
        dir: dir.clone(),
    });
    let remote: HashMap<String, Box<dyn BotProcess>> = alice
        .map(|p| ("alice".to_string(), p))
        .into_iter()
        .collect();
    let launcher = Seats::new(&LocalLauncher, remote);
    let map = Arc::new(Map::parse(MAP).unwrap());
    run_match(map, &specs, &launcher, config, &mut |_| true).unwrap()
}

fn classic_log(r: &MatchResult) -> String {
    let mut log = Vec::new();
    r.replay.write_classic_log(&mut log).unwrap();
    String::from_utf8(log).unwrap()
}

#[test]
fn a_remote_seat_plays_the_moves_a_hosted_one_plays() {
    let hosted = play("hosted", None, ("greedy", "greedy"), &config());
    let alice = remote_bot("alice", &fixture("greedy"), Duration::ZERO, None);
    let remote = play("remote", Some(alice), ("greedy", "greedy"), &config());
    assert_eq!(classic_log(&remote), classic_log(&hosted));
    assert_eq!(remote.outcome, hosted.outcome);
    assert!(remote.players[0].error.is_none(), "{:?}", remote.players[0]);
    assert!(
        !remote.players[0].cpu_measured,
        "a remote seat is timed on the wall clock"
    );
}

#[test]
fn a_remote_reply_has_the_allowance_on_top_of_the_games_time() {
    // Alice sleeps a second at turn 3; the turn has 400 ms.
    let mode = ("marked 3", "idle");
    let without = remote_bot("alice", &fixture(mode.0), Duration::ZERO, None);
    let r = play("no-allowance", Some(without), mode, &config());
    // Late at turn 3, and still behind at turn 4.
    assert!(r.players[0].timeouts >= 1, "{:?}", r.players[0]);
    let with = remote_bot("alice", &fixture(mode.0), Duration::from_millis(900), None);
    let r = play("allowance", Some(with), mode, &config());
    assert_eq!(r.players[0].timeouts, 0, "{:?}", r.players[0]);
    assert!(r.players[0].error.is_none(), "{:?}", r.players[0]);
}

#[test]
fn a_lost_connection_is_a_crash_that_says_so() {
    let alice = remote_bot("alice", &fixture("idle"), Duration::ZERO, Some(5));
    let r = play("dropped", Some(alice), ("idle", "idle"), &config());
    let error = r.players[0].error.clone().unwrap_or_default();
    assert!(
        error.contains("the connection to the remote bot was lost"),
        "{error}"
    );
    let removed = r.replay.result.as_ref().unwrap().removed[0];
    assert_eq!(removed, Some(5), "removed in the turn it was lost");
    assert_eq!(r.outcome.ranks, vec![2, 1]);
}
