//! The leaderboard: the page, its rows alone (which the page's script fetches again),
//! and its JSON, all from one [`Leaderboard`] made at most once a second.

use std::sync::Arc;
use std::time::{Duration, Instant};

use askama::Template;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::header;
use axum::response::{Html, IntoResponse, Response};
use serde_json::json;

use crate::languages::Languages;
use crate::standings::{standings, Standing};
use crate::web::api::ApiResult;
use crate::web::error::AppResult;
use crate::web::format::{round2, when};
use crate::web::session::Visitor;
use crate::web::{AppState, Layout};

/// A leaderboard row, ready to show.
pub struct Row {
    pub rank: usize,
    pub bot: String,
    pub owner: String,
    pub language: String,
    pub rating: String,
    pub mu_sigma: String,
    pub games: i32,
    pub win_rate: String,
    pub last_game: String,
}

fn language_name(languages: &Languages, key: &str) -> String {
    languages
        .get(key)
        .map_or_else(|| key.to_string(), |l| l.language.name.clone())
}

impl Row {
    pub fn of(rank: usize, s: &Standing, languages: &Languages) -> Row {
        Row {
            rank,
            bot: s.name.clone(),
            owner: s.owner.clone(),
            language: language_name(languages, &s.language),
            rating: format!("{:.2}", s.record.rating()),
            mu_sigma: s.record.mu_sigma(),
            games: s.record.games,
            win_rate: format!("{:.0}%", 100.0 * s.record.win_rate()),
            last_game: s.last_game_at.map_or_else(|| "never".to_string(), when),
        }
    }
}

/// A standing as `/api/leaderboard` gives it.
fn standing_json(rank: usize, s: &Standing, languages: &Languages) -> serde_json::Value {
    let r = &s.record;
    json!({
        "rank": rank,
        "bot": s.name,
        "owner": s.owner,
        "language": language_name(languages, &s.language),
        "rating": round2(r.rating()),
        "mu": round2(r.mu),
        "sigma": round2(r.sigma),
        "games": r.games,
        "wins": r.wins,
        "losses": r.losses,
        "draws": r.draws,
        "win_rate": round2(r.win_rate()),
        "last_game": s.last_game_at.map(|t| t.unix_timestamp()),
    })
}

/// The leaderboard as one moment saw it, ready to show, shared by the requests of the
/// next [`LEADERBOARD_FOR`]. Every bot of the ladder is a row, so reading, formatting and
/// serializing them all took milliseconds a request (1,000 bots); the page refreshes
/// itself every 15 s anyway. The page, its rows, its JSON and the user pages show the
/// same moment.
pub struct Leaderboard {
    made: Instant,
    pub standings: Vec<Standing>,
    /// Matches finished in the 10 minutes before it was made: the ladder's pace.
    pub finished_lately: i64,
    pub rows: Vec<Row>,
    /// The body of `/api/leaderboard`.
    json: Bytes,
    /// The body of `/leaderboard/rows`.
    rows_html: Bytes,
}

/// How long a [`Leaderboard`] is shown.
pub const LEADERBOARD_FOR: Duration = Duration::from_secs(1);

/// The latest [`Leaderboard`], and who is making the next one.
#[derive(Default)]
pub struct LeaderboardCache {
    latest: std::sync::Mutex<Option<Arc<Leaderboard>>>,
    making: tokio::sync::Mutex<()>,
}

impl LeaderboardCache {
    fn latest(&self) -> Option<Arc<Leaderboard>> {
        self.latest
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }
}

/// The leaderboard's rows, a `<tbody>`: the page includes them, and its script
/// (`static/live.mjs`) fetches them again from `/leaderboard/rows` to stay up to date,
/// so a row is drawn in one place.
#[derive(Template)]
#[template(path = "ladder/leaderboard_rows.html")]
struct LeaderboardRows<'a> {
    rows: &'a [Row],
}

/// Reads the standings and makes a [`Leaderboard`] of them.
async fn make_leaderboard(state: &AppState) -> AppResult<Leaderboard> {
    let made = Instant::now();
    let standings = standings(&state.db).await?;
    let finished_lately = crate::standings::finished_lately(&state.db).await?;
    let rows: Vec<Row> = standings
        .iter()
        .enumerate()
        .map(|(i, s)| Row::of(i + 1, s, &state.languages))
        .collect();
    let json: Vec<_> = standings
        .iter()
        .enumerate()
        .map(|(i, s)| standing_json(i + 1, s, &state.languages))
        .collect();
    let json = serde_json::to_vec(&json!({ "leaderboard": json }))
        .expect("a JSON value always serializes");
    let rows_html = LeaderboardRows { rows: &rows }.render()?;
    Ok(Leaderboard {
        made,
        standings,
        finished_lately,
        rows,
        json: Bytes::from(json),
        rows_html: Bytes::from(rows_html),
    })
}

/// The leaderboard, at most [`LEADERBOARD_FOR`] old when asked for. Once it is older, the
/// next request makes a new one; requests that come while it does are given the last
/// one instead of waiting (or wait, when there is none yet).
pub async fn leaderboard(state: &AppState) -> AppResult<Arc<Leaderboard>> {
    let cache = &state.leaderboard;
    let last = cache.latest();
    if let Some(b) = last.as_ref().filter(|b| b.made.elapsed() < LEADERBOARD_FOR) {
        return Ok(b.clone());
    }
    let _making = match (cache.making.try_lock(), last) {
        (Ok(making), _) => making,
        (Err(_), Some(last)) => return Ok(last),
        (Err(_), None) => cache.making.lock().await,
    };
    if let Some(b) = cache
        .latest()
        .filter(|b| b.made.elapsed() < LEADERBOARD_FOR)
    {
        return Ok(b);
    }
    let b = Arc::new(make_leaderboard(state).await?);
    *cache
        .latest
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(b.clone());
    Ok(b)
}

#[derive(Template)]
#[template(path = "ladder/leaderboard.html")]
struct LeaderboardPage<'a> {
    layout: Layout,
    rows: &'a [Row],
}

pub async fn page(State(state): State<AppState>, visitor: Visitor) -> AppResult<Html<String>> {
    let board = leaderboard(&state).await?;
    Ok(Html(
        LeaderboardPage {
            layout: visitor.layout(),
            rows: &board.rows,
        }
        .render()?,
    ))
}

pub async fn rows(State(state): State<AppState>) -> AppResult<Response> {
    let board = leaderboard(&state).await?;
    Ok((
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        board.rows_html.clone(),
    )
        .into_response())
}

pub async fn api(State(state): State<AppState>) -> ApiResult<Response> {
    let b = leaderboard(&state).await?;
    Ok(([(header::CONTENT_TYPE, "application/json")], b.json.clone()).into_response())
}
