//! The bubblewrap command line: the bot's view of the world (its namespaces, the
//! read-only system, the scratch, its own folder, its environment) and the command
//! that runs the bot inside it.

use std::ffi::OsString;
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::Path;
use std::process::Command;

use super::{Limits, Sandbox};
use crate::process::{shell_line, BotSpec, MOVED_STDIN, MOVED_STDOUT};

/// Where the bot's folder is staged for bwrap when bots run as slot uids: a folder
/// that always exists and any uid may walk. It is covered in the bot's own mount
/// namespace only. (bwrap mounts its new root over `/tmp` too; the staged folder is
/// then at `/oldroot/tmp`, where bwrap looks for it.)
pub(super) const STAGE: &str = "/tmp";

/// Host folders every bot's language may need, read-only. Others (`/opt/...`) only
/// when the languages table asks for them ([`super::SandboxConfig::extra_read_only`]).
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
    /// bwrap running the bot in its view of the world, and the descriptors it must
    /// be handed: the seccomp filters, and the bot's folder unless it is `staged` (see
    /// [`Sandbox::bwrap_args`]).
    pub(super) fn bwrap_command(
        &self,
        bwrap: &Path,
        bot: &BotSpec,
        dir: &OwnedFd,
        staged: bool,
        limits: &Limits,
        seccomp_fds: &[OwnedFd],
    ) -> (Command, Vec<i32>) {
        let line = shell_line(&bot.command, &bot.name);
        // bwrap keeps its stdio open until the bot ends: the pipes reach the bot
        // at other descriptors (see `Confinement::move_stdio`), and it moves
        // them back, so that it alone holds them.
        let line = format!(
            "exec <&{MOVED_STDIN} >&{MOVED_STDOUT} {MOVED_STDIN}<&- {MOVED_STDOUT}>&-; {line}"
        );
        let mut cmd = Command::new(bwrap);
        let fds: Vec<i32> = seccomp_fds.iter().map(AsRawFd::as_raw_fd).collect();
        cmd.args(self.bwrap_args(&bot.dir, dir.as_raw_fd(), staged, limits, &fds, &line));
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

    /// The bwrap arguments that build the bot's view of the world. `staged` says the
    /// bot's folder is bind-mounted at [`STAGE`] (see
    /// [`crate::process::Confinement::stage_cwd_at`]); otherwise bwrap binds it from
    /// `dir_fd`.
    fn bwrap_args(
        &self,
        dir: &Path,
        dir_fd: i32,
        staged: bool,
        limits: &Limits,
        seccomp_fds: &[i32],
        line: &str,
    ) -> Vec<OsString> {
        let mut a: Vec<OsString> = namespaces();
        self.system_binds(&mut a);
        scratch(&mut a, limits.scratch);
        bot_folder(&mut a, dir, dir_fd, staged, limits.writable_dir);
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

    /// The system folders, and those the languages table asks for, read-only; a
    /// symbolic link (`/bin` on merged-usr systems) as the same link.
    fn system_binds(&self, a: &mut Vec<OsString>) {
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
    }
}

/// New namespaces of every kind, none of which the bot may nest, and fresh /proc and
/// /dev.
fn namespaces() -> Vec<OsString> {
    [
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
    ]
    .iter()
    .map(OsString::from)
    .collect()
}

/// The scratch, and a second one of the same size at /dev/shm for POSIX shared
/// memory and semaphores (Python's multiprocessing): the rest of /dev, a tmpfs of
/// bwrap's, is made read-only after.
fn scratch(a: &mut Vec<OsString>, size: u64) {
    for at in ["/tmp", "/dev/shm"] {
        let scratch = size.to_string();
        a.extend(["--size".into(), scratch.into(), "--tmpfs".into(), at.into()]);
    }
}

/// The bot's folder at its own path: from [`STAGE`] if `staged`, else from `dir_fd`;
/// writable for a build.
fn bot_folder(a: &mut Vec<OsString>, dir: &Path, dir_fd: i32, staged: bool, writable: bool) {
    let (bind, source) = match (staged, writable) {
        (true, true) => ("--bind", STAGE.to_string()),
        (true, false) => ("--ro-bind", STAGE.to_string()),
        (false, true) => ("--bind-fd", dir_fd.to_string()),
        (false, false) => ("--ro-bind-fd", dir_fd.to_string()),
    };
    a.extend([bind.into(), source.into(), dir.as_os_str().to_owned()]);
}
