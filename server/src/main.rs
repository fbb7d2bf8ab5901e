//! `bottlebats`: the Bottle Bats platform and its local arbiter.

mod accounts;
mod admin;
mod cli;
mod config;
mod db;
mod play;
mod serve;
mod web;

fn main() -> std::process::ExitCode {
    cli::main()
}
