//! Untrusted bots, isolated and limited: bubblewrap for namespaces (no network, its own
//! PID and IPC namespaces, a read-only view of the system, the bot's folder read-only, a
//! size-capped scratch) and a seccomp filter, one unprivileged uid per running bot,
//! cgroups for memory, processes, a CPU quota and CPU accounting, rlimits as a
//! backstop.
//!
//! Where a protection is missing on a machine (no bwrap, no user namespaces, no
//! writable cgroups, not root) the sandbox falls back to what remains and says so:
//! [`Sandbox::protections`] is the table `bottlebats doctor` prints.

mod cgroup;
mod seccomp;
mod slots;

use std::ffi::{CString, OsString};
use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::process::{ChildStderr, ChildStdin, ChildStdout, Command, ExitStatus};
use std::sync::Arc;
use std::time::Duration;

pub use cgroup::{BotCgroup, Cgroups};
pub use slots::{kill_uid, prepare_lock_dir, Slot, SlotPool};

use crate::process::{
    shell_line, BotProcess, BotSpec, Confinement, Launcher, LocalProcess, MOVED_STDIN, MOVED_STDOUT,
};

const MIB: u64 = 1024 * 1024;

/// Resource limits of one sandboxed process tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Memory of the whole tree, bytes (cgroup; the scratch counts too).
    pub memory: u64,
    /// Processes and threads of the whole tree.
    pub processes: u64,
    pub open_files: u64,
    /// Largest file the bot may write, bytes.
    pub file_size: u64,
    /// Size of the writable scratch at `/tmp`, bytes; `/dev/shm` gets as much again.
    pub scratch: u64,
    /// CPU seconds per process, a backstop behind the per-turn timing.
    pub cpu_seconds: u64,
    /// Thousandths of a core the whole tree may use at once (cgroup CPU quota): 1000
    /// is one core; 0 for no quota.
    pub cpu_millicores: u64,
    /// The bot's folder is writable (builds) instead of read-only (games).
    pub writable_dir: bool,
}

impl Limits {
    /// Defaults for playing a game.
    pub fn game() -> Limits {
        Limits {
            memory: 512 * MIB,
            processes: 64,
            open_files: 256,
            file_size: 64 * MIB,
            scratch: 64 * MIB,
            cpu_seconds: 1200,
            cpu_millicores: 1000,
            writable_dir: false,
        }
    }

    /// Defaults for compiling an uploaded bot: more memory and time, a writable folder.
    pub fn build() -> Limits {
        Limits {
            memory: 2048 * MIB,
            processes: 128,
            open_files: 1024,
            file_size: 256 * MIB,
            scratch: 512 * MIB,
            cpu_seconds: 600,
            cpu_millicores: 1000,
            writable_dir: true,
        }
    }
}

/// How the sandbox is set up on this machine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SandboxConfig {
    /// First uid of the slot pool (used when running as root).
    pub uid_base: u32,
    /// Number of uids: bots that can run at once on this machine.
    pub slots: u32,
    /// Where slot lock files live; shared by every process on the machine. It must be
    /// ours and writable by nobody else (see [`SlotPool`]).
    pub lock_dir: PathBuf,
    /// Extra host folders bots may read (a JDK in /opt, say): those the languages
    /// table asks for.
    pub extra_read_only: Vec<PathBuf>,
}

/// Where slot locks live by default: `/run/bottlebats/slots` as root (shared by every
/// server and worker of the machine, out of other accounts' reach), else a folder of
/// this user's own.
pub fn default_lock_dir() -> PathBuf {
    // SAFETY: geteuid has no preconditions.
    let uid = unsafe { libc::geteuid() };
    if uid == 0 {
        return PathBuf::from("/run/bottlebats/slots");
    }
    match std::env::var_os("XDG_RUNTIME_DIR") {
        Some(run) if !run.is_empty() => PathBuf::from(run).join("bottlebats-slots"),
        _ => std::env::temp_dir().join(format!("bottlebats-slots-{uid}")),
    }
}

impl Default for SandboxConfig {
    fn default() -> Self {
        SandboxConfig {
            uid_base: 61_000,
            slots: 64,
            lock_dir: default_lock_dir(),
            extra_read_only: Vec::new(),
        }
    }
}

/// One protection and whether this machine has it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Protection {
    pub name: &'static str,
    pub active: bool,
    pub how: String,
}

/// The sandbox of this machine: what it found, and how it starts bots.
#[derive(Debug)]
pub struct Sandbox {
    config: SandboxConfig,
    /// bwrap, if it is installed and works here.
    bwrap: Result<PathBuf, String>,
    cgroups: Result<Cgroups, String>,
    /// The seccomp filters bwrap loads, as bytes.
    seccomp: Result<Vec<Vec<u8>>, String>,
    /// Running as root: each bot gets a slot uid.
    root: bool,
    slots: Arc<SlotPool>,
}

/// Where the bot's folder is staged for bwrap when bots run as slot uids: a folder
/// that always exists and any uid may walk. It is covered in the bot's own mount
/// namespace only. (bwrap mounts its new root over `/tmp` too; the staged folder is
/// then at `/oldroot/tmp`, where bwrap looks for it.)
const STAGE: &str = "/tmp";

/// Host folders every bot's language may need, read-only. Others (`/opt/...`) only
/// when the languages table asks for them ([`SandboxConfig::extra_read_only`]).
const SYSTEM_DIRS: &[&str] = &[
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
];
const SYSTEM_ETC: &[&str] = &[
    "/etc/alternatives",
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/localtime",
    "/etc/java-17-openjdk",
    "/etc/java-21-openjdk",
    "/etc/ssl/openssl.cnf",
];

impl Sandbox {
    /// Looks at this machine and prepares what it offers.
    pub fn new(config: SandboxConfig) -> Sandbox {
        // SAFETY: geteuid has no preconditions.
        let root = unsafe { libc::geteuid() } == 0;
        let slots = SlotPool::new(config.uid_base, config.slots, config.lock_dir.clone());
        let mut sandbox = Sandbox {
            cgroups: Cgroups::detect(),
            seccomp: seccomp::programs(),
            bwrap: Err(String::new()),
            root,
            slots,
            config,
        };
        sandbox.bwrap = sandbox.probe_bwrap();
        sandbox
    }

    /// Finds bwrap and checks that it can make all its namespaces here.
    fn probe_bwrap(&self) -> Result<PathBuf, String> {
        let path = ["/usr/bin/bwrap", "/usr/local/bin/bwrap", "/bin/bwrap"]
            .iter()
            .map(PathBuf::from)
            .find(|p| p.exists())
            .ok_or("bubblewrap (bwrap) is not installed: install the `bubblewrap` package")?;
        let slot = self.slot().map_err(|e| e.to_string())?;
        let mut cmd = Command::new(&path);
        cmd.args([
            "--unshare-all",
            "--unshare-user",
            "--die-with-parent",
            "--ro-bind",
            "/",
            "/",
            "true",
        ]);
        // The same staging as a real launch (a private mount namespace, which needs
        // CAP_SYS_ADMIN in a container), so that a machine where bots could not start
        // is found here rather than at the first game.
        let here = File::open(std::env::temp_dir())
            .map_err(|e| format!("cannot open the temp folder: {e}"))?;
        let staged = slot.is_some();
        let confinement = Confinement {
            uid: slot.as_ref().map(|s| s.uid),
            cwd_fd: staged.then(|| here.as_raw_fd()),
            stage_cwd_at: if staged {
                Some(CString::new(STAGE).map_err(|e| e.to_string())?)
            } else {
                None
            },
            ..Confinement::default()
        };
        let mut p = LocalProcess::spawn_confined(cmd, confinement)
            .map_err(|e| format!("cannot start bwrap: {e}"))?;
        let (stdin, stdout, mut stderr) = p.take_stdio().ok_or("no pipes")?;
        drop((stdin, stdout));
        let mut said = String::new();
        let _ = io::Read::read_to_string(&mut stderr, &mut said);
        let status = p.wait_exit();
        if status.is_some_and(|s| s.success()) {
            Ok(path)
        } else {
            Err(format!(
                "bwrap cannot create namespaces here: {}",
                said.trim()
                    .lines()
                    .last()
                    .unwrap_or("it failed without a message")
            ))
        }
    }

    fn slot(&self) -> io::Result<Option<Slot>> {
        if self.root {
            self.slots.acquire(Duration::from_secs(30)).map(Some)
        } else {
            Ok(None)
        }
    }

    /// True when every protection is active.
    pub fn is_complete(&self) -> bool {
        self.protections().iter().all(|p| p.active)
    }

    /// What protects bots on this machine, for `bottlebats doctor`.
    pub fn protections(&self) -> Vec<Protection> {
        let bwrap = self.bwrap.as_ref();
        let cg = self.cgroups.as_ref();
        let why = |e: &String| e.clone();
        vec![
            Protection {
                name: "network",
                active: bwrap.is_ok(),
                how: bwrap.map_or_else(why, |_| {
                    "own network namespace (bwrap): no network at all".into()
                }),
            },
            Protection {
                name: "filesystem",
                active: bwrap.is_ok(),
                how: bwrap.map_or_else(
                    |e| format!("{e}; bots see the whole filesystem as their uid"),
                    |_| "read-only system folders, bot folder read-only, size-capped /tmp".into(),
                ),
            },
            Protection {
                name: "memory",
                active: cg.is_ok(),
                how: cg.map_or_else(
                    |e| format!("{e}; RLIMIT_DATA only"),
                    |c| format!("cgroup memory limit ({})", c.describe()),
                ),
            },
            Protection {
                name: "processes",
                active: cg.is_ok() || self.root,
                how: match (cg, self.root) {
                    (Ok(_), _) => "cgroup pids limit".into(),
                    (Err(_), true) => "RLIMIT_NPROC on the slot uid".into(),
                    (Err(e), false) => format!("{e}; not root, so no per-bot process limit"),
                },
            },
            Protection {
                name: "cpu accounting",
                active: cg.is_ok(),
                how: cg.map_or_else(
                    |e| format!("{e}; turns timed by the wall clock"),
                    |_| "per-turn CPU time of the whole tree from its cgroup".into(),
                ),
            },
            Protection {
                name: "cpu quota",
                active: cg.is_ok_and(Cgroups::has_cpu_quota),
                how: match cg {
                    Ok(c) if c.has_cpu_quota() => {
                        "one core per bot by default (cgroup CPU quota)".into()
                    }
                    Ok(_) => "no cgroup cpu controller here: a spinning bot slows its neighbours".into(),
                    Err(e) => format!("{e}; a spinning bot slows its neighbours"),
                },
            },
            Protection {
                name: "seccomp",
                active: bwrap.is_ok() && self.seccomp.is_ok(),
                how: match (bwrap, &self.seccomp) {
                    (Ok(_), Ok(_)) => "system calls no bot needs are refused (ptrace, mount, keyctl, bpf, perf_event_open, userfaultfd, new namespaces, ...)".into(),
                    (Err(e), _) => format!("{e}; no seccomp filter without it"),
                    (_, Err(e)) => e.clone(),
                },
            },
            Protection {
                name: "uid",
                active: self.root,
                how: if self.root {
                    format!(
                        "one uid per running bot ({}..{})",
                        self.config.uid_base,
                        self.config.uid_base + self.config.slots - 1
                    )
                } else {
                    "not running as root: bots share the server's uid".into()
                },
            },
        ]
    }

    /// A launcher with these limits.
    pub fn launcher(self: &Arc<Self>, limits: Limits) -> SandboxLauncher {
        SandboxLauncher {
            sandbox: self.clone(),
            limits,
        }
    }

    /// The bwrap arguments that build the bot's view of the world. `staged` says the
    /// bot's folder is bind-mounted at [`STAGE`] (see [`Confinement::stage_cwd_at`]);
    /// otherwise bwrap binds it from `dir_fd`.
    fn bwrap_args(
        &self,
        dir: &Path,
        dir_fd: i32,
        staged: bool,
        limits: &Limits,
        seccomp_fds: &[i32],
        line: &str,
    ) -> Vec<OsString> {
        let mut a: Vec<OsString> = Vec::new();
        let mut push = |items: &[&str]| a.extend(items.iter().map(OsString::from));
        push(&[
            "--unshare-all",
            "--unshare-user",
            "--disable-userns",
            "--die-with-parent",
            "--new-session",
            "--hostname",
            "bot",
            "--proc",
            "/proc",
            "--dev",
            "/dev",
        ]);
        let extra: Vec<String> = self
            .config
            .extra_read_only
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        for path in SYSTEM_DIRS
            .iter()
            .chain(SYSTEM_ETC)
            .copied()
            .chain(extra.iter().map(String::as_str))
        {
            let p = Path::new(path);
            match std::fs::read_link(p) {
                Ok(target) => {
                    a.push("--symlink".into());
                    a.push(target.into_os_string());
                    a.push(path.into());
                }
                Err(_) if p.exists() => {
                    a.extend(["--ro-bind".into(), path.into(), path.into()]);
                }
                Err(_) => {}
            }
        }
        // The scratch, and a second one of the same size at /dev/shm for POSIX shared
        // memory and semaphores (Python's multiprocessing): the rest of /dev, a tmpfs
        // of bwrap's, is made read-only below.
        for at in ["/tmp", "/dev/shm"] {
            let scratch = limits.scratch.to_string();
            a.extend(["--size".into(), scratch.into(), "--tmpfs".into(), at.into()]);
        }
        let (bind, source) = match (staged, limits.writable_dir) {
            (true, true) => ("--bind", STAGE.to_string()),
            (true, false) => ("--ro-bind", STAGE.to_string()),
            (false, true) => ("--bind-fd", dir_fd.to_string()),
            (false, false) => ("--ro-bind-fd", dir_fd.to_string()),
        };
        a.extend([bind.into(), source.into(), dir.as_os_str().to_owned()]);
        // The root that bwrap built the view on and its /dev are tmpfs: read-only, so
        // that only the scratch (and the folder of a build) can be written.
        for at in ["/dev", "/"] {
            a.extend(["--remount-ro".into(), at.into()]);
        }
        a.extend(["--chdir".into(), dir.as_os_str().to_owned()]);
        for fd in seccomp_fds {
            a.extend(["--add-seccomp-fd".into(), fd.to_string().into()]);
        }
        a.push("--clearenv".into());
        for (k, v) in [
            ("PATH", "/usr/local/bin:/usr/bin:/bin"),
            ("HOME", "/tmp"),
            ("LANG", "C.UTF-8"),
        ] {
            a.extend(["--setenv".into(), k.into(), v.into()]);
        }
        a.extend(["--".into(), "/bin/sh".into(), "-c".into(), line.into()]);
        a
    }
}

/// Starts bots in the sandbox with one set of limits.
#[derive(Clone, Debug)]
pub struct SandboxLauncher {
    sandbox: Arc<Sandbox>,
    limits: Limits,
}

impl Launcher for SandboxLauncher {
    fn launch(&self, bot: &BotSpec) -> io::Result<Box<dyn BotProcess>> {
        let sb = &self.sandbox;
        let limits = &self.limits;
        let slot = sb.slot()?;
        let dir = open_dir(&bot.dir).map_err(|e| {
            io::Error::new(
                e.kind(),
                format!("cannot open the bot folder {}: {e}", bot.dir.display()),
            )
        })?;
        let cgroup = match &sb.cgroups {
            Ok(c) => {
                let name = match &slot {
                    Some(s) => format!("slot-{}", s.uid),
                    None => format!("bot-{}-{}", std::process::id(), next_id()),
                };
                Some(c.create(
                    &name,
                    limits.memory,
                    limits.processes,
                    limits.cpu_millicores,
                )?)
            }
            Err(_) => None,
        };
        if let (Some(s), true) = (&slot, limits.writable_dir) {
            chown_tree(&bot.dir, s.uid)?;
        }

        let mut rlimits = vec![
            (libc::RLIMIT_NOFILE as i32, limits.open_files),
            (libc::RLIMIT_FSIZE as i32, limits.file_size),
            (libc::RLIMIT_CPU as i32, limits.cpu_seconds),
            (libc::RLIMIT_CORE as i32, 0),
        ];
        if slot.is_some() {
            // Counts every process of the slot's uid: exactly this bot's. Behind a pids
            // cgroup it is only a backstop, set above the cgroup's limit: the kernel
            // checks it first, and a fork it refuses is not counted as an incident.
            let nproc = match cgroup {
                Some(_) => limits.processes * 2,
                None => limits.processes,
            };
            rlimits.push((libc::RLIMIT_NPROC as i32, nproc));
        }
        if cgroup.is_none() {
            // Without a memory cgroup, committed memory is the best rlimit there is
            // (RLIMIT_AS would break the JVM and Node, which reserve much more).
            rlimits.push((libc::RLIMIT_DATA as i32, limits.memory));
        }
        let line = shell_line(&bot.command, &bot.name);
        // The filters bwrap installs, each in a fresh file of its own (bwrap reads them
        // to their end, so launches must not share one).
        let seccomp_fds = match (&sb.bwrap, &sb.seccomp) {
            (Ok(_), Ok(programs)) => programs
                .iter()
                .map(|p| sealed_file(p))
                .collect::<io::Result<Vec<_>>>()?,
            _ => Vec::new(),
        };
        // bwrap runs as the slot uid and resolves even `--bind-fd` sources by path: a
        // folder behind a path that uid cannot walk is staged where it can.
        let stage_cwd_at = match (&sb.bwrap, &slot) {
            (Ok(_), Some(_)) => Some(CString::new(STAGE)?),
            _ => None,
        };
        let (cmd, keep) = match &sb.bwrap {
            Ok(bwrap) => {
                // bwrap keeps its stdio open until the bot ends: the pipes reach the bot
                // at other descriptors (see `Confinement::move_stdio`), and it moves
                // them back, so that it alone holds them.
                let line = format!(
                    "exec <&{MOVED_STDIN} >&{MOVED_STDOUT} {MOVED_STDIN}<&- {MOVED_STDOUT}>&-; {line}"
                );
                let mut cmd = Command::new(bwrap);
                let staged = stage_cwd_at.is_some();
                let fds: Vec<i32> = seccomp_fds.iter().map(AsRawFd::as_raw_fd).collect();
                cmd.args(sb.bwrap_args(&bot.dir, dir.as_raw_fd(), staged, limits, &fds, &line));
                // Nothing of the runner's environment, which holds its secrets, may
                // reach bwrap: its processes in the sandbox (pid 1) show it in
                // /proc/PID/environ.
                cmd.env_clear();
                // Only bwrap's `--bind-fd` needs the folder's descriptor (and closes
                // it). Had the bot one, `openat(fd, "..")` would lead out of its view.
                let mut keep = fds;
                if !staged {
                    keep.push(dir.as_raw_fd());
                }
                (cmd, keep)
            }
            Err(_) => {
                let mut cmd = Command::new("/bin/sh");
                cmd.arg("-c").arg(&line).env_clear();
                cmd.env("PATH", "/usr/local/bin:/usr/bin:/bin")
                    .env("HOME", &bot.dir)
                    .env("LANG", "C.UTF-8");
                (cmd, Vec::new())
            }
        };
        let confinement = Confinement {
            cgroup_procs: cgroup.as_ref().map(|c| c.join_paths()).unwrap_or_default(),
            rlimits,
            cwd_fd: Some(dir.as_raw_fd()),
            stage_cwd_at,
            move_stdio: sb.bwrap.is_ok(),
            seal_fds: true,
            keep_fds: keep,
            uid: slot.as_ref().map(|s| s.uid),
        };
        let process = LocalProcess::spawn_confined(cmd, confinement).map_err(|e| {
            io::Error::new(
                e.kind(),
                format!("the sandbox could not start the bot: {e}"),
            )
        })?;
        drop(dir);
        drop(seccomp_fds);
        Ok(Box::new(SandboxProcess {
            process,
            cgroup,
            limits: limits.clone(),
            slot,
            ended: false,
        }))
    }
}

/// An in-memory file holding `bytes`, read from its start, at a descriptor of 10 or
/// more (see [`high_fd`]).
fn sealed_file(bytes: &[u8]) -> io::Result<OwnedFd> {
    // SAFETY: a valid NUL-terminated name; the descriptor returned is ours alone.
    let fd = unsafe { libc::memfd_create(c"bottlebats-seccomp".as_ptr(), libc::MFD_CLOEXEC) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `fd` was just returned by memfd_create and nothing else owns it.
    let mut file = File::from(unsafe { OwnedFd::from_raw_fd(fd) });
    io::Write::write_all(&mut file, bytes)?;
    io::Seek::seek(&mut file, io::SeekFrom::Start(0))?;
    high_fd(&file)
}

/// Opens a folder at a descriptor of 10 or more, clear of the bot's pipes at
/// [`MOVED_STDIN`] and [`MOVED_STDOUT`].
fn open_dir(path: &Path) -> io::Result<OwnedFd> {
    high_fd(&File::open(path)?)
}

/// A copy of `file`'s descriptor at 10 or more, close-on-exec.
fn high_fd(file: &File) -> io::Result<OwnedFd> {
    // SAFETY: F_DUPFD_CLOEXEC on a descriptor we own; the new one is ours alone.
    let fd = unsafe { libc::fcntl(file.as_raw_fd(), libc::F_DUPFD_CLOEXEC, 10) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `fd` was just returned by fcntl and nothing else owns it.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

fn next_id() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// Gives a build folder to the slot uid.
fn chown_tree(dir: &Path, uid: u32) -> io::Result<()> {
    std::os::unix::fs::lchown(dir, Some(uid), Some(uid))?;
    if dir.is_dir() && !dir.is_symlink() {
        for entry in std::fs::read_dir(dir)? {
            chown_tree(&entry?.path(), uid)?;
        }
    }
    Ok(())
}

/// A bot running in the sandbox.
pub struct SandboxProcess {
    process: LocalProcess,
    cgroup: Option<BotCgroup>,
    limits: Limits,
    slot: Option<Slot>,
    /// Killed already: dropping it need not scan again.
    ended: bool,
}

impl SandboxProcess {
    /// What the sandbox saw the bot run into, in words.
    pub fn incidents(&self) -> Vec<String> {
        let Some(cg) = &self.cgroup else {
            return Vec::new();
        };
        let mut out = Vec::new();
        if cg.oom_kills() > 0 {
            out.push(format!(
                "killed for going over its memory limit of {} MiB",
                self.limits.memory / MIB
            ));
        }
        if cg.pids_refused() > 0 {
            out.push(format!(
                "hit its limit of {} processes",
                self.limits.processes
            ));
        }
        out
    }
}

impl BotProcess for SandboxProcess {
    fn take_stdio(&mut self) -> Option<(ChildStdin, ChildStdout, ChildStderr)> {
        self.process.take_stdio()
    }

    fn cpu_time(&mut self) -> Option<Duration> {
        self.cgroup.as_ref()?.cpu_time()
    }

    fn try_wait(&mut self) -> Option<ExitStatus> {
        self.process.try_wait()
    }

    fn incidents(&mut self) -> Vec<String> {
        SandboxProcess::incidents(self)
    }

    fn prepare_end(&mut self) {
        if self.cgroup.is_none() && self.slot.is_none() {
            self.process.prepare_end();
        }
    }

    fn kill(&mut self) {
        self.ended = true;
        if let Some(cg) = &self.cgroup {
            cg.kill();
            // Every process of the bot was in its cgroup (it cannot leave it): once it
            // is empty only the main process needs reaping. Killed processes leave the
            // cgroup a moment before they are gone, so the slot's release still makes
            // sure, with one scan of the slot's uid.
            if cg.is_empty() {
                self.process.kill_main();
                return;
            }
        }
        self.process.kill();
        if let Some(s) = &self.slot {
            kill_uid(s.uid);
        }
    }
}

impl Drop for SandboxProcess {
    fn drop(&mut self) {
        // The cgroup's and the slot's own drops still make sure nothing is left.
        if !self.ended {
            self.kill();
        }
    }
}
