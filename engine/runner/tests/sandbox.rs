//! The sandbox against hostile bots. Each hostile bot (a mode of
//! `tests/bots/hostile.py`) plays a short game against a normal one through
//! `run_match` with the sandbox launcher, and each test checks that:
//!
//! - the game finishes (every turn, or the hostile bot removed);
//! - the hostile bot is charged with a clear reason where it broke a rule (timeout,
//!   crash, limit), and not charged where it only tried to learn or break something
//!   and failed (its probes, reported on stderr, all failed);
//! - the other bot is unaffected;
//! - the runner's memory stays bounded;
//! - no process of the sandbox's uids is left, and no cgroup.
//!
//! The tests share the machine's cgroups and a pool of uids, so they run one at a
//! time, also across processes (two `cargo test` at once), behind [`Serial`]: that
//! makes the "nothing is left" checks exact. They use their own uid range and lock
//! folder, apart from the server's default pool.
//!
//! They need what `bottlebats doctor` calls a complete sandbox (root, bwrap, cgroups)
//! and fail with its table where it is not.

use std::collections::BTreeMap;
use std::io::Read;
use std::net::{TcpListener, TcpStream, UdpSocket};
use std::os::fd::AsRawFd;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::UnixListener;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Once};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use engine::map::Map;
use runner::process::{all_processes, proc_uid, BotSpec};
use runner::sandbox::{Cgroups, Limits, Sandbox, SandboxConfig};
use runner::{run_match, MatchConfig, MatchResult, PlayerReport};

/// The uids these tests run bots as: not the server's default pool (61000..61063),
/// so that a server running on this machine meanwhile is neither disturbed nor seen.
const UID_BASE: u32 = 61_900;
const SLOTS: u32 = 8;
const MIB: u64 = 1024 * 1024;

/// Seats: the normal bot plays first, the hostile one second.
const PEER: usize = 0;
const HOSTILE: usize = 1;

/// What the runner's environment holds that no bot may see.
const ENV_SECRET: &str = "env-secret-7f3a9c";
const DB_PASSWORD: &str = "db-password-51e2d0";

const MAP: &str = "\
4 forts:
a 0 0 p1 100
b 3 4 neutral 10
c 6 8 neutral 10
d 9 12 p2 100
3 roads:
a b
b c
c d
0 marches:
";

/// Held for the whole of one test: a lock within this process, and a lock file for
/// other processes running these tests.
struct Serial {
    _file: std::fs::File,
    _guard: MutexGuard<'static, ()>,
}

fn serial() -> Serial {
    static SERIAL: Mutex<()> = Mutex::new(());
    let guard = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let file = std::fs::File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(tmp().join("sandbox-tests.lock"))
        .unwrap();
    // SAFETY: flock on a descriptor we own; released when the file is closed.
    assert_eq!(unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) }, 0);
    Serial {
        _file: file,
        _guard: guard,
    }
}

fn tmp() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
}

fn bots_src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots")
}

fn chmod(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// Copies `files` of `tests/bots` into a fresh folder `dir` (0755, files 0644): the
/// layout of an uploaded bot.
fn bot_folder(dir: &Path, files: &[&str]) {
    std::fs::create_dir_all(dir).unwrap();
    chmod(dir, 0o755);
    for f in files {
        let to = dir.join(f);
        std::fs::copy(bots_src().join(f), &to).unwrap();
        chmod(&to, 0o644);
    }
}

/// The folders of one test, under a root only root may enter (0700): the sandbox must
/// reach the bot folders through it by descriptor, as the slot uid cannot walk there.
struct Arena {
    root: PathBuf,
    /// The hostile bot's folder.
    hostile: PathBuf,
    /// The normal bot's folder, with a secret in it.
    peer: PathBuf,
    /// Stands for the server's data folder, with a secret in it.
    data: PathBuf,
    _serial: Serial,
}

fn arena(test: &str) -> Arena {
    arena_with_root_mode(test, 0o700)
}

/// An arena any uid may walk and read: then only the sandbox keeps the bot from the
/// other folders, not their modes.
fn open_arena(test: &str) -> Arena {
    arena_with_root_mode(test, 0o755)
}

fn arena_with_root_mode(test: &str, mode: u32) -> Arena {
    let serial = serial();
    let root = tmp().join("sandbox").join(test);
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).unwrap();
    chmod(&root, mode);
    let hostile = root.join("hostile");
    bot_folder(&hostile, &["hostile.py"]);
    let peer = root.join("peer");
    bot_folder(&peer, &["fixture.py"]);
    std::fs::write(peer.join("secret.txt"), format!("peer-secret-{test}\n")).unwrap();
    chmod(&peer.join("secret.txt"), 0o644);
    let data = root.join("data");
    std::fs::create_dir_all(&data).unwrap();
    chmod(&data, 0o755);
    std::fs::write(data.join("secret.txt"), format!("data-secret-{test}\n")).unwrap();
    chmod(&data.join("secret.txt"), 0o644);
    Arena {
        root,
        hostile,
        peer,
        data,
        _serial: serial,
    }
}

fn sandbox() -> Arc<Sandbox> {
    let sandbox = Sandbox::new(SandboxConfig {
        uid_base: UID_BASE,
        slots: SLOTS,
        lock_dir: tmp().join("sandbox-locks"),
        ..SandboxConfig::default()
    });
    assert!(
        sandbox.is_complete(),
        "these tests need every protection of the sandbox: {:#?}",
        sandbox.protections()
    );
    Arc::new(sandbox)
}

fn config(max_steps: u32) -> MatchConfig {
    MatchConfig {
        max_steps,
        turn_timeout: Duration::from_millis(300),
        startup_timeout: Duration::from_millis(3000),
        ..MatchConfig::default()
    }
}

/// Puts secrets into the runner's environment, as a server's configuration would.
fn plant_env_secrets() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        std::env::set_var("BOTTLEBATS_SECRET", ENV_SECRET);
        std::env::set_var(
            "DATABASE_URL",
            format!("postgres://bottlebats:{DB_PASSWORD}@localhost/bottlebats"),
        );
    });
}

fn vm_rss() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let kib: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap();
    kib * 1024
}

/// Live processes running as one of the test uids.
fn slot_processes() -> Vec<(i32, u32)> {
    all_processes()
        .into_iter()
        .filter(|p| p.state != b'Z')
        .filter_map(|p| Some((p.pid, proc_uid(p.pid)?)))
        .filter(|&(_, uid)| (UID_BASE..UID_BASE + SLOTS).contains(&uid))
        .collect()
}

/// The folders under which the sandbox makes bot cgroups, pids hierarchy first.
fn cgroup_bases() -> Vec<PathBuf> {
    match Cgroups::detect() {
        Ok(Cgroups::V1 {
            memory,
            pids,
            cpuacct,
            cpu,
        }) => [pids, memory, cpuacct].into_iter().chain(cpu).collect(),
        Ok(Cgroups::V2 { base }) => vec![base],
        Err(_) => Vec::new(),
    }
}

/// Cgroup folders of the test slots that still exist.
fn slot_cgroups(bases: &[PathBuf]) -> Vec<PathBuf> {
    bases
        .iter()
        .flat_map(|b| (UID_BASE..UID_BASE + SLOTS).map(move |uid| b.join(format!("slot-{uid}"))))
        .filter(|d| d.exists())
        .collect()
}

/// Tasks in the test slots' cgroups, as the pids controller counts them: unlike a scan
/// of /proc, it cannot miss a process that changes its pid meanwhile.
fn slot_tasks(bases: &[PathBuf]) -> u64 {
    slot_cgroups(&bases[..1])
        .iter()
        .filter_map(|d| std::fs::read_to_string(d.join("pids.current")).ok())
        .filter_map(|n| n.trim().parse::<u64>().ok())
        .sum()
}

/// A played game, the time at which each turn started, and how many tasks the bots'
/// cgroups had then.
struct Played {
    r: MatchResult,
    turn_started: Vec<Instant>,
    tasks: Vec<u64>,
    wall: Duration,
}

impl Played {
    fn hostile(&self) -> &PlayerReport {
        &self.r.players[HOSTILE]
    }

    fn stderr(&self, player: usize) -> String {
        self.r.players[player]
            .stderr
            .iter()
            .map(|(_, b)| String::from_utf8_lossy(b).into_owned())
            .collect()
    }

    fn error(&self) -> String {
        self.hostile().error.clone().unwrap_or_default()
    }

    fn removed_at(&self) -> Option<u32> {
        self.r.replay.result.as_ref().unwrap().removed[HOSTILE]
    }

    /// Texts of the replay's `limits` events of the hostile bot.
    fn limit_events(&self) -> Vec<String> {
        self.r
            .replay
            .turns
            .iter()
            .flat_map(|t| &t.events.limits)
            .filter(|(p, _)| *p == HOSTILE)
            .map(|(_, text)| text.clone())
            .collect()
    }

    /// Turns in which the hostile bot timed out.
    fn timeout_turns(&self) -> Vec<usize> {
        (self.r.replay.turns.iter().enumerate())
            .filter(|(_, t)| t.events.timeouts.contains(&HOSTILE))
            .map(|(i, _)| i)
            .collect()
    }

    /// How long turn `turn` took on the wall clock.
    fn turn_wall(&self, turn: usize) -> Duration {
        self.turn_started[turn + 1] - self.turn_started[turn]
    }

    /// The hostile bot's probes: (what, succeeded, whole line).
    fn probes(&self) -> Vec<(String, bool, String)> {
        let said = self.stderr(HOSTILE);
        assert!(
            said.contains("probes done"),
            "the hostile bot did not finish its probes; it said:\n{said}"
        );
        said.lines()
            .filter_map(|l| l.strip_prefix("probe "))
            .map(|l| {
                let (what, result) = l.split_once(": ").unwrap();
                (what.to_string(), result.starts_with("ok"), l.to_string())
            })
            .collect()
    }

    /// Checks that every probe failed, and that `expected` were among them.
    fn assert_every_probe_failed(&self, expected: &[&str]) {
        let probes = self.probes();
        for e in expected {
            assert!(
                probes.iter().any(|(what, _, _)| what == e),
                "no probe `{e}` in {probes:#?}"
            );
        }
        let succeeded: Vec<&String> = probes.iter().filter(|p| p.1).map(|p| &p.2).collect();
        assert!(
            succeeded.is_empty(),
            "probes that succeeded: {succeeded:#?}"
        );
    }

    /// The game ran to its end, or until the hostile bot was removed.
    fn assert_finished(&self, max_steps: u32) {
        let result = self
            .r
            .replay
            .result
            .as_ref()
            .expect("the game has a result");
        assert!(
            result.turns == max_steps || self.removed_at().is_some(),
            "the game stopped after {} of {max_steps} turns with nobody removed",
            result.turns
        );
        assert_eq!(self.r.replay.turns.len() as u32, result.turns + 1);
    }

    /// The normal bot noticed nothing.
    fn assert_peer_unaffected(&self) {
        let peer = &self.r.players[PEER];
        assert_eq!(
            peer.error,
            None,
            "the other bot was charged; it said: {}",
            self.stderr(PEER)
        );
        assert_eq!(peer.timeouts, 0, "the other bot timed out");
        assert_eq!(peer.late_replies, 0);
        assert!(peer.incidents.is_empty(), "{:?}", peer.incidents);
        assert!(peer.cpu_measured, "the other bot's CPU time was measured");
        let peer_said = self.stderr(PEER);
        assert!(peer_said.is_empty(), "the other bot said: {peer_said}");
        assert!(self.r.replay.turns.iter().all(|t| t
            .events
            .limits
            .iter()
            .all(|(p, _)| *p != PEER)));
    }

    /// The hostile bot broke no rule: it played every turn without being charged.
    fn assert_hostile_not_charged(&self, max_steps: u32) {
        let h = self.hostile();
        assert_eq!(h.error, None, "stderr: {}", self.stderr(HOSTILE));
        assert_eq!(h.timeouts, 0, "stderr: {}", self.stderr(HOSTILE));
        assert!(h.incidents.is_empty(), "{:?}", h.incidents);
        assert_eq!(self.r.replay.result.as_ref().unwrap().turns, max_steps);
    }
}

/// Plays the normal bot (`fixture.py PEER_MODE`) against `hostile.py MODE_AND_ARGS` in
/// the sandbox, and checks what holds for every game: the runner's memory stayed
/// bounded and nothing of the bots is left.
fn play(
    arena: &Arena,
    peer_mode: &str,
    hostile: &str,
    limits: Limits,
    config: &MatchConfig,
) -> Played {
    let sandbox = sandbox();
    let launcher = sandbox.launcher(limits);
    let specs = [
        BotSpec {
            name: "peer".into(),
            command: format!("/usr/bin/python3 fixture.py {peer_mode}"),
            dir: arena.peer.clone(),
        },
        BotSpec {
            name: "hostile".into(),
            command: format!("/usr/bin/python3 hostile.py {hostile}"),
            dir: arena.hostile.clone(),
        },
    ];
    let map = Arc::new(Map::parse(MAP).unwrap());
    let bases = cgroup_bases();
    let rss_before = vm_rss();
    let started = Instant::now();
    let mut turn_started = Vec::new();
    let mut tasks = Vec::new();
    let r = run_match(map, &specs, &launcher, config, &mut |_| {
        turn_started.push(Instant::now());
        tasks.push(slot_tasks(&bases));
        true
    })
    .unwrap();
    turn_started.push(Instant::now());
    let wall = started.elapsed();
    let rss_after = vm_rss();
    assert!(
        rss_after < rss_before + 100 * MIB,
        "the runner grew from {} to {} MiB",
        rss_before / MIB,
        rss_after / MIB
    );
    let left = slot_processes();
    assert!(left.is_empty(), "processes left after the game: {left:?}");
    drop(launcher);
    drop(sandbox);
    let cgroups = slot_cgroups(&bases);
    assert!(
        cgroups.is_empty(),
        "cgroups left after the game: {cgroups:?}"
    );
    let h = &r.players[HOSTILE];
    eprintln!(
        "{hostile}: {wall:?}, {} turns; error {:?}, {} timeouts, incidents {:?}, \
         runner RSS {} -> {} MiB",
        r.replay.result.as_ref().map_or(0, |x| x.turns),
        h.error,
        h.timeouts,
        h.incidents,
        rss_before / MIB,
        rss_after / MIB
    );
    let played = Played {
        r,
        turn_started,
        tasks,
        wall,
    };
    played.assert_finished(config.max_steps);
    played.assert_peer_unaffected();
    played
}

fn game_limits() -> Limits {
    Limits::game()
}

/// Accepts connections on a socket in a thread until stopped; counts them.
struct Watcher {
    stop: Arc<AtomicBool>,
    seen: Arc<AtomicU32>,
    thread: Option<JoinHandle<()>>,
}

impl Watcher {
    fn tcp(listener: TcpListener) -> Watcher {
        listener.set_nonblocking(true).unwrap();
        Watcher::start(move || listener.accept().is_ok())
    }

    fn unix(listener: UnixListener) -> Watcher {
        listener.set_nonblocking(true).unwrap();
        Watcher::start(move || listener.accept().is_ok())
    }

    fn start(accept: impl Fn() -> bool + Send + 'static) -> Watcher {
        let stop = Arc::new(AtomicBool::new(false));
        let seen = Arc::new(AtomicU32::new(0));
        let (s, n) = (stop.clone(), seen.clone());
        let thread = std::thread::spawn(move || {
            while !s.load(Ordering::SeqCst) {
                if accept() {
                    n.fetch_add(1, Ordering::SeqCst);
                } else {
                    std::thread::sleep(Duration::from_millis(5));
                }
            }
        });
        Watcher {
            stop,
            seen,
            thread: Some(thread),
        }
    }

    /// Connections seen so far, waiting a moment for any in flight.
    fn seen(&self) -> u32 {
        std::thread::sleep(Duration::from_millis(50));
        self.seen.load(Ordering::SeqCst)
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// This machine's first non-loopback IPv4 address, if it has one (no packet is sent).
fn host_address() -> Option<std::net::IpAddr> {
    let s = UdpSocket::bind("0.0.0.0:0").ok()?;
    s.connect("192.0.2.1:9").ok()?;
    let ip = s.local_addr().ok()?.ip();
    (!ip.is_loopback() && !ip.is_unspecified()).then_some(ip)
}

// --- Rules broken: the hostile bot is charged ------------------------------------

#[test]
fn a_fork_bomb_hits_the_process_limit_and_harms_no_one_else() {
    let arena = arena("fork_bomb");
    let g = play(&arena, "greedy", "fork_bomb", game_limits(), &config(10));
    let h = g.hostile();
    let reason = "hit its limit of 64 processes";
    assert_eq!(h.incidents, [reason], "stderr: {}", g.stderr(HOSTILE));
    assert_eq!(g.limit_events(), [reason], "reported once, in the replay");
    // The other bot's three processes (bwrap, its init, the bot), and the bomb up to
    // its limit (its bwrap counts too), never beyond.
    assert!(g.tasks.iter().all(|&n| n <= 3 + 64), "{:?}", g.tasks);
}

#[test]
fn allocating_2_gib_is_stopped_by_the_memory_limit() {
    let arena = arena("memory");
    let limits = Limits {
        memory: 256 * MIB,
        ..game_limits()
    };
    // Touching 256 MiB before the kill takes CPU time: a second for the turn.
    let config = MatchConfig {
        turn_timeout: Duration::from_millis(1000),
        ..config(10)
    };
    let g = play(&arena, "idle", "memory", limits, &config);
    assert_eq!(g.removed_at(), Some(1), "removed in the turn it allocated");
    assert_eq!(g.hostile().timeouts, 0);
    let reason = "killed for going over its memory limit of 256 MiB";
    assert!(
        g.error().contains(reason),
        "error `{}` should mention the memory limit",
        g.error()
    );
    assert!(g.error().contains("its output ended"), "{}", g.error());
    assert!(g.hostile().incidents.iter().any(|i| i == reason));
    assert!(
        g.limit_events().iter().any(|i| i == reason),
        "limits events: {:?}",
        g.limit_events()
    );
    assert!(!g.stderr(HOSTILE).contains("allocated"));
}

#[test]
fn a_busy_loop_times_out_on_cpu_time_long_before_the_wall_clock_cap() {
    let arena = arena("busy");
    // A wall-clock cap of 10 × 300 ms: a timeout well before 3 s was decided by CPU time.
    let config = MatchConfig {
        max_consecutive_timeouts: 3,
        wall_factor: 10,
        ..config(10)
    };
    let g = play(&arena, "idle", "busy", game_limits(), &config);
    let h = g.hostile();
    assert_eq!(h.timeouts, 3);
    assert_eq!(g.timeout_turns(), [1, 2]);
    assert!(g
        .error()
        .contains("unresponsive: no reply within 300 ms for 3 turns in a row"));
    assert_eq!(g.removed_at(), Some(3));
    assert!(h.cpu_measured);
    for turn in 1..=3 {
        assert!(
            g.turn_wall(turn) < Duration::from_millis(2000),
            "turn {turn} took {:?}: not stopped by CPU time",
            g.turn_wall(turn)
        );
    }
}

#[test]
fn a_bot_sleeping_forever_times_out_at_the_wall_clock_cap() {
    let arena = arena("sleep");
    let config = MatchConfig {
        turn_timeout: Duration::from_millis(200),
        max_consecutive_timeouts: 3,
        ..config(10)
    };
    let g = play(&arena, "idle", "sleep", game_limits(), &config);
    assert_eq!(g.hostile().timeouts, 3);
    assert!(g.error().contains("unresponsive"), "{}", g.error());
    assert_eq!(g.removed_at(), Some(3));
    for turn in 1..=3 {
        // Asleep, it uses no CPU: the cap of 3 × 200 ms stops each turn.
        let took = g.turn_wall(turn);
        assert!(
            took >= Duration::from_millis(600) && took < Duration::from_millis(1500),
            "turn {turn} took {took:?}"
        );
    }
}

#[test]
fn a_bot_closing_its_stdout_is_removed_at_once() {
    let arena = arena("close_stdout");
    let g = play(&arena, "idle", "close_stdout", game_limits(), &config(10));
    assert_eq!(g.removed_at(), Some(1));
    assert!(
        g.error()
            .contains("its output ended while the bot kept running"),
        "{}",
        g.error()
    );
    // Seen at once: bwrap, between the runner and the bot, does not hold its pipes.
    assert_eq!(g.hostile().timeouts, 0);
    assert!(g.wall < Duration::from_secs(2), "{:?}", g.wall);
}

#[test]
fn a_bot_closing_its_stdin_is_removed_at_once() {
    let arena = arena("close_stdin");
    let g = play(&arena, "idle", "close_stdin", game_limits(), &config(10));
    assert_eq!(g.removed_at(), Some(2), "seen when the next state is sent");
    assert!(g.error().contains("it closed its input"), "{}", g.error());
    assert_eq!(g.hostile().timeouts, 0);
    assert!(g.wall < Duration::from_secs(2), "{:?}", g.wall);
}

#[test]
fn a_gigabyte_on_stdout_without_newlines_is_a_fast_fatal_error() {
    let arena = arena("stdout_flood");
    let g = play(&arena, "idle", "stdout_flood", game_limits(), &config(10));
    assert_eq!(g.removed_at(), Some(1));
    assert!(
        g.error().contains("wrote a line longer than 65536 bytes"),
        "{}",
        g.error()
    );
    assert_eq!(g.hostile().timeouts, 0);
    assert!(g.wall < Duration::from_secs(2), "{:?}", g.wall);
}

// --- Harm attempted: it fails, and the bot plays on uncharged ------------------

#[test]
fn a_gigabyte_on_stderr_is_drained_capped_and_counted() {
    let arena = arena("stderr_flood");
    let g = play(
        &arena,
        "idle",
        "stderr_flood 1024",
        game_limits(),
        &config(10),
    );
    g.assert_hostile_not_charged(10);
    let h = g.hostile();
    // It came before the first reply: 64 KiB are kept for that turn, and the tail
    // still in the pipe when the reply came (at most a pipe's 64 KiB) for the next.
    assert_eq!(h.stderr[0], (0, vec![b'e'; 64 * 1024]));
    assert!(
        h.stderr.len() <= 2,
        "{:?}",
        h.stderr.iter().map(|(t, b)| (t, b.len()))
    );
    let kept: u64 = h.stderr.iter().map(|(_, b)| b.len() as u64).sum();
    assert!(h.stderr.iter().all(|(_, b)| b.iter().all(|&c| c == b'e')));
    assert_eq!(
        kept + h.stderr_dropped,
        1024 * MIB,
        "every byte read and counted"
    );
    assert!(g.wall < Duration::from_secs(10), "took {:?}", g.wall);
}

#[test]
fn filling_the_scratch_fails_with_enospc_and_the_bot_plays_on() {
    let arena = arena("fill_scratch");
    // Filling 64 MiB of tmpfs takes about 0.2 s of CPU time.
    let config = MatchConfig {
        turn_timeout: Duration::from_millis(800),
        ..config(10)
    };
    let g = play(&arena, "greedy", "fill_scratch", game_limits(), &config);
    g.assert_hostile_not_charged(10);
    let said = g.stderr(HOSTILE);
    for folder in ["/tmp", "/dev/shm"] {
        let line = said
            .lines()
            .find(|l| l.starts_with(&format!("{folder} full after")))
            .unwrap_or_else(|| panic!("{folder} never filled: {said}"));
        assert!(line.ends_with(": ENOSPC"), "{line}");
        let mib: u64 = line.split_whitespace().nth(3).unwrap().parse().unwrap();
        assert!((56..=64).contains(&mib), "{line}: it holds 64 MiB");
    }
}

#[test]
fn the_network_is_unreachable_even_on_localhost() {
    let arena = arena("network");
    let listener = TcpListener::bind("0.0.0.0:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let watcher = Watcher::tcp(listener);
    let mut targets = format!("127.0.0.1:{port}");
    if let Some(ip) = host_address() {
        targets.push_str(&format!(" {ip}:{port}"));
    }
    let g = play(
        &arena,
        "idle",
        &format!("network {targets}"),
        game_limits(),
        &config(10),
    );
    g.assert_hostile_not_charged(10);
    g.assert_every_probe_failed(&[
        "tcp 127.0.0.1:5432",
        &format!("tcp 127.0.0.1:{port}"),
        "tcp [::1]:5432",
        "udp 8.8.8.8:53",
        "tcp 1.1.1.1:443",
        "dns example.com",
        "interfaces",
    ]);
    assert_eq!(watcher.seen(), 0, "the test's listener saw a connection");
    // The listener does see a connection from outside the sandbox.
    TcpStream::connect(("127.0.0.1", port)).unwrap();
    assert_eq!(watcher.seen(), 1);
}

#[test]
fn unix_sockets_of_the_host_are_unreachable() {
    let arena = arena("unix");
    // A socket where the bot's uid could connect to it, were it visible.
    let dir = tmp().join("sandbox-sockets");
    std::fs::create_dir_all(&dir).unwrap();
    chmod(&dir, 0o755);
    let path = dir.join(format!("s-{}.sock", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let listener = UnixListener::bind(&path).unwrap();
    chmod(&path, 0o777);
    let watcher = Watcher::unix(listener);
    // An abstract socket: it lives in the network namespace, not the filesystem.
    let abstract_name = format!("bottlebats-test-{}", std::process::id());
    let abstract_listener = {
        use std::os::linux::net::SocketAddrExt;
        let addr =
            std::os::unix::net::SocketAddr::from_abstract_name(abstract_name.as_bytes()).unwrap();
        UnixListener::bind_addr(&addr).unwrap()
    };
    let abstract_watcher = Watcher::unix(abstract_listener);
    let g = play(
        &arena,
        "idle",
        &format!("unix {} @{abstract_name}", path.display()),
        game_limits(),
        &config(10),
    );
    g.assert_hostile_not_charged(10);
    g.assert_every_probe_failed(&[
        "unix /var/run/postgresql/.s.PGSQL.5432",
        "unix /run/postgresql/.s.PGSQL.5432",
        &format!("unix {}", path.display()),
        &format!("unix @{abstract_name}"),
    ]);
    assert_eq!(watcher.seen(), 0);
    assert_eq!(abstract_watcher.seen(), 0);
    std::os::unix::net::UnixStream::connect(&path).unwrap();
    assert_eq!(watcher.seen(), 1, "the listener works from outside");
    let _ = std::fs::remove_file(&path);
}

#[test]
fn secrets_of_the_host_other_bots_and_the_runner_cannot_be_read() {
    plant_env_secrets();
    let arena = open_arena("secrets");
    let peer_secret = arena.peer.join("secret.txt");
    let data_secret = arena.data.join("secret.txt");
    let targets =
        [&arena.peer, &peer_secret, &arena.data, &data_secret].map(|p| p.display().to_string());
    // A descriptor the runner holds without close-on-exec, as one inherited from
    // whatever started it would be (a database connection, say).
    let secret_file = std::fs::File::open(&data_secret).unwrap();
    // SAFETY: F_DUPFD (no close-on-exec) of a descriptor this test owns; the copy is
    // closed below.
    let leaky = unsafe { libc::fcntl(secret_file.as_raw_fd(), libc::F_DUPFD, 20) };
    assert!(leaky >= 20);
    let g = play(
        &arena,
        "idle",
        &format!("read {} {}", targets.join(" "), arena.root.display()),
        game_limits(),
        &config(10),
    );
    g.assert_hostile_not_charged(10);
    let said = g.stderr(HOSTILE);
    for secret in [
        ENV_SECRET,
        DB_PASSWORD,
        "DATABASE_URL",
        "BOTTLEBATS_SECRET",
        "peer-secret",
        "data-secret",
    ] {
        assert!(!said.contains(secret), "`{secret}` leaked:\n{said}");
    }
    let probes = g.probes();
    let must_fail: Vec<String> = ["/etc/shadow", "/root", "/home"]
        .iter()
        .map(|p| format!("read {p}"))
        .chain(targets.iter().map(|t| format!("read {t}")))
        .collect();
    for what in &must_fail {
        let probe = probes.iter().find(|p| &p.0 == what);
        assert!(probe.is_some_and(|p| !p.1), "{what}: {probe:?}\n{said}");
    }
    // Of the folders around its own it sees only the path to it (made by bwrap).
    let root = format!("probe read {}: ", arena.root.display());
    let listed = said.lines().find_map(|l| l.strip_prefix(&root)).unwrap();
    assert_eq!(listed, "ok ['hostile']");
    // What it can see of processes is its own sandbox: a few pids, none of the host.
    let pids: Vec<i32> = said
        .lines()
        .find_map(|l| l.strip_prefix("visible pids "))
        .map(|l| serde_json::from_str(l).unwrap())
        .unwrap();
    assert!(pids.len() <= 3, "it sees pids {pids:?}");
    // No descriptor of the runner's reached it: a folder's would lead out of its view.
    assert!(said.contains("open fds [0, 1, 2]\n"), "{said}");
    // SAFETY: closing the descriptor made above.
    unsafe { libc::close(leaky) };
}

#[test]
fn nothing_outside_the_scratch_can_be_written() {
    let arena = arena("write");
    let g = play(
        &arena,
        "idle",
        &format!("write {} {}", arena.peer.display(), arena.data.display()),
        game_limits(),
        &config(10),
    );
    g.assert_hostile_not_charged(10);
    let own = arena.hostile.join("owned.txt").display().to_string();
    g.assert_every_probe_failed(&[
        &format!("write {own}"),
        "write /usr/owned.txt",
        "write /usr/bin/owned",
        "write /etc/owned.txt",
        "write /owned.txt",
        "write /work/owned.txt",
        "write /dev/owned",
        "write /proc/sys/kernel/hostname",
        "mkdir in own folder",
        "chmod own folder",
        "mount",
    ]);
    let names = |dir: &Path| -> Vec<String> {
        let mut n: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        n.sort();
        n
    };
    assert_eq!(names(&arena.hostile), ["hostile.py"]);
    assert_eq!(names(&arena.peer), ["fixture.py", "secret.txt"]);
    assert_eq!(names(&arena.data), ["secret.txt"]);
    assert_eq!(
        std::fs::metadata(&arena.hostile)
            .unwrap()
            .permissions()
            .mode()
            & 0o7777,
        0o755
    );
    for p in [
        "/usr/owned.txt",
        "/usr/bin/owned",
        "/etc/owned.txt",
        "/owned.txt",
    ] {
        assert!(!Path::new(p).exists(), "{p} was written");
    }
}

#[test]
fn a_double_forked_daemon_does_not_outlive_the_game() {
    let arena = arena("daemon");
    let g = play(&arena, "idle", "daemon", game_limits(), &config(10));
    g.assert_hostile_not_charged(10);
    assert!(
        g.stderr(HOSTILE).contains("daemon "),
        "{}",
        g.stderr(HOSTILE)
    );
    // It ran all game (each bot has three processes: bwrap, its init, the bot), and
    // `play` checked that no process of the slot uids is left.
    assert!(g.tasks[2..].iter().all(|&n| n >= 7), "{:?}", g.tasks);
}

#[test]
fn signals_reach_nothing_outside_the_bots_own_sandbox() {
    let arena = arena("signals");
    let runner = std::process::id();
    let config = MatchConfig {
        turn_timeout: Duration::from_millis(600),
        ..config(10)
    };
    let g = play(
        &arena,
        "greedy",
        &format!("signals {runner}"),
        game_limits(),
        &config,
    );
    g.assert_hostile_not_charged(10);
    let said = g.stderr(HOSTILE);
    let delivered: Vec<String> = said
        .lines()
        .find_map(|l| l.strip_prefix("signals delivered to "))
        .map(|l| serde_json::from_str(l).unwrap())
        .unwrap_or_else(|| panic!("no report: {said}"));
    // Inside its PID namespace only its own sandbox's init (pid 1) can be named;
    // the kernel drops signals to it that it does not handle.
    assert!(
        delivered.iter().all(|p| p == "1"),
        "signals delivered to {delivered:?}"
    );
}

// --- What a bot sees, and how it is timed ---------------------------------------

#[test]
fn the_environment_holds_only_path_home_and_lang() {
    plant_env_secrets();
    let arena = arena("env");
    let g = play(&arena, "idle", "env", game_limits(), &config(3));
    g.assert_hostile_not_charged(3);
    let said = g.stderr(HOSTILE);
    let env: BTreeMap<String, String> = said
        .lines()
        .find_map(|l| l.strip_prefix("environment "))
        .map(|l| serde_json::from_str(l).unwrap())
        .unwrap_or_else(|| panic!("no environment: {said}"));
    assert_eq!(env["PATH"], "/usr/local/bin:/usr/bin:/bin");
    assert_eq!(env["HOME"], "/tmp");
    assert_eq!(env["LANG"], "C.UTF-8");
    let extra: Vec<&String> = env
        .keys()
        .filter(|k| !["PATH", "HOME", "LANG", "PWD", "SHLVL", "_", "OLDPWD"].contains(&k.as_str()))
        .collect();
    assert!(
        extra.is_empty(),
        "unexpected variables {extra:?} in {env:?}"
    );
    if let Some(pwd) = env.get("PWD") {
        assert_eq!(Path::new(pwd), arena.hostile);
    }
}

#[test]
fn a_bot_folder_behind_a_path_others_cannot_walk_is_bound_by_descriptor() {
    let arena = arena("fd_bind");
    let mode = std::fs::metadata(&arena.root).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o700, "the arena is closed to the slot uids");
    let g = play(&arena, "idle", "env", game_limits(), &config(3));
    g.assert_hostile_not_charged(3);
}

#[test]
fn cpu_time_is_measured_and_sleeping_a_second_is_no_timeout() {
    let arena = arena("sleep_each_turn");
    let config = MatchConfig {
        turn_timeout: Duration::from_millis(500),
        ..config(3)
    };
    let g = play(&arena, "idle", "sleep_each_turn", game_limits(), &config);
    // Asleep 1 s a turn: under the 500 ms of CPU time, under the 1.5 s wall cap.
    g.assert_hostile_not_charged(3);
    let h = g.hostile();
    assert!(h.cpu_measured);
    for turn in 1..3 {
        assert!(g.turn_wall(turn) >= Duration::from_millis(1000));
        let ms = g.r.replay.turns[turn].events.ms.clone();
        assert_eq!(ms.len(), 2, "turn {turn}: ms {ms:?}");
        let used = ms[HOSTILE].unwrap();
        assert!(
            used < 200,
            "turn {turn}: {used} ms of CPU charged for sleeping"
        );
    }
    assert!(
        h.time_used < Duration::from_millis(1000),
        "{:?}",
        h.time_used
    );
}

#[test]
fn burning_a_second_of_cpu_is_a_timeout() {
    let arena = arena("burn_each_turn");
    // A wall-clock cap of 10 × 500 ms, so that a timeout well before 5 s was decided
    // by CPU time even on a loaded machine.
    let config = MatchConfig {
        turn_timeout: Duration::from_millis(500),
        wall_factor: 10,
        ..config(3)
    };
    let g = play(&arena, "idle", "burn_each_turn", game_limits(), &config);
    let h = g.hostile();
    assert!(h.cpu_measured);
    assert_eq!(h.error, None, "with `skip` a timeout is not fatal");
    assert!(g.timeout_turns().contains(&1), "{:?}", g.timeout_turns());
    assert_eq!(g.r.replay.turns[1].events.ms[HOSTILE], Some(500));
    // Stopped by CPU time, not by the wall-clock cap.
    assert!(
        g.turn_wall(1) < Duration::from_millis(3000),
        "{:?}",
        g.turn_wall(1)
    );
}

#[test]
fn a_build_can_write_its_folder_but_still_has_no_network() {
    let arena = arena("build");
    let sandbox_limits = Limits::build();
    let g = play(&arena, "idle", "build", sandbox_limits, &config(3));
    g.assert_hostile_not_charged(3);
    g.assert_every_probe_failed(&["tcp 127.0.0.1:5432", "udp 8.8.8.8:53"]);
    let built = std::fs::read_to_string(arena.hostile.join("built.txt")).unwrap();
    assert_eq!(built, "built by hostile\n");
    assert!(arena.hostile.join("out/binary").is_file());
    let mut f = std::fs::File::open(arena.hostile.join("out/binary")).unwrap();
    let mut text = String::new();
    f.read_to_string(&mut text).unwrap();
    assert_eq!(text, "#!/bin/sh\n");
}
