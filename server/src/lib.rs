//! The Bottle Bats platform: the web app, its database, accounts, and the commands of
//! the `bottlebats` binary. `main.rs` only calls [`cli::main`].

/// This build's version.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
/// The git revision this build was made from ("unknown" from a copy without `.git`).
pub const REVISION: &str = env!("BOTTLEBATS_GIT_REVISION");
/// What `--version` prints after the name.
pub const LONG_VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (revision ",
    env!("BOTTLEBATS_GIT_REVISION"),
    ")"
);

pub mod accounts;
pub mod admin;
pub mod archive;
pub mod build_cache;
pub mod builds;
pub mod cli;
pub mod compress;
pub mod config;
pub mod db;
pub mod house;
pub mod ids;
pub mod languages;
pub mod metrics;
pub mod play;
pub mod ranker;
pub mod serve;
pub mod standings;
pub mod starters;
pub mod status;
pub mod tokens;
pub mod uploads;
pub mod web;
pub mod worker;
