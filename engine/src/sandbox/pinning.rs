//! Keeping a bot that wants more than its CPU quota off its neighbours' cores.
//!
//! A CPU quota caps a bot's CPU time per period, but the scheduler lets a throttled
//! group spend it in bursts on every core at once, beside the other bots. Pinning every
//! bot to one core would stop that, but it costs every honest bot a cross-core wakeup
//! per turn (measured: 65 → 98 µs a turn for two idle bots). So only a bot that has
//! been throttled (it ran on more than its share of cores at once) is pinned, to the
//! cores the fewest other pinned bots use. A watcher thread looks every
//! [`WATCH_EVERY`], for every bot cgroup of this machine's server.

use std::collections::HashSet;
use std::ffi::OsString;
use std::fs;
use std::io;
use std::path::Path;
use std::sync::Once;
use std::time::Duration;

use super::cgroup::{read_key, BotCgroup, Cgroups, CPU_PERIOD_US};

/// How often the watcher looks for throttled bots.
pub const WATCH_EVERY: Duration = Duration::from_millis(20);

/// Starts the watcher, once per process.
pub fn watch(cgroups: &Cgroups) {
    static STARTED: Once = Once::new();
    if !cgroups.has_cpu_pinning() {
        return;
    }
    let cgroups = cgroups.clone();
    STARTED.call_once(|| {
        // Without the thread the quota still holds; only the pinning is missed.
        let _ = std::thread::Builder::new()
            .name("cpu-pinning".into())
            .spawn(move || {
                let mut pinned = HashSet::new();
                loop {
                    cgroups.pin_throttled(&mut pinned);
                    std::thread::sleep(WATCH_EVERY);
                }
            });
    });
}

impl Cgroups {
    /// Where the bots' cpuset folders live.
    fn cpuset_base(&self) -> Option<&Path> {
        match self {
            Cgroups::V2 { base, cpuset: true } => Some(base),
            Cgroups::V1 {
                cpuset: Some(base), ..
            } => Some(base),
            _ => None,
        }
    }

    /// Where the bots' `cpu.stat` (throttling) and quota live.
    fn quota_base(&self) -> &Path {
        match self {
            Cgroups::V2 { base, .. } => base,
            Cgroups::V1 { cpu: Some(cpu), .. } => cpu,
            // A combined `cpu,cpuacct` hierarchy.
            Cgroups::V1 { cpuacct, .. } => cpuacct,
        }
    }

    /// A v1 cpuset starts with no cores and no memory nodes, and nothing can join it
    /// then: give a new bot every core. (v2 inherits them.)
    pub(super) fn init_cpuset(&self, cg: &BotCgroup) -> io::Result<()> {
        let Some(base) = self.cpuset_base().filter(|_| !cg.v2) else {
            return Ok(());
        };
        let Some(dir) = cg.dirs.iter().find(|d| d.starts_with(base)) else {
            return Ok(());
        };
        for file in ["cpuset.mems", "cpuset.cpus"] {
            fs::write(dir.join(file), fs::read_to_string(base.join(file))?.trim())?;
        }
        Ok(())
    }

    /// Pins every bot that has been throttled since it started and is not pinned
    /// yet; `pinned` remembers the bots already seen to (and forgets those gone).
    pub fn pin_throttled(&self, pinned: &mut HashSet<OsString>) {
        let (Some(cpuset), quota) = (self.cpuset_base(), self.quota_base()) else {
            return;
        };
        let Ok(entries) = fs::read_dir(quota) else {
            return;
        };
        let alive: HashSet<OsString> = entries
            .flatten()
            .filter(|e| e.path().is_dir())
            .map(|e| e.file_name())
            .collect();
        pinned.retain(|name| alive.contains(name));
        for name in alive {
            if pinned.contains(&name) {
                continue;
            }
            let dir = quota.join(&name);
            if read_key(&dir.join("cpu.stat"), "nr_throttled").unwrap_or(0) == 0 {
                continue;
            }
            if let Some(cores) = quota_cores(&dir) {
                // A bot that ended meanwhile has nothing left to pin.
                let _ = pin(cpuset, &cpuset.join(&name), cores);
            }
            pinned.insert(name);
        }
    }
}

/// How many cores a bot's quota amounts to, rounded up.
fn quota_cores(dir: &Path) -> Option<usize> {
    let (quota, period) = match fs::read_to_string(dir.join("cpu.max")) {
        Ok(max) => {
            let mut it = max.split_whitespace();
            (it.next()?.parse::<u64>().ok()?, it.next()?.parse().ok()?)
        }
        Err(_) => {
            let quota = fs::read_to_string(dir.join("cpu.cfs_quota_us")).ok()?;
            (quota.trim().parse::<u64>().ok()?, CPU_PERIOD_US)
        }
    };
    Some(quota.div_ceil(period.max(1)) as usize)
}

/// Pins the bot whose cpuset folder is `dir` to the `cores` cores of `base` that the
/// fewest other bots are pinned to; leaves it alone when it may use them all.
fn pin(base: &Path, dir: &Path, cores: usize) -> io::Result<()> {
    let allowed = ["cpuset.cpus.effective", "cpuset.cpus"]
        .iter()
        .find_map(|f| fs::read_to_string(base.join(f)).ok())
        .map(|l| parse_cpu_list(&l))
        .unwrap_or_default();
    if cores == 0 || cores >= allowed.len() {
        return Ok(());
    }
    // Unpinned bots list every core and so weigh on each alike.
    let mut load: Vec<(usize, u32)> = allowed.iter().map(|&c| (0, c)).collect();
    for entry in fs::read_dir(base)?.flatten() {
        let other = entry.path();
        if other == dir || !other.is_dir() {
            continue;
        }
        let pins = fs::read_to_string(other.join("cpuset.cpus")).unwrap_or_default();
        for cpu in parse_cpu_list(&pins) {
            if let Some(l) = load.iter_mut().find(|(_, c)| *c == cpu) {
                l.0 += 1;
            }
        }
    }
    load.sort();
    let chosen: Vec<String> = load[..cores].iter().map(|(_, c)| c.to_string()).collect();
    fs::write(dir.join("cpuset.cpus"), chosen.join(","))
}

/// The cores of a cpuset list such as `0-3,6`.
fn parse_cpu_list(list: &str) -> Vec<u32> {
    let mut cpus = Vec::new();
    for part in list.trim().split(',').filter(|p| !p.is_empty()) {
        let mut ends = part.splitn(2, '-').map(|n| n.trim().parse::<u32>());
        match (ends.next(), ends.next()) {
            (Some(Ok(a)), None) => cpus.push(a),
            (Some(Ok(a)), Some(Ok(b))) if b >= a => cpus.extend(a..=b),
            _ => {}
        }
    }
    cpus
}

#[cfg(test)]
mod tests {
    use super::parse_cpu_list;

    #[test]
    fn cpu_lists_are_read_like_the_kernel_writes_them() {
        assert_eq!(parse_cpu_list("0-3,6\n"), vec![0, 1, 2, 3, 6]);
        assert_eq!(parse_cpu_list("1"), vec![1]);
        assert_eq!(parse_cpu_list(""), Vec::<u32>::new());
        assert_eq!(parse_cpu_list("3-1,x"), Vec::<u32>::new());
    }
}
