//! The organizer's page (`/admin`, admins only): the ranker paused or running, the
//! queue and running matches, each worker's last heartbeat, the maps, and the controls
//! that change them. The same controls are `bottlebats admin` commands.

use askama::Template;
use axum::extract::{Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Form, Router};
use serde::Deserialize;

use super::error::{AppError, AppResult};
use super::session::{cookie_value, LoggedIn};
use super::{AppState, Layout};
use crate::ranker::{self, Status};
use crate::status::MatchStatus;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/admin", get(page))
        .route("/admin/ranker", post(ranker_control))
        .route("/admin/contest", post(contest_control))
        .route("/admin/live", post(live_control))
        .route("/admin/matches", post(match_control))
        .route("/admin/bots", post(bot_control))
        .route("/admin/bots/find", get(find_bots))
        .route("/admin/maps", post(map_control))
}

#[derive(Template)]
#[template(path = "admin.html")]
struct AdminPage {
    layout: Layout,
    status: Status,
    /// The tournament form: the open games and what each can play, and what was typed
    /// when it was refused.
    tournament: crate::web::tournaments::FormPart,
    live: crate::live::Channel,
    /// The bots to pick from to disable or enable one: the latest to play first.
    bots: Vec<BotChoice>,
    notice: Option<String>,
    error: Option<String>,
    /// A deadline that takes effect at once, sent back to be confirmed.
    confirm: Option<Confirm>,
    /// A form sent back refused: what was typed in it and what is wrong.
    refused: Option<Refused>,
}

/// A form of the page sent back refused, as typed (each field cut to its length), with
/// the field at fault and why.
pub(crate) struct Refused {
    /// The form: `contest`, `live`, `matches` or `bots`.
    form: &'static str,
    /// The field at fault (its `name`), when one is.
    field: Option<&'static str>,
    message: String,
    /// The form's fields as typed, by name.
    typed: Vec<(&'static str, String)>,
}

impl Refused {
    fn new(form: &'static str, field: Option<&'static str>, message: String) -> Refused {
        Refused {
            form,
            field,
            message,
            typed: Vec::new(),
        }
    }

    /// With field `name` as typed, cut to `most` characters (its `maxlength`).
    fn typed(mut self, name: &'static str, text: &str, most: usize) -> Refused {
        self.typed.push((name, text.chars().take(most).collect()));
        self
    }
}

impl AdminPage {
    /// The deadline in the form: as sent when it is to be confirmed or was refused,
    /// else as saved.
    fn typed_deadline(&self) -> String {
        match &self.confirm {
            Some(c) => c.deadline.clone(),
            None => (self.typed("contest", "deadline"))
                .map_or_else(|| self.status.contest.as_typed(), str::to_string),
        }
    }

    /// Whether the form's freeze box is ticked, likewise.
    fn typed_freeze(&self) -> bool {
        match (&self.confirm, self.typed("contest", "freeze")) {
            (Some(c), _) => c.freeze,
            (None, Some(f)) => f == "on",
            (None, None) => self.status.contest.freeze,
        }
    }

    /// What was typed in field `field` of `form`, when that form was refused.
    fn typed(&self, form: &str, field: &str) -> Option<&str> {
        let r = self.refused.as_ref().filter(|r| r.form == form)?;
        (r.typed.iter())
            .find(|(name, _)| *name == field)
            .map(|(_, text)| text.as_str())
    }

    /// What field `field` of `form` shows: as typed when that form was refused, else
    /// empty.
    fn typed_or_empty(&self, form: &str, field: &str) -> String {
        self.typed(form, field).unwrap_or_default().to_string()
    }

    /// The live channel's field `field`: as typed when refused, else as saved.
    fn typed_live(&self, field: &str) -> String {
        match self.typed("live", field) {
            Some(t) => t.to_string(),
            None if field == "seconds" => self.live.seconds.to_string(),
            None => self.live.delay.to_string(),
        }
    }

    /// Why `form` was refused, when it was.
    fn refusal(&self, form: &str) -> Option<&str> {
        (self.refused.as_ref())
            .filter(|r| r.form == form)
            .map(|r| r.message.as_str())
    }

    /// Whether `field` of `form` is the field at fault.
    fn wrong_at(&self, form: &str, field: &str) -> bool {
        self.refused
            .as_ref()
            .is_some_and(|r| r.form == form && r.field == Some(field))
    }
}

/// A deadline the organizer sent that would close submissions or freeze the ladder at
/// once: the form again, as typed, with what saving it does and a box to tick.
struct Confirm {
    deadline: String,
    freeze: bool,
    what: String,
}

/// A bot in the organizer's list: its name, its owner's and whether it is disabled.
#[derive(serde::Serialize)]
struct BotChoice {
    name: String,
    owner: String,
    disabled: bool,
}

/// How many bots the page lists for the organizer to pick from: the rest are found by
/// searching (`/admin/bots/find`).
const BOTS_LISTED: i64 = 300;
/// How many bots a search answers with, and the longest text it takes.
const BOTS_FOUND: i64 = 50;
const SEARCH_MAX_CHARS: usize = 64;

fn organizer(who: &LoggedIn) -> AppResult<()> {
    if who.user.is_admin {
        Ok(())
    } else {
        Err(AppError::Forbidden(
            "This page is for the competition's organizers.".into(),
        ))
    }
}

/// What the page shows beyond the state of things: an outcome, a deadline to confirm,
/// a refused form.
#[derive(Default)]
struct Shown {
    notice: Option<String>,
    error: Option<String>,
    confirm: Option<Confirm>,
    refused: Option<Refused>,
    tournament: Option<(
        crate::web::tournaments::TournamentForm,
        crate::tournaments::Pointed,
    )>,
}

async fn render(state: &AppState, who: &LoggedIn, shown: Shown) -> AppResult<Response> {
    let page = AdminPage {
        layout: who.layout(),
        status: ranker::status(&state.db).await?,
        tournament: crate::web::tournaments::FormPart::new(state, shown.tournament).await?,
        live: crate::live::channel(&state.db, state.config.live_delay).await?,
        bots: latest_bots(state).await?,
        notice: shown.notice,
        error: shown.error,
        confirm: shown.confirm,
        refused: shown.refused,
    };
    Ok(Html(page.render()?).into_response())
}

/// The page again with form `refused` as typed and what is wrong with it, answered
/// with `status` (no redirect: what was typed is in this answer only).
async fn refuse(
    state: &AppState,
    who: &LoggedIn,
    status: StatusCode,
    refused: Refused,
) -> AppResult<Response> {
    let shown = Shown {
        refused: Some(refused),
        ..Shown::default()
    };
    let mut resp = render(state, who, shown).await?;
    *resp.status_mut() = status;
    Ok(resp)
}

/// The page again with the tournament form as typed and why it was refused.
pub(crate) async fn tournament_refused(
    state: &AppState,
    who: &LoggedIn,
    status: StatusCode,
    typed: crate::web::tournaments::TournamentForm,
    wrong: crate::tournaments::Pointed,
) -> AppResult<Response> {
    let shown = Shown {
        tournament: Some((typed, wrong)),
        ..Shown::default()
    };
    let mut resp = render(state, who, shown).await?;
    *resp.status_mut() = status;
    Ok(resp)
}

/// The bots that played last (or were made last), for the organizer's list.
async fn latest_bots(state: &AppState) -> AppResult<Vec<BotChoice>> {
    Ok(sqlx::query_as!(
        BotChoice,
        "select b.name, u.name as owner, b.disabled from bots b \
         join users u on u.id = b.owner_id \
         order by coalesce(b.last_game_at, b.created_at) desc, b.id desc limit $1",
        BOTS_LISTED
    )
    .fetch_all(&state.db)
    .await?)
}

#[derive(Deserialize)]
struct FindQuery {
    #[serde(default)]
    q: String,
}

/// The bots whose name or owner's name holds the text, for the organizer's list when
/// the bot sought is not among the latest: at most [`BOTS_FOUND`], names that start
/// with it first.
async fn find_bots(
    State(state): State<AppState>,
    who: LoggedIn,
    Query(f): Query<FindQuery>,
) -> AppResult<Response> {
    organizer(&who)?;
    let q = f.q.trim();
    if q.chars().count() > SEARCH_MAX_CHARS {
        return Err(AppError::BadRequest(format!(
            "Search for at most {SEARCH_MAX_CHARS} characters."
        )));
    }
    // The text is looked for as typed: `%` and `_` are no wildcards.
    let pattern = q
        .replace('\\', "\\\\")
        .replace('%', "\\%")
        .replace('_', "\\_");
    let found = sqlx::query_as!(
        BotChoice,
        r#"select b.name, u.name as owner, b.disabled from bots b
           join users u on u.id = b.owner_id
           where b.name ilike '%' || $1 || '%' or u.name ilike '%' || $1 || '%'
           order by b.name not ilike $1 || '%', lower(b.name) limit $2"#,
        pattern,
        BOTS_FOUND
    )
    .fetch_all(&state.db)
    .await?;
    Ok(axum::Json(found).into_response())
}

async fn page(
    State(state): State<AppState>,
    who: LoggedIn,
    headers: HeaderMap,
) -> AppResult<Response> {
    organizer(&who)?;
    // The outcome of the action that redirected here, shown once.
    let flash = cookie_value(&headers, FLASH_COOKIE).and_then(|v| {
        let text = form_urlencoded::parse(format!("m={v}").as_bytes())
            .next()
            .map(|(_, m)| m.into_owned())?;
        let (kind, message) = text.split_once(':')?;
        Some((kind == "ok", message.to_string()))
    });
    let (notice, error) = match flash {
        Some((true, m)) => (Some(m), None),
        Some((false, m)) => (None, Some(m)),
        None => (None, None),
    };
    let shown = Shown {
        notice,
        error,
        ..Shown::default()
    };
    let mut resp = render(&state, &who, shown).await?;
    if cookie_value(&headers, FLASH_COOKIE).is_some() {
        resp.headers_mut().append(
            header::SET_COOKIE,
            flash_cookie(None, state.config.secure_cookies()),
        );
    }
    Ok(resp)
}

/// The cookie that carries an action's outcome across its redirect to `/admin`.
const FLASH_COOKIE: &str = "bb_admin_flash";

/// The flash cookie holding `outcome` for a minute, or removing it (`None`).
fn flash_cookie(outcome: Option<&Result<String, String>>, secure: bool) -> HeaderValue {
    let value = outcome.map(|o| {
        let text = match o {
            Ok(m) => format!("ok:{m}"),
            Err(m) => format!("error:{m}"),
        };
        // Cookies hold no spaces, commas or semicolons: percent-encode it all.
        form_urlencoded::byte_serialize(text.as_bytes()).collect::<String>()
    });
    let removing = value.is_none();
    let mut c = cookie::Cookie::build((FLASH_COOKIE, value.unwrap_or_default()))
        .path("/admin")
        .http_only(true)
        .same_site(cookie::SameSite::Strict)
        .secure(secure)
        .build();
    c.set_max_age(cookie::time::Duration::seconds(if removing {
        0
    } else {
        60
    }));
    HeaderValue::from_str(&c.to_string()).expect("cookie text is a valid header")
}

/// The outcome of a control: back to the page with a notice or an error.
pub(crate) async fn done(
    state: &AppState,
    who: &LoggedIn,
    outcome: Result<String, String>,
) -> AppResult<Response> {
    if let Ok(n) = &outcome {
        tracing::info!(organizer = %who.user.name, "{n}");
    }
    // Post/redirect/get: a refresh of the page that follows sends nothing again.
    let mut resp = Redirect::to("/admin").into_response();
    resp.headers_mut().append(
        header::SET_COOKIE,
        flash_cookie(Some(&outcome), state.config.secure_cookies()),
    );
    Ok(resp)
}

#[derive(Deserialize)]
struct RankerForm {
    action: String,
}

async fn ranker_control(
    State(state): State<AppState>,
    who: LoggedIn,
    Form(f): Form<RankerForm>,
) -> AppResult<Response> {
    organizer(&who)?;
    let paused = match f.action.as_str() {
        "pause" => true,
        "resume" => false,
        "challenges-on" | "challenges-off" => {
            let on = f.action == "challenges-on";
            ranker::set_challenges(&state.db, on).await?;
            let n = if on {
                "Challenges and A/B tests are on: contestants may ask for them, and their games play."
            } else {
                "Challenges and A/B tests are off: new ones are refused, and queued games wait."
            };
            return done(&state, &who, Ok(n.into())).await;
        }
        _ => return Ok(Redirect::to("/admin").into_response()),
    };
    ranker::set_paused(&state.db, paused).await?;
    let n = if paused {
        "The ranker is paused: no new matches start; running ones finish."
    } else {
        "The ranker runs again."
    };
    done(&state, &who, Ok(n.into())).await
}

/// The deadline field's length.
const DEADLINE_FIELD: usize = 40;

#[derive(Deserialize)]
struct ContestForm {
    action: String,
    #[serde(default)]
    deadline: String,
    freeze: Option<String>,
    /// The organizer's yes to a deadline that takes effect at once.
    confirm: Option<String>,
}

async fn contest_control(
    State(state): State<AppState>,
    who: LoggedIn,
    Form(f): Form<ContestForm>,
) -> AppResult<Response> {
    organizer(&who)?;
    let deadline = if f.action == "remove" {
        Ok(None)
    } else {
        crate::contest::parse_deadline(&f.deadline)
    };
    let deadline = match deadline {
        Ok(d) => d,
        Err(e) => {
            let refused = Refused::new("contest", Some("deadline"), e)
                .typed("deadline", &f.deadline, DEADLINE_FIELD)
                .typed("freeze", f.freeze.as_deref().unwrap_or(""), 2);
            return refuse(&state, &who, StatusCode::BAD_REQUEST, refused).await;
        }
    };
    let next = crate::contest::Contest {
        deadline,
        freeze: f.freeze.is_some(),
        paused: false,
    };
    let now = crate::contest::load(&state.db).await?;
    if let Some(what) = now.at_once(&next, time::OffsetDateTime::now_utc()) {
        if f.confirm.is_none() {
            return confirm_first(&state, &who, &f, what).await;
        }
    }
    crate::contest::set_deadline(&state.db, deadline).await?;
    crate::contest::set_freeze(&state.db, next.freeze).await?;
    state.contest.forget();
    let c = crate::contest::load(&state.db).await?;
    done(&state, &who, Ok(format!("Saved: {}.", c.describe()))).await
}

/// The deadline form sent back unsaved, as typed, saying what saving it does at once
/// and asking to tick the box that confirms it.
async fn confirm_first(
    state: &AppState,
    who: &LoggedIn,
    f: &ContestForm,
    what: String,
) -> AppResult<Response> {
    let confirm = Confirm {
        deadline: f.deadline.trim().chars().take(DEADLINE_FIELD).collect(),
        freeze: f.freeze.is_some(),
        what,
    };
    let shown = Shown {
        confirm: Some(confirm),
        ..Shown::default()
    };
    let mut resp = render(state, who, shown).await?;
    *resp.status_mut() = StatusCode::CONFLICT;
    Ok(resp)
}

#[derive(Deserialize)]
struct LiveForm {
    #[serde(default)]
    seconds: String,
    #[serde(default)]
    delay: String,
}

/// The live channel's pace and delay: the next game `/live` shows takes them.
async fn live_control(
    State(state): State<AppState>,
    who: LoggedIn,
    Form(f): Form<LiveForm>,
) -> AppResult<Response> {
    organizer(&who)?;
    let parsed = crate::live::parse_seconds(&f.seconds)
        .map_err(|e| ("seconds", e))
        .and_then(|seconds| {
            let delay = crate::live::parse_delay(&f.delay).map_err(|e| ("delay", e))?;
            Ok(crate::live::Channel { seconds, delay })
        });
    let c = match parsed {
        Ok(c) => c,
        Err((field, e)) => {
            let refused = Refused::new("live", Some(field), e)
                .typed("seconds", &f.seconds, NUMBER_FIELD)
                .typed("delay", &f.delay, NUMBER_FIELD);
            return refuse(&state, &who, StatusCode::BAD_REQUEST, refused).await;
        }
    };
    crate::live::set_channel(&state.db, c).await?;
    let n = format!(
        "The live channel plays each game over {} s, {} turns behind while it runs; from the next game on.",
        c.seconds, c.delay
    );
    done(&state, &who, Ok(n)).await
}

/// A number's field's length, as echoed.
const NUMBER_FIELD: usize = 20;
/// A reason's field's length (a match voided, a bot disabled).
const REASON_FIELD: usize = 200;
/// A bot's name field's length.
const BOT_FIELD: usize = 32;

#[derive(Deserialize)]
struct MatchForm {
    action: String,
    id: String,
    reason: Option<String>,
}

async fn match_control(
    State(state): State<AppState>,
    who: LoggedIn,
    Form(f): Form<MatchForm>,
) -> AppResult<Response> {
    organizer(&who)?;
    let typed_reason = f.reason.as_deref().unwrap_or("");
    let again = |status: StatusCode, field: Option<&'static str>, message: String| {
        let refused = Refused::new("matches", field, message)
            .typed("id", &f.id, NUMBER_FIELD)
            .typed("reason", typed_reason, REASON_FIELD);
        refuse(&state, &who, status, refused)
    };
    let Ok(id) =
        f.id.trim()
            .trim_start_matches('#')
            .parse::<crate::ids::MatchId>()
    else {
        let shown: String = f.id.trim().chars().take(NUMBER_FIELD).collect();
        return again(
            StatusCode::BAD_REQUEST,
            Some("id"),
            format!("`{shown}` is not a match number."),
        )
        .await;
    };
    let outcome = match f.action.as_str() {
        "requeue" => {
            if ranker::requeue(&state.db, id).await? {
                Ok(format!("Match {id} is back in the queue."))
            } else {
                Err(format!("Match {id} cannot be requeued: there is no such match, or it finished and counted."))
            }
        }
        "void" => {
            let reason = Some(typed_reason.trim())
                .filter(|r| !r.is_empty())
                .unwrap_or("voided by an organizer");
            let reason: String = reason.chars().take(REASON_FIELD).collect();
            if ranker::void(&state.db, id, &reason).await? {
                Ok(format!("Match {id} is void; it will never count."))
            } else {
                Err(format!("Match {id} cannot be voided: there is no such match, or it finished or is void already."))
            }
        }
        _ => Err("Unknown action.".into()),
    };
    match outcome {
        Ok(n) => done(&state, &who, Ok(n)).await,
        Err(e) => again(StatusCode::CONFLICT, Some("id"), e).await,
    }
}

#[derive(Deserialize)]
struct NameForm {
    action: String,
    name: String,
    /// Why a bot is disabled (bots only).
    #[serde(default)]
    reason: String,
}

async fn bot_control(
    State(state): State<AppState>,
    who: LoggedIn,
    Form(f): Form<NameForm>,
) -> AppResult<Response> {
    organizer(&who)?;
    let name = f.name.trim();
    let disable = f.action == "disable";
    let reason = disable.then_some(f.reason.as_str());
    if ranker::set_bot_disabled(&state.db, name, reason).await? {
        let n = if disable {
            format!("Bot `{name}` is out of the ladder; its queued matches are void.")
        } else {
            format!("Bot `{name}` is back in the ladder.")
        };
        return done(&state, &who, Ok(n)).await;
    }
    let shown: String = name.chars().take(BOT_FIELD).collect();
    let refused = Refused::new("bots", Some("name"), format!("There is no bot `{shown}`."))
        .typed("name", &f.name, BOT_FIELD)
        .typed("reason", &f.reason, REASON_FIELD);
    refuse(&state, &who, StatusCode::BAD_REQUEST, refused).await
}

async fn map_control(
    State(state): State<AppState>,
    who: LoggedIn,
    Form(f): Form<NameForm>,
) -> AppResult<Response> {
    organizer(&who)?;
    let enable = f.action == "enable";
    // The name crosses the redirect in a cookie: a few words of it.
    let shown: String = f.name.chars().take(64).collect();
    let outcome = if ranker::set_map_enabled(&state.db, &f.name, enable).await? {
        Ok(format!(
            "Map `{shown}` is {} matchmaking.",
            if enable { "back in" } else { "out of" }
        ))
    } else {
        Err(format!("There is no map `{shown}`."))
    };
    done(&state, &who, outcome).await
}
