//! What spectators read: the leaderboard, the list of matches, a match with its
//! replay and downloads, a user's page, and the same as JSON under `/api` (readable
//! from other origins).

use askama::Template;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::header;
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::json;
use time::OffsetDateTime;

use super::bot_stats::Record;
use super::error::{AppError, AppResult};
use super::format::when;
use super::session::{User, Visitor};
use super::{AppState, Layout};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/leaderboard", get(leaderboard_page))
        .route("/leaderboard/rows", get(leaderboard_rows))
        .route("/matches", get(matches_page))
        .route("/matches/{id}", get(match_page))
        .route("/matches/{id}/replay.json", get(replay_file))
        .route("/matches/{id}/log.txt", get(classic_log))
        .route("/matches/{id}/stderr/{seat}", get(stderr))
        .route("/users/{name}", get(user_page))
        .route("/api", get(api_page))
        .route("/api/leaderboard", get(api_leaderboard))
        .route("/api/matches", get(api_matches))
        .route("/api/matches/{id}", get(api_match))
        .route("/api/matches/{id}/replay", get(replay_file))
}

fn api_error(e: AppError) -> Response {
    (e.status(), Json(json!({ "error": e.public_message() }))).into_response()
}

// ---------------------------------------------------------------- leaderboard

/// A leaderboard row.
#[derive(Debug, sqlx::FromRow)]
pub struct Standing {
    pub name: String,
    pub owner: String,
    pub language: String,
    #[sqlx(flatten)]
    pub record: Record,
    pub last_game_at: Option<OffsetDateTime>,
}

impl Standing {
    fn json(&self, rank: usize, languages: &crate::languages::Languages) -> serde_json::Value {
        let r = &self.record;
        json!({
            "rank": rank,
            "bot": self.name,
            "owner": self.owner,
            "language": language_name(languages, &self.language),
            "rating": round2(r.rating()),
            "mu": round2(r.mu),
            "sigma": round2(r.sigma),
            "games": r.games,
            "wins": r.wins,
            "losses": r.losses,
            "draws": r.draws,
            "win_rate": round2(r.win_rate()),
            "last_game": self.last_game_at.map(|t| t.unix_timestamp()),
        })
    }
}

pub fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

fn language_name(languages: &crate::languages::Languages, key: &str) -> String {
    languages
        .get(key)
        .map_or_else(|| key.to_string(), |l| l.language.name.clone())
}

pub async fn standings(state: &AppState) -> sqlx::Result<Vec<Standing>> {
    sqlx::query_as::<_, Standing>(
        "select b.name, u.name as owner, v.language, b.mu, b.sigma, b.games, b.wins, b.losses, b.draws, b.last_game_at \
         from bots b join users u on u.id = b.owner_id join bot_versions v on v.id = b.active_version_id \
         where not b.disabled order by b.mu - 3 * b.sigma desc, lower(b.name)",
    )
    .fetch_all(&state.db)
    .await
}

/// A leaderboard row, ready to show.
pub struct Row {
    pub rank: usize,
    pub bot: String,
    pub owner: String,
    pub language: String,
    pub rating: String,
    pub mu_sigma: String,
    pub games: i32,
    pub win_rate: String,
    pub last_game: String,
}

impl Row {
    fn of(rank: usize, s: &Standing, languages: &crate::languages::Languages) -> Row {
        Row {
            rank,
            bot: s.name.clone(),
            owner: s.owner.clone(),
            language: language_name(languages, &s.language),
            rating: format!("{:.2}", s.record.rating()),
            mu_sigma: s.record.mu_sigma(),
            games: s.record.games,
            win_rate: format!("{:.0}%", 100.0 * s.record.win_rate()),
            last_game: s.last_game_at.map_or_else(|| "never".to_string(), when),
        }
    }
}

/// The leaderboard as one moment saw it, ready to show, shared by the requests of the
/// next [`BOARD_FOR`]. Every bot of the ladder is a row, so reading, formatting and
/// serializing them all took milliseconds a request (1,000 bots); the page refreshes
/// itself every 15 s anyway. The page, its rows, its JSON and the user pages show the
/// same moment.
pub struct Board {
    made: Instant,
    pub standings: Vec<Standing>,
    pub rows: Vec<Row>,
    /// The body of `/api/leaderboard`.
    json: Bytes,
    /// The body of `/leaderboard/rows`.
    rows_html: Bytes,
}

/// How long a [`Board`] is shown.
pub const BOARD_FOR: Duration = Duration::from_secs(1);

/// The latest [`Board`], and who is making the next one.
#[derive(Default)]
pub struct BoardCache {
    latest: std::sync::Mutex<Option<Arc<Board>>>,
    making: tokio::sync::Mutex<()>,
}

impl BoardCache {
    fn latest(&self) -> Option<Arc<Board>> {
        self.latest
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }
}

/// The leaderboard, at most [`BOARD_FOR`] old when asked for. Once it is older, the
/// next request makes a new one; requests that come while it does are given the last
/// one instead of waiting (or wait, when there is none yet).
pub async fn board(state: &AppState) -> AppResult<Arc<Board>> {
    let cache = &state.board;
    let last = cache.latest();
    if let Some(b) = last.as_ref().filter(|b| b.made.elapsed() < BOARD_FOR) {
        return Ok(b.clone());
    }
    let _making = match (cache.making.try_lock(), last) {
        (Ok(making), _) => making,
        (Err(_), Some(last)) => return Ok(last),
        (Err(_), None) => cache.making.lock().await,
    };
    if let Some(b) = cache.latest().filter(|b| b.made.elapsed() < BOARD_FOR) {
        return Ok(b);
    }
    let made = Instant::now();
    let standings = standings(state).await?;
    let rows: Vec<Row> = standings
        .iter()
        .enumerate()
        .map(|(i, s)| Row::of(i + 1, s, &state.languages))
        .collect();
    let json: Vec<_> = standings
        .iter()
        .enumerate()
        .map(|(i, s)| s.json(i + 1, &state.languages))
        .collect();
    let json = serde_json::to_vec(&json!({ "leaderboard": json }))
        .expect("a JSON value always serializes");
    let rows_html = LeaderboardRows { rows: &rows }.render()?;
    let b = Arc::new(Board {
        made,
        standings,
        rows,
        json: Bytes::from(json),
        rows_html: Bytes::from(rows_html),
    });
    *cache
        .latest
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(b.clone());
    Ok(b)
}

#[derive(Template)]
#[template(path = "ladder/leaderboard.html")]
struct LeaderboardPage<'a> {
    layout: Layout,
    rows: &'a [Row],
}

async fn leaderboard_page(
    State(state): State<AppState>,
    visitor: Visitor,
) -> AppResult<Html<String>> {
    let board = board(&state).await?;
    Ok(Html(
        LeaderboardPage {
            layout: visitor.layout(),
            rows: &board.rows,
        }
        .render()?,
    ))
}

/// The leaderboard's rows, a `<tbody>`: the page includes them, and its script
/// (`static/live.mjs`) fetches them again from `/leaderboard/rows` to stay up to date,
/// so a row is drawn in one place.
#[derive(Template)]
#[template(path = "ladder/leaderboard_rows.html")]
struct LeaderboardRows<'a> {
    rows: &'a [Row],
}

async fn leaderboard_rows(State(state): State<AppState>) -> AppResult<Response> {
    let board = board(&state).await?;
    Ok((
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        board.rows_html.clone(),
    )
        .into_response())
}

async fn api_leaderboard(State(state): State<AppState>) -> Response {
    match board(&state).await {
        Ok(b) => ([(header::CONTENT_TYPE, "application/json")], b.json.clone()).into_response(),
        Err(e) => api_error(e),
    }
}

// ---------------------------------------------------------------- matches

/// Filters of the match list; `cursor` is the last match of the previous page: the
/// list goes on with matches that finished before it, so pages stay stable while new
/// matches arrive.
#[derive(Debug, Default, Deserialize)]
pub struct MatchFilter {
    pub bot: Option<String>,
    pub user: Option<String>,
    pub map: Option<String>,
    pub cursor: Option<i64>,
}

/// A finished match in a list.
#[derive(Debug, sqlx::FromRow)]
pub struct MatchRow {
    pub id: i64,
    pub map: String,
    pub turns: Option<i32>,
    pub seconds: Option<f64>,
    pub finished_at: Option<OffsetDateTime>,
    /// "rank:bot,rank:bot" by rank
    pub players: Option<String>,
}

impl MatchRow {
    /// (rank, bot) by rank.
    pub fn ranked(&self) -> Vec<(u32, String)> {
        self.players
            .as_deref()
            .unwrap_or("")
            .split(',')
            .filter_map(|p| {
                let (r, b) = p.split_once(':')?;
                Some((r.parse().ok()?, b.to_string()))
            })
            .collect()
    }
    fn json(&self) -> serde_json::Value {
        json!({
            "id": self.id,
            "map": self.map,
            "turns": self.turns,
            "duration_s": self.seconds.map(round2),
            "finished": self.finished_at.map(|t| t.unix_timestamp()),
            "players": self.ranked().iter().map(|(rank, bot)| json!({"bot": bot, "rank": rank})).collect::<Vec<_>>(),
        })
    }
}

/// Matches per page.
pub const PAGE: i64 = 50;

pub async fn finished_matches(state: &AppState, f: &MatchFilter) -> sqlx::Result<Vec<MatchRow>> {
    latest_matches(state, f, PAGE).await
}

/// The `limit` latest finished matches of a filter (the pages of bots and users show a
/// few: each match costs its players' lookup).
pub async fn latest_matches(
    state: &AppState,
    f: &MatchFilter,
    limit: i64,
) -> sqlx::Result<Vec<MatchRow>> {
    let given = |s: &Option<String>| {
        s.as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
    };
    let (bot, user, map) = (given(&f.bot), given(&f.user), given(&f.map));
    // Only the conditions of the filters given, so that each combination is its own
    // prepared statement whose plan uses the indexes: with catch-all conditions
    // (`$1 is null or ...`) the cached generic plan read a deep page by filtering the
    // newer matches one by one, and a bot's matches by walking all matches. The page's
    // ids are found first, from an index in the list's order (a bot's seats, each of
    // an owner's bots' seats, a map's matches or all matches); the rest is read for
    // those ids only. Parameters: cursor, bot, user, map, those given. The limit is
    // written in: with a parameter there, PostgreSQL's generic plan of the statement
    // expected 10% of all matches and read them all, so it planned every request
    // afresh instead (about 1 ms of the database's CPU per page).
    let mut n = 0;
    let mut param = |given: bool| {
        given.then(|| {
            n += 1;
            n
        })
    };
    let c = param(f.cursor.is_some());
    let (b, u, m) = (
        param(bot.is_some()),
        param(user.is_some()),
        param(map.is_some()),
    );
    // Conditions on a seat `p` (its match finished), or on a match `m`.
    let cursor = |on: &str| {
        c.map(|c| {
            format!(" and ({on}) < (select finished_at, id from matches where id = ${c} and status = 'finished')")
        })
        .unwrap_or_default()
    };
    let owner_played = |id: &str| {
        u.map(|u| {
            format!(
                " and exists (select 1 from match_players o join bots ob on ob.id = o.bot_id \
                   join users ou on ou.id = ob.owner_id where o.match_id = {id} and lower(ou.name) = lower(${u}))"
            )
        })
        .unwrap_or_default()
    };
    let on_map = |id: &str| {
        m.map(|m| {
            format!(" and exists (select 1 from matches x join maps xm on xm.id = x.map_id where x.id = {id} and xm.name = ${m})")
        })
        .unwrap_or_default()
    };
    let page = match (b, u) {
        (Some(b), _) => format!(
            "select p.match_id as id from match_players p \
             where p.bot_id = (select id from bots where lower(name) = lower(${b})) and p.finished_at is not null{}{}{} \
             order by p.finished_at desc, p.match_id desc limit {limit}",
            cursor("p.finished_at, p.match_id"),
            owner_played("p.match_id"),
            on_map("p.match_id"),
        ),
        (None, Some(u)) => format!(
            // The newest of each of the owner's bots, then the newest of those; a
            // match of two of its bots (house bots share an owner) counts once.
            "select s.id from bots ob join users ou on ou.id = ob.owner_id cross join lateral ( \
                 select p.match_id as id, p.finished_at from match_players p \
                 where p.bot_id = ob.id and p.finished_at is not null{}{} \
                 order by p.finished_at desc, p.match_id desc limit {limit}) s \
             where lower(ou.name) = lower(${u}) \
             group by s.id, s.finished_at order by s.finished_at desc, s.id desc limit {limit}",
            cursor("p.finished_at, p.match_id"),
            on_map("p.match_id"),
        ),
        (None, None) => format!(
            "select m.id from matches m where m.status = 'finished'{}{} \
             order by m.finished_at desc, m.id desc limit {limit}",
            cursor("m.finished_at, m.id"),
            m.map(|m| format!(" and m.map_id = (select id from maps where name = ${m})"))
                .unwrap_or_default(),
        ),
    };
    let sql = format!(
        "select m.id, maps.name as map, m.turns, extract(epoch from m.finished_at - m.started_at)::float8 as seconds, \
             m.finished_at, \
             (select string_agg(p.rank || ':' || b.name, ',' order by p.rank, p.seat) \
              from match_players p join bots b on b.id = p.bot_id where p.match_id = m.id) as players \
         from ({page}) page join matches m on m.id = page.id join maps on maps.id = m.map_id \
         order by m.finished_at desc, m.id desc"
    );
    let mut query = sqlx::query_as::<_, MatchRow>(sqlx::AssertSqlSafe(sql));
    if let Some(cursor) = f.cursor {
        query = query.bind(cursor);
    }
    for value in [bot, user, map].into_iter().flatten() {
        query = query.bind(value);
    }
    query.fetch_all(&state.db).await
}

/// A match as a list shows it.
pub struct ListedMatch {
    pub id: i64,
    pub map: String,
    pub turns: String,
    pub duration: String,
    pub when: String,
    pub players: Vec<(u32, String)>,
}

impl From<&MatchRow> for ListedMatch {
    fn from(m: &MatchRow) -> Self {
        ListedMatch {
            id: m.id,
            map: m.map.clone(),
            turns: m.turns.map_or_else(String::new, |t| t.to_string()),
            duration: m.seconds.map_or_else(String::new, |s| format!("{s:.1} s")),
            when: m.finished_at.map_or_else(String::new, when),
            players: m.ranked(),
        }
    }
}

#[derive(Template)]
#[template(path = "ladder/matches.html")]
struct MatchesPage {
    layout: Layout,
    matches: Vec<ListedMatch>,
    bot: String,
    user: String,
    map: String,
    maps: Vec<String>,
    /// The query of the next page, if there is one.
    next: Option<String>,
    first_page: bool,
}

fn query_of(f: &MatchFilter, cursor: i64) -> String {
    let mut q = form_urlencoded::Serializer::new(String::new());
    for (k, v) in [("bot", &f.bot), ("user", &f.user), ("map", &f.map)] {
        if let Some(v) = v.as_deref().filter(|v| !v.is_empty()) {
            q.append_pair(k, v);
        }
    }
    q.append_pair("cursor", &cursor.to_string());
    q.finish()
}

async fn matches_page(
    State(state): State<AppState>,
    visitor: Visitor,
    Query(f): Query<MatchFilter>,
) -> AppResult<Html<String>> {
    let rows = finished_matches(&state, &f).await?;
    let next = (rows.len() as i64 == PAGE).then(|| query_of(&f, rows.last().map_or(0, |m| m.id)));
    let maps = sqlx::query_scalar("select name from maps order by seats, name")
        .fetch_all(&state.db)
        .await?;
    let page = MatchesPage {
        layout: visitor.layout(),
        matches: rows.iter().map(ListedMatch::from).collect(),
        bot: f.bot.clone().unwrap_or_default(),
        user: f.user.clone().unwrap_or_default(),
        map: f.map.clone().unwrap_or_default(),
        maps,
        next,
        first_page: f.cursor.is_none(),
    };
    Ok(Html(page.render()?))
}

async fn api_matches(State(state): State<AppState>, Query(f): Query<MatchFilter>) -> Response {
    match finished_matches(&state, &f).await {
        Ok(rows) => {
            let next = (rows.len() as i64 == PAGE).then(|| rows.last().map_or(0, |m| m.id));
            Json(json!({
                "matches": rows.iter().map(MatchRow::json).collect::<Vec<_>>(),
                "next_cursor": next,
            }))
            .into_response()
        }
        Err(e) => api_error(e.into()),
    }
}

// ---------------------------------------------------------------- one match

#[derive(Debug, sqlx::FromRow)]
struct MatchInfo {
    id: i64,
    status: String,
    void_reason: Option<String>,
    map: String,
    turns: Option<i32>,
    seconds: Option<f64>,
    finished_at: Option<OffsetDateTime>,
    created_at: OffsetDateTime,
}

/// A seat of a match, as its page shows it.
#[derive(Debug, sqlx::FromRow)]
pub struct Seat {
    pub seat: i32,
    pub bot: String,
    pub owner_id: crate::ids::UserId,
    pub version: i32,
    pub rank: Option<i32>,
    pub outcome: Option<String>,
    pub forts: Option<i32>,
    pub soldiers: Option<i64>,
    pub warnings: Option<i32>,
    pub timeouts: Option<i32>,
    pub error: Option<String>,
    pub cpu_ms: Option<i64>,
    pub mu_before: Option<f64>,
    pub mu_after: Option<f64>,
}

async fn match_info(state: &AppState, id: i64) -> AppResult<(MatchInfo, Vec<Seat>)> {
    let m = sqlx::query_as::<_, MatchInfo>(
        "select m.id, m.status, m.void_reason, maps.name as map, m.turns, \
             extract(epoch from m.finished_at - m.started_at)::float8 as seconds, m.finished_at, m.created_at \
         from matches m join maps on maps.id = m.map_id where m.id = $1",
    )
    .bind(id)
    .fetch_optional(&state.db)
    .await?
    .ok_or(AppError::NotFound)?;
    let seats = sqlx::query_as::<_, Seat>(
        "select p.seat, b.name as bot, b.owner_id, v.number as version, p.rank, p.outcome, p.forts, p.soldiers, \
             p.warnings, p.timeouts, p.error, p.cpu_ms, p.mu_before, p.mu_after \
         from match_players p join bots b on b.id = p.bot_id join bot_versions v on v.id = p.version_id \
         where p.match_id = $1 order by p.rank nulls last, p.seat",
    )
    .bind(id)
    .fetch_all(&state.db)
    .await?;
    Ok((m, seats))
}

#[derive(Template)]
#[template(path = "ladder/match.html")]
struct MatchPage {
    layout: Layout,
    id: i64,
    status: String,
    void_reason: Option<String>,
    map: String,
    turns: String,
    duration: String,
    when: String,
    seats: Vec<Seat>,
    /// Seats whose stderr the visitor may read.
    own_seats: Vec<(i32, String)>,
}

async fn match_page(
    State(state): State<AppState>,
    visitor: Visitor,
    Path(id): Path<i64>,
) -> AppResult<Html<String>> {
    let (m, seats) = match_info(&state, id).await?;
    let me = visitor.user.as_ref().map(|u| u.id);
    let own_seats = seats
        .iter()
        .filter(|s| Some(s.owner_id) == me && m.status == "finished")
        .map(|s| (s.seat, s.bot.clone()))
        .collect();
    let page = MatchPage {
        layout: visitor.layout(),
        id: m.id,
        void_reason: m.void_reason,
        map: m.map,
        turns: m.turns.map_or_else(String::new, |t| t.to_string()),
        duration: m.seconds.map_or_else(String::new, |s| format!("{s:.1} s")),
        when: when(m.finished_at.unwrap_or(m.created_at)),
        status: m.status,
        seats,
        own_seats,
    };
    Ok(Html(page.render()?))
}

async fn replay_bytes(state: &AppState, id: i64) -> AppResult<Vec<u8>> {
    sqlx::query_scalar::<_, Option<Vec<u8>>>("select replay from matches where id = $1")
        .bind(id)
        .fetch_optional(&state.db)
        .await?
        .flatten()
        .ok_or(AppError::NotFound)
}

/// The gzipped replay, served as it is stored.
async fn replay_file(State(state): State<AppState>, Path(id): Path<i64>) -> Response {
    match replay_bytes(&state, id).await {
        Ok(bytes) => (
            [
                (header::CONTENT_TYPE, "application/json"),
                (header::CONTENT_ENCODING, "gzip"),
                (header::CACHE_CONTROL, "public, max-age=86400"),
            ],
            bytes,
        )
            .into_response(),
        Err(e) => api_error(e),
    }
}

fn gunzip(bytes: &[u8]) -> AppResult<Vec<u8>> {
    let mut out = Vec::new();
    std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(bytes), &mut out)
        .map_err(|e| AppError::Internal(anyhow::anyhow!("a stored replay does not unpack: {e}")))?;
    Ok(out)
}

/// The classic log of the 2016 visualizer, printed from the replay. A busy game's log
/// is megabytes and tens of milliseconds of work: it is printed once, kept gzipped in
/// a small cache, and printed by at most one task per core at a time.
async fn classic_log(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    headers: axum::http::HeaderMap,
) -> AppResult<Response> {
    let gz = match state.classic_logs.get(id) {
        Some(gz) => gz,
        None => {
            let _turn = printers()
                .acquire()
                .await
                .map_err(|e| AppError::Internal(e.into()))?;
            let replay = replay_bytes(&state, id).await?;
            let gz = tokio::task::spawn_blocking(move || -> AppResult<Vec<u8>> {
                let json = gunzip(&replay)?;
                let replay = engine::Replay::from_json(&String::from_utf8_lossy(&json))
                    .map_err(|e| AppError::Internal(anyhow::anyhow!(e)))?;
                let mut log = Vec::new();
                replay
                    .write_classic_log(&mut log)
                    .map_err(|e| AppError::Internal(e.into()))?;
                Ok(crate::builds::gzip(&log))
            })
            .await
            .map_err(|e| AppError::Internal(e.into()))??;
            let gz = std::sync::Arc::new(gz);
            state.classic_logs.put(id, gz.clone());
            gz
        }
    };
    let gzip_ok = headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|v| v.split(',').any(|e| e.trim().starts_with("gzip")));
    let disposition = format!("attachment; filename=\"match-{id}.log\"");
    let kind = "text/plain; charset=utf-8";
    if gzip_ok {
        Ok((
            [
                (header::CONTENT_TYPE, kind.to_string()),
                (header::CONTENT_ENCODING, "gzip".to_string()),
                (header::CONTENT_DISPOSITION, disposition),
            ],
            gz.as_ref().clone(),
        )
            .into_response())
    } else {
        Ok((
            [
                (header::CONTENT_TYPE, kind.to_string()),
                (header::CONTENT_DISPOSITION, disposition),
            ],
            gunzip(&gz)?,
        )
            .into_response())
    }
}

/// Classic logs printed at once: one per core.
fn printers() -> &'static tokio::sync::Semaphore {
    static PRINTERS: std::sync::OnceLock<tokio::sync::Semaphore> = std::sync::OnceLock::new();
    PRINTERS.get_or_init(|| {
        tokio::sync::Semaphore::new(std::thread::available_parallelism().map_or(1, |n| n.get()))
    })
}

/// A bot's stderr in a match, per turn: only for the bot's owner.
async fn stderr(
    State(state): State<AppState>,
    visitor: Visitor,
    Path((id, seat)): Path<(i64, i32)>,
) -> Response {
    type Row = (crate::ids::UserId, Option<Vec<u8>>);
    let row: Result<Option<Row>, _> = sqlx::query_as(
        "select b.owner_id, p.stderr from match_players p join bots b on b.id = p.bot_id \
         where p.match_id = $1 and p.seat = $2",
    )
    .bind(id)
    .bind(seat)
    .fetch_optional(&state.db)
    .await;
    let (owner, bytes) = match row {
        Ok(Some(r)) => r,
        Ok(None) => return api_error(AppError::NotFound),
        Err(e) => return api_error(e.into()),
    };
    match visitor.user {
        Some(User { id, .. }) if id == owner => {}
        Some(_) => {
            return api_error(AppError::Forbidden(
                "Only the bot's owner can read its stderr.".into(),
            ))
        }
        None => return api_error(AppError::Unauthorized),
    }
    (
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CONTENT_ENCODING, "gzip"),
            (header::CACHE_CONTROL, "private, no-store"),
        ],
        bytes.unwrap_or_else(gzip_empty_list),
    )
        .into_response()
}

fn gzip_empty_list() -> Vec<u8> {
    crate::builds::gzip(b"[]")
}

async fn api_match(State(state): State<AppState>, Path(id): Path<i64>) -> Response {
    let (m, seats) = match match_info(&state, id).await {
        Ok(x) => x,
        Err(e) => return api_error(e),
    };
    Json(json!({
        "id": m.id,
        "status": m.status,
        "void_reason": m.void_reason,
        "map": m.map,
        "turns": m.turns,
        "duration_s": m.seconds.map(round2),
        "finished": m.finished_at.map(|t| t.unix_timestamp()),
        "replay": (m.status == "finished").then(|| format!("/api/matches/{id}/replay")),
        "players": seats.iter().map(|s| json!({
            "seat": s.seat,
            "bot": s.bot,
            "version": s.version,
            "rank": s.rank,
            "outcome": s.outcome,
            "forts": s.forts,
            "soldiers": s.soldiers,
            "warnings": s.warnings,
            "timeouts": s.timeouts,
            "error": s.error,
            "cpu_ms": s.cpu_ms,
            "mu_before": s.mu_before.map(round2),
            "mu_after": s.mu_after.map(round2),
        })).collect::<Vec<_>>(),
    }))
    .into_response()
}

// ---------------------------------------------------------------- users, API page

#[derive(Template)]
#[template(path = "ladder/user.html")]
struct UserPage {
    layout: Layout,
    name: String,
    since: String,
    bots: Vec<Row>,
    matches: Vec<ListedMatch>,
}

async fn user_page(
    State(state): State<AppState>,
    visitor: Visitor,
    Path(name): Path<String>,
) -> AppResult<Html<String>> {
    let (real, created): (String, OffsetDateTime) =
        sqlx::query_as("select name, created_at from users where lower(name) = lower($1)")
            .bind(&name)
            .fetch_optional(&state.db)
            .await?
            .ok_or(AppError::NotFound)?;
    let board = board(&state).await?;
    let bots = board
        .standings
        .iter()
        .enumerate()
        .filter(|(_, s)| s.owner == real)
        .map(|(i, s)| Row::of(i + 1, s, &state.languages))
        .collect();
    let filter = MatchFilter {
        user: Some(real.clone()),
        ..MatchFilter::default()
    };
    let matches = latest_matches(&state, &filter, 10)
        .await?
        .iter()
        .map(ListedMatch::from)
        .collect();
    let page = UserPage {
        layout: visitor.layout(),
        name: real,
        since: when(created),
        bots,
        matches,
    };
    Ok(Html(page.render()?))
}

#[derive(Template)]
#[template(path = "ladder/api.html")]
struct ApiPage {
    layout: Layout,
}

async fn api_page(visitor: Visitor) -> AppResult<Html<String>> {
    Ok(Html(
        ApiPage {
            layout: visitor.layout(),
        }
        .render()?,
    ))
}
