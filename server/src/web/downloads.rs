//! `/downloads/`: the `bottlebats` program this server runs, its SHA-256, the local kit
//! (maps, house bots, a config) and the platform's source. The program weighs tens of MiB: each address may
//! fetch it a few times an hour (`guard::DOWNLOADS_PER_ADDRESS`).

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

use super::error::{AppError, AppResult};
use super::AppState;
use crate::downloads;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/downloads/bottlebats", get(program))
        .route("/downloads/bottlebats.sha256", get(program_sha256))
        .route("/downloads/local-kit.zip", get(local_kit))
        .route("/downloads/bottlebats-source.tar.gz", get(source))
}

/// The program, read (and hashed) off the request path the first time.
async fn read_program() -> AppResult<&'static downloads::Program> {
    let read = tokio::task::spawn_blocking(downloads::program)
        .await
        .map_err(|e| AppError::Internal(anyhow::anyhow!("reading the program: {e}")))?;
    read.map_err(|e| AppError::Internal(anyhow::anyhow!("the program cannot be served: {e}")))
}

/// What the Getting started page says of the program: (platform, MiB, SHA-256), or
/// nothing when it cannot be read.
pub async fn program_facts() -> Option<(String, String, String)> {
    let p = read_program().await.ok()?;
    let mib = format!("{:.1}", p.bytes.len() as f64 / (1024.0 * 1024.0));
    Some((downloads::platform(), mib, p.sha256.clone()))
}

async fn program(
    State(state): State<AppState>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
) -> AppResult<Response> {
    let ip = state.client_ip(addr.ip(), &headers);
    if let Err(refusal) = state.guard.download(ip) {
        return Err(AppError::Status(
            StatusCode::TOO_MANY_REQUESTS,
            refusal.message("downloads of the program"),
        ));
    }
    let p = read_program().await?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/octet-stream".to_string()),
            (
                header::CONTENT_DISPOSITION,
                "attachment; filename=\"bottlebats\"".to_string(),
            ),
            (header::CACHE_CONTROL, "no-cache".to_string()),
        ],
        axum::body::Bytes::from_owner(ArcBytes(p.bytes.clone())),
    )
        .into_response())
}

/// The program's bytes, shared with every download rather than copied.
struct ArcBytes(std::sync::Arc<Vec<u8>>);

impl AsRef<[u8]> for ArcBytes {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

/// `sha256sum -c` reads this.
async fn program_sha256() -> AppResult<Response> {
    let p = read_program().await?;
    Ok((
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        format!("{}  bottlebats\n", p.sha256),
    )
        .into_response())
}

/// An archive made once (by `make`, off the request path), as a download named `name`.
async fn archive(
    make: fn() -> Result<std::sync::Arc<Vec<u8>>, String>,
    content_type: &'static str,
    name: &'static str,
) -> AppResult<Response> {
    let bytes = tokio::task::spawn_blocking(make)
        .await
        .map_err(|e| AppError::Internal(anyhow::anyhow!("making {name}: {e}")))?
        .map_err(|e| AppError::Internal(anyhow::anyhow!(e)))?;
    Ok((
        [
            (header::CONTENT_TYPE, content_type.to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
        ],
        axum::body::Bytes::from_owner(ArcBytes(bytes)),
    )
        .into_response())
}

async fn local_kit() -> AppResult<Response> {
    archive(
        downloads::local_kit,
        "application/zip",
        "bottlebats-local.zip",
    )
    .await
}

async fn source() -> AppResult<Response> {
    archive(
        downloads::source_archive,
        "application/gzip",
        "bottlebats-source.tar.gz",
    )
    .await
}
