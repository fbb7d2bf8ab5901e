//! The command line: parses arguments and starts the right mode.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser, Debug)]
#[command(
    name = "bottlebats",
    version,
    about = "Bottle Bats: a self-hostable bot competition platform"
)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// Play one local game, like the 2016 arbiter: `bottlebats play config.json`.
    Play {
        /// The config file: players, mapfile, logfile, max_steps (and our optional keys).
        config: PathBuf,
        /// Write each player's stderr to DIR/NAME.stderr.
        #[arg(long, value_name = "DIR")]
        stderr_dir: Option<PathBuf>,
        /// Run the bots in the sandbox, as ranked games do.
        #[arg(long)]
        sandbox: bool,
    },
    /// Show what protects bots from each other and the machine here.
    Doctor {
        /// Exit non-zero when any protection is missing.
        #[arg(long)]
        strict: bool,
    },
    /// Maps: generate one, or check a map file.
    Map {
        #[command(subcommand)]
        command: MapCmd,
    },
}

#[derive(Subcommand, Debug)]
enum MapCmd {
    /// Print a new random map: planar, connected, every seat's start equally good.
    Generate {
        /// Number of seats.
        #[arg(long)]
        players: usize,
        /// The same seed always gives the same map.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Number of forts (a sensible default for the players when omitted).
        #[arg(long)]
        forts: Option<usize>,
    },
    /// Check a map file and describe it.
    Check {
        /// The map file.
        file: PathBuf,
    },
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Cmd::Play {
            config,
            stderr_dir,
            sandbox,
        } => crate::play::run(&config, stderr_dir.as_deref(), sandbox),
        Cmd::Doctor { strict } => Ok(doctor(strict)),
        Cmd::Map { command } => map_command(command),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// Prints the table of protections; with `strict`, fails when one is missing.
fn doctor(strict: bool) -> ExitCode {
    let sandbox = engine::sandbox::Sandbox::new(engine::sandbox::SandboxConfig::default());
    let rows = sandbox.protections();
    let width = rows.iter().map(|p| p.name.len()).max().unwrap_or(0);
    println!("{:width$}  {:7}  how", "protection", "active");
    for p in &rows {
        println!(
            "{:width$}  {:7}  {}",
            p.name,
            if p.active { "yes" } else { "NO" },
            p.how
        );
    }
    let missing = rows.iter().filter(|p| !p.active).count();
    if missing == 0 {
        println!("\nEvery protection is active: bots are isolated and limited.");
        ExitCode::SUCCESS
    } else {
        println!(
            "\n{missing} protection(s) missing: bots run with less isolation than they should."
        );
        if strict {
            ExitCode::FAILURE
        } else {
            ExitCode::SUCCESS
        }
    }
}

fn map_command(cmd: MapCmd) -> anyhow::Result<ExitCode> {
    match cmd {
        MapCmd::Generate {
            players,
            seed,
            forts,
        } => {
            let map = engine::generate::generate(&engine::generate::GenerateOptions {
                players,
                seed,
                forts,
            })?;
            print!("{}", map.to_text());
        }
        MapCmd::Check { file } => {
            let map = crate::play::load_map(&file)?;
            let crossing = engine::geometry::crossing_roads(&map);
            println!(
                "{}: {} forts, {} roads, {} marches, seats: {}",
                file.display(),
                map.forts.len(),
                map.roads.len(),
                map.marches.len(),
                map.seats.join(", ")
            );
            println!(
                "connected: {}",
                if engine::geometry::is_connected(&map) {
                    "yes"
                } else {
                    "no"
                }
            );
            match crossing {
                None => println!("planar: yes"),
                Some((a, b)) => {
                    let name = |r: engine::map::RoadId| {
                        let road = &map.roads[r.0];
                        format!("{}-{}", map.forts[road.a.0].name, map.forts[road.b.0].name)
                    };
                    println!("planar: no (road {} crosses road {})", name(a), name(b));
                }
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
