//! The sandbox against hostile bots. Each hostile bot (a mode of
//! `tests/bots/hostile.py`) plays a short game against a normal one through
//! `run_match` with the sandbox launcher, and each test checks that:
//!
//! - the game finishes (every turn, or the hostile bot removed);
//! - the hostile bot is charged with a clear reason where it broke a rule (timeout,
//!   crash, limit), and not charged where it only tried to learn or break something
//!   and failed (its probes, reported on stderr, all failed);
//! - the other bot is unaffected;
//! - the runner's memory stays bounded;
//! - no process of the sandbox's uids is left, and no cgroup.
//!
//! The tests share the machine's cgroups and a pool of uids, so they run one at a
//! time, also across processes (two `cargo test` at once), behind `arena::Serial`: that
//! makes the "nothing is left" checks exact. They use their own uid range and lock
//! folder, apart from the server's default pool.
//!
//! They need what `bottlebats doctor` calls a complete sandbox (root, bwrap, cgroups)
//! and fail with its table where it is not.
//!
//! `arena.rs` makes each test's folders and keeps the tests apart; `play.rs` plays a
//! game and checks what holds for every game. The tests are grouped by what the
//! hostile bot goes after: `limits.rs`, `timing.rs`, `pipes.rs`, `network.rs`,
//! `filesystem.rs`, `processes.rs`.

mod arena;
#[path = "../support/bottlebats.rs"]
mod bottlebats_match;
mod play;

mod filesystem;
mod limits;
mod network;
mod pipes;
mod processes;
mod timing;

/// The uids these tests run bots as: not the server's default pool (61000..61063),
/// so that a server running on this machine meanwhile is neither disturbed nor seen.
pub const UID_BASE: u32 = 61_900;
pub const SLOTS: u32 = 8;
pub const MIB: u64 = 1024 * 1024;

/// Seats: the normal bot plays first, the hostile one second.
pub const PEER: usize = 0;
pub const HOSTILE: usize = 1;

/// What the runner's environment holds that no bot may see.
pub const ENV_SECRET: &str = "env-secret-7f3a9c";
pub const DB_PASSWORD: &str = "db-password-51e2d0";

/// Four forts in a line, p1 at one end and p2 at the other.
pub const MAP: &str = include_str!("../line.map");
