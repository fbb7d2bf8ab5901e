//! The server's integration tests, one test binary with a module per area, so the
//! crate and its dependencies are linked once rather than once per file.
//!
//! - `common` — a fresh migrated database per test, a cookie-keeping client that drives
//!   the router without a socket, and `common::binary`, the `bottlebats` binary as a
//!   child process over real TCP.
//! - The site through the router and its parts in-process: `accounts`, `admin`,
//!   `uploads`, `builds`, `downloads`, `ladder`, `ranker`, `backup`, `static_files`
//!   (with the viewer's node tests).
//! - The binary as a child process: `serve` (start, signals, stop), `restart`, `play`
//!   (the local arbiter), `bots` (the house bots and starter kits in real games) and
//!   `reference_arbiter` (every game's classic log against an independent reading of
//!   the 2016 rules).
//! - `third_game` — Connect Four, a third game added as a contributor adds one: opened,
//!   its house bots and a kit pass their smoke test and play a ranked match.
//! - `browser` — headless Chromium on a served site.
//! - `abuse` — the abuse suite, a module per surface.
//!
//! Filter by module as usual: `cargo test -p server --test it ladder::`.

mod common;

mod abuse;
mod accounts;
mod admin;
mod backup;
mod bots;
mod browser;
mod builds;
mod candidates;
mod challenges;
mod contestant_loop;
mod downloads;
mod games;
mod ladder;
mod languages;
mod play;
mod ranker;
mod reference_arbiter;
mod remote;
mod restart;
mod serve;
mod static_files;
mod third_game;
mod tournaments;
mod uploads;
