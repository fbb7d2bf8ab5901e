//! What is done to a bot between fork and exec: the confinement the sandbox asks for,
//! applied by the child itself while it may still use its privileges. Each step is one
//! function of async-signal-safe calls, on data prepared before the fork.

use std::ffi::{CStr, CString};
use std::io;
use std::os::fd::RawFd;

/// Where [`Confinement::move_stdio`] puts the bot's stdin and stdout.
pub const MOVED_STDIN: RawFd = 3;
pub const MOVED_STDOUT: RawFd = 4;

/// What is applied to a bot between fork and exec, in this order: join cgroups (while
/// still privileged), set rlimits, seal and keep descriptors, change to the bot's
/// folder, stage it, drop to another uid, move stdio.
#[derive(Clone, Debug, Default)]
pub struct Confinement {
    /// `cgroup.procs` files the process writes `0` into, which moves it there.
    pub cgroup_procs: Vec<CString>,
    /// `(RLIMIT_*, limit)`, set as both soft and hard limit.
    pub rlimits: Vec<(i32, u64)>,
    /// A directory to `fchdir` into: it works even where the new uid could not walk
    /// the path to it.
    pub cwd_fd: Option<RawFd>,
    /// In a mount namespace of its own, bind-mount the directory of `cwd_fd` on this
    /// path while still privileged. bwrap resolves bind sources by path as the new
    /// uid, even those given by descriptor, so a folder whose path the new uid cannot
    /// walk is handed over this way.
    pub stage_cwd_at: Option<CString>,
    /// Marks every descriptor but stdio close-on-exec (before `keep_fds` are kept):
    /// the runner may hold some without the flag, inherited from whatever started it
    /// (a listening socket, a database connection), and a bot must get none of them.
    pub seal_fds: bool,
    /// File descriptors to keep open across exec (given to bwrap). They must not be
    /// [`MOVED_STDIN`] or [`MOVED_STDOUT`] when `move_stdio` is set.
    pub keep_fds: Vec<RawFd>,
    /// Moves the bot's stdin and stdout pipes to [`MOVED_STDIN`] and [`MOVED_STDOUT`]
    /// and puts `/dev/null` in their place, for a wrapper (bwrap) that keeps its own
    /// stdio open all game: it would otherwise hold the bot's pipes too, and a bot
    /// closing its output would go unnoticed. The command moves them back.
    pub move_stdio: bool,
    /// uid (and gid) to run as.
    pub uid: Option<u32>,
}

pub(super) fn check(r: libc::c_int) -> io::Result<()> {
    if r < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(())
    }
}

impl Confinement {
    /// Runs in the child between fork and exec: async-signal-safe calls only, on data
    /// prepared before the fork.
    pub(super) fn apply(&self) -> io::Result<()> {
        for path in &self.cgroup_procs {
            join_cgroup(path)?;
        }
        for &(resource, limit) in &self.rlimits {
            set_rlimit(resource, limit)?;
        }
        if self.seal_fds {
            seal_fds();
        }
        for &fd in &self.keep_fds {
            // SAFETY: clearing FD_CLOEXEC on a descriptor we own.
            check(unsafe { libc::fcntl(fd, libc::F_SETFD, 0) })?;
        }
        if let Some(fd) = self.cwd_fd {
            // SAFETY: fchdir on an open directory descriptor.
            check(unsafe { libc::fchdir(fd) })?;
        }
        if let Some(target) = &self.stage_cwd_at {
            stage_cwd(target)?;
        }
        if let Some(uid) = self.uid {
            become_uid(uid)?;
        }
        if self.move_stdio {
            // Last, as it may replace a descriptor of std's own (its pipe that reports
            // a failed exec) that happens to sit at 3 or 4: only a failing exec would
            // then be reported as a bot that died at once.
            move_stdio()?;
        }
        Ok(())
    }
}

/// Moves this process into a cgroup by writing `0` into its `cgroup.procs`.
fn join_cgroup(procs: &CStr) -> io::Result<()> {
    // SAFETY: plain syscalls on a NUL-terminated path and a static buffer.
    unsafe {
        let fd = libc::open(procs.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
        check(fd)?;
        let written = libc::write(fd, b"0".as_ptr().cast(), 1);
        libc::close(fd);
        if written != 1 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Sets `resource` to `limit`, soft and hard.
fn set_rlimit(resource: i32, limit: u64) -> io::Result<()> {
    let rl = libc::rlimit {
        rlim_cur: limit,
        rlim_max: limit,
    };
    // SAFETY: setrlimit with a valid struct.
    check(unsafe { libc::setrlimit(resource as _, &rl) })
}

/// Marks every descriptor from 3 up close-on-exec.
fn seal_fds() {
    // SAFETY: close_range only sets a flag on this process's descriptors.
    let r = unsafe {
        libc::syscall(
            libc::SYS_close_range,
            3 as libc::c_uint,
            libc::c_uint::MAX,
            libc::CLOSE_RANGE_CLOEXEC,
        )
    };
    if r != 0 {
        // Kernels before 5.11: one by one.
        for fd in 3..65_536 {
            // SAFETY: as above; unused numbers just fail with EBADF.
            unsafe { libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC) };
        }
    }
}

/// Bind-mounts the working directory on `target`, in a mount namespace of its own.
fn stage_cwd(target: &CStr) -> io::Result<()> {
    // SAFETY: plain syscalls on NUL-terminated paths prepared before the fork.
    // The namespace is made a slave first, so the mount never reaches the host.
    // The source is `.`: unshare moved the working directory into the new
    // namespace, where a descriptor opened before would not be accepted.
    unsafe {
        check(libc::unshare(libc::CLONE_NEWNS))?;
        check(libc::mount(
            std::ptr::null(),
            c"/".as_ptr(),
            std::ptr::null(),
            libc::MS_REC | libc::MS_SLAVE,
            std::ptr::null(),
        ))?;
        check(libc::mount(
            c".".as_ptr(),
            target.as_ptr(),
            std::ptr::null(),
            libc::MS_BIND,
            std::ptr::null(),
        ))?;
    }
    Ok(())
}

/// Drops to `uid` (and the gid of the same number), with no supplementary groups.
fn become_uid(uid: u32) -> io::Result<()> {
    // SAFETY: dropping privileges; groups first, then gid, then uid.
    unsafe {
        check(libc::setgroups(0, std::ptr::null()))?;
        check(libc::setgid(uid))?;
        check(libc::setuid(uid))?;
    }
    Ok(())
}

/// Moves stdin and stdout to [`MOVED_STDIN`] and [`MOVED_STDOUT`], with `/dev/null`
/// in their place.
fn move_stdio() -> io::Result<()> {
    // SAFETY: dup2, open and close on descriptors of this forked process.
    unsafe {
        check(libc::dup2(0, MOVED_STDIN))?;
        check(libc::dup2(1, MOVED_STDOUT))?;
        let null = libc::open(c"/dev/null".as_ptr(), libc::O_RDWR | libc::O_CLOEXEC);
        check(null)?;
        check(libc::dup2(null, 0))?;
        check(libc::dup2(null, 1))?;
        libc::close(null);
    }
    Ok(())
}
