//! This machine's cache of built versions, on disk under `DATA_DIR/builds`, and the
//! workspace a build runs in. Everything here is sized, owned and checked, because a
//! build is a contestant's code writing to our disk:
//!
//! - A build runs in a **workspace** of at most `size_cap` bytes and [`MAX_INODES`]
//!   entries: a size-capped tmpfs when this process may mount one (root, or a container
//!   with `SYS_ADMIN`), else a plain folder watched while the build runs. A workspace
//!   is removed whatever happens; one left by a process that died is swept at start.
//! - What a passing build wrote is **copied out** by the server: owned by the server's
//!   uid, without setuid, setgid or write bits for others, symlinks kept as links and
//!   never followed, special files dropped. A digest of the copy goes in its marker
//!   (`v<ID>.ok`) and is checked again before the build runs (a cheap fingerprint of
//!   the files' status spares re-reading unchanged files).
//! - The cache as a whole stays under `total_cap` bytes: the least recently used
//!   builds go first, never one used in the last [`IN_USE`] (a match may be playing
//!   it), and any unused for [`MAX_AGE`].

mod files;
mod workspace;

use std::collections::HashMap;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

use crate::ids::VersionId;
use files::{copy_out, digest, fingerprint, Fingerprint};
pub use workspace::Workspace;
use workspace::{
    held, is_mount_point, is_root, mount_tmpfs, next_id, process_alive, unmount, walk_usage,
    Mounted,
};

/// Most files and folders one build may hold.
pub const MAX_INODES: u64 = 20_000;
/// A build used this recently is never evicted: a match may be playing it.
pub const IN_USE: Duration = Duration::from_secs(60 * 60);
/// What an entry costs the cache besides its bytes: a block.
const ENTRY_COST: u64 = 4096;
/// A build unused this long is evicted whatever the cache's size.
pub const MAX_AGE: Duration = Duration::from_secs(30 * 24 * 60 * 60);

/// The build cache of this machine.
#[derive(Debug)]
pub struct BuildCache {
    dir: PathBuf,
    /// Most a build may write, and so what is kept of one.
    pub size_cap: u64,
    /// Most the whole cache keeps.
    pub total_cap: u64,
    /// A build used this recently is not evicted ([`IN_USE`]).
    pub in_use: Duration,
    /// Workspaces are size-capped tmpfs mounts (else watched folders).
    tmpfs: bool,
    /// Fingerprints of builds whose digest was checked, by version.
    verified: Mutex<HashMap<VersionId, Fingerprint>>,
    /// The workspaces mounted now.
    mounted: Mounted,
}

/// A build's files as copied out: where, how big, their digest.
#[derive(Debug)]
pub struct Kept {
    pub root: PathBuf,
    pub bytes: u64,
}

impl BuildCache {
    /// The cache in `dir` (made `0700`), with a probe of whether builds can get a
    /// tmpfs of their own here.
    pub fn new(dir: PathBuf, size_cap: u64, total_cap: u64) -> std::io::Result<BuildCache> {
        std::fs::create_dir_all(&dir)?;
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700))?;
        let probe = dir.join(format!(".probe-{}-{}", std::process::id(), next_id()));
        std::fs::create_dir(&probe)?;
        let tmpfs = is_root() && mount_tmpfs(&probe, 1024 * 1024, 16).is_ok();
        if tmpfs {
            unmount(&probe);
        }
        let _ = std::fs::remove_dir(&probe);
        Ok(BuildCache {
            dir,
            size_cap,
            total_cap,
            in_use: IN_USE,
            tmpfs,
            verified: Mutex::new(HashMap::new()),
            mounted: Mounted::default(),
        })
    }

    /// How builds are kept to their size, for `doctor` and the logs.
    pub fn quota_kind(&self) -> &'static str {
        if self.tmpfs {
            "a size-capped tmpfs per build"
        } else {
            "a watched folder per build (no tmpfs: not root, or no SYS_ADMIN)"
        }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn folder(&self, id: VersionId) -> PathBuf {
        self.dir.join(format!("v{id}"))
    }

    fn marker(&self, id: VersionId) -> PathBuf {
        self.dir.join(format!("v{id}.ok"))
    }

    /// A fresh workspace for building version `id`.
    pub fn workspace(&self, id: VersionId) -> std::io::Result<Workspace> {
        std::fs::create_dir_all(&self.dir)?;
        let path = self
            .dir
            .join(format!("v{id}.tmp-{}-{}", std::process::id(), next_id()));
        std::fs::create_dir(&path)?;
        let mounted = self.tmpfs && mount_tmpfs(&path, self.size_cap, MAX_INODES).is_ok();
        if mounted {
            held(&self.mounted).push(path.clone());
        }
        Ok(Workspace {
            path,
            mounted,
            cap: self.size_cap,
            registry: self.mounted.clone(),
        })
    }

    /// Unmounts and removes every workspace still mounted: for a server stopping with
    /// builds under way, whose threads it does not wait for.
    pub fn unmount_all(&self) {
        for path in std::mem::take(&mut *held(&self.mounted)) {
            unmount(&path);
            let _ = std::fs::remove_dir_all(&path);
            tracing::info!(
                "unmounted {}, the workspace of a build cut short",
                path.display()
            );
        }
    }

    /// Copies a built workspace into the cache as version `id`, the bot's root at
    /// `rel` inside it; the reason for its owner when it cannot be kept.
    pub fn keep(
        &self,
        ws: &Workspace,
        rel: &Path,
        id: VersionId,
    ) -> anyhow::Result<Result<Kept, String>> {
        if let Some(over) = ws.over() {
            return Ok(Err(over));
        }
        let staging = self
            .dir
            .join(format!("v{id}.keep-{}-{}", std::process::id(), next_id()));
        let bytes = match copy_out(ws.path(), &staging, self.size_cap) {
            Ok(b) => b,
            Err(why) => {
                let _ = std::fs::remove_dir_all(&staging);
                return Ok(Err(why));
            }
        };
        let digest = digest(&staging)?;
        let folder = self.folder(id);
        let _ = std::fs::remove_file(self.marker(id));
        let _ = std::fs::remove_dir_all(&folder);
        std::fs::rename(&staging, &folder)?;
        let marker_tmp = self
            .dir
            .join(format!("v{id}.ok.tmp-{}", std::process::id()));
        std::fs::write(
            &marker_tmp,
            format!("{}\n{digest}\n{bytes}\n", rel.to_string_lossy()),
        )?;
        std::fs::rename(&marker_tmp, self.marker(id))?;
        if let Ok(fp) = fingerprint(&folder) {
            self.verified_map().insert(id, fp);
        }
        Ok(Ok(Kept {
            root: folder.join(rel),
            bytes,
        }))
    }

    fn verified_map(&self) -> std::sync::MutexGuard<'_, HashMap<VersionId, Fingerprint>> {
        self.verified.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The built root of version `id` if the cache holds it unchanged (and marks it
    /// used). A build whose files changed since it was kept is dropped.
    pub fn cached(&self, id: VersionId) -> Option<PathBuf> {
        let marker = std::fs::read_to_string(self.marker(id)).ok()?;
        let mut lines = marker.lines();
        let (rel, want) = (lines.next()?.trim(), lines.next()?.trim());
        let folder = self.folder(id);
        let root = folder.join(rel);
        if !root.is_dir() {
            return None;
        }
        let fp = fingerprint(&folder).ok()?;
        if self.verified_map().get(&id) != Some(&fp) {
            if digest(&folder).ok().as_deref() != Some(want) {
                tracing::warn!(
                    version = %id,
                    "the cached build changed on disk since it was built: it is built again"
                );
                self.remove(id);
                return None;
            }
            self.verified_map().insert(id, fp);
        }
        let _ = touch(&self.marker(id));
        Some(root)
    }

    /// Removes version `id`'s build, if this machine keeps one (its bot left the
    /// ladder, say).
    pub fn forget(&self, id: VersionId) {
        if self.marker(id).exists() || self.folder(id).exists() {
            tracing::info!(version = %id, "removing the build of a bot out of the ladder");
        }
        self.remove(id);
    }

    /// The versions whose builds this machine keeps.
    pub fn versions(&self) -> Vec<VersionId> {
        self.kept().into_iter().map(|(_, _, id)| id).collect()
    }

    fn remove(&self, id: VersionId) {
        let _ = std::fs::remove_file(self.marker(id));
        let _ = std::fs::remove_dir_all(self.folder(id));
        self.verified_map().remove(&id);
    }

    /// (last used, bytes, version) of every kept build.
    fn kept(&self) -> Vec<(SystemTime, u64, VersionId)> {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        entries
            .filter_map(Result::ok)
            .filter_map(|e| {
                let name = e.file_name().into_string().ok()?;
                let id: VersionId = name.strip_prefix('v')?.strip_suffix(".ok")?.parse().ok()?;
                let used = e.metadata().ok()?.modified().ok()?;
                let text = std::fs::read_to_string(e.path()).ok()?;
                let bytes = text.lines().nth(2).and_then(|b| b.trim().parse().ok());
                let bytes = bytes.unwrap_or_else(|| {
                    let mut usage = (0, 0);
                    walk_usage(&self.folder(id), &mut usage);
                    usage.0
                });
                Some((used, bytes, id))
            })
            .collect()
    }

    /// Bytes the cache holds.
    pub fn size(&self) -> u64 {
        self.kept().iter().map(|k| k.1).sum()
    }

    /// Evicts with the cache's own caps; returns the bytes kept.
    pub fn evict(&self) -> u64 {
        self.evict_with(self.total_cap, MAX_AGE, self.in_use)
    }

    /// Removes builds unused for `max_age`, then the least recently used until the
    /// cache is under `max_bytes`, sparing those used within `in_use`. Returns the
    /// bytes kept.
    pub fn evict_with(&self, max_bytes: u64, max_age: Duration, in_use: Duration) -> u64 {
        let mut builds = self.kept();
        builds.sort();
        let mut total: u64 = builds.iter().map(|b| b.1).sum();
        let now = SystemTime::now();
        for (used, size, id) in builds {
            let idle = now.duration_since(used).unwrap_or_default();
            if idle > max_age || (total > max_bytes && idle >= in_use) {
                self.remove(id);
                total -= size;
            }
        }
        if total > max_bytes {
            tracing::warn!(
                bytes = total,
                cap = max_bytes,
                "the build cache is over its size, but every build in it was used in the last hour"
            );
        }
        total
    }

    /// Removes what builds interrupted by a crash left: workspaces and copies of
    /// processes that are gone, and folders that never got their marker.
    pub fn sweep(&self) {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return;
        };
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let path = e.path();
            let owner_pid = name
                .split_once(".tmp-")
                .or_else(|| name.split_once(".keep-"))
                .and_then(|(_, rest)| rest.split('-').next()?.parse::<i32>().ok());
            let leftover = match owner_pid {
                Some(pid) => !process_alive(pid),
                None => {
                    // `v<ID>` without its marker, an hour after it was made.
                    name.strip_prefix('v')
                        .is_some_and(|id| id.parse::<i64>().is_ok())
                        && !self.dir.join(format!("{name}.ok")).exists()
                        && e.metadata()
                            .ok()
                            .and_then(|m| m.modified().ok())
                            .and_then(|t| t.elapsed().ok())
                            .is_some_and(|age| age > IN_USE)
                }
            };
            if leftover {
                if is_mount_point(&path) {
                    unmount(&path);
                }
                tracing::info!("removing {}, left by an interrupted build", path.display());
                if path.is_dir() {
                    let _ = std::fs::remove_dir_all(&path);
                } else {
                    let _ = std::fs::remove_file(&path);
                }
            }
        }
    }
}

/// Marks a file as used now.
fn touch(path: &Path) -> std::io::Result<()> {
    std::fs::File::options()
        .write(true)
        .open(path)?
        .set_modified(SystemTime::now())
}
