//! Bots and their versions: the "New bot" page, a bot's page with its versions and
//! the upload of a new one, downloads for the owner, and the same over the API with a
//! token (`POST /api/bots`, `POST /api/bots/{name}/versions`, `GET /api/bots/{name}`).
//!
//! An upload is checked completely (unpacked into a scratch folder with the archive
//! caps, its language found) before anything is stored; the build itself happens
//! later, in the builder.

use askama::Template;
use axum::extract::{DefaultBodyLimit, Multipart, Path, State};
use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::json;
use sha2::{Digest, Sha256};
use time::OffsetDateTime;

use super::error::{AppError, AppResult};
use super::profile::when;
use super::session::{ApiUser, LoggedIn, User, Visitor};
use super::{AppState, Layout};
use crate::archive;
use crate::languages::CUSTOM;

pub fn router(max_upload: u64) -> Router<AppState> {
    let limit = DefaultBodyLimit::max(max_upload as usize + 1024 * 1024);
    Router::new()
        .route("/bots/new", get(new_page).post(new_bot).layer(limit))
        .route("/bots/{name}", get(bot_page))
        .route("/bots/{name}/versions", post(new_version).layer(limit))
        .route("/bots/{name}/versions/{number}/source", get(source))
        .route("/bots/{name}/versions/{number}/logs", get(logs))
        .route(
            "/bots/{name}/versions/{number}/smoke.json",
            get(smoke_replay),
        )
        .route("/api/bots", post(api_new_bot).layer(limit))
        .route(
            "/api/bots/{name}/versions",
            post(api_new_version).layer(limit),
        )
        .route("/api/bots/{name}", get(api_bot))
}

/// What a bot's name may be.
pub fn check_bot_name(name: &str) -> Result<(), String> {
    if (1..=32).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    {
        Ok(())
    } else {
        Err("A bot name is 1 to 32 letters, digits, `-` or `_`.".to_string())
    }
}

/// The fields of an upload form.
#[derive(Default)]
struct Upload {
    name: String,
    language: String,
    compile: String,
    run: String,
    file_name: String,
    file: Vec<u8>,
}

/// An upload that cannot be taken, with the status to answer.
struct Refused(StatusCode, String);

impl From<AppError> for Refused {
    fn from(e: AppError) -> Self {
        Refused(e.status(), e.public_message())
    }
}

async fn read_upload(state: &AppState, mut form: Multipart) -> Result<Upload, Refused> {
    let too_big = |max: u64| {
        Refused(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("The upload is larger than {} MiB.", max / (1024 * 1024)),
        )
    };
    let max = state.config.max_upload_bytes;
    let mut up = Upload::default();
    loop {
        let field = match form.next_field().await {
            Ok(Some(f)) => f,
            Ok(None) => break,
            Err(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => return Err(too_big(max)),
            Err(e) => {
                return Err(Refused(
                    StatusCode::BAD_REQUEST,
                    format!("The form could not be read: {e}"),
                ))
            }
        };
        let name = field.name().unwrap_or("").to_string();
        if name == "file" {
            up.file_name = field.file_name().unwrap_or("").to_string();
        }
        let bytes = match field.bytes().await {
            Ok(b) => b,
            Err(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => return Err(too_big(max)),
            Err(e) => {
                return Err(Refused(
                    StatusCode::BAD_REQUEST,
                    format!("The form could not be read: {e}"),
                ))
            }
        };
        let text = || String::from_utf8_lossy(&bytes).trim().to_string();
        match name.as_str() {
            "file" => up.file = bytes.to_vec(),
            "name" => up.name = text(),
            "language" => up.language = text(),
            "compile_command" => up.compile = text(),
            "run_command" => up.run = text(),
            _ => {}
        }
    }
    if up.file.len() as u64 > max {
        return Err(too_big(max));
    }
    Ok(up)
}

/// Checks an upload through and stores a new version (and the bot, for a new one).
/// Returns the bot's name and the version's number.
async fn accept(
    state: &AppState,
    owner: &User,
    existing: Option<&str>,
    up: Upload,
) -> Result<(String, i32), Refused> {
    let bad = |m: String| Refused(StatusCode::BAD_REQUEST, m);
    let bot_name = match existing {
        Some(n) => n.to_string(),
        None => {
            check_bot_name(&up.name).map_err(bad)?;
            up.name.clone()
        }
    };
    if up.file.is_empty() {
        return Err(bad(if up.file_name.is_empty() {
            "Choose a file to upload.".into()
        } else {
            format!("`{}` is empty.", up.file_name)
        }));
    }
    for (what, cmd) in [("build", &up.compile), ("run", &up.run)] {
        if cmd.len() > 1000 || cmd.contains('\n') {
            return Err(bad(format!(
                "The {what} command must be one line of at most 1000 characters."
            )));
        }
    }
    // Unpack into a scratch folder to check everything before storing anything.
    let languages = state.languages.clone();
    let caps = archive::Caps::default();
    let (file, file_name, choice) = (up.file.clone(), up.file_name.clone(), up.language.clone());
    let run_given = !up.run.is_empty();
    // Outside: the platform's trouble (the scratch folder); inside: why the upload
    // cannot be used, for its owner.
    let checked = tokio::task::spawn_blocking(move || -> std::io::Result<Result<(String, String), String>> {
        let scratch = std::env::temp_dir().join(format!("bottlebats-upload-{}", crate::web::session::random_token()));
        // Readable by the server alone while it is looked at.
        std::os::unix::fs::DirBuilderExt::mode(&mut std::fs::DirBuilder::new(), 0o700)
            .create(&scratch)?;
        let result = (|| {
            let root = archive::unpack(&file, &file_name, &scratch, caps).map_err(|e| format!("The upload cannot be used: {e}."))?;
            match choice.as_str() {
                CUSTOM => {
                    if !run_given {
                        return Err("For \"custom\", give at least the run command.".into());
                    }
                    Ok((CUSTOM.to_string(), String::new()))
                }
                "" | "auto" if archive::kind_of(&file) == archive::Kind::Single => {
                    let name = root.read_dir().ok().and_then(|mut d| d.next()).and_then(|e| e.ok()).map(|e| e.file_name().to_string_lossy().into_owned()).unwrap_or_default();
                    match languages.by_extension(&name) {
                        Some(l) => Ok((l.key.clone(), name)),
                        None => Err(format!("No language offered here uses files like `{name}`; upload an archive with an entry file, or choose \"custom\".")),
                    }
                }
                "" | "auto" => languages.detect(&root, None).map_err(|e| format!("The upload cannot be used: {e}.")),
                key => languages.detect(&root, Some(key)).map_err(|e| format!("The upload cannot be used: {e}.")),
            }
        })();
        let _ = std::fs::remove_dir_all(&scratch);
        Ok(result)
    })
    .await
    .map_err(|e| AppError::Internal(e.into()))?
    .map_err(|e| AppError::Internal(anyhow::Error::from(e).context("the upload's scratch folder")))?;
    let (language, entry) = checked.map_err(bad)?;

    let sha = Sha256::digest(&up.file).to_vec();
    let custom = language == CUSTOM;
    let mut tx = state.db.begin().await.map_err(AppError::from)?;
    // One upload of a user at a time: the count of waiting versions below and the next
    // version number are read and written without another upload in between.
    sqlx::query("select 1 from users where id = $1 for update")
        .bind(owner.id)
        .execute(&mut *tx)
        .await
        .map_err(AppError::from)?;
    let waiting: i64 = sqlx::query_scalar(
        "select count(*) from bot_versions v join bots b on b.id = v.bot_id \
         where b.owner_id = $1 and v.status in ('pending', 'building', 'testing')",
    )
    .bind(owner.id)
    .fetch_one(&mut *tx)
    .await
    .map_err(AppError::from)?;
    let cap = state.config.pending_builds;
    if waiting >= i64::from(cap) {
        return Err(Refused(
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "You have {waiting} version(s) waiting to be built, the most this site takes at once ({cap}). Upload again when one of them is done."
            ),
        ));
    }
    let bot_id: i64 = match existing {
        Some(name) => sqlx::query_scalar(
            "select id from bots where lower(name) = lower($1) and owner_id = $2",
        )
        .bind(name)
        .bind(owner.id)
        .fetch_optional(&mut *tx)
        .await
        .map_err(AppError::from)?
        .ok_or(Refused(
            StatusCode::FORBIDDEN,
            "Only its owner can upload versions of this bot.".into(),
        ))?,
        None => {
            let made = sqlx::query_scalar(
                "insert into bots (owner_id, name) values ($1, $2) returning id",
            )
            .bind(owner.id)
            .bind(&bot_name)
            .fetch_one(&mut *tx)
            .await;
            match made {
                Ok(id) => id,
                Err(sqlx::Error::Database(e)) if e.constraint() == Some("bots_name_key") => {
                    return Err(bad(format!(
                        "A bot called `{bot_name}` exists already; choose another name."
                    )))
                }
                Err(e) => return Err(AppError::from(e).into()),
            }
        }
    };
    let number: i32 = sqlx::query_scalar(
        "insert into bot_versions (bot_id, number, language, entry, compile_command, run_command, \
             archive, archive_name, archive_sha256) \
         select $1, coalesce(max(number), 0) + 1, $2, $3, $4, $5, $6, $7, $8 from bot_versions where bot_id = $1 \
         returning number",
    )
    .bind(bot_id)
    .bind(&language)
    .bind(&entry)
    .bind(custom.then_some(up.compile.as_str()).filter(|c| !c.is_empty()))
    .bind(custom.then_some(up.run.as_str()))
    .bind(&up.file)
    .bind(if up.file_name.is_empty() { "upload" } else { up.file_name.as_str() })
    .bind(sha)
    .fetch_one(&mut *tx)
    .await
    .map_err(AppError::from)?;
    tx.commit().await.map_err(AppError::from)?;
    tracing::info!(bot = %bot_name, version = number, %language, owner = %owner.name, "uploaded");
    Ok((bot_name, number))
}

/// A language as the upload form offers it.
struct Choice {
    key: String,
    name: String,
    entries: String,
}

#[derive(Template)]
#[template(path = "bots/new.html")]
struct NewPage {
    layout: Layout,
    choices: Vec<Choice>,
    name: String,
    language: String,
    compile: String,
    run: String,
    max_mib: u64,
    error: Option<String>,
}

fn choices(state: &AppState) -> Vec<Choice> {
    state
        .languages
        .available()
        .map(|e| Choice {
            key: e.key.clone(),
            name: e.language.name.clone(),
            entries: e.language.entries.join(", "),
        })
        .collect()
}

async fn new_page(State(state): State<AppState>, who: LoggedIn) -> AppResult<Html<String>> {
    let page = NewPage {
        layout: who.layout(),
        choices: choices(&state),
        name: String::new(),
        language: "auto".into(),
        compile: String::new(),
        run: String::new(),
        max_mib: state.config.max_upload_bytes / (1024 * 1024),
        error: None,
    };
    Ok(Html(page.render()?))
}

async fn new_bot(
    State(state): State<AppState>,
    who: LoggedIn,
    form: Multipart,
) -> AppResult<Response> {
    let up = match read_upload(&state, form).await {
        Ok(u) => u,
        Err(Refused(status, message)) => return Ok(super::error::error_page(status, message)),
    };
    let (name, language, compile, run) = (
        up.name.clone(),
        up.language.clone(),
        up.compile.clone(),
        up.run.clone(),
    );
    match accept(&state, &who.user, None, up).await {
        Ok((bot, _)) => Ok(Redirect::to(&format!("/bots/{bot}")).into_response()),
        Err(Refused(status, message)) => {
            let page = NewPage {
                layout: who.layout(),
                choices: choices(&state),
                name: name.chars().take(64).collect(),
                language,
                compile,
                run,
                max_mib: state.config.max_upload_bytes / (1024 * 1024),
                error: Some(message),
            };
            Ok((status, Html(page.render()?)).into_response())
        }
    }
}

/// A version as the bot page lists it.
pub struct VersionRow {
    pub number: i32,
    pub status: String,
    pub language: String,
    pub uploaded: String,
    pub failure: Option<String>,
    pub build_log: Option<String>,
    pub stderr: Option<String>,
    /// Its logs are not shown inline (an older version), or only in part.
    pub logs_link: bool,
    pub has_replay: bool,
    /// Its logs start unfolded: the newest version, when it failed.
    pub open: bool,
}

/// How long after its upload the page of a version on its way keeps refreshing itself;
/// past that the builder is busy or stopped, and the page says so instead.
const REFRESH_FOR: time::Duration = time::Duration::minutes(10);

#[derive(sqlx::FromRow)]
struct BotRow {
    id: i64,
    name: String,
    owner_id: i64,
    owner: String,
    created_at: OffsetDateTime,
    active: Option<i32>,
    #[sqlx(flatten)]
    record: super::bot_stats::Record,
}

async fn find_bot(state: &AppState, name: &str) -> AppResult<BotRow> {
    find_bot_in(&state.db, name).await
}

async fn find_bot_in<'e>(db: impl sqlx::PgExecutor<'e>, name: &str) -> AppResult<BotRow> {
    sqlx::query_as::<_, BotRow>(
        "select b.id, b.name, b.owner_id, u.name as owner, b.created_at, v.number as active, \
             b.mu, b.sigma, b.games, b.wins, b.losses, b.draws \
         from bots b join users u on u.id = b.owner_id left join bot_versions v on v.id = b.active_version_id \
         where lower(b.name) = lower($1)",
    )
    .bind(name)
    .fetch_optional(db)
    .await?
    .ok_or(AppError::NotFound)
}

#[derive(sqlx::FromRow)]
struct VersionDb {
    number: i32,
    status: String,
    language: String,
    created_at: OffsetDateTime,
    failure: Option<String>,
    has_logs: bool,
    has_replay: bool,
}

/// The logs of a version as its owner's page shows them inline.
#[derive(sqlx::FromRow)]
struct LogsDb {
    number: i32,
    build_log: Option<String>,
    smoke_stderr: Option<String>,
    /// Either was longer than [`INLINE_LOG`].
    cut: bool,
}

/// Versions whose logs the owner's bot page shows inline (the newest); the others'
/// are a link away, so that a bot with many versions keeps a light page.
const INLINE_VERSIONS: i64 = 3;
/// Characters of each log shown inline; the whole log is a link away.
const INLINE_LOG: i32 = 64 * 1024;

/// The newest versions' logs, cut to [`INLINE_LOG`], for the bot's owner.
async fn inline_logs(state: &AppState, bot_id: i64) -> AppResult<Vec<LogsDb>> {
    Ok(sqlx::query_as::<_, LogsDb>(
        "select number, left(build_log, $2) as build_log, left(smoke_stderr, $2) as smoke_stderr, \
             coalesce(length(build_log) > $2 or length(smoke_stderr) > $2, false) as cut \
         from bot_versions where bot_id = $1 order by number desc limit $3",
    )
    .bind(bot_id)
    .bind(INLINE_LOG)
    .bind(INLINE_VERSIONS)
    .fetch_all(&state.db)
    .await?)
}

/// A bot and its versions as one moment saw them: a build finishing between the two
/// reads would otherwise show a version active while no version plays.
async fn bot_with_versions(state: &AppState, name: &str) -> AppResult<(BotRow, Vec<VersionDb>)> {
    let mut tx = state.db.begin().await?;
    sqlx::query("set transaction isolation level repeatable read read only")
        .execute(&mut *tx)
        .await?;
    let bot = find_bot_in(&mut *tx, name).await?;
    let versions = sqlx::query_as::<_, VersionDb>(
        "select number, status, language, created_at, failure, \
             coalesce(build_log <> '' or smoke_stderr <> '', false) as has_logs, \
             smoke_replay is not null as has_replay \
         from bot_versions where bot_id = $1 order by number desc",
    )
    .bind(bot.id)
    .fetch_all(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok((bot, versions))
}

#[derive(Template)]
#[template(path = "bots/bot.html")]
struct BotPage {
    layout: Layout,
    name: String,
    owner: String,
    created: String,
    active: Option<i32>,
    is_owner: bool,
    versions: Vec<VersionRow>,
    choices: Vec<Choice>,
    max_mib: u64,
    error: Option<String>,
    /// The newest version still on its way (pending, building or testing), if any.
    on_its_way: Option<(i32, String)>,
    /// The page refreshes itself every few seconds: a version is on its way and was
    /// uploaded recently.
    refresh: bool,
    /// Where a script uploads a new version.
    api_url: String,
    /// Rating, results, chart, recent matches; the error board for the owner.
    stats: super::bot_stats::Stats,
}

async fn render_bot(
    state: &AppState,
    visitor: &Visitor,
    name: &str,
    error: Option<(StatusCode, String)>,
) -> AppResult<Response> {
    let (bot, rows) = bot_with_versions(state, name).await?;
    let is_owner = visitor.user.as_ref().is_some_and(|u| u.id == bot.owner_id);
    let waiting = rows
        .iter()
        .find(|v| matches!(v.status.as_str(), "pending" | "building" | "testing"));
    let on_its_way = waiting.map(|v| (v.number, v.status.clone()));
    let site = state
        .config
        .base_url
        .as_deref()
        .unwrap_or("https://THIS-SITE");
    let api_url = format!(
        "{}/api/bots/{}/versions",
        site.trim_end_matches('/'),
        bot.name
    );
    let refresh = waiting.is_some_and(|v| OffsetDateTime::now_utc() - v.created_at < REFRESH_FOR);
    let stats = super::bot_stats::stats(state, bot.id, &bot.name, is_owner, bot.record).await?;
    let mut logs = if is_owner {
        inline_logs(state, bot.id).await?
    } else {
        Vec::new()
    };
    let page = BotPage {
        stats,
        layout: visitor.layout(),
        name: bot.name,
        owner: bot.owner,
        created: when(bot.created_at),
        active: bot.active,
        is_owner,
        versions: rows
            .into_iter()
            .enumerate()
            .map(|(i, v)| {
                let inline = logs
                    .iter()
                    .position(|l| l.number == v.number)
                    .map(|k| logs.swap_remove(k));
                let cut = inline.as_ref().is_some_and(|l| l.cut);
                let (build_log, stderr) =
                    inline.map_or((None, None), |l| (l.build_log, l.smoke_stderr));
                VersionRow {
                    open: i == 0 && v.status == "failed",
                    number: v.number,
                    status: v.status,
                    language: match state.languages.get(&v.language) {
                        Some(l) => l.language.name.clone(),
                        None if v.language == CUSTOM => "Custom commands".into(),
                        None => v.language.clone(),
                    },
                    uploaded: when(v.created_at),
                    failure: v.failure.filter(|_| is_owner),
                    logs_link: is_owner
                        && v.has_logs
                        && (cut || build_log.is_none() && stderr.is_none()),
                    build_log: build_log.filter(|l| !l.is_empty()),
                    stderr: stderr.filter(|s| !s.is_empty()),
                    has_replay: v.has_replay && is_owner,
                }
            })
            .collect(),
        choices: choices(state),
        max_mib: state.config.max_upload_bytes / (1024 * 1024),
        on_its_way,
        refresh,
        api_url,
        error: error.as_ref().map(|e| e.1.clone()),
    };
    let status = error.map_or(StatusCode::OK, |e| e.0);
    Ok((status, Html(page.render()?)).into_response())
}

async fn bot_page(
    State(state): State<AppState>,
    visitor: Visitor,
    Path(name): Path<String>,
) -> AppResult<Response> {
    render_bot(&state, &visitor, &name, None).await
}

async fn new_version(
    State(state): State<AppState>,
    who: LoggedIn,
    Path(name): Path<String>,
    form: Multipart,
) -> AppResult<Response> {
    let bot = find_bot(&state, &name).await?;
    let visitor = Visitor {
        user: Some(who.user.clone()),
        csrf: who.csrf.clone(),
    };
    if bot.owner_id != who.user.id {
        return Err(AppError::Forbidden(
            "Only its owner can upload versions of this bot.".into(),
        ));
    }
    let up = match read_upload(&state, form).await {
        Ok(u) => u,
        Err(Refused(status, message)) => return Ok(super::error::error_page(status, message)),
    };
    match accept(&state, &who.user, Some(&bot.name), up).await {
        Ok((bot, _)) => Ok(Redirect::to(&format!("/bots/{bot}")).into_response()),
        Err(Refused(status, message)) => {
            render_bot(&state, &visitor, &name, Some((status, message))).await
        }
    }
}

/// The owner's own files of a version.
async fn owned_version(
    state: &AppState,
    user: &User,
    name: &str,
    number: i32,
    what: &str,
) -> AppResult<(Option<Vec<u8>>, String)> {
    let row: Option<(i64, Option<Vec<u8>>, String)> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "select b.owner_id, v.{what}, v.archive_name from bots b join bot_versions v on v.bot_id = b.id \
         where lower(b.name) = lower($1) and v.number = $2"
    )))
    .bind(name)
    .bind(number)
    .fetch_optional(&state.db)
    .await?;
    let (owner, bytes, file) = row.ok_or(AppError::NotFound)?;
    if owner != user.id {
        return Err(AppError::Forbidden(
            "Only the bot's owner can download this.".into(),
        ));
    }
    Ok((bytes, file))
}

async fn source(
    State(state): State<AppState>,
    who: LoggedIn,
    Path((name, number)): Path<(String, i32)>,
) -> AppResult<Response> {
    let (bytes, file) = owned_version(&state, &who.user, &name, number, "archive").await?;
    let file: String = file
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || ".-_".contains(*c))
        .collect();
    Ok((
        [
            (header::CONTENT_TYPE, "application/octet-stream".to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}-v{number}-{file}\""),
            ),
        ],
        bytes.unwrap_or_default(),
    )
        .into_response())
}

/// A version's whole build log and test-game stderr, as text, for its owner.
async fn logs(
    State(state): State<AppState>,
    who: LoggedIn,
    Path((name, number)): Path<(String, i32)>,
) -> AppResult<Response> {
    let row: Option<(i64, Option<String>, Option<String>)> = sqlx::query_as(
        "select b.owner_id, v.build_log, v.smoke_stderr from bots b join bot_versions v on v.bot_id = b.id \
         where lower(b.name) = lower($1) and v.number = $2",
    )
    .bind(&name)
    .bind(number)
    .fetch_optional(&state.db)
    .await?;
    let (owner, build_log, stderr) = row.ok_or(AppError::NotFound)?;
    if owner != who.user.id {
        return Err(AppError::Forbidden(
            "Only the bot's owner can read its logs.".into(),
        ));
    }
    let text = format!(
        "Build log of {name} version {number}\n\n{}\n\nStderr of {name} version {number} in its test game\n\n{}\n",
        build_log.filter(|l| !l.is_empty()).as_deref().unwrap_or("(none)"),
        stderr.filter(|s| !s.is_empty()).as_deref().unwrap_or("(none)"),
    );
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}

async fn smoke_replay(
    State(state): State<AppState>,
    who: LoggedIn,
    Path((name, number)): Path<(String, i32)>,
) -> AppResult<Response> {
    let (bytes, _) = owned_version(&state, &who.user, &name, number, "smoke_replay").await?;
    let bytes = bytes.ok_or(AppError::NotFound)?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CONTENT_ENCODING, "gzip"),
        ],
        bytes,
    )
        .into_response())
}

fn api_error(status: StatusCode, message: String) -> Response {
    (status, Json(json!({ "error": message }))).into_response()
}

async fn api_upload(
    state: AppState,
    user: User,
    existing: Option<String>,
    form: Multipart,
) -> Response {
    let up = match read_upload(&state, form).await {
        Ok(u) => u,
        Err(Refused(s, m)) => return api_error(s, m),
    };
    if let Some(name) = &existing {
        match find_bot(&state, name).await {
            Ok(b) if b.owner_id == user.id => {}
            Ok(_) => {
                return api_error(
                    StatusCode::FORBIDDEN,
                    "Only its owner can upload versions of this bot.".into(),
                )
            }
            Err(AppError::NotFound) => {
                return api_error(StatusCode::NOT_FOUND, format!("There is no bot `{name}`."))
            }
            Err(e) => return api_error(e.status(), e.public_message()),
        }
    }
    match accept(&state, &user, existing.as_deref(), up).await {
        Ok((bot, number)) => (
            StatusCode::CREATED,
            Json(json!({
                "bot": bot,
                "version": number,
                "status": "pending",
                "url": format!("/bots/{bot}"),
            })),
        )
            .into_response(),
        Err(Refused(s, m)) => api_error(s, m),
    }
}

async fn api_new_bot(
    State(state): State<AppState>,
    ApiUser(user): ApiUser,
    form: Multipart,
) -> Response {
    api_upload(state, user, None, form).await
}

async fn api_new_version(
    State(state): State<AppState>,
    ApiUser(user): ApiUser,
    Path(name): Path<String>,
    form: Multipart,
) -> Response {
    api_upload(state, user, Some(name), form).await
}

async fn api_bot(
    State(state): State<AppState>,
    viewer: Option<ApiUser>,
    Path(name): Path<String>,
) -> Response {
    let (bot, rows) = match bot_with_versions(&state, &name).await {
        Ok(b) => b,
        Err(AppError::NotFound) => {
            return api_error(StatusCode::NOT_FOUND, format!("There is no bot `{name}`."))
        }
        Err(e) => return api_error(e.status(), e.public_message()),
    };
    let is_owner = viewer.is_some_and(|ApiUser(u)| u.id == bot.owner_id);
    let versions: Vec<_> = rows
        .iter()
        .map(|v| {
            let mut o = json!({
                "number": v.number,
                "status": v.status,
                "language": v.language,
                "uploaded": v.created_at.unix_timestamp(),
            });
            if is_owner {
                o["failure"] = json!(v.failure);
            }
            o
        })
        .collect();
    let (record, round) = (bot.record, super::ladder::round2);
    Json(json!({
        "id": bot.id,
        "name": bot.name,
        "owner": bot.owner,
        "active_version": bot.active,
        "mu": round(record.mu),
        "sigma": round(record.sigma),
        "rating": round(record.rating()),
        "games": record.games,
        "wins": record.wins,
        "losses": record.losses,
        "draws": record.draws,
        "versions": versions,
    }))
    .into_response()
}
