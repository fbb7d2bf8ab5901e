//! `bottlebats serve`: logging, the database, the web app, and a clean stop on
//! Ctrl-C or SIGTERM (requests in flight finish, the embedded database stops).

use anyhow::Context;

use crate::config::Config;
use crate::db::Database;
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

/// Says loudly what the sandbox lacks on this machine.
fn check_sandbox(config: &Config) {
    let sandbox = engine::sandbox::Sandbox::new(engine::sandbox::SandboxConfig::default());
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
                "ranked games will not run until it is complete (sandbox = required)"
            }
            crate::config::SandboxPolicy::BestEffort => {
                "ranked games run anyway (sandbox = best-effort)"
            }
        };
        tracing::warn!("{policy}; `bottlebats doctor` shows the details");
    }
}

pub async fn run(config: Config) -> anyhow::Result<()> {
    init_logging(&config.log);
    check_sandbox(&config);
    let db = Database::open(&config).await?;
    let listener = tokio::net::TcpListener::bind(config.listen)
        .await
        .with_context(|| format!("cannot listen on {}", config.listen))?;
    let url = format!("http://{}", listener.local_addr()?);
    tracing::info!("serving Bottle Bats on {url}");
    let state = AppState::new(db.pool.clone(), config);
    let served = web::serve(state, listener, shutdown_signal()).await;
    db.close().await;
    served.context("the web server failed")?;
    tracing::info!("stopped");
    Ok(())
}
