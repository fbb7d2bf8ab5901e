//! `GET /api/games`: the games open on this site, with their seats, timing and how
//! many bots play each. Every list of the site takes `?game=NAME` (the default game
//! without it): `/matches`, `/api/matches`.

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use serde_json::json;

use super::api::ApiResult;
use super::AppState;
use crate::games;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/games", get(api))
}

/// How long the open games are used before they are read again (pages read them on
/// every request; the organizer changes them at a start).
const OPEN_FOR: std::time::Duration = std::time::Duration::from_secs(3);

/// The open games as this server read them last.
#[derive(Default)]
pub struct OpenGames {
    held: std::sync::Mutex<Option<(std::time::Instant, Vec<String>)>>,
}

impl OpenGames {
    /// The open games, read at most every [`OPEN_FOR`].
    pub async fn get(&self, db: &sqlx::PgPool) -> sqlx::Result<Vec<String>> {
        if let Some((at, open)) = self.held.lock().expect("not poisoned").as_ref() {
            if at.elapsed() < OPEN_FOR {
                return Ok(open.clone());
            }
        }
        let open = games::open(db).await?;
        *self.held.lock().expect("not poisoned") = Some((std::time::Instant::now(), open.clone()));
        Ok(open)
    }
}

/// An open game a form offers.
pub struct GameChoice {
    pub name: String,
    pub title: &'static str,
}

/// The open games, for a form's choice (shown when there are several), the default
/// first.
pub async fn choices(state: &AppState) -> sqlx::Result<Vec<GameChoice>> {
    let open = state.open_games.get(&state.db).await?;
    let default = games::default_of(&open).to_string();
    let mut out: Vec<GameChoice> = (open.into_iter())
        .filter_map(|name| {
            let title = games::kind(&name).ok()?.title();
            Some(GameChoice { name, title })
        })
        .collect();
    out.sort_by_key(|g| g.name != default);
    Ok(out)
}

/// One open game as the API shows it.
fn game_json(name: &str, default: bool, bots: i64) -> anyhow::Result<serde_json::Value> {
    let content = games::content(name)?;
    let kind = content.kind;
    let c = games::match_config(kind, &runner::MatchConfig::default());
    let (fewest, most) = kind.defaults().seats;
    Ok(json!({
        "name": name,
        "title": kind.title(),
        "default": default,
        "seats": {"min": fewest, "max": most},
        "turn_ms": c.turn_timeout.as_millis() as u64,
        "first_reply_ms": c.startup_timeout.as_millis() as u64,
        "turn_limit": c.max_steps,
        "active_bots": bots,
        "rules": content.rules,
        "matches": format!("/api/matches?game={name}"),
    }))
}

async fn api(State(state): State<AppState>) -> ApiResult<Json<serde_json::Value>> {
    let open = games::open(&state.db).await?;
    let counts = sqlx::query!(
        r#"select game, count(*) as "n!" from bots
           where active_version_id is not null and not disabled group by game"#
    )
    .fetch_all(&state.db)
    .await?;
    let default = games::default_of(&open).to_string();
    let mut list = Vec::new();
    for name in &open {
        let bots = (counts.iter().find(|c| &c.game == name)).map_or(0, |c| c.n);
        let game = game_json(name, *name == default, bots).map_err(|e| {
            super::api::ApiError::new(axum::http::StatusCode::INTERNAL_SERVER_ERROR, e.to_string())
        })?;
        list.push(game);
    }
    Ok(Json(json!({ "games": list })))
}
