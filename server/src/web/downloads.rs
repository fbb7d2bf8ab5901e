//! `/downloads/`: the `bottlebats` program this server runs, its SHA-256, the local kit
//! (maps, house bots, a config) and the platform's source. The program weighs tens of
//! MiB: it is streamed from its file, never held in memory, and each address may fetch
//! it a few times an hour (`guard::DOWNLOADS_PER_ADDRESS`).

use std::io::Read;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::body::{Body, Bytes};
use axum::extract::{ConnectInfo, Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;
use axum::Router;

use super::error::{AppError, AppResult};
use super::AppState;
use crate::downloads;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/downloads/bottlebats", get(program))
        .route("/downloads/bottlebats.sha256", get(program_sha256))
        .route("/downloads/{kit}", get(local_kit))
        .route("/downloads/bottlebats-source.tar.gz", get(source))
}

/// A download named `name`: `bytes` of `content_type`, as an attachment.
pub fn attachment(body: Body, content_type: &'static str, name: &str) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type.to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
        ],
        body,
    )
        .into_response()
}

/// Bytes made once and shared by every download of them, not copied.
pub fn shared(bytes: Arc<Vec<u8>>) -> Body {
    struct Shared(Arc<Vec<u8>>);
    impl AsRef<[u8]> for Shared {
        fn as_ref(&self) -> &[u8] {
            &self.0
        }
    }
    Body::from(Bytes::from_owner(Shared(bytes)))
}

/// The program, hashed off the request path the first time.
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
    let mib = format!("{:.1}", p.size as f64 / (1024.0 * 1024.0));
    Some((downloads::platform(), mib, p.sha256.clone()))
}

/// The chunks of a file read on a blocking thread, as a body's stream.
struct Chunks(tokio::sync::mpsc::Receiver<std::io::Result<Bytes>>);

impl futures_core::Stream for Chunks {
    type Item = std::io::Result<Bytes>;
    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.0.poll_recv(cx)
    }
}

/// The file at `path` streamed in 64 KiB chunks, a few ahead of the client at most.
fn stream_file(path: std::path::PathBuf) -> std::io::Result<Body> {
    let mut file = std::fs::File::open(path)?;
    let (tx, rx) = tokio::sync::mpsc::channel(4);
    tokio::task::spawn_blocking(move || loop {
        let mut buf = vec![0u8; 64 * 1024];
        let chunk = match file.read(&mut buf) {
            Ok(0) => return,
            Ok(n) => {
                buf.truncate(n);
                Ok(Bytes::from(buf))
            }
            Err(e) => Err(e),
        };
        let failed = chunk.is_err();
        // A client gone away closes the channel: stop reading.
        if tx.blocking_send(chunk).is_err() || failed {
            return;
        }
    });
    Ok(Body::from_stream(Chunks(rx)))
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
    let body = stream_file(p.path.clone())
        .map_err(|e| AppError::Internal(anyhow::anyhow!("the program cannot be served: {e}")))?;
    let mut resp = attachment(body, "application/octet-stream", "bottlebats");
    let h = resp.headers_mut();
    h.insert(header::CONTENT_LENGTH, p.size.into());
    h.insert(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("no-cache"),
    );
    Ok(resp)
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
    make: fn() -> Result<Arc<Vec<u8>>, String>,
    content_type: &'static str,
    name: &'static str,
) -> AppResult<Response> {
    let bytes = tokio::task::spawn_blocking(make)
        .await
        .map_err(|e| AppError::Internal(anyhow::anyhow!("making {name}: {e}")))?
        .map_err(|e| AppError::Internal(anyhow::anyhow!(e)))?;
    Ok(attachment(shared(bytes), content_type, name))
}

/// `/downloads/GAME-local-kit.zip`: an open game's local kit. The address of the
/// first game's kit, `/downloads/local-kit.zip`, leads to the site's first open game's.
async fn local_kit(State(state): State<AppState>, Path(kit): Path<String>) -> AppResult<Response> {
    let open = state.open_games.get(&state.db).await?;
    if kit == "local-kit.zip" {
        let game = crate::games::default_of(&open);
        return Ok(
            Redirect::permanent(&format!("/downloads/{game}-local-kit.zip")).into_response(),
        );
    }
    let game = kit
        .strip_suffix("-local-kit.zip")
        .ok_or(AppError::NotFound)?;
    let Some(game) = open.iter().find(|g| *g == game) else {
        return Err(AppError::NotFound);
    };
    let made = tokio::task::spawn_blocking({
        let game = game.clone();
        move || downloads::local_kit(&game)
    })
    .await
    .map_err(|e| AppError::Internal(anyhow::anyhow!("making the local kit: {e}")))?
    .ok_or(AppError::NotFound)?
    .map_err(|e| AppError::Internal(anyhow::anyhow!(e)))?;
    let name = format!("{}.zip", downloads::local_kit_name(game));
    Ok(attachment(shared(made), "application/zip", &name))
}

async fn source() -> AppResult<Response> {
    archive(
        downloads::source_archive,
        "application/gzip",
        "bottlebats-source.tar.gz",
    )
    .await
}
