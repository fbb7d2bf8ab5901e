//! The server's configuration: one struct, filled from flags, then the environment,
//! then an optional TOML file, then the defaults. The doc comment of every field is its
//! `--help` text, and [`DEFAULTS`] is the one place a default is written: `Config::load`
//! falls back on it and `--help` shows it. The operator's guide's settings table
//! (`docs/operator.md`) lists them all (a test holds it to these).

use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{bail, Context};
use serde::Deserialize;

use crate::ranker::matchmaking;

/// Whether ranked games may run when the sandbox lacks a protection.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum SandboxPolicy {
    /// Refuse to play ranked games without every protection.
    Required,
    /// Play them anyway, with a loud warning.
    BestEffort,
}

/// The defaults, in the config file's own format.
pub const DEFAULTS: &str = r#"
listen = "127.0.0.1:8000"
data_dir = "data"
sandbox = "required"
log = "info"
max_upload_mib = 10
registrations_per_hour = 20
pending_builds = 3
bots_per_account = 5
challenge_games_per_hour = 100
challenges_at_once = 2
challenge_minutes_per_hour = 30
live_delay = 0
bot_game_seconds = 250
build_size_mib = 256
build_cache_gib = 10
header_timeout = 10
request_timeout = 60
idle_timeout = 60
max_connections = 1024
max_connections_per_address = 128
games = ["bottlebats"]
remote = "ladder"
remote_tournaments = false
remote_sessions = 1024
"#;

/// What `--help` and the operator's guide show as each setting's default: the values of
/// [`DEFAULTS`], and the defaults that depend on the machine or on another module.
pub fn shown_defaults() -> Vec<(String, String)> {
    let table: toml::Table = toml::from_str(DEFAULTS).expect("the defaults are TOML");
    let mut shown: Vec<(String, String)> = table
        .into_iter()
        .map(|(key, value)| {
            let text = match value {
                toml::Value::String(s) => s,
                other => other.to_string(),
            };
            (key, text)
        })
        .collect();
    shown.extend([
        (
            "workers".to_string(),
            "half the CPU cores, at least 1".to_string(),
        ),
        (
            "multi_player_share".to_string(),
            matchmaking::Settings::default()
                .multi_player_share
                .to_string(),
        ),
        (
            "postgres_bin".to_string(),
            "PATH, then /usr/lib/postgresql/*/bin".to_string(),
        ),
        (
            "remote_matches".to_string(),
            "as many as workers".to_string(),
        ),
        (
            "remote_allowance_ms".to_string(),
            crate::remote::allowance_rule().to_string(),
        ),
    ]);
    shown
}

/// Settings as given (by flags, environment or file); `None` where not given.
#[derive(Clone, Debug, Default, Deserialize, clap::Args)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub struct Settings {
    /// Address and port to serve on
    #[arg(long, global = true, env = "BOTTLEBATS_LISTEN")]
    pub listen: Option<SocketAddr>,
    /// Folder for the embedded database and cached bot builds
    #[arg(long, global = true, env = "BOTTLEBATS_DATA_DIR")]
    pub data_dir: Option<PathBuf>,
    /// PostgreSQL URL; without it an embedded cluster runs in the data folder
    #[arg(long, global = true, env = "DATABASE_URL", hide_env_values = true)]
    pub database_url: Option<String>,
    /// The site's public URL, e.g. https://bots.example.org; https makes cookies Secure
    #[arg(long, global = true, env = "BOTTLEBATS_BASE_URL")]
    pub base_url: Option<String>,
    /// `required` refuses ranked games without the full sandbox; `best-effort` warns
    #[arg(long, global = true, env = "BOTTLEBATS_SANDBOX")]
    pub sandbox: Option<SandboxPolicy>,
    /// Log filter, e.g. `info` or `bottlebats=debug,tower_http=info`
    #[arg(long, global = true, env = "BOTTLEBATS_LOG")]
    pub log: Option<String>,
    /// Largest bot upload in MiB
    #[arg(long, global = true, env = "BOTTLEBATS_MAX_UPLOAD_MIB")]
    pub max_upload_mib: Option<u64>,
    /// A languages table (TOML) replacing the built-in one
    #[arg(long, global = true, env = "BOTTLEBATS_LANGUAGES")]
    pub languages: Option<PathBuf>,
    /// Matches played at once by this process
    #[arg(long, global = true, env = "BOTTLEBATS_WORKERS")]
    pub workers: Option<usize>,
    /// Share of ranked matches on maps for more than two players, 0 to 1
    #[arg(long, global = true, env = "BOTTLEBATS_MULTI_PLAYER_SHARE")]
    pub multi_player_share: Option<f64>,
    /// Folder with PostgreSQL's initdb and pg_ctl for the embedded database
    #[arg(long, global = true, env = "BOTTLEBATS_POSTGRES_BIN")]
    pub postgres_bin: Option<PathBuf>,
    /// Address of a reverse proxy whose X-Forwarded-For names the client (otherwise the header is ignored)
    #[arg(long, global = true, env = "BOTTLEBATS_TRUSTED_PROXY")]
    pub trusted_proxy: Option<IpAddr>,
    /// Accounts one address may register per hour (a classroom behind one NAT shares one)
    #[arg(long, global = true, env = "BOTTLEBATS_REGISTRATIONS_PER_HOUR")]
    pub registrations_per_hour: Option<u32>,
    /// Versions one user may have waiting to be built at once
    #[arg(long, global = true, env = "BOTTLEBATS_PENDING_BUILDS")]
    pub pending_builds: Option<u32>,
    /// Bots one account may have
    #[arg(long, global = true, env = "BOTTLEBATS_BOTS_PER_ACCOUNT")]
    pub bots_per_account: Option<u32>,
    /// Games of challenges and A/B tests one user may ask for per hour
    #[arg(long, global = true, env = "BOTTLEBATS_CHALLENGE_GAMES_PER_HOUR")]
    pub challenge_games_per_hour: Option<u32>,
    /// Challenges and A/B tests one user may have playing at once
    #[arg(long, global = true, env = "BOTTLEBATS_CHALLENGES_AT_ONCE")]
    pub challenges_at_once: Option<u32>,
    /// Minutes of the workers' time one user's challenge and A/B test games started in the last hour may take; past them new ones are refused and queued ones wait
    #[arg(long, global = true, env = "BOTTLEBATS_CHALLENGE_MINUTES_PER_HOUR")]
    pub challenge_minutes_per_hour: Option<u32>,
    /// Submission deadline, e.g. `2026-12-01 18:00` (UTC) or RFC 3339; `none` removes it. Written at each start; /admin and `bottlebats admin deadline` change it meanwhile
    #[arg(long, global = true, env = "BOTTLEBATS_DEADLINE")]
    pub deadline: Option<String>,
    /// Whether ranked matches stop at the deadline (`true`) or the ladder goes on (`false`). Written at each start
    #[arg(long, global = true, env = "BOTTLEBATS_FREEZE_AT_DEADLINE")]
    pub freeze_at_deadline: Option<bool>,
    /// The games open on this site, the default first, e.g. `bottlebats,vindinium`. Written at each start
    #[arg(long, global = true, env = "BOTTLEBATS_GAMES", value_delimiter = ',')]
    pub games: Option<Vec<String>>,
    /// Turns a live match is shown behind the game (a delay for finals on a big screen), until an organizer sets the delay on /admin
    #[arg(long, global = true, env = "BOTTLEBATS_LIVE_DELAY")]
    pub live_delay: Option<u32>,
    /// Most seconds on the wall clock a whole game's replies may take on the site: players who answer together each have it all, seats that answer in turn share it; a bot past its share is removed (0: no limit)
    #[arg(long, global = true, env = "BOTTLEBATS_BOT_GAME_SECONDS")]
    pub bot_game_seconds: Option<u64>,
    /// Most a build may write, and what is kept of a built version, in MiB
    #[arg(long, global = true, env = "BOTTLEBATS_BUILD_SIZE_MIB")]
    pub build_size_mib: Option<u64>,
    /// Size of this machine's cache of built versions in GiB; the least recently used go first
    #[arg(long, global = true, env = "BOTTLEBATS_BUILD_CACHE_GIB")]
    pub build_cache_gib: Option<u64>,
    /// A token /metrics requires (`Authorization: Bearer TOKEN`); without it /metrics is public but names no worker
    #[arg(
        long,
        global = true,
        env = "BOTTLEBATS_METRICS_TOKEN",
        hide_env_values = true
    )]
    pub metrics_token: Option<String>,
    /// Seconds a client has to send a request's headers; also how long an idle kept-alive connection stays open
    #[arg(long, global = true, env = "BOTTLEBATS_HEADER_TIMEOUT")]
    pub header_timeout: Option<u64>,
    /// Seconds a request may take, its body and the answer included
    #[arg(long, global = true, env = "BOTTLEBATS_REQUEST_TIMEOUT")]
    pub request_timeout: Option<u64>,
    /// Seconds a connection may go without a byte moving either way while it waits
    #[arg(long, global = true, env = "BOTTLEBATS_IDLE_TIMEOUT")]
    pub idle_timeout: Option<u64>,
    /// Connections served at once; more wait to be accepted
    #[arg(long, global = true, env = "BOTTLEBATS_MAX_CONNECTIONS")]
    pub max_connections: Option<usize>,
    /// What remote bots (docs/remote.md) may do here: `off`, `practice` (unrated games against house bots) or `ladder` (rated, and practice)
    #[arg(long, global = true, env = "BOTTLEBATS_REMOTE")]
    pub remote: Option<crate::remote::Mode>,
    /// Whether remote bots may enter tournaments. Written at each start
    #[arg(long, global = true, env = "BOTTLEBATS_REMOTE_TOURNAMENTS")]
    pub remote_tournaments: Option<bool>,
    /// Remote bots' sessions this server holds at once, beside max_connections
    #[arg(long, global = true, env = "BOTTLEBATS_REMOTE_SESSIONS")]
    pub remote_sessions: Option<usize>,
    /// Matches with a remote bot this server plays at once (their hosted seats run here)
    #[arg(long, global = true, env = "BOTTLEBATS_REMOTE_MATCHES")]
    pub remote_matches: Option<usize>,
    /// Time added to a remote bot's replies for the network, per game, e.g. `vindinium=250,bottlebats=400`
    #[arg(
        long,
        global = true,
        env = "BOTTLEBATS_REMOTE_ALLOWANCE_MS",
        value_delimiter = ','
    )]
    pub remote_allowance_ms: Option<Vec<String>>,
    /// Connections one address (IPv6: one /64) may have open at once; more are closed when accepted. The trusted proxy is not capped
    #[arg(long, global = true, env = "BOTTLEBATS_MAX_CONNECTIONS_PER_ADDRESS")]
    pub max_connections_per_address: Option<usize>,
}

impl Settings {
    /// Fills what these settings leave open from `other`.
    fn or(self, other: Settings) -> Settings {
        Settings {
            listen: self.listen.or(other.listen),
            data_dir: self.data_dir.or(other.data_dir),
            database_url: self.database_url.or(other.database_url),
            base_url: self.base_url.or(other.base_url),
            sandbox: self.sandbox.or(other.sandbox),
            log: self.log.or(other.log),
            postgres_bin: self.postgres_bin.or(other.postgres_bin),
            max_upload_mib: self.max_upload_mib.or(other.max_upload_mib),
            languages: self.languages.or(other.languages),
            workers: self.workers.or(other.workers),
            multi_player_share: self.multi_player_share.or(other.multi_player_share),
            trusted_proxy: self.trusted_proxy.or(other.trusted_proxy),
            registrations_per_hour: self.registrations_per_hour.or(other.registrations_per_hour),
            pending_builds: self.pending_builds.or(other.pending_builds),
            bots_per_account: self.bots_per_account.or(other.bots_per_account),
            challenge_games_per_hour: self
                .challenge_games_per_hour
                .or(other.challenge_games_per_hour),
            challenges_at_once: self.challenges_at_once.or(other.challenges_at_once),
            challenge_minutes_per_hour: self
                .challenge_minutes_per_hour
                .or(other.challenge_minutes_per_hour),
            deadline: self.deadline.or(other.deadline),
            freeze_at_deadline: self.freeze_at_deadline.or(other.freeze_at_deadline),
            games: self.games.or(other.games),
            live_delay: self.live_delay.or(other.live_delay),
            bot_game_seconds: self.bot_game_seconds.or(other.bot_game_seconds),
            build_size_mib: self.build_size_mib.or(other.build_size_mib),
            build_cache_gib: self.build_cache_gib.or(other.build_cache_gib),
            metrics_token: self.metrics_token.or(other.metrics_token),
            header_timeout: self.header_timeout.or(other.header_timeout),
            request_timeout: self.request_timeout.or(other.request_timeout),
            idle_timeout: self.idle_timeout.or(other.idle_timeout),
            max_connections: self.max_connections.or(other.max_connections),
            remote: self.remote.or(other.remote),
            remote_tournaments: self.remote_tournaments.or(other.remote_tournaments),
            remote_sessions: self.remote_sessions.or(other.remote_sessions),
            remote_matches: self.remote_matches.or(other.remote_matches),
            remote_allowance_ms: self.remote_allowance_ms.or(other.remote_allowance_ms),
            max_connections_per_address: self
                .max_connections_per_address
                .or(other.max_connections_per_address),
        }
    }
}

/// Why a setting of [`DEFAULTS`] is always there (the tests load the defaults).
const HAS_DEFAULT: &str = "a setting with a default in DEFAULTS";

/// The configuration in force.
#[derive(Clone, Debug)]
pub struct Config {
    pub listen: SocketAddr,
    pub data_dir: PathBuf,
    pub database_url: Option<String>,
    pub base_url: Option<String>,
    pub sandbox: SandboxPolicy,
    pub log: String,
    pub postgres_bin: Option<PathBuf>,
    pub max_upload_bytes: u64,
    pub languages: Option<PathBuf>,
    pub workers: usize,
    pub multi_player_share: f64,
    pub trusted_proxy: Option<IpAddr>,
    pub registrations_per_hour: u32,
    pub pending_builds: u32,
    pub bots_per_account: u32,
    pub challenge_limits: crate::challenges::Limits,
    /// The deadline to write at start: `Some(None)` removes it; `None` leaves it.
    pub deadline: Option<Option<time::OffsetDateTime>>,
    pub freeze_at_deadline: Option<bool>,
    /// The open games, checked against the registry (`crate::games`).
    pub games: Vec<String>,
    pub live_delay: u32,
    /// What one bot's replies may take over a game on the wall clock; `None`: no limit.
    pub bot_game_time: Option<Duration>,
    pub build_size_bytes: u64,
    pub build_cache_bytes: u64,
    pub metrics_token: Option<String>,
    pub header_timeout: Duration,
    pub request_timeout: Duration,
    pub idle_timeout: Duration,
    pub max_connections: usize,
    /// What remote bots may do, whether they enter tournaments, how many sessions and
    /// matches this server holds, and each game's allowance (`crate::remote`).
    pub remote: crate::remote::Settings,
    pub max_connections_per_address: usize,
}

/// The settings of a config file, if one is given.
fn read_file(file: Option<&Path>) -> anyhow::Result<Settings> {
    let Some(path) = file else {
        return Ok(Settings::default());
    };
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read config file {}", path.display()))?;
    toml::from_str::<Settings>(&text)
        .map_err(|e| anyhow::anyhow!("config file {}: {e}", path.display()))
}

impl Config {
    /// Flags and environment (already merged by clap) over the file over the defaults.
    pub fn load(given: Settings, file: Option<&Path>) -> anyhow::Result<Config> {
        let from_file = read_file(file)?;
        let s = given
            .or(from_file)
            .or(toml::from_str(DEFAULTS).expect("the defaults are settings"));
        if s.multi_player_share
            .is_some_and(|x| !(0.0..=1.0).contains(&x))
        {
            bail!("multi_player_share must be between 0 and 1");
        }
        if s.max_upload_mib == Some(0) {
            bail!("max_upload_mib must be at least 1");
        }
        for (name, value) in [
            (
                "registrations_per_hour",
                s.registrations_per_hour.map(u64::from),
            ),
            ("pending_builds", s.pending_builds.map(u64::from)),
            ("bots_per_account", s.bots_per_account.map(u64::from)),
            (
                "challenge_games_per_hour",
                s.challenge_games_per_hour.map(u64::from),
            ),
            ("challenges_at_once", s.challenges_at_once.map(u64::from)),
            (
                "challenge_minutes_per_hour",
                s.challenge_minutes_per_hour.map(u64::from),
            ),
            ("build_size_mib", s.build_size_mib),
            ("build_cache_gib", s.build_cache_gib),
            ("header_timeout", s.header_timeout),
            ("request_timeout", s.request_timeout),
            ("idle_timeout", s.idle_timeout),
            ("max_connections", s.max_connections.map(|n| n as u64)),
            ("remote_sessions", s.remote_sessions.map(|n| n as u64)),
            ("remote_matches", s.remote_matches.map(|n| n as u64)),
            (
                "max_connections_per_address",
                s.max_connections_per_address.map(|n| n as u64),
            ),
        ] {
            if value == Some(0) {
                bail!("{name} must be at least 1");
            }
        }
        let deadline = match &s.deadline {
            Some(text) => Some(crate::contest::parse_deadline(text).map_err(anyhow::Error::msg)?),
            None => None,
        };
        let games = s.games.clone().expect(HAS_DEFAULT);
        if games.is_empty() {
            bail!("games must name at least one game");
        }
        for g in &games {
            crate::games::kind(g).map_err(|e| anyhow::anyhow!("games: {e}"))?;
        }
        if let Some(url) = &s.base_url {
            if !(url.starts_with("http://") || url.starts_with("https://")) {
                bail!("base_url must start with http:// or https://, got `{url}`");
            }
        }
        let allowances =
            crate::remote::parse_allowances(s.remote_allowance_ms.as_deref().unwrap_or_default())
                .map_err(|e| anyhow::anyhow!("remote_allowance_ms: {e}"))?;
        let workers = s.workers.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, |n| (n.get() / 2).max(1))
        });
        Ok(Config {
            listen: s.listen.expect(HAS_DEFAULT),
            data_dir: s.data_dir.expect(HAS_DEFAULT),
            database_url: s.database_url.filter(|u| !u.is_empty()),
            base_url: s.base_url.map(|u| u.trim_end_matches('/').to_string()),
            sandbox: s.sandbox.expect(HAS_DEFAULT),
            log: s.log.expect(HAS_DEFAULT),
            postgres_bin: s.postgres_bin,
            max_upload_bytes: s.max_upload_mib.expect(HAS_DEFAULT) * 1024 * 1024,
            languages: s.languages,
            workers,
            multi_player_share: s
                .multi_player_share
                .unwrap_or(matchmaking::Settings::default().multi_player_share),
            trusted_proxy: s.trusted_proxy,
            registrations_per_hour: s.registrations_per_hour.expect(HAS_DEFAULT),
            pending_builds: s.pending_builds.expect(HAS_DEFAULT),
            bots_per_account: s.bots_per_account.expect(HAS_DEFAULT),
            challenge_limits: crate::challenges::Limits {
                games_per_hour: s.challenge_games_per_hour.expect(HAS_DEFAULT),
                at_once: s.challenges_at_once.expect(HAS_DEFAULT),
                minutes_per_hour: s.challenge_minutes_per_hour.expect(HAS_DEFAULT),
            },
            deadline,
            freeze_at_deadline: s.freeze_at_deadline,
            games,
            live_delay: s.live_delay.expect(HAS_DEFAULT),
            bot_game_time: Some(s.bot_game_seconds.expect(HAS_DEFAULT))
                .filter(|&n| n > 0)
                .map(Duration::from_secs),
            build_size_bytes: s.build_size_mib.expect(HAS_DEFAULT) * 1024 * 1024,
            build_cache_bytes: s.build_cache_gib.expect(HAS_DEFAULT) * 1024 * 1024 * 1024,
            metrics_token: s.metrics_token.filter(|t| !t.is_empty()),
            header_timeout: Duration::from_secs(s.header_timeout.expect(HAS_DEFAULT)),
            request_timeout: Duration::from_secs(s.request_timeout.expect(HAS_DEFAULT)),
            idle_timeout: Duration::from_secs(s.idle_timeout.expect(HAS_DEFAULT)),
            max_connections: s.max_connections.expect(HAS_DEFAULT),
            remote: crate::remote::Settings {
                mode: s.remote.expect(HAS_DEFAULT),
                tournaments: s.remote_tournaments.expect(HAS_DEFAULT),
                sessions: s.remote_sessions.expect(HAS_DEFAULT),
                matches: s.remote_matches.unwrap_or(workers),
                allowances,
            },
            max_connections_per_address: s.max_connections_per_address.expect(HAS_DEFAULT),
        })
    }

    /// Cookies get the Secure flag when the site is served over https.
    pub fn secure_cookies(&self) -> bool {
        self.base_url
            .as_deref()
            .is_some_and(|u| u.starts_with("https://"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_make_a_configuration() {
        let c = Config::load(Settings::default(), None).unwrap();
        assert_eq!(c.listen, "127.0.0.1:8000".parse::<SocketAddr>().unwrap());
        assert_eq!(c.max_upload_bytes, 10 << 20);
        assert_eq!(c.sandbox, SandboxPolicy::Required);
        assert_eq!(c.idle_timeout, Duration::from_secs(60));
    }

    /// The operator's guide's settings table: one row per setting, with the key,
    /// variable, flag and default the program has.
    #[test]
    fn the_operators_guide_lists_every_setting_as_the_program_has_it() {
        let guide =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/operator.md"))
                .expect("docs/operator.md beside the crates");
        let rows: Vec<Vec<String>> = guide
            .lines()
            .skip_while(|l| !l.starts_with("| file key |"))
            .skip(2)
            .take_while(|l| l.starts_with('|'))
            .map(|l| {
                l.trim_matches('|')
                    .split(" | ")
                    .map(|cell| cell.trim().replace('`', ""))
                    .collect()
            })
            .collect();
        let defaults = shown_defaults();
        let command = <Settings as clap::Args>::augment_args(clap::Command::new("settings"));
        let mut keys = Vec::new();
        for arg in command.get_arguments() {
            let key = arg.get_id().as_str();
            keys.push(key.to_string());
            let row = rows
                .iter()
                .find(|r| r[0] == key)
                .unwrap_or_else(|| panic!("docs/operator.md has no row for `{key}`"));
            let env = arg.get_env().expect("every setting has a variable");
            assert_eq!(row[1], env.to_string_lossy(), "{key}: variable");
            let flag = format!("--{}", arg.get_long().expect("every setting has a flag"));
            assert_eq!(row[2], flag, "{key}: flag");
            match defaults.iter().find(|(k, _)| k == key) {
                Some((_, shown)) => assert_eq!(
                    row[3].trim_start_matches("./"),
                    shown.as_str(),
                    "{key}: default"
                ),
                None => assert!(row[3].starts_with('('), "{key} has no default: {row:?}"),
            }
        }
        let listed: Vec<&String> = rows.iter().map(|r| &r[0]).collect();
        assert_eq!(
            listed.len(),
            keys.len(),
            "docs/operator.md rows {listed:?}, settings {keys:?}"
        );
    }
}
