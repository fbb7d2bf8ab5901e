//! Building uploaded versions, off the request path: unpack the archive, compile it in
//! the sandbox's build mode (no network, time and memory limits), then play a short
//! smoke-test game against a house bot. A version goes pending → building → testing →
//! active, or failed with the reason; a failed version never replaces the active one.
//!
//! Built folders are cached on each machine's disk (see [`crate::build_cache`]),
//! rebuilt from the archive in the database on a miss, and evicted by age and size.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::Context;
use engine::process::{shell_quote, BotSpec, Launcher};
use engine::sandbox::{Limits, Sandbox};
use engine::{run_game, MatchConfig};
use sqlx::PgPool;

use crate::archive::{self, Caps};
use crate::build_cache::BuildCache;
use crate::house;
use crate::ids::VersionId;
use crate::languages::{Languages, Recipe};

mod failure;
mod queue;

pub use failure::relative_paths;
pub use queue::{activate, run};

/// In the smoke test, a bot that uses no CPU for this long while its reply is awaited
/// is stuck (most often waiting on its own unflushed output) and fails then, rather
/// than after every timeout of a ladder game (85 s).
pub const SMOKE_IDLE_CAP: std::time::Duration = std::time::Duration::from_secs(3);
/// How long a build may take on the wall clock.
pub const BUILD_TIMEOUT: Duration = Duration::from_secs(300);
/// Build output kept for the owner.
const LOG_CAP: usize = 256 * 1024;
/// A version whose build was interrupted this many times fails.
const MAX_ATTEMPTS: i32 = 3;

/// Everything builds need.
#[derive(Clone)]
pub struct Builder {
    pub db: PgPool,
    pub sandbox: Arc<Sandbox>,
    pub languages: Arc<Languages>,
    /// This machine's built versions.
    pub cache: Arc<BuildCache>,
    /// Where the house bots smoke tests play against are written, ready to run.
    pub house: PathBuf,
    pub caps: Caps,
}

/// A version taken from the queue.
#[derive(Debug)]
pub struct Job {
    pub id: VersionId,
    pub bot_name: String,
    /// The bot's game, whose smoke test the version plays.
    pub game: String,
    pub language: String,
    pub entry: String,
    pub compile_command: Option<String>,
    pub run_command: Option<String>,
    pub archive: Vec<u8>,
    pub archive_name: String,
    pub attempts: i32,
}

/// Turns a failed version plays in each other open game, to tell a bot uploaded for
/// the wrong game: enough for a few replies of every seat.
const PROBE_TURNS: u32 = 12;

/// A test game played: why it failed (none when it passed), its replay, the bot's
/// stderr.
struct TestGame {
    failure: Option<failure::Smoke>,
    replay_json: String,
    stderr: String,
}

/// How a build and its smoke test went, for the owner.
#[derive(Debug, Default)]
pub struct Verdict {
    pub failure: Option<String>,
    pub log: String,
    pub replay_gz: Option<Vec<u8>>,
    pub stderr: Option<String>,
}

/// A version built, or why it could not be, with the build log.
#[derive(Debug)]
pub struct Built {
    /// The bot's root folder and its commands, or the reason for its owner.
    pub outcome: Result<(PathBuf, Recipe), String>,
    pub log: String,
}

/// A finished command: its status, output and whether it ran out of time or was
/// stopped.
#[derive(Debug)]
pub struct Finished {
    pub code: Option<i32>,
    pub output: String,
    pub timed_out: bool,
    pub stopped: bool,
}

/// How often a running build's `stop` condition is looked at.
const WATCH_EVERY: Duration = Duration::from_millis(250);

/// Runs `command` in `dir` in the sandbox with `limits` until it ends, `timeout`
/// passes or `stop` says so (looked at every [`WATCH_EVERY`]); stdout and stderr are
/// kept together, capped.
pub fn run_to_end(
    launcher: &dyn Launcher,
    dir: &Path,
    command: &str,
    timeout: Duration,
    stop: &dyn Fn() -> bool,
) -> std::io::Result<Finished> {
    // `sh -c '...' build`: the runner appends a name, which becomes $0 here.
    let spec = BotSpec {
        name: "build".into(),
        command: format!("sh -c {}", shell_quote(command)),
        dir: dir.to_path_buf(),
    };
    let mut p = launcher.launch(&spec)?;
    let (stdin, stdout, stderr) = p
        .take_stdio()
        .ok_or_else(|| std::io::Error::other("no pipes"))?;
    drop(stdin);
    let out = Arc::new(Mutex::new(Vec::new()));
    let readers: Vec<_> = [
        Box::new(stdout) as Box<dyn Read + Send>,
        Box::new(stderr) as Box<dyn Read + Send>,
    ]
    .into_iter()
    .map(|mut pipe| {
        let out = out.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while let Ok(n) = pipe.read(&mut buf) {
                if n == 0 {
                    break;
                }
                let mut o = out.lock().unwrap_or_else(|e| e.into_inner());
                let room = LOG_CAP.saturating_sub(o.len());
                o.extend_from_slice(&buf[..n.min(room)]);
            }
        })
    })
    .collect();
    let started = Instant::now();
    let mut watched = Instant::now();
    let (code, timed_out, stopped) = loop {
        if let Some(status) = p.try_wait() {
            break (status.code(), false, false);
        }
        if started.elapsed() > timeout {
            break (None, true, false);
        }
        if watched.elapsed() >= WATCH_EVERY {
            watched = Instant::now();
            if stop() {
                break (None, false, true);
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    p.kill();
    for r in readers {
        let _ = r.join();
    }
    let bytes = std::mem::take(&mut *out.lock().unwrap_or_else(|e| e.into_inner()));
    let mut output = String::from_utf8_lossy(&bytes).into_owned();
    if bytes.len() >= LOG_CAP {
        output.push_str("\n[the rest of the output was cut]\n");
    }
    Ok(Finished {
        code,
        output,
        timed_out,
        stopped,
    })
}

impl Builder {
    /// The builder of this machine; smoke tests' opponents are written under `house`.
    pub fn new(
        db: PgPool,
        sandbox: Arc<Sandbox>,
        languages: Arc<Languages>,
        cache: BuildCache,
        house: PathBuf,
    ) -> Builder {
        Builder {
            db,
            sandbox,
            languages,
            cache: Arc::new(cache),
            house,
            caps: Caps::default(),
        }
    }

    /// The built root of a version if it is in the cache (and marks it used).
    pub fn cached(&self, id: VersionId) -> Option<PathBuf> {
        self.cache.cached(id)
    }

    /// Unpacks and compiles a version into the cache. Errors are the platform's; the
    /// bot's own problems are in [`Built::outcome`].
    pub fn build(&self, job: &Job) -> anyhow::Result<Built> {
        let failed = |reason: String, log: String| {
            Ok(Built {
                outcome: Err(reason),
                log,
            })
        };
        // Removed (and unmounted) on every way out of here.
        let ws = self
            .cache
            .workspace(job.id)
            .context("cannot make the build's workspace")?;
        let tmp = ws.path().to_path_buf();
        let root = match archive::unpack(&job.archive, &job.archive_name, &tmp, self.caps) {
            Ok(r) => r,
            Err(e) => return failed(format!("the upload cannot be unpacked: {e}"), String::new()),
        };
        let rel = root
            .strip_prefix(&tmp)
            .unwrap_or(Path::new(""))
            .to_path_buf();
        let custom = (job.compile_command.as_deref(), job.run_command.as_deref());
        let Some(recipe) = self.languages.recipe(&job.language, &job.entry, custom) else {
            let why = format!(
                "the language `{}` is not offered here any more",
                job.language
            );
            return failed(why, String::new());
        };
        let mut log = String::new();
        if let Some(compile) = &recipe.compile {
            log.push_str(&format!("$ {compile}\n"));
            let launcher = self.sandbox.launcher(Limits::build());
            let done = run_to_end(&launcher, &root, compile, BUILD_TIMEOUT, &|| {
                ws.over().is_some()
            })
            .context("the build sandbox failed")?;
            log.push_str(&done.output);
            if let Some(over) = ws.over() {
                log.push_str(&format!("\n{over}: it was stopped\n"));
                return failed(over, log);
            }
            if done.timed_out {
                return failed(
                    format!("the build took longer than {} s", BUILD_TIMEOUT.as_secs()),
                    log,
                );
            }
            match done.code {
                Some(0) => log.push_str("\nbuild finished\n"),
                Some(code) => {
                    return failed(
                        format!("the build failed (exit status {code}); see the build log"),
                        log,
                    )
                }
                None => {
                    return failed(
                        "the build was killed (a limit of the build sandbox?); see the build log"
                            .into(),
                        log,
                    )
                }
            }
        }
        match self.cache.keep(&ws, &rel, job.id)? {
            Ok(kept) => Ok(Built {
                outcome: Ok((kept.root, recipe)),
                log,
            }),
            Err(why) => failed(why, log),
        }
    }

    /// Builds a version and plays its smoke test. `set_testing` is called when the test
    /// game starts, `on_turn` with each of its turns. A version that fails its test is
    /// tried for a few turns in each game of `others` (the other open games): one that
    /// plays there is for that game, and its owner is told so first.
    pub fn build_and_test(
        &self,
        job: &Job,
        others: &[String],
        set_testing: impl FnOnce(),
        mut on_turn: impl FnMut(u32),
    ) -> anyhow::Result<Verdict> {
        let Built { outcome, log } = self.build(job)?;
        let (root, recipe) = match outcome {
            Ok(b) => b,
            Err(failure) => {
                return Ok(Verdict {
                    failure: Some(failure),
                    log,
                    ..Verdict::default()
                })
            }
        };
        set_testing();
        let content = crate::games::content(&job.game)?;
        let test = self.test_game(job, content, &root, &recipe, None, &mut on_turn)?;
        let mut failure = test.failure.as_ref().map(failure::Smoke::text);
        if let Some(f) = &test.failure {
            for other in others {
                let other = crate::games::content(other)?;
                let probe =
                    self.test_game(job, other, &root, &recipe, Some(PROBE_TURNS), &mut |_| {})?;
                if probe.failure.is_none() {
                    // Not the error to fix: the game. (The page offers the change where
                    // the bot may still make it.)
                    let (this, that) = (content.describe().title, other.describe().title);
                    failure = Some(format!(
                        "This looks like a {that} bot, and this bot is for {this}. {} Upload it as a new {that} bot (New bot, game {that}); a bot that has played no ranked game can also change its game on its page.",
                        f.what
                    ));
                    break;
                }
            }
        }
        Ok(Verdict {
            failure,
            log,
            replay_gz: Some(crate::compress::gzip(test.replay_json.as_bytes())),
            stderr: Some(test.stderr),
        })
    }

    /// Plays a test game of `content`'s game for the version built in `root`: a whole
    /// game, or `turns` turns at most.
    fn test_game(
        &self,
        job: &Job,
        content: crate::games::Content,
        root: &Path,
        recipe: &Recipe,
        turns: Option<u32>,
        on_turn: &mut dyn FnMut(u32),
    ) -> anyhow::Result<TestGame> {
        let bot = BotSpec {
            name: job.bot_name.clone(),
            command: recipe.run.clone(),
            dir: root.to_path_buf(),
        };
        let mut specs = vec![bot];
        for (i, name) in content.smoke_opponents().iter().enumerate() {
            let mut opponent = house::install(&self.house, name)
                .context("cannot write the smoke test's house bot")?;
            // Names differ within a match.
            if specs
                .iter()
                .any(|s| s.name.eq_ignore_ascii_case(&opponent.name))
            {
                opponent.name = format!("{}-{}", opponent.name, i + 2);
            }
            specs.push(opponent);
        }
        // A whole game, as the ladder plays it, bounded by the game's own limits: a
        // version that crashes at its 50th move fails here, not on the ladder.
        let mut config = MatchConfig {
            idle_cap: Some(SMOKE_IDLE_CAP),
            // The test fails on any timeout: end it at the first.
            on_timeout: engine::OnTimeout::Eliminate,
            ..crate::games::match_config(content.kind, &MatchConfig::default())
        };
        if let Some(turns) = turns {
            config.max_turns = config.max_turns.min(turns);
        }
        let names: Vec<String> = specs.iter().map(|s| s.name.clone()).collect();
        let game = (content.kind)
            .setup(&content.smoke_map()?, &names, config.max_turns)
            .map_err(|e| anyhow::anyhow!("the smoke-test game: {e}"))?;
        let launcher = self.sandbox.launcher(Limits::game());
        let played = run_game(
            game,
            content.kind.framing(),
            &specs,
            &launcher,
            &config,
            &mut |m| {
                on_turn(m.turn());
                true
            },
        )
        .context("the smoke-test game could not be played")?;
        let me = &played.players[0];
        let stderr: String = me
            .stderr
            .iter()
            .map(|(_, b)| String::from_utf8_lossy(&failure::relative_paths(b, root)).into_owned())
            .collect();
        let failure = failure::smoke_failure(me, &played.game.problems(0), &content.time_rule())
            .map(|f| f.relative_to(root));
        Ok(TestGame {
            failure,
            replay_json: played.game.replay_json(),
            stderr,
        })
    }

    /// The built folder and commands of a version, rebuilt from its archive in the
    /// database when this machine's cache does not hold it.
    pub async fn artifact(&self, version_id: VersionId) -> anyhow::Result<(PathBuf, Recipe)> {
        // The recipe's columns only: on a cache hit (every match but a machine's first
        // of this version) the archive, up to 10 MiB, is not needed.
        let v = sqlx::query!(
            "select language, entry, compile_command, run_command from bot_versions where id = $1",
            version_id as VersionId
        )
        .fetch_optional(&self.db)
        .await?
        .with_context(|| format!("version {version_id} is not in the database"))?;
        let custom = (v.compile_command.as_deref(), v.run_command.as_deref());
        let recipe = self
            .languages
            .recipe(&v.language, &v.entry, custom)
            .with_context(|| format!("the language `{}` is not offered here", v.language))?;
        if let Some(root) = self.cached(version_id) {
            return Ok((root, recipe));
        }
        let job = sqlx::query_as!(
            Job,
            r#"select v.id as "id: VersionId", b.name as bot_name, b.game, v.language, v.entry,
                   v.compile_command, v.run_command, v.archive, v.archive_name, v.attempts
               from bot_versions v join bots b on b.id = v.bot_id where v.id = $1"#,
            version_id as VersionId
        )
        .fetch_one(&self.db)
        .await
        .with_context(|| format!("version {version_id} is not in the database"))?;
        tracing::info!(
            version = %version_id,
            "not in this machine's build cache: building it again"
        );
        let me = self.clone();
        let built = crate::dedicated::run("build", move || me.build(&job)).await??;
        match built.outcome {
            Ok(done) => Ok(done),
            Err(why) => anyhow::bail!(
                "version {version_id} no longer builds here: {why}\n{}",
                built.log
            ),
        }
    }
}
