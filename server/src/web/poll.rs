//! A game's own HTTP API (`game_interface::HttpApi`), as its clients know it: Vindinium's
//! 2014 API, `POST /api/training`, `POST /api/arena` and `POST /api/{game}/{token}/play`
//! (docs/remote.md, "Playing over HTTP"). The paths are the original's; a key tells
//! the bot, and the bot's game whose words and JSON the answers are. Every game is
//! played on a remote seat read by request (`crate::remote::poll`).
//!
//! What a hostile client meets: the key checks of `bottlebats connect` (attempts
//! limited per address and per key before a key is looked up; one game at a time per
//! bot; the site's `remote` setting and caps), bodies of at most [`MAX_BODY`] bytes,
//! one request in flight per seat, every wait shorter than the site's request timeout,
//! and a token of 256 random bits per seat.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::{ConnectInfo, Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::Router;
use game_interface::{Addresses, GameKind, HttpApi};

use super::AppState;
use crate::ids::{MapId, MatchId};
use crate::remote::hub::Want;
use crate::remote::play::Prefs;
use crate::remote::poll::{PollSeat, Refusal, Reply};
use crate::remote::{keys, Mode};

/// The most bytes of a request's body (a key, a few numbers, a direction).
pub const MAX_BODY: usize = 4 * 1024;
/// Generated maps a practice game draws from, per game (each kept, out of the ladder).
const GENERATED: u64 = 1000;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/training", post(training))
        .route("/api/arena", post(arena))
        .route("/api/{game}/{token}/play", post(play))
}

/// Whether `path` is one of this API's, which answer in the API's own words (text, not
/// the site's JSON refusals) and take a key, not an API token.
pub fn owns(path: &str) -> bool {
    if path == "/api/training" || path == "/api/arena" {
        return true;
    }
    let parts: Vec<&str> = path.split('/').collect();
    matches!(parts.as_slice(), ["", "api", _, _, "play"])
}

/// The API the site speaks before a key says which game (the first registered game's
/// that has one), for a request whose `body` is within [`MAX_BODY`]; else the answer.
fn site_api(body: &[u8]) -> Result<&'static dyn HttpApi, Box<Response>> {
    let registry = crate::games::registry();
    let Some(site) = (registry.names().into_iter())
        .filter_map(|n| registry.get(n))
        .find_map(GameKind::http_api)
    else {
        return Err(Box::new(StatusCode::NOT_FOUND.into_response()));
    };
    if body.len() > MAX_BODY {
        let too_large = "The request is too large.";
        return Err(Box::new(refuse(
            site,
            StatusCode::PAYLOAD_TOO_LARGE,
            too_large,
        )));
    }
    Ok(site)
}

/// A refusal in the API's words: a short text body, as its clients read it.
fn refuse(api: &dyn HttpApi, status: StatusCode, text: &str) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        api.refusal(text),
    )
        .into_response()
}

/// The request's fields: its query's, then its body's (form-encoded, or a JSON object
/// of strings and numbers).
fn fields(uri: &axum::http::Uri, headers: &HeaderMap, body: &[u8]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> =
        form_urlencoded::parse(uri.query().unwrap_or("").as_bytes())
            .map(|(k, v)| (k.into_owned(), v.into_owned()))
            .collect();
    let json = (headers.get(header::CONTENT_TYPE))
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with("application/json"));
    if json {
        if let Ok(serde_json::Value::Object(o)) = serde_json::from_slice(body) {
            for (k, v) in o {
                let v = match v {
                    serde_json::Value::String(s) => s,
                    serde_json::Value::Number(n) => n.to_string(),
                    _ => continue,
                };
                out.push((k, v));
            }
        }
    } else {
        out.extend(form_urlencoded::parse(body).map(|(k, v)| (k.into_owned(), v.into_owned())));
    }
    out
}

fn field<'a>(fields: &'a [(String, String)], name: &str) -> Option<&'a str> {
    (fields.iter().rev())
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
        .filter(|v| !v.is_empty())
}

/// How long a request may wait for its answer: well within the site's request time.
fn wait_of(state: &AppState) -> Duration {
    let limit = state.config.request_timeout;
    limit
        .saturating_sub(Duration::from_secs(5))
        .max(Duration::from_secs(1))
}

/// `POST /api/training`: `key`, optional `turns` and `map`; a practice game against
/// house bots, answered with the first state.
async fn training(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    uri: axum::http::Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    start(state, peer, uri, headers, body, Want::Practice).await
}

/// `POST /api/arena`: `key`; a rated game on the bot's ladder, the other seats hosted
/// bots near its rating, answered with the first state.
async fn arena(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    uri: axum::http::Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    start(state, peer, uri, headers, body, Want::Ladder).await
}

async fn start(
    state: AppState,
    peer: SocketAddr,
    uri: axum::http::Uri,
    headers: HeaderMap,
    body: Bytes,
    want: Want,
) -> Response {
    let site = match site_api(&body) {
        Ok(site) => site,
        Err(refused) => return *refused,
    };
    let texts = site.refusals();
    let ip = state.client_ip(peer.ip(), &headers);
    if let Err(wait) = state.remote_attempts.address(ip) {
        return slow_down(site, wait, "from your address");
    }
    let fields = fields(&uri, &headers, &body);
    let Some(key) = field(&fields, "key") else {
        return refuse(site, StatusCode::BAD_REQUEST, texts.no_key);
    };
    if let Err(wait) = state.remote_attempts.key(key) {
        return slow_down(site, wait, "with this key");
    }
    let bot = match keys::bot_of(&state.db, key).await {
        Ok(Some(bot)) => bot,
        Ok(None) => return refuse(site, StatusCode::BAD_REQUEST, texts.unknown_key),
        Err(e) => return internal(site, &e.into()),
    };
    let Ok(kind) = crate::games::kind(&bot.game) else {
        return refuse(site, StatusCode::BAD_REQUEST, texts.unknown_key);
    };
    let Some(api) = kind.http_api() else {
        return refuse(
            site,
            StatusCode::BAD_REQUEST,
            &format!(
                "`{}` plays {}, which has no HTTP API: play it with `bottlebats connect` (docs/remote.md).",
                bot.name,
                kind.title()
            ),
        );
    };
    match gate(&state, &bot.game, want).await {
        Ok(Ok(())) => {}
        Ok(Err(text)) => return refuse(api, StatusCode::FORBIDDEN, &text),
        Err(e) => return internal(api, &e),
    }
    let prefs = match prefs(&state, kind, api, &fields, want).await {
        Ok(Ok(p)) => p,
        Ok(Err(text)) => return refuse(api, StatusCode::BAD_REQUEST, &text),
        Err(e) => return internal(api, &e),
    };
    let started = state
        .polls
        .start(&state.remote, (bot, key), want, prefs, wait_of(&state))
        .await;
    let (seat, reply) = match started {
        Ok(Ok(s)) => s,
        Ok(Err(refused)) => {
            let status = StatusCode::from_u16(refused.status).unwrap_or(StatusCode::FORBIDDEN);
            return refuse(api, status, &refused.message);
        }
        Err(e) => return internal(api, &e),
    };
    answer(&state, &headers, api, &seat, reply)
}

/// The site lets this game be played this way now: its `remote` setting, the game open.
async fn gate(state: &AppState, game: &str, want: Want) -> anyhow::Result<Result<(), String>> {
    let mode = crate::remote::site_mode(&state.db).await?;
    if mode == Mode::Off {
        return Ok(Err("This site takes no remote bots now.".into()));
    }
    if mode == Mode::Practice && want == Want::Ladder {
        return Ok(Err(
            "This site lets remote bots play practice games only: use /api/training.".into(),
        ));
    }
    if !crate::games::open(&state.db)
        .await?
        .iter()
        .any(|g| g == game)
    {
        return Ok(Err(format!(
            "{} is closed on this site now.",
            crate::games::kind(game)?.title()
        )));
    }
    Ok(Ok(()))
}

/// A practice game's map (`map`: any map of the game by name, in the ladder or not;
/// without it one generated) and turns (`turns`); nothing for a ladder game, whose map
/// and turns are the ladder's.
async fn prefs(
    state: &AppState,
    kind: &dyn GameKind,
    api: &dyn HttpApi,
    fields: &[(String, String)],
    want: Want,
) -> anyhow::Result<Result<Prefs, String>> {
    if want == Want::Ladder {
        return Ok(Ok(Prefs::default()));
    }
    let max_turns = match field(fields, "turns") {
        None => None,
        Some(t) => match t.trim().parse::<i64>() {
            Ok(n) => Some(api.practice_turns(n.clamp(1, u32::MAX as i64) as u32)),
            Err(_) => return Ok(Err(format!("`turns` is a number, not `{t}`."))),
        },
    };
    let game = kind.name();
    let map = match field(fields, "map") {
        Some(name) => {
            let found = sqlx::query_scalar!(
                r#"select id as "id: MapId" from maps where game = $1 and name = $2"#,
                game,
                name
            )
            .fetch_optional(&state.db)
            .await?;
            match found {
                Some(id) => id,
                None => {
                    let names = sqlx::query_scalar!(
                        "select name from maps where game = $1 and enabled order by name limit 20",
                        game
                    )
                    .fetch_all(&state.db)
                    .await?;
                    return Ok(Err(format!(
                        "Unknown map `{}`: this site's are {}.",
                        name.chars().take(64).collect::<String>(),
                        names.join(", ")
                    )));
                }
            }
        }
        None => generated_map(state, kind).await?,
    };
    Ok(Ok(Prefs {
        map: Some(map),
        max_turns,
        polled: true,
    }))
}

/// One of the game's generated maps, at random among [`GENERATED`]: made once, kept
/// out of the ladder.
async fn generated_map(state: &AppState, kind: &dyn GameKind) -> anyhow::Result<MapId> {
    let seed = rand::RngCore::next_u64(&mut rand::rngs::OsRng) % GENERATED;
    let game = kind.name();
    let name = format!("{game}-generated-{seed}");
    if let Some(id) = sqlx::query_scalar!(
        r#"select id as "id: MapId" from maps where name = $1 and game = $2"#,
        name,
        game
    )
    .fetch_optional(&state.db)
    .await?
    {
        return Ok(id);
    }
    let seats = kind.defaults().seats.1;
    let text = kind.generate(seed, seats)?;
    let info = (kind.map_info(&text)).map_err(|e| anyhow::anyhow!("a generated map: {e}"))?;
    sqlx::query!(
        "insert into maps (game, name, text, seats, info, enabled) \
         values ($1, $2, $3, $4, $5::text::jsonb, false) on conflict (name) do nothing",
        game,
        name,
        text,
        info.seats as i32,
        crate::worker::stats_json(&info.numbers)
    )
    .execute(&state.db)
    .await?;
    Ok(sqlx::query_scalar!(
        r#"select id as "id: MapId" from maps where name = $1"#,
        name
    )
    .fetch_one(&state.db)
    .await?)
}

/// `POST /api/{game}/{token}/play`: `dir`; the seat's move, answered with its next
/// state (or the last one).
async fn play(
    State(state): State<AppState>,
    Path((game, token)): Path<(String, String)>,
    uri: axum::http::Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let site = match site_api(&body) {
        Ok(site) => site,
        Err(refused) => return *refused,
    };
    let texts = site.refusals();
    let id = game.parse::<i64>().ok().map(MatchId);
    let seat = state.polls.seat(&token).filter(|s| Some(s.match_id) == id);
    let Some(seat) = seat else {
        let known = id.is_some_and(|id| state.polls.has_match(id));
        if known {
            return refuse(site, StatusCode::NOT_FOUND, texts.unknown_token);
        }
        let name: String = game.chars().take(64).collect();
        return refuse(
            site,
            StatusCode::NOT_FOUND,
            &format!("{} {name}", texts.unknown_game),
        );
    };
    let api = match crate::games::kind(&seat.game) {
        Ok(kind) => kind.http_api().unwrap_or(site),
        Err(_) => site,
    };
    let fields = fields(&uri, &headers, &body);
    let Some(reply) = api.reply(&fields) else {
        return (
            StatusCode::BAD_REQUEST,
            [(header::CONTENT_TYPE, "text/plain")],
            "",
        )
            .into_response();
    };
    let got = seat.play(reply, wait_of(&state)).await;
    answer(&state, &headers, api, &seat, got)
}

/// A reply as the API answers it.
fn answer(
    state: &AppState,
    headers: &HeaderMap,
    api: &dyn HttpApi,
    seat: &Arc<PollSeat>,
    reply: Reply,
) -> Response {
    let texts = api.refusals();
    let view = match reply {
        Reply::State(view) => view,
        Reply::Ended(ending) => ending.last_view.unwrap_or_default(),
        Reply::Refused(which) => {
            let text = match which {
                Refusal::NotYourTurn => texts.not_your_turn,
                Refusal::TimedOut => texts.timed_out,
                Refusal::Finished => texts.finished,
            };
            return refuse(api, StatusCode::BAD_REQUEST, text);
        }
        Reply::Slow(why) => {
            return refuse(
                api,
                StatusCode::SERVICE_UNAVAILABLE,
                &format!("{why}; post the move again to be answered."),
            )
        }
    };
    let site = state.site_address(headers);
    let id = seat.match_id.0.to_string();
    let at = Addresses {
        game_id: &id,
        token: &seat.token,
        view_url: &format!("{site}/matches/{id}"),
        play_url: &format!("{site}/api/{id}/{}/play", seat.token),
    };
    match api.answer(&view, &at) {
        Ok(body) => (
            StatusCode::OK,
            [(header::CONTENT_TYPE, "application/json")],
            body,
        )
            .into_response(),
        Err(e) => internal(api, &anyhow::anyhow!(e)),
    }
}

fn internal(api: &dyn HttpApi, e: &anyhow::Error) -> Response {
    tracing::warn!("HTTP API: {e:#}");
    refuse(
        api,
        StatusCode::INTERNAL_SERVER_ERROR,
        "A problem of the server; try again later.",
    )
}

fn slow_down(api: &dyn HttpApi, wait: Duration, what: &str) -> Response {
    let seconds = wait.as_secs().max(1);
    let mut r = refuse(
        api,
        StatusCode::TOO_MANY_REQUESTS,
        &format!("Too many games started {what}; try again in {seconds} s."),
    );
    if let Ok(v) = axum::http::HeaderValue::from_str(&seconds.to_string()) {
        r.headers_mut().insert(header::RETRY_AFTER, v);
    }
    r
}
