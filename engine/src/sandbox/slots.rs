//! One unprivileged uid per concurrently running bot, so that a bot never shares a uid
//! with the server or with another bot. Slots are shared by every process on the
//! machine through lock files (a crashed process releases its locks with it), in a
//! folder that must be ours and writable by no one else: in a shared folder like
//! `/tmp`, another account could hold every slot or plant links.

use std::fs::{self, File};
use std::os::fd::AsRawFd;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::process::{all_processes, kill_until_gone, proc_uid};

/// A pool of uids `base .. base + count`.
#[derive(Debug)]
pub struct SlotPool {
    base: u32,
    count: u32,
    lock_dir: PathBuf,
    /// Slots taken by this process.
    taken: Mutex<Vec<bool>>,
    /// Slots this process has seen empty of processes since it locked them last: no
    /// need to look for leftovers of a crashed run again.
    verified: Mutex<Vec<bool>>,
}

/// A slot held until dropped; its uid has no process left when it is released.
#[derive(Debug)]
pub struct Slot {
    pub uid: u32,
    index: u32,
    pool: Arc<SlotPool>,
    _lock: File,
}

impl SlotPool {
    pub fn new(base: u32, count: u32, lock_dir: PathBuf) -> Arc<SlotPool> {
        Arc::new(SlotPool {
            base,
            count,
            lock_dir,
            taken: Mutex::new(vec![false; count as usize]),
            verified: Mutex::new(vec![false; count as usize]),
        })
    }

    /// Takes a free slot, waiting up to `wait` for one.
    pub fn acquire(self: &Arc<Self>, wait: Duration) -> std::io::Result<Slot> {
        prepare_lock_dir(&self.lock_dir)?;
        let deadline = std::time::Instant::now() + wait;
        loop {
            for index in 0..self.count {
                if let Some(slot) = self.try_take(index)? {
                    return Ok(slot);
                }
            }
            if std::time::Instant::now() >= deadline {
                return Err(std::io::Error::other(format!(
                    "all {} sandbox slots are busy (uids {}..{})",
                    self.count,
                    self.base,
                    self.base + self.count - 1
                )));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn try_take(self: &Arc<Self>, index: u32) -> std::io::Result<Option<Slot>> {
        let mut taken = self.taken.lock().unwrap_or_else(|e| e.into_inner());
        if taken[index as usize] {
            return Ok(None);
        }
        let path = self.lock_dir.join(format!("slot-{index}.lock"));
        let open = || {
            File::options()
                .create(true)
                .truncate(false)
                .write(true)
                .custom_flags(libc::O_NOFOLLOW)
                .open(&path)
        };
        let file = match open() {
            // A link where a lock file belongs was planted: it goes, unfollowed.
            Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
                fs::remove_file(&path)?;
                open()?
            }
            other => other?,
        };
        // SAFETY: flock on a descriptor we own.
        if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
            return Ok(None);
        }
        taken[index as usize] = true;
        let uid = self.base + index;
        // Whatever a crashed run left behind under this uid goes now; a slot this
        // process released cleanly has nothing left.
        let mut verified = self.verified.lock().unwrap_or_else(|e| e.into_inner());
        if !verified[index as usize] {
            kill_uid(uid);
            verified[index as usize] = true;
        }
        Ok(Some(Slot {
            uid,
            index,
            pool: self.clone(),
            _lock: file,
        }))
    }
}

/// Makes the lock folder (mode 0700) or checks an existing one: a folder, not a link,
/// ours, and writable by no one else.
pub fn prepare_lock_dir(dir: &Path) -> std::io::Result<()> {
    if let Some(parent) = dir.parent() {
        if !parent.exists() {
            fs::DirBuilder::new()
                .recursive(true)
                .mode(0o755)
                .create(parent)?;
        }
    }
    match fs::DirBuilder::new().mode(0o700).create(dir) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(e),
    }
    let meta = fs::symlink_metadata(dir)?;
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    let unsafe_because = if !meta.is_dir() {
        Some("it is not a folder (a link?)")
    } else if meta.uid() != me {
        Some("it belongs to another account")
    } else if meta.mode() & 0o022 != 0 {
        Some("others may write in it")
    } else {
        None
    };
    match unsafe_because {
        Some(why) => Err(std::io::Error::other(format!(
            "the sandbox's slot lock folder {} cannot be trusted: {why}",
            dir.display()
        ))),
        None => Ok(()),
    }
}

/// Kills every process running as `uid`, until none is left.
pub fn kill_uid(uid: u32) {
    kill_until_gone(|| {
        all_processes()
            .iter()
            .filter(|p| p.state != b'Z' && proc_uid(p.pid) == Some(uid))
            .map(|p| p.pid)
            .collect()
    });
}

impl Drop for Slot {
    fn drop(&mut self) {
        kill_uid(self.uid);
        let mut taken = self.pool.taken.lock().unwrap_or_else(|e| e.into_inner());
        taken[self.index as usize] = false;
    }
}
