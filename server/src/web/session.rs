//! Who is visiting: the session cookie, the CSRF token every form carries, and the
//! extractors handlers use (`Visitor`, `LoggedIn`).
//!
//! CSRF protection is one middleware for the whole site (double-submit): every visitor
//! gets a random `bb_csrf` cookie, every form carries the same value, and any request
//! that changes state must present it (form field `csrf`, or header `X-CSRF-Token`),
//! unless it authenticates with an API token. Tokens never go in a URL: an upload form
//! (multipart, up to megabytes) carries its token as its first field, which the
//! upload's reader checks before it reads any file ([`UploadToken`]).

use axum::body::Body;
use axum::extract::{FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Redirect, Response};
use cookie::{Cookie, SameSite};

use super::contest::Banner;
use super::error::AppError;
use super::{AppState, Layout};
use crate::accounts::session_user;
pub use crate::accounts::User;
use crate::tokens::{constant_time_eq, random_token};

pub const SESSION_COOKIE: &str = "bb_session";
pub const CSRF_COOKIE: &str = "bb_csrf";

/// The value of a cookie in the request.
pub fn cookie_value(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(Cookie::split_parse)
        .filter_map(Result::ok)
        .find(|c| c.name() == name)
        .map(|c| c.value().to_string())
}

/// A `Set-Cookie` header value; `None` removes the cookie.
pub fn set_cookie(
    name: &'static str,
    value: Option<String>,
    max_age_days: i64,
    secure: bool,
) -> HeaderValue {
    let removing = value.is_none();
    let mut c = Cookie::build((name, value.unwrap_or_default()))
        .path("/")
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(secure)
        .build();
    c.set_max_age(cookie::time::Duration::days(if removing {
        0
    } else {
        max_age_days
    }));
    HeaderValue::from_str(&c.to_string()).expect("cookie text is a valid header")
}

/// The CSRF token of this request (set by [`csrf_layer`]).
#[derive(Clone, Debug)]
pub struct CsrfToken(pub String);

/// On a browser's upload (multipart) that carried no token in a header: the token its
/// `csrf` field must hold, before any file (`None`: the visitor has no token yet, so
/// none can match). Checked by `web::bots::read_upload`; the layer lets only the upload
/// routes through this way.
#[derive(Clone, Debug)]
pub struct UploadToken(pub Option<String>);

impl UploadToken {
    /// Whether `sent` is the visitor's token.
    pub fn matches(&self, sent: &str) -> bool {
        self.0
            .as_deref()
            .is_some_and(|have| constant_time_eq(have, sent))
    }
}

/// The paths of the browser's upload forms, whose token is checked in the form.
fn is_upload_form(path: &str) -> bool {
    path == "/bots/new" || (path.starts_with("/bots/") && path.ends_with("/versions"))
}

/// What a state change without the visitor's token is told.
pub const FORGED: &str = "This form was not sent from this site, or your session changed. Go back, reload the page and try again.";

/// The refusal of a state change without the visitor's token.
pub fn forged() -> Response {
    AppError::Forbidden(FORGED.into()).into_response()
}

fn changes_state(m: &Method) -> bool {
    !matches!(*m, Method::GET | Method::HEAD | Method::OPTIONS)
}

/// The token of `Authorization: Bearer TOKEN` (the scheme in any case, RFC 9110).
pub fn bearer_token(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim())
        .filter(|t| !t.is_empty())
}

/// The account of the request's API token, checked by [`csrf_layer`]. A request with a
/// valid token is that account's alone: its cookies are dropped.
#[derive(Clone, Debug)]
pub struct ApiUser(pub User);

/// The JSON refusal of the API.
pub fn api_refusal(status: axum::http::StatusCode, message: &str) -> Response {
    (status, axum::Json(serde_json::json!({ "error": message }))).into_response()
}

/// What an API request without a token is told.
pub const SEND_A_TOKEN: &str = "Send an API token: `Authorization: Bearer TOKEN`.";

impl<S: Send + Sync> FromRequestParts<S> for ApiUser {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        parts
            .extensions
            .get::<ApiUser>()
            .cloned()
            .ok_or_else(|| api_refusal(axum::http::StatusCode::UNAUTHORIZED, SEND_A_TOKEN))
    }
}

impl<S: Send + Sync> axum::extract::OptionalFromRequestParts<S> for ApiUser {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Option<Self>, Self::Rejection> {
        Ok(parts.extensions.get::<ApiUser>().cloned())
    }
}

fn field(text: &str, name: &str) -> Option<String> {
    form_urlencoded::parse(text.as_bytes())
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.into_owned())
}

/// The middleware: gives every visitor a token and checks it on every state change.
/// The token goes on the request for the handlers, and on the response (refusals too)
/// for the error pages drawn on the way out.
///
/// A request with a valid API token needs no CSRF token (a page of another site cannot
/// send one): it becomes an [`ApiUser`] request and loses its cookies. An invalid token
/// is refused on the API, and counts for nothing elsewhere. A change through the API
/// needs a token.
pub async fn csrf_layer(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let existing = cookie_value(req.headers(), CSRF_COOKIE).filter(|t| t.len() == 64);
    let token = existing.clone().unwrap_or_else(random_token);
    let mut resp = match authenticated(&state, req, existing.as_deref()).await {
        Ok(mut req) => {
            req.extensions_mut().insert(CsrfToken(token.clone()));
            next.run(req).await
        }
        Err(refusal) => refusal,
    };
    resp.extensions_mut().insert(CsrfToken(token.clone()));
    if existing.is_none() {
        let secure = state.config.secure_cookies();
        resp.headers_mut().append(
            header::SET_COOKIE,
            set_cookie(CSRF_COOKIE, Some(token), 365, secure),
        );
    }
    resp
}

/// The request with its API account, if its token is valid; else checked for CSRF.
async fn authenticated(
    state: &AppState,
    mut req: Request,
    existing: Option<&str>,
) -> Result<Request, Response> {
    use axum::http::StatusCode;
    let api = req.uri().path().starts_with("/api/");
    if let Some(token) = bearer_token(req.headers()).map(str::to_string) {
        match crate::accounts::token_user(&state.db, &token).await {
            Ok(Some(user)) => {
                req.headers_mut().remove(header::COOKIE);
                req.extensions_mut().insert(ApiUser(user));
                return Ok(req);
            }
            Ok(None) if api => {
                return Err(api_refusal(
                    StatusCode::UNAUTHORIZED,
                    "Invalid API token: it was revoked, or mistyped. Make a new one on your profile page.",
                ))
            }
            Ok(None) => {}
            Err(e) => return Err(AppError::from(e).into_response()),
        }
    }
    // A game's own HTTP API (`super::poll`) takes a bot's key in its form instead.
    if api && super::poll::owns(req.uri().path()) {
        return Ok(req);
    }
    if api && changes_state(req.method()) {
        return Err(api_refusal(StatusCode::UNAUTHORIZED, SEND_A_TOKEN));
    }
    checked(req, existing).await
}

/// The request, if it changes nothing or carries the visitor's token (`existing`); a
/// refusal otherwise.
async fn checked(req: Request, existing: Option<&str>) -> Result<Request, Response> {
    if !changes_state(req.method()) {
        return Ok(req);
    }
    let from_header = req
        .headers()
        .get("x-csrf-token")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let content_type = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let is_form = content_type.starts_with("application/x-www-form-urlencoded");
    let is_upload = content_type.starts_with("multipart/form-data");
    let mut req = req;
    let mut sent = from_header;
    if sent.is_none() && is_upload && is_upload_form(req.uri().path()) {
        req.extensions_mut()
            .insert(UploadToken(existing.map(str::to_string)));
        return Ok(req);
    }
    if sent.is_none() && is_form {
        let (parts, body) = req.into_parts();
        let Ok(bytes) = axum::body::to_bytes(body, super::FORM_LIMIT).await else {
            return Err(super::error::error_page(
                axum::http::StatusCode::PAYLOAD_TOO_LARGE,
                "That form is larger than this site accepts.".into(),
            ));
        };
        sent = field(&String::from_utf8_lossy(&bytes), "csrf");
        req = Request::from_parts(parts, Body::from(bytes));
    }
    match (existing, sent) {
        (Some(have), Some(got)) if constant_time_eq(have, &got) => Ok(req),
        _ => Err(forged()),
    }
}

/// Anyone: the account if logged in, and the CSRF token for forms.
#[derive(Clone, Debug)]
pub struct Visitor {
    pub user: Option<User>,
    pub csrf: String,
    pub contest: Option<Banner>,
    /// This site's address for the commands a page shows ([`AppState::site_address`]).
    pub site: String,
    /// The game the page asked for (`?game=`), when it is open and not the default.
    pub game: Option<String>,
    /// The site's default game.
    pub default_game: String,
}

impl Visitor {
    pub fn layout(&self) -> Layout {
        Layout {
            user: self.user.clone(),
            csrf: self.csrf.clone(),
            contest: self.contest.clone(),
            game: self.game.clone(),
        }
    }

    /// [`Visitor::layout`] of a page of `game`'s (a bot's, a match's).
    pub fn layout_in(&self, game: &str) -> Layout {
        Layout {
            game: (game != self.default_game).then(|| game.to_string()),
            ..self.layout()
        }
    }
}

impl From<&LoggedIn> for Visitor {
    fn from(who: &LoggedIn) -> Visitor {
        Visitor {
            user: Some(who.user.clone()),
            csrf: who.csrf.clone(),
            contest: who.contest.clone(),
            site: who.site.clone(),
            game: who.game.clone(),
            default_game: who.default_game.clone(),
        }
    }
}

impl FromRequestParts<AppState> for Visitor {
    type Rejection = AppError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let csrf = parts
            .extensions
            .get::<CsrfToken>()
            .map(|t| t.0.clone())
            .unwrap_or_default();
        let user = match cookie_value(&parts.headers, SESSION_COOKIE) {
            Some(token) => session_user(&state.db, &token).await?,
            None => None,
        };
        let contest = Banner::of(&state.contest.get(&state.db).await?);
        let open = state.open_games.get(&state.db).await?;
        let default_game = crate::games::default_of(&open).to_string();
        #[derive(serde::Deserialize)]
        struct Asked {
            game: Option<String>,
        }
        let game = axum::extract::Query::<Asked>::try_from_uri(&parts.uri)
            .ok()
            .and_then(|q| q.0.game)
            .filter(|g| *g != default_game && open.contains(g));
        Ok(Visitor {
            user,
            csrf,
            contest,
            site: state.site_address(&parts.headers),
            game,
            default_game,
        })
    }
}

/// A logged-in visitor; others are sent to the login page and brought back after.
#[derive(Clone, Debug)]
pub struct LoggedIn {
    pub user: User,
    pub csrf: String,
    pub contest: Option<Banner>,
    pub site: String,
    pub game: Option<String>,
    pub default_game: String,
}

impl LoggedIn {
    pub fn layout(&self) -> Layout {
        Visitor::from(self).layout()
    }
}

impl FromRequestParts<AppState> for LoggedIn {
    type Rejection = Response;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let v = Visitor::from_request_parts(parts, state)
            .await
            .map_err(IntoResponse::into_response)?;
        match v.user {
            Some(user) => Ok(LoggedIn {
                user,
                csrf: v.csrf,
                contest: v.contest,
                site: v.site,
                game: v.game,
                default_game: v.default_game,
            }),
            None => {
                let next = parts
                    .uri
                    .path_and_query()
                    .map(|p| p.as_str())
                    .unwrap_or("/");
                let target = format!(
                    "/login?next={}",
                    form_urlencoded::byte_serialize(next.as_bytes()).collect::<String>()
                );
                Err(Redirect::to(&target).into_response())
            }
        }
    }
}
