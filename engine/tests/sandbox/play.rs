//! Playing a game in the sandbox, and what is checked after every game.

use std::path::PathBuf;
use std::sync::{Arc, Once};
use std::time::{Duration, Instant};

use crate::bottlebats_match::{run_match, MatchResult};
use bottlebats::map::Map;
use engine::process::{all_processes, proc_uid, BotSpec};
use engine::sandbox::{Cgroups, Limits, Sandbox, SandboxConfig};
use engine::{MatchConfig, PlayerReport};

use crate::arena::{tmp, Arena};
use crate::{DB_PASSWORD, ENV_SECRET, HOSTILE, MAP, MIB, PEER, SLOTS, UID_BASE};

fn sandbox() -> Arc<Sandbox> {
    let sandbox = Sandbox::new(SandboxConfig {
        uid_base: UID_BASE,
        slots: SLOTS,
        lock_dir: tmp().join("sandbox-locks"),
        ..SandboxConfig::default()
    });
    assert!(
        sandbox.is_complete(),
        "these tests need every protection of the sandbox: {:#?}",
        sandbox.protections()
    );
    Arc::new(sandbox)
}

pub fn config(max_turns: u32) -> MatchConfig {
    MatchConfig {
        max_turns,
        turn_timeout: Duration::from_millis(300),
        startup_timeout: Duration::from_millis(3000),
        ..MatchConfig::default()
    }
}

/// Puts secrets into the runner's environment, as a server's configuration would.
pub fn plant_env_secrets() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        std::env::set_var("BOTTLEBATS_SECRET", ENV_SECRET);
        std::env::set_var(
            "DATABASE_URL",
            format!("postgres://bottlebats:{DB_PASSWORD}@localhost/bottlebats"),
        );
    });
}

fn vm_rss() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let kib: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap();
    kib * 1024
}

/// Live processes running as one of the test uids.
fn slot_processes() -> Vec<(i32, u32)> {
    all_processes()
        .into_iter()
        .filter(|p| p.state != b'Z')
        .filter_map(|p| Some((p.pid, proc_uid(p.pid)?)))
        .filter(|&(_, uid)| (UID_BASE..UID_BASE + SLOTS).contains(&uid))
        .collect()
}

/// The folders under which the sandbox makes bot cgroups, pids hierarchy first.
fn cgroup_bases() -> Vec<PathBuf> {
    match Cgroups::detect() {
        Ok(Cgroups::V1 {
            memory,
            pids,
            cpuacct,
            cpu,
            cpuset,
        }) => [pids, memory, cpuacct]
            .into_iter()
            .chain(cpu)
            .chain(cpuset)
            .collect(),
        Ok(Cgroups::V2 { base, .. }) => vec![base],
        Err(_) => Vec::new(),
    }
}

/// Cgroup folders of the test slots that still exist.
fn slot_cgroups(bases: &[PathBuf]) -> Vec<PathBuf> {
    bases
        .iter()
        .flat_map(|b| (UID_BASE..UID_BASE + SLOTS).map(move |uid| b.join(format!("slot-{uid}"))))
        .filter(|d| d.exists())
        .collect()
}

/// Tasks in the test slots' cgroups, as the pids controller counts them: unlike a scan
/// of /proc, it cannot miss a process that changes its pid meanwhile.
fn slot_tasks(bases: &[PathBuf]) -> u64 {
    slot_cgroups(&bases[..1])
        .iter()
        .filter_map(|d| std::fs::read_to_string(d.join("pids.current")).ok())
        .filter_map(|n| n.trim().parse::<u64>().ok())
        .sum()
}

/// A played game, the time at which each turn started, and how many tasks the bots'
/// cgroups had then.
pub struct Played {
    pub r: MatchResult,
    turn_started: Vec<Instant>,
    pub tasks: Vec<u64>,
    pub wall: Duration,
}

impl Played {
    pub fn hostile(&self) -> &PlayerReport {
        &self.r.players[HOSTILE]
    }

    pub fn stderr(&self, player: usize) -> String {
        self.r.players[player]
            .stderr
            .iter()
            .map(|(_, b)| String::from_utf8_lossy(b).into_owned())
            .collect()
    }

    pub fn error(&self) -> String {
        self.hostile().error.clone().unwrap_or_default()
    }

    pub fn removed_at(&self) -> Option<u32> {
        self.r.replay.result.as_ref().unwrap().removed[HOSTILE]
    }

    /// Texts of the replay's `limits` events of the hostile bot.
    pub fn limit_events(&self) -> Vec<String> {
        self.r
            .replay
            .turns
            .iter()
            .flat_map(|t| &t.events.limits)
            .filter(|(p, _)| *p == HOSTILE)
            .map(|(_, text)| text.clone())
            .collect()
    }

    /// Turns in which the hostile bot timed out.
    pub fn timeout_turns(&self) -> Vec<usize> {
        (self.r.replay.turns.iter().enumerate())
            .filter(|(_, t)| t.events.timeouts.contains(&HOSTILE))
            .map(|(i, _)| i)
            .collect()
    }

    /// How long turn `turn` took on the wall clock.
    pub fn turn_wall(&self, turn: usize) -> Duration {
        self.turn_started[turn + 1] - self.turn_started[turn]
    }

    /// The hostile bot's probes: (what, succeeded, whole line).
    pub fn probes(&self) -> Vec<(String, bool, String)> {
        let said = self.stderr(HOSTILE);
        assert!(
            said.contains("probes done"),
            "the hostile bot did not finish its probes; it said:\n{said}"
        );
        said.lines()
            .filter_map(|l| l.strip_prefix("probe "))
            .map(|l| {
                let (what, result) = l.split_once(": ").unwrap();
                (what.to_string(), result.starts_with("ok"), l.to_string())
            })
            .collect()
    }

    /// Checks that every probe failed, and that `expected` were among them.
    pub fn assert_every_probe_failed(&self, expected: &[&str]) {
        let probes = self.probes();
        for e in expected {
            assert!(
                probes.iter().any(|(what, _, _)| what == e),
                "no probe `{e}` in {probes:#?}"
            );
        }
        let succeeded: Vec<&String> = probes.iter().filter(|p| p.1).map(|p| &p.2).collect();
        assert!(
            succeeded.is_empty(),
            "probes that succeeded: {succeeded:#?}"
        );
    }

    /// The game ran to its end, or until the hostile bot was removed.
    pub fn assert_finished(&self, max_turns: u32) {
        let result = self
            .r
            .replay
            .result
            .as_ref()
            .expect("the game has a result");
        assert!(
            result.turns == max_turns || self.removed_at().is_some(),
            "the game stopped after {} of {max_turns} turns with nobody removed",
            result.turns
        );
        assert_eq!(self.r.replay.turns.len() as u32, result.turns + 1);
    }

    /// The normal bot noticed nothing.
    pub fn assert_peer_unaffected(&self) {
        let peer = &self.r.players[PEER];
        assert_eq!(
            peer.error,
            None,
            "the other bot was charged; it said: {}",
            self.stderr(PEER)
        );
        assert_eq!(peer.timeouts, 0, "the other bot timed out");
        assert_eq!(peer.late_replies, 0);
        assert!(peer.incidents.is_empty(), "{:?}", peer.incidents);
        assert!(peer.cpu_measured, "the other bot's CPU time was measured");
        let peer_said = self.stderr(PEER);
        assert!(peer_said.is_empty(), "the other bot said: {peer_said}");
        assert!(self.r.replay.turns.iter().all(|t| t
            .events
            .limits
            .iter()
            .all(|(p, _)| *p != PEER)));
    }

    /// The hostile bot broke no rule: it played every turn without being charged.
    pub fn assert_hostile_not_charged(&self, max_turns: u32) {
        let h = self.hostile();
        assert_eq!(h.error, None, "stderr: {}", self.stderr(HOSTILE));
        assert_eq!(h.timeouts, 0, "stderr: {}", self.stderr(HOSTILE));
        assert!(h.incidents.is_empty(), "{:?}", h.incidents);
        assert_eq!(self.r.replay.result.as_ref().unwrap().turns, max_turns);
    }
}

/// Plays the normal bot (`fixture.py PEER_MODE`) against `hostile.py MODE_AND_ARGS` in
/// the sandbox, and checks what holds for every game: the runner's memory stayed
/// bounded and nothing of the bots is left.
pub fn play(
    arena: &Arena,
    peer_mode: &str,
    hostile: &str,
    limits: Limits,
    config: &MatchConfig,
) -> Played {
    let sandbox = sandbox();
    let launcher = sandbox.launcher(limits);
    let specs = [
        BotSpec {
            name: "peer".into(),
            command: format!("/usr/bin/python3 fixture.py {peer_mode}"),
            dir: arena.peer.clone(),
        },
        BotSpec {
            name: "hostile".into(),
            command: format!("/usr/bin/python3 hostile.py {hostile}"),
            dir: arena.hostile.clone(),
        },
    ];
    let map = Arc::new(Map::parse(MAP).unwrap());
    let bases = cgroup_bases();
    let rss_before = vm_rss();
    let started = Instant::now();
    let mut turn_started = Vec::new();
    let mut tasks = Vec::new();
    let r = run_match(map, &specs, &launcher, config, &mut |_| {
        turn_started.push(Instant::now());
        tasks.push(slot_tasks(&bases));
        true
    })
    .unwrap();
    turn_started.push(Instant::now());
    let wall = started.elapsed();
    let rss_after = vm_rss();
    assert!(
        rss_after < rss_before + 100 * MIB,
        "the runner grew from {} to {} MiB",
        rss_before / MIB,
        rss_after / MIB
    );
    let left = slot_processes();
    assert!(left.is_empty(), "processes left after the game: {left:?}");
    drop(launcher);
    drop(sandbox);
    let cgroups = slot_cgroups(&bases);
    assert!(
        cgroups.is_empty(),
        "cgroups left after the game: {cgroups:?}"
    );
    let h = &r.players[HOSTILE];
    eprintln!(
        "{hostile}: {wall:?}, {} turns; error {:?}, {} timeouts, incidents {:?}, \
         runner RSS {} -> {} MiB",
        r.replay.result.as_ref().map_or(0, |x| x.turns),
        h.error,
        h.timeouts,
        h.incidents,
        rss_before / MIB,
        rss_after / MIB
    );
    let played = Played {
        r,
        turn_started,
        tasks,
        wall,
    };
    played.assert_finished(config.max_turns);
    played.assert_peer_unaffected();
    played
}

pub fn game_limits() -> Limits {
    Limits::game()
}
