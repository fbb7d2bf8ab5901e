//! Untrusted bots, isolated and limited: bubblewrap for namespaces (no network, its own
//! PID and IPC namespaces, a read-only view of the system, the bot's folder read-only, a
//! size-capped scratch) and a seccomp filter, one unprivileged uid per running bot,
//! cgroups for memory, processes, a CPU quota and CPU accounting, rlimits as a
//! backstop.
//!
//! Where a protection is missing on a machine (no bwrap, no user namespaces, no
//! writable cgroups, not root) the sandbox falls back to what remains and says so:
//! [`Sandbox::protections`] is the table `bottlebats doctor` prints.
//!
//! This file holds the limits, the machine's probe and its protections; `bwrap.rs` the
//! bubblewrap command line, `launch.rs` starting and ending a bot.

mod bwrap;
mod cgroup;
mod launch;
mod pinning;
mod seccomp;
mod slots;

use std::ffi::CString;
use std::fs::File;
use std::io;
use std::os::fd::AsRawFd;
use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

pub use cgroup::{BotCgroup, Cgroups};
pub use launch::{SandboxLauncher, SandboxProcess};
pub use slots::{kill_uid, prepare_lock_dir, Slot, SlotPool};

use crate::process::{BotProcess, Confinement, LocalProcess};
use bwrap::STAGE;

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
            // Two cores: javac and the JVM work on several threads, and one core made
            // a Java starter's upload-to-active time 14% longer (1.49 s to 1.70 s,
            // `bench/upload.sh`). Builds run one at a time, so this still bounds them.
            cpu_millicores: 2000,
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
        if let Ok(cgroups) = &sandbox.cgroups {
            pinning::watch(cgroups);
        }
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
    // About 80 lines, as one table: each entry is read alone, and splitting the list
    // would only scatter the table `doctor` prints.
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
                    Ok(c) if c.has_cpu_quota() && c.has_cpu_pinning() => {
                        "one core per bot by default (cgroup CPU quota), and a bot that \
                         goes over it is pinned to the least busy core (cpuset)"
                            .into()
                    }
                    Ok(c) if c.has_cpu_quota() => {
                        "one core per bot by default (cgroup CPU quota); no cpuset \
                         controller, so a spinning bot still takes bursts on every core"
                            .into()
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
}
