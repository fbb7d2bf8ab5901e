//! The web app: one state, one router built from each area's `router()`, the CSRF and
//! security-header layers, the files of `static/`, and `serve`.

pub mod admin;
pub mod api;
pub mod auth;
pub mod bots;
pub mod byte_cache;
pub mod challenges;
pub mod contest;
pub mod downloads;
pub mod error;
pub mod format;
pub mod games;
pub mod guard;
pub mod gzipped;
pub mod ladder;
pub mod listener;
pub mod live;
pub mod live_feed;
pub mod ops;
pub mod pages;
pub mod poll;
pub mod profile;
pub mod remote;
pub mod rendered;
pub mod session;
pub mod tournaments;

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use sqlx::PgPool;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::trace::TraceLayer;

use crate::config::Config;
use crate::languages::Languages;
use session::User;

/// Everything handlers share, behind one `Arc`: every request clones the state a few
/// times (each layer and extractor that takes it), and one shared count costs less
/// than one per field (measured: 5% of the home page's CPU time with seven).
#[derive(Clone)]
pub struct AppState(Arc<Shared>);

/// What [`AppState`] holds.
pub struct Shared {
    /// The database pool.
    pub db: PgPool,
    /// The configuration in force.
    pub config: Arc<Config>,
    /// Limits on logins and registrations.
    pub guard: Arc<guard::Guard>,
    /// The languages bots may be written in.
    pub languages: Arc<Languages>,
    /// The leaderboard of the last second.
    pub leaderboard: ladder::LeaderboardCache,
    /// Games' logs printed lately, gzipped.
    pub game_logs: Arc<byte_cache::ByteCache>,
    /// Games' logs being sent, and being printed (`rendered`).
    pub log_bodies: Arc<guard::InFlight>,
    pub log_renders: Arc<tokio::sync::Semaphore>,
    /// The live streams open (`live.rs`) and the matches' feeds they share.
    pub live_feeds: Arc<live_feed::Feeds>,
    /// Tournaments' standings fitted lately.
    pub standings: tournaments::StandingsCache,
    /// The contest's phase, read every few seconds (every page shows it).
    pub contest: crate::contest::ContestCache,
    /// The open games, read every few seconds (forms and lists offer them).
    pub open_games: games::OpenGames,
    /// When `/metrics` last read the ladder's state.
    pub metrics_refreshed: crate::metrics::Refreshed,
    /// The leaderboard's places of a day ago, for the bot pages.
    pub day_ago_ranks: crate::standings::DayAgoRanks,
    /// The remote bots' sessions this server holds (`crate::remote`).
    pub remote: Arc<crate::remote::hub::Hub>,
    /// Limits on remote sessions' connection attempts.
    pub remote_attempts: remote::Attempts,
    /// Seats played through a game's own HTTP API (`poll`).
    pub polls: Arc<crate::remote::poll::Polls>,
}

impl std::ops::Deref for AppState {
    type Target = Shared;
    fn deref(&self) -> &Shared {
        &self.0
    }
}

impl AppState {
    pub fn new(db: PgPool, config: Config, languages: Languages) -> AppState {
        let hub = crate::remote::hub::Hub::new(
            db.clone(),
            config.remote.clone(),
            config.base_url.clone(),
        );
        AppState(Arc::new(Shared {
            db,
            guard: Arc::new(guard::Guard::new(config.registrations_per_hour)),
            config: Arc::new(config),
            languages: Arc::new(languages),
            leaderboard: ladder::LeaderboardCache::default(),
            game_logs: Arc::new(byte_cache::ByteCache::new(32 * 1024 * 1024)),
            log_bodies: guard::InFlight::new(
                rendered::BODIES_PER_ADDRESS,
                rendered::BODIES_AT_ONCE,
            ),
            log_renders: Arc::new(tokio::sync::Semaphore::new(rendered::RENDERS_AT_ONCE)),
            contest: crate::contest::ContestCache::default(),
            open_games: games::OpenGames::default(),
            standings: tournaments::StandingsCache::default(),
            live_feeds: Arc::default(),
            metrics_refreshed: crate::metrics::Refreshed::default(),
            day_ago_ranks: crate::standings::DayAgoRanks::default(),
            remote: Arc::new(hub),
            remote_attempts: remote::Attempts::default(),
            polls: Arc::default(),
        }))
    }
}

impl AppState {
    /// The client's address (see [`guard::client_ip`]).
    pub fn client_ip(
        &self,
        peer: std::net::IpAddr,
        headers: &axum::http::HeaderMap,
    ) -> std::net::IpAddr {
        guard::client_ip(peer, self.config.trusted_proxy, headers)
    }

    /// This site's address for the commands pages show (`curl …`): `base_url` when
    /// set, else the address the visitor asked for (`Host`, or `localhost:8000`).
    pub fn site_address(&self, headers: &axum::http::HeaderMap) -> String {
        if let Some(base) = &self.config.base_url {
            return base.trim_end_matches('/').to_string();
        }
        let host = (headers.get(axum::http::header::HOST))
            .and_then(|h| h.to_str().ok())
            .filter(|h| h.len() <= 255 && h.bytes().all(|b| b.is_ascii_graphic()))
            .unwrap_or("localhost:8000");
        format!("http://{host}")
    }
}

/// What the base template needs on every page.
#[derive(Clone, Debug, Default)]
pub struct Layout {
    pub user: Option<User>,
    pub csrf: String,
    /// The submission deadline's banner, when there is a deadline.
    pub contest: Option<contest::Banner>,
    /// The page's game, when it is not the site's default: the menu's links keep it.
    pub game: Option<String>,
}

impl Layout {
    /// What the menu's links to a game's pages add (`?game=vindinium`), or nothing.
    pub fn game_query(&self) -> String {
        self.game
            .as_deref()
            .map_or(String::new(), |g| format!("?game={g}"))
    }

    /// Whether the submission deadline has passed: upload forms are not shown.
    pub fn submissions_closed(&self) -> bool {
        (self.contest.as_ref())
            .and_then(|c| c.deadline.as_ref())
            .is_some_and(|d| d.closed)
    }
}

/// The `Content-Type` of a static file, from its extension. ES modules must be served
/// as JavaScript, or browsers refuse to run them.
fn content_type(path: &str) -> &'static str {
    match path.rsplit_once('.').map_or("", |(_, ext)| ext) {
        "css" => "text/css; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "json" => "application/json",
        _ => "application/octet-stream",
    }
}

async fn asset(axum::extract::Path(path): axum::extract::Path<String>) -> Response {
    match crate::embedded::find(crate::embedded::STATIC, &path) {
        Some(file) => (
            [
                (header::CONTENT_TYPE, content_type(file.path)),
                (header::CACHE_CONTROL, "public, max-age=3600"),
            ],
            file.bytes,
        )
            .into_response(),
        None => error::error_page(StatusCode::NOT_FOUND, "There is no such file.".into()),
    }
}

/// The 404 page.
async fn not_found() -> error::AppError {
    error::AppError::NotFound
}

/// Error pages are made where no request is at hand (an `AppError`, a refusal of
/// axum's or of the CSRF check) as a status and a message; this draws each once, with
/// the visitor's own header: their name and "Log out", or "Log in" and "Register", so a
/// refusal never looks like being logged out. Only refusals (4xx) pay for the session
/// lookup: a 5xx may come from the database itself, and gets the plain header.
async fn visitor_error_pages(
    State(state): State<AppState>,
    req: Request,
    next: middleware::Next,
) -> Response {
    let token = session::cookie_value(req.headers(), session::SESSION_COOKIE);
    let sent_csrf = session::cookie_value(req.headers(), session::CSRF_COOKIE);
    let mut response = next.run(req).await;
    let Some(error::ErrorMessage(message)) =
        response.extensions_mut().remove::<error::ErrorMessage>()
    else {
        return response;
    };
    // The CSRF layer's token; a refusal made outside it (an address with a NUL) has
    // the visitor's own cookie.
    let csrf = response
        .extensions()
        .get::<session::CsrfToken>()
        .map(|c| c.0.clone())
        .or(sent_csrf);
    // A refusal shows who is logged in; a server error (which may be the database's)
    // does not look them up.
    let user = match (token, &csrf, response.status().is_client_error()) {
        (Some(token), Some(_), true) => crate::accounts::session_user(&state.db, &token)
            .await
            .ok()
            .flatten(),
        _ => None,
    };
    let layout = Layout {
        user,
        csrf: csrf.unwrap_or_default(),
        contest: None,
        game: None,
    };
    let status = response.status();
    with_body_of(response, error::error_page_for(layout, status, message))
}

/// `response` (its status, headers and extensions: a cookie set, the CSRF token) with
/// the body and content type of `fresh`.
fn with_body_of(response: Response, fresh: Response) -> Response {
    let (mut parts, _) = response.into_parts();
    let (fresh, body) = fresh.into_parts();
    parts.headers.remove(header::CONTENT_LENGTH);
    if let Some(kind) = fresh.headers.get(header::CONTENT_TYPE) {
        parts.headers.insert(header::CONTENT_TYPE, kind.clone());
    }
    if let Some(message) = fresh.extensions.get::<error::ErrorMessage>() {
        parts.extensions.insert(message.clone());
    }
    Response::from_parts(parts, body)
}

/// Largest body of a form that is not an upload: no form field here needs more.
pub const FORM_LIMIT: usize = 16 * 1024;

/// The whole site.
pub fn app(state: AppState) -> Router {
    let headers = [
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::REFERRER_POLICY, "same-origin"),
        (
            header::CONTENT_SECURITY_POLICY,
            "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; \
             frame-ancestors 'none'; form-action 'self'",
        ),
    ];
    let mut router = Router::new()
        .merge(pages::router())
        .merge(downloads::router())
        .merge(auth::router())
        .merge(profile::router())
        .merge(admin::router())
        .merge(ladder::router())
        .merge(bots::router(state.config.max_upload_bytes))
        .merge(challenges::router())
        .merge(contest::router())
        .merge(games::router())
        .merge(tournaments::router())
        .merge(live::router())
        .merge(remote::router())
        .merge(poll::router())
        .route("/static/{*path}", get(asset))
        .merge(ops::router())
        .route_layer(middleware::from_fn(crate::metrics::track))
        .fallback(not_found)
        // Uploads set their own, larger limit on their routes, which wins.
        .layer(axum::extract::DefaultBodyLimit::max(FORM_LIMIT))
        .layer(middleware::from_fn_with_state(
            state.clone(),
            session::csrf_layer,
        ))
        .layer(middleware::from_fn(finish_answers))
        .layer(middleware::from_fn_with_state(
            state.clone(),
            visitor_error_pages,
        ));
    for (name, value) in headers {
        router = router.layer(SetResponseHeaderLayer::if_not_present(
            name,
            HeaderValue::from_static(value),
        ));
    }
    let request_timeout = state.config.request_timeout;
    router
        .layer(middleware::from_fn(run_to_completion))
        // Outside `run_to_completion`: a request past its time is answered at once,
        // and its handler still ends in its own task.
        .layer(tower_http::timeout::TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            request_timeout,
        ))
        .layer(TraceLayer::new_for_http().make_span_with(|req: &Request| {
            tracing::info_span!("http", method = %req.method(), path = %req.uri().path())
        }))
        .with_state(state)
}

/// What every answer goes through on its way out, in one layer (each `from_fn` layer
/// clones the service inside it for every request: three layers here cost the home
/// page a tenth of its CPU time):
///
/// - [`plain_refusal`]: axum's own refusals of a bad address or form made the site's;
///   a NUL character (`%00`), which no name or text here can hold (PostgreSQL refuses
///   it), refused before any handler sees it;
/// - [`api_json`]: every refusal on `/api/` JSON (but a game's own HTTP API's, in its
///   own words: [`poll`]);
/// - the API's reads and replay downloads open to pages of any origin: simple GETs,
///   which need no preflight, answers and refusals alike (a browser sends no
///   credentials with `*`).
async fn finish_answers(req: Request, next: middleware::Next) -> Response {
    let path = req.uri().path();
    let api = path.starts_with("/api/");
    let own_words = api && poll::owns(path);
    let open = matches!(*req.method(), Method::GET | Method::HEAD)
        && (api || path.ends_with("/replay.json"));
    let nul = req
        .uri()
        .path_and_query()
        .is_some_and(|pq| pq.as_str().contains("%00"));
    let mut response = if nul {
        unreadable(
            api,
            StatusCode::BAD_REQUEST,
            "the address holds a NUL character (%00)",
        )
    } else {
        let response = next.run(req).await;
        if own_words {
            response
        } else {
            plain_refusal(api, response).await
        }
    };
    // A game's own HTTP API answers in its own words (`poll`).
    if api && !own_words {
        response = api_json(response);
    }
    if open {
        response.headers_mut().insert(
            header::ACCESS_CONTROL_ALLOW_ORIGIN,
            HeaderValue::from_static("*"),
        );
    }
    response
}

fn content_type_is(response: &Response, prefix: &str) -> bool {
    response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with(prefix))
}

/// axum's extractors refuse a bad address or form (`/matches/abc`, `?cursor=x`) with a
/// bare line of text: this answers them as every other refusal, the site's error page
/// or the API's JSON error.
async fn plain_refusal(api: bool, response: Response) -> Response {
    if !(response.status().is_client_error() && content_type_is(&response, "text/plain")) {
        return response;
    }
    let status = response.status();
    let (parts, body) = response.into_parts();
    let body = axum::body::to_bytes(body, 4096).await.unwrap_or_default();
    let fresh = unreadable(api, status, String::from_utf8_lossy(&body).trim());
    with_body_of(
        Response::from_parts(parts, axum::body::Body::empty()),
        fresh,
    )
}

/// The refusal of a request that could not be read, for `said`.
fn unreadable(api: bool, status: StatusCode, said: &str) -> Response {
    let message = format!("The request could not be read: {said}.");
    if api {
        (status, axum::Json(serde_json::json!({ "error": message }))).into_response()
    } else {
        error::error_page(status, message)
    }
}

/// Every refusal on `/api/` is JSON, whoever made it (a handler, an extractor, the
/// CSRF check, the fallback, a method the route lacks): `{"error": message}`, with the
/// status and headers (`Allow`, say) it had.
fn api_json(response: Response) -> Response {
    let status = response.status();
    if content_type_is(&response, "application/json")
        || !(status.is_client_error() || status.is_server_error())
    {
        return response;
    }
    let message = response
        .extensions()
        .get::<error::ErrorMessage>()
        .map(|m| m.0.clone())
        .unwrap_or_else(|| match status {
            StatusCode::NOT_FOUND => "There is nothing at this address.".to_string(),
            StatusCode::METHOD_NOT_ALLOWED => "This address does not take that method.".to_string(),
            _ => status.canonical_reason().unwrap_or("error").to_string(),
        });
    let (mut parts, body) = response.into_parts();
    parts.extensions.remove::<error::ErrorMessage>();
    with_body_of(
        Response::from_parts(parts, body),
        session::api_refusal(status, &message),
    )
}

/// Runs each request in a task of its own, to its end even when the client goes away.
/// A handler dropped halfway could otherwise leave a pooled connection inside a
/// transaction that never ends: sqlx 0.9 queues no rollback when `begin()` itself is
/// cancelled, so every later statement on that connection (a worker's or builder's
/// writes too) would run in it, uncommitted and holding its locks. Seen under load on
/// the bot page (`bench/pages.sh`), whose versions are read in a transaction.
async fn run_to_completion(req: Request, next: middleware::Next) -> Response {
    use tracing::Instrument;
    match tokio::spawn(next.run(req).in_current_span()).await {
        Ok(response) => response,
        Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
        Err(_) => StatusCode::SERVICE_UNAVAILABLE.into_response(),
    }
}

/// Serves the site until `shutdown` resolves, then finishes the requests in flight,
/// with the connection limits of the configuration.
pub async fn serve(
    state: AppState,
    listener: tokio::net::TcpListener,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let limits = listener::Limits {
        max_connections: state.config.max_connections,
        max_connections_per_address: state.config.max_connections_per_address,
        trusted_proxy: state.config.trusted_proxy,
        header_timeout: state.config.header_timeout,
        idle_timeout: state.config.idle_timeout,
    };
    listener::serve(app(state), listener, limits, shutdown).await
}
