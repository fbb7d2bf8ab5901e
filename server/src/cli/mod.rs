//! The command line: parses arguments and starts the right mode.

pub mod admin;
pub mod connect;
pub mod tournament;

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use clap::{Parser, Subcommand};

#[derive(Parser, Debug)]
#[command(
    name = "bottlebats",
    version = crate::LONG_VERSION,
    about = "Bottle Bats: a self-hostable bot competition platform",
    after_help = "Without a command, `bottlebats` serves the site (as `bottlebats serve`)."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Cmd>,
}

/// Where the server's settings come from, shared by `serve` and `admin`.
#[derive(clap::Args, Debug)]
struct ServerArgs {
    /// A TOML file with any of the settings below (flags and environment win)
    #[arg(long, global = true, env = "BOTTLEBATS_CONFIG")]
    config: Option<PathBuf>,
    #[command(flatten)]
    settings: crate::config::Settings,
}

impl ServerArgs {
    fn load(self) -> anyhow::Result<crate::config::Config> {
        crate::config::Config::load(self.settings, self.config.as_deref())
    }
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// Serve the site (the default).
    Serve(ServerArgs),
    /// Build uploads and play ranked matches for a shared database, without the site.
    Worker(ServerArgs),
    /// Organizer commands, on the same database as `serve`.
    Admin {
        #[command(flatten)]
        server: ServerArgs,
        #[command(subcommand)]
        command: AdminCmd,
    },
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
    /// Play a remote bot's matches from this machine: `bottlebats connect https://SITE --key KEY -- ./mybot args…` (docs/remote.md).
    Connect {
        /// The site, e.g. https://bots.example.org
        site: String,
        /// The bot's key, from its page (or `bottlebats admin remote-key`)
        #[arg(long, env = "BOTTLEBATS_KEY", hide_env_values = true)]
        key: String,
        /// Unrated games against the house bots only, one after another
        #[arg(long)]
        practice: bool,
        /// Stop after this many matches
        #[arg(long, value_name = "N")]
        games: Option<u32>,
        /// Delay everything sent to the site by this many milliseconds (to try a slow network)
        #[arg(long, value_name = "MS", hide = true, default_value_t = 0)]
        inject_delay_ms: u64,
        /// The bot's command and its arguments; its player's name is appended, as for an uploaded bot
        #[arg(last = true, required = true, value_name = "COMMAND")]
        command: Vec<String>,
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
enum AdminCmd {
    /// Create an account (asks for the password when not given).
    CreateUser {
        name: String,
        /// Make it an organizer.
        #[arg(long)]
        admin: bool,
        /// The password (asked for when not given)
        #[arg(long)]
        password: Option<String>,
    },
    /// Print a new API token for a user on the last line.
    CreateToken {
        user: String,
        /// What the token is for.
        #[arg(long, default_value = "command line")]
        name: String,
    },
    /// Print a new key for a user's remote bot (made for GAME if it does not exist); the old key stops working.
    RemoteKey {
        user: String,
        bot: String,
        /// The remote bot's game (the first of the registry when omitted)
        #[arg(long)]
        game: Option<String>,
    },
    /// Show the ranker: paused or not, the queue, running matches, workers, maps.
    Status,
    /// Stop scheduling and playing ranked matches (running ones finish).
    Pause,
    /// Schedule and play ranked matches again.
    Resume,
    /// Turn challenges and A/B tests on or off (off: new ones are refused, queued games wait).
    Challenges {
        #[arg(value_parser = ["on", "off"])]
        state: String,
    },
    /// Set the submission deadline (`2026-12-01 18:00` in UTC, or RFC 3339), or remove it (`none`); show it when no time is given.
    Deadline {
        when: Option<String>,
        /// At the deadline the ladder stops playing ranked matches (`on`) or goes on (`off`).
        #[arg(long, value_parser = ["on", "off"])]
        freeze: Option<String>,
    },
    /// Tournaments: create, status, cancel.
    Tournament {
        #[command(subcommand)]
        command: tournament::TournamentCmd,
    },
    /// Put a match back in the queue (also a voided one that never counted).
    Requeue { match_id: crate::ids::MatchId },
    /// Void a match that has not finished: it will never count.
    Void {
        match_id: crate::ids::MatchId,
        #[arg(long, default_value = "voided by an organizer")]
        reason: String,
    },
    /// Take a bot out of the ladder; its owner sees the reason.
    DisableBot {
        name: String,
        #[arg(long, default_value = crate::ranker::DISABLED_REASON_DEFAULT)]
        reason: String,
    },
    /// Bring a bot back into the ladder.
    EnableBot { name: String },
    /// Take a map out of matchmaking.
    DisableMap { name: String },
    /// Bring a map back into matchmaking.
    EnableMap { name: String },
    /// Add a map file to the ladder (checked first by its game's rules).
    AddMap {
        name: String,
        file: PathBuf,
        /// The game the map is of (the first of the registry when omitted)
        #[arg(long)]
        game: Option<String>,
    },
    /// Write the whole competition (accounts, bots, matches, replays, ratings) to FILE.
    Backup { file: PathBuf },
    /// Replace the database's contents with a backup (stop serve and workers first); a
    /// database that holds a competition is named and replaced once confirmed
    Restore {
        file: PathBuf,
        /// Replace what the database holds without asking.
        #[arg(long)]
        yes: bool,
    },
}

#[derive(Subcommand, Debug)]
enum MapCmd {
    /// Print a new random map of a game, fair to every seat (Bottle Bats: planar,
    /// connected, every seat's start equally good).
    Generate {
        /// Number of seats.
        #[arg(long)]
        players: usize,
        /// The same seed always gives the same map.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// The map's size, where the game has sizes (Bottle Bats: the number of forts;
        /// a sensible default for the players when omitted).
        #[arg(long, alias = "forts")]
        size: Option<usize>,
        /// The game (the first of the registry when omitted).
        #[arg(long)]
        game: Option<String>,
    },
    /// Check a map file by its game's rules and describe it.
    Check {
        /// The map file.
        file: PathBuf,
        /// The game (the first of the registry when omitted).
        #[arg(long)]
        game: Option<String>,
    },
}

/// Settings only the site uses: not shown in `worker --help`.
const SITE_SETTINGS: &[&str] = &[
    "listen",
    "base_url",
    "max_upload_mib",
    "trusted_proxy",
    "registrations_per_hour",
    "pending_builds",
    "challenge_games_per_hour",
    "challenges_at_once",
    "metrics_token",
    "header_timeout",
    "request_timeout",
    "idle_timeout",
    "max_connections",
    "remote_sessions",
    "remote_matches",
    "remote_allowance_ms",
    "max_connections_per_address",
];

/// The settings `admin` uses: where the database is. The others are accepted (a shared
/// config file or environment holds them) but not shown in its help.
const DATABASE_SETTINGS: &[&str] = &["config", "data_dir", "database_url", "postgres_bin"];

/// The command line, with each command's help showing only the settings it uses. The
/// settings are global: `admin --data-dir D create-user N` and `admin create-user N
/// --data-dir D` are the same.
fn command_line() -> clap::Command {
    use clap::CommandFactory;
    let hide = |mut c: clap::Command, hidden: &dyn Fn(&str) -> bool| {
        let ids: Vec<String> = c
            .get_arguments()
            .map(|a| a.get_id().to_string())
            .filter(|id| hidden(id))
            .collect();
        for id in ids {
            c = c.mut_arg(id, |a| a.hide(true));
        }
        c
    };
    with_defaults(Cli::command())
        .mut_subcommand("worker", |c| hide(c, &|id| SITE_SETTINGS.contains(&id)))
        .mut_subcommand("admin", |c| {
            hide(c, &|id| !DATABASE_SETTINGS.contains(&id) && id != "help")
        })
}

/// Each setting's help ends with its default ([`crate::config::shown_defaults`]), in
/// this command and its subcommands. Settings are global flags: a command's own flag of
/// the same name (`connect --games N`) is not one.
fn with_defaults(mut c: clap::Command) -> clap::Command {
    for (id, shown) in crate::config::shown_defaults() {
        if (c.get_arguments()).any(|a| a.get_id() == id.as_str() && a.is_global_set()) {
            c = c.mut_arg(id, |a| {
                let help = a.get_help().map(|h| h.to_string()).unwrap_or_default();
                a.help(format!("{help} [default: {shown}]"))
            });
        }
    }
    let names: Vec<String> = c
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    for name in names {
        c = c.mut_subcommand(name, with_defaults);
    }
    c
}

fn parse(args: &[std::ffi::OsString]) -> Cli {
    use clap::FromArgMatches;
    let matches = command_line().get_matches_from(args);
    Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit())
}

pub fn main() -> ExitCode {
    fixed_mmap_threshold();
    let args: Vec<_> = std::env::args_os().collect();
    // Without a command, as `serve`: parsed again so that its settings are read from
    // the environment too (no flag can come before a command).
    let command = match parse(&args).command {
        Some(command) => command,
        None => parse(&["bottlebats".into(), "serve".into()])
            .command
            .expect("serve is a command"),
    };
    let result = match command {
        Cmd::Serve(args) => args.load().and_then(|c| run_to_stop(crate::serve::run(c))),
        Cmd::Worker(args) => args
            .load()
            .and_then(|c| run_to_stop(crate::serve::run_worker(c))),
        Cmd::Admin { server, command } => server.load().and_then(|c| {
            use admin::LadderCmd as L;
            runtime()?.block_on(async move {
                match command {
                    AdminCmd::CreateUser {
                        name,
                        admin,
                        password,
                    } => admin::create_user(c, name, admin, password).await,
                    AdminCmd::CreateToken { user, name } => {
                        admin::create_token(c, user, name).await
                    }
                    AdminCmd::RemoteKey { user, bot, game } => {
                        admin::remote_key(
                            c,
                            user,
                            bot,
                            game.unwrap_or(crate::games::registry().default_name().into()),
                        )
                        .await
                    }
                    AdminCmd::Status => admin::ladder(c, L::Status).await,
                    AdminCmd::Pause => admin::ladder(c, L::Pause(true)).await,
                    AdminCmd::Resume => admin::ladder(c, L::Pause(false)).await,
                    AdminCmd::Challenges { state } => {
                        admin::ladder(c, L::Challenges(state == "on")).await
                    }
                    AdminCmd::Deadline { when, freeze } => {
                        let when = when
                            .map(|w| crate::contest::parse_deadline(&w))
                            .transpose()
                            .map_err(anyhow::Error::msg)?;
                        admin::ladder(c, L::Deadline(when, freeze.map(|f| f == "on"))).await
                    }
                    AdminCmd::Tournament { command } => tournament::run(c, command).await,
                    AdminCmd::Requeue { match_id } => admin::ladder(c, L::Requeue(match_id)).await,
                    AdminCmd::Void { match_id, reason } => {
                        admin::ladder(c, L::Void(match_id, reason)).await
                    }
                    AdminCmd::DisableBot { name, reason } => {
                        admin::ladder(c, L::Bot(name, Some(reason))).await
                    }
                    AdminCmd::EnableBot { name } => admin::ladder(c, L::Bot(name, None)).await,
                    AdminCmd::DisableMap { name } => admin::ladder(c, L::Map(name, false)).await,
                    AdminCmd::EnableMap { name } => admin::ladder(c, L::Map(name, true)).await,
                    AdminCmd::AddMap { name, file, game } => {
                        let game = game.unwrap_or(crate::games::registry().default_name().into());
                        admin::ladder(c, L::AddMap(name, file, game)).await
                    }
                    AdminCmd::Backup { file } => admin::backup(c, file).await,
                    AdminCmd::Restore { file, yes } => admin::restore(c, file, yes).await,
                }
            })?;
            Ok(ExitCode::SUCCESS)
        }),
        Cmd::Play {
            config,
            stderr_dir,
            sandbox,
        } => crate::play::run(&config, stderr_dir.as_deref(), sandbox),
        Cmd::Connect {
            site,
            key,
            practice,
            games,
            inject_delay_ms,
            command,
        } => connect::run(connect::Options {
            site,
            key,
            practice,
            games,
            command,
            delay: std::time::Duration::from_millis(inject_delay_ms),
        }),
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

/// Allocations of 4 MiB or more always get memory of their own from the kernel, and
/// give it back when freed. By default glibc raises this threshold to the size of the
/// largest block freed so far: each password hash's 19 MiB (argon2, 64-byte aligned)
/// then came from the heap, and the aligned blocks could not reuse each other's space,
/// so every login or registration kept 19 MiB more (measured: 40 registrations, 540
/// MiB). Setting the threshold turns the raising off.
fn fixed_mmap_threshold() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes the allocator's settings; called before any thread.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 4 << 20);
    }
}

/// Runs a long-lived command. Once it is done, threads still blocked in work it gave up
/// on (a build, a game, a database call) get half a second: dropping the runtime
/// would otherwise wait for them without end.
fn run_to_stop(
    command: impl std::future::Future<Output = anyhow::Result<()>>,
) -> anyhow::Result<ExitCode> {
    let rt = runtime()?;
    let result = rt.block_on(command);
    rt.shutdown_timeout(std::time::Duration::from_millis(500));
    result.map(|()| ExitCode::SUCCESS)
}

fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?)
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
    let kind = |game: Option<String>| {
        crate::games::kind(
            game.as_deref()
                .unwrap_or(crate::games::registry().default_name()),
        )
    };
    match cmd {
        MapCmd::Generate {
            players,
            seed,
            size,
            game,
        } => {
            let map = kind(game)?.generate_sized(seed, players, size)?;
            print!("{map}");
        }
        MapCmd::Check { file, game } => {
            let kind = kind(game)?;
            let text = std::fs::read_to_string(&file)
                .with_context(|| format!("cannot read map file {}", file.display()))?;
            let info = (kind.map_info(&text))
                .map_err(|e| anyhow::anyhow!("map {}: {e}", file.display()))?;
            let numbers: Vec<String> = (info.numbers.iter())
                .map(|(name, n)| format!("{n} {name}"))
                .collect();
            println!(
                "{}: a {} map for {} players: {}",
                file.display(),
                kind.title(),
                info.seats,
                numbers.join(", ")
            );
            for note in &info.notes {
                println!("{note}");
            }
            if info.notes.is_empty() {
                println!("nothing to note: the map is as the generator makes them");
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    /// `serve --help` ends each setting with its default; `connect --games N` is the
    /// command's own flag, not the site's `games` setting, and shows none.
    #[test]
    fn settings_show_their_defaults_and_a_commands_own_flag_does_not() {
        let mut c = super::command_line();
        let serve = (c.find_subcommand_mut("serve").unwrap().render_help()).to_string();
        assert!(serve.contains("[default: 127.0.0.1:8000]"), "{serve}");
        let connect = (c.find_subcommand_mut("connect").unwrap().render_help()).to_string();
        assert!(connect.contains("--games <N>"), "{connect}");
        assert!(!connect.contains("[default:"), "{connect}");
    }
}
