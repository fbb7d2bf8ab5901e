//! A remote seat's transport: the seam between the runner's side of a remote seat (its
//! pipes, `engine::remote`) and whatever carries its bytes to the bot and back.
//!
//! A transport holds a [`SeatLink`]: it takes what the site sends the bot from
//! `to_bot` ([`ToBot`]: its input, the end of its input, the order to stop it) and
//! puts what the bot does into `from_bot` ([`FromBot`]: its output and errors, their
//! ends, its exit, or that it cannot be reached). The relays of [`open`] turn these
//! into the pipes' bytes, so the runner plays the seat as any other. The WebSocket
//! session (`web/remote.rs`) is one transport; an HTTP long-poll adapter holding one
//! seat's input and output would be another, with nothing here changed.

use std::io;
use std::time::Duration;

use engine::remote::{seat, RemoteProcess, SeatEnds};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::unix::pipe;
use tokio::sync::mpsc;

/// What the site sends a remote bot.
#[derive(Debug, PartialEq, Eq)]
pub enum ToBot {
    /// Bytes for its standard input, as the runner wrote them (a state, a view).
    Input(Vec<u8>),
    /// Its standard input ends: the game is over for it.
    CloseInput,
    /// Stop the bot's process now.
    Kill,
}

/// What a remote bot did, as its transport tells it.
#[derive(Debug, PartialEq, Eq)]
pub enum FromBot {
    /// Bytes it wrote on its standard output.
    Output(Vec<u8>),
    /// It closed its standard output.
    CloseOutput,
    /// Bytes it wrote on its standard error.
    Errors(Vec<u8>),
    /// It closed its standard error.
    CloseErrors,
    /// It closed its standard input (writing to it failed).
    InputClosed,
    /// Its process ended with this wait status.
    Exited(i32),
    /// It cannot be reached any more (the connection dropped), and why.
    Gone(String),
}

/// A transport's end of one remote seat.
#[derive(Debug)]
pub struct SeatLink {
    /// What to carry to the bot, in order; it ends when the seat is done.
    pub to_bot: mpsc::UnboundedReceiver<ToBot>,
    /// Where to put what the bot did, in order. Dropping it without [`FromBot::Gone`]
    /// counts as a lost connection.
    pub from_bot: mpsc::Sender<FromBot>,
}

/// The most bytes of one [`ToBot::Input`].
pub const CHUNK: usize = 64 * 1024;

/// Said of a bot whose transport went away.
pub const LOST: &str = "the connection to the remote bot was lost";

/// Opens a remote seat whose replies get `allowance` on top of the game's time: the
/// process the runner plays, and the link its transport holds. The relays between the
/// two run on the current runtime until the seat is done.
pub fn open(allowance: Duration) -> io::Result<(RemoteProcess, SeatLink)> {
    let (to_bot_tx, to_bot) = mpsc::unbounded_channel();
    let (from_bot, from_bot_rx) = mpsc::channel(64);
    let killer = to_bot_tx.clone();
    let (process, ends) = seat(
        allowance,
        Box::new(move || {
            let _ = killer.send(ToBot::Kill);
        }),
    )?;
    let SeatEnds {
        input,
        output,
        errors,
        status,
    } = ends;
    let input = pipe::Receiver::from_owned_fd(input)?;
    let output = pipe::Sender::from_owned_fd(output)?;
    let errors = pipe::Sender::from_owned_fd(errors)?;
    let (input_closed, closed) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(carry_input(input, to_bot_tx, closed));
    tokio::spawn(async move {
        carry_back(from_bot_rx, output, errors, input_closed, &status).await;
    });
    Ok((process, SeatLink { to_bot, from_bot }))
}

/// What the runner writes to the bot, to the transport, until the runner closes the
/// bot's input (or the bot closed its own: `closed`).
async fn carry_input(
    mut input: pipe::Receiver,
    to_bot: mpsc::UnboundedSender<ToBot>,
    mut closed: tokio::sync::oneshot::Receiver<()>,
) {
    let mut buf = vec![0u8; CHUNK];
    loop {
        tokio::select! {
            read = input.read(&mut buf) => match read {
                Ok(0) | Err(_) => {
                    let _ = to_bot.send(ToBot::CloseInput);
                    return;
                }
                Ok(n) => {
                    if to_bot.send(ToBot::Input(buf[..n].to_vec())).is_err() {
                        return;
                    }
                }
            },
            // The bot closed its input: the runner's next write fails, as with a child.
            _ = &mut closed => return,
        }
    }
}

/// What the bot did, into the runner's pipes, until the transport is done. A bot that
/// is gone is said to be (`status`) before its pipes close, so the runner tells why.
async fn carry_back(
    mut from_bot: mpsc::Receiver<FromBot>,
    output: pipe::Sender,
    errors: pipe::Sender,
    input_closed: tokio::sync::oneshot::Sender<()>,
    status: &engine::remote::SeatStatus,
) {
    let (mut output, mut errors, mut input_closed) =
        (Some(output), Some(errors), Some(input_closed));
    while let Some(event) = from_bot.recv().await {
        match event {
            FromBot::Output(bytes) => write(&mut output, &bytes).await,
            FromBot::Errors(bytes) => write(&mut errors, &bytes).await,
            FromBot::CloseOutput => output = None,
            FromBot::CloseErrors => errors = None,
            FromBot::InputClosed => {
                if let Some(tx) = input_closed.take() {
                    let _ = tx.send(());
                }
            }
            FromBot::Exited(raw) => status.exited(raw),
            FromBot::Gone(why) => {
                status.gone(why);
                return;
            }
        }
    }
    // The transport let go without a word: to the bot, its connection dropped.
    if output.is_some() || errors.is_some() {
        status.gone(LOST);
    }
}

/// Writes `bytes` to a pipe of the runner's; once that fails (the runner stopped
/// reading: the bot was ended) the rest is dropped.
async fn write(pipe: &mut Option<pipe::Sender>, bytes: &[u8]) {
    if let Some(p) = pipe {
        if p.write_all(bytes).await.is_err() {
            *pipe = None;
        }
    }
}
