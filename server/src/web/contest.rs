//! The contest's phase on the site: the deadline's banner on every page (with a
//! countdown that `static/countdown.mjs` keeps ticking) and `GET /api/contest`. The
//! phase itself is [`crate::contest`]'s; `/admin` sets it.

use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::json;
use time::OffsetDateTime;

use super::api::ApiResult;
use super::AppState;
use crate::contest::{format_deadline, time_left, Contest};

pub fn router() -> Router<AppState> {
    Router::new().route("/api/contest", get(api_contest))
}

/// The banner every page shows while there is a deadline, or while the ladder is
/// paused.
#[derive(Clone, Debug)]
pub struct Banner {
    /// Whether the organizers paused the ladder.
    pub paused: bool,
    pub deadline: Option<DeadlineBanner>,
}

/// The deadline's part of the banner.
#[derive(Clone, Debug)]
pub struct DeadlineBanner {
    /// Whether submissions are closed.
    pub closed: bool,
    /// Whether the ladder stopped at the deadline.
    pub frozen: bool,
    /// The deadline in words, and as RFC 3339 for the countdown.
    pub deadline: String,
    pub iso: String,
    /// How long is left, in words, when the page was made.
    pub left: String,
}

impl Banner {
    /// The banner of a phase: none without a deadline or a pause.
    pub fn of(c: &Contest) -> Option<Banner> {
        let now = OffsetDateTime::now_utc();
        let deadline = c.deadline.map(|d| DeadlineBanner {
            closed: c.closed_at(now),
            frozen: c.frozen(),
            deadline: format_deadline(d),
            iso: rfc3339(d),
            left: time_left(now, d),
        });
        (c.paused || deadline.is_some()).then_some(Banner {
            paused: c.paused,
            deadline,
        })
    }
}

fn rfc3339(t: OffsetDateTime) -> String {
    t.format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_default()
}

/// `{"deadline": RFC 3339 or null, "closed", "frozen", "seconds_left"}`.
async fn api_contest(State(state): State<AppState>) -> ApiResult<Response> {
    let c = state.contest.get(&state.db).await?;
    let left = c
        .deadline
        .map(|d| (d - OffsetDateTime::now_utc()).whole_seconds().max(0));
    Ok(Json(json!({
        "deadline": c.deadline.map(rfc3339),
        "closed": c.closed(),
        "frozen": c.frozen(),
        "seconds_left": left,
    }))
    .into_response())
}
