//! The list of finished matches, filtered by bot, owner or map, in stable pages; and
//! the same as JSON.

use askama::Template;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::Html;
use axum::Json;
use serde_json::json;

use super::ListedMatch;
use crate::ids::MatchId;
use crate::standings::{finished_matches, MatchFilter, MatchRow, PAGE};
use crate::web::api::{ApiError, ApiResult};
use crate::web::error::{AppError, AppResult};
use crate::web::format::round2;
use crate::web::games::{ListGame, Switcher};
use crate::web::session::Visitor;
use crate::web::{AppState, Layout};

#[derive(Template)]
#[template(path = "ladder/matches.html")]
struct MatchesPage {
    layout: Layout,
    /// The game listed, with what its addresses carry.
    game: ListGame,
    /// Links to the other open games' matches, when there are several.
    switcher: Option<Switcher>,
    matches: Vec<ListedMatch>,
    bot: String,
    user: String,
    map: String,
    /// "ranked", "unranked" or "" (both).
    kind: String,
    maps: Vec<String>,
    /// The query of the next page, if there is one.
    next: Option<String>,
    first_page: bool,
}

impl MatchesPage {
    /// The game's matches, unfiltered.
    fn unfiltered(&self) -> String {
        self.game.address("/matches", &[])
    }

    /// The first page of the game's matches, with the filters (when `filtered`) or
    /// without.
    fn newest(&self, filtered: &bool) -> String {
        let filters = [
            ("bot", &self.bot),
            ("user", &self.user),
            ("map", &self.map),
            ("kind", &self.kind),
        ];
        let pairs: Vec<(&str, &str)> = (filters.iter())
            .filter(|(_, v)| *filtered && !v.is_empty())
            .map(|(k, v)| (*k, v.as_str()))
            .collect();
        self.game.address("/matches", &pairs)
    }
}

fn query_of(f: &MatchFilter, game: &ListGame, cursor: MatchId) -> String {
    let mut q = form_urlencoded::Serializer::new(String::new());
    for (k, v) in [
        ("game", &game.param().map(str::to_string)),
        ("bot", &f.bot),
        ("user", &f.user),
        ("map", &f.map),
        ("kind", &f.kind),
    ] {
        // The default game is the one shown without `game`: its addresses stay as they were.
        if let Some(v) = v.as_deref().filter(|v| !v.is_empty()) {
            q.append_pair(k, v);
        }
    }
    q.append_pair("cursor", &cursor.to_string());
    q.finish()
}

/// The last match of a full page, where the next page starts.
fn next_cursor(rows: &[MatchRow]) -> Option<MatchId> {
    (rows.len() as i64 == PAGE)
        .then(|| rows.last().map(|m| m.id))
        .flatten()
}

/// The game of the list `f` asks for: the one named, else the game of the bot or map
/// filtered by (its matches are of its game), else the default one.
async fn list_game(state: &AppState, f: &MatchFilter) -> sqlx::Result<Result<ListGame, String>> {
    if f.game.is_some() || (f.bot.is_none() && f.map.is_none()) {
        return ListGame::of(state, f.game.as_deref()).await;
    }
    let of_filter = sqlx::query_scalar!(
        r#"select coalesce((select game from bots where lower(name) = lower($1)),
                           (select game from maps where name = $2)) as "game""#,
        f.bot.as_deref().map(str::trim),
        f.map.as_deref().map(str::trim)
    )
    .fetch_one(&state.db)
    .await?;
    match ListGame::of(state, of_filter.as_deref()).await? {
        Ok(game) => Ok(Ok(game)),
        // A closed game's bot: the default list, which says it has no such matches.
        Err(_) => ListGame::of(state, None).await,
    }
}

pub async fn page(
    State(state): State<AppState>,
    visitor: Visitor,
    Query(mut f): Query<MatchFilter>,
) -> AppResult<Html<String>> {
    let game = (list_game(&state, &f).await?).map_err(AppError::BadRequest)?;
    f.game = Some(game.name.clone());
    let rows = finished_matches(&state.db, &f).await?;
    let next = next_cursor(&rows).map(|c| query_of(&f, &game, c));
    let maps = sqlx::query_scalar!(
        "select name from maps where game = $1 order by seats, name",
        game.name
    )
    .fetch_all(&state.db)
    .await?;
    let page = MatchesPage {
        layout: visitor.layout(),
        switcher: game.switcher("/matches"),
        game,
        matches: rows.iter().map(ListedMatch::from).collect(),
        bot: f.bot.clone().unwrap_or_default(),
        user: f.user.clone().unwrap_or_default(),
        map: f.map.clone().unwrap_or_default(),
        kind: match f.ranked() {
            Some(true) => "ranked",
            Some(false) => "unranked",
            None => "",
        }
        .into(),
        maps,
        next,
        first_page: f.cursor.is_none(),
    };
    Ok(Html(page.render()?))
}

/// A finished match as the API lists it.
fn match_json(m: &MatchRow) -> serde_json::Value {
    json!({
        "id": m.id,
        "map": m.map,
        "turns": m.turns,
        "duration_s": m.seconds.map(round2),
        "finished": m.finished_at.map(|t| t.unix_timestamp()),
        "ranked": m.challenge_id.is_none() && m.tournament_id.is_none(),
        "challenge": m.challenge_id,
        "tournament": m.tournament_id,
        "players": m.ranked().iter().map(|(rank, bot)| json!({"bot": bot, "rank": rank})).collect::<Vec<_>>(),
    })
}

pub async fn api(
    State(state): State<AppState>,
    Query(mut f): Query<MatchFilter>,
) -> ApiResult<Json<serde_json::Value>> {
    let game =
        (list_game(&state, &f).await?).map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, e))?;
    f.game = Some(game.name);
    let rows = finished_matches(&state.db, &f).await?;
    Ok(Json(json!({
        "game": f.game,
        "matches": rows.iter().map(match_json).collect::<Vec<_>>(),
        "next_cursor": next_cursor(&rows),
    })))
}
