//! `bottlebats play CONFIG.json`: the local arbiter contestants use, for every game of
//! the registry, compatible with the 2016 `arbiter.py` config (a config that names no
//! game plays the registry's first, Bottle Bats), plus our optional keys. The game is
//! played through the game interface as the site plays it; the log is the game's own
//! (`GameKind::write_log`: Bottle Bats' is the classic log of 2016).

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{anyhow, bail, Context};
use engine::process::{BotSpec, Launcher, LocalLauncher};
use engine::sandbox::{Limits, Sandbox, SandboxConfig};
use engine::{MatchConfig, OnTimeout, PlayerReport};
use game_interface::{GameKind, Maps, Match, SetupError};
use serde::Deserialize;

/// The config file. `players`, `mapfile`, `logfile` and `max_steps` are the 2016 keys;
/// the others are ours.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayConfig {
    /// The game played (`vindinium`); the registry's first (Bottle Bats) when absent,
    /// so every 2016 config runs unchanged.
    pub game: Option<String>,
    /// Player name → shell command, in the order seats are bound (Bottle Bats binds
    /// them by name when every name is an owner on the map).
    pub players: serde_json::Map<String, serde_json::Value>,
    /// The map file; when absent, a map is generated from `map_seed` (or a game played
    /// on one board plays on it).
    pub mapfile: Option<PathBuf>,
    /// Where to write the game's log (Bottle Bats: the classic log of 2016;
    /// Vindinium: the GAME objects a line).
    pub logfile: Option<PathBuf>,
    /// Turns a game lasts at most (Vindinium: moves); the game's own default when
    /// absent. `max_steps`, the 2016 key, is the same.
    #[serde(alias = "max_steps")]
    pub max_turns: Option<u32>,
    /// Where to write the replay the site's viewer opens.
    pub replayfile: Option<PathBuf>,
    pub turn_timeout_ms: Option<u64>,
    pub startup_timeout_ms: Option<u64>,
    pub on_timeout: Option<OnTimeout>,
    /// Seed of the generated map when there is no `mapfile`. `seed` is the same.
    #[serde(alias = "seed")]
    pub map_seed: Option<u64>,
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
    let game = (config.game.as_deref()).unwrap_or(crate::games::registry().default_name());
    let kind = crate::games::kind(game).map_err(|e| anyhow!("config: {e}"))?;
    let players = players(&config, kind)?;
    let map = game_map(&config, kind, &dir, players.len())?;
    let mc = match_config(&config, kind);
    let names: Vec<String> = players.iter().map(|(n, _)| n.clone()).collect();
    let m = kind
        .setup(&map, &names, mc.max_turns)
        .map_err(|e| match (&config.mapfile, e) {
            (Some(path), SetupError::Map(why)) => anyhow!("map {}: {why}", path.display()),
            (_, e) => anyhow!("{e}"),
        })?;
    let specs: Vec<BotSpec> = players
        .iter()
        .map(|(name, command)| BotSpec {
            name: name.clone(),
            command: command.clone(),
            dir: dir.clone(),
        })
        .collect();
    let launcher = launcher(sandboxed);
    let played = play_with_progress(kind, m, &specs, launcher.as_ref(), &mc)?;
    refuse_unstartable(&played.players, &players)?;
    write_outputs(
        kind,
        &config,
        &dir,
        stderr_dir,
        &*played.game,
        &played.players,
    )?;
    let text = summary(kind, &*played.game, &played.players, mc.max_turns);
    let _ = std::io::stdout().write_all(text.as_bytes());
    Ok(ExitCode::SUCCESS)
}

fn read_config(path: &Path) -> anyhow::Result<PlayConfig> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read config file {}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| anyhow!("config {} is not valid: {e}", path.display()))
}

/// (name, command) of each player, in the config's order, checked: as many as the game
/// seats.
fn players(config: &PlayConfig, kind: &dyn GameKind) -> anyhow::Result<Vec<(String, String)>> {
    let mut players = Vec::new();
    for (name, cmd) in &config.players {
        let Some(cmd) = cmd.as_str() else {
            bail!("config: the command of player `{name}` must be a string");
        };
        players.push((name.clone(), cmd.to_string()));
    }
    if players.is_empty() {
        bail!("config: `players` is empty");
    }
    // A map file says how many it seats (the 2016 arbiter played fewer players than
    // seats); a generated map needs a number the game plays.
    let (fewest, most) = kind.defaults().seats;
    let fewest = if config.mapfile.is_some() { 1 } else { fewest };
    if !(fewest..=most).contains(&players.len()) {
        bail!(
            "config: {} is played by {} players, and `players` lists {}",
            kind.title(),
            if kind.defaults().seats.0 == most {
                most.to_string()
            } else {
                format!("{} to {most}", kind.defaults().seats.0)
            },
            players.len()
        );
    }
    Ok(players)
}

/// The map's text: the map file, or a map generated from the seed for this many
/// players, or the game's one board.
fn game_map(
    config: &PlayConfig,
    kind: &dyn GameKind,
    dir: &Path,
    players: usize,
) -> anyhow::Result<String> {
    Ok(
        match (&config.mapfile, config.map_seed, kind.describe().maps) {
            (Some(path), _, _) => std::fs::read_to_string(dir.join(path))
                .with_context(|| format!("cannot read map file {}", path.display()))?,
            (None, _, Maps::Board) => kind.generate(0, players)?,
            (None, Some(seed), _) => kind.generate(seed, players)?,
            (None, None, _) => {
                bail!("config: give a `mapfile` (or a `map_seed` to generate a map)")
            }
        },
    )
}

/// The engine's settings: the config's where given, the game's defaults elsewhere.
fn match_config(config: &PlayConfig, kind: &dyn GameKind) -> MatchConfig {
    let defaults = crate::games::match_config(kind, &MatchConfig::default());
    MatchConfig {
        max_turns: config.max_turns.unwrap_or(defaults.max_turns),
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
    kind: &dyn GameKind,
    m: Box<dyn Match>,
    specs: &[BotSpec],
    launcher: &dyn Launcher,
    config: &MatchConfig,
) -> anyhow::Result<engine::GameResult> {
    let terminal = std::io::stderr().is_terminal();
    let (max, word) = (config.max_turns, kind.describe().turn.one);
    let played = engine::run_game(m, kind.framing(), specs, launcher, config, &mut |m| {
        if terminal && m.turn() % 5 == 0 {
            eprint!("\r{word} {}/{max}", m.turn());
            let _ = std::io::stderr().flush();
        }
        true
    })?;
    if terminal {
        eprint!("\r\x1b[K");
    }
    Ok(played)
}

/// A command that could not be run at all is the config's mistake, not a game: say
/// so rather than print a game nobody played.
fn refuse_unstartable(
    reports: &[PlayerReport],
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
fn write_stderr(dir: &Path, players: &[PlayerReport]) -> anyhow::Result<()> {
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

/// The log, the replay and the players' stderr, where the config and the command line
/// ask for them.
fn write_outputs(
    kind: &dyn GameKind,
    config: &PlayConfig,
    dir: &Path,
    stderr_dir: Option<&Path>,
    m: &dyn Match,
    players: &[PlayerReport],
) -> anyhow::Result<()> {
    // The replay as the site stores it; the log is written from it, as the site does.
    let replay = m.replay_json();
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
        write_stderr(sdir, players)?;
    }
    Ok(())
}

/// `Winner: NAME` as the 2016 arbiter printed it, then the turns played, a table and
/// each player's problems.
fn summary(kind: &dyn GameKind, m: &dyn Match, players: &[PlayerReport], max_turns: u32) -> String {
    use std::fmt::Write as _;
    let d = kind.describe();
    let mut out = String::new();
    let winner = m
        .outcome()
        .winner()
        .map_or("None", |s| players[s].name.as_str());
    let _ = writeln!(out, "Winner: {winner}");
    let mut many = d.turn.many.chars();
    let many: String = many
        .next()
        .map(|c| c.to_uppercase().chain(many).collect())
        .unwrap_or_default();
    let _ = writeln!(out, "{many} played: {} of {max_turns}", m.turn());
    out.push('\n');
    out.push_str(&table_of(players, &m.stats()));
    for (seat, p) in players.iter().enumerate() {
        out.push_str(&problems_in(p, &m.problems(seat), d.turn.one));
    }
    out
}

/// Distinct warnings printed per player; the rest are counted.
const WARNINGS_SHOWN: usize = 10;

/// The players by rank, with the game's statistics (`stats`, by seat), then warnings,
/// errors, timeouts and time used.
fn table_of(players: &[PlayerReport], stats: &[game_interface::Numbers]) -> String {
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
/// end of its stderr), and stderr dropped; `turn` is what the game calls a turn.
fn problems_in(
    p: &PlayerReport,
    found: &[game_interface::problems::Problem],
    turn: &str,
) -> String {
    use game_interface::problems::Kind;
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
