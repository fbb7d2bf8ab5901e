//! A version's files for its owner: the source as uploaded, the whole build log and
//! test-game stderr, and the test game's replay.

use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};

use crate::accounts::User;
use crate::ids::{UserId, VersionId};
use crate::web::error::{AppError, AppResult};
use crate::web::session::LoggedIn;
use crate::web::AppState;

/// The version `number` of the bot `name`, if `user` owns the bot.
async fn owned_version(
    state: &AppState,
    user: &User,
    name: &str,
    number: i32,
) -> AppResult<VersionId> {
    let v = sqlx::query!(
        r#"select v.id as "id: VersionId", b.owner_id as "owner: UserId"
           from bots b join bot_versions v on v.bot_id = b.id
           where lower(b.name) = lower($1) and v.number = $2"#,
        name,
        number
    )
    .fetch_optional(&state.db)
    .await?
    .ok_or(AppError::NotFound)?;
    if v.owner != user.id {
        return Err(AppError::Forbidden(
            "Only the bot's owner can download this.".into(),
        ));
    }
    Ok(v.id)
}

pub async fn source(
    State(state): State<AppState>,
    who: LoggedIn,
    Path((name, number)): Path<(String, i32)>,
) -> AppResult<Response> {
    let id = owned_version(&state, &who.user, &name, number).await?;
    let v = sqlx::query!(
        "select archive, archive_name from bot_versions where id = $1",
        id as VersionId
    )
    .fetch_one(&state.db)
    .await?;
    let file: String = v
        .archive_name
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || ".-_".contains(*c))
        .collect();
    Ok((
        [
            (header::CONTENT_TYPE, "application/octet-stream".to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}-v{number}-{file}\""),
            ),
        ],
        v.archive,
    )
        .into_response())
}

/// A version's whole build log and test-game stderr, as text.
pub async fn logs(
    State(state): State<AppState>,
    who: LoggedIn,
    Path((name, number)): Path<(String, i32)>,
) -> AppResult<Response> {
    let id = owned_version(&state, &who.user, &name, number).await?;
    let v = sqlx::query!(
        "select build_log, smoke_stderr from bot_versions where id = $1",
        id as VersionId
    )
    .fetch_one(&state.db)
    .await?;
    let text = format!(
        "Build log of {name} version {number}\n\n{}\n\nStderr of {name} version {number} in its test game\n\n{}\n",
        v.build_log.filter(|l| !l.is_empty()).as_deref().unwrap_or("(none)"),
        v.smoke_stderr.filter(|s| !s.is_empty()).as_deref().unwrap_or("(none)"),
    );
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}

pub async fn smoke_replay(
    State(state): State<AppState>,
    who: LoggedIn,
    Path((name, number)): Path<(String, i32)>,
    headers: axum::http::HeaderMap,
) -> AppResult<Response> {
    let id = owned_version(&state, &who.user, &name, number).await?;
    let bytes = sqlx::query_scalar!(
        "select smoke_replay from bot_versions where id = $1",
        id as VersionId
    )
    .fetch_one(&state.db)
    .await?
    .ok_or(AppError::NotFound)?;
    let kept = [(header::CONTENT_TYPE, "application/json".to_string())];
    crate::web::gzipped::respond(&headers, bytes, &kept)
}
