//! Remote seats: a seat whose bot runs somewhere else (its owner's machine, behind a
//! connection the server holds), played by the runner exactly as a hosted seat.
//!
//! A remote seat is a [`BotProcess`] whose stdin, stdout and stderr are OS pipes like a
//! child's; the other ends ([`SeatEnds`]) belong to whatever carries the bytes to the
//! bot and back (the server's WebSocket session, say). So the runner's framing, turn
//! time, warnings, stderr caps, replays and live rows are those of every seat: it
//! neither knows nor cares that the bytes travel. What differs is said by the process
//! itself: its replies are timed on the wall clock ([`BotProcess::cpu_time`] is
//! `None`), each reply gets an allowance for the network on top of the game's time
//! ([`BotProcess::allowance`]), and a lost connection is said as such
//! ([`BotProcess::gone`]). [`Seats`] launches the remote seats of a match beside the
//! hosted ones.

use std::collections::HashMap;
use std::io;
use std::os::fd::{FromRawFd, OwnedFd};
use std::process::{ChildStderr, ChildStdin, ChildStdout, ExitStatus};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::process::{BotProcess, BotSpec, Launcher};

/// What the far end says about the bot: that it exited (its raw wait status), or that
/// the connection to it was lost. Shared by the seat's process and its [`SeatEnds`].
#[derive(Debug, Default)]
pub struct SeatStatus {
    state: Mutex<(Option<ExitStatus>, Option<String>)>,
}

impl SeatStatus {
    /// The bot's process ended with this wait status (as `waitpid` gives it).
    pub fn exited(&self, raw_status: i32) {
        use std::os::unix::process::ExitStatusExt;
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        s.0.get_or_insert(ExitStatus::from_raw(raw_status));
    }

    /// The bot cannot be reached any more, and why (in words for its owner).
    pub fn gone(&self, why: impl Into<String>) {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        s.1.get_or_insert(why.into());
    }

    fn exit(&self) -> Option<ExitStatus> {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).0
    }

    fn why_gone(&self) -> Option<String> {
        self.state
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .1
            .clone()
    }
}

/// The far ends of a remote seat's pipes, for what carries its bytes.
#[derive(Debug)]
pub struct SeatEnds {
    /// What the runner writes to the bot (its states): read it here. It ends when the
    /// runner closes the bot's stdin (the game is over for it).
    pub input: OwnedFd,
    /// The bot's standard output: write its bytes here, drop it when the bot closed it.
    pub output: OwnedFd,
    /// The bot's standard error, likewise.
    pub errors: OwnedFd,
    /// Where to say that the bot exited, or is gone.
    pub status: Arc<SeatStatus>,
}

/// The runner's side of a remote seat.
pub struct RemoteProcess {
    stdio: Option<(ChildStdin, ChildStdout, ChildStderr)>,
    allowance: Duration,
    status: Arc<SeatStatus>,
    on_kill: Option<Box<dyn FnOnce() + Send>>,
}

/// A pipe: (read end, write end), closed on exec.
fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: pipe2 writes two descriptors into the array on success.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: both descriptors were just opened and are owned by no one else.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// A remote seat: the process the runner plays, and the ends its bytes are carried
/// through. Each of the bot's replies gets `allowance` on top of the game's time;
/// `on_kill` is called once when the runner ends the bot (the far end should stop
/// it).
pub fn seat(
    allowance: Duration,
    on_kill: Box<dyn FnOnce() + Send>,
) -> io::Result<(RemoteProcess, SeatEnds)> {
    let (input_read, input_write) = pipe()?;
    let (output_read, output_write) = pipe()?;
    let (errors_read, errors_write) = pipe()?;
    let status = Arc::new(SeatStatus::default());
    let process = RemoteProcess {
        stdio: Some((
            ChildStdin::from(input_write),
            ChildStdout::from(output_read),
            ChildStderr::from(errors_read),
        )),
        allowance,
        status: status.clone(),
        on_kill: Some(on_kill),
    };
    let ends = SeatEnds {
        input: input_read,
        output: output_write,
        errors: errors_write,
        status,
    };
    Ok((process, ends))
}

impl BotProcess for RemoteProcess {
    fn take_stdio(&mut self) -> Option<(ChildStdin, ChildStdout, ChildStderr)> {
        self.stdio.take()
    }

    /// Never measured: a remote bot's replies are timed on the server's wall clock,
    /// from sending its state to receiving its reply, the network included.
    fn cpu_time(&mut self) -> Option<Duration> {
        None
    }

    fn try_wait(&mut self) -> Option<ExitStatus> {
        self.status.exit()
    }

    fn kill(&mut self) {
        if let Some(kill) = self.on_kill.take() {
            kill();
        }
    }

    fn allowance(&self) -> Duration {
        self.allowance
    }

    fn gone(&mut self) -> Option<String> {
        self.status.why_gone()
    }
}

impl Drop for RemoteProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Launches a match's seats: the remote ones (by player name) as they were prepared,
/// every other one by the hosted launcher.
pub struct Seats<'a> {
    hosted: &'a dyn Launcher,
    remote: Mutex<HashMap<String, Box<dyn BotProcess>>>,
}

impl<'a> Seats<'a> {
    /// `remote` holds the process of each remote seat, by its player's name.
    pub fn new(hosted: &'a dyn Launcher, remote: HashMap<String, Box<dyn BotProcess>>) -> Self {
        Seats {
            hosted,
            remote: Mutex::new(remote),
        }
    }
}

impl Launcher for Seats<'_> {
    fn launch(&self, bot: &BotSpec) -> io::Result<Box<dyn BotProcess>> {
        let prepared = (self.remote.lock().unwrap_or_else(|e| e.into_inner())).remove(&bot.name);
        match prepared {
            Some(process) => Ok(process),
            None => self.hosted.launch(bot),
        }
    }
}
