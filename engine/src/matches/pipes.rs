//! The three threads of each bot and what they share with the match loop: the writer
//! of states, the reader that cuts stdout into replies, and the stderr drain.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{ChildStdin, ChildStdout};
use std::sync::mpsc::{Receiver, Sender};
use std::sync::{Arc, Condvar, Mutex};

use game_interface::{Cutter, Framing};

/// What the reader threads tell the match loop.
pub(super) enum BotEvent {
    Reply(Vec<String>),
    Fatal(String),
    Eof,
    StdinClosed,
}

/// Replies a bot may have read ahead of the match loop; past this its stdout reader
/// stops reading, so a bot spamming replies cannot grow the runner's memory.
const MAX_AHEAD: u32 = 4;

/// Counts the replies read but not yet taken by the match loop.
#[derive(Default)]
pub(super) struct Credit {
    /// (replies ahead, closed)
    state: Mutex<(u32, bool)>,
    cv: Condvar,
}

impl Credit {
    /// Waits for room for one more reply; false once the bot was closed.
    pub(super) fn acquire(&self) -> bool {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        while s.0 >= MAX_AHEAD && !s.1 {
            s = self.cv.wait(s).unwrap_or_else(|e| e.into_inner());
        }
        s.0 += 1;
        !s.1
    }

    pub(super) fn release(&self) {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        s.0 = s.0.saturating_sub(1);
        self.cv.notify_all();
    }

    pub(super) fn close(&self) {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).1 = true;
        self.cv.notify_all();
    }
}

/// A bot's stderr as its drain keeps it: the bytes of the turn, within the caps.
#[derive(Default)]
pub(super) struct StderrBuf {
    pub(super) turn: Vec<u8>,
    kept: usize,
    pub(super) dropped: u64,
    /// The pipe reached its end: everything the bot wrote has been read.
    pub(super) done: bool,
    /// Most kept a turn, and in the whole game.
    turn_cap: usize,
    game_cap: usize,
}

impl StderrBuf {
    pub(super) fn new(turn_cap: usize, game_cap: usize) -> StderrBuf {
        StderrBuf {
            turn_cap,
            game_cap,
            ..StderrBuf::default()
        }
    }

    /// Bytes still kept if the bot writes them now: none once this turn's or the
    /// game's cap is reached (what comes then is read and dropped).
    pub(super) fn room(&self) -> usize {
        (self.turn_cap.saturating_sub(self.turn.len())).min(self.game_cap.saturating_sub(self.kept))
    }
}

/// Past the game's cap nothing more is kept: the rest is read at most this fast (bytes
/// a second), so that a bot flooding its stderr costs the server little CPU; a bot that
/// writes faster waits for its writes, its own time.
pub(super) const DROPPED_PER_SECOND: u64 = 8 * 1024 * 1024;

/// The stdin thread: writes each state as the match loop sends it.
pub(super) fn write_states(
    index: usize,
    mut stdin: ChildStdin,
    states: Receiver<Arc<str>>,
    events: Sender<(usize, BotEvent)>,
) {
    for state in states {
        if stdin
            .write_all(state.as_bytes())
            .and_then(|()| stdin.flush())
            .is_err()
        {
            let _ = events.send((index, BotEvent::StdinClosed));
            return;
        }
    }
}

/// Reads one line of at most `max` bytes (without its newline). `Ok(None)` at the end.
fn read_line(
    r: &mut impl BufRead,
    buf: &mut Vec<u8>,
    max: usize,
) -> Result<Option<String>, String> {
    buf.clear();
    let n = r
        .by_ref()
        .take(max as u64 + 1)
        .read_until(b'\n', buf)
        .map_err(|e| format!("reading its output failed: {e}"))?;
    if n == 0 {
        return Ok(None);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
    } else if buf.len() > max {
        return Err(format!("wrote a line longer than {max} bytes"));
    }
    if buf.last() == Some(&b'\r') {
        buf.pop();
    }
    Ok(Some(String::from_utf8_lossy(buf).into_owned()))
}

/// The stdout thread: cuts the output into replies as the game frames them (within
/// the caps on lines) and sends each as it is read, at most [`MAX_AHEAD`] ahead of the
/// match loop, then the end of the output or the error that ended the reading.
pub(super) fn read_replies(
    index: usize,
    stdout: ChildStdout,
    (framing, max_line, max_lines): (Framing, usize, usize),
    credit: &Credit,
    events: Sender<(usize, BotEvent)>,
) {
    let mut r = BufReader::with_capacity(64 * 1024, stdout);
    let mut buf = Vec::new();
    let mut cutter = Cutter::new(framing, max_lines);
    let send = |ev: BotEvent| events.send((index, ev)).is_ok();
    loop {
        let reply = match read_line(&mut r, &mut buf, max_line) {
            Ok(Some(line)) => cutter.push(&line),
            Ok(None) => {
                send(cutter.end().map_or(BotEvent::Eof, BotEvent::Fatal));
                return;
            }
            Err(e) => Err(e),
        };
        match reply {
            Ok(Some(lines)) => {
                if !credit.acquire() || !send(BotEvent::Reply(lines)) {
                    return;
                }
            }
            Ok(None) => {}
            Err(e) => {
                send(BotEvent::Fatal(e));
                return;
            }
        }
    }
}

/// The stderr thread: reads everything the bot writes, keeping what fits the caps;
/// once the game's cap is reached, at most [`DROPPED_PER_SECOND`].
pub(super) fn drain_stderr(stderr: &std::fs::File, buf: Arc<Mutex<StderrBuf>>) {
    let mut chunk = vec![0u8; 64 * 1024];
    loop {
        let n = match (&*stderr).read(&mut chunk) {
            Ok(0) | Err(_) => {
                buf.lock().unwrap_or_else(|e| e.into_inner()).done = true;
                return;
            }
            Ok(n) => n,
        };
        let full = {
            let mut b = buf.lock().unwrap_or_else(|e| e.into_inner());
            let keep = n.min(b.room());
            b.turn.extend_from_slice(&chunk[..keep]);
            b.kept += keep;
            b.dropped += (n - keep) as u64;
            b.kept >= b.game_cap
        };
        if full {
            let seconds = n as f64 / DROPPED_PER_SECOND as f64;
            std::thread::sleep(std::time::Duration::from_secs_f64(seconds));
        }
    }
}
