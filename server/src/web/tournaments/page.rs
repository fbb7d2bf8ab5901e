//! A tournament's public pages: the list, its page (progress, now playing, standings,
//! cross table), the part of it that follows the games (`…/live`, fetched by
//! `static/live.mjs`), the games of one pair, and the standings as CSV and JSON.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use askama::Template;
use axum::extract::{Path, Query, State};
use axum::http::header;
use axum::response::{Html, IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};

use super::url_of;
use sqlx::PgPool;

use crate::ids::TournamentId;
use crate::status::MatchStatus;
use crate::tournaments::{self, read, Game, Progress, Table, Tournament};
use crate::web::api::{ApiError, ApiResult};
use crate::web::error::{AppError, AppResult};
use crate::web::format::when;
use crate::web::session::Visitor;
use crate::web::{AppState, Layout};

/// How often a running tournament's page fetches its standings again, in ms.
pub const LIVE_EVERY_MS: u32 = 3000;

/// Standings fitted lately, by tournament: a fit (with its bootstrap) is made once per
/// game finished, however many visitors follow the page, one at a time and off the
/// async runtime. A finished tournament's are stored with it (`tournaments.standings`)
/// and read from there; running ones' are kept here, the least recently used going
/// first.
#[derive(Default)]
pub struct StandingsCache {
    held: Mutex<HashMap<TournamentId, Held>>,
    /// Held while fitting: visitors arriving meanwhile wait for that fit.
    fitting: tokio::sync::Mutex<()>,
}

struct Held {
    /// Games scored when it was fitted.
    scored: usize,
    table: Arc<Table>,
    /// When it was last read, as a count of reads.
    used: u64,
}

/// Most tournaments whose standings are kept in memory (at most 4 run at once).
const CACHED: usize = 16;

impl StandingsCache {
    fn lookup(&self, id: TournamentId, scored: usize) -> Option<Arc<Table>> {
        let mut held = self.held.lock().expect("not poisoned");
        let clock = held.values().map(|h| h.used).max().unwrap_or(0) + 1;
        let h = held.get_mut(&id).filter(|h| h.scored == scored)?;
        h.used = clock;
        Some(h.table.clone())
    }

    fn keep(&self, id: TournamentId, scored: usize, table: Arc<Table>) {
        let mut held = self.held.lock().expect("not poisoned");
        let clock = held.values().map(|h| h.used).max().unwrap_or(0) + 1;
        if held.len() >= CACHED && !held.contains_key(&id) {
            if let Some(oldest) = held.iter().min_by_key(|(_, h)| h.used).map(|(k, _)| *k) {
                held.remove(&oldest);
            }
        }
        let used = clock;
        held.insert(
            id,
            Held {
                scored,
                table,
                used,
            },
        );
    }

    /// `t`'s standings from `games`, with the participants' names as they are now.
    pub(crate) async fn get(
        &self,
        db: &PgPool,
        t: &Tournament,
        games: &[Game],
    ) -> anyhow::Result<Table> {
        let n = t.participants.len();
        let scored = games.iter().filter(|g| g.scored(n).is_some()).count();
        let table = match self.lookup(t.id, scored) {
            Some(table) => table,
            None => self.fit(db, t, games, scored).await?,
        };
        let mut table = (*table).clone();
        for r in &mut table.rows {
            if let Some((bot, version)) = t.participants.get(r.place) {
                (r.bot, r.version) = (bot.clone(), *version);
            }
            r.withdrawn = t.withdrawn.get(r.place).cloned().flatten();
        }
        Ok(table)
    }

    /// Reads a finished tournament's stored standings, or fits them (and stores them
    /// when it is finished).
    async fn fit(
        &self,
        db: &PgPool,
        t: &Tournament,
        games: &[Game],
        scored: usize,
    ) -> anyhow::Result<Arc<Table>> {
        let _one_at_a_time = self.fitting.lock().await;
        if let Some(table) = self.lookup(t.id, scored) {
            return Ok(table);
        }
        let finished = !t.running() && t.finished_at.is_some();
        let stored = if finished {
            sqlx::query_scalar!(
                "select standings from tournaments where id = $1",
                t.id as TournamentId
            )
            .fetch_one(db)
            .await?
            .and_then(|v| serde_json::from_value::<Table>(v).ok())
        } else {
            None
        };
        let table = match stored {
            Some(table) => Arc::new(table),
            None => {
                let (t2, g2) = (t.clone(), games.to_vec());
                let table = Arc::new(
                    tokio::task::spawn_blocking(move || tournaments::standings_of(&t2, &g2))
                        .await?,
                );
                if finished {
                    sqlx::query!(
                        "update tournaments set standings = $2 where id = $1 and status <> 'running'",
                        t.id as TournamentId,
                        serde_json::to_value(&*table)?
                    )
                    .execute(db)
                    .await?;
                }
                table
            }
        };
        self.keep(t.id, scored, table.clone());
        Ok(table)
    }
}

/// Everything a tournament's page shows.
struct View {
    t: Tournament,
    games: Vec<Game>,
    progress: Progress,
    table: Table,
}

async fn view(state: &AppState, id: TournamentId) -> AppResult<View> {
    let t = tournaments::load(&state.db, id)
        .await?
        .ok_or(AppError::NotFound)?;
    let mut conn = state.db.acquire().await?;
    let games = read::games(&mut conn, id).await?;
    let workers = sqlx::query_scalar!(
        r#"select count(*) as "n!" from workers where heartbeat_at > now() - interval '2 minutes'"#
    )
    .fetch_one(&mut *conn)
    .await?;
    let progress = Progress::of(&t, &games, workers as usize);
    let table = state.standings.get(&state.db, &t, &games).await?;
    Ok(View {
        t,
        games,
        progress,
        table,
    })
}

impl View {
    fn name(&self, place: usize) -> &str {
        self.t
            .participants
            .get(place)
            .map_or(crate::tournaments::read::GONE, |p| p.0.as_str())
    }

    /// The games being played, each with its players by seat.
    fn now_playing(&self) -> Vec<(i64, Vec<&str>)> {
        self.games
            .iter()
            .filter(|g| g.status == MatchStatus::Running)
            .map(|g| (g.id.0, g.seats.iter().map(|s| self.name(s.place)).collect()))
            .collect()
    }

    /// The latest games finished, newest first.
    fn latest(&self) -> Vec<&Game> {
        let mut done: Vec<&Game> = self
            .games
            .iter()
            .filter(|g| g.status == MatchStatus::Finished)
            .collect();
        done.reverse();
        done.truncate(12);
        done
    }

    /// A game's players by seat, with their ranks and first statistics (`350 gold`).
    fn seats(&self, g: &Game) -> Vec<(String, String, String)> {
        g.seats
            .iter()
            .map(|s| {
                let rank = s.rank.map_or_else(String::new, |r| r.to_string());
                (self.name(s.place).to_string(), rank, s.first.clone())
            })
            .collect()
    }

    fn time_left(&self) -> Option<String> {
        let s = self.progress.seconds_left?;
        Some(if s < 90.0 {
            "about a minute".into()
        } else if s < 5400.0 {
            format!("about {} minutes", (s / 60.0).round())
        } else {
            format!("about {:.1} hours", s / 3600.0)
        })
    }

    fn finished(&self) -> bool {
        !self.t.running()
    }

    /// The chance that the leader is the strongest, in words.
    fn leader_line(&self) -> Option<String> {
        let p = self.table.leader_strongest?;
        let leader = self.name(self.table.leader?);
        Some(format!(
            "{leader} is the strongest with probability {:.0}%",
            p * 100.0
        ))
    }
}

/// Points as a contest writes them: 12, 12½.
pub fn points(x: &f64) -> String {
    let whole = x.floor();
    if (x - whole - 0.5).abs() < 1e-9 {
        if whole == 0.0 {
            "½".into()
        } else {
            format!("{whole}½")
        }
    } else {
        format!("{}", x.round())
    }
}

/// A strength, signed, in rating points.
pub fn signed(x: &f64) -> String {
    let r = x.round();
    if r > 0.0 {
        format!("+{r}")
    } else if r < 0.0 {
        format!("−{}", -r)
    } else {
        "0".into()
    }
}

#[derive(Template)]
#[template(path = "tournaments/live.html")]
struct LivePart {
    v: View,
}

#[derive(Template)]
#[template(path = "tournaments/tournament.html")]
struct TournamentPage {
    layout: Layout,
    v: View,
    created: String,
    every_ms: u32,
}

pub async fn tournament_page(
    State(state): State<AppState>,
    visitor: Visitor,
    Path(id): Path<TournamentId>,
) -> AppResult<Html<String>> {
    let v = view(&state, id).await?;
    let page = TournamentPage {
        layout: visitor.layout(),
        created: when(v.t.created_at),
        every_ms: LIVE_EVERY_MS,
        v,
    };
    Ok(Html(page.render()?))
}

pub async fn live_part(
    State(state): State<AppState>,
    Path(id): Path<TournamentId>,
) -> AppResult<Html<String>> {
    let v = view(&state, id).await?;
    Ok(Html(LivePart { v }.render()?))
}

/// One line of the list of tournaments.
struct Listed {
    id: i64,
    name: String,
    format: tournaments::Format,
    status: String,
    participants: i64,
    done: i64,
    created: String,
}

async fn listed(state: &AppState) -> sqlx::Result<Vec<Listed>> {
    let rows = sqlx::query!(
        r#"select t.id, t.name, t.format as "format: tournaments::Format", t.status, t.created_at,
               (select count(*) from tournament_participants p where p.tournament_id = t.id)
                   as "participants!",
               (select count(*) from matches m where m.tournament_id = t.id
                    and m.status in ('finished', 'void')) as "done!"
           from tournaments t order by t.id desc limit 100"#
    )
    .fetch_all(&state.db)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| Listed {
            id: r.id,
            name: r.name,
            format: r.format,
            status: r.status,
            participants: r.participants,
            done: r.done,
            created: when(r.created_at),
        })
        .collect())
}

#[derive(Template)]
#[template(path = "tournaments/list.html")]
struct ListPage {
    layout: Layout,
    tournaments: Vec<Listed>,
}

pub async fn list(State(state): State<AppState>, visitor: Visitor) -> AppResult<Html<String>> {
    let page = ListPage {
        layout: visitor.layout(),
        tournaments: listed(&state).await?,
    };
    Ok(Html(page.render()?))
}

#[derive(Deserialize)]
pub struct Pair {
    a: String,
    b: String,
}

#[derive(Template)]
#[template(path = "tournaments/games.html")]
struct PairPage {
    layout: Layout,
    v: View,
    a: String,
    b: String,
    games: Vec<Game>,
}

/// The games of a tournament where both bots of a pair played.
pub async fn pair_games(
    State(state): State<AppState>,
    visitor: Visitor,
    Path(id): Path<TournamentId>,
    Query(pair): Query<Pair>,
) -> AppResult<Html<String>> {
    let v = view(&state, id).await?;
    let place = |name: &str| {
        v.t.participants
            .iter()
            .position(|(n, _)| n == name)
            .ok_or_else(|| AppError::BadRequest(format!("`{name}` is not in this tournament.")))
    };
    let (a, b) = (place(pair.a.trim())?, place(pair.b.trim())?);
    let games = v
        .games
        .iter()
        .filter(|g| g.seats.iter().any(|s| s.place == a) && g.seats.iter().any(|s| s.place == b))
        .cloned()
        .collect();
    let page = PairPage {
        layout: visitor.layout(),
        a: v.name(a).to_string(),
        b: v.name(b).to_string(),
        games,
        v,
    };
    Ok(Html(page.render()?))
}

/// A field of CSV: quoted when it holds a comma, a quote or a line break. One that a
/// spreadsheet would take for a formula (starting with `=`, `+`, `-`, `@`, a tab or a
/// carriage return: a bot may be named `-1-1`) is also quoted and starts with `'`, so
/// that it opens as the text it is.
fn csv_field(s: &str) -> String {
    if s.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("\"'{}\"", s.replace('"', "\"\""))
    } else if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The standings as CSV, best first.
pub async fn csv(
    State(state): State<AppState>,
    Path(id): Path<TournamentId>,
) -> AppResult<Response> {
    let v = view(&state, id).await?;
    let mut out =
        String::from("rank,bot,version,games,points,strength,strength_low,strength_high\n");
    for (i, r) in v.table.rows.iter().enumerate() {
        out.push_str(&format!(
            "{},{},{},{},{},{:.1},{:.1},{:.1}\n",
            i + 1,
            csv_field(&r.bot),
            r.version,
            r.games,
            r.points,
            r.strength,
            r.interval.0,
            r.interval.1
        ));
    }
    let file = format!("attachment; filename=\"tournament-{id}-standings.csv\"");
    Ok((
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_string()),
            (header::CONTENT_DISPOSITION, file),
        ],
        out,
    )
        .into_response())
}

/// `GET /api/tournaments/{id}`: the tournament, its progress, standings, cross table
/// and matches.
pub async fn api_tournament(
    State(state): State<AppState>,
    Path(id): Path<TournamentId>,
) -> ApiResult<Json<Value>> {
    let v = view(&state, id).await.map_err(|e| match e {
        AppError::NotFound => ApiError::not_found(format!("There is no tournament {id}.")),
        other => other.into(),
    })?;
    Ok(Json(tournament_json(&v)))
}

fn tournament_json(v: &View) -> Value {
    let standings: Vec<Value> = v
        .table
        .rows
        .iter()
        .map(|r| {
            json!({
                "bot": r.bot, "version": r.version, "games": r.games, "points": r.points,
                "strength": round1(r.strength),
                "interval": [round1(r.interval.0), round1(r.interval.1)],
                "withdrawn": r.withdrawn,
            })
        })
        .collect();
    let cross: Vec<Value> =
        v.t.participants
            .iter()
            .enumerate()
            .map(|(a, (bot, _))| {
                let against: Vec<Value> = (0..v.t.participants.len())
                .filter(|&b| b != a)
                .map(|b| {
                    let c = v.table.cross[a][b];
                    json!({"bot": v.name(b), "wins": c.wins, "draws": c.draws, "losses": c.losses})
                })
                .collect();
                json!({ "bot": bot, "against": against })
            })
            .collect();
    let matches: Vec<Value> = v
        .games
        .iter()
        .map(|g| {
            let players: Vec<&str> = g.seats.iter().map(|s| v.name(s.place)).collect();
            let ranks: Vec<Option<i32>> = g.seats.iter().map(|s| s.rank).collect();
            json!({
                "id": g.id, "url": format!("/matches/{}", g.id), "round": g.round, "map": g.map,
                "status": g.status, "players": players, "ranks": ranks,
            })
        })
        .collect();
    json!({
        "id": v.t.id, "url": url_of(v.t.id), "name": v.t.name, "format": v.t.format,
        "players_per_game": v.t.players_per_game, "seed": v.t.seed, "status": v.t.status,
        "maps": v.t.maps, "created": v.t.created_at.unix_timestamp(),
        "done": v.progress.done, "total": v.progress.total,
        "seconds_left": v.progress.seconds_left.map(|s| s.round()),
        "standings": standings,
        "leader_strongest": v.table.leader_strongest.map(|p| (p * 1000.0).round() / 1000.0),
        "cross": cross, "matches": matches,
    })
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// `GET /api/tournaments`: the latest 100, newest first.
pub async fn api_list(State(state): State<AppState>) -> ApiResult<Json<Value>> {
    let all: Vec<Value> = listed(&state)
        .await?
        .into_iter()
        .map(|t| {
            json!({"id": t.id, "url": format!("/tournaments/{}", t.id), "name": t.name,
                   "format": t.format, "status": t.status, "participants": t.participants,
                   "done": t.done})
        })
        .collect();
    Ok(Json(json!({ "tournaments": all })))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_and_strengths_read_as_a_contest_writes_them() {
        assert_eq!(points(&12.0), "12");
        assert_eq!(points(&12.5), "12½");
        assert_eq!(points(&0.5), "½");
        assert_eq!(signed(&120.4), "+120");
        assert_eq!(signed(&-40.6), "−41");
        assert_eq!(signed(&0.2), "0");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("-1-1"), "\"'-1-1\"");
        assert_eq!(csv_field("=cmd"), "\"'=cmd\"");
        assert_eq!(csv_field("@x\"y"), "\"'@x\"\"y\"");
        assert_eq!(csv_field("a-1"), "a-1");
    }
}
