//! The embedded clusters' bookkeeping (see `db.rs`): which process owns a running
//! cluster, so that one left running by a process killed outright is taken over (and
//! stopped at the next clean exit) instead of running for good; and which data folder
//! each cluster under [`CLUSTERS`](crate::db::CLUSTERS) belongs to, so that the
//! clusters of deleted data folders are removed.

use std::path::{Path, PathBuf};

/// The file in the data folder naming the process that owns its running cluster.
const OWNER: &str = "postgres.owner";
/// Beside a cluster under `CLUSTERS`, the file naming its data folder.
const FOLDER_SUFFIX: &str = ".folder";

/// When the process `pid` started, in clock ticks since boot: with the pid, names one
/// process even after its pid is reused.
fn started(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command may hold spaces and parentheses: the fields follow the last `)`.
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(19)?.parse().ok()
}

/// Notes this process as the owner of `data_dir`'s running cluster.
pub fn claim(data_dir: &Path) {
    let me = std::process::id();
    let text = format!("{me} {}\n", started(me).unwrap_or(0));
    if let Err(e) = std::fs::write(data_dir.join(OWNER), text) {
        tracing::warn!("cannot note the owner of the embedded PostgreSQL: {e}");
    }
}

/// Forgets this process as the owner (it stopped the cluster).
pub fn release(data_dir: &Path) {
    let _ = std::fs::remove_file(data_dir.join(OWNER));
}

/// Whether the cluster of `data_dir` was started by a process that is gone: it was
/// killed before it could stop it. False when no owner was noted (a cluster started
/// by hand, or by an earlier version): it is left to whoever runs it.
pub fn orphaned(data_dir: &Path) -> bool {
    let Ok(text) = std::fs::read_to_string(data_dir.join(OWNER)) else {
        return false;
    };
    let mut fields = text.split_whitespace().map(|f| f.parse::<u64>().ok());
    let (Some(Some(pid)), Some(Some(when))) = (fields.next(), fields.next()) else {
        return true;
    };
    let pid = u32::try_from(pid).unwrap_or(0);
    pid != std::process::id() && started(pid) != Some(when)
}

/// Notes beside `cluster` (under `CLUSTERS`) the data folder it belongs to.
pub fn note_folder(cluster: &Path, data_dir: &Path) -> std::io::Result<()> {
    std::fs::write(sidecar(cluster), data_dir.as_os_str().as_encoded_bytes())
}

fn sidecar(cluster: &Path) -> PathBuf {
    let mut name = cluster.as_os_str().to_owned();
    name.push(FOLDER_SUFFIX);
    PathBuf::from(name)
}

/// The clusters under `clusters` whose data folder is gone, or names another cluster
/// now: (the cluster's folder, its data folder).
pub fn orphans(clusters: &Path) -> Vec<(PathBuf, PathBuf)> {
    let Ok(entries) = std::fs::read_dir(clusters) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for e in entries.flatten() {
        let path = e.path();
        let Some(cluster) = path
            .to_str()
            .and_then(|p| p.strip_suffix(FOLDER_SUFFIX))
            .map(PathBuf::from)
        else {
            continue;
        };
        let Ok(folder) = std::fs::read_to_string(&path) else {
            continue;
        };
        let folder = PathBuf::from(folder);
        let location =
            std::fs::read_to_string(folder.join("postgres.location")).unwrap_or_default();
        if !location.lines().any(|l| Path::new(l.trim()) == cluster) {
            found.push((cluster, folder));
        }
    }
    found
}

/// Forgets a removed cluster's note.
pub fn forget(cluster: &Path) {
    let _ = std::fs::remove_file(sidecar(cluster));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dead_owner_is_told_from_a_live_one_even_with_its_pid_reused() {
        let dir = std::env::temp_dir().join(format!("bb-owner-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        assert!(!orphaned(&dir), "no owner noted: left alone");
        claim(&dir);
        assert!(!orphaned(&dir), "we are alive");
        let me = std::process::id();
        std::fs::write(
            dir.join(OWNER),
            format!("{} {}\n", me, started(me).unwrap() + 1),
        )
        .unwrap();
        assert!(!orphaned(&dir), "this process never takes over from itself");
        std::fs::write(dir.join(OWNER), "999999999 5\n").unwrap();
        assert!(orphaned(&dir), "no such process");
        release(&dir);
        assert!(!orphaned(&dir));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_cluster_whose_data_folder_is_gone_is_an_orphan() {
        let root = std::env::temp_dir().join(format!("bb-clusters-{}", std::process::id()));
        let clusters = root.join("clusters");
        std::fs::create_dir_all(&clusters).unwrap();
        let (kept, gone) = (clusters.join("kept-1"), clusters.join("gone-2"));
        let (kept_data, gone_data) = (root.join("data-kept"), root.join("data-gone"));
        for (cluster, data) in [(&kept, &kept_data), (&gone, &gone_data)] {
            std::fs::create_dir_all(cluster).unwrap();
            std::fs::create_dir_all(data).unwrap();
            std::fs::write(
                data.join("postgres.location"),
                format!("The cluster is in\n{}\n", cluster.display()),
            )
            .unwrap();
            note_folder(cluster, data).unwrap();
        }
        assert!(orphans(&clusters).is_empty());
        std::fs::remove_dir_all(&gone_data).unwrap();
        assert_eq!(orphans(&clusters), vec![(gone.clone(), gone_data)]);
        forget(&gone);
        assert!(orphans(&clusters).is_empty());
        let _ = std::fs::remove_dir_all(&root);
    }
}
