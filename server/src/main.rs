//! `bottlebats`: the Bottle Bats platform and its local arbiter.

mod cli;
mod play;

fn main() -> std::process::ExitCode {
    cli::main()
}
