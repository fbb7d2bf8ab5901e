//! `bottlebats play CONFIG.json`: the local arbiter contestants use, compatible with
//! the 2016 `arbiter.py` config, plus our optional keys.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{anyhow, bail, Context};
use engine::map::{Map, Seat};
use runner::process::{BotSpec, Launcher, LocalLauncher};
use runner::sandbox::{Limits, Sandbox, SandboxConfig};
use runner::{run_match, MatchConfig, MatchResult, OnTimeout};
use serde::Deserialize;

/// The config file. The first four keys are the 2016 ones; `game` picks another game
/// than Bottle Bats (`vindinium`), whose own keys are `max_turns` and `map_seed`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayConfig {
    /// The game played; Bottle Bats when absent, so every 2016 config runs unchanged.
    pub game: Option<String>,
    /// Turns (Vindinium: moves) a game lasts at most, for a game other than Bottle Bats;
    /// its own default when absent.
    pub max_turns: Option<u32>,
    /// Seed of the generated map when there is no `mapfile`, for a game other than
    /// Bottle Bats.
    pub map_seed: Option<u64>,
    /// Player name → shell command, in the order seats are bound when names do not
    /// match the map's owners.
    pub players: serde_json::Map<String, serde_json::Value>,
    /// The map file; when absent, a map is generated from `seed`.
    pub mapfile: Option<PathBuf>,
    /// Where to write the classic log.
    pub logfile: Option<PathBuf>,
    #[serde(default = "default_max_steps")]
    pub max_steps: u32,
    /// Where to write our JSON replay.
    pub replayfile: Option<PathBuf>,
    pub turn_timeout_ms: Option<u64>,
    pub startup_timeout_ms: Option<u64>,
    pub on_timeout: Option<OnTimeout>,
    /// Seed of the generated map when there is no `mapfile`.
    pub seed: Option<u64>,
}

fn default_max_steps() -> u32 {
    500
}

/// Reads and checks a map file, naming the file in any error.
pub fn load_map(path: &Path) -> anyhow::Result<Map> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read map file {}", path.display()))?;
    Map::parse(&text).map_err(|e| anyhow!("map {}: {e}", path.display()))
}

/// Exit status 126/127 from `sh -c`: the command could not be run at all.
fn could_not_start(status: Option<std::process::ExitStatus>) -> bool {
    matches!(status.and_then(|s| s.code()), Some(126 | 127))
}

/// Plays the game `config_path` describes, writes what it asks for, and prints the
/// result.
pub fn run(
    config_path: &Path,
    stderr_dir: Option<&Path>,
    sandboxed: bool,
) -> anyhow::Result<ExitCode> {
    let config = read_config(config_path)?;
    // Paths and commands are relative to the working directory, as in the original.
    let dir = std::env::current_dir().context("cannot read the current directory")?;
    if let Some(game) = config
        .game
        .as_deref()
        .filter(|g| *g != crate::games::DEFAULT)
    {
        return other_game::run(
            game,
            &config,
            &dir,
            stderr_dir,
            launcher(sandboxed).as_ref(),
        );
    }
    let players = players(&config)?;
    let map = bind_seats(game_map(&config, players.len())?, &players)?;
    let specs: Vec<BotSpec> = players
        .iter()
        .map(|(name, command)| BotSpec {
            name: name.clone(),
            command: command.clone(),
            dir: dir.clone(),
        })
        .collect();
    let launcher = launcher(sandboxed);
    let result = play_with_progress(map, &specs, launcher.as_ref(), &match_config(&config))?;
    refuse_unstartable(&result.players, &players)?;
    write_outputs(&config, &dir, stderr_dir, &result)?;
    print_summary(&result);
    Ok(ExitCode::SUCCESS)
}

fn read_config(path: &Path) -> anyhow::Result<PlayConfig> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read config file {}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| anyhow!("config {} is not valid: {e}", path.display()))
}

/// (name, command) of each player, in the config's order, checked.
fn players(config: &PlayConfig) -> anyhow::Result<Vec<(String, String)>> {
    let mut players = Vec::new();
    for (name, cmd) in &config.players {
        let Some(cmd) = cmd.as_str() else {
            bail!("config: the command of player `{name}` must be a string");
        };
        if !engine::game::valid_player_name(name) {
            bail!("config: player name `{name}` is not allowed (one word without spaces, not `neutral`)");
        }
        players.push((name.clone(), cmd.to_string()));
    }
    if players.is_empty() {
        bail!("config: `players` is empty");
    }
    Ok(players)
}

/// The map file, or a map generated from the seed for this many players.
fn game_map(config: &PlayConfig, players: usize) -> anyhow::Result<Map> {
    Ok(match (&config.mapfile, config.seed) {
        (Some(path), _) => load_map(path)?,
        (None, Some(seed)) => engine::generate::generate(&engine::generate::GenerateOptions {
            players,
            seed,
            forts: None,
        })?,
        (None, None) => bail!("config: give a `mapfile` (or a `seed` to generate a map)"),
    })
}

/// Binds players to seats by name when every player is an owner on the map, else in
/// the listed order.
fn bind_seats(map: Map, players: &[(String, String)]) -> anyhow::Result<Map> {
    if players.len() > map.seats.len() {
        bail!(
            "the map has {} seats ({}) but the config lists {} players",
            map.seats.len(),
            map.seats.join(", "),
            players.len()
        );
    }
    let by_name: Option<Vec<Seat>> = players
        .iter()
        .map(|(name, _)| map.seats.iter().position(|s| s == name).map(Seat))
        .collect();
    Ok(match by_name {
        Some(order) => map.with_seat_order(&order),
        None => map,
    })
}

/// The runner's settings: the config's where given, the defaults elsewhere.
fn match_config(config: &PlayConfig) -> MatchConfig {
    let defaults = MatchConfig::default();
    MatchConfig {
        max_steps: config.max_steps,
        turn_timeout: config
            .turn_timeout_ms
            .map_or(defaults.turn_timeout, Duration::from_millis),
        startup_timeout: config
            .startup_timeout_ms
            .map_or(defaults.startup_timeout, Duration::from_millis),
        on_timeout: config.on_timeout.unwrap_or(defaults.on_timeout),
        ..defaults
    }
}

/// The sandbox (warning about each protection missing here), or plain processes as in
/// 2016.
fn launcher(sandboxed: bool) -> Box<dyn Launcher> {
    if !sandboxed {
        return Box::new(LocalLauncher);
    }
    let sandbox = Arc::new(Sandbox::new(SandboxConfig::default()));
    for p in sandbox.protections().iter().filter(|p| !p.active) {
        eprintln!(
            "WARNING: the sandbox has no {} protection here: {}",
            p.name, p.how
        );
    }
    Box::new(sandbox.launcher(Limits::game()))
}

/// Plays the match, showing the turn on a terminal.
fn play_with_progress(
    map: Map,
    specs: &[BotSpec],
    launcher: &dyn Launcher,
    config: &MatchConfig,
) -> anyhow::Result<MatchResult> {
    let terminal = std::io::stderr().is_terminal();
    let max = config.max_steps;
    let mut progress = |turn: u32| {
        if terminal && (turn % 5 == 0) {
            eprint!("\rturn {turn}/{max}");
            let _ = std::io::stderr().flush();
        }
        true
    };
    let result = run_match(Arc::new(map), specs, launcher, config, &mut progress)?;
    if terminal {
        eprint!("\r\x1b[K");
    }
    Ok(result)
}

/// A command that could not be run at all is the config's mistake, not a game: say
/// so rather than print a game nobody played.
fn refuse_unstartable(
    reports: &[runner::PlayerReport],
    players: &[(String, String)],
) -> anyhow::Result<()> {
    let Some(p) = reports
        .iter()
        .find(|p| could_not_start(p.exit_status) && p.stderr.len() <= 1)
    else {
        return Ok(());
    };
    let cmd = players
        .iter()
        .find(|(n, _)| *n == p.name)
        .map_or("", |(_, c)| c.as_str());
    let said = p
        .stderr
        .first()
        .map(|(_, b)| String::from_utf8_lossy(b).trim().to_string())
        .unwrap_or_default();
    bail!("player `{}`: command `{cmd}` cannot start: {said}", p.name)
}

/// The players' stderr, a file each in `dir`.
fn write_stderr(dir: &Path, players: &[runner::PlayerReport]) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    for p in players {
        let path = dir.join(format!("{}.stderr", p.name));
        let bytes: Vec<u8> = p
            .stderr
            .iter()
            .flat_map(|(_, b)| b.iter().copied())
            .collect();
        std::fs::write(&path, bytes).with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

fn write_outputs(
    config: &PlayConfig,
    dir: &Path,
    stderr_dir: Option<&Path>,
    result: &MatchResult,
) -> anyhow::Result<()> {
    // The replay as the site stores it (v2); the classic log is printed from it, as
    // the site prints it.
    let compact = engine::replay_v2::encode(&result.replay);
    if let Some(log) = &config.logfile {
        let path = dir.join(log);
        let file = std::fs::File::create(&path)
            .with_context(|| format!("cannot write the log {}", path.display()))?;
        let mut out = std::io::BufWriter::new(file);
        engine::replay_v2::decode(&compact)
            .map_err(|e| anyhow::anyhow!("the replay does not read back: {e}"))?
            .write_classic_log(&mut out)?;
        out.flush()?;
    }
    if let Some(replay) = &config.replayfile {
        let path = dir.join(replay);
        std::fs::write(&path, compact.to_json())
            .with_context(|| format!("cannot write the replay {}", path.display()))?;
    }
    if let Some(sdir) = stderr_dir {
        write_stderr(sdir, &result.players)?;
    }
    Ok(())
}

/// Prints the result; a closed stdout (`| head`) is not an error worth a panic.
fn print_summary(result: &MatchResult) {
    let _ = std::io::stdout().write_all(summary(result).as_bytes());
}

/// `Winner: NAME` as the 2016 arbiter printed it, then a table and any errors.
fn summary(result: &MatchResult) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let winner = result
        .outcome
        .winner
        .map_or("None", |s| result.players[s.0].name.as_str());
    let _ = writeln!(out, "Winner: {winner}");
    let turns = result.replay.result.as_ref().map_or(0, |r| r.turns);
    let _ = writeln!(out, "Turns played: {turns} of {}", result.replay.max_steps);
    out.push('\n');
    out.push_str(&table(result));
    for (seat, p) in result.players.iter().enumerate() {
        let found = engine::problems::counted(&result.replay, seat, &p.warning_counts, p.warnings);
        out.push_str(&problems(p, &found));
    }
    out
}

/// Distinct warnings printed per player; the rest are counted.
const WARNINGS_SHOWN: usize = 10;

/// The players by rank: forts, soldiers, warnings, errors, timeouts, time used.
fn table(result: &MatchResult) -> String {
    let stats: Vec<game_interface::Numbers> =
        result.players.iter().map(|p| p.stats.clone()).collect();
    table_of(&result.players, &stats)
}

/// The players by rank, with the game's statistics (`stats`, by seat), then warnings,
/// errors, timeouts and time used.
fn table_of(players: &[runner::PlayerReport], stats: &[game_interface::Numbers]) -> String {
    use std::fmt::Write as _;
    let mut header: Vec<&str> = vec!["rank", "player"];
    header.extend(stats.first().into_iter().flatten().map(|(name, _)| *name));
    header.extend(["warnings", "errors", "timeouts", "time used (s)"]);
    let mut rows: Vec<Vec<String>> = players
        .iter()
        .zip(stats)
        .map(|(p, numbers)| {
            let mut row = vec![p.rank.to_string(), p.name.clone()];
            row.extend(numbers.iter().map(|(_, n)| n.to_string()));
            row.extend([
                p.warnings.to_string(),
                u32::from(p.error.is_some()).to_string(),
                p.timeouts.to_string(),
                format!("{:.2}", p.time_used.as_secs_f64()),
            ]);
            row
        })
        .collect();
    rows.sort_by_key(|r| r[0].parse::<u32>().unwrap_or(u32::MAX));
    let mut widths: Vec<usize> = header.iter().map(|h| h.len()).collect();
    for r in &rows {
        for (w, c) in widths.iter_mut().zip(r) {
            *w = (*w).max(c.chars().count());
        }
    }
    let mut out = String::new();
    let mut line = |cells: Vec<&str>| {
        let parts: Vec<String> = cells
            .iter()
            .zip(&widths)
            .enumerate()
            // The player's name to the left, numbers to the right.
            .map(|(i, (c, w))| {
                if i == 1 {
                    format!("{c:<w$}")
                } else {
                    format!("{c:>w$}")
                }
            })
            .collect();
        let _ = writeln!(out, "{}", parts.join("  ").trim_end());
    };
    line(header.clone());
    for r in &rows {
        line(r.iter().map(String::as_str).collect());
    }
    let clock = if players.iter().all(|p| p.cpu_measured) {
        "the CPU time of each bot's processes"
    } else {
        "wall-clock time (no CPU accounting here)"
    };
    let _ = writeln!(out, "time used: {clock}, in seconds");
    out
}

/// What went wrong for a player, turn by turn: each distinct warning with its first
/// turn and count, its timeouts' turns, the limits it hit, why it was removed (with the
/// end of its stderr), and stderr dropped.
fn problems(p: &runner::PlayerReport, found: &[engine::problems::Problem]) -> String {
    problems_in(p, found, "turn")
}

/// [`problems`], where a game's turns are called `turn` (Vindinium: `move`).
fn problems_in(
    p: &runner::PlayerReport,
    found: &[engine::problems::Problem],
    turn: &str,
) -> String {
    use engine::problems::Kind;
    use std::fmt::Write as _;
    let mut out = String::new();
    if !found.is_empty() {
        out.push('\n');
    }
    let warnings = found.iter().filter(|x| x.kind == Kind::Warning).count();
    for x in found
        .iter()
        .filter(|x| x.kind == Kind::Warning)
        .take(WARNINGS_SHOWN)
    {
        let times = if x.count > 1 {
            format!(" ({} times)", x.count)
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "{}: {turn} {}: {}{times}",
            p.name, x.first_turn, x.text
        );
    }
    if warnings > WARNINGS_SHOWN {
        let more = warnings - WARNINGS_SHOWN;
        let _ = writeln!(out, "{}: and {more} more distinct warnings", p.name);
    }
    for x in found.iter().filter(|x| x.kind == Kind::Timeout) {
        let turns: Vec<String> = x.turns.iter().map(u32::to_string).collect();
        let _ = writeln!(out, "{}: timed out in {turn}s {}", p.name, turns.join(", "));
    }
    for x in found.iter().filter(|x| x.kind == Kind::Limit) {
        let _ = writeln!(out, "{}: {turn} {}: {}", p.name, x.first_turn, x.text);
    }
    if let Some(e) = &p.error {
        let at = found
            .iter()
            .find(|x| x.kind == Kind::Removed)
            .map_or(String::new(), |x| format!("{turn} {}: ", x.first_turn));
        let _ = writeln!(out, "{}: {at}removed: {e}", p.name);
        let tail: Vec<u8> = p
            .stderr
            .iter()
            .flat_map(|(_, b)| b.iter().copied())
            .collect();
        let text = String::from_utf8_lossy(&tail);
        let last: Vec<&str> = text.lines().rev().take(5).collect();
        for l in last.iter().rev() {
            let _ = writeln!(out, "  stderr: {l}");
        }
    }
    if p.stderr_dropped > 0 {
        let _ = writeln!(
            out,
            "{}: {} bytes of stderr over the caps were dropped",
            p.name, p.stderr_dropped
        );
    }
    out
}

/// `play` for a game other than Bottle Bats, through the game interface: the players in
/// the config's order take the seats, the map comes from `mapfile` or `map_seed`, the
/// replay is the site's and the log is the game's own (Vindinium: one GAME object a
/// line, then the winner).
mod other_game {
    use super::*;

    pub fn run(
        game: &str,
        config: &PlayConfig,
        dir: &Path,
        stderr_dir: Option<&Path>,
        launcher: &dyn Launcher,
    ) -> anyhow::Result<ExitCode> {
        let kind = crate::games::kind(game).map_err(|e| anyhow!("config: {e}"))?;
        let players = players(config)?;
        let (fewest, most) = kind.defaults().seats;
        if !(fewest..=most).contains(&players.len()) {
            bail!(
                "config: {} is played by {} players, and `players` lists {}",
                kind.title(),
                if fewest == most {
                    fewest.to_string()
                } else {
                    format!("{fewest} to {most}")
                },
                players.len()
            );
        }
        let map = match (&config.mapfile, config.map_seed.or(config.seed)) {
            (Some(path), _) => std::fs::read_to_string(dir.join(path))
                .with_context(|| format!("cannot read map file {}", path.display()))?,
            (None, Some(seed)) => kind.generate(seed, players.len())?,
            (None, None) => bail!("config: give a `mapfile` (or a `map_seed` to generate a map)"),
        };
        let mut mc = crate::games::match_config(kind, &MatchConfig::default());
        if let Some(n) = config.max_turns {
            mc.max_steps = n;
        }
        mc.turn_timeout = config
            .turn_timeout_ms
            .map_or(mc.turn_timeout, Duration::from_millis);
        mc.startup_timeout = config
            .startup_timeout_ms
            .map_or(mc.startup_timeout, Duration::from_millis);
        let names: Vec<String> = players.iter().map(|(n, _)| n.clone()).collect();
        let m = kind
            .setup(&map, &names, mc.max_steps)
            .map_err(|e| match &config.mapfile {
                Some(path) => anyhow!("map {}: {e}", path.display()),
                None => anyhow!("{e}"),
            })?;
        let specs: Vec<BotSpec> = players
            .iter()
            .map(|(name, command)| BotSpec {
                name: name.clone(),
                command: command.clone(),
                dir: dir.to_path_buf(),
            })
            .collect();
        let terminal = std::io::stderr().is_terminal();
        let max = mc.max_steps;
        let played = runner::run_game(m, kind.framing(), &specs, launcher, &mc, &mut |m| {
            if terminal && m.turn() % 20 == 0 {
                eprint!("\rturn {}/{max}", m.turn());
                let _ = std::io::stderr().flush();
            }
            true
        })?;
        if terminal {
            eprint!("\r\x1b[K");
        }
        refuse_unstartable(&played.players, &players)?;
        let replay = played.game.replay_json();
        if let Some(log) = &config.logfile {
            let path = dir.join(log);
            let file = std::fs::File::create(&path)
                .with_context(|| format!("cannot write the log {}", path.display()))?;
            let mut out = std::io::BufWriter::new(file);
            kind.write_log(&replay, &mut out)
                .and_then(|()| out.flush())
                .with_context(|| format!("cannot write the log {}", path.display()))?;
        }
        if let Some(file) = &config.replayfile {
            let path = dir.join(file);
            std::fs::write(&path, &replay)
                .with_context(|| format!("cannot write the replay {}", path.display()))?;
        }
        if let Some(sdir) = stderr_dir {
            write_stderr(sdir, &played.players)?;
        }
        let _ = std::io::stdout().write_all(summary(&*played.game, &played.players).as_bytes());
        Ok(ExitCode::SUCCESS)
    }

    /// The winner, the moves played, the table and each player's problems.
    fn summary(m: &dyn game_interface::Match, players: &[runner::PlayerReport]) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        let winner = m
            .outcome()
            .winner()
            .map_or("None", |s| players[s].name.as_str());
        let _ = writeln!(out, "Winner: {winner}");
        let _ = writeln!(out, "Moves played: {}", m.turn());
        out.push('\n');
        out.push_str(&table_of(players, &m.stats()));
        for (seat, p) in players.iter().enumerate() {
            out.push_str(&problems_in(p, &m.problems(seat), "move"));
        }
        out
    }
}
