//! Challenges and A/B tests on the site and the API: the "Challenge" form
//! (`/challenges/new`), asking for them (`POST /challenges`, `POST /abtests`, and the
//! same under `/api` with JSON), and their pages (`page.rs`). What they are and how
//! they are played is [`crate::challenges`]'s.

mod page;

use askama::Template;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Form, Json, Router};
use serde::Deserialize;
use serde_json::json;

use super::api::{ApiError, ApiResult};
use super::error::{AppError, AppResult};
use super::session::{ApiUser, LoggedIn};
use super::{AppState, Layout};
use crate::challenges::{self, AbAsk, Ask, Kind, Opponents, Refusal};
use crate::ids::{ChallengeId, UserId};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/challenges/new", get(new_page))
        .route("/challenges", post(create_from_form))
        .route("/abtests", post(create_abtest_from_form))
        .route("/challenges/{id}", get(page::challenge_page))
        .route("/challenges/{id}/live", get(page::challenge_live))
        .route("/abtests/{id}", get(page::abtest_page))
        .route("/abtests/{id}/live", get(page::abtest_live))
        .route("/abtests/{id}/more", post(more_abtest_games))
        .route("/api/challenges", post(api_create))
        .route("/api/challenges/{id}", get(page::api_challenge))
        .route("/api/abtests", post(api_create_abtest))
        .route("/api/abtests/{id}", get(page::api_abtest))
}

/// The address of a challenge's or an A/B test's page.
pub fn url_of(kind: Kind, id: ChallengeId) -> String {
    match kind {
        Kind::Challenge => format!("/challenges/{id}"),
        Kind::Abtest => format!("/abtests/{id}"),
    }
}

pub(crate) fn status_of(r: &Refusal) -> StatusCode {
    match r {
        Refusal::Invalid(_) => StatusCode::BAD_REQUEST,
        Refusal::NotYours(_) | Refusal::Closed(_) => StatusCode::FORBIDDEN,
        Refusal::Conflict(_) => StatusCode::CONFLICT,
        Refusal::TooMany(_) => StatusCode::TOO_MANY_REQUESTS,
        Refusal::Off => StatusCode::SERVICE_UNAVAILABLE,
    }
}

pub(crate) fn api_refusal(r: Refusal) -> ApiError {
    ApiError::new(status_of(&r), r.message())
}

/// The form as typed, to draw it again.
#[derive(Clone, Debug, Default)]
struct Typed {
    bot: String,
    version: String,
    mode: String,
    /// The opponents' fields, one name each (a list pasted in one is split).
    names: Vec<String>,
    k: String,
    players: String,
    maps: Vec<String>,
    games: String,
}

impl Typed {
    fn from_pairs(pairs: &[(String, String)]) -> Typed {
        let mut t = Typed::default();
        for (k, v) in pairs {
            let v = v.chars().take(1000).collect::<String>();
            match k.as_str() {
                "bot" => t.bot = v,
                "version" => t.version = v,
                "mode" => t.mode = v,
                "names" if t.names.len() < challenges::MAX_OPPONENTS => t.names.push(v),
                "k" => t.k = v,
                "players" => t.players = v,
                "map" if t.maps.len() < 100 => t.maps.push(v),
                "games" => t.games = v,
                _ => {}
            }
        }
        t
    }

    /// The names in the opponents' fields, each field's list split.
    fn named(&self) -> Vec<String> {
        (self.names.iter())
            .flat_map(|f| challenges::split_names(f))
            .map(str::to_string)
            .collect()
    }

    /// The form to draw again: each field cut to its length (a number's to 20
    /// characters, a name's to 64), whatever was sent.
    fn echoed(self) -> Typed {
        let cut = |s: &str, most: usize| s.chars().take(most).collect::<String>();
        Typed {
            bot: cut(&self.bot, NAME_FIELD),
            version: cut(&self.version, NUMBER_FIELD),
            mode: cut(&self.mode, NUMBER_FIELD),
            names: self.names.iter().map(|n| cut(n, NAME_FIELD)).collect(),
            k: cut(&self.k, NUMBER_FIELD),
            players: cut(&self.players, NUMBER_FIELD),
            maps: self.maps.iter().map(|m| cut(m, NAME_FIELD)).collect(),
            games: cut(&self.games, NUMBER_FIELD),
        }
    }

    /// The opponents' fields to draw: every name typed, one a field, then empty ones up
    /// to [`OPPONENT_FIELDS`].
    fn name_fields(&self) -> Vec<String> {
        let mut fields = self.named();
        fields.truncate(challenges::MAX_OPPONENTS);
        let empty = OPPONENT_FIELDS.saturating_sub(fields.len());
        fields.extend(std::iter::repeat_n(String::new(), empty));
        fields
    }

    /// The request the form makes, or what is wrong with it.
    fn ask(&self) -> Result<Ask, Refusal> {
        // A number of the form, said with its range when it is not one (`-1` games).
        let number = |what: &str, s: &str, most: u32| -> Result<Option<u32>, Refusal> {
            let s = s.trim();
            if s.is_empty() {
                return Ok(None);
            }
            s.parse().map(Some).map_err(|_| {
                Refusal::Invalid(format!(
                    "The {what} is a whole number from 1 to {most}, not `{}`.",
                    s.chars().take(20).collect::<String>()
                ))
            })
        };
        let opponents_most = challenges::MAX_OPPONENTS as u32;
        let k = number("number of opponents", &self.k, opponents_most)?.unwrap_or(0);
        let opponents = match self.mode.as_str() {
            "top" => Opponents::Top { top: k },
            "near" => Opponents::Near { near: k },
            _ => Opponents::Named(self.named()),
        };
        Ok(Ask {
            bot: self.bot.clone(),
            version: number("version", &self.version, i32::MAX as u32)?.map(|v| v as i32),
            opponents,
            maps: self.maps.clone(),
            games: number("number of games", &self.games, challenges::MAX_GAMES)?
                .ok_or_else(|| Refusal::Invalid("Say how many games to play.".into()))?
                .into(),
            players: number("number of players", &self.players, challenges::MAX_PLAYERS)?,
        })
    }
}

/// The players' field's hint for a game that seats `seats` (`exactly 4`, `2 to 8`):
/// the static/challenge.mjs script says the same when another bot is picked.
fn seats_hint(seats: &str) -> String {
    if seats.starts_with("exactly") {
        format!(
            "{seats}: your bot and {} opponents",
            seats
                .trim_start_matches("exactly ")
                .parse::<u32>()
                .map_or(0, |n| n.saturating_sub(1))
        )
    } else {
        let most = seats.rsplit(' ').next().and_then(|n| n.parse::<u32>().ok());
        match most {
            Some(n) => format!(
                "empty: your bot and every opponent, {n} at most (more opponents take turns)"
            ),
            None => "empty: your bot and every opponent".into(),
        }
    }
}

/// The length of the form's fields as given back: a name's (`maxlength`), a number's.
const NAME_FIELD: usize = 64;
const NUMBER_FIELD: usize = 20;

/// Opponents' fields the form shows: as many as can sit at one game with the bot.
const OPPONENT_FIELDS: usize = challenges::MAX_PLAYERS as usize - 1;
/// Most names the form's completion lists: the best rated first.
const RIVALS_LISTED: i64 = 300;

#[derive(Template)]
#[template(path = "challenges/new.html")]
struct NewPage {
    layout: Layout,
    /// The visitor's bots that play: (name, its game, what a game of it seats in words:
    /// `2 to 8`, `exactly 4`).
    bots: Vec<(String, String, String)>,
    /// The game of the bot the form shows first (the one typed, else the first).
    game: String,
    /// What the players' field takes for that game.
    seats_hint: String,
    /// Bots that play in the games of the visitor's bots, for the opponents' fields to
    /// complete: (name, its game, its game's title when the visitor's bots play
    /// several games).
    rivals: Vec<(String, String, Option<&'static str>)>,
    /// The maps in play of those games: (name, seats, game), fewest seats first.
    maps: Vec<(String, i32, String)>,
    typed: Typed,
    error: Option<String>,
    max_games: u32,
}

async fn render_new(
    state: &AppState,
    who: &LoggedIn,
    typed: Typed,
    error: Option<(StatusCode, String)>,
) -> AppResult<Response> {
    let bots: Vec<(String, String, String)> = sqlx::query!(
        "select name, game from bots where owner_id = $1 and active_version_id is not null \
         and not disabled order by lower(name)",
        who.user.id as UserId
    )
    .fetch_all(&state.db)
    .await?
    .into_iter()
    .map(|b| {
        let seats = crate::games::kind(&b.game).map_or_else(
            |_| String::new(),
            |k| match k.defaults().seats {
                (a, b) if a == b => format!("exactly {a}"),
                (a, b) => format!("{a} to {b}"),
            },
        );
        (b.name, b.game, seats)
    })
    .collect();
    let game = (bots.iter())
        .find(|b| b.0.eq_ignore_ascii_case(&typed.bot))
        .or(bots.first())
        .map_or_else(String::new, |b| b.1.clone());
    let rivals = sqlx::query!(
        "select b.name, b.game from bots b where b.active_version_id is not null \
         and not b.disabled and b.game in (select game from bots where owner_id = $1 \
         and active_version_id is not null and not disabled) \
         order by b.mu - 3 * b.sigma desc, b.name limit $2",
        who.user.id as UserId,
        RIVALS_LISTED
    )
    .fetch_all(&state.db)
    .await?;
    let several = rivals.iter().any(|r| r.game != rivals[0].game);
    let rivals = rivals
        .into_iter()
        .map(|r| {
            let title = crate::games::kind(&r.game).ok().map(|k| k.title());
            (r.name, r.game, title.filter(|_| several))
        })
        .collect();
    let maps = sqlx::query!(
        "select name, seats, game from maps where enabled and game in \
         (select game from bots where owner_id = $1) order by seats, name",
        who.user.id as UserId
    )
    .fetch_all(&state.db)
    .await?
    .into_iter()
    .map(|m| (m.name, m.seats, m.game))
    .collect();
    let (status, error) = match error {
        Some((s, e)) => (s, Some(e)),
        None => (StatusCode::OK, None),
    };
    let page = NewPage {
        layout: who.layout(),
        seats_hint: seats_hint(
            bots.iter()
                .find(|b| b.1 == game)
                .map_or("", |b| b.2.as_str()),
        ),
        bots,
        game,
        rivals,
        maps,
        typed: typed.echoed(),
        error,
        max_games: challenges::MAX_GAMES,
    };
    Ok((status, Html(page.render()?)).into_response())
}

#[derive(Deserialize)]
struct NewQuery {
    bot: Option<String>,
    opponent: Option<String>,
}

/// `GET /challenges/new?bot=MINE&opponent=THEIRS`: the form, filled in from a bot page.
async fn new_page(
    State(state): State<AppState>,
    who: LoggedIn,
    Query(q): Query<NewQuery>,
) -> AppResult<Response> {
    let typed = Typed {
        bot: q.bot.unwrap_or_default(),
        mode: if q.opponent.is_some() {
            "named"
        } else {
            "near"
        }
        .into(),
        names: q.opponent.into_iter().collect(),
        k: "3".into(),
        games: "10".into(),
        ..Typed::default()
    };
    render_new(&state, &who, typed, None).await
}

/// `POST /challenges` from the form: to the challenge's page, or the form again with
/// what is wrong.
async fn create_from_form(
    State(state): State<AppState>,
    who: LoggedIn,
    Form(pairs): Form<Vec<(String, String)>>,
) -> AppResult<Response> {
    let typed = Typed::from_pairs(&pairs);
    let made = match typed.ask() {
        Ok(ask) => {
            challenges::create_challenge(
                &state.db,
                state.config.challenge_limits,
                who.user.id,
                &ask,
            )
            .await?
        }
        Err(r) => Err(r),
    };
    match made {
        Ok(id) => Ok(Redirect::to(&url_of(Kind::Challenge, id)).into_response()),
        Err(r) => render_new(&state, &who, typed, Some((status_of(&r), r.message()))).await,
    }
}

#[derive(Deserialize)]
struct AbForm {
    bot: String,
    candidate: i32,
    /// As typed: a refusal gives it back.
    #[serde(default)]
    games: String,
}

#[derive(Deserialize)]
struct MoreForm {
    games: i64,
}

/// `POST /abtests/{id}/more` from the A/B test's page: the games its verdict says
/// would tell, added to it.
async fn more_abtest_games(
    State(state): State<AppState>,
    who: LoggedIn,
    Path(id): Path<ChallengeId>,
    Form(f): Form<MoreForm>,
) -> AppResult<Response> {
    let limits = state.config.challenge_limits;
    match challenges::more_abtest_games(&state.db, limits, who.user.id, id, f.games).await? {
        Ok(_) => Ok(Redirect::to(&url_of(Kind::Abtest, id)).into_response()),
        Err(r) => Err(AppError::Status(status_of(&r), r.message())),
    }
}

/// `POST /abtests` from a version's "A/B test" button on the bot page: to the test's
/// page, or the bot page again with the games as typed and what is wrong.
async fn create_abtest_from_form(
    State(state): State<AppState>,
    who: LoggedIn,
    Form(f): Form<AbForm>,
) -> AppResult<Response> {
    let typed: String = f.games.trim().chars().take(20).collect();
    let made = match typed.parse::<i64>() {
        Ok(games) => {
            let ask = AbAsk {
                bot: f.bot.clone(),
                candidate: f.candidate,
                games,
            };
            let limits = state.config.challenge_limits;
            challenges::create_abtest(&state.db, limits, who.user.id, &ask).await?
        }
        Err(_) => Err(Refusal::Invalid(format!(
            "The number of games is a whole number, not `{typed}`."
        ))),
    };
    match made {
        Ok(id) => Ok(Redirect::to(&url_of(Kind::Abtest, id)).into_response()),
        Err(r) => {
            let again = crate::web::bots::BotTyped {
                abtest: Some((f.candidate, typed)),
                ..Default::default()
            };
            let visitor = super::session::Visitor::from(&who);
            let error = (status_of(&r), r.message());
            crate::web::bots::render_bot_typed(&state, &visitor, &f.bot, error, again).await
        }
    }
}

/// The API's answer to a request made.
fn created(kind: Kind, id: ChallengeId) -> Response {
    let url = url_of(kind, id);
    (
        StatusCode::CREATED,
        [(axum::http::header::LOCATION, url.clone())],
        Json(json!({ "id": id, "url": url })),
    )
        .into_response()
}

/// `POST /api/challenges` with an [`Ask`] as JSON.
async fn api_create(
    State(state): State<AppState>,
    ApiUser(user): ApiUser,
    Json(ask): Json<Ask>,
) -> ApiResult<Response> {
    challenges::create_challenge(&state.db, state.config.challenge_limits, user.id, &ask)
        .await?
        .map(|id| created(Kind::Challenge, id))
        .map_err(api_refusal)
}

/// `POST /api/abtests` with an [`AbAsk`] as JSON.
async fn api_create_abtest(
    State(state): State<AppState>,
    ApiUser(user): ApiUser,
    Json(ask): Json<AbAsk>,
) -> ApiResult<Response> {
    challenges::create_abtest(&state.db, state.config.challenge_limits, user.id, &ask)
        .await?
        .map(|id| created(Kind::Abtest, id))
        .map_err(api_refusal)
}

#[cfg(test)]
mod form_tests {
    use super::Typed;

    #[test]
    fn a_number_out_of_its_range_is_refused_with_the_range() {
        let typed = |games: &str| Typed {
            bot: "mine".into(),
            mode: "near".into(),
            k: "1".into(),
            games: games.into(),
            ..Typed::default()
        };
        let refused = typed("-1").ask().err().unwrap().message();
        assert_eq!(
            refused,
            "The number of games is a whole number from 1 to 20, not `-1`."
        );
        assert!(typed("3").ask().is_ok());
    }
}
