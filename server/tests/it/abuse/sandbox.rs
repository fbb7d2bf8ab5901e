//! Bots that reach for the kernel, the host's folders, every core, or the slot locks.

use std::io::Read;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use engine::process::{BotProcess, BotSpec, Launcher};
use engine::sandbox::{Limits, Sandbox, SandboxConfig};

fn sandbox() -> Arc<Sandbox> {
    Arc::new(Sandbox::new(SandboxConfig::default()))
}

fn has(sandbox: &Sandbox, protection: &str) -> bool {
    sandbox
        .protections()
        .iter()
        .any(|p| p.name == protection && p.active)
}

/// A folder with `files`, readable by the slot uids.
fn bot_dir(test: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("abuse-bot-{test}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap();
    }
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

/// Starts `command` in the sandbox; the process and its stdout.
fn launch(
    sandbox: &Arc<Sandbox>,
    dir: PathBuf,
    command: &str,
) -> (Box<dyn BotProcess>, std::process::ChildStdout) {
    let spec = BotSpec {
        name: "probe".into(),
        command: command.into(),
        dir,
    };
    let mut p = sandbox.launcher(Limits::game()).launch(&spec).unwrap();
    let (stdin, stdout, _stderr) = p.take_stdio().unwrap();
    drop(stdin);
    (p, stdout)
}

/// Runs `command` in the sandbox to its end; what it printed.
fn output_of(sandbox: &Arc<Sandbox>, dir: PathBuf, command: &str) -> String {
    let (mut p, mut stdout) = launch(sandbox, dir, command);
    let mut out = String::new();
    stdout.read_to_string(&mut out).unwrap();
    p.kill();
    out
}

const PROBE: &str = r#"
import ctypes, errno, os, sys, threading
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
def call(name, nr, *args):
    r = libc.syscall(nr, *[ctypes.c_long(a) for a in args])
    e = ctypes.get_errno()
    print(name, 'ok' if r >= 0 else errno.errorcode.get(e, str(e)), flush=True)
call('ptrace', 101, 0, 0, 0, 0)              # PTRACE_TRACEME
call('keyctl', 250, 0, -3, 0)                # KEYCTL_GET_KEYRING_ID of the session
call('unshare', 272, 0x10000000)             # CLONE_NEWUSER
call('perf_event_open', 298, 0, 0, -1, -1, 0)
params = ctypes.create_string_buffer(120)
call('io_uring_setup', 425, 1, ctypes.addressof(params))
call('clone3', 435, 0, 0)
call('x32_getpid', 0x40000000 + 39)
t = threading.Thread(target=lambda: print('thread ok', flush=True))
t.start(); t.join()
print('opt', os.path.exists('/opt'), flush=True)
"#;

#[test]
fn a_bot_cannot_call_what_no_bot_needs_and_sees_no_opt() {
    let sb = sandbox();
    if !has(&sb, "seccomp") {
        println!("skipping: no seccomp filter here (needs bubblewrap on x86-64 or aarch64)");
        return;
    }
    let dir = bot_dir("seccomp", &[("probe.py", PROBE)]);
    let said = output_of(&sb, dir, "/usr/bin/python3 probe.py");
    for (call, want) in [
        ("ptrace", "EPERM"),
        ("keyctl", "EPERM"),
        ("unshare", "EPERM"),
        ("perf_event_open", "EPERM"),
        ("io_uring_setup", "ENOSYS"),
        ("clone3", "ENOSYS"),
        ("x32_getpid", "ENOSYS"),
    ] {
        assert!(
            said.lines().any(|l| l == format!("{call} {want}")),
            "{call} should fail with {want}:\n{said}"
        );
    }
    assert!(said.contains("thread ok"), "threads still work:\n{said}");
    assert!(
        said.contains("opt False"),
        "/opt is not bound unless asked:\n{said}"
    );
}

#[test]
fn a_spinning_bot_gets_one_core() {
    let sb = sandbox();
    if !has(&sb, "cpu quota") {
        println!("skipping: no cgroup CPU quota here (needs root and the cpu controller)");
        return;
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let dir = bot_dir("spin", &[]);
    // As many spinning processes as there are cores, and two more.
    let spin = format!(
        "sh -c 'for i in $(seq {}); do (while :; do :; done) & done; wait'",
        cores + 2
    );
    let (mut p, _out) = launch(&sb, dir, &spin);
    let started = Instant::now();
    let before = p.cpu_time().unwrap_or_default();
    std::thread::sleep(Duration::from_secs(3));
    let used = p.cpu_time().unwrap_or_default() - before;
    let wall = started.elapsed();
    p.kill();
    let share = used.as_secs_f64() / wall.as_secs_f64();
    assert!(
        share < 1.15,
        "a bot of {} spinning processes used {share:.2} cores",
        cores + 2
    );
}

/// A bot that goes over its quota is pinned to one core (where there is more than one
/// and the cpuset controller), so that its bursts no longer land beside the other bots;
/// a bot within its quota keeps every core. `cargo bench -p engine --bench sandbox`
/// measures what that does to a neighbour's wall time.
#[test]
fn a_bot_over_its_quota_is_pinned_to_one_core() {
    let sb = sandbox();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let cpuset = std::path::Path::new("/sys/fs/cgroup/cpuset/cgroup.procs").exists()
        || std::fs::read_to_string("/sys/fs/cgroup/cgroup.controllers")
            .is_ok_and(|c| c.split_whitespace().any(|x| x == "cpuset"));
    if !has(&sb, "cpu quota") || !cpuset || cores < 2 {
        println!("skipping: needs the cgroup cpu quota, the cpuset controller and 2 cores");
        return;
    }
    let allowed = "grep Cpus_allowed_list /proc/self/status";
    let dir = bot_dir("pinned", &[]);
    let calm = output_of(&sb, dir.clone(), allowed);
    // The watcher pins a bot once the kernel has throttled it, which takes longer on a
    // loaded machine: the bot looks for up to 10 s and prints its cores once they are
    // one (no `,` or `-` in the list), or as they are then.
    let spin = format!(
        "sh -c 'for i in $(seq {}); do (while :; do :; done) & done; \
         for t in $(seq 40); do sleep 0.25; l=$({allowed}); \
         case \"${{l##*:}}\" in *[,-]*) ;; *) break;; esac; done; echo \"$l\"; kill 0'",
        cores + 2
    );
    let busy = output_of(&sb, dir, &spin);
    let count = |line: &str| {
        let list = line.rsplit(':').next().unwrap_or("").trim().to_string();
        list.split(',')
            .map(|part| match part.split_once('-') {
                Some((a, b)) => b.parse::<usize>().unwrap() - a.parse::<usize>().unwrap() + 1,
                None => 1,
            })
            .sum::<usize>()
    };
    assert_eq!(count(&calm), cores, "a calm bot keeps every core: {calm}");
    assert_eq!(
        count(&busy),
        1,
        "a spinning bot is pinned to one core: {busy}"
    );
}

#[test]
fn slot_locks_live_in_a_folder_of_the_servers_own() {
    let dir = engine::sandbox::default_lock_dir();
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    if me == 0 {
        assert_eq!(dir, PathBuf::from("/run/bottlebats/slots"));
    }
    engine::sandbox::prepare_lock_dir(&dir).unwrap();
    let meta = std::fs::metadata(&dir).unwrap();
    assert_eq!(meta.uid(), me);
    assert_eq!(meta.mode() & 0o077, 0, "nobody else may enter it");

    // A folder others may write in is refused.
    let open = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("abuse-open-locks");
    let _ = std::fs::remove_dir_all(&open);
    std::fs::create_dir_all(&open).unwrap();
    std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o777)).unwrap();
    let err = engine::sandbox::prepare_lock_dir(&open).unwrap_err();
    assert!(err.to_string().contains("others may write"), "{err}");

    // A link planted where a lock file belongs is removed, not followed.
    let locks = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("abuse-locks");
    let _ = std::fs::remove_dir_all(&locks);
    engine::sandbox::prepare_lock_dir(&locks).unwrap();
    let victim = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("abuse-victim");
    let _ = std::fs::remove_file(&victim);
    std::os::unix::fs::symlink(&victim, locks.join("slot-0.lock")).unwrap();
    let pool = engine::sandbox::SlotPool::new(62_000, 1, locks.clone());
    let slot = pool.acquire(Duration::from_secs(1)).unwrap();
    drop(slot);
    assert!(!victim.exists(), "the link was not followed");
    assert!(!locks.join("slot-0.lock").is_symlink());
}
