//! The API's one error path: handlers return [`ApiResult`] and use `?`; a refusal is
//! `{"error": message}` with its status. Every other refusal on `/api/` (an extractor's,
//! the fallback's) is made JSON by the `finish_answers` layer of [`super::app`].

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

use super::error::AppError;

#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
}

pub type ApiResult<T> = Result<T, ApiError>;

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }

    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(json!({ "error": self.message }))).into_response()
    }
}

/// An internal error keeps its cause in the log; the client sees only that there was
/// one (see [`AppError::public_message`]).
impl From<AppError> for ApiError {
    fn from(e: AppError) -> ApiError {
        ApiError::new(e.status(), e.public_message())
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(e: sqlx::Error) -> ApiError {
        AppError::from(e).into()
    }
}

impl From<anyhow::Error> for ApiError {
    fn from(e: anyhow::Error) -> ApiError {
        AppError::from(e).into()
    }
}
