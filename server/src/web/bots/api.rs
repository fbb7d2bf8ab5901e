//! Bots over the API, with a token: a new bot or a new version as a multipart upload,
//! and a bot's record and versions.

use axum::extract::{Multipart, Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

use super::{accept, find_bot, find_bot_in, read_upload, Refused};
use crate::accounts::User;
use crate::ids::BotId;
use crate::status::VersionStatus;
use crate::web::api::{ApiError, ApiResult};
use crate::web::error::AppError;
use crate::web::session::ApiUser;
use crate::web::AppState;

impl From<Refused> for ApiError {
    fn from(Refused(status, message): Refused) -> ApiError {
        ApiError::new(status, message)
    }
}

async fn upload(
    state: AppState,
    user: User,
    existing: Option<String>,
    form: Multipart,
) -> ApiResult<Response> {
    let up = read_upload(&state, form, None)
        .await
        .map_err(|(refused, _)| refused)?;
    if let Some(name) = &existing {
        let bot = find_bot(&state, name).await.map_err(|e| match e {
            AppError::NotFound => ApiError::not_found(format!("There is no bot `{name}`.")),
            other => other.into(),
        })?;
        if bot.owner_id != user.id {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "Only its owner can upload versions of this bot.",
            ));
        }
    }
    let stored = accept(&state, &user, existing.as_deref(), up).await?;
    let body = json!({
        "bot": stored.bot,
        "version": stored.number,
        "status": VersionStatus::Pending,
        "url": format!("/bots/{}", stored.bot),
    });
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

/// `POST /api/bots` with an upload (a remote bot is asked for in JSON instead:
/// `super::remote::api_new_bot`).
pub async fn new_bot(state: AppState, user: User, form: Multipart) -> ApiResult<Response> {
    upload(state, user, None, form).await
}

pub async fn new_version(
    State(state): State<AppState>,
    ApiUser(user): ApiUser,
    Path(name): Path<String>,
    form: Multipart,
) -> ApiResult<Response> {
    upload(state, user, Some(name), form).await
}

/// `GET /api/bots/{name}`: the record and the versions; their failures for the owner.
pub async fn bot(
    State(state): State<AppState>,
    viewer: Option<ApiUser>,
    Path(name): Path<String>,
) -> ApiResult<Json<serde_json::Value>> {
    // The bot and its versions as one moment saw them: a build finishing between the
    // two reads would otherwise show a version active while no version plays.
    let mut tx = state.db.begin().await?;
    sqlx::query!("set transaction isolation level repeatable read read only")
        .execute(&mut *tx)
        .await?;
    let bot = find_bot_in(&mut *tx, &name).await.map_err(|e| match e {
        AppError::NotFound => ApiError::not_found(format!("There is no bot `{name}`.")),
        other => other.into(),
    })?;
    let versions = sqlx::query!(
        r#"select number, status as "status: VersionStatus", language, created_at, failure
           from bot_versions where bot_id = $1 order by number desc"#,
        bot.id as BotId
    )
    .fetch_all(&mut *tx)
    .await?;
    tx.commit().await?;
    let is_owner = viewer.is_some_and(|ApiUser(u)| u.id == bot.owner_id);
    let versions: Vec<_> = versions
        .iter()
        .map(|v| {
            let mut o = json!({
                "number": v.number,
                "status": v.status,
                "language": v.language,
                "uploaded": v.created_at.unix_timestamp(),
            });
            if is_owner {
                o["failure"] = json!(v.failure);
            }
            o
        })
        .collect();
    let (record, round) = (bot.record, crate::web::format::round2);
    Ok(Json(json!({
        "id": bot.id,
        "name": bot.name,
        "owner": bot.owner,
        "active_version": bot.active,
        "mu": round(record.mu),
        "sigma": round(record.sigma),
        "rating": round(record.rating()),
        "games": record.games,
        "wins": record.wins,
        "losses": record.losses,
        "draws": record.draws,
        "disabled": bot.disabled.is_some(),
        "disabled_reason": bot.disabled.filter(|_| is_owner),
        "remote": bot.remote,
        "remote_paused": bot.remote_paused.filter(|_| is_owner),
        "connected": bot.remote.then(|| state.remote.connected(bot.id).is_some()),
        "versions": versions,
    })))
}
