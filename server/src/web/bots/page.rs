//! A bot's page (its versions, its record, and for its owner the logs and the upload
//! form) and the "New bot" page.

use askama::Template;
use axum::extract::{Multipart, Path, State};
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::Extension;
use time::OffsetDateTime;

use super::{accept, find_bot, find_bot_in, read_upload, BotRow, Refused};
use crate::ids::BotId;
use crate::languages::CUSTOM;
use crate::status::VersionStatus;
use crate::web::error::{AppError, AppResult};
use crate::web::format::when;
use crate::web::session::{LoggedIn, UploadToken, Visitor};
use crate::web::{AppState, Layout};

/// A language as the upload form offers it.
pub struct Choice {
    pub key: String,
    pub name: String,
    pub entries: String,
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

/// Characters of an upload's fields given back to a refused form: the commands' fields
/// take 1000, a language's key is short.
const COMMAND_FIELD: usize = 1000;
const LANGUAGE_FIELD: usize = 32;
/// A bot's name and game as echoed (names have 32 characters at most: a longer one is
/// shown as typed, to be told its length).
const NAME_FIELD: usize = 64;
const GAME_FIELD: usize = 32;

fn cut(text: &str, most: usize) -> String {
    text.chars().take(most).collect()
}

/// The upload form's fields as typed (never the file), to draw a refused form again.
#[derive(Clone, Debug, Default)]
pub struct UploadTyped {
    pub language: String,
    pub compile: String,
    pub run: String,
    pub candidate: bool,
}

impl UploadTyped {
    pub fn of(up: &crate::uploads::Upload) -> UploadTyped {
        UploadTyped {
            language: cut(&up.language, LANGUAGE_FIELD),
            compile: cut(&up.compile, COMMAND_FIELD),
            run: cut(&up.run, COMMAND_FIELD),
            candidate: up.candidate,
        }
    }

    /// The language chosen: as typed, `auto` when none was.
    fn language(&self) -> String {
        if self.language.is_empty() {
            "auto".into()
        } else {
            self.language.clone()
        }
    }
}

/// What was typed in a refused form of the bot page, to draw it again.
#[derive(Clone, Debug, Default)]
pub struct BotTyped {
    /// The upload form's.
    pub upload: UploadTyped,
    /// The A/B test form's: the version it was for, and the games typed.
    pub abtest: Option<(i32, String)>,
    /// The refusal is the change-game or delete form's: shown beside them.
    pub change: bool,
}

fn max_mib(state: &AppState) -> u64 {
    state.config.max_upload_bytes / (1024 * 1024)
}

#[derive(Template)]
#[template(path = "bots/new.html")]
struct NewPage {
    layout: Layout,
    choices: Vec<Choice>,
    /// The open games, a choice when there are several, and the one chosen.
    games: Vec<crate::web::games::GameChoice>,
    game: String,
    name: String,
    language: String,
    compile: String,
    run: String,
    max_mib: u64,
    error: Option<String>,
    /// The site takes remote bots (`crate::remote`): the page offers one.
    remote: bool,
    /// The remote bot's form: its name as typed, and why it was refused.
    remote_name: String,
    remote_error: Option<String>,
}

/// `GET /bots/new?game=NAME`: the form, the game the contestant came from chosen.
#[derive(serde::Deserialize)]
pub struct NewQuery {
    game: Option<String>,
}

pub async fn new_page(
    State(state): State<AppState>,
    who: LoggedIn,
    axum::extract::Query(q): axum::extract::Query<NewQuery>,
) -> AppResult<Html<String>> {
    let games = crate::web::games::choices(&state).await?;
    // Only an open game's name is taken from the address.
    let game = (q.game)
        .filter(|g| games.iter().any(|c| c.name == *g))
        .unwrap_or_default();
    let page = NewPage {
        remote: crate::remote::site_mode(&state.db).await? != crate::remote::Mode::Off,
        layout: who.layout(),
        choices: choices(&state),
        games,
        game,
        name: String::new(),
        language: "auto".into(),
        compile: String::new(),
        run: String::new(),
        max_mib: max_mib(&state),
        error: None,
        remote_name: String::new(),
        remote_error: None,
    };
    Ok(Html(page.render()?))
}

pub async fn new_bot(
    State(state): State<AppState>,
    who: LoggedIn,
    token: Option<Extension<UploadToken>>,
    form: Multipart,
) -> AppResult<Response> {
    // Every refusal, the size limit's too, answers on the form with what was typed.
    let (up, refused) = match read_upload(&state, form, token.as_deref()).await {
        Ok(up) => (up, None),
        Err((refused, partial)) => (partial, Some(refused)),
    };
    let game = cut(&up.game, GAME_FIELD);
    let name = cut(&up.name, NAME_FIELD);
    let typed = UploadTyped::of(&up);
    let refused = match refused {
        Some(r) => r,
        None => match accept(&state, &who.user, None, up).await {
            Ok(stored) => return Ok(Redirect::to(&format!("/bots/{}", stored.bot)).into_response()),
            Err(r) => r,
        },
    };
    let Refused(status, message) = refused;
    let page = NewPage {
        remote: crate::remote::site_mode(&state.db).await? != crate::remote::Mode::Off,
        layout: who.layout(),
        choices: choices(&state),
        games: crate::web::games::choices(&state).await?,
        game,
        name,
        language: typed.language(),
        compile: typed.compile,
        run: typed.run,
        max_mib: max_mib(&state),
        error: Some(message),
        remote_name: String::new(),
        remote_error: None,
    };
    Ok((status, Html(page.render()?)).into_response())
}

/// The "New bot" page again with the remote bot's form as typed and why it was
/// refused (above the upload form when the page shows no remote form: the site takes
/// none, or no more bots).
pub(super) async fn new_remote_refused(
    state: &AppState,
    who: &LoggedIn,
    (game, name): (&str, &str),
    status: StatusCode,
    message: String,
) -> AppResult<Response> {
    let remote = crate::remote::site_mode(&state.db).await? != crate::remote::Mode::Off;
    let layout = who.layout();
    let shown = remote && !layout.submissions_closed();
    let page = NewPage {
        remote,
        layout,
        choices: choices(state),
        games: crate::web::games::choices(state).await?,
        game: cut(game, GAME_FIELD),
        name: String::new(),
        language: "auto".into(),
        compile: String::new(),
        run: String::new(),
        max_mib: max_mib(state),
        error: (!shown).then(|| message.clone()),
        remote_name: cut(name, NAME_FIELD),
        remote_error: shown.then_some(message),
    };
    Ok((status, Html(page.render()?)).into_response())
}

/// A version as the bot page lists it.
pub struct VersionRow {
    pub number: i32,
    pub status: VersionStatus,
    pub language: String,
    pub uploaded: String,
    pub failure: Option<String>,
    /// Why it was held off the ladder (its first ranked games crashed), for its owner.
    pub held: Option<String>,
    /// It runs on its owner's machine: no source, no test game here.
    pub remote: bool,
    pub build_log: Option<String>,
    pub stderr: Option<String>,
    /// Its logs are not shown inline (an older version), or only in part.
    pub logs_link: bool,
    pub has_replay: bool,
    /// Its logs start unfolded: the newest version, when it failed.
    pub open: bool,
    /// Its owner can make it the version that plays, or A/B test it against the active
    /// one: a candidate that passed, or a retired version.
    pub can_activate: bool,
}

/// How long after its upload the page of a version on its way keeps refreshing itself;
/// past that the builder is busy or stopped, and the page says so instead.
const REFRESH_FOR: time::Duration = time::Duration::minutes(10);

/// A version as read for the bot page, without its logs.
struct VersionDb {
    number: i32,
    status: VersionStatus,
    language: String,
    created_at: OffsetDateTime,
    failure: Option<String>,
    held: Option<String>,
    has_logs: bool,
    has_replay: bool,
    test_turn: Option<i32>,
}

/// The logs of a version as its owner's page shows them inline.
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
async fn inline_logs(state: &AppState, bot: BotId) -> AppResult<Vec<LogsDb>> {
    Ok(sqlx::query_as!(
        LogsDb,
        r#"select number, left(build_log, $2) as build_log, left(smoke_stderr, $2) as smoke_stderr,
               coalesce(length(build_log) > $2 or length(smoke_stderr) > $2, false) as "cut!"
           from bot_versions where bot_id = $1 order by number desc limit $3"#,
        bot as BotId,
        INLINE_LOG,
        INLINE_VERSIONS
    )
    .fetch_all(&state.db)
    .await?)
}

/// A bot and its versions as one moment saw them: a build finishing between the two
/// reads would otherwise show a version active while no version plays.
async fn bot_with_versions(state: &AppState, name: &str) -> AppResult<(BotRow, Vec<VersionDb>)> {
    let mut tx = state.db.begin().await?;
    sqlx::query!("set transaction isolation level repeatable read read only")
        .execute(&mut *tx)
        .await?;
    let bot = find_bot_in(&mut *tx, name).await?;
    let versions = sqlx::query_as!(
        VersionDb,
        r#"select number, status as "status: VersionStatus", language, created_at, failure, held,
               coalesce(build_log <> '' or smoke_stderr <> '', false) as "has_logs!",
               smoke_replay is not null as "has_replay!", test_turn
           from bot_versions where bot_id = $1 order by number desc"#,
        bot.id as BotId
    )
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
    /// Why a version was held off the ladder, while no newer one plays.
    held: Option<String>,
    active: Option<i32>,
    /// Out of the ladder: the organizer's reason (empty for others than its owner).
    disabled: Option<String>,
    is_owner: bool,
    versions: Vec<VersionRow>,
    choices: Vec<Choice>,
    max_mib: u64,
    error: Option<String>,
    /// Why a version could not be made active.
    versions_error: Option<String>,
    /// Why the bot's game could not be changed, or the bot not deleted.
    change_error: Option<String>,
    /// The newest version still on its way (pending, building or testing), if any.
    on_its_way: Option<(i32, VersionStatus)>,
    /// The turn its test game has reached, while it plays it.
    test_turn: Option<i32>,
    /// The test game's length.
    test_turns: u32,
    /// What the bot's game calls a turn (`move`).
    test_word: &'static str,
    /// The page refreshes itself every few seconds: a version is on its way and was
    /// uploaded recently.
    refresh: bool,
    /// Where a script uploads a new version.
    api_url: String,
    /// Rating, results, chart, recent matches; the error board for the owner.
    stats: super::stats::Stats,
    /// A logged-in visitor may challenge it, or challenge others with it (its owner).
    can_challenge: bool,
    /// Its latest challenges and A/B tests, for its owner.
    challenges: Vec<crate::challenges::Listed>,
    /// A remote bot's part: connected or not, and for its owner its key and how to
    /// play.
    remote: Option<super::remote::Panel>,
    /// For its owner, while it never played a ranked game: the games it may become a
    /// bot of, and whether it may be deleted.
    change: super::change::Offer,
    /// A refused form's fields as typed.
    typed: BotTyped,
}

impl BotPage {
    /// The upload form's fields: as typed when it was refused, else empty.
    fn upload_language(&self) -> String {
        self.typed.upload.language()
    }

    /// The games the A/B test form of version `number` shows: as typed when it was
    /// refused, else 40.
    fn abtest_games(&self, number: &i32) -> String {
        match &self.typed.abtest {
            Some((v, games)) if v == number => games.clone(),
            _ => "40".into(),
        }
    }

    /// Whether the A/B test form of version `number` was the one refused.
    fn abtest_refused(&self, number: &i32) -> bool {
        self.typed.abtest.as_ref().is_some_and(|(v, _)| v == number)
    }
}

/// The versions as the page lists them, with the owner's inline logs.
fn version_rows(
    state: &AppState,
    rows: Vec<VersionDb>,
    mut logs: Vec<LogsDb>,
    is_owner: bool,
) -> Vec<VersionRow> {
    rows.into_iter()
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
                open: i == 0 && v.status == VersionStatus::Failed,
                number: v.number,
                status: v.status,
                language: match state.languages.get(&v.language) {
                    Some(l) => l.language.name.clone(),
                    None if v.language == CUSTOM => "Custom commands".into(),
                    None => v.language.clone(),
                },
                uploaded: when(v.created_at),
                failure: v.failure.filter(|_| is_owner),
                held: v
                    .held
                    .filter(|_| is_owner && v.status == VersionStatus::Held),
                remote: v.language == crate::remote::LANGUAGE,
                logs_link: is_owner
                    && v.has_logs
                    && (cut || build_log.is_none() && stderr.is_none()),
                build_log: build_log.filter(|l| !l.is_empty()),
                stderr: stderr.filter(|s| !s.is_empty()),
                has_replay: v.has_replay && is_owner,
                can_activate: is_owner
                    && matches!(v.status, VersionStatus::Ready | VersionStatus::Retired),
            }
        })
        .collect()
}

/// The bot page, with a refusal to show: on the upload form, or on the versions when
/// `at_versions` (a version that could not be made active).
pub(super) async fn render_bot(
    state: &AppState,
    visitor: &Visitor,
    name: &str,
    error: Option<(StatusCode, String)>,
    at_versions: bool,
) -> AppResult<Response> {
    render_bot_with(state, visitor, name, error, at_versions, None).await
}

/// [`render_bot`], with a remote bot's new key to show once.
pub(super) async fn render_bot_with(
    state: &AppState,
    visitor: &Visitor,
    name: &str,
    error: Option<(StatusCode, String)>,
    at_versions: bool,
    new_key: Option<String>,
) -> AppResult<Response> {
    let refused = (error, at_versions);
    render_bot_page(state, visitor, name, refused, new_key, BotTyped::default()).await
}

/// The bot page with a refused form drawn again as typed: the upload form's refusal
/// above it, the A/B test form's above the versions.
pub(crate) async fn render_bot_typed(
    state: &AppState,
    visitor: &Visitor,
    name: &str,
    error: (StatusCode, String),
    typed: BotTyped,
) -> AppResult<Response> {
    let at_versions = typed.abtest.is_some() || typed.change;
    render_bot_page(
        state,
        visitor,
        name,
        (Some(error), at_versions),
        None,
        typed,
    )
    .await
}

async fn render_bot_page(
    state: &AppState,
    visitor: &Visitor,
    name: &str,
    (error, at_versions): (Option<(StatusCode, String)>, bool),
    new_key: Option<String>,
    typed: BotTyped,
) -> AppResult<Response> {
    let (bot, rows) = bot_with_versions(state, name).await?;
    let is_owner = visitor.user.as_ref().is_some_and(|u| u.id == bot.owner_id);
    let waiting = rows.iter().find(|v| v.status.on_its_way());
    // A version held off the ladder, unless a newer one plays now.
    let held = (rows.iter())
        .find(|v| v.status == VersionStatus::Held)
        .filter(|h| {
            !rows
                .iter()
                .any(|v| v.number > h.number && v.status == VersionStatus::Active)
        })
        .and_then(|h| h.held.clone());
    let on_its_way = waiting.map(|v| (v.number, v.status));
    let test_turn = waiting
        .filter(|v| v.status == VersionStatus::Testing)
        .and_then(|v| v.test_turn);
    let refresh = waiting.is_some_and(|v| OffsetDateTime::now_utc() - v.created_at < REFRESH_FOR);
    let site = visitor.site.as_str();
    let api_url = format!(
        "{}/api/bots/{}/versions",
        site.trim_end_matches('/'),
        bot.name
    );
    let stats = super::stats::stats(state, &bot, is_owner).await?;
    let (logs, challenges) = if is_owner {
        (
            inline_logs(state, bot.id).await?,
            crate::challenges::recent(&state.db, bot.id, 8).await?,
        )
    } else {
        (Vec::new(), Vec::new())
    };
    let can_challenge = visitor.user.is_some()
        && bot.active.is_some()
        && bot.disabled.is_none()
        // A remote bot's games are played while its session is connected: its owner
        // may ask for them, others have it as no opponent.
        && (!bot.remote || is_owner);
    let remote = match bot.remote {
        true => Some(super::remote::panel(state, &bot, is_owner, new_key, site).await?),
        false => None,
    };
    let change = if is_owner {
        super::change::offer(state, &bot.name).await?
    } else {
        super::change::Offer::default()
    };
    let page = BotPage {
        stats,
        layout: visitor.layout_in(&bot.game),
        versions: version_rows(state, rows, logs, is_owner),
        name: bot.name,
        owner: bot.owner,
        created: when(bot.created_at),
        held,
        active: bot.active,
        // Everyone sees that it is out of the ladder; its owner sees why.
        disabled: bot
            .disabled
            .map(|why| if is_owner { why } else { String::new() }),
        is_owner,
        choices: choices(state),
        max_mib: max_mib(state),
        on_its_way,
        test_turn,
        test_turns: crate::games::kind(&bot.game).map_or(0, |k| k.defaults().max_turns),
        test_word: crate::games::kind(&bot.game).map_or("turn", |k| k.describe().turn.one),
        refresh,
        api_url,
        error: error.as_ref().filter(|_| !at_versions).map(|e| e.1.clone()),
        versions_error: (error.as_ref())
            .filter(|_| at_versions && !typed.change)
            .map(|e| e.1.clone()),
        change_error: error.as_ref().filter(|_| typed.change).map(|e| e.1.clone()),
        can_challenge,
        challenges,
        remote,
        change,
        typed,
    };
    let status = error.map_or(StatusCode::OK, |e| e.0);
    Ok((status, Html(page.render()?)).into_response())
}

pub async fn bot_page(
    State(state): State<AppState>,
    visitor: Visitor,
    Path(name): Path<String>,
) -> AppResult<Response> {
    render_bot(&state, &visitor, &name, None, false).await
}

pub async fn new_version(
    State(state): State<AppState>,
    who: LoggedIn,
    Path(name): Path<String>,
    token: Option<Extension<UploadToken>>,
    form: Multipart,
) -> AppResult<Response> {
    let bot = find_bot(&state, &name).await?;
    if bot.owner_id != who.user.id {
        return Err(AppError::Forbidden(
            "Only its owner can upload versions of this bot.".into(),
        ));
    }
    let visitor = Visitor::from(&who);
    // Every refusal, the size limit's too, answers on the form with what was typed.
    let (up, refused) = match read_upload(&state, form, token.as_deref()).await {
        Ok(up) => (up, None),
        Err((refused, partial)) => (partial, Some(refused)),
    };
    let upload = UploadTyped::of(&up);
    let refused = match refused {
        Some(r) => r,
        None => match accept(&state, &who.user, Some(&bot.name), up).await {
            Ok(stored) => return Ok(Redirect::to(&format!("/bots/{}", stored.bot)).into_response()),
            Err(r) => r,
        },
    };
    let Refused(status, message) = refused;
    let typed = BotTyped {
        upload,
        ..BotTyped::default()
    };
    render_bot_typed(&state, &visitor, &name, (status, message), typed).await
}

#[derive(Template)]
#[template(path = "bots/record.html")]
struct RecordFragment {
    name: String,
    stats: super::stats::Stats,
}

/// `/bots/NAME/record`: the record section alone, which the page fetches again to stay
/// up to date (`static/live.mjs`). The same for everyone: the owner's board is not in it.
pub async fn record(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> AppResult<Response> {
    let bot = find_bot(&state, &name).await?;
    let stats = super::stats::stats(&state, &bot, false).await?;
    let html = RecordFragment {
        name: bot.name,
        stats,
    }
    .render()?;
    Ok((
        [(axum::http::header::CACHE_CONTROL, "no-store")],
        Html(html),
    )
        .into_response())
}
