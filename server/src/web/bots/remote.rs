//! A remote bot's pages (`crate::remote`): making one (the "New bot" page's second form,
//! and `POST /api/bots` with `"remote": true`), its part of the bot page (connected or
//! not, how to play, its key shown once), a new key (which ends the old key's
//! session), revoking it, and resuming a bot paused for its no-shows.

use axum::body::Body;
use axum::extract::{FromRequest, Multipart, Path, Request, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::{Form, Json};
use serde::Deserialize;
use serde_json::json;

use super::page::{new_remote_refused, render_bot_with};
use super::{find_bot, BotRow};
use crate::web::api::{ApiError, ApiResult};
use crate::web::error::{AppError, AppResult};
use crate::web::format::when;
use crate::web::session::{ApiUser, LoggedIn, Visitor};
use crate::web::AppState;

/// A remote bot's part of its page.
pub struct Panel {
    /// Connected now: since when, and what it does.
    pub connected: Option<String>,
    /// Its owner sees the rest.
    pub is_owner: bool,
    pub has_key: bool,
    /// Its new key, shown once.
    pub key: Option<String>,
    /// Why it is paused, if it is.
    pub paused: Option<String>,
    /// The command that plays it from home.
    pub command: String,
    /// The time its replies have on the site's clock: the game's, plus the network's.
    pub reply_ms: u128,
    pub allowance_ms: u128,
    /// Its game's own HTTP API, when it has one: (the game's title, the site's
    /// address, a move's time in ms on the server's clock).
    pub http_api: Option<(&'static str, String, u128)>,
}

/// The panel of `bot`, a remote bot.
pub async fn panel(
    state: &AppState,
    bot: &BotRow,
    is_owner: bool,
    key: Option<String>,
    site: &str,
) -> AppResult<Panel> {
    let session = sqlx::query!(
        "select connected_at, mode from remote_sessions
         where bot_id = $1 and seen_at > now() - interval '1 minute'",
        bot.id as crate::ids::BotId
    )
    .fetch_optional(&state.db)
    .await?;
    let here = state.remote.connected(bot.id);
    let connected = session.map(|s| {
        let doing = match here.as_ref().map(|c| c.playing) {
            Some(true) => "playing a match",
            _ if s.mode == "practice" => "playing practice games",
            _ => "waiting for its next match",
        };
        format!("connected since {}, {doing}", when(s.connected_at))
    });
    let has_key = is_owner && crate::remote::keys::has_key(&state.db, bot.id).await?;
    let kind = crate::games::kind(&bot.game)?;
    let allowance = state.config.remote.allowance(&bot.game);
    let turn = crate::games::match_config(kind, &engine::MatchConfig::default()).turn_timeout;
    Ok(Panel {
        connected,
        is_owner,
        has_key,
        command: format!(
            "bottlebats connect {} --key {} -- ./mybot",
            site.trim_end_matches('/'),
            key.as_deref().unwrap_or("KEY")
        ),
        key,
        paused: bot.remote_paused.clone().filter(|_| is_owner),
        reply_ms: (turn + allowance).as_millis(),
        allowance_ms: allowance.as_millis(),
        http_api: kind.http_api().map(|_| {
            (
                kind.title(),
                site.trim_end_matches('/').to_string(),
                turn.as_millis(),
            )
        }),
    })
}

#[derive(Deserialize)]
pub struct NewRemote {
    #[serde(default)]
    name: String,
    #[serde(default)]
    game: String,
}

/// `POST /bots/new-remote`: a remote bot made, its page shown with its key.
pub async fn new_bot(
    State(state): State<AppState>,
    who: LoggedIn,
    Form(form): Form<NewRemote>,
) -> AppResult<Response> {
    let made = crate::remote::create_bot(
        &state.db,
        &who.user,
        form.name.trim(),
        form.game.trim(),
        state.config.bots_per_account,
    )
    .await?;
    match made {
        Ok((_, key)) => {
            render_bot_with(
                &state,
                &Visitor::from(&who),
                form.name.trim(),
                None,
                false,
                Some(key),
            )
            .await
        }
        Err(refusal) => {
            let typed = (form.game.as_str(), form.name.as_str());
            new_remote_refused(&state, &who, typed, StatusCode::BAD_REQUEST, refusal.0).await
        }
    }
}

/// The owner's remote bot `name`, or why not.
async fn own_remote(state: &AppState, who: &LoggedIn, name: &str) -> AppResult<BotRow> {
    let bot = find_bot(state, name).await?;
    if bot.owner_id != who.user.id {
        return Err(AppError::Forbidden(
            "Only its owner can manage this bot.".into(),
        ));
    }
    if !bot.remote {
        return Err(AppError::BadRequest(
            "This bot is uploaded, not remote: it has no key.".into(),
        ));
    }
    Ok(bot)
}

/// `POST /bots/{name}/remote/key`: a new key, shown once; the old one stops working
/// and its session ends at once.
pub async fn new_key(
    State(state): State<AppState>,
    who: LoggedIn,
    Path(name): Path<String>,
) -> AppResult<Response> {
    let bot = own_remote(&state, &who, &name).await?;
    let key = crate::remote::keys::renew(&state.db, bot.id).await?;
    state.remote.check(bot.id).await;
    render_bot_with(
        &state,
        &Visitor::from(&who),
        &bot.name,
        None,
        false,
        Some(key),
    )
    .await
}

/// `POST /bots/{name}/remote/revoke`: no key any more; its session ends at once.
pub async fn revoke(
    State(state): State<AppState>,
    who: LoggedIn,
    Path(name): Path<String>,
) -> AppResult<Response> {
    let bot = own_remote(&state, &who, &name).await?;
    crate::remote::keys::revoke(&state.db, bot.id).await?;
    state.remote.check(bot.id).await;
    Ok(Redirect::to(&format!("/bots/{}#remote", bot.name)).into_response())
}

/// `POST /bots/{name}/remote/resume`: a bot paused for its no-shows takes sessions
/// again.
pub async fn resume(
    State(state): State<AppState>,
    who: LoggedIn,
    Path(name): Path<String>,
) -> AppResult<Response> {
    let bot = own_remote(&state, &who, &name).await?;
    crate::remote::resume(&state.db, bot.id).await?;
    Ok(Redirect::to(&format!("/bots/{}#remote", bot.name)).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ApiRemote {
    name: String,
    #[serde(default)]
    game: String,
    remote: bool,
}

/// `POST /api/bots`: an upload (multipart, `super::api::new_bot`), or in JSON
/// `{"name", "game", "remote": true}` a remote bot, answered with its key.
pub async fn api_new_bot(
    State(state): State<AppState>,
    ApiUser(user): ApiUser,
    req: Request<Body>,
) -> ApiResult<Response> {
    let json = (req.headers().get(header::CONTENT_TYPE))
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with("application/json"));
    if !json {
        let form = Multipart::from_request(req, &state)
            .await
            .map_err(|e| ApiError::new(e.status(), e.body_text()))?;
        return super::api::new_bot(state, user, form).await;
    }
    let headers = req.headers().clone();
    let Json(ask) = Json::<ApiRemote>::from_request(req, &state)
        .await
        .map_err(|e| ApiError::new(e.status(), e.body_text()))?;
    if !ask.remote {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "An uploaded bot is made with a multipart upload; JSON makes a remote bot (\"remote\": true).",
        ));
    }
    let made = crate::remote::create_bot(
        &state.db,
        &user,
        ask.name.trim(),
        ask.game.trim(),
        state.config.bots_per_account,
    )
    .await?;
    let (_, key) = made.map_err(|r| ApiError::new(StatusCode::BAD_REQUEST, r.0))?;
    let site = state.site_address(&headers);
    let body = json!({
        "bot": ask.name.trim(),
        "remote": true,
        "key": key,
        "url": format!("/bots/{}", ask.name.trim()),
        "connect": format!("bottlebats connect {site} --key {key} -- ./mybot"),
    });
    Ok((StatusCode::CREATED, Json(body)).into_response())
}
