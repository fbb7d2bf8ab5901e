//! Bots and their versions: the "New bot" page, a bot's page with its versions and
//! the upload of a new one (`page.rs`), the owner's downloads (`files.rs`), choosing
//! the version that plays (`activate.rs`), and the same over the API with a token
//! (`api.rs`: `POST /api/bots`, `POST /api/bots/{name}/versions`,
//! `GET /api/bots/{name}`). Checking and storing an
//! upload is [`crate::uploads`]'s.

mod activate;
mod api;
mod change;
mod files;
mod page;
mod remote;
mod stats;

pub(crate) use page::{render_bot_typed, BotTyped};
pub use stats::{record_note, BOARD_MATCHES};

use axum::extract::{DefaultBodyLimit, Multipart};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::Router;
use time::OffsetDateTime;

use super::error::{AppError, AppResult};
use super::session::{UploadToken, FORGED};
use super::AppState;
use crate::ids::{BotId, UserId};
use crate::uploads::{Refusal, Upload};

pub fn router(max_upload: u64) -> Router<AppState> {
    let limit = DefaultBodyLimit::max(max_upload as usize + 1024 * 1024);
    Router::new()
        .route(
            "/bots/new",
            get(page::new_page).post(page::new_bot).layer(limit),
        )
        .route("/bots/{name}", get(page::bot_page))
        .route("/bots/{name}/record", get(page::record))
        .route("/bots/{name}/game", post(change::change_game))
        .route("/bots/{name}/delete", post(change::delete))
        .route(
            "/bots/{name}/versions",
            post(page::new_version).layer(limit),
        )
        .route("/bots/{name}/versions/{number}/source", get(files::source))
        .route("/bots/{name}/versions/{number}/logs", get(files::logs))
        .route(
            "/bots/{name}/versions/{number}/smoke.json",
            get(files::smoke_replay),
        )
        .route(
            "/bots/{name}/versions/{number}/activate",
            post(activate::activate),
        )
        .route(
            "/api/bots/{name}/versions/{number}/activate",
            post(activate::api_activate),
        )
        .route("/bots/new-remote", post(remote::new_bot))
        .route("/bots/{name}/remote/key", post(remote::new_key))
        .route("/bots/{name}/remote/revoke", post(remote::revoke))
        .route("/bots/{name}/remote/resume", post(remote::resume))
        .route("/api/bots", post(remote::api_new_bot).layer(limit))
        .route(
            "/api/bots/{name}/versions",
            post(api::new_version).layer(limit),
        )
        .route("/api/bots/{name}", get(api::bot))
}

/// A bot as its pages show it.
pub struct BotRow {
    pub id: BotId,
    pub name: String,
    pub owner_id: UserId,
    pub owner: String,
    pub created_at: OffsetDateTime,
    pub active: Option<i32>,
    pub record: crate::standings::Record,
    /// Ranked games of the version that plays now (its rating started over with it).
    pub version_games: i32,
    /// Why an organizer took it out of the ladder, when it is out.
    pub disabled: Option<String>,
    /// Its game, whose ladder it plays on.
    pub game: String,
    /// It plays from its owner's machine (`crate::remote`), and why it is paused, if it
    /// is.
    pub remote: bool,
    pub remote_paused: Option<String>,
}

async fn find_bot_in<'e>(db: impl sqlx::PgExecutor<'e>, name: &str) -> AppResult<BotRow> {
    let r = sqlx::query!(
        r#"select b.id as "id: BotId", b.name, b.owner_id as "owner_id: UserId",
               u.name as owner, b.created_at, v.number as "active?",
               b.mu, b.sigma, b.games, b.wins, b.losses, b.draws, b.disabled,
               b.disabled_reason, b.version_games, b.game, b.remote, b.remote_paused
           from bots b join users u on u.id = b.owner_id
           left join bot_versions v on v.id = b.active_version_id
           where lower(b.name) = lower($1)"#,
        name
    )
    .fetch_optional(db)
    .await?
    .ok_or(AppError::NotFound)?;
    Ok(BotRow {
        id: r.id,
        name: r.name,
        owner_id: r.owner_id,
        owner: r.owner,
        created_at: r.created_at,
        active: r.active,
        record: crate::record_of!(r),
        version_games: r.version_games,
        disabled: r.disabled.then(|| {
            r.disabled_reason
                .unwrap_or_else(|| crate::ranker::DISABLED_REASON_DEFAULT.into())
        }),
        game: r.game,
        remote: r.remote,
        remote_paused: r.remote_paused,
    })
}

async fn find_bot(state: &AppState, name: &str) -> AppResult<BotRow> {
    find_bot_in(&state.db, name).await
}

/// An upload that cannot be taken, with the status to answer.
struct Refused(StatusCode, String);

impl From<AppError> for Refused {
    fn from(e: AppError) -> Self {
        Refused(e.status(), e.public_message())
    }
}

impl From<Refusal> for Refused {
    fn from(r: Refusal) -> Self {
        let status = match r {
            Refusal::Invalid(_) => StatusCode::BAD_REQUEST,
            Refusal::NotYours | Refusal::Closed(_) => StatusCode::FORBIDDEN,
            Refusal::TooManyWaiting(_) => StatusCode::TOO_MANY_REQUESTS,
        };
        Refused(status, r.message())
    }
}

/// Reads an upload form (a file and text fields) within the site's size limit. A
/// browser's form proves it comes from this site with its first field, `csrf`, checked
/// against `token` before anything else is read. On a refusal, the fields read before
/// it come along, so that the form can be shown again with them.
async fn read_upload(
    state: &AppState,
    mut form: Multipart,
    token: Option<&UploadToken>,
) -> Result<Upload, (Refused, Upload)> {
    let max = state.config.max_upload_bytes;
    let too_big = || {
        Refused(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "The file is larger than this site accepts ({} MiB). Upload the bot's source without build output, data or dependencies.",
                max / (1024 * 1024)
            ),
        )
    };
    let unreadable = |e: axum::extract::multipart::MultipartError| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            too_big()
        } else {
            Refused(
                StatusCode::BAD_REQUEST,
                format!("The form could not be read: {e}"),
            )
        }
    };
    let mut up = Upload::default();
    let mut proven = token.is_none();
    loop {
        let field = match form.next_field().await {
            Ok(Some(f)) => f,
            Ok(None) => break,
            Err(e) => return Err((unreadable(e), up)),
        };
        let name = field.name().unwrap_or("").to_string();
        if !proven && name != "csrf" {
            return Err((Refused(StatusCode::FORBIDDEN, FORGED.into()), up));
        }
        if name == "file" {
            up.file_name = field.file_name().unwrap_or("").to_string();
        }
        let bytes = match field.bytes().await {
            Ok(b) => b,
            Err(e) => return Err((unreadable(e), up)),
        };
        let text = || String::from_utf8_lossy(&bytes).trim().to_string();
        match name.as_str() {
            "csrf" if !proven => {
                proven = token.is_some_and(|t| t.matches(&text()));
                if !proven {
                    return Err((Refused(StatusCode::FORBIDDEN, FORGED.into()), up));
                }
            }
            "file" => up.file = bytes.to_vec(),
            "name" => up.name = text(),
            "language" => up.language = text(),
            "game" => up.game = text(),
            "compile_command" => up.compile = text(),
            "run_command" => up.run = text(),
            "candidate" => up.candidate = matches!(text().as_str(), "on" | "true" | "1" | "yes"),
            _ => {}
        }
    }
    if up.file.len() as u64 > max {
        return Err((too_big(), up));
    }
    Ok(up)
}

/// Checks an upload through and stores it as a new version (and a new bot).
async fn accept(
    state: &AppState,
    owner: &crate::accounts::User,
    existing: Option<&str>,
    up: Upload,
) -> Result<crate::uploads::Stored, Refused> {
    crate::uploads::accept(
        &state.db,
        state.languages.clone(),
        crate::uploads::Caps {
            waiting: state.config.pending_builds,
            bots: state.config.bots_per_account,
        },
        owner,
        existing,
        up,
    )
    .await
    .map_err(|e| Refused::from(AppError::from(e)))?
    .map_err(Refused::from)
}
