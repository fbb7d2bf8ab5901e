//! `GET /api/games`: the games open on this site, with their seats, timing and how
//! many bots play each. The lists of the site take `?game=NAME` (the default game
//! without it; a name that is no open game is refused): `/leaderboard` (and its rows),
//! `/matches`, `/live` and their API, whose pages link each open game ([`Switcher`]).

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
    let c = games::match_config(kind, &engine::MatchConfig::default());
    let (fewest, most) = kind.defaults().seats;
    Ok(json!({
        "name": name,
        "title": kind.title(),
        "default": default,
        "seats": {"min": fewest, "max": most},
        "turn_ms": c.turn_timeout.as_millis() as u64,
        "first_reply_ms": c.startup_timeout.as_millis() as u64,
        "max_turns": c.max_turns,
        "turn_word": kind.describe().turn.one,
        "active_bots": bots,
        "rules": content.rules(),
        "leaderboard": format!("/api/leaderboard?game={name}"),
        "matches": format!("/api/matches?game={name}"),
        "live": format!("/api/live?game={name}"),
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

/// The game a list's page shows (`?game=NAME`, the default game without it), among the
/// open games.
pub struct ListGame {
    pub name: String,
    /// It is the game shown without `game`: its addresses carry none, as before there
    /// was a choice.
    default: bool,
    open: Vec<String>,
}

impl ListGame {
    /// The open game `asked` names, the default one when none; or why not.
    pub async fn of(state: &AppState, asked: Option<&str>) -> sqlx::Result<Result<Self, String>> {
        let open = state.open_games.get(&state.db).await?;
        Ok(games::chosen(asked, &open).map(|name| ListGame {
            name: name.to_string(),
            default: name == games::default_of(&open),
            open: open.clone(),
        }))
    }

    /// What a form's hidden `game` field carries: the game, unless it is the default.
    pub fn param(&self) -> Option<&str> {
        (!self.default).then_some(self.name.as_str())
    }

    /// `path` with the query `pairs`, and `game` unless it is the default.
    pub fn address(&self, path: &str, pairs: &[(&str, &str)]) -> String {
        address_of(path, self.param(), pairs)
    }

    /// The links to the list `path` of every open game (the default first), and to the
    /// game's live channel; none while one game is open.
    pub fn switcher(&self, path: &str) -> Option<Switcher> {
        if self.open.len() < 2 {
            return None;
        }
        let default = games::default_of(&self.open);
        let mut names: Vec<&String> = self.open.iter().collect();
        names.sort_by_key(|name| *name != default);
        let games = (names.into_iter())
            .filter_map(|name| {
                let game = (name != default).then_some(name.as_str());
                Some(GameLink {
                    title: games::kind(name).ok()?.title(),
                    href: address_of(path, game, &[]),
                    current: *name == self.name,
                })
            })
            .collect();
        Some(Switcher {
            games,
            live: self.address("/live", &[]),
        })
    }
}

/// `path` with the query `game` (if any) then `pairs`.
fn address_of(path: &str, game: Option<&str>, pairs: &[(&str, &str)]) -> String {
    let mut q = form_urlencoded::Serializer::new(String::new());
    if let Some(game) = game {
        q.append_pair("game", game);
    }
    for (k, v) in pairs {
        q.append_pair(k, v);
    }
    match q.finish() {
        q if q.is_empty() => path.to_string(),
        q => format!("{path}?{q}"),
    }
}

/// A bot's place on its game's leaderboard, naming the game, which has its own
/// ladder: `#2 of 30 Vindinium bots`.
pub fn rank_text(place: usize, of: usize, game: &str) -> String {
    match games::kind(game) {
        Ok(kind) => format!("#{place} of {of} {} bots", kind.title()),
        _ => format!("#{place} of {of}"),
    }
}

/// A list page's links to the same list of each open game (`templates/game_switch.html`).
pub struct Switcher {
    pub games: Vec<GameLink>,
    /// The shown game's live channel.
    pub live: String,
}

/// A link of a [`Switcher`].
pub struct GameLink {
    pub title: &'static str,
    pub href: String,
    /// It is the game shown.
    pub current: bool,
}
