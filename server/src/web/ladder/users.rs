//! A user's page (their bots on the leaderboard, their latest matches) and the page
//! that documents the API.

use askama::Template;
use axum::extract::{Path, State};
use axum::response::Html;

use super::{leaderboard, ListedMatch, Row};
use crate::standings::{latest_matches, MatchFilter};
use crate::web::error::{AppError, AppResult};
use crate::web::format::when;
use crate::web::session::Visitor;
use crate::web::{AppState, Layout};

#[derive(Template)]
#[template(path = "ladder/user.html")]
struct UserPage {
    layout: Layout,
    name: String,
    since: String,
    bots: Vec<Row>,
    matches: Vec<ListedMatch>,
}

pub async fn page(
    State(state): State<AppState>,
    visitor: Visitor,
    Path(name): Path<String>,
) -> AppResult<Html<String>> {
    let user = sqlx::query!(
        "select name, created_at from users where lower(name) = lower($1)",
        name
    )
    .fetch_optional(&state.db)
    .await?
    .ok_or(AppError::NotFound)?;
    let leaderboard = leaderboard(&state).await?;
    let bots = leaderboard
        .places_of(&user.name)
        .map(|i| Row::of(i + 1, &leaderboard.standings[i], &state.languages))
        .collect();
    let filter = MatchFilter {
        user: Some(user.name.clone()),
        ..MatchFilter::default()
    };
    let matches = latest_matches(&state.db, &filter, 10)
        .await?
        .iter()
        .map(ListedMatch::from)
        .collect();
    let page = UserPage {
        layout: visitor.layout(),
        name: user.name,
        since: when(user.created_at),
        bots,
        matches,
    };
    Ok(Html(page.render()?))
}

#[derive(Template)]
#[template(path = "ladder/api.html")]
struct ApiPage {
    layout: Layout,
    /// The owners' allowance of challenges, as this site sets it.
    limits: crate::challenges::Limits,
    /// This site's address, for the commands shown.
    site: String,
}

pub async fn api_page(
    State(state): State<AppState>,
    headers: axum::http::HeaderMap,
    visitor: Visitor,
) -> AppResult<Html<String>> {
    Ok(Html(
        ApiPage {
            layout: visitor.layout(),
            limits: state.config.challenge_limits,
            site: state.site_address(&headers),
        }
        .render()?,
    ))
}
