//! `bottlebats serve`: logging, the database, the web app, and a clean stop on
//! Ctrl-C or SIGTERM (requests in flight finish, the embedded database stops).

use anyhow::Context;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use engine::sandbox::{Sandbox, SandboxConfig};
use engine::MatchConfig;

use crate::build_cache::BuildCache;
use crate::builds::{self, Builder};
use crate::config::Config;
use crate::db::Database;
use crate::house;
use crate::languages::Languages;
use crate::ranker::{self, matchmaking::Settings};
use crate::web::{self, AppState};
use crate::worker::{self, Worker};

/// Sets up structured logs for a long-running command.
pub fn init_logging(filter: &str) {
    let filter = tracing_subscriber::EnvFilter::try_new(filter).unwrap_or_else(|e| {
        eprintln!("warning: log filter `{filter}` is not valid ({e}); using `info`");
        tracing_subscriber::EnvFilter::new("info")
    });
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_target(false)
        .try_init();
}

/// Resolves on Ctrl-C or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        .expect("SIGTERM can be handled");
    tokio::select! {
        _ = ctrl_c => {}
        _ = term.recv() => {}
    }
    tracing::info!("stopping: finishing requests in flight");
}

/// Says loudly what the sandbox lacks on this machine; true when untrusted code may
/// run here under the configured policy.
fn check_sandbox(config: &Config, sandbox: &Sandbox) -> bool {
    let missing: Vec<_> = sandbox
        .protections()
        .into_iter()
        .filter(|p| !p.active)
        .collect();
    for p in &missing {
        tracing::warn!(
            "the bot sandbox has no {} protection here: {}",
            p.name,
            p.how
        );
    }
    if !missing.is_empty() {
        let policy = match config.sandbox {
            crate::config::SandboxPolicy::Required => {
                "uploaded bots will not be built and ranked games will not run until it is complete (sandbox = required)"
            }
            crate::config::SandboxPolicy::BestEffort => {
                "ranked games run anyway (sandbox = best-effort)"
            }
        };
        tracing::warn!("{policy}; `bottlebats doctor` shows the details");
    }
    missing.is_empty() || config.sandbox == crate::config::SandboxPolicy::BestEffort
}

/// The builder of uploaded versions for this machine.
pub fn builder(
    config: &Config,
    db: &sqlx::PgPool,
    sandbox: Arc<Sandbox>,
    languages: Arc<Languages>,
) -> anyhow::Result<Builder> {
    let cache = BuildCache::new(
        config.data_dir.join("builds"),
        config.build_size_bytes,
        config.build_cache_bytes,
    )
    .context("cannot prepare the build cache in the data folder")?;
    tracing::info!("builds are kept to their size by {}", cache.quota_kind());
    Ok(Builder::new(
        db.clone(),
        sandbox,
        languages,
        cache,
        config.data_dir.join("house"),
    ))
}

/// The background work of a machine: the builder and the match workers.
pub struct BotWork {
    /// The builds' cache, when this machine builds.
    cache: Option<Arc<crate::build_cache::BuildCache>>,
    /// What plays remote bots' matches here, when this machine plays.
    pub remote_player: Option<crate::remote::hub::Player>,
    stop_builds: tokio::sync::watch::Sender<bool>,
    stop_matches: Arc<AtomicBool>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
}

impl BotWork {
    /// Starts the builder and `config.workers` workers, if the sandbox policy lets
    /// untrusted code run here.
    pub async fn start(
        config: &Config,
        db: &sqlx::PgPool,
        languages: Arc<Languages>,
    ) -> anyhow::Result<BotWork> {
        let sandbox = Arc::new(Sandbox::new(SandboxConfig {
            extra_read_only: languages.host_folders(),
            ..SandboxConfig::default()
        }));
        let (stop_builds, stop_rx) = tokio::sync::watch::channel(false);
        let stop_matches = Arc::new(AtomicBool::new(false));
        let mut tasks = Vec::new();
        let mut cache = None;
        let mut remote_player = None;
        if check_sandbox(config, &sandbox) {
            let b = builder(config, db, sandbox, languages)?;
            cache = Some(b.cache.clone());
            tasks.push(tokio::spawn(builds::run(b.clone(), stop_rx)));
            let settings = Settings {
                multi_player_share: config.multi_player_share,
                ..Settings::default()
            };
            remote_player = Some(crate::remote::hub::Player {
                builder: b.clone(),
                match_config: MatchConfig {
                    // Each game plays to its own turn limit.
                    max_turns: u32::MAX,
                    game_wall_budget: config.bot_game_time,
                    ..MatchConfig::default()
                },
                settings,
            });
            let buffer = 2 * config.workers as i64;
            let host = worker::hostname();
            for i in 0..config.workers {
                let w = Worker {
                    name: format!("{host}-{}-{i}", std::process::id()),
                    db: db.clone(),
                    builder: b.clone(),
                    match_config: MatchConfig {
                        // Each game plays to its own turn limit.
                        max_turns: u32::MAX,
                        game_wall_budget: config.bot_game_time,
                        ..MatchConfig::default()
                    },
                    stop: stop_matches.clone(),
                    challenge_minutes_per_hour: config.challenge_limits.minutes_per_hour,
                };
                tasks.push(tokio::spawn(w.run(buffer, settings)));
            }
            tracing::info!(
                workers = config.workers,
                "building uploads and playing ranked matches"
            );
        }
        Ok(BotWork {
            cache,
            remote_player,
            stop_builds,
            stop_matches,
            tasks,
        })
    }

    /// Stops within `deadline`: a match being played goes back to the queue, a build
    /// finishes. What is still under way then (a database that does not answer, a
    /// build that takes long) is left: its lease expires and another worker takes it.
    pub async fn stop(self, deadline: Duration) {
        let _ = self.stop_builds.send(true);
        self.stop_matches.store(true, Ordering::Relaxed);
        let aborts: Vec<_> = self.tasks.iter().map(|t| t.abort_handle()).collect();
        let all = async {
            for t in self.tasks {
                let _ = t.await;
            }
        };
        if tokio::time::timeout(deadline, all).await.is_err() {
            tracing::warn!(
                "a build or match was still under way after {} s: it is left to its lease, and goes back to the queue when that expires",
                deadline.as_secs()
            );
            for a in aborts {
                a.abort();
            }
        }
        // A build still under way runs on a thread nobody waits for: its workspace's
        // tmpfs would stay mounted after we exit.
        if let Some(cache) = &self.cache {
            cache.unmount_all();
        }
    }
}

/// What a stop may take for the bots' work, and for the database after it: with the
/// requests in flight (drained meanwhile), a stop takes at most about 8 s, however
/// badly the database behaves.
const STOP_WORK: Duration = Duration::from_secs(5);
const STOP_DATABASE: Duration = Duration::from_secs(3);

/// Resolves on Ctrl-C or SIGTERM; every clone of the receiver sees it.
fn stop_signal() -> tokio::sync::watch::Receiver<bool> {
    let (tx, rx) = tokio::sync::watch::channel(false);
    tokio::spawn(async move {
        shutdown_signal().await;
        let _ = tx.send(true);
    });
    rx
}

/// Waits until `stop` says so.
async fn stopped(mut stop: tokio::sync::watch::Receiver<bool>) {
    let _ = stop.wait_for(|s| *s).await;
}

/// Closes the database within [`STOP_DATABASE`].
async fn close_database(db: Database) {
    if tokio::time::timeout(STOP_DATABASE, db.close())
        .await
        .is_err()
    {
        tracing::warn!(
            "the database did not close within {} s",
            STOP_DATABASE.as_secs()
        );
    }
}

/// Languages, with a warning for each one whose toolchain is missing.
fn languages(config: &Config) -> anyhow::Result<Languages> {
    let languages = Languages::load(config.languages.as_deref())?;
    for l in languages.list.iter().filter(|l| !l.available) {
        tracing::warn!(
            "{} is not offered: `{}` is not installed",
            l.language.name,
            l.missing.as_deref().unwrap_or("?")
        );
    }
    Ok(languages)
}

/// Opens the database and makes sure the house bots and shipped maps are in it.
async fn open_ladder(config: &Config) -> anyhow::Result<Database> {
    crate::db::create_data_dir(&config.data_dir)?;
    let db = Database::open(config).await?;
    // The organizer's games, written at each start before anything reads them.
    crate::games::set_open(&db.pool, &config.games).await?;
    house::register(&db.pool)
        .await
        .context("cannot register the house bots")?;
    ranker::load_shipped_maps(&db.pool)
        .await
        .context("cannot load the shipped maps")?;
    // The config's deadline, when it has one, is the organizer's word at each start.
    if let Some(deadline) = config.deadline {
        crate::contest::set_deadline(&db.pool, deadline).await?;
    }
    if let Some(freeze) = config.freeze_at_deadline {
        crate::contest::set_freeze(&db.pool, freeze).await?;
    }
    crate::remote::set_site(&db.pool, &config.remote).await?;
    Ok(db)
}

pub async fn run(config: Config) -> anyhow::Result<()> {
    init_logging(&config.log);
    let languages = languages(&config)?;
    let db = open_ladder(&config).await?;
    let listener = tokio::net::TcpListener::bind(config.listen)
        .await
        .with_context(|| format!("cannot listen on {}", config.listen))?;
    let url = format!("http://{}", listener.local_addr()?);
    let state = AppState::new(db.pool.clone(), config.clone(), languages);
    let work = BotWork::start(&config, &db.pool, state.languages.clone()).await?;
    if let Some(player) = work.remote_player.clone() {
        state.remote.start(player);
    }
    let hub = state.remote.clone();
    tracing::info!("serving Bottle Bats on {url}");
    let stop = stop_signal();
    // On the signal the site drains its requests while the bots' work stops; remote
    // sessions end, their matches under way void.
    let (served, ()) = tokio::join!(web::serve(state, listener, stopped(stop.clone())), async {
        stopped(stop).await;
        hub.shut_down();
        work.stop(STOP_WORK).await;
    });
    close_database(db).await;
    served.context("the web server failed")?;
    tracing::info!("stopped");
    Ok(())
}

/// `bottlebats worker`: builds and plays for the ladder of a shared database, without
/// the web site (another machine's serve has it).
pub async fn run_worker(config: Config) -> anyhow::Result<()> {
    init_logging(&config.log);
    if config.database_url.is_none() {
        tracing::warn!(
            "no DATABASE_URL: this worker uses the embedded database of {}",
            config.data_dir.display()
        );
    }
    let languages = Arc::new(languages(&config)?);
    let db = open_ladder(&config).await?;
    let work = BotWork::start(&config, &db.pool, languages).await?;
    if work.tasks.is_empty() {
        anyhow::bail!(
            "the sandbox is not complete here and sandbox = required: this worker cannot run bots"
        );
    }
    stopped(stop_signal()).await;
    work.stop(STOP_WORK).await;
    close_database(db).await;
    tracing::info!("stopped");
    Ok(())
}
