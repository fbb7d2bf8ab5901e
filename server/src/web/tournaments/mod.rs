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
use super::challenges::{api_refusal, status_of};
use super::error::{AppError, AppResult};
use super::session::{ApiUser, LoggedIn};
use super::AppState;
use crate::accounts::User;
use crate::ids::TournamentId;
use crate::tournaments::{self, Ask, Format, Part, Participants, Pointed, Refusal};

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

/// The `/admin` form as typed: every field as sent (missing ones as the empty form
/// has them), so that a refused form comes back as it was.
#[derive(Clone, Debug, Deserialize)]
#[serde(default)]
pub(crate) struct TournamentForm {
    pub name: String,
    /// The game (empty: the default game).
    pub game: String,
    pub format: String,
    /// `all`, `top` or `named`.
    pub who: String,
    pub top: String,
    pub names: String,
    pub maps: String,
    pub players: String,
    pub games: String,
    pub rounds: String,
    pub seed: String,
}

impl Default for TournamentForm {
    /// The empty form: every bot that plays, or the top 8.
    fn default() -> Self {
        TournamentForm {
            name: String::new(),
            game: String::new(),
            format: String::new(),
            who: "all".into(),
            top: "8".into(),
            names: String::new(),
            maps: String::new(),
            players: String::new(),
            games: String::new(),
            rounds: String::new(),
            seed: String::new(),
        }
    }
}

/// Characters of a field given back to the form: its `maxlength` (a number's field
/// takes 20), so that what is echoed stays small whatever was sent.
const NAME_FIELD: usize = 100;
const NAMES_FIELD: usize = 2400;
const MAPS_FIELD: usize = 2000;
const SHORT_FIELD: usize = 20;

fn cut(text: &str, most: usize) -> String {
    text.chars().take(most).collect()
}

/// A number typed in the field of `part`: none when empty. (The page names the field
/// before the refusal's words.)
fn number<T: std::str::FromStr>(text: &str, part: Part) -> Result<Option<T>, Pointed> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(None);
    }
    t.parse().map(Some).map_err(|_| {
        part.refused(Refusal::Invalid(format!(
            "`{}` is not a whole number.",
            cut(t, SHORT_FIELD)
        )))
    })
}

/// A list typed in a form: names split at commas, spaces or lines.
fn names(text: &str) -> Vec<String> {
    text.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

impl TournamentForm {
    fn ask(&self) -> Result<Ask, Pointed> {
        let Some(format) = Format::named(self.format.trim()) else {
            return Err(Part::Format.refused(Refusal::Invalid(format!(
                "`{}` is not a format: choose a round robin, groups or Swiss rounds.",
                cut(self.format.trim(), SHORT_FIELD)
            ))));
        };
        let participants = match self.who.as_str() {
            "top" => Participants::Top {
                top: number(&self.top, Part::Participants)?.ok_or_else(|| {
                    Part::Participants.refused(Refusal::Invalid(
                        "Say how many of the top of the ladder play.".into(),
                    ))
                })?,
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
                number(&self.players, Part::Players)?
            } else {
                None
            },
            games: if groups {
                number(&self.games, Part::Games)?
            } else {
                None
            },
            rounds: if format == Format::Swiss {
                number(&self.rounds, Part::Rounds)?
            } else {
                None
            },
            seed: number(&self.seed, Part::Seed)?,
        })
    }

    /// The form to draw again: each field cut to its length.
    fn echoed(&self) -> TournamentForm {
        TournamentForm {
            name: cut(&self.name, NAME_FIELD),
            game: cut(&self.game, SHORT_FIELD),
            format: cut(&self.format, SHORT_FIELD),
            who: cut(&self.who, SHORT_FIELD),
            top: cut(&self.top, SHORT_FIELD),
            names: cut(&self.names, NAMES_FIELD),
            maps: cut(&self.maps, MAPS_FIELD),
            players: cut(&self.players, SHORT_FIELD),
            games: cut(&self.games, SHORT_FIELD),
            rounds: cut(&self.rounds, SHORT_FIELD),
            seed: cut(&self.seed, SHORT_FIELD),
        }
    }
}

/// An open game as the form offers it: the formats it can play (its default first)
/// and the players its groups may have.
pub(crate) struct FormGame {
    pub name: String,
    pub title: &'static str,
    pub formats: Vec<Format>,
    pub fewest: u32,
    pub most: u32,
    /// What the format's field says of it: its players, and its formats when it cannot
    /// play them all.
    pub hint: String,
}

impl FormGame {
    /// Its formats as the page's script reads them (`round-robin groups swiss`).
    pub fn format_list(&self) -> String {
        let names: Vec<&str> = self.formats.iter().map(|f| f.as_str()).collect();
        names.join(" ")
    }
}

/// The tournament form of `/admin`: the open games, and what is typed in it with what
/// is wrong, once refused.
pub(crate) struct FormPart {
    pub games: Vec<FormGame>,
    pub typed: TournamentForm,
    /// Why it was refused, and the part of it at fault when there is one.
    pub wrong: Option<Pointed>,
}

/// The formats as the form words them.
pub(crate) const FORMATS: [(Format, &str); 3] = [
    (
        Format::RoundRobin,
        "Round robin: every pair on every map, both seat orders",
    ),
    (
        Format::Groups,
        "Free-for-all groups: games of several players",
    ),
    (
        Format::Swiss,
        "Swiss: rounds of duels between bots of similar score",
    ),
];

impl FormPart {
    /// The form empty, or as typed with why it was refused.
    pub async fn new(
        state: &AppState,
        refused: Option<(TournamentForm, Pointed)>,
    ) -> AppResult<FormPart> {
        let games = super::games::choices(state)
            .await?
            .into_iter()
            .filter_map(|g| {
                let seats = crate::games::kind(&g.name).ok()?.defaults().seats;
                let groups = Format::Groups.players_for(seats)?;
                let formats = Format::playable(seats);
                let has = match seats {
                    (a, b) if a == b => format!("{a} players"),
                    (a, b) => format!("{a} to {b} players"),
                };
                let only = if formats.len() < Format::ALL.len() {
                    let words: Vec<String> =
                        formats.iter().map(|f| f.words().to_lowercase()).collect();
                    format!(": {} only", words.join(" or "))
                } else {
                    String::new()
                };
                Some(FormGame {
                    hint: format!("A game of {} has {has}{only}.", g.title),
                    formats,
                    fewest: *groups.start(),
                    most: *groups.end(),
                    name: g.name,
                    title: g.title,
                })
            })
            .collect();
        let (typed, wrong) = match refused {
            Some((typed, wrong)) => (typed.echoed(), Some(wrong)),
            None => (TournamentForm::default(), None),
        };
        Ok(FormPart {
            games,
            typed,
            wrong,
        })
    }

    /// The game the form shows chosen: the one typed, else the default (the first).
    pub fn game(&self) -> Option<&FormGame> {
        (self.games.iter())
            .find(|g| g.name == self.typed.game)
            .or(self.games.first())
    }

    /// The format the form shows chosen: the one typed, else the game's default.
    pub fn format(&self) -> Option<Format> {
        Format::named(&self.typed.format).or_else(|| self.game()?.formats.first().copied())
    }

    /// The players a group of the chosen game may have.
    pub fn players(&self) -> std::ops::RangeInclusive<u32> {
        self.game()
            .map_or(tournaments::create::GROUP_PLAYERS, |g| g.fewest..=g.most)
    }

    /// Whether the form offers `format`: the chosen game can play it, or it was typed
    /// (a refused form shows what was sent, and says why it does not fit).
    pub fn offers(&self, format: &Format) -> bool {
        self.format() == Some(*format) || self.game().is_some_and(|g| g.formats.contains(format))
    }

    /// The field at fault (its `name`), when the refusal is about one.
    pub fn wrong_field(&self) -> Option<&'static str> {
        let part = self.wrong.as_ref()?.part?;
        Some(match part {
            Part::Name => "name",
            Part::Game => "game",
            Part::Format => "format",
            Part::Participants => match self.typed.who.as_str() {
                "top" => "top",
                "named" => "names",
                _ => "who",
            },
            Part::Maps => "maps",
            Part::Players => "players",
            Part::Games => "games",
            Part::Rounds => "rounds",
            Part::Seed => "seed",
        })
    }

    /// Whether the field `name` is the one at fault.
    pub fn wrong_at(&self, name: &str) -> bool {
        self.wrong_field() == Some(name)
    }

    /// The refusal's words, led by the label of the field at fault.
    pub fn message(&self) -> Option<(Option<&'static str>, String)> {
        let w = self.wrong.as_ref()?;
        let label = w.part.map(|p| match p {
            Part::Name => "Name",
            Part::Game => "Game",
            Part::Format => "Format",
            Part::Participants => "Participants",
            Part::Maps => "Maps",
            Part::Players => "Players a game",
            Part::Games => "Games",
            Part::Rounds => "Rounds",
            Part::Seed => "Seed",
        });
        Some((label, w.refusal.message()))
    }
}

/// On to the new tournament's page, or `/admin` again with the form as typed and what
/// is wrong with it.
async fn create_from_form(
    State(state): State<AppState>,
    who: LoggedIn,
    Form(f): Form<TournamentForm>,
) -> AppResult<Response> {
    organizer(&who.user).map_err(AppError::Forbidden)?;
    let made = match f.ask() {
        Ok(ask) => tournaments::create(&state.db, who.user.id, &ask).await?,
        Err(wrong) => Err(wrong),
    };
    match made {
        Ok(made) => {
            tracing::info!(organizer = %who.user.name, tournament = %made.id, "tournament made");
            Ok(Redirect::to(&url_of(made.id)).into_response())
        }
        Err(wrong) => {
            let status = status_of(&wrong.refusal);
            super::admin::tournament_refused(&state, &who, status, f, wrong).await
        }
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
