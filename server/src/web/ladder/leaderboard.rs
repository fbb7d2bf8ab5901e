//! The leaderboard of each game (`?game=NAME`, the default game without it): its
//! pages, the visitor's bots with their neighbours, a search by name, the rows of each
//! alone (which the page's script fetches again) and its JSON, all from one
//! [`Leaderboard`] of the game made at most once a second.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use askama::Template;
use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::json;

use crate::accounts::NAME_MAX;
use crate::languages::Languages;
use crate::standings::{standings, Standing};
use crate::web::api::{ApiError, ApiResult};
use crate::web::error::{AppError, AppResult};
use crate::web::format::{round2, when};
use crate::web::games::{ListGame, Switcher};
use crate::web::session::Visitor;
use crate::web::{AppState, Layout};

/// A leaderboard row, ready to show.
pub struct Row {
    /// Rows above it are left out (a neighbourhood's first row).
    pub gap: bool,
    pub rank: usize,
    pub bot: String,
    pub owner: String,
    pub language: String,
    pub rating: String,
    pub mu_sigma: String,
    pub games: i32,
    pub win_rate: String,
    pub last_game: String,
    /// It plays from its owner's machine.
    pub remote: bool,
}

fn language_name(languages: &Languages, key: &str) -> String {
    languages
        .get(key)
        .map_or_else(|| key.to_string(), |l| l.language.name.clone())
}

impl Row {
    pub fn of(rank: usize, s: &Standing, languages: &Languages) -> Row {
        Row {
            gap: false,
            rank,
            bot: s.name.clone(),
            owner: s.owner.clone(),
            language: language_name(languages, &s.language),
            rating: format!("{:.2}", s.record.rating()),
            mu_sigma: s.record.mu_sigma(),
            games: s.record.games,
            win_rate: format!("{:.0}%", 100.0 * s.record.win_rate()),
            last_game: s.last_game_at.map_or_else(|| "never".to_string(), when),
            remote: s.remote,
        }
    }
}

/// A standing as `/api/leaderboard` gives it.
fn standing_json(rank: usize, s: &Standing, languages: &Languages) -> serde_json::Value {
    let r = &s.record;
    json!({
        "rank": rank,
        "bot": s.name,
        "owner": s.owner,
        "language": language_name(languages, &s.language),
        "rating": round2(r.rating()),
        "mu": round2(r.mu),
        "sigma": round2(r.sigma),
        "games": r.games,
        "wins": r.wins,
        "losses": r.losses,
        "draws": r.draws,
        "win_rate": round2(r.win_rate()),
        "last_game": s.last_game_at.map(|t| t.unix_timestamp()),
        "remote": s.remote,
    })
}

/// One game's leaderboard as one moment saw it, shared by the requests of the next
/// [`LEADERBOARD_FOR`]: the ranked list of the game's bots, read and sorted once, with
/// indexes by bot and owner name, so that a page, a search or a visitor's own bots cost
/// the rows they show (10,000 bots are 5.7 MB of rows: the page shows [`PAGE_ROWS`] at a
/// time). The page, its rows, its JSON and the user pages show the same moment.
pub struct Leaderboard {
    made: Instant,
    /// Its game's name.
    pub game: &'static str,
    pub standings: Vec<Standing>,
    /// Matches finished in the 10 minutes before it was made: the ladder's pace.
    pub finished_lately: i64,
    /// (lowercase bot name, place), by name: names are unique whatever the case.
    by_bot: Vec<(String, usize)>,
    /// (lowercase owner name, place), by owner then place.
    by_owner: Vec<(String, usize)>,
    /// The places of the remote bots, and of the hosted ones, best first.
    remote: Vec<usize>,
    hosted: Vec<usize>,
    /// The body of `/api/leaderboard` without a page, made when first asked for.
    json: OnceLock<Bytes>,
}

/// Rows a page of the leaderboard shows.
pub const PAGE_ROWS: usize = 50;
/// Rows shown above and below each of the visitor's bots.
pub const AROUND: usize = 2;
/// The visitor's best ranked bots shown with their neighbourhood, at most.
pub const MINE_MAX: usize = 10;
/// Bots a search shows, at most.
pub const FOUND_MAX: usize = 50;
/// Most rows a page of `/api/leaderboard` gives.
pub const API_LIMIT_MAX: u64 = 500;

/// The entries of `index` whose name starts with `prefix` (lowercase), in its order.
fn starting_with<'a>(
    index: &'a [(String, usize)],
    prefix: &'a str,
) -> impl Iterator<Item = usize> + 'a {
    let from = index.partition_point(|(name, _)| name.as_str() < prefix);
    index[from..]
        .iter()
        .take_while(move |(name, _)| name.starts_with(prefix))
        .map(|&(_, place)| place)
}

/// Bots found by a search: their places, best first, and whether more matched.
pub struct Found {
    pub places: Vec<usize>,
    pub more: bool,
}

impl Leaderboard {
    fn new(
        made: Instant,
        game: &'static str,
        standings: Vec<Standing>,
        finished_lately: i64,
    ) -> Leaderboard {
        let mut by_bot: Vec<_> = (standings.iter().enumerate())
            .map(|(i, s)| (s.name.to_lowercase(), i))
            .collect();
        by_bot.sort_unstable();
        let mut by_owner: Vec<_> = (standings.iter().enumerate())
            .map(|(i, s)| (s.owner.to_lowercase(), i))
            .collect();
        by_owner.sort_unstable();
        let (remote, hosted) = (0..standings.len()).partition(|&i| standings[i].remote);
        Leaderboard {
            made,
            game,
            standings,
            finished_lately,
            by_bot,
            by_owner,
            remote,
            hosted,
            json: OnceLock::new(),
        }
    }

    /// The places of the bots `kind` shows, best first: every bot without one.
    pub fn kind_places(&self, kind: Option<Kind>) -> Option<&[usize]> {
        match kind {
            None => None,
            Some(Kind::Remote) => Some(&self.remote),
            Some(Kind::Hosted) => Some(&self.hosted),
        }
    }

    /// The places of page `page` (from 1) among the bots `kind` shows.
    pub fn page_of_kind(&self, kind: Option<Kind>, page: usize) -> Vec<usize> {
        match self.kind_places(kind) {
            None => self.page(page).collect(),
            Some(places) => {
                let from = page.saturating_sub(1).saturating_mul(PAGE_ROWS);
                let to = from.saturating_add(PAGE_ROWS).min(places.len());
                places.get(from.min(to)..to).unwrap_or_default().to_vec()
            }
        }
    }

    /// Pages of the bots `kind` shows: at least one.
    pub fn pages_of_kind(&self, kind: Option<Kind>) -> usize {
        self.kind_places(kind)
            .map_or(self.pages(), |p| p.len().div_ceil(PAGE_ROWS).max(1))
    }

    /// Pages of [`PAGE_ROWS`] rows: at least one, which may be empty.
    pub fn pages(&self) -> usize {
        self.standings.len().div_ceil(PAGE_ROWS).max(1)
    }

    /// The places of page `page` (from 1), none past the last page.
    pub fn page(&self, page: usize) -> std::ops::Range<usize> {
        let from = page.saturating_sub(1).saturating_mul(PAGE_ROWS);
        from.min(self.standings.len())..from.saturating_add(PAGE_ROWS).min(self.standings.len())
    }

    /// The place (from 0) of the bot named `bot`, whatever the case.
    pub fn place_of(&self, bot: &str) -> Option<usize> {
        let key = bot.to_lowercase();
        let at = self
            .by_bot
            .binary_search_by(|(name, _)| name.cmp(&key))
            .ok()?;
        Some(self.by_bot[at].1)
    }

    /// The places of `owner`'s bots (whatever the case), best first.
    pub fn places_of(&self, owner: &str) -> impl Iterator<Item = usize> + '_ {
        let key = owner.to_lowercase();
        let from = self.by_owner.partition_point(|(name, _)| *name < key);
        self.by_owner[from..]
            .iter()
            .take_while(move |(name, _)| *name == key)
            .map(|&(_, place)| place)
    }

    /// The bots whose name or owner's name starts with `prefix` (any case): the first
    /// [`FOUND_MAX`] by name, shown best first, whatever the size of the ladder.
    pub fn search(&self, prefix: &str) -> Found {
        let prefix = prefix.to_lowercase();
        let mut places: Vec<usize> = starting_with(&self.by_bot, &prefix)
            .take(FOUND_MAX + 1)
            .chain(starting_with(&self.by_owner, &prefix).take(FOUND_MAX + 1))
            .collect();
        places.sort_unstable();
        places.dedup();
        let more = places.len() > FOUND_MAX;
        places.truncate(FOUND_MAX);
        Found { places, more }
    }

    /// `places` (in order) with the [`AROUND`] rows above and below each, each with
    /// whether rows are left out right above it.
    pub fn around(&self, places: &[usize]) -> Vec<(usize, bool)> {
        let mut shown: Vec<(usize, bool)> = Vec::new();
        for &p in places {
            let from = p.saturating_sub(AROUND);
            let to = (p + AROUND + 1).min(self.standings.len());
            let next = shown.last().map_or(0, |&(last, _)| last + 1);
            let start = from.max(next);
            shown.extend((start..to).map(|q| (q, q == start && start > next)));
        }
        shown
    }

    /// The rows of `places` (with whether rows are left out above each), ready to show.
    pub fn rows(
        &self,
        places: impl IntoIterator<Item = (usize, bool)>,
        languages: &Languages,
    ) -> Vec<Row> {
        places
            .into_iter()
            .map(|(p, gap)| Row {
                gap,
                ..Row::of(p + 1, &self.standings[p], languages)
            })
            .collect()
    }
}

/// How long a [`Leaderboard`] is shown.
pub const LEADERBOARD_FOR: Duration = Duration::from_secs(1);

/// One game's latest [`Leaderboard`], and who is making its next one.
#[derive(Default)]
struct Latest {
    latest: std::sync::Mutex<Option<Arc<Leaderboard>>>,
    making: tokio::sync::Mutex<()>,
}

impl Latest {
    fn latest(&self) -> Option<Arc<Leaderboard>> {
        self.latest
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }
}

/// Each game's latest [`Leaderboard`], by the name of the game in the registry: at most
/// one entry per game this build knows, whatever names requests send.
#[derive(Default)]
pub struct LeaderboardCache(std::sync::Mutex<HashMap<&'static str, Arc<Latest>>>);

impl LeaderboardCache {
    fn of(&self, game: &'static str) -> Arc<Latest> {
        let mut games = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        games.entry(game).or_default().clone()
    }

    /// The games it holds a leaderboard of, or is making one of.
    pub fn games(&self) -> usize {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .len()
    }
}

/// Rows of the leaderboard, a `<tbody>`: the page includes them, and its script
/// (`static/live.mjs`) fetches them again from `/leaderboard/rows` (with the page's
/// `?page=`, `?q=` or `?mine=1`) to stay up to date, so a row is drawn in one place.
#[derive(Template)]
#[template(path = "ladder/leaderboard_rows.html")]
struct LeaderboardRows<'a> {
    rows: &'a [Row],
}

/// The body of `/api/leaderboard` without a page: every bot of the game.
fn whole_json(board: &Leaderboard, languages: &Languages) -> Bytes {
    let json: Vec<_> = (board.standings.iter().enumerate())
        .map(|(i, s)| standing_json(i + 1, s, languages))
        .collect();
    Bytes::from(
        serde_json::to_vec(&json!({ "game": board.game, "leaderboard": json }))
            .expect("a JSON value always serializes"),
    )
}

/// Reads the standings of `game` and makes a [`Leaderboard`] of them.
async fn make_leaderboard(state: &AppState, game: &'static str) -> AppResult<Leaderboard> {
    let made = Instant::now();
    let standings = standings(&state.db, game).await?;
    let finished_lately = crate::standings::finished_lately(&state.db, game).await?;
    Ok(Leaderboard::new(made, game, standings, finished_lately))
}

/// The leaderboard of `game` (a game of the registry, open or not), at most
/// [`LEADERBOARD_FOR`] old when asked for. Once it is older, the next request makes a
/// new one; requests that come while it does are given the last one instead of waiting
/// (or wait, when there is none yet).
pub async fn leaderboard(state: &AppState, game: &str) -> AppResult<Arc<Leaderboard>> {
    // The registry's own name: the cache's keys are its games, never a request's text.
    let game = crate::games::kind(game)?.name();
    let cache = state.leaderboard.of(game);
    let last = cache.latest();
    if let Some(b) = last.as_ref().filter(|b| b.made.elapsed() < LEADERBOARD_FOR) {
        return Ok(b.clone());
    }
    let _making = match (cache.making.try_lock(), last) {
        (Ok(making), _) => making,
        (Err(_), Some(last)) => return Ok(last),
        (Err(_), None) => cache.making.lock().await,
    };
    if let Some(b) = cache
        .latest()
        .filter(|b| b.made.elapsed() < LEADERBOARD_FOR)
    {
        return Ok(b);
    }
    let b = Arc::new(make_leaderboard(state, game).await?);
    *cache
        .latest
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(b.clone());
    Ok(b)
}

/// What a leaderboard address asks for: `?game=NAME` (the default game without it),
/// `?page=N` (from 1), `?q=` a search by the start of a bot's or owner's name,
/// `?mine=1` (the rows alone) the visitor's bots, `?kind=remote` or `?kind=hosted`
/// only the bots that play from their owners' machines, or only the others.
#[derive(Deserialize)]
pub struct Wanted {
    game: Option<String>,
    page: Option<u64>,
    #[serde(default)]
    q: String,
    mine: Option<String>,
    kind: Option<Kind>,
}

/// The bots a leaderboard shows: remote bots only (`crate::remote`), or hosted ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Remote,
    Hosted,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Remote => "remote",
            Kind::Hosted => "hosted",
        }
    }
}

/// The pairs of an address that keep `kind`, with `more`.
fn with_kind<'a>(kind: Option<Kind>, more: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    let mut pairs = more.to_vec();
    if let Some(k) = kind {
        pairs.push(("kind", k.as_str()));
    }
    pairs
}

/// A search as the page shows it.
pub struct Search {
    /// What is searched for: at most [`NAME_MAX`] characters, trimmed.
    q: String,
    /// The query was longer than any name, and cut.
    cut: bool,
    /// More bots matched than shown.
    more: bool,
}

/// The search `q` asks for, if any: trimmed and cut to [`NAME_MAX`] characters, since no
/// name is longer; and whether it was cut.
fn search_text(q: &str) -> Option<(String, bool)> {
    let q = q.trim();
    (!q.is_empty()).then(|| {
        (
            q.chars().take(NAME_MAX).collect(),
            q.chars().count() > NAME_MAX,
        )
    })
}

/// Page `page` of the board (of the bots `kind` shows), when there is one.
fn page_of(board: &Leaderboard, page: Option<u64>, kind: Option<Kind>) -> Option<usize> {
    let page = usize::try_from(page.unwrap_or(1)).ok()?;
    (1..=board.pages_of_kind(kind))
        .contains(&page)
        .then_some(page)
}

/// The visitor's best ranked bots ([`MINE_MAX`]), each with its neighbourhood.
fn mine(board: &Leaderboard, visitor: &Visitor, languages: &Languages) -> Vec<Row> {
    let Some(user) = &visitor.user else {
        return Vec::new();
    };
    let places: Vec<usize> = board.places_of(&user.name).take(MINE_MAX).collect();
    board.rows(board.around(&places), languages)
}

/// Where the rows of the table of a search or a page are fetched again.
fn live_address(game: &ListGame, search: Option<&str>, page: usize, kind: Option<Kind>) -> String {
    match (search, page) {
        (Some(q), _) => game.address("/leaderboard/rows", &[("q", q)]),
        (None, 1) => game.address("/leaderboard/rows", &with_kind(kind, &[])),
        (None, n) => game.address(
            "/leaderboard/rows",
            &with_kind(kind, &[("page", &n.to_string())]),
        ),
    }
}

#[derive(Template)]
#[template(path = "ladder/leaderboard.html")]
struct LeaderboardPage {
    layout: Layout,
    /// The game shown, with what its addresses carry.
    game: ListGame,
    /// Links to the other open games' leaderboards, when there are several.
    switcher: Option<Switcher>,
    /// Bots of the game on the ladder.
    bots: usize,
    /// Of which the kind shown.
    shown: usize,
    /// The page's rows, or the search's.
    rows: Vec<Row>,
    /// Where the table gets its rows again.
    live: String,
    page: usize,
    pages: usize,
    /// The page asked for is not there (past the last, or 0).
    missing: Option<String>,
    /// The visitor's bots and their neighbours; none while searching.
    mine: Vec<Row>,
    search: Option<Search>,
    /// Only remote bots, or only hosted ones.
    kind: Option<Kind>,
}

impl LeaderboardPage {
    /// What "won" counts, where the game seats more than two.
    fn won_note(&self) -> Option<String> {
        crate::web::bots::record_note(&self.game.name)
    }

    /// The address of page `page` of the game's leaderboard (the top without `page`),
    /// of the bots it shows.
    fn page_address(&self, page: usize) -> String {
        match page {
            1 => self
                .game
                .address("/leaderboard", &with_kind(self.kind, &[])),
            n => self.game.address(
                "/leaderboard",
                &with_kind(self.kind, &[("page", &n.to_string())]),
            ),
        }
    }

    /// The first page of the bots of `kind` (`all`, `remote`, `hosted`).
    fn kind_address(&self, kind: &str) -> String {
        match kind {
            "all" => self.game.address("/leaderboard", &[]),
            k => self.game.address("/leaderboard", &[("kind", k)]),
        }
    }

    /// The name of the bots shown: `all`, `remote` or `hosted`.
    fn kind_name(&self) -> &'static str {
        self.kind.map_or("all", Kind::as_str)
    }

    fn last_page_address(&self) -> String {
        self.page_address(self.pages)
    }

    /// Where the table of the visitor's bots gets its rows again.
    fn mine_address(&self) -> String {
        self.game.address("/leaderboard/rows", &[("mine", "1")])
    }

    /// The game's matches.
    fn matches_address(&self) -> String {
        self.game.address("/matches", &[])
    }
}

/// The game a leaderboard address asks for, or a 400 that names the open games.
async fn game_of(state: &AppState, wanted: &Wanted) -> AppResult<ListGame> {
    ListGame::of(state, wanted.game.as_deref())
        .await?
        .map_err(AppError::BadRequest)
}

/// `/leaderboard`: a page of a game's ladder (the top first) under the visitor's own
/// bots with their neighbours, or the bots a search finds.
pub async fn page(
    State(state): State<AppState>,
    visitor: Visitor,
    Query(wanted): Query<Wanted>,
) -> AppResult<Response> {
    let game = game_of(&state, &wanted).await?;
    let board = leaderboard(&state, &game.name).await?;
    let languages = &state.languages;
    let search = search_text(&wanted.q);
    let kind = wanted.kind.filter(|_| search.is_none());
    let page = page_of(&board, wanted.page, kind);
    let mut view = LeaderboardPage {
        layout: visitor.layout(),
        switcher: game.switcher("/leaderboard"),
        bots: board.standings.len(),
        shown: board
            .kind_places(kind)
            .map_or(board.standings.len(), <[usize]>::len),
        rows: Vec::new(),
        live: live_address(
            &game,
            search.as_ref().map(|(q, _)| q.as_str()),
            page.unwrap_or(1),
            kind,
        ),
        game,
        page: page.unwrap_or(1),
        pages: board.pages_of_kind(kind),
        missing: None,
        mine: Vec::new(),
        search: None,
        kind,
    };
    if let Some((q, cut)) = search {
        let found = board.search(&q);
        view.rows = board.rows(found.places.into_iter().map(|p| (p, false)), languages);
        view.search = Some(Search {
            q,
            cut,
            more: found.more,
        });
    } else {
        if kind.is_none() {
            view.mine = mine(&board, &visitor, languages);
        }
        match page {
            Some(n) => {
                let places = board.page_of_kind(kind, n);
                view.rows = board.rows(places.into_iter().map(|p| (p, false)), languages);
            }
            None => {
                view.missing = Some(format!(
                    "There is no page {} of the leaderboard: it has {} pages.",
                    wanted.page.unwrap_or(1),
                    board.pages_of_kind(kind)
                ))
            }
        }
    }
    let status = if view.missing.is_some() {
        StatusCode::NOT_FOUND
    } else {
        StatusCode::OK
    };
    Ok((status, Html(view.render()?)).into_response())
}

/// `/leaderboard/rows`: the rows of a table of the page alone, as it refreshes them.
pub async fn rows(
    State(state): State<AppState>,
    visitor: Visitor,
    Query(wanted): Query<Wanted>,
) -> AppResult<Response> {
    let game = game_of(&state, &wanted).await?;
    let board = leaderboard(&state, &game.name).await?;
    let languages = &state.languages;
    let rows = if wanted.mine.is_some() {
        mine(&board, &visitor, languages)
    } else if let Some((q, _)) = search_text(&wanted.q) {
        let found = board.search(&q).places;
        board.rows(found.into_iter().map(|p| (p, false)), languages)
    } else {
        let page = page_of(&board, wanted.page, wanted.kind).ok_or(AppError::NotFound)?;
        let places = board.page_of_kind(wanted.kind, page);
        board.rows(places.into_iter().map(|p| (p, false)), languages)
    };
    Ok((
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        LeaderboardRows { rows: &rows }.render()?,
    )
        .into_response())
}

/// What `/api/leaderboard` may ask for: `game` (the default game without it), and a
/// page; without `page` and `limit`, every bot of the game.
#[derive(Deserialize)]
pub struct ApiPage {
    game: Option<String>,
    page: Option<u64>,
    limit: Option<u64>,
    /// Only remote bots, or only hosted ones.
    kind: Option<Kind>,
}

pub async fn api(State(state): State<AppState>, Query(p): Query<ApiPage>) -> ApiResult<Response> {
    let game = (ListGame::of(&state, p.game.as_deref()).await?)
        .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, e))?;
    let b = leaderboard(&state, &game.name).await?;
    let json = header::HeaderValue::from_static("application/json");
    if p.page.is_none() && p.limit.is_none() && p.kind.is_none() {
        let whole = b.json.get_or_init(|| whole_json(&b, &state.languages));
        return Ok(([(header::CONTENT_TYPE, json)], whole.clone()).into_response());
    }
    let limit = p.limit.unwrap_or(PAGE_ROWS as u64);
    if !(1..=API_LIMIT_MAX).contains(&limit) {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("limit is from 1 to {API_LIMIT_MAX}"),
        ));
    }
    let page = p.page.unwrap_or(1);
    if page == 0 {
        return Err(ApiError::new(StatusCode::BAD_REQUEST, "pages count from 1"));
    }
    let all: Vec<usize>;
    let places = match b.kind_places(p.kind) {
        Some(places) => places,
        None => {
            all = (0..b.standings.len()).collect();
            &all
        }
    };
    let bots = places.len() as u64;
    let from = (page - 1).saturating_mul(limit).min(bots);
    let to = from.saturating_add(limit).min(bots);
    let rows: Vec<_> = places[from as usize..to as usize]
        .iter()
        .map(|&i| standing_json(i + 1, &b.standings[i], &state.languages))
        .collect();
    Ok(Json(json!({
        "game": b.game,
        "leaderboard": rows,
        "page": page,
        "pages": bots.div_ceil(limit).max(1),
        "limit": limit,
        "bots": bots,
    }))
    .into_response())
}
