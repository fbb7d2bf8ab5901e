//! What monitors read: `/healthz` for a load balancer or compose's health check, and
//! `/metrics` for Prometheus (see [`crate::metrics`]).

use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::json;

use super::session::bearer_token;
use super::AppState;
use crate::tokens::constant_time_eq;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/healthz", get(healthz))
        .route("/metrics", get(metrics))
}

/// `200 {"status":"ok","database":"ok","version":…,"revision":…}`, or `503` when the
/// database does not answer.
async fn healthz(State(state): State<AppState>) -> Response {
    let db = tokio::time::timeout(
        std::time::Duration::from_secs(3),
        sqlx::query_scalar!("select 1 as one").fetch_one(&state.db),
    )
    .await;
    match db {
        Ok(Ok(_)) => Json(json!({
            "status": "ok",
            "database": "ok",
            "version": crate::VERSION,
            "revision": crate::REVISION,
        }))
        .into_response(),
        Ok(Err(e)) => {
            // The cause goes to the log; a public health check names no host or user.
            tracing::warn!("health check: the database failed: {e}");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                Json(json!({"status": "error", "database": "unavailable"})),
            )
                .into_response()
        }
        Err(_) => (
            StatusCode::SERVICE_UNAVAILABLE,
            Json(json!({"status": "error", "database": "no answer within 3 s"})),
        )
            .into_response(),
    }
}

/// `GET /metrics`: with a `metrics_token` set, only for its bearer, and then naming
/// each worker.
async fn metrics(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let private = match &state.config.metrics_token {
        Some(want) => {
            let sent = bearer_token(&headers).unwrap_or_default();
            if !constant_time_eq(sent, want) {
                return (
                    StatusCode::UNAUTHORIZED,
                    [(header::WWW_AUTHENTICATE, "Bearer")],
                    "/metrics needs the metrics token: `Authorization: Bearer TOKEN`\n",
                )
                    .into_response();
            }
            true
        }
        None => false,
    };
    match crate::metrics::text(&state.db, &state.metrics_refreshed, private).await {
        Ok(text) => ([(header::CONTENT_TYPE, crate::metrics::CONTENT_TYPE)], text).into_response(),
        Err(_) => (
            StatusCode::INTERNAL_SERVER_ERROR,
            "metrics could not be encoded",
        )
            .into_response(),
    }
}
