//! Choosing the version a bot plays, by its owner: a candidate that passed its build
//! and test game (ready), or a retired version to go back to. From the bot page
//! (`POST /bots/{name}/versions/{number}/activate`) and the API (the same under
//! `/api`). Each change starts the rating's uncertainty over, so a bot changes it by
//! hand at most once a minute.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use axum::Json;
use serde_json::json;

use super::page::render_bot;
use crate::accounts::User;
use crate::ids::{BotId, UserId, VersionId};
use crate::status::VersionStatus;
use crate::web::api::{ApiError, ApiResult};
use crate::web::error::{AppError, AppResult};
use crate::web::session::{ApiUser, LoggedIn, Visitor};
use crate::web::AppState;

/// Makes version `number` of bot `name` the one it plays, for its owner `user`; a
/// refusal in words when that version cannot play or it is too soon.
async fn make_active(
    state: &AppState,
    user: &User,
    name: &str,
    number: i32,
) -> AppResult<Result<String, String>> {
    let mut tx = state.db.begin().await?;
    let row = sqlx::query!(
        r#"select b.id as "bot: BotId", b.owner_id as "owner: UserId", b.name,
               v.id as "version: VersionId", v.status as "status: VersionStatus",
               coalesce(b.activated_at > now() - interval '1 minute', false) as "too_soon!"
           from bots b join bot_versions v on v.bot_id = b.id
           where lower(b.name) = lower($1) and v.number = $2
           for update of b"#,
        name,
        number
    )
    .fetch_optional(&mut *tx)
    .await?
    .ok_or(AppError::NotFound)?;
    if row.owner != user.id {
        return Err(AppError::Forbidden(
            "Only its owner can choose the version this bot plays.".into(),
        ));
    }
    if row.status != VersionStatus::Active && crate::contest::closed_now(&mut *tx).await?.is_some()
    {
        return Err(AppError::Forbidden(
            crate::contest::FIXED_AFTER_DEADLINE.into(),
        ));
    }
    match row.status {
        VersionStatus::Active => return Ok(Ok(row.name)),
        VersionStatus::Ready | VersionStatus::Retired => {}
        other => {
            return Ok(Err(format!(
                "Version {number} is {other}: only a version that passed its build and test game can play."
            )))
        }
    }
    if row.too_soon {
        return Ok(Err(format!(
            "`{}` changed the version it plays less than a minute ago, and each change starts its rating's uncertainty over: try again in a minute.",
            row.name
        )));
    }
    crate::builds::activate(&mut tx, row.bot, row.version).await?;
    sqlx::query!(
        "update bots set activated_at = now() where id = $1",
        row.bot as BotId
    )
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    tracing::info!(bot = %row.name, version = number, "made active by its owner");
    Ok(Ok(row.name))
}

/// The "Make it active" button of a version on the bot page.
pub async fn activate(
    State(state): State<AppState>,
    who: LoggedIn,
    Path((name, number)): Path<(String, i32)>,
) -> AppResult<Response> {
    match make_active(&state, &who.user, &name, number).await? {
        Ok(bot) => Ok(Redirect::to(&format!("/bots/{bot}#versions")).into_response()),
        Err(message) => {
            let visitor = Visitor::from(&who);
            render_bot(
                &state,
                &visitor,
                &name,
                Some((StatusCode::CONFLICT, message)),
                true,
            )
            .await
        }
    }
}

/// `POST /api/bots/{name}/versions/{number}/activate`.
pub async fn api_activate(
    State(state): State<AppState>,
    ApiUser(user): ApiUser,
    Path((name, number)): Path<(String, i32)>,
) -> ApiResult<Response> {
    let done = make_active(&state, &user, &name, number)
        .await
        .map_err(|e| match e {
            AppError::NotFound => {
                ApiError::not_found(format!("Bot `{name}` has no version {number}."))
            }
            other => other.into(),
        })?;
    match done {
        Ok(bot) => Ok(Json(json!({ "bot": bot, "active_version": number })).into_response()),
        Err(message) => Err(ApiError::new(StatusCode::CONFLICT, message)),
    }
}
