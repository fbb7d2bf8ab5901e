//! The Bottle Bats platform: the web app, its database, accounts, and the commands of
//! the `bottlebats` binary. `main.rs` only calls [`cli::main`].

pub mod accounts;
pub mod admin;
pub mod archive;
pub mod build_cache;
pub mod builds;
pub mod cli;
pub mod config;
pub mod db;
pub mod house;
pub mod languages;
pub mod metrics;
pub mod play;
pub mod ranker;
pub mod serve;
pub mod starters;
pub mod web;
pub mod worker;
