//! Registering, logging in and out. Login attempts and registrations are limited per
//! address, failed logins put an account in back-off (see [`super::guard`]); an
//! unknown name and a wrong password get the same answer after the same work.

use std::net::SocketAddr;

use askama::Template;
use axum::extract::{ConnectInfo, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Form, Router};
use serde::Deserialize;

use super::error::AppResult;
use super::session::{cookie_value, set_cookie, Visitor, SESSION_COOKIE};
use super::{AppState, Layout};
use crate::accounts;
use crate::accounts::SESSION_DAYS;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/login", get(login_page).post(login))
        .route("/register", get(register_page).post(register))
        .route("/logout", post(logout))
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

/// Only a plain local path, so a login link cannot send people elsewhere: it starts
/// with one `/`, and holds no whitespace, control character or backslash (browsers
/// drop tabs and newlines from `/\t/evil.example` and read `/\\evil.example` as
/// `//evil.example`, another site).
fn safe_next(next: Option<&str>) -> String {
    match next {
        Some(n)
            if n.starts_with('/')
                && !n.starts_with("//")
                && n.len() <= 2048
                && !n
                    .chars()
                    .any(|c| c == '\\' || c.is_whitespace() || c.is_control()) =>
        {
            n.to_string()
        }
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
        // Empty when the visitor was sent from nowhere: the login then picks the
        // landing page (an organizer's is /admin).
        next: q
            .next
            .as_deref()
            .map(|n| safe_next(Some(n)))
            .unwrap_or_default(),
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
        i64::from(SESSION_DAYS),
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
    let again = |status: StatusCode, error: String| -> AppResult<Response> {
        let page = LoginPage {
            layout: visitor.layout(),
            name: form.name.chars().take(accounts::NAME_MAX).collect(),
            // Asked for nothing: still nothing on the next try.
            next: if form.next.as_deref().is_none_or(str::is_empty) {
                String::new()
            } else {
                next.clone()
            },
            error: Some(error),
        };
        Ok((status, Html(page.render()?)).into_response())
    };
    let wrong = || {
        again(
            StatusCode::UNAUTHORIZED,
            "Wrong name or password.".to_string(),
        )
    };
    // No account has a longer name or password: nothing else is done for these.
    if form.name.len() > accounts::NAME_MAX || form.password.len() > accounts::PASSWORD_MAX * 4 {
        return wrong();
    }
    let ip = state.client_ip(addr.ip(), &headers);
    // Counted before the password is checked, so attempts under way count too.
    if let Err(refusal) = state.guard.login_attempt(ip) {
        return again(
            StatusCode::TOO_MANY_REQUESTS,
            refusal.message("login attempts"),
        );
    }
    let Some((user, hash)) = accounts::find_login(&state.db, &form.name).await? else {
        accounts::verify_password(form.password.clone(), None).await?;
        state.guard.unknown_name_failed(ip);
        return wrong();
    };
    let ticket = match state.guard.begin_check(user.id, ip) {
        Ok(t) => t,
        Err(refusal) => return again(StatusCode::TOO_MANY_REQUESTS, refusal.message("logins")),
    };
    let ok = accounts::verify_password(form.password.clone(), Some(hash)).await?;
    ticket.finish(ok);
    if !ok {
        return wrong();
    }
    // A new session id at every login; the old session, if any, ends.
    if let Some(old) = cookie_value(&headers, SESSION_COOKIE) {
        accounts::end_session(&state.db, &old).await?;
    }
    let token = accounts::create_session(&state.db, user.id).await?;
    tracing::info!(user = %user.name, "logged in");
    // An organizer who was sent nowhere in particular lands where the contest is run.
    let next = if user.is_admin && form.next.as_deref().is_none_or(str::is_empty) {
        "/admin".to_string()
    } else {
        next
    };
    Ok(logged_in(&state, token, &next))
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
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
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
    let mut status = StatusCode::BAD_REQUEST;
    // Only a form that would be hashed is counted: a typo costs no registration.
    let problem = problem.and_then(|()| {
        let ip = state.client_ip(addr.ip(), &headers);
        state.guard.registration(ip).map_err(|refusal| {
            status = StatusCode::TOO_MANY_REQUESTS;
            refusal.message("registrations")
        })
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
        name: name.chars().take(accounts::NAME_MAX).collect(),
        error: problem,
    };
    Ok((status, Html(page.render()?)).into_response())
}

async fn logout(State(state): State<AppState>, headers: HeaderMap) -> AppResult<Response> {
    if let Some(token) = cookie_value(&headers, SESSION_COOKIE) {
        accounts::end_session(&state.db, &token).await?;
    }
    let cookie = set_cookie(SESSION_COOKIE, None, 0, state.config.secure_cookies());
    Ok(([(header::SET_COOKIE, cookie)], Redirect::to("/")).into_response())
}
