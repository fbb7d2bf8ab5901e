//! Starting a bot in the sandbox, in named steps (its slot, its folder, its cgroup,
//! its rlimits, the command, the spawn), and ending it with everything it started.

use std::ffi::CString;
use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::path::Path;
use std::process::{ChildStderr, ChildStdin, ChildStdout, Command, ExitStatus};
use std::sync::Arc;
use std::time::Duration;

use super::bwrap::STAGE;
use super::{kill_uid, BotCgroup, Limits, Sandbox, Slot, MIB};
use crate::process::{shell_line, BotProcess, BotSpec, Confinement, Launcher, LocalProcess};

/// Starts bots in the sandbox with one set of limits.
#[derive(Clone, Debug)]
pub struct SandboxLauncher {
    pub(super) sandbox: Arc<Sandbox>,
    pub(super) limits: Limits,
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
        let cgroup = self.cgroup(slot.as_ref())?;
        if let (Some(s), true) = (&slot, limits.writable_dir) {
            chown_tree(&bot.dir, s.uid)?;
        }
        let rlimits = rlimits(limits, slot.is_some(), cgroup.is_some());
        let seccomp_fds = sb.seccomp_files()?;
        // bwrap runs as the slot uid and resolves even `--bind-fd` sources by path: a
        // folder behind a path that uid cannot walk is staged where it can.
        let stage_cwd_at = match (&sb.bwrap, &slot) {
            (Ok(_), Some(_)) => Some(CString::new(STAGE)?),
            _ => None,
        };
        let (cmd, keep) = match &sb.bwrap {
            Ok(bwrap) => {
                let staged = stage_cwd_at.is_some();
                sb.bwrap_command(bwrap, bot, &dir, staged, limits, &seccomp_fds)
            }
            Err(_) => (bare_command(bot), Vec::new()),
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

impl SandboxLauncher {
    /// The bot's cgroup with its limits, where this machine has cgroups: named after
    /// its slot, or unique to this launch without one.
    fn cgroup(&self, slot: Option<&Slot>) -> io::Result<Option<BotCgroup>> {
        let Ok(cgroups) = &self.sandbox.cgroups else {
            return Ok(None);
        };
        let name = match slot {
            Some(s) => format!("slot-{}", s.uid),
            None => format!("bot-{}-{}", std::process::id(), next_id()),
        };
        let limits = &self.limits;
        let cgroup = cgroups.create(
            &name,
            limits.memory,
            limits.processes,
            limits.cpu_millicores,
        )?;
        Ok(Some(cgroup))
    }
}

impl Sandbox {
    /// The filters bwrap installs, each in a fresh file of its own (bwrap reads them
    /// to their end, so launches must not share one); none without bwrap.
    fn seccomp_files(&self) -> io::Result<Vec<OwnedFd>> {
        match (&self.bwrap, &self.seccomp) {
            (Ok(_), Ok(programs)) => programs.iter().map(|p| sealed_file(p)).collect(),
            _ => Ok(Vec::new()),
        }
    }
}

/// The rlimits of a bot: a backstop behind its cgroup where it has one.
fn rlimits(limits: &Limits, slot: bool, cgroup: bool) -> Vec<(i32, u64)> {
    let mut rlimits = vec![
        (libc::RLIMIT_NOFILE as i32, limits.open_files),
        (libc::RLIMIT_FSIZE as i32, limits.file_size),
        (libc::RLIMIT_CPU as i32, limits.cpu_seconds),
        (libc::RLIMIT_CORE as i32, 0),
    ];
    if slot {
        // Counts every process of the slot's uid: exactly this bot's. Behind a pids
        // cgroup it is only a backstop, set above the cgroup's limit: the kernel
        // checks it first, and a fork it refuses is not counted as an incident.
        let nproc = if cgroup {
            limits.processes * 2
        } else {
            limits.processes
        };
        rlimits.push((libc::RLIMIT_NPROC as i32, nproc));
    }
    if !cgroup {
        // Without a memory cgroup, committed memory is the best rlimit there is
        // (RLIMIT_AS would break the JVM and Node, which reserve much more).
        rlimits.push((libc::RLIMIT_DATA as i32, limits.memory));
    }
    rlimits
}

/// Without bwrap: the bot's shell line with a clean environment, no more.
fn bare_command(bot: &BotSpec) -> Command {
    let line = shell_line(&bot.command, &bot.name);
    let mut cmd = Command::new("/bin/sh");
    cmd.arg("-c").arg(&line).env_clear();
    cmd.env("PATH", "/usr/local/bin:/usr/bin:/bin")
        .env("HOME", &bot.dir)
        .env("LANG", "C.UTF-8");
    cmd
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
/// [`crate::process::MOVED_STDIN`] and [`crate::process::MOVED_STDOUT`].
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
