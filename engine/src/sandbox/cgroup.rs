//! Control groups for bots: memory and process limits, a CPU quota, CPU accounting,
//! and killing everything a bot started. Works with cgroup v2 (most current hosts) and
//! with the v1 `memory`, `pids`, `cpuacct` and `cpu` hierarchies (hosts like ours).
//!
//! A quota alone does not keep a busy bot off its neighbours: the scheduler lets a
//! throttled group spend its core's worth in bursts on every core, beside the others
//! (measured: a bot next to a spinning one took 29–48% longer with a one-core quota).
//! So where the `cpuset` controller is available, a bot that hits its quota is also
//! pinned to its share of cores (see `pinning`).

use std::ffi::CString;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Which cgroup layout this machine offers us.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cgroups {
    /// One unified tree; bots get folders under `base`.
    V2 { base: PathBuf, cpuset: bool },
    /// Separate hierarchies; bots get a folder under each base. `cpu` (for the
    /// quota) is missing on hosts without the controller, and may be the same
    /// hierarchy as `cpuacct` (`cpu,cpuacct`).
    V1 {
        memory: PathBuf,
        pids: PathBuf,
        cpuacct: PathBuf,
        cpu: Option<PathBuf>,
        cpuset: Option<PathBuf>,
    },
}

/// The period of the CPU quota: the quota is this much CPU time per period per core.
pub(super) const CPU_PERIOD_US: u64 = 100_000;

/// Our own cgroup paths, from `/proc/self/cgroup`: (hierarchy controllers, path).
fn own_cgroups() -> Vec<(String, String)> {
    let text = fs::read_to_string("/proc/self/cgroup").unwrap_or_default();
    text.lines()
        .filter_map(|l| {
            let mut parts = l.splitn(3, ':');
            let (_, ctrl, path) = (parts.next()?, parts.next()?, parts.next()?);
            Some((ctrl.to_string(), path.to_string()))
        })
        .collect()
}

/// Makes `dir` (creating it) and checks we can make and remove a child in it.
fn usable(dir: &Path) -> io::Result<()> {
    fs::create_dir_all(dir)?;
    let probe = dir.join(format!("probe-{}", std::process::id()));
    fs::create_dir(&probe)?;
    fs::remove_dir(&probe)
}

impl Cgroups {
    /// Finds a place where we may create cgroups with the memory and pids controllers
    /// and CPU accounting, or says why there is none.
    pub fn detect() -> Result<Cgroups, String> {
        let own = own_cgroups();
        let root = Path::new("/sys/fs/cgroup");
        let v2_controllers =
            fs::read_to_string(root.join("cgroup.controllers")).unwrap_or_default();
        if ["memory", "pids", "cpu"]
            .iter()
            .all(|c| v2_controllers.split_whitespace().any(|x| x == *c))
        {
            let path = own
                .iter()
                .find(|(c, _)| c.is_empty())
                .map(|(_, p)| p.clone())
                .unwrap_or_default();
            return Cgroups::prepare_v2(&root.join(path.trim_start_matches('/')));
        }
        let find = |name: &str| -> Result<PathBuf, String> {
            let (_, path) = own
                .iter()
                .find(|(c, _)| c.split(',').any(|x| x == name))
                .ok_or_else(|| format!("no cgroup v1 `{name}` hierarchy and no cgroup v2 with memory, pids and cpu"))?;
            // Combined hierarchies (`cpu,cpuacct`) come with a symlink per name.
            let mount = root.join(name);
            if !mount.join("cgroup.procs").exists() {
                return Err(format!(
                    "the cgroup v1 `{name}` hierarchy is not mounted under /sys/fs/cgroup"
                ));
            }
            let dir = mount.join(path.trim_start_matches('/')).join("bottlebats");
            usable(&dir).map_err(|e| format!("cannot create cgroups in {}: {e}", dir.display()))?;
            Ok(dir)
        };
        let cpuacct = find("cpuacct")?;
        // A combined `cpu,cpuacct` hierarchy is one folder under two names: the
        // cpuacct folder then holds the quota too.
        let cpu = find("cpu")
            .ok()
            .filter(|cpu| cpu.canonicalize().ok() != cpuacct.canonicalize().ok());
        // A v1 cpuset starts with no cores and no memory nodes: give ours the parent's.
        let cpuset = find("cpuset").ok().filter(|dir| {
            ["cpuset.cpus", "cpuset.mems"].iter().all(|f| {
                let parent = dir.parent().map(|p| p.join(f));
                let value = parent.and_then(|p| fs::read_to_string(p).ok());
                value.is_some_and(|v| fs::write(dir.join(f), v.trim()).is_ok())
            })
        });
        Ok(Cgroups::V1 {
            memory: find("memory")?,
            pids: find("pids")?,
            cpuacct,
            cpu,
            cpuset,
        })
    }

    /// Whether bots with a quota are pinned to their own cores here.
    pub fn has_cpu_pinning(&self) -> bool {
        match self {
            Cgroups::V2 { cpuset, .. } => *cpuset,
            Cgroups::V1 { cpuset, .. } => cpuset.is_some(),
        }
    }

    /// Whether bots get a CPU quota here.
    pub fn has_cpu_quota(&self) -> bool {
        match self {
            Cgroups::V2 { .. } => true,
            Cgroups::V1 { cpu, cpuacct, .. } => {
                cpu.is_some() || cpuacct.join("cpu.cfs_quota_us").exists()
            }
        }
    }

    /// With v2, processes may only sit in leaf cgroups once controllers are enabled
    /// for children: move ourselves into a `server` leaf, then enable them.
    fn prepare_v2(own: &Path) -> Result<Cgroups, String> {
        let fail =
            |what: &str, e: io::Error| format!("cgroup v2 at {}: {what}: {e}", own.display());
        let base = own.join("bottlebats");
        let enabled = fs::read_to_string(own.join("cgroup.subtree_control")).unwrap_or_default();
        if !["memory", "pids", "cpu"]
            .iter()
            .all(|c| enabled.split_whitespace().any(|x| x == *c))
        {
            let leaf = own.join("server");
            fs::create_dir_all(&leaf).map_err(|e| fail("cannot create the server leaf", e))?;
            let procs = fs::read_to_string(own.join("cgroup.procs")).unwrap_or_default();
            for pid in procs.split_whitespace() {
                // Other processes of ours (threads of tests, helpers) move along.
                let _ = fs::write(leaf.join("cgroup.procs"), pid);
            }
            fs::write(own.join("cgroup.subtree_control"), "+memory +pids +cpu")
                .map_err(|e| fail("cannot enable memory, pids and cpu for children", e))?;
        }
        usable(&base).map_err(|e| fail("cannot create bot cgroups", e))?;
        fs::write(base.join("cgroup.subtree_control"), "+memory +pids +cpu")
            .map_err(|e| fail("cannot enable controllers for bots", e))?;
        // Pinning is a bonus: hosts that do not delegate cpuset still get the rest.
        let cpuset = fs::write(own.join("cgroup.subtree_control"), "+cpuset").is_ok()
            && fs::write(base.join("cgroup.subtree_control"), "+cpuset").is_ok();
        Ok(Cgroups::V2 { base, cpuset })
    }

    pub fn describe(&self) -> String {
        match self {
            Cgroups::V2 { base, .. } => format!("cgroup v2 under {}", base.display()),
            Cgroups::V1 { memory, .. } => format!(
                "cgroup v1 (memory, pids, cpuacct) under {}",
                memory.display()
            ),
        }
    }

    /// Creates the cgroup of one bot with its limits; a CPU quota of `millicores`
    /// thousandths of a core (0: none).
    pub fn create(
        &self,
        name: &str,
        memory: u64,
        processes: u64,
        millicores: u64,
    ) -> io::Result<BotCgroup> {
        // memory, pids, cpuacct, cpu: the folders of each role (v1), or one (v2).
        let dirs: Vec<PathBuf> = match self {
            Cgroups::V2 { base, .. } => vec![base.join(name)],
            Cgroups::V1 {
                memory,
                pids,
                cpuacct,
                cpu,
                cpuset,
            } => {
                let mut d = vec![memory.join(name), pids.join(name), cpuacct.join(name)];
                d.extend(cpu.as_ref().map(|c| c.join(name)));
                d.extend(cpuset.as_ref().map(|c| c.join(name)));
                d
            }
        };
        for d in &dirs {
            // A folder left by a crashed run: empty it first.
            if d.exists() {
                kill_all(d);
                let _ = fs::remove_dir(d);
            }
            fs::create_dir(d)?;
        }
        let cg = BotCgroup {
            v2: matches!(self, Cgroups::V2 { .. }),
            dirs,
        };
        let quota = (millicores > 0).then(|| (millicores * CPU_PERIOD_US / 1000).max(1000));
        if cg.v2 {
            fs::write(cg.dirs[0].join("memory.max"), memory.to_string())?;
            let _ = fs::write(cg.dirs[0].join("memory.swap.max"), "0");
            fs::write(cg.dirs[0].join("pids.max"), processes.to_string())?;
            if let Some(q) = quota {
                fs::write(cg.dirs[0].join("cpu.max"), format!("{q} {CPU_PERIOD_US}"))?;
            }
        } else {
            if let Some(q) = quota {
                if let Some(d) = cg.dirs.iter().find(|d| d.join("cpu.cfs_quota_us").exists()) {
                    fs::write(d.join("cpu.cfs_period_us"), CPU_PERIOD_US.to_string())?;
                    fs::write(d.join("cpu.cfs_quota_us"), q.to_string())?;
                }
            }
            fs::write(cg.dirs[0].join("memory.limit_in_bytes"), memory.to_string())?;
            let _ = fs::write(
                cg.dirs[0].join("memory.memsw.limit_in_bytes"),
                memory.to_string(),
            );
            let _ = fs::write(cg.dirs[0].join("memory.swappiness"), "0");
            fs::write(cg.dirs[1].join("pids.max"), processes.to_string())?;
        }
        self.init_cpuset(&cg)?;
        Ok(cg)
    }
}

/// The cgroup (one folder per hierarchy) of one running bot.
#[derive(Debug)]
pub struct BotCgroup {
    pub(super) v2: bool,
    pub(super) dirs: Vec<PathBuf>,
}

pub(super) fn read_key(path: &Path, key: &str) -> Option<u64> {
    let text = fs::read_to_string(path).ok()?;
    text.lines().find_map(|l| {
        let mut it = l.split_whitespace();
        (it.next()? == key).then(|| it.next()?.parse().ok())?
    })
}

/// SIGKILLs every process in a cgroup folder until it is empty.
fn kill_all(dir: &Path) {
    // cgroup v2 on Linux 5.14+ kills the whole group at once; the loop then only
    // waits for it to empty.
    let _ = fs::write(dir.join("cgroup.kill"), "1");
    crate::process::kill_until_gone(|| {
        let procs = fs::read_to_string(dir.join("cgroup.procs")).unwrap_or_default();
        procs
            .split_whitespace()
            .filter_map(|p| p.parse().ok())
            .collect()
    });
}

impl BotCgroup {
    /// The `cgroup.procs` files a new process writes `0` into to join.
    pub fn join_paths(&self) -> Vec<CString> {
        self.dirs
            .iter()
            .filter_map(|d| {
                CString::new(d.join("cgroup.procs").into_os_string().into_encoded_bytes()).ok()
            })
            .collect()
    }

    /// CPU time used by every process of the bot, living or dead.
    pub fn cpu_time(&self) -> Option<Duration> {
        if self.v2 {
            read_key(&self.dirs[0].join("cpu.stat"), "usage_usec").map(Duration::from_micros)
        } else {
            let ns = fs::read_to_string(self.dirs[2].join("cpuacct.usage")).ok()?;
            ns.trim().parse().ok().map(Duration::from_nanos)
        }
    }

    /// Times the kernel killed a process of the bot for memory.
    pub fn oom_kills(&self) -> u64 {
        let (file, key) = if self.v2 {
            ("memory.events", "oom_kill")
        } else {
            ("memory.oom_control", "oom_kill")
        };
        read_key(&self.dirs[0].join(file), key).unwrap_or(0)
    }

    /// Times a fork failed on the process limit.
    pub fn pids_refused(&self) -> u64 {
        let dir = if self.v2 {
            &self.dirs[0]
        } else {
            &self.dirs[1]
        };
        read_key(&dir.join("pids.events"), "max").unwrap_or(0)
    }

    /// Kills every process of the bot.
    pub fn kill(&self) {
        for d in &self.dirs {
            kill_all(d);
        }
    }

    /// True when no process is left in it.
    pub fn is_empty(&self) -> bool {
        self.dirs.iter().all(|d| {
            fs::read_to_string(d.join("cgroup.procs")).map_or(true, |p| p.trim().is_empty())
        })
    }
}

impl Drop for BotCgroup {
    fn drop(&mut self) {
        self.kill();
        for d in &self.dirs {
            for _ in 0..100 {
                if fs::remove_dir(d).is_ok() || !d.exists() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(2));
            }
        }
    }
}
