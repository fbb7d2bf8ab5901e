//! `bottlebats`: the Bottle Bats platform and its local arbiter.

fn main() -> std::process::ExitCode {
    server::cli::main()
}
