//! Starting bot processes and ending them, whole trees included.
//!
//! This is the one seam through which the runner creates processes: a [`Launcher`]
//! starts a bot with piped stdio and hands back a [`BotProcess`] that can measure CPU
//! time and kill everything the bot started. [`LocalLauncher`] runs the command through
//! `sh -c` like the 2016 arbiter; the sandbox plugs in its own launcher, which asks for a
//! [`Confinement`] (`confinement.rs`) applied between fork and exec.

mod confinement;

use std::collections::{HashMap, HashSet};
use std::io;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, ChildStderr, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::time::Duration;

use confinement::check;
pub use confinement::{Confinement, MOVED_STDIN, MOVED_STDOUT};

/// How to start one bot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotSpec {
    /// The player name, appended (shell-quoted) as the last argument.
    pub name: String,
    /// A shell command line, as in the 2016 config.
    pub command: String,
    /// The working directory the command runs in.
    pub dir: PathBuf,
}

/// Starts bots. Implementations decide isolation and limits.
pub trait Launcher: Send + Sync {
    /// Starts the bot with stdin, stdout and stderr piped.
    fn launch(&self, bot: &BotSpec) -> io::Result<Box<dyn BotProcess>>;
}

/// A running bot.
pub trait BotProcess: Send {
    /// The three pipes; each can be taken once.
    fn take_stdio(&mut self) -> Option<(ChildStdin, ChildStdout, ChildStderr)>;
    /// CPU time used so far by the bot's whole process tree, where it can be measured.
    /// `None` makes the runner time the bot by the wall clock.
    fn cpu_time(&mut self) -> Option<Duration>;
    /// The exit status of the bot's main process, if it has ended.
    fn try_wait(&mut self) -> Option<ExitStatus>;
    /// Limits the bot ran into so far (memory, processes), in words. Each is
    /// reported once by the runner.
    fn incidents(&mut self) -> Vec<String> {
        Vec::new()
    }
    /// Called just before the bot is told the game is over (its stdin closed): a
    /// chance to note every process it has, since its main process may exit next.
    fn prepare_end(&mut self) {}
    /// Ends every process the bot started and reaps its main process.
    fn kill(&mut self);
    /// Time added to each of its replies' limits: a remote seat's network
    /// (`crate::remote`). Nothing for a bot that runs here.
    fn allowance(&self) -> Duration {
        Duration::ZERO
    }
    /// Why the bot's pipes closed, when the process knows better than an exit status
    /// (a remote seat whose connection was lost).
    fn gone(&mut self) -> Option<String> {
        None
    }
}

/// Quotes a word for `sh`.
pub fn shell_quote(word: &str) -> String {
    if !word.is_empty()
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=:,+@%".contains(&b))
    {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// The `sh -c` line for a bot: its command with the player name appended. A plain
/// command (words only, no shell syntax) is run with `exec`, so that the bot itself
/// holds its pipes: closing its output or input is then seen at once, as it would be
/// without a shell in between.
pub fn shell_line(command: &str, name: &str) -> String {
    let command = command.trim();
    let plain = command.split(' ').all(|w| {
        !w.is_empty()
            && w.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-_./:,+@%".contains(&b))
    });
    let first = command.split(' ').next().unwrap_or("");
    let builtin = matches!(
        first,
        "cd" | "export"
            | "set"
            | "."
            | "source"
            | "eval"
            | "exit"
            | "unset"
            | "readonly"
            | "umask"
            | "trap"
            | "exec"
    );
    if plain && !builtin {
        format!("exec {command} {}", shell_quote(name))
    } else {
        format!("{command} {}", shell_quote(name))
    }
}

/// Runs bots as plain processes of the current user, each in its own session, as a
/// child subreaper so that orphaned descendants stay in its tree. No isolation.
#[derive(Clone, Debug, Default)]
pub struct LocalLauncher;

impl Launcher for LocalLauncher {
    fn launch(&self, bot: &BotSpec) -> io::Result<Box<dyn BotProcess>> {
        let mut cmd = Command::new("/bin/sh");
        cmd.arg("-c")
            .arg(shell_line(&bot.command, &bot.name))
            .current_dir(&bot.dir);
        Ok(Box::new(LocalProcess::spawn(cmd)?))
    }
}

/// A bot started by [`LocalLauncher`] (also the base of sandboxed processes).
pub struct LocalProcess {
    child: Child,
    status: Option<ExitStatus>,
    /// Processes of the bot seen at [`BotProcess::prepare_end`], with start times.
    noted: Vec<(i32, u64)>,
    /// Ended by [`BotProcess::kill`] or [`LocalProcess::kill_main`]: nothing to do
    /// when dropped.
    ended: bool,
}

impl LocalProcess {
    /// Spawns `cmd` with piped stdio as the leader of a new session, marked as a child
    /// subreaper and killed if the runner dies.
    pub fn spawn(cmd: Command) -> io::Result<LocalProcess> {
        LocalProcess::spawn_confined(cmd, Confinement::default())
    }

    /// Like [`LocalProcess::spawn`], applying `confinement` before exec.
    pub fn spawn_confined(mut cmd: Command, confinement: Confinement) -> io::Result<LocalProcess> {
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        // SAFETY: only async-signal-safe calls between fork and exec.
        unsafe {
            cmd.pre_exec(move || {
                check(libc::setsid())?;
                confinement.apply()?;
                libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
                // After the uid change, which clears it.
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);
                Ok(())
            });
        }
        Ok(LocalProcess {
            child: cmd.spawn()?,
            status: None,
            noted: Vec::new(),
            ended: false,
        })
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Kills and reaps the main process only: for a bot whose other processes are
    /// known to be gone (its cgroup is empty), without scanning every process.
    pub fn kill_main(&mut self) {
        self.ended = true;
        if self.status.is_none() {
            let _ = self.child.kill();
            self.status = self.child.wait().ok();
        }
    }

    /// Waits for the main process to end and returns its status.
    pub fn wait_exit(&mut self) -> Option<ExitStatus> {
        if self.status.is_none() {
            self.status = self.child.wait().ok();
        }
        self.status
    }
}

impl BotProcess for LocalProcess {
    fn take_stdio(&mut self) -> Option<(ChildStdin, ChildStdout, ChildStderr)> {
        Some((
            self.child.stdin.take()?,
            self.child.stdout.take()?,
            self.child.stderr.take()?,
        ))
    }

    fn cpu_time(&mut self) -> Option<Duration> {
        None
    }

    fn try_wait(&mut self) -> Option<ExitStatus> {
        if self.status.is_none() {
            self.status = self.child.try_wait().ok().flatten();
        }
        self.status
    }

    fn prepare_end(&mut self) {
        if self.try_wait().is_none() {
            let procs = all_processes();
            self.noted = tree_of(self.child.id() as i32, &procs)
                .into_iter()
                .filter_map(|pid| procs.iter().find(|p| p.pid == pid))
                .map(|p| (p.pid, p.start))
                .collect();
        }
    }

    fn kill(&mut self) {
        self.ended = true;
        let root = self.child.id() as i32;
        if self.status.is_none() {
            kill_tree(root);
            let _ = self.child.kill();
            self.status = self.child.wait().ok();
        }
        // Processes noted before the end that were orphaned since (a daemon whose
        // parent exited), and session members whose leader already exited.
        for &(pid, start) in &self.noted {
            if proc_stat(pid).is_some_and(|p| p.start == start) {
                kill_tree(pid);
                // SAFETY: kill(2) on a pid whose start time we just checked.
                unsafe { libc::kill(pid, libc::SIGKILL) };
            }
        }
        self.noted.clear();
        kill_session(root);
    }
}

impl Drop for LocalProcess {
    fn drop(&mut self) {
        if !self.ended {
            self.kill();
        }
    }
}

/// One line of `/proc/PID/stat`, the fields we use.
#[derive(Clone, Copy, Debug)]
pub struct ProcStat {
    pub pid: i32,
    pub state: u8,
    pub ppid: i32,
    pub session: i32,
    /// User plus system CPU time in clock ticks.
    pub ticks: u64,
    /// Start time in clock ticks after boot (tells a reused pid apart).
    pub start: u64,
}

/// Reads `/proc/PID/stat`.
pub fn proc_stat(pid: i32) -> Option<ProcStat> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name may hold spaces and parentheses: fields start after the last ')'.
    let rest = &text[text.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split(' ').collect();
    Some(ProcStat {
        pid,
        state: *f.first()?.as_bytes().first()?,
        ppid: f.get(1)?.parse().ok()?,
        session: f.get(3)?.parse().ok()?,
        ticks: f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?,
        start: f.get(19)?.parse().ok()?,
    })
}

/// Every process on the machine, from `/proc`.
pub fn all_processes() -> Vec<ProcStat> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter_map(proc_stat)
        .collect()
}

/// Live (not zombie) descendants of `root`, and members of its session.
fn tree_of(root: i32, procs: &[ProcStat]) -> Vec<i32> {
    let mut children: HashMap<i32, Vec<i32>> = HashMap::new();
    for p in procs {
        children.entry(p.ppid).or_default().push(p.pid);
    }
    let mut found: HashSet<i32> = HashSet::new();
    let mut stack = vec![root];
    while let Some(pid) = stack.pop() {
        for &c in children.get(&pid).into_iter().flatten() {
            if found.insert(c) {
                stack.push(c);
            }
        }
    }
    for p in procs {
        if p.session == root && p.pid != root {
            found.insert(p.pid);
        }
    }
    let zombie: HashSet<i32> = procs
        .iter()
        .filter(|p| p.state == b'Z')
        .map(|p| p.pid)
        .collect();
    found.into_iter().filter(|p| !zombie.contains(p)).collect()
}

/// Kills every descendant of `root` (not `root` itself) until none is left, so that a
/// process forking while we kill cannot escape.
pub fn kill_tree(root: i32) {
    kill_until_gone(|| tree_of(root, &all_processes()));
}

/// Kills the remaining members of session `sid` (a leader that already exited).
pub fn kill_session(sid: i32) {
    kill_until_gone(|| {
        all_processes()
            .iter()
            .filter(|p| p.session == sid && p.state != b'Z')
            .map(|p| p.pid)
            .collect()
    });
}

/// SIGKILLs the processes `find` lists, again and again until it lists none (a
/// process forking while we kill cannot escape), for at most a fraction of a second.
pub fn kill_until_gone(mut find: impl FnMut() -> Vec<i32>) {
    for _ in 0..200 {
        let targets = find();
        if targets.is_empty() {
            return;
        }
        for pid in targets {
            // SAFETY: kill(2) on a pid `find` just read; no memory is involved.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// The real uid a process runs as, from `/proc/PID/status`.
pub fn proc_uid(pid: i32) -> Option<u32> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = text.lines().find(|l| l.starts_with("Uid:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
