//! A challenge's and an A/B test's pages, the part of each that follows the games as
//! they finish (`…/live`, fetched by `static/live.mjs`), and the same as JSON.

use askama::Template;
use axum::extract::{Path, State};
use axum::response::Html;
use axum::Json;
use serde_json::{json, Value};

use super::url_of;
use crate::challenges::{self, stats::Comparison, Challenge, Game, Kind, Side, Summary};
use crate::ids::ChallengeId;
use crate::web::api::{ApiError, ApiResult};
use crate::web::error::{AppError, AppResult};
use crate::web::format::when;
use crate::web::session::Visitor;
use crate::web::{AppState, Layout};

/// How often an unfinished challenge's page fetches its games again, in ms.
pub const LIVE_EVERY_MS: u32 = 3000;

/// The challenge `id` if it is of `kind`.
async fn find(state: &AppState, id: ChallengeId, kind: Kind) -> AppResult<Challenge> {
    challenges::load(&state.db, id)
        .await?
        .filter(|c| c.kind == kind)
        .ok_or(AppError::NotFound)
}

/// What the live part of both pages shows.
struct Live {
    c: Challenge,
    summary: Summary,
    /// An A/B test's sides and comparison.
    sides: Option<(Side, Side)>,
    comparison: Option<Comparison>,
    /// The visitor is its owner, who may add games; the form token for that.
    is_owner: bool,
    csrf: String,
}

impl Live {
    fn new(c: Challenge, visitor: &Visitor) -> Live {
        let ab = c.kind == Kind::Abtest;
        Live {
            is_owner: visitor.user.as_ref().is_some_and(|u| u.id == c.owner_id),
            csrf: visitor.csrf.clone(),
            summary: c.summary(),
            sides: ab.then(|| c.sides()),
            comparison: if ab { c.comparison() } else { None },
            c,
        }
    }

    /// The games to offer its owner once the test is over and says `more` would tell:
    /// an even number, within what one request and one test may have.
    fn more(&self, more: &u32) -> Option<u32> {
        let room = challenges::MAX_AB_TOTAL.saturating_sub(self.c.games.len() as u32);
        let n = (more + more % 2).min(challenges::MAX_AB_GAMES).min(room);
        (self.is_owner && self.finished() && n >= 2).then_some(n - n % 2)
    }

    /// The games offered are fewer than those that would tell.
    fn capped(&self, more: &u32) -> bool {
        self.more(more).is_some_and(|n| n < *more)
    }

    fn done(&self) -> usize {
        self.c.done()
    }

    fn finished(&self) -> bool {
        self.c.status() == challenges::Status::Finished
    }

    /// The players of a game in seat order, with their ranks when known.
    /// Each named as in the game: a bot seated again as `strong-2`.
    fn seats(g: &Game) -> Vec<(String, String, String, bool)> {
        crate::games::seat_names(g.players.iter().map(String::as_str))
            .into_iter()
            .enumerate()
            .map(|(i, name)| {
                let rank = g.ranks[i].map_or_else(String::new, |r| r.to_string());
                let first = g.firsts.get(i).cloned().unwrap_or_default();
                (name, rank, first, i == g.me)
            })
            .collect()
    }

    /// A difference in score as points, signed.
    fn points(x: &f64) -> String {
        format!("{:+.1}", *x * 100.0)
    }
}

#[derive(Template)]
#[template(path = "challenges/live.html")]
struct LivePart {
    live: Live,
}

#[derive(Template)]
#[template(path = "challenges/challenge.html")]
struct ChallengePage {
    layout: Layout,
    live: Live,
    created: String,
    is_owner: bool,
    every_ms: u32,
}

async fn render(
    state: &AppState,
    visitor: &Visitor,
    id: ChallengeId,
    kind: Kind,
) -> AppResult<Html<String>> {
    let c = find(state, id, kind).await?;
    let page = ChallengePage {
        layout: visitor.layout(),
        created: when(c.created_at),
        is_owner: visitor.user.as_ref().is_some_and(|u| u.id == c.owner_id),
        every_ms: LIVE_EVERY_MS,
        live: Live::new(c, visitor),
    };
    Ok(Html(page.render()?))
}

pub async fn challenge_page(
    State(state): State<AppState>,
    visitor: Visitor,
    Path(id): Path<ChallengeId>,
) -> AppResult<Html<String>> {
    render(&state, &visitor, id, Kind::Challenge).await
}

pub async fn abtest_page(
    State(state): State<AppState>,
    visitor: Visitor,
    Path(id): Path<ChallengeId>,
) -> AppResult<Html<String>> {
    render(&state, &visitor, id, Kind::Abtest).await
}

async fn live_part(
    state: &AppState,
    visitor: &Visitor,
    id: ChallengeId,
    kind: Kind,
) -> AppResult<Html<String>> {
    let live = Live::new(find(state, id, kind).await?, visitor);
    Ok(Html(LivePart { live }.render()?))
}

pub async fn challenge_live(
    State(state): State<AppState>,
    visitor: Visitor,
    Path(id): Path<ChallengeId>,
) -> AppResult<Html<String>> {
    live_part(&state, &visitor, id, Kind::Challenge).await
}

pub async fn abtest_live(
    State(state): State<AppState>,
    visitor: Visitor,
    Path(id): Path<ChallengeId>,
) -> AppResult<Html<String>> {
    live_part(&state, &visitor, id, Kind::Abtest).await
}

fn games_json(c: &Challenge) -> Vec<Value> {
    c.games
        .iter()
        .map(|g| {
            let mut v = json!({
                "match": g.id,
                "url": format!("/matches/{}", g.id),
                "status": g.status,
                "map": g.map,
                "players": g.players,
                "ranks": g.ranks,
            });
            if let (Some(s), Some(arm)) = (g.scenario, &g.arm) {
                v["scenario"] = json!(s);
                v["version"] = json!(arm);
            }
            v
        })
        .collect()
}

fn tallies(rows: &[(String, challenges::Tally)], key: &str) -> Vec<Value> {
    rows.iter()
        .map(|(name, t)| json!({ key: name, "wins": t.wins, "draws": t.draws, "losses": t.losses }))
        .collect()
}

/// What both answers start with.
fn head(c: &Challenge) -> Value {
    json!({
        "id": c.id,
        "url": url_of(c.kind, c.id),
        "status": c.status(),
        "ranked": false,
        "bot": c.bot,
        "owner": c.owner,
        "created": c.created_at.unix_timestamp(),
        "done": c.done(),
        "total": c.games.len(),
    })
}

/// The API's error for `e`: `missing` when there is no such record.
fn api_error(e: AppError, missing: String) -> ApiError {
    match e {
        AppError::NotFound => ApiError::not_found(missing),
        other => other.into(),
    }
}

/// `GET /api/challenges/{id}`.
pub async fn api_challenge(
    State(state): State<AppState>,
    Path(id): Path<ChallengeId>,
) -> ApiResult<Json<Value>> {
    let c = find(&state, id, Kind::Challenge)
        .await
        .map_err(|e| api_error(e, format!("There is no challenge {id}.")))?;
    let s = c.summary();
    let mut v = head(&c);
    v["version"] = json!(c.version);
    v["opponents"] = json!(c.asked);
    v["games"] = json!(games_json(&c));
    v["summary"] = json!({
        "wins": s.total.wins, "draws": s.total.draws, "losses": s.total.losses,
        "opponents": tallies(&s.opponents, "bot"),
        "maps": tallies(&s.maps, "map"),
    });
    Ok(Json(v))
}

/// `GET /api/abtests/{id}`.
pub async fn api_abtest(
    State(state): State<AppState>,
    Path(id): Path<ChallengeId>,
) -> ApiResult<Json<Value>> {
    let c = find(&state, id, Kind::Abtest)
        .await
        .map_err(|e| api_error(e, format!("There is no A/B test {id}.")))?;
    let (a, b) = c.sides();
    let side = |s: &Side| json!({ "version": s.version, "wins": s.tally.wins, "draws": s.tally.draws, "losses": s.tally.losses });
    let cmp = c.comparison();
    let mut v = head(&c);
    v["a"] = side(&a);
    v["b"] = side(&b);
    v["pairs"] = json!(cmp.map_or(0, |x| x.pairs));
    v["difference"] = json!(cmp.map(|x| x.difference));
    v["ci95"] = json!(cmp.map(|x| [x.ci95.0, x.ci95.1]));
    v["verdict"] = json!(cmp.map_or_else(
        || "no scenario finished yet".to_string(),
        |x| x.verdict.words()
    ));
    v["games"] = json!(games_json(&c));
    Ok(Json(v))
}
