//! A user's page (their bots on each open game's leaderboard, their latest matches)
//! and the page that documents the API.

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
    /// Their bots on each open game's leaderboard that has any, the default game's first.
    boards: Vec<UserBoard>,
    matches: Vec<ListedMatch>,
}

/// A user's bots on one game's leaderboard.
struct UserBoard {
    /// The game's title, while several games are open.
    title: Option<&'static str>,
    rows: Vec<Row>,
}

impl UserPage {
    /// Their bots on the leaderboards.
    fn bots(&self) -> usize {
        self.boards.iter().map(|b| b.rows.len()).sum()
    }
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
    let games = crate::web::games::choices(&state).await?;
    let several = games.len() > 1;
    let mut boards = Vec::new();
    for game in games {
        let board = leaderboard(&state, &game.name).await?;
        let rows: Vec<Row> = (board.places_of(&user.name))
            .map(|i| Row::of(i + 1, &board.standings[i], &state.languages))
            .collect();
        if !rows.is_empty() {
            boards.push(UserBoard {
                title: several.then_some(game.title),
                rows,
            });
        }
    }
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
        boards,
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
    /// Every game: (name, title, statistics' names).
    games: Vec<(&'static str, &'static str, &'static [&'static str])>,
    /// Every game's replay format, in words: (name, title, HTML of its folder).
    replays: Vec<(&'static str, &'static str, &'static str)>,
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
            games: (crate::games::all())
                .map(|c| (c.name(), c.describe().title, c.stat_names()))
                .collect(),
            replays: (crate::games::all())
                .filter_map(|c| {
                    let html = crate::embedded::find(c.files.site, "replay.html")?.text();
                    Some((c.name(), c.describe().title, html))
                })
                .collect(),
        }
        .render()?,
    ))
}
