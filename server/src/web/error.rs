//! One error type for every handler. Internal errors are logged with their cause and
//! shown as a plain "something went wrong" page; the others say what the visitor can do.

use askama::Template;
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};

use super::Layout;

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("page not found")]
    NotFound,
    #[error("{0}")]
    BadRequest(String),
    #[error("you must log in to see this page")]
    Unauthorized,
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    TooManyRequests(String),
    /// Busy for a moment (every password hasher taken): come back soon.
    #[error("{0}")]
    Unavailable(String),
    /// Any other refusal, with its status (an upload too large, say).
    #[error("{1}")]
    Status(StatusCode, String),
    #[error(transparent)]
    Internal(anyhow::Error),
}

impl From<anyhow::Error> for AppError {
    fn from(e: anyhow::Error) -> Self {
        match e.downcast_ref::<crate::accounts::Busy>() {
            Some(busy) => AppError::Unavailable(format!("The server is busy: {busy}.")),
            None => AppError::Internal(e),
        }
    }
}

impl From<sqlx::Error> for AppError {
    fn from(e: sqlx::Error) -> Self {
        AppError::Internal(e.into())
    }
}

impl From<askama::Error> for AppError {
    fn from(e: askama::Error) -> Self {
        AppError::Internal(e.into())
    }
}

impl AppError {
    pub fn status(&self) -> StatusCode {
        match self {
            AppError::NotFound => StatusCode::NOT_FOUND,
            AppError::BadRequest(_) => StatusCode::BAD_REQUEST,
            AppError::Unauthorized => StatusCode::UNAUTHORIZED,
            AppError::Forbidden(_) => StatusCode::FORBIDDEN,
            AppError::TooManyRequests(_) => StatusCode::TOO_MANY_REQUESTS,
            AppError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            AppError::Status(status, _) => *status,
            AppError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// What the visitor is told, on a page or in JSON. An internal error is logged
    /// with its cause and never shown.
    pub fn public_message(&self) -> String {
        match self {
            AppError::Internal(e) => {
                tracing::error!("internal error: {e:#}");
                "The server ran into a problem. It has been logged; please try again later."
                    .to_string()
            }
            AppError::NotFound => "There is nothing at this address.".to_string(),
            other => other.to_string(),
        }
    }
}

#[derive(Template)]
#[template(path = "error.html")]
struct ErrorPage {
    layout: Layout,
    status: u16,
    title: &'static str,
    message: String,
}

/// What an error page says, kept on the response: the page is drawn once, on the way
/// out, by [`super::visitor_error_pages`] with the visitor's own header (or by
/// `finish_answers` as JSON on the API).
#[derive(Clone)]
pub struct ErrorMessage(pub String);

/// An error page to be drawn on the way out (see [`ErrorMessage`]): wherever a refusal
/// is made, the visitor need not be known.
pub fn error_page(status: StatusCode, message: String) -> Response {
    let mut r = status.into_response();
    r.extensions_mut().insert(ErrorMessage(message));
    r
}

/// Renders an error page with the visitor's header (their name, or "Log in").
pub fn error_page_for(layout: Layout, status: StatusCode, message: String) -> Response {
    let title = match status.as_u16() {
        404 => "Page not found",
        400 => "That request could not be handled",
        401 => "Please log in",
        403 => "Not allowed",
        413 => "Too large",
        429 => "Slow down",
        503 => "Busy",
        _ => "Something went wrong",
    };
    let page = ErrorPage {
        layout,
        status: status.as_u16(),
        title,
        message,
    };
    match page.render() {
        Ok(html) => (status, Html(html)).into_response(),
        Err(_) => (status, title).into_response(),
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        error_page(self.status(), self.public_message())
    }
}

pub type AppResult<T> = Result<T, AppError>;
