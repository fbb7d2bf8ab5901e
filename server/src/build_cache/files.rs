//! A build's files as the cache sees them: listed without following links, digested,
//! fingerprinted from their status, and copied out of a workspace.

use std::io::Read;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::{ENTRY_COST, MAX_INODES};

/// What a build's files look like from their status alone: any write changes it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Fingerprint {
    pub(super) entries: u64,
    pub(super) bytes: u64,
    pub(super) newest_ctime: (i64, i64),
}

/// Every entry under `root`, in a stable order, with its path relative to `root`.
pub(super) fn entries(root: &Path) -> std::io::Result<Vec<(PathBuf, std::fs::Metadata)>> {
    let mut out = Vec::new();
    let mut stack = vec![PathBuf::new()];
    while let Some(rel) = stack.pop() {
        let mut here: Vec<_> = std::fs::read_dir(root.join(&rel))?
            .collect::<Result<Vec<_>, _>>()?
            .into_iter()
            .map(|e| e.file_name())
            .collect();
        here.sort();
        for name in here.into_iter().rev() {
            let path = rel.join(name);
            let meta = std::fs::symlink_metadata(root.join(&path))?;
            if meta.is_dir() {
                stack.push(path.clone());
            }
            out.push((path, meta));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

/// The digest of a tree: every path, kind, permission bits and contents (a link's
/// target, never what it points to).
pub(super) fn digest(root: &Path) -> std::io::Result<String> {
    let mut h = Sha256::new();
    for (rel, meta) in entries(root)? {
        h.update(rel.as_os_str().as_bytes());
        h.update([0]);
        h.update((meta.mode() & 0o7777).to_le_bytes());
        let ft = meta.file_type();
        if ft.is_symlink() {
            h.update(b"l");
            h.update(std::fs::read_link(root.join(&rel))?.as_os_str().as_bytes());
        } else if ft.is_file() {
            h.update(b"f");
            h.update(meta.len().to_le_bytes());
            let mut f = std::fs::File::open(root.join(&rel))?;
            let mut buf = vec![0u8; 64 * 1024];
            loop {
                let n = f.read(&mut buf)?;
                if n == 0 {
                    break;
                }
                h.update(&buf[..n]);
            }
        } else {
            h.update(b"d");
        }
        h.update([0]);
    }
    Ok(hex::encode(h.finalize()))
}

pub(super) fn fingerprint(root: &Path) -> std::io::Result<Fingerprint> {
    let mut f = Fingerprint::default();
    for (_, meta) in entries(root)? {
        f.entries += 1;
        f.bytes += meta.len();
        f.newest_ctime = f.newest_ctime.max((meta.ctime(), meta.ctime_nsec()));
    }
    Ok(f)
}

/// Copies `from` into the new folder `to` as the server's own files: permission bits
/// without setuid, setgid, sticky or write for others; links as links; special files
/// left out. Stops past `cap` bytes or [`MAX_INODES`] entries.
pub(super) fn copy_out(from: &Path, to: &Path, cap: u64) -> Result<u64, String> {
    let io = |e: std::io::Error| format!("copying the build failed: {e}");
    std::fs::create_dir(to).map_err(io)?;
    std::fs::set_permissions(to, std::fs::Permissions::from_mode(0o755)).map_err(io)?;
    let list = entries(from).map_err(io)?;
    if list.len() as u64 > MAX_INODES {
        return Err(format!(
            "the build made more than {MAX_INODES} files and folders"
        ));
    }
    let mut bytes = 0u64;
    for (rel, meta) in list {
        let (src, dst) = (from.join(&rel), to.join(&rel));
        let ft = meta.file_type();
        // Every entry costs at least a block, so that a cache of many empty files is
        // trimmed by its count too: the disk's inodes cannot run out before its bytes.
        bytes += ENTRY_COST;
        if ft.is_dir() {
            std::fs::create_dir(&dst).map_err(io)?;
            std::fs::set_permissions(&dst, std::fs::Permissions::from_mode(0o755)).map_err(io)?;
        } else if ft.is_symlink() {
            let target = std::fs::read_link(&src).map_err(io)?;
            std::os::unix::fs::symlink(target, &dst).map_err(io)?;
        } else if ft.is_file() {
            bytes += meta.len();
        }
        if bytes > cap {
            return Err(format!(
                "the build wrote more than {} MiB",
                cap / (1024 * 1024)
            ));
        }
        if ft.is_file() {
            // Read through a descriptor opened without following links: the file was
            // a regular file a moment ago, and must still be one.
            let mut input = std::fs::File::options()
                .read(true)
                .custom_flags(libc::O_NOFOLLOW)
                .open(&src)
                .map_err(io)?;
            let mut output = std::fs::File::create_new(&dst).map_err(io)?;
            std::io::copy(&mut (&mut input).take(cap), &mut output).map_err(io)?;
            let mode = meta.mode() & 0o755;
            std::fs::set_permissions(&dst, std::fs::Permissions::from_mode(mode)).map_err(io)?;
        }
    }
    Ok(bytes)
}
