//! The workspace a build runs in: a size-capped tmpfs when this process may mount one,
//! else a folder whose usage is watched; removed when dropped.

use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use super::MAX_INODES;

pub(super) fn next_id() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

pub(super) fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

pub(super) fn cstr(path: &Path) -> std::io::Result<CString> {
    CString::new(path.as_os_str().as_bytes()).map_err(std::io::Error::other)
}

/// Mounts a tmpfs of `bytes` and `inodes` at `at` (no devices, no setuid).
pub(super) fn mount_tmpfs(at: &Path, bytes: u64, inodes: u64) -> std::io::Result<()> {
    let target = cstr(at)?;
    let options = CString::new(format!("size={bytes},nr_inodes={inodes},mode=0700"))
        .map_err(std::io::Error::other)?;
    // SAFETY: every pointer is a valid NUL-terminated string for the call's duration.
    let r = unsafe {
        libc::mount(
            c"bottlebats-build".as_ptr(),
            target.as_ptr(),
            c"tmpfs".as_ptr(),
            libc::MS_NOSUID | libc::MS_NODEV,
            options.as_ptr().cast(),
        )
    };
    if r == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

/// The workspaces of one cache mounted and not yet unmounted: what
/// `BuildCache::unmount_all` lets go of when the server stops with builds under way
/// (their threads are not waited for, so their workspaces are never dropped).
pub(super) type Mounted = std::sync::Arc<std::sync::Mutex<Vec<PathBuf>>>;

pub(super) fn held(m: &Mounted) -> std::sync::MutexGuard<'_, Vec<PathBuf>> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

pub(super) fn unmount(at: &Path) {
    if let Ok(target) = cstr(at) {
        // SAFETY: a valid path string; MNT_DETACH also lets go of a busy mount.
        unsafe {
            if libc::umount2(target.as_ptr(), 0) != 0 {
                libc::umount2(target.as_ptr(), libc::MNT_DETACH);
            }
        }
    }
}

/// True when `path` is the root of a mount (its device differs from its parent's).
pub(super) fn is_mount_point(path: &Path) -> bool {
    let (Ok(me), Some(Ok(parent))) = (
        std::fs::symlink_metadata(path),
        path.parent().map(std::fs::symlink_metadata),
    ) else {
        return false;
    };
    me.dev() != parent.dev()
}

pub(super) fn process_alive(pid: i32) -> bool {
    // SAFETY: signal 0 only checks that the process exists.
    pid > 0 && unsafe { libc::kill(pid, 0) } == 0
}

/// Where one build runs. Dropped, it is unmounted and removed.
#[derive(Debug)]
pub struct Workspace {
    pub(super) path: PathBuf,
    pub(super) mounted: bool,
    pub(super) cap: u64,
    /// Its cache's mounted workspaces, which it leaves when dropped.
    pub(super) registry: Mounted,
}

impl Workspace {
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Bytes and entries written so far.
    pub fn usage(&self) -> (u64, u64) {
        if self.mounted {
            if let Some(used) = statvfs_used(&self.path) {
                return used;
            }
        }
        let mut usage = (0, 0);
        walk_usage(&self.path, &mut usage);
        usage
    }

    /// Why the build has outgrown its workspace, if it has: a full tmpfs refuses the
    /// write that would go past it, so "nearly full" counts as over.
    pub fn over(&self) -> Option<String> {
        let (bytes, entries) = self.usage();
        let slack = if self.mounted {
            (self.cap / 64).max(1024 * 1024)
        } else {
            0
        };
        if bytes + slack > self.cap {
            Some(format!(
                "the build wrote more than {} MiB",
                self.cap / (1024 * 1024)
            ))
        } else if entries + 16 > MAX_INODES {
            Some(format!(
                "the build made more than {MAX_INODES} files and folders"
            ))
        } else {
            None
        }
    }
}

impl Drop for Workspace {
    fn drop(&mut self) {
        if self.mounted {
            unmount(&self.path);
            held(&self.registry).retain(|p| p != &self.path);
        }
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

pub(super) fn statvfs_used(path: &Path) -> Option<(u64, u64)> {
    let c = cstr(path).ok()?;
    // SAFETY: statvfs writes into the zeroed struct we pass.
    let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: a valid path and a valid out pointer.
    if unsafe { libc::statvfs(c.as_ptr(), &mut st) } != 0 {
        return None;
    }
    let bytes = (st.f_blocks - st.f_bfree) as u64 * st.f_frsize as u64;
    let entries = (st.f_files - st.f_ffree) as u64;
    Some((bytes, entries))
}

/// Adds the bytes and entries under `dir` (links not followed) to `usage`.
pub(super) fn walk_usage(dir: &Path, usage: &mut (u64, u64)) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let Ok(m) = e.metadata() else { continue };
        usage.1 += 1;
        usage.0 += m.len();
        if m.is_dir() {
            walk_usage(&e.path(), usage);
        }
    }
}
