//! Live matches on the site: `GET /matches/{id}/turns` streams a match's turns as the
//! worker plays them (server-sent events, read from PostgreSQL: see `crate::live`),
//! `GET /api/live` names the featured match, and `/live` is the big screen that
//! follows it (`static/screen.mjs`). The stream's events:
//!
//! - `wait` `{"status": "queued"}`, now and then, while the match has not started;
//! - `head`: the compact replay without turns and result, once it runs;
//! - `rows` `{"from": T, "rows": [...]}`: the replay's rows from T, as they come,
//!   the last `live_delay` turns held back while it runs;
//! - `end` `{"status", "result", "replay"}` once it is over (every row sent first).

use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use askama::Template;
use std::net::SocketAddr;

use axum::extract::{ConnectInfo, Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::Html;
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{json, Value};
use tokio::sync::mpsc;

use super::api::ApiResult;
use super::error::{AppError, AppResult};
use super::live_feed::{Feed, NoSlot, Snapshot, PER_ADDRESS};
use super::AppState;
use crate::ids::MatchId;
use crate::status::MatchStatus;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/matches/{id}/turns", get(turns))
        .route("/api/live", get(api_live))
        .route("/live", get(screen))
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
    status_of(&state, id).await?.ok_or(AppError::NotFound)?;
    let ip = state.client_ip(addr.ip(), &headers);
    let featured = featured(&state).await?.is_some_and(|(f, _)| f == id);
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
    let delay = state.config.live_delay as usize;
    tokio::spawn(async move {
        let _slot = slot;
        if let Err(e) = follow(&feed, delay, &tx).await {
            tracing::debug!(match_id = %id, "a live stream ended: {e:#}");
        }
    });
    Ok(Sse::new(Events(rx)).keep_alive(KeepAlive::new().interval(Duration::from_secs(15))))
}

async fn status_of(state: &AppState, id: MatchId) -> sqlx::Result<Option<MatchStatus>> {
    sqlx::query_scalar!(
        r#"select status as "status: MatchStatus" from matches where id = $1"#,
        id as MatchId
    )
    .fetch_optional(&state.db)
    .await
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

/// The featured match: the running tournament's current game (else its next), else
/// the running match whose best player is best rated, else the latest finished match
/// among the ladder's best.
async fn featured(state: &AppState) -> sqlx::Result<Option<(MatchId, Option<i64>)>> {
    let tournament = sqlx::query!(
        r#"select m.id as "id: MatchId", m.tournament_id from matches m
           join tournaments t on t.id = m.tournament_id
           where t.status = 'running' and m.status in ('running', 'queued')
           order by m.status = 'running' desc, m.started_at desc, m.id limit 1"#
    )
    .fetch_optional(&state.db)
    .await?;
    if let Some(t) = tournament {
        return Ok(Some((t.id, t.tournament_id)));
    }
    let best = sqlx::query_scalar!(
        r#"select m.id as "id: MatchId" from matches m
           join match_players p on p.match_id = m.id join bots b on b.id = p.bot_id
           where m.status = 'running' or (m.status = 'finished' and m.finished_at > now() - interval '1 hour')
           group by m.id
           order by m.status = 'running' desc, max(b.mu - 3 * b.sigma) desc, m.id desc
           limit 1"#
    )
    .fetch_optional(&state.db)
    .await?;
    Ok(best.map(|id| (id, None)))
}

/// `GET /api/live`: the featured match, for the big screen.
async fn api_live(State(state): State<AppState>) -> ApiResult<Json<Value>> {
    let Some((id, tournament)) = featured(&state).await? else {
        return Ok(Json(json!({ "match": null })));
    };
    let m = sqlx::query!(
        r#"select m.status as "status: MatchStatus", m.round,
               array_agg(b.name order by p.seat) as "players!: Vec<String>"
           from matches m join match_players p on p.match_id = m.id
           join bots b on b.id = p.bot_id where m.id = $1 group by m.id"#,
        id as MatchId
    )
    .fetch_one(&state.db)
    .await?;
    let mut title = "Top of the ladder".to_string();
    let mut about = Value::Null;
    if let Some(t) = tournament {
        let t = crate::ids::TournamentId(t);
        if let Some(info) = crate::tournaments::load(&state.db, t).await? {
            let done = sqlx::query_scalar!(
                r#"select count(*) as "n!" from matches
                   where tournament_id = $1 and status in ('finished', 'void')"#,
                t as crate::ids::TournamentId
            )
            .fetch_one(&state.db)
            .await?;
            title = format!("{} · round {}", info.name, m.round.unwrap_or(0) + 1);
            about = json!({
                "name": info.name, "url": super::tournaments::url_of(t),
                "done": done, "total": info.planned(),
            });
        }
    }
    Ok(Json(json!({
        "match": id, "title": title, "players": m.players, "status": m.status,
        "turns": format!("/matches/{id}/turns"), "page": format!("/matches/{id}"),
        "tournament": about,
    })))
}

#[derive(Template)]
#[template(path = "live/screen.html")]
struct Screen {
    title: String,
}

async fn screen() -> AppResult<Html<String>> {
    let page = Screen {
        title: "Bottle Bats".into(),
    };
    Ok(Html(page.render()?))
}
