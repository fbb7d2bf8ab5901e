//! Registering, logging in and out. Login attempts are rate-limited per IP address
//! and per account; an unknown name and a wrong password get the same answer after
//! the same work.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use askama::Template;
use axum::extract::{ConnectInfo, Query, State};
use axum::http::{header, HeaderMap};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Form, Router};
use serde::Deserialize;

use super::error::AppResult;
use super::session::{cookie_value, set_cookie, Visitor, SESSION_COOKIE, SESSION_DAYS};
use super::{AppState, Layout};
use crate::accounts;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/login", get(login_page).post(login))
        .route("/register", get(register_page).post(register))
        .route("/logout", post(logout))
}

/// Counts recent events per key in a sliding window.
#[derive(Debug, Default)]
pub struct RateLimiter {
    events: Mutex<HashMap<String, Vec<Instant>>>,
}

/// Login attempts per IP address, and failed logins per account, in this window.
pub const WINDOW: Duration = Duration::from_secs(600);
pub const PER_IP: usize = 20;
pub const PER_ACCOUNT: usize = 5;

impl RateLimiter {
    /// Seconds until `key` may try again, if it is over `limit`.
    pub fn blocked(&self, key: &str, limit: usize) -> Option<u64> {
        let mut events = self.events.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        let list = events.entry(key.to_string()).or_default();
        list.retain(|t| now.duration_since(*t) < WINDOW);
        (list.len() >= limit).then(|| (WINDOW - now.duration_since(list[0])).as_secs() + 1)
    }

    pub fn record(&self, key: &str) {
        let mut events = self.events.lock().unwrap_or_else(|e| e.into_inner());
        if events.len() > 100_000 {
            // Forget stale keys rather than grow without end.
            let now = Instant::now();
            events.retain(|_, l| l.last().is_some_and(|t| now.duration_since(*t) < WINDOW));
        }
        events
            .entry(key.to_string())
            .or_default()
            .push(Instant::now());
    }

    pub fn clear(&self, key: &str) {
        self.events
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(key);
    }
}

#[derive(Template)]
#[template(path = "auth/login.html")]
struct LoginPage {
    layout: Layout,
    name: String,
    next: String,
    error: Option<String>,
}

#[derive(Template)]
#[template(path = "auth/register.html")]
struct RegisterPage {
    layout: Layout,
    name: String,
    error: Option<String>,
}

#[derive(Deserialize)]
struct NextQuery {
    next: Option<String>,
}

/// Only local paths, so a login link cannot send people elsewhere.
fn safe_next(next: Option<&str>) -> String {
    match next {
        Some(n) if n.starts_with('/') && !n.starts_with("//") && !n.contains('\\') => n.to_string(),
        _ => "/profile".to_string(),
    }
}

async fn login_page(visitor: Visitor, Query(q): Query<NextQuery>) -> AppResult<Response> {
    if visitor.user.is_some() {
        return Ok(Redirect::to(&safe_next(q.next.as_deref())).into_response());
    }
    let page = LoginPage {
        layout: visitor.layout(),
        name: String::new(),
        next: safe_next(q.next.as_deref()),
        error: None,
    };
    Ok(Html(page.render()?).into_response())
}

#[derive(Deserialize)]
struct LoginForm {
    name: String,
    password: String,
    next: Option<String>,
}

/// The session cookie for a fresh login, with the redirect.
fn logged_in(state: &AppState, token: String, to: &str) -> Response {
    let cookie = set_cookie(
        SESSION_COOKIE,
        Some(token),
        SESSION_DAYS,
        state.config.secure_cookies(),
    );
    ([(header::SET_COOKIE, cookie)], Redirect::to(to)).into_response()
}

async fn login(
    State(state): State<AppState>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    visitor: Visitor,
    Form(form): Form<LoginForm>,
) -> AppResult<Response> {
    let next = safe_next(form.next.as_deref());
    let again = |error: String| -> AppResult<Response> {
        let page = LoginPage {
            layout: visitor.layout(),
            name: form.name.chars().take(64).collect(),
            next: next.clone(),
            error: Some(error),
        };
        Ok((axum::http::StatusCode::UNAUTHORIZED, Html(page.render()?)).into_response())
    };
    let ip_key = format!("ip:{}", client_ip(addr.ip(), &headers));
    let account_key = format!("account:{}", form.name.to_lowercase());
    let limits = [
        (ip_key.as_str(), PER_IP),
        (account_key.as_str(), PER_ACCOUNT),
    ];
    if let Some(wait) = limits
        .iter()
        .filter_map(|(k, l)| state.limiter.blocked(k, *l))
        .max()
    {
        return again(format!(
            "Too many login attempts. Try again in {} minute(s).",
            wait.div_ceil(60)
        ));
    }
    state.limiter.record(&ip_key);
    let found = if form.name.len() <= 64 && form.password.len() <= accounts::PASSWORD_MAX * 4 {
        accounts::find_login(&state.db, &form.name).await?
    } else {
        None
    };
    let (user, hash) = match found {
        Some((u, h)) => (Some(u), Some(h)),
        None => (None, None),
    };
    let ok = accounts::verify_password(form.password.clone(), hash).await;
    let Some(user) = user.filter(|_| ok) else {
        state.limiter.record(&account_key);
        return again("Wrong name or password.".to_string());
    };
    state.limiter.clear(&account_key);
    // A new session id at every login; the old session, if any, ends.
    if let Some(old) = cookie_value(&headers, SESSION_COOKIE) {
        accounts::end_session(&state.db, &old).await?;
    }
    let token = accounts::create_session(&state.db, user.id).await?;
    tracing::info!(user = %user.name, "logged in");
    Ok(logged_in(&state, token, &next))
}

/// The client's address. Behind a reverse proxy on the same machine, the proxy's
/// `X-Forwarded-For` is trusted; from anywhere else it is ignored.
fn client_ip(peer: IpAddr, headers: &HeaderMap) -> IpAddr {
    if peer.is_loopback() {
        if let Some(ip) = headers
            .get("x-forwarded-for")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(',').next_back())
            .and_then(|v| v.trim().parse().ok())
        {
            return ip;
        }
    }
    peer
}

async fn register_page(visitor: Visitor) -> AppResult<Response> {
    if visitor.user.is_some() {
        return Ok(Redirect::to("/profile").into_response());
    }
    let page = RegisterPage {
        layout: visitor.layout(),
        name: String::new(),
        error: None,
    };
    Ok(Html(page.render()?).into_response())
}

#[derive(Deserialize)]
struct RegisterForm {
    name: String,
    password: String,
    password2: String,
}

async fn register(
    State(state): State<AppState>,
    visitor: Visitor,
    Form(form): Form<RegisterForm>,
) -> AppResult<Response> {
    let name = form.name.trim().to_string();
    let problem = accounts::check_name(&name)
        .and_then(|()| accounts::check_password(&form.password))
        .and_then(|()| {
            if form.password == form.password2 {
                Ok(())
            } else {
                Err("The two passwords differ.".to_string())
            }
        });
    let problem = match problem {
        Err(e) => Some(e),
        Ok(()) => match accounts::create_user(&state.db, &name, &form.password, false).await? {
            Ok(user) => {
                tracing::info!(user = %user.name, "registered");
                let token = accounts::create_session(&state.db, user.id).await?;
                return Ok(logged_in(&state, token, "/profile"));
            }
            Err(taken) => Some(taken),
        },
    };
    let page = RegisterPage {
        layout: visitor.layout(),
        name: name.chars().take(64).collect(),
        error: problem,
    };
    Ok((axum::http::StatusCode::BAD_REQUEST, Html(page.render()?)).into_response())
}

async fn logout(State(state): State<AppState>, headers: HeaderMap) -> AppResult<Response> {
    if let Some(token) = cookie_value(&headers, SESSION_COOKIE) {
        accounts::end_session(&state.db, &token).await?;
    }
    let cookie = set_cookie(SESSION_COOKIE, None, 0, state.config.secure_cookies());
    Ok(([(header::SET_COOKIE, cookie)], Redirect::to("/")).into_response())
}
