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
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use askama::Template;
use axum::extract::{Path, State};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::Html;
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{json, Value};
use tokio::sync::mpsc;

use super::api::ApiResult;
use super::error::{AppError, AppResult};
use super::AppState;
use crate::ids::MatchId;
use crate::status::MatchStatus;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/matches/{id}/turns", get(turns))
        .route("/api/live", get(api_live))
        .route("/live", get(screen))
}

/// Most live streams this server keeps open at once.
pub const MAX_STREAMS: usize = 256;
/// How long one stream lasts; the browser's EventSource then opens another.
const STREAM_FOR: Duration = Duration::from_secs(30 * 60);
/// How often a stream looks for new turns.
const POLL: Duration = Duration::from_millis(300);

/// The open streams, counted.
pub type Streams = Arc<tokio::sync::Semaphore>;

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
) -> AppResult<Sse<impl futures_core::Stream<Item = Result<Event, Infallible>>>> {
    status_of(&state, id).await?.ok_or(AppError::NotFound)?;
    let permit = state
        .live_streams
        .clone()
        .try_acquire_owned()
        .map_err(|_| {
            AppError::Unavailable(
                "Too many people are watching live right now; try again in a minute.".into(),
            )
        })?;
    let (tx, rx) = mpsc::channel(8);
    tokio::spawn(async move {
        let _permit = permit;
        if let Err(e) = follow(&state, id, &tx).await {
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

fn event(name: &str, data: String) -> Event {
    Event::default().event(name).data(data)
}

/// Sends the match's turns until it ends, the viewer leaves or the stream's time is up.
async fn follow(state: &AppState, id: MatchId, tx: &mpsc::Sender<Event>) -> anyhow::Result<()> {
    let until = Instant::now() + STREAM_FOR;
    let delay = state.config.live_delay as usize;
    let mut next = 0i32;
    let mut head_sent = false;
    let mut waited: Option<Instant> = None;
    while Instant::now() < until && !tx.is_closed() {
        match status_of(state, id).await?.ok_or(AppError::NotFound)? {
            MatchStatus::Queued => {
                if waited.is_none_or(|w| w.elapsed() > Duration::from_secs(5)) {
                    tx.send(event("wait", json!({"status": "queued"}).to_string()))
                        .await?;
                    waited = Some(Instant::now());
                }
            }
            MatchStatus::Running => {
                if let Some((head, rows)) = crate::live::read(&state.db, id, next).await? {
                    if !head_sent {
                        tx.send(event("head", head)).await?;
                        head_sent = true;
                    }
                    let shown = rows.len().saturating_sub(delay);
                    if shown > 0 {
                        let rows: Vec<&str> = rows[..shown].iter().map(|r| r.1.as_str()).collect();
                        let data = format!("{{\"from\":{next},\"rows\":[{}]}}", rows.join(","));
                        tx.send(event("rows", data)).await?;
                        next += shown as i32;
                    }
                }
            }
            MatchStatus::Finished => return finish(state, id, tx, next, head_sent).await,
            MatchStatus::Void => {
                let end = json!({"status": "voided", "result": null, "replay": null});
                tx.send(event("end", end.to_string())).await?;
                return Ok(());
            }
        }
        tokio::time::sleep(POLL).await;
    }
    Ok(())
}

/// The rows not sent yet, from the stored replay, and the end.
async fn finish(
    state: &AppState,
    id: MatchId,
    tx: &mpsc::Sender<Event>,
    next: i32,
    head_sent: bool,
) -> anyhow::Result<()> {
    let stored = sqlx::query_scalar!("select replay from matches where id = $1", id as MatchId)
        .fetch_one(&state.db)
        .await?
        .ok_or_else(|| anyhow::anyhow!("a finished match without its replay"))?;
    let text = crate::compress::gunzip(&stored)?;
    let replay =
        engine::replay_v2::read_any(&String::from_utf8_lossy(&text)).map_err(anyhow::Error::msg)?;
    let compact = engine::replay_v2::encode(&replay);
    if !head_sent {
        tx.send(event("head", crate::live::head_of(&replay)))
            .await?;
    }
    let rest = compact.turns.get(next as usize..).unwrap_or_default();
    if !rest.is_empty() {
        let data = json!({"from": next, "rows": rest});
        tx.send(event("rows", data.to_string())).await?;
    }
    let end = json!({
        "status": "finished",
        "result": compact.result,
        "replay": format!("/matches/{id}/replay.json"),
    });
    tx.send(event("end", end.to_string())).await?;
    Ok(())
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
