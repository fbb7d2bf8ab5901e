//! `bottlebats serve`: logging, the database, the web app, and a clean stop on
//! Ctrl-C or SIGTERM (requests in flight finish, the embedded database stops).

use anyhow::Context;

use std::sync::Arc;

use engine::sandbox::{Sandbox, SandboxConfig};

use crate::builds::{self, Builder};
use crate::config::Config;
use crate::db::Database;
use crate::house;
use crate::languages::Languages;
use crate::web::{self, AppState};

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
    let opponent = house::install(&config.data_dir.join("house"), house::SMOKE_OPPONENT)
        .context("cannot install the house bots in the data folder")?;
    Ok(Builder {
        db: db.clone(),
        sandbox,
        languages,
        dir: config.data_dir.join("builds"),
        opponent,
        caps: crate::archive::Caps::default(),
    })
}

pub async fn run(config: Config) -> anyhow::Result<()> {
    init_logging(&config.log);
    let languages = Languages::load(config.languages.as_deref())?;
    for l in languages.list.iter().filter(|l| !l.available) {
        tracing::warn!(
            "{} is not offered: `{}` is not installed",
            l.language.name,
            l.missing.as_deref().unwrap_or("?")
        );
    }
    std::fs::create_dir_all(&config.data_dir).with_context(|| {
        format!(
            "cannot create the data folder {}",
            config.data_dir.display()
        )
    })?;
    let sandbox = Arc::new(Sandbox::new(SandboxConfig::default()));
    let may_run_bots = check_sandbox(&config, &sandbox);
    let db = Database::open(&config).await?;
    house::register(&db.pool)
        .await
        .context("cannot register the house bots")?;
    let listener = tokio::net::TcpListener::bind(config.listen)
        .await
        .with_context(|| format!("cannot listen on {}", config.listen))?;
    let url = format!("http://{}", listener.local_addr()?);
    let state = AppState::new(db.pool.clone(), config.clone(), languages);

    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let mut background = Vec::new();
    if may_run_bots {
        let b = builder(&config, &db.pool, sandbox.clone(), state.languages.clone())?;
        background.push(tokio::spawn(builds::run(b, stop_rx.clone())));
    }
    tracing::info!("serving Bottle Bats on {url}");
    let served = web::serve(state, listener, shutdown_signal()).await;
    let _ = stop_tx.send(true);
    for task in background {
        let _ = task.await;
    }
    db.close().await;
    served.context("the web server failed")?;
    tracing::info!("stopped");
    Ok(())
}
