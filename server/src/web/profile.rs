//! The profile page: change the password, make and revoke API tokens, delete the
//! account.

use std::net::SocketAddr;

use askama::Template;
use axum::extract::{ConnectInfo, Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Form, Router};
use serde::Deserialize;

use super::error::AppResult;
use super::format::when;
use super::session::{cookie_value, set_cookie, LoggedIn, SESSION_COOKIE};
use super::{AppState, Layout};
use crate::accounts;
use crate::ids::UserId;
use crate::ranker::rating::conservative;
use crate::status::VersionStatus;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/profile", get(profile))
        .route("/profile/password", post(change_password))
        .route("/profile/tokens", post(create_token))
        .route("/profile/tokens/{id}/revoke", post(revoke_token))
        .route("/profile/delete", post(delete_account))
}

/// A bot as the profile lists it.
pub struct OwnBot {
    pub name: String,
    pub active: Option<i32>,
    pub latest: i32,
    pub latest_status: VersionStatus,
    /// "#3 of 41" on the leaderboard, if it is on it.
    pub rank: Option<String>,
    /// Its rating, once it has played.
    pub rating: Option<String>,
    /// Why an organizer disabled it, when it is disabled.
    pub disabled: Option<String>,
}

/// A token as the profile lists it.
pub struct TokenRow {
    pub id: i64,
    pub name: String,
    pub created: String,
    pub last_used: String,
}

#[derive(Template)]
#[template(path = "profile.html")]
struct ProfilePage {
    layout: Layout,
    since: String,
    bots: Vec<OwnBot>,
    tokens: Vec<TokenRow>,
    /// A token just made, shown this once.
    new_token: Option<String>,
    /// Which form a message belongs to, and the message.
    notice: Option<(&'static str, String)>,
    error: Option<(&'static str, String)>,
    /// The new token's name as typed, when it was refused.
    token_name: String,
}

/// The user's bots with their state, place on their game's leaderboard and rating.
pub(crate) async fn own_bots(state: &AppState, user: UserId) -> AppResult<Vec<OwnBot>> {
    let rows = sqlx::query!(
        r#"select b.name, a.number as "active?", l.number as latest,
               l.status as "latest_status: VersionStatus", b.mu, b.sigma, b.games,
               case when b.disabled then coalesce(b.disabled_reason, '') end as disabled, b.game
           from bots b
           left join bot_versions a on a.id = b.active_version_id
           join lateral (select number, status from bot_versions where bot_id = b.id
                         order by number desc limit 1) l on true
           where b.owner_id = $1 order by lower(b.name)"#,
        user as UserId
    )
    .fetch_all(&state.db)
    .await?;
    // Places as each game's leaderboard (cached for a second) has them.
    let mut boards = std::collections::HashMap::new();
    for r in &rows {
        if !boards.contains_key(&r.game) {
            let board = super::ladder::leaderboard(state, &r.game).await?;
            boards.insert(r.game.clone(), board);
        }
    }
    Ok(rows
        .into_iter()
        .map(|r| OwnBot {
            rank: boards.get(&r.game).and_then(|board| {
                let place = board.place_of(&r.name)?;
                Some(super::games::rank_text(
                    place + 1,
                    board.standings.len(),
                    &r.game,
                ))
            }),
            rating: (r.games > 0).then(|| format!("{:.2}", conservative(r.mu, r.sigma))),
            name: r.name,
            active: r.active,
            latest: r.latest,
            latest_status: r.latest_status,
            disabled: r.disabled,
        })
        .collect())
}

async fn render(
    state: &AppState,
    who: &LoggedIn,
    new_token: Option<String>,
    notice: Option<(&'static str, String)>,
    error: Option<(&'static str, String)>,
) -> AppResult<Response> {
    render_typed(state, who, new_token, notice, error, String::new()).await
}

/// [`render`], with the new token's name as typed.
async fn render_typed(
    state: &AppState,
    who: &LoggedIn,
    new_token: Option<String>,
    notice: Option<(&'static str, String)>,
    error: Option<(&'static str, String)>,
    token_name: String,
) -> AppResult<Response> {
    let user = who.user.id;
    let since = sqlx::query_scalar!("select created_at from users where id = $1", user as UserId)
        .fetch_one(&state.db)
        .await?;
    let tokens = sqlx::query!(
        "select id, name, created_at, last_used_at from api_tokens where user_id = $1 order by id",
        user as UserId
    )
    .fetch_all(&state.db)
    .await?;
    let bots = own_bots(state, user).await?;
    let status = if error.is_some() {
        StatusCode::BAD_REQUEST
    } else {
        StatusCode::OK
    };
    let page = ProfilePage {
        layout: who.layout(),
        since: when(since),
        bots,
        tokens: tokens
            .into_iter()
            .map(|t| TokenRow {
                id: t.id,
                name: t.name,
                created: when(t.created_at),
                last_used: t.last_used_at.map_or_else(|| "never".to_string(), when),
            })
            .collect(),
        new_token,
        notice,
        error,
        token_name,
    };
    Ok((status, Html(page.render()?)).into_response())
}

async fn profile(State(state): State<AppState>, who: LoggedIn) -> AppResult<Response> {
    render(&state, &who, None, None, None).await
}

#[derive(Deserialize)]
struct PasswordForm {
    current: String,
    password: String,
    password2: String,
}

/// Whether `password` is the account's, checked as a login checks it: counted against
/// the address's login attempts and the account's back-off after failures
/// (`guard`), so that a stolen session guesses no faster here than at the login. A
/// refusal is `Err`, in words.
async fn password_is_right(
    state: &AppState,
    who: &LoggedIn,
    ip: std::net::IpAddr,
    password: String,
) -> AppResult<Result<bool, String>> {
    if password.len() > accounts::PASSWORD_MAX * 4 {
        return Ok(Ok(false));
    }
    if let Err(refusal) = state.guard.login_attempt(ip) {
        return Ok(Err(refusal.message("password checks")));
    }
    let ticket = match state.guard.begin_check(who.user.id, ip) {
        Ok(t) => t,
        Err(refusal) => return Ok(Err(refusal.message("password checks"))),
    };
    let hash = accounts::password_hash(&state.db, who.user.id).await?;
    let ok = accounts::verify_password(password, Some(hash)).await?;
    ticket.finish(ok);
    Ok(Ok(ok))
}

/// The profile with a refusal of the limits (429) on form `form`.
async fn refused(
    state: &AppState,
    who: &LoggedIn,
    form: &'static str,
    why: String,
) -> AppResult<Response> {
    let mut page = render(state, who, None, None, Some((form, why))).await?;
    *page.status_mut() = StatusCode::TOO_MANY_REQUESTS;
    Ok(page)
}

async fn change_password(
    State(state): State<AppState>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    who: LoggedIn,
    headers: HeaderMap,
    Form(f): Form<PasswordForm>,
) -> AppResult<Response> {
    let ip = state.client_ip(addr.ip(), &headers);
    let right = match password_is_right(&state, &who, ip, f.current).await? {
        Ok(right) => right,
        Err(why) => return refused(&state, &who, "password", why).await,
    };
    let problem = if !right {
        Some("Your current password is not right.".to_string())
    } else if f.password != f.password2 {
        Some("The two new passwords differ.".to_string())
    } else {
        accounts::check_password(&f.password).err()
    };
    if let Some(p) = problem {
        return render(&state, &who, None, None, Some(("password", p))).await;
    }
    let hash = accounts::hash_password(f.password).await?;
    let this_session = cookie_value(&headers, SESSION_COOKIE).unwrap_or_default();
    let ended = accounts::change_password(&state.db, who.user.id, &hash, &this_session).await?;
    tracing::info!(user = %who.user.name, ended, "changed password");
    let notice = match ended {
        0 => "Your password was changed.".to_string(),
        1 => "Your password was changed, and your one other session was logged out.".to_string(),
        n => format!("Your password was changed, and your {n} other sessions were logged out."),
    };
    render(&state, &who, None, Some(("password", notice)), None).await
}

#[derive(Deserialize)]
struct TokenForm {
    name: String,
}

/// Tokens one account may hold.
const MAX_TOKENS: i64 = 20;

async fn create_token(
    State(state): State<AppState>,
    who: LoggedIn,
    Form(f): Form<TokenForm>,
) -> AppResult<Response> {
    let name = f.name.trim();
    let count = sqlx::query_scalar!(
        r#"select count(*) as "count!" from api_tokens where user_id = $1"#,
        who.user.id as UserId
    )
    .fetch_one(&state.db)
    .await?;
    let problem = if name.is_empty() || name.chars().count() > 64 {
        Some(
            "Give the token a name of 1 to 64 characters, e.g. the machine that uses it."
                .to_string(),
        )
    } else if count >= MAX_TOKENS {
        Some(format!(
            "You have {MAX_TOKENS} tokens already; revoke one first."
        ))
    } else {
        None
    };
    if let Some(p) = problem {
        // Given back cut to the field's 64 characters.
        let typed = f.name.chars().take(64).collect();
        return render_typed(&state, &who, None, None, Some(("tokens", p)), typed).await;
    }
    let token = accounts::create_token(&state.db, who.user.id, name).await?;
    render(&state, &who, Some(token), None, None).await
}

async fn revoke_token(
    State(state): State<AppState>,
    who: LoggedIn,
    Path(id): Path<i64>,
) -> AppResult<Response> {
    let gone = sqlx::query!(
        "delete from api_tokens where id = $1 and user_id = $2",
        id,
        who.user.id as UserId
    )
    .execute(&state.db)
    .await?
    .rows_affected();
    let notice = if gone == 1 {
        ("tokens", "The token was revoked.".to_string())
    } else {
        ("tokens", "That token was already gone.".to_string())
    };
    render(&state, &who, None, Some(notice), None).await
}

#[derive(Deserialize)]
struct DeleteForm {
    password: String,
    confirm: Option<String>,
}

async fn delete_account(
    State(state): State<AppState>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    who: LoggedIn,
    Form(f): Form<DeleteForm>,
) -> AppResult<Response> {
    if f.confirm.as_deref() != Some("yes") {
        return render(
            &state,
            &who,
            None,
            None,
            Some(("delete", "Tick the box to confirm.".into())),
        )
        .await;
    }
    let ip = state.client_ip(addr.ip(), &headers);
    let right = match password_is_right(&state, &who, ip, f.password).await? {
        Ok(right) => right,
        Err(why) => return refused(&state, &who, "delete", why).await,
    };
    if !right {
        return render(
            &state,
            &who,
            None,
            None,
            Some(("delete", "That password is not right.".into())),
        )
        .await;
    }
    accounts::delete_account(&state.db, who.user.id).await?;
    tracing::info!(user = %who.user.name, "deleted the account");
    let cookie = set_cookie(SESSION_COOKIE, None, 0, state.config.secure_cookies());
    Ok(([(header::SET_COOKIE, cookie)], Redirect::to("/?deleted=1")).into_response())
}
