//! `/downloads/`: the `bottlebats` program this server runs, its SHA-256, the local kit
//! (maps, house bots, a config) and the platform's source. The program weighs tens of
//! MiB: it is sent from its file mapped once (`downloads::Program`), never copied and
//! on no thread of its own, so a reader that never reads costs its connection and
//! nothing more; each address may fetch it a few times an hour
//! (`guard::DOWNLOADS_PER_ADDRESS`), with a few downloads under way at once from one
//! address and some more on the whole site (`guard::DOWNLOADS_AT_ONCE_PER_ADDRESS`,
//! `guard::DOWNLOADS_AT_ONCE`).

use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::body::{Body, Bytes};
use axum::extract::{ConnectInfo, Path, State};
use axum::http::{header, HeaderMap};
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

/// The bytes of a body handed out a slice at a time, holding a place of the downloads
/// under way until they are all sent or the client is gone.
struct Sending {
    rest: &'static [u8],
    _place: super::guard::Held,
}

/// Bytes per slice: hyper writes one while the socket takes it.
const SLICE: usize = 256 * 1024;

impl futures_core::Stream for Sending {
    type Item = std::io::Result<Bytes>;
    fn poll_next(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if self.rest.is_empty() {
            return Poll::Ready(None);
        }
        let (slice, rest) = self.rest.split_at(self.rest.len().min(SLICE));
        self.rest = rest;
        Poll::Ready(Some(Ok(Bytes::from_static(slice))))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.rest.len().div_ceil(SLICE);
        (n, Some(n))
    }
}

async fn program(
    State(state): State<AppState>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
) -> AppResult<Response> {
    let ip = state.client_ip(addr.ip(), &headers);
    let place =
        (state.guard.download(ip)).map_err(|(status, why)| AppError::Status(status, why))?;
    let p = read_program().await?;
    let body = Body::from_stream(Sending {
        rest: p.bytes,
        _place: place,
    });
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
