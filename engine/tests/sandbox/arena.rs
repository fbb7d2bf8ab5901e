//! Each test's folders, and the lock that keeps the tests apart.

use std::os::fd::AsRawFd;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

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

pub fn tmp() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
}

fn bots_src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots")
}

pub fn chmod(path: &Path, mode: u32) {
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
pub struct Arena {
    pub root: PathBuf,
    /// The hostile bot's folder.
    pub hostile: PathBuf,
    /// The normal bot's folder, with a secret in it.
    pub peer: PathBuf,
    /// Stands for the server's data folder, with a secret in it.
    pub data: PathBuf,
    _serial: Serial,
}

pub fn arena(test: &str) -> Arena {
    arena_with_root_mode(test, 0o700)
}

/// An arena any uid may walk and read: then only the sandbox keeps the bot from the
/// other folders, not their modes.
pub fn open_arena(test: &str) -> Arena {
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
