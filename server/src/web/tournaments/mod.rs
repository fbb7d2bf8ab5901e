//! Tournaments on the site and the API: made by organizers (the form on `/admin`,
//! `POST /api/tournaments` with an organizer's token), cancelled the same ways, and
//! public pages (`page.rs`): the list, a tournament's page with its standings that
//! follow the games live, its games between two participants, and the standings as
//! JSON and CSV. What a tournament is, is [`crate::tournaments`]'s.

mod page;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Form, Json, Router};
use serde::Deserialize;
use serde_json::json;

use super::api::{ApiError, ApiResult};
use super::challenges::api_refusal;
use super::error::{AppError, AppResult};
use super::session::{ApiUser, LoggedIn};
use super::AppState;
use crate::accounts::User;
use crate::ids::TournamentId;
use crate::tournaments::{self, Ask, Format, Participants};

pub use page::{points, signed, StandingsCache};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/tournaments", get(page::list))
        .route("/tournaments/{id}", get(page::tournament_page))
        .route("/tournaments/{id}/live", get(page::live_part))
        .route("/tournaments/{id}/games", get(page::pair_games))
        .route("/tournaments/{id}/standings.csv", get(page::csv))
        .route("/admin/tournaments", post(create_from_form))
        .route("/admin/tournaments/{id}/cancel", post(cancel_from_form))
        .route("/api/tournaments", post(api_create).get(page::api_list))
        .route("/api/tournaments/{id}", get(page::api_tournament))
        .route("/api/tournaments/{id}/cancel", post(api_cancel))
}

/// The address of a tournament's page.
pub fn url_of(id: TournamentId) -> String {
    format!("/tournaments/{id}")
}

fn organizer(user: &User) -> Result<(), String> {
    if user.is_admin {
        Ok(())
    } else {
        Err("Only the competition's organizers run tournaments.".into())
    }
}

/// The `/admin` form, as typed.
#[derive(Deserialize)]
struct TournamentForm {
    name: String,
    format: String,
    /// `all`, `top` or `named`.
    who: String,
    #[serde(default)]
    top: String,
    #[serde(default)]
    names: String,
    #[serde(default)]
    maps: String,
    #[serde(default)]
    players: String,
    #[serde(default)]
    games: String,
    #[serde(default)]
    rounds: String,
    #[serde(default)]
    seed: String,
    /// The game (empty: the default game).
    #[serde(default)]
    game: String,
}

/// A number typed in a form: none when empty.
fn number<T: std::str::FromStr>(text: &str, what: &str) -> Result<Option<T>, String> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(None);
    }
    t.parse()
        .map(Some)
        .map_err(|_| format!("{what} must be a whole number, not `{t}`."))
}

/// A list typed in a form: names split at commas, spaces or lines.
fn names(text: &str) -> Vec<String> {
    text.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

impl TournamentForm {
    fn ask(&self) -> Result<Ask, String> {
        let format = match self.format.as_str() {
            "round-robin" => Format::RoundRobin,
            "groups" => Format::Groups,
            "swiss" => Format::Swiss,
            other => return Err(format!("`{other}` is not a format.")),
        };
        let participants = match self.who.as_str() {
            "top" => Participants::Top {
                top: number(&self.top, "The number at the top")?
                    .ok_or("Say how many of the top of the ladder play.")?,
            },
            "named" => Participants::Named(names(&self.names)),
            _ => Participants::Word("all".into()),
        };
        let groups = format == Format::Groups;
        Ok(Ask {
            name: self.name.clone(),
            game: Some(self.game.clone()).filter(|g| !g.is_empty()),
            participants,
            maps: names(&self.maps),
            format,
            players_per_game: if groups {
                number(&self.players, "Players a game")?
            } else {
                None
            },
            games: if groups {
                number(&self.games, "Games")?
            } else {
                None
            },
            rounds: if format == Format::Swiss {
                number(&self.rounds, "Rounds")?
            } else {
                None
            },
            seed: number(&self.seed, "The seed")?,
        })
    }
}

/// Back to `/admin` with an error, or on to the new tournament's page.
async fn create_from_form(
    State(state): State<AppState>,
    who: LoggedIn,
    Form(f): Form<TournamentForm>,
) -> AppResult<Response> {
    organizer(&who.user).map_err(AppError::Forbidden)?;
    let ask = match f.ask() {
        Ok(ask) => ask,
        Err(e) => return super::admin::done(&state, &who, Err(e)).await,
    };
    match tournaments::create(&state.db, who.user.id, &ask).await? {
        Ok(made) => {
            tracing::info!(organizer = %who.user.name, tournament = %made.id, "tournament made");
            Ok(Redirect::to(&url_of(made.id)).into_response())
        }
        Err(r) => super::admin::done(&state, &who, Err(r.refusal.message())).await,
    }
}

async fn cancel_from_form(
    State(state): State<AppState>,
    who: LoggedIn,
    Path(id): Path<TournamentId>,
) -> AppResult<Response> {
    organizer(&who.user).map_err(AppError::Forbidden)?;
    if tournaments::cancel(&state.db, id).await? {
        Ok(Redirect::to(&url_of(id)).into_response())
    } else {
        Err(AppError::Status(
            StatusCode::CONFLICT,
            format!("Tournament {id} is not running: there is nothing to cancel."),
        ))
    }
}

/// `POST /api/tournaments` with an [`Ask`] as JSON: 201 with its id and address.
async fn api_create(
    State(state): State<AppState>,
    ApiUser(user): ApiUser,
    Json(ask): Json<Ask>,
) -> ApiResult<Response> {
    organizer(&user).map_err(|e| ApiError::new(StatusCode::FORBIDDEN, e))?;
    let made = tournaments::create(&state.db, user.id, &ask)
        .await?
        .map_err(|p| api_refusal(p.refusal))?;
    let url = url_of(made.id);
    Ok((
        StatusCode::CREATED,
        [(axum::http::header::LOCATION, url.clone())],
        Json(json!({ "id": made.id, "url": url, "queued": made.queued })),
    )
        .into_response())
}

/// `POST /api/tournaments/{id}/cancel`.
async fn api_cancel(
    State(state): State<AppState>,
    ApiUser(user): ApiUser,
    Path(id): Path<TournamentId>,
) -> ApiResult<Json<serde_json::Value>> {
    organizer(&user).map_err(|e| ApiError::new(StatusCode::FORBIDDEN, e))?;
    if tournaments::cancel(&state.db, id).await? {
        Ok(Json(json!({ "id": id, "status": "cancelled" })))
    } else {
        Err(ApiError::new(
            StatusCode::CONFLICT,
            format!("Tournament {id} is not running: there is nothing to cancel."),
        ))
    }
}
