//! The pages anyone can read: home, the rules, getting started, the replay viewer;
//! `/api/me` to check an API token.

use askama::Template;
use axum::extract::State;
use axum::http::header;
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::json;

use super::error::{AppError, AppResult};
use super::session::{ApiUser, Visitor};
use super::{AppState, Layout};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/", get(home))
        .route("/rules", get(rules))
        .route("/getting-started", get(getting_started))
        .route("/starters/{file}", get(starter_kit))
        .route("/viewer", get(viewer))
        .route("/api/me", get(api_me))
}

#[derive(Template)]
#[template(path = "pages/home.html")]
struct HomePage {
    layout: Layout,
}

#[derive(Template)]
#[template(path = "pages/rules.html")]
struct RulesPage {
    layout: Layout,
}

#[derive(Template)]
#[template(path = "viewer.html")]
struct ViewerPage {
    layout: Layout,
}

#[derive(Template)]
#[template(path = "pages/getting_started.html")]
struct GettingStartedPage {
    layout: Layout,
    /// (language key, name) of every starter kit.
    kits: Vec<(&'static str, &'static str)>,
    /// Languages uploads may use here.
    languages: Vec<String>,
}

async fn home(visitor: Visitor) -> AppResult<Html<String>> {
    Ok(Html(
        HomePage {
            layout: visitor.layout(),
        }
        .render()?,
    ))
}

async fn rules(visitor: Visitor) -> AppResult<Html<String>> {
    Ok(Html(
        RulesPage {
            layout: visitor.layout(),
        }
        .render()?,
    ))
}

/// The replay viewer for a local file, or `?replay=URL` on this site (read by the
/// page's script).
async fn viewer(visitor: Visitor) -> AppResult<Html<String>> {
    Ok(Html(
        ViewerPage {
            layout: visitor.layout(),
        }
        .render()?,
    ))
}

async fn getting_started(
    State(state): State<AppState>,
    visitor: Visitor,
) -> AppResult<Html<String>> {
    let page = GettingStartedPage {
        layout: visitor.layout(),
        kits: crate::starters::kits(),
        languages: state
            .languages
            .available()
            .map(|l| l.language.name.clone())
            .collect(),
    };
    Ok(Html(page.render()?))
}

/// `/starters/LANG.zip`
async fn starter_kit(
    axum::extract::Path(file): axum::extract::Path<String>,
) -> AppResult<Response> {
    let lang = file.strip_suffix(".zip").ok_or(AppError::NotFound)?;
    let bytes = crate::starters::zip(lang).ok_or(AppError::NotFound)?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/zip".to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"bottlebats-{lang}.zip\""),
            ),
        ],
        bytes.as_ref().clone(),
    )
        .into_response())
}

async fn api_me(ApiUser(u): ApiUser) -> Response {
    Json(json!({"id": u.id, "name": u.name, "admin": u.is_admin})).into_response()
}
