//! One match: its page (the result, the replay in the viewer, and for each owner the
//! stderr of their bots), the replay and the classic log to download, and its JSON.

use askama::Template;
use std::net::SocketAddr;

use axum::body::Body;
use axum::extract::{ConnectInfo, Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::Json;
use serde_json::json;
use time::OffsetDateTime;

use crate::challenges::Kind;
use crate::compress::{gunzip, gzip};
use crate::ids::{ChallengeId, MatchId, TournamentId, UserId};
use crate::status::{MatchStatus, Outcome};
use crate::web::api::{ApiError, ApiResult};
use crate::web::error::{AppError, AppResult};
use crate::web::format::{round2, when};
use crate::web::gzipped;
use crate::web::session::Visitor;
use crate::web::{AppState, Layout};

struct MatchInfo {
    id: MatchId,
    status: MatchStatus,
    void_reason: Option<String>,
    map: String,
    game: String,
    turns: Option<i32>,
    seconds: Option<f64>,
    finished_at: Option<OffsetDateTime>,
    created_at: OffsetDateTime,
    /// The challenge or A/B test it was played for: unranked.
    challenge: Option<ChallengeId>,
    kind: Option<Kind>,
    /// The tournament it was played in: unranked.
    tournament: Option<TournamentId>,
    /// Whether it rated its players, and whether it was a remote bot's practice game.
    ranked: bool,
    practice: bool,
}

/// A seat of a match, as its page shows it.
pub struct SeatRow {
    pub seat: i32,
    pub bot: String,
    /// Its name in the game: the bot's, or `strong-2` for a bot a challenge seated
    /// again ([`crate::games::seat_names`]).
    pub player: String,
    pub owner_id: UserId,
    pub version: i32,
    pub rank: Option<i32>,
    pub outcome: Option<Outcome>,
    /// The game's statistics of the seat, `[[name, value], ...]`, once finished.
    pub stats: Option<serde_json::Value>,
    pub warnings: Option<i32>,
    pub timeouts: Option<i32>,
    pub error: Option<String>,
    pub cpu_ms: Option<i64>,
    pub mu_before: Option<f64>,
    pub mu_after: Option<f64>,
    /// Its bot plays from its owner's machine (`crate::remote`).
    pub remote: bool,
    /// Its reply times: `{"moves", "median_ms", "p90_ms", "max_ms"}`, once finished.
    pub reply_ms: Option<serde_json::Value>,
    /// Its stderr was kept: not by a seat played over a game's HTTP API, which carries
    /// none (`crate::remote::play`).
    pub stderr_kept: bool,
}

impl SeatRow {
    /// The statistic called `name`, once finished.
    pub fn stat(&self, name: &str) -> Option<i64> {
        let all = crate::games::numbers(self.stats.as_ref()?);
        all.into_iter().find(|(n, _)| n == name).map(|(_, x)| x)
    }

    /// "win", "draw", "loss", or "" before the result.
    pub fn outcome_name(&self) -> &'static str {
        self.outcome.map_or("", Outcome::as_str)
    }

    /// Its reply times as the page shows them: `median 12 ms, max 40 ms`.
    pub fn reply_times(&self) -> String {
        let Some(r) = &self.reply_ms else {
            return String::new();
        };
        match (r["median_ms"].as_u64(), r["max_ms"].as_u64()) {
            (Some(median), Some(max)) => format!("{median} / {max} ms"),
            _ => String::new(),
        }
    }
}

async fn match_info(state: &AppState, id: MatchId) -> AppResult<(MatchInfo, Vec<SeatRow>)> {
    let m = sqlx::query_as!(
        MatchInfo,
        r#"select m.id as "id: MatchId", m.status as "status: MatchStatus", m.void_reason,
               maps.name as map, m.game, m.turns,
               extract(epoch from m.finished_at - m.started_at)::float8 as seconds,
               m.finished_at, m.created_at, m.challenge_id as "challenge: ChallengeId",
               c.kind as "kind?: Kind", m.tournament_id as "tournament: TournamentId",
               m.ranked as "ranked!", m.practice
           from matches m join maps on maps.id = m.map_id
           left join challenges c on c.id = m.challenge_id where m.id = $1"#,
        id as MatchId
    )
    .fetch_optional(&state.db)
    .await?
    .ok_or(AppError::NotFound)?;
    let seats = sqlx::query_as!(
        SeatRow,
        r#"select p.seat, b.name as bot, b.name as player, b.owner_id as "owner_id: UserId", v.number as version,
               p.rank, p.outcome as "outcome: Outcome", p.stats, p.warnings,
               p.timeouts, p.error, p.cpu_ms, p.mu_before, p.mu_after, b.remote, p.reply_ms,
               p.stderr is not null as "stderr_kept!"
           from match_players p join bots b on b.id = p.bot_id
           join bot_versions v on v.id = p.version_id
           where p.match_id = $1 order by p.rank nulls last, p.seat"#,
        id as MatchId
    )
    .fetch_all(&state.db)
    .await?;
    Ok((m, with_players(seats)))
}

/// The seats with their names in the game, which a bot seated twice does not share.
fn with_players(mut seats: Vec<SeatRow>) -> Vec<SeatRow> {
    let players: Vec<(i32, &str)> = seats.iter().map(|s| (s.seat, s.bot.as_str())).collect();
    let names = crate::games::seat_names_of(&players);
    for (s, name) in seats.iter_mut().zip(names) {
        s.player = name;
    }
    seats
}

#[derive(Template)]
#[template(path = "ladder/match.html")]
struct MatchPage {
    layout: Layout,
    id: MatchId,
    status: MatchStatus,
    void_reason: Option<String>,
    map: String,
    turns: String,
    duration: String,
    when: String,
    seats: Vec<SeatRow>,
    /// Its game, and the names of the game's statistics, a column each.
    game: String,
    stat_names: &'static [&'static str],
    /// What its game calls its log (`Classic log (2016)`).
    log_title: &'static str,
    /// Its game's title, and what the game calls turns (`moves`).
    game_title: &'static str,
    turn_words: &'static str,
    /// The page of the challenge or tournament it was played for, when unranked, and
    /// what played it for.
    unranked: Option<(String, &'static str)>,
    /// Seats whose stderr the visitor may read.
    /// The visitor's seats: (seat, its name in the game, its stderr kept).
    own_seats: Vec<(i32, String, bool)>,
}

pub async fn page(
    State(state): State<AppState>,
    visitor: Visitor,
    Path(id): Path<MatchId>,
) -> AppResult<Html<String>> {
    let (m, seats) = match_info(&state, id).await?;
    let me = visitor.user.as_ref().map(|u| u.id);
    let own_seats = seats
        .iter()
        .filter(|s| Some(s.owner_id) == me && m.status == MatchStatus::Finished)
        // Named as in the game: a bot seated twice has two panels, told apart.
        .map(|s| (s.seat, s.player.clone(), s.stderr_kept))
        .collect();
    let page = MatchPage {
        layout: visitor.layout_in(&m.game),
        id: m.id,
        void_reason: m.void_reason,
        map: m.map,
        turns: m.turns.map_or_else(String::new, |t| t.to_string()),
        duration: m.seconds.map_or_else(String::new, |s| format!("{s:.1} s")),
        when: when(m.finished_at.unwrap_or(m.created_at)),
        status: m.status,
        seats,
        stat_names: crate::games::content(&m.game)?.stat_names(),
        log_title: crate::games::kind(&m.game)?.describe().log.title,
        game_title: crate::games::kind(&m.game)?.title(),
        turn_words: crate::games::kind(&m.game)?.describe().turn.many,
        game: m.game,
        unranked: m
            .challenge
            .zip(m.kind)
            .map(|(id, kind)| {
                (
                    crate::web::challenges::url_of(kind, id),
                    "Played for a challenge",
                )
            })
            .or(m
                .tournament
                .map(|t| (crate::web::tournaments::url_of(t), "Played in a tournament")))
            .or(m.practice.then(|| {
                (
                    "/getting-started#remote".to_string(),
                    "A remote bot's practice game",
                )
            })),
        own_seats,
    };
    Ok(Html(page.render()?))
}

async fn replay_bytes(state: &AppState, id: MatchId) -> AppResult<Vec<u8>> {
    sqlx::query_scalar!("select replay from matches where id = $1", id as MatchId)
        .fetch_optional(&state.db)
        .await?
        .flatten()
        .ok_or(AppError::NotFound)
}

/// The replay (v2, or v1 for matches played before it), served as it is stored:
/// gzipped, for browsers to inflate.
pub async fn replay_file(
    State(state): State<AppState>,
    Path(id): Path<MatchId>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let bytes = replay_bytes(&state, id).await?;
    let kept = [
        (header::CONTENT_TYPE, "application/json".to_string()),
        (header::CACHE_CONTROL, "public, max-age=86400".to_string()),
    ];
    Ok(gzipped::respond(&headers, bytes, &kept)?)
}

/// The game's log (Bottle Bats: the classic log of the 2016 visualizer; Vindinium: its
/// GAME objects), printed from the replay by the match's game, a state at a time, and
/// sent as it is printed (`web::rendered`), gzipped to clients that take gzip. Renders
/// under way are few, per address and on the site; a gzipped log of a usual game is
/// kept in a small cache once printed.
pub async fn game_log(
    State(state): State<AppState>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    Path(id): Path<MatchId>,
    headers: HeaderMap,
) -> AppResult<Response> {
    let game: String = sqlx::query_scalar!("select game from matches where id = $1", id as MatchId)
        .fetch_optional(&state.db)
        .await?
        .ok_or(AppError::NotFound)?;
    let kind = crate::games::kind(&game)?;
    let takes_gzip = gzipped::accepts_gzip(&headers);
    let answer = |body: Body| {
        let mut response = body.into_response();
        let h = response.headers_mut();
        let file = format!(
            "attachment; filename=\"match-{id}.{}\"",
            kind.describe().log.extension
        );
        h.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/plain; charset=utf-8"),
        );
        if let Ok(v) = HeaderValue::from_str(&file) {
            h.insert(header::CONTENT_DISPOSITION, v);
        }
        if takes_gzip {
            h.insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
        }
        h.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
        response
    };
    let cached = state.game_logs.get(id.0);
    if let Some(held) = cached.clone().filter(|_| takes_gzip) {
        return Ok(answer(crate::web::downloads::shared(held)));
    }
    let ip = state.client_ip(addr.ip(), &headers);
    let body = state.log_bodies.take(ip.into()).map_err(|busy| {
        let (status, why) = busy.refusal("downloads of logs");
        AppError::Status(status, why)
    })?;
    let render = (state.log_renders.clone().try_acquire_owned()).map_err(|_| {
        let (status, why) = crate::web::guard::Busy::Site.refusal("logs being printed");
        AppError::Status(status, why)
    })?;
    if let Some(held) = cached {
        // Printed before: inflated as it is sent, to a client that takes no gzip.
        let body = crate::web::rendered::stream("log", (body, render), false, None, move |out| {
            std::io::copy(&mut flate2::read::GzDecoder::new(&held[..]), out).map(drop)
        })
        .map_err(|e| AppError::Internal(e.into()))?;
        return Ok(answer(body));
    }
    let replay = replay_bytes(&state, id).await?;
    let keep = crate::web::rendered::Keep {
        cache: state.game_logs.clone(),
        key: id.0,
    };
    let body =
        crate::web::rendered::stream("log", (body, render), takes_gzip, Some(keep), move |out| {
            let json = gunzip(&replay)?;
            let json = std::str::from_utf8(&json)
                .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))?;
            kind.write_log(json, out)
        })
        .map_err(|e| AppError::Internal(e.into()))?;
    Ok(answer(body))
}

/// The most of a whole game's stderr one download unpacks: a match's stderr is kept
/// within the runner's caps, so only a row that is not what the worker wrote reaches it.
pub const STDERR_TEXT_MAX: u64 = 16 * 1024 * 1024;

/// A bot's stderr in a match: `/matches/N/stderr/SEAT`, per turn as JSON (the match
/// page follows the replay with it), or `/matches/N/stderr/SEAT.txt`, the whole game
/// as text to download. Only for the bot's owner.
pub async fn stderr(
    State(state): State<AppState>,
    visitor: Visitor,
    Path((id, seat)): Path<(MatchId, String)>,
) -> ApiResult<Response> {
    let (seat, text) = match seat.strip_suffix(".txt") {
        Some(n) => (n, true),
        None => (seat.as_str(), false),
    };
    let seat: i32 = seat.parse().map_err(|_| AppError::NotFound)?;
    let row = sqlx::query!(
        r#"select b.owner_id as "owner: UserId", b.name, p.stderr from match_players p
           join bots b on b.id = p.bot_id where p.match_id = $1 and p.seat = $2"#,
        id as MatchId,
        seat
    )
    .fetch_optional(&state.db)
    .await?
    .ok_or(AppError::NotFound)?;
    match visitor.user {
        Some(u) if u.id == row.owner => {}
        Some(_) => {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "Only the bot's owner can read its stderr.",
            ))
        }
        None => return Err(AppError::Unauthorized.into()),
    }
    let gz = row.stderr.unwrap_or_else(|| gzip(b"[]"));
    if text {
        return Ok(stderr_text(id, &row.name, &gz)?);
    }
    Ok((
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CONTENT_ENCODING, "gzip"),
            (header::CACHE_CONTROL, "private, no-store"),
        ],
        gz,
    )
        .into_response())
}

/// A seat's stored stderr (`[turn, text]` pairs, gzipped) as one text, each turn's
/// part under a line that names the turn, to download.
fn stderr_text(id: MatchId, bot: &str, gz: &[u8]) -> AppResult<Response> {
    use std::io::Read;
    let mut json = Vec::new();
    flate2::read::GzDecoder::new(gz)
        .take(STDERR_TEXT_MAX)
        .read_to_end(&mut json)
        .map_err(|e| AppError::Internal(e.into()))?;
    let turns: Vec<(u32, String)> =
        serde_json::from_slice(&json).map_err(|e| AppError::Internal(e.into()))?;
    let mut out = format!("stderr of {bot} in match {id}\n");
    if turns.is_empty() {
        out.push_str("(nothing on stderr in the whole game)\n");
    }
    for (turn, part) in &turns {
        out.push_str(&format!("\n--- turn {turn} ---\n{part}"));
        if !part.ends_with('\n') {
            out.push('\n');
        }
    }
    let file = format!("attachment; filename=\"match-{id}-{bot}-stderr.txt\"");
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (header::CONTENT_DISPOSITION, file),
            (header::CACHE_CONTROL, "private, no-store".to_string()),
        ],
        out,
    )
        .into_response())
}

pub async fn api(
    State(state): State<AppState>,
    Path(id): Path<MatchId>,
) -> ApiResult<Json<serde_json::Value>> {
    let (m, seats) = match_info(&state, id).await?;
    Ok(Json(json!({
        "id": m.id,
        "status": m.status,
        "void_reason": m.void_reason,
        "game": m.game,
        "map": m.map,
        "turns": m.turns,
        "duration_s": m.seconds.map(round2),
        "finished": m.finished_at.map(|t| t.unix_timestamp()),
        "ranked": m.ranked,
        "practice": m.practice,
        "challenge": m.challenge,
        "tournament": m.tournament,
        "live": matches!(m.status, MatchStatus::Queued | MatchStatus::Running)
            .then(|| format!("/matches/{id}/turns")),
        "replay": (m.status == MatchStatus::Finished).then(|| format!("/api/matches/{id}/replay")),
        "players": seats.iter().map(seat_json).collect::<Vec<_>>(),
    })))
}

/// A seat in the API: its result, with the game's statistics by name beside the rest
/// (`forts` and `soldiers` for Bottle Bats, as before there were games).
fn seat_json(s: &SeatRow) -> serde_json::Value {
    let mut seat = json!({
        "seat": s.seat,
        "bot": s.bot,
        "version": s.version,
        "rank": s.rank,
        "outcome": s.outcome,
        "warnings": s.warnings,
        "timeouts": s.timeouts,
        "error": s.error,
        // A remote seat's process is measured on its owner's machine, not here.
        "cpu_ms": s.cpu_ms.filter(|_| !s.remote),
        "mu_before": s.mu_before.map(round2),
        "mu_after": s.mu_after.map(round2),
        "remote": s.remote,
        "reply_ms": s.reply_ms,
    });
    let stats = s
        .stats
        .as_ref()
        .map(crate::games::numbers)
        .unwrap_or_default();
    for (name, value) in stats {
        seat[name] = json!(value);
    }
    seat
}
