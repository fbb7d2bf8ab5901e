//! Live matches on the site: `GET /matches/{id}/turns` streams a match's turns as the
//! worker plays them (server-sent events, read from PostgreSQL: see `crate::live`),
//! `GET /api/live` says what the live channel shows next (the pace, the next featured
//! game; during a tournament its games in order, the points between them, the final
//! standings), and `/live` (any featured game) and `/tournaments/{id}/screen` (one
//! tournament's, for its projector) are the big screen that shows them
//! (`static/screen.mjs`). Each game has its channel: `/live?game=NAME` and
//! `/api/live?game=NAME` (the default game's without it). The stream's events:
//!
//! - `wait` `{"status": "queued"}`, now and then, while the match has not started;
//! - `head`: the compact replay without turns and result, once it runs;
//! - `rows` `{"from": T, "rows": [...]}`: the replay's rows from T, as they come,
//!   the last turns held back while it runs (the channel's delay, set on `/admin`);
//! - `end` `{"status", "result", "replay"}` once it is over (every row sent first).

use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use askama::Template;
use std::net::SocketAddr;

use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::Html;
use axum::routing::get;
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::mpsc;

use super::api::{ApiError, ApiResult};
use super::error::{AppError, AppResult};
use super::games::ListGame;
use super::live_feed::{Feed, NoSlot, Snapshot, PER_ADDRESS};
use super::AppState;
use crate::ids::{MatchId, TournamentId};
use crate::status::MatchStatus;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/matches/{id}/turns", get(turns))
        .route("/api/live", get(api_live))
        .route("/live", get(screen))
        .route("/tournaments/{id}/screen", get(tournament_screen))
}

/// How long one stream lasts; the browser's EventSource then opens another.
const STREAM_FOR: Duration = Duration::from_secs(30 * 60);
/// Rows sent in one event: what a viewer that does not read holds is a few such
/// events (the channel's capacity), not the whole replay.
const ROWS_PER_EVENT: usize = 50;

/// The receiving end of a stream's events.
struct Events(mpsc::Receiver<Event>);

impl futures_core::Stream for Events {
    type Item = Result<Event, Infallible>;
    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.0.poll_recv(cx).map(|e| e.map(Ok))
    }
}

async fn turns(
    State(state): State<AppState>,
    Path(id): Path<MatchId>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
) -> AppResult<Sse<impl futures_core::Stream<Item = Result<Event, Infallible>>>> {
    let m = sqlx::query!(
        "select tournament_id, game from matches where id = $1",
        id as MatchId
    )
    .fetch_optional(&state.db)
    .await?
    .ok_or(AppError::NotFound)?;
    let ip = state.client_ip(addr.ip(), &headers);
    // A tournament's games and its game's ladder's pick are what the big screens show.
    let featured =
        m.tournament_id.is_some() || featured(&state, &m.game, MatchId(0)).await? == Some(id);
    let slot = state.live_feeds.slot(ip, featured).map_err(|e| match e {
        NoSlot::Address => AppError::Status(
            StatusCode::TOO_MANY_REQUESTS,
            format!("This address has {PER_ADDRESS} live streams open already; close one first."),
        ),
        NoSlot::Full => AppError::Unavailable(
            "Too many people are watching live right now; try again in a minute.".into(),
        ),
    })?;
    let feed = state.live_feeds.feed(&state.db, id);
    let (tx, rx) = mpsc::channel(8);
    let delay = crate::live::channel(&state.db, state.config.live_delay)
        .await?
        .delay as usize;
    tokio::spawn(async move {
        let _slot = slot;
        if let Err(e) = follow(&feed, delay, &tx).await {
            tracing::debug!(match_id = %id, "a live stream ended: {e:#}");
        }
    });
    Ok(Sse::new(Events(rx)).keep_alive(KeepAlive::new().interval(Duration::from_secs(15))))
}

fn event(name: &str, data: &str) -> Event {
    Event::default().event(name).data(data)
}

/// What one viewer has been sent.
#[derive(Default)]
struct Sent {
    head: bool,
    rows: usize,
    waited: Option<Instant>,
}

/// Sends the match's turns from its feed until it ends, the viewer leaves or the
/// stream's time is up; the last `delay` turns are held back while it runs.
async fn follow(feed: &Feed, delay: usize, tx: &mpsc::Sender<Event>) -> anyhow::Result<()> {
    let until = Instant::now() + STREAM_FOR;
    let mut snapshots = feed.snapshot.clone();
    let mut sent = Sent::default();
    let mut polled = true;
    loop {
        let s = snapshots.borrow_and_update().clone();
        if send(&s, delay, &mut sent, tx).await? || !polled || Instant::now() >= until {
            return Ok(());
        }
        tokio::select! {
            changed = snapshots.changed() => polled = changed.is_ok(),
            _ = tokio::time::sleep(Duration::from_secs(5)) => {}
            _ = tx.closed() => return Ok(()),
        }
    }
}

/// Sends what `s` has that the viewer was not sent yet; true once the end is sent.
async fn send(
    s: &Snapshot,
    delay: usize,
    sent: &mut Sent,
    tx: &mpsc::Sender<Event>,
) -> anyhow::Result<bool> {
    if s.status == Some(MatchStatus::Queued)
        && sent
            .waited
            .is_none_or(|w| w.elapsed() > Duration::from_secs(5))
    {
        tx.send(event("wait", r#"{"status":"queued"}"#)).await?;
        sent.waited = Some(Instant::now());
    }
    if let (Some(head), false) = (&s.head, sent.head) {
        tx.send(event("head", head)).await?;
        sent.head = true;
    }
    let shown = if s.end.is_some() {
        s.rows.len()
    } else {
        s.rows.len().saturating_sub(delay)
    };
    while sent.rows < shown {
        let to = (sent.rows + ROWS_PER_EVENT).min(shown);
        let rows: Vec<&str> = s.rows[sent.rows..to].iter().map(|r| &**r).collect();
        let data = format!("{{\"from\":{},\"rows\":[{}]}}", sent.rows, rows.join(","));
        tx.send(event("rows", &data)).await?;
        sent.rows = to;
    }
    if let Some(end) = &s.end {
        tx.send(event("end", end)).await?;
        return Ok(true);
    }
    Ok(false)
}

/// The featured match of `game`'s ladder after match `after` (0: any): the running
/// match whose best player is best rated, else the latest finished match among the
/// ladder's best. Newer than the one the channel showed last, so it never shows a game
/// twice. Each game has its channel, whose screen draws that game.
async fn featured(state: &AppState, game: &str, after: MatchId) -> sqlx::Result<Option<MatchId>> {
    sqlx::query_scalar!(
        r#"select m.id as "id: MatchId" from matches m
           join match_players p on p.match_id = m.id join bots b on b.id = p.bot_id
           where m.id > $1 and m.game = $2 and (m.status = 'running'
               or (m.status = 'finished' and m.finished_at > now() - interval '1 hour'))
           group by m.id
           order by m.status = 'running' desc, max(b.mu - 3 * b.sigma) desc, m.id desc
           limit 1"#,
        after as MatchId,
        game
    )
    .fetch_optional(&state.db)
    .await
}

/// `game`'s tournament running now, the latest started if several.
async fn running_tournament(state: &AppState, game: &str) -> sqlx::Result<Option<TournamentId>> {
    sqlx::query_scalar!(
        r#"select id as "id: TournamentId" from tournaments
           where status = 'running' and game = $1
           order by id desc limit 1"#,
        game
    )
    .fetch_optional(&state.db)
    .await
}

/// `GET /api/live`'s question: the game whose channel it is (the default game without
/// it), the match the channel showed last (`after`), and the tournament it follows, if
/// any (`after` is then one of its games).
#[derive(Deserialize)]
struct Ask {
    game: Option<String>,
    #[serde(default)]
    after: i64,
    tournament: Option<i64>,
}

/// `GET /api/live`: what a game's channel shows next (see `static/screen.mjs`): the
/// pace and the next game, and during a tournament of the game (the one asked for,
/// else the one running) its next game in order with the points so far, or, once none
/// is left and it is over, its final standings.
async fn api_live(State(state): State<AppState>, Query(ask): Query<Ask>) -> ApiResult<Json<Value>> {
    let of = (ListGame::of(&state, ask.game.as_deref()).await?)
        .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, e))?;
    let channel = crate::live::channel(&state.db, state.config.live_delay).await?;
    let tournament = match ask.tournament {
        Some(t) => Some((TournamentId(t), MatchId(ask.after))),
        // The ladder's `after` says nothing of a tournament: it starts at its first game.
        None => (running_tournament(&state, &of.name).await?).map(|t| (t, MatchId(0))),
    };
    let mut answer = match tournament {
        Some((t, after)) => tournament_next(&state, t, after).await?,
        None => match featured(&state, &of.name, MatchId(ask.after)).await? {
            Some(id) => game(&state, id, "Top of the ladder".into()).await?,
            None => json!({ "match": null }),
        },
    };
    answer["seconds"] = channel.seconds.into();
    answer["game"] = of.name.into();
    answer["paused"] = crate::ranker::is_paused(&state.db).await?.into();
    Ok(Json(answer))
}

/// Match `id` as the channel shows it.
async fn game(state: &AppState, id: MatchId, title: String) -> sqlx::Result<Value> {
    let m = sqlx::query!(
        r#"select m.status as "status: MatchStatus",
               array_agg(b.name order by p.seat) as "players!: Vec<String>"
           from matches m join match_players p on p.match_id = m.id
           join bots b on b.id = p.bot_id where m.id = $1 group by m.id"#,
        id as MatchId
    )
    .fetch_one(&state.db)
    .await?;
    Ok(json!({
        "match": id, "title": title, "players": m.players, "status": m.status,
        "turns": format!("/matches/{id}/turns"), "page": format!("/matches/{id}"),
    }))
}

/// Tournament `t`'s game after `after` (its games in the order queued, the void ones
/// left out) with the points over the games up to `after`; or, when none is left and
/// the tournament is over, `"over": true` and its final standings.
async fn tournament_next(state: &AppState, t: TournamentId, after: MatchId) -> AppResult<Value> {
    let info = crate::tournaments::load(&state.db, t)
        .await?
        .ok_or(AppError::NotFound)?;
    let games = {
        let mut conn = state.db.acquire().await?;
        crate::tournaments::read::games(&mut conn, t).await?
    };
    let shown = games
        .iter()
        .filter(|g| g.id <= after && g.status != MatchStatus::Void)
        .count();
    let next = games
        .iter()
        .find(|g| g.id > after && g.status != MatchStatus::Void);
    let over = next.is_none() && !info.running();
    let standings = if over {
        let table = state.standings.get(&state.db, &info, &games).await?;
        (table.rows.iter())
            .map(|r| json!({ "bot": r.bot, "points": r.points, "games": r.games }))
            .collect()
    } else {
        let so_far = crate::tournaments::points_through(&info, &games, after);
        serde_json::to_value(so_far).map_err(anyhow::Error::from)?
    };
    let total = if info.running() {
        info.planned().max(games.len())
    } else {
        games.len()
    };
    let about = json!({
        "id": t, "name": info.name, "url": super::tournaments::url_of(t),
        "screen": format!("{}/screen", super::tournaments::url_of(t)),
        "status": info.status, "shown": shown,
        "total": total - games.iter().filter(|g| g.status == MatchStatus::Void).count(),
        "over": over, "standings": standings,
    });
    let mut answer = match next {
        Some(g) => {
            let title = format!("{} · round {}", info.name, g.round + 1);
            game(state, g.id, title).await?
        }
        None => json!({ "match": null }),
    };
    answer["tournament"] = about;
    Ok(answer)
}

#[derive(Template)]
#[template(path = "live/screen.html")]
struct Screen {
    title: String,
    /// The tournament the screen keeps to (its own address), else none: the channel.
    tournament: Option<TournamentId>,
    /// The game whose channel it shows (`/api/live?game=`), unless it is the default.
    game: Option<String>,
    /// What its game calls a turn, for the counter: `Turn`, `Move`.
    turn_label: String,
    /// The other open games' channels, while several games are open: (title, address).
    others: Vec<(&'static str, String)>,
}

/// What `/live` asks for: the game whose channel it shows (the default game without).
#[derive(Deserialize)]
struct Channel {
    game: Option<String>,
}

/// `/live`: the big screen of a game's channel.
async fn screen(
    State(state): State<AppState>,
    Query(channel): Query<Channel>,
) -> AppResult<Html<String>> {
    let game =
        (ListGame::of(&state, channel.game.as_deref()).await?).map_err(AppError::BadRequest)?;
    let kind = crate::games::kind(&game.name)?;
    let open = state.open_games.get(&state.db).await?;
    let others = (open.iter())
        .filter(|g| **g != game.name)
        .filter_map(|g| {
            let title = crate::games::kind(g).ok()?.title();
            Some((title, format!("/live?game={g}")))
        })
        .collect();
    let page = Screen {
        title: kind.title().into(),
        game: game.param().map(str::to_string),
        tournament: None,
        turn_label: kind.describe().turn.title(),
        others,
    };
    Ok(Html(page.render()?))
}

/// `/tournaments/{id}/screen`: the big screen kept to one tournament, for its
/// projector: its games in order, then its final standings, which stay.
async fn tournament_screen(
    State(state): State<AppState>,
    Path(id): Path<TournamentId>,
) -> AppResult<Html<String>> {
    let t = crate::tournaments::load(&state.db, id)
        .await?
        .ok_or(AppError::NotFound)?;
    let game = sqlx::query_scalar!(
        "select game from tournaments where id = $1",
        id as TournamentId
    )
    .fetch_one(&state.db)
    .await?;
    let turn_label = crate::games::kind(&game)?.describe().turn.title();
    let page = Screen {
        title: t.name,
        tournament: Some(id),
        game: None,
        turn_label,
        others: Vec::new(),
    };
    Ok(Html(page.render()?))
}
