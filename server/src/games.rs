//! The games this site can host, by name (the registry: Bottle Bats, the default and
//! the game of every row stored before there was a choice, and Vindinium), which of
//! them are open (the `games` setting, kept in the `ranker` row so that every server and
//! worker sees the same), and what the platform takes from each game: its shipped
//! maps, its house bots, its smoke test, its rules document and its match policy.
//!
//! Architecture invariant: this module and `house.rs` are the server's only doors to a
//! game's own crate; the rest of the server sees a game as a `&dyn GameKind` and its
//! [`Content`].

use std::sync::OnceLock;

use game_interface::{GameKind, Registry};
use runner::MatchConfig;
use sqlx::PgPool;

/// The default game's name.
pub const DEFAULT: &str = engine::plugin::NAME;

/// Every game this build of the platform knows, the default first.
pub fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        let mut r = Registry::new(engine::plugin::kind());
        r.add(vindinium::plugin::kind())
            .expect("every game has a name of its own");
        r
    })
}

/// The game called `name`, or an error that names the games there are.
pub fn kind(name: &str) -> anyhow::Result<&'static dyn GameKind> {
    registry().get(name).ok_or_else(|| {
        anyhow::anyhow!(
            "no game is called `{name}`; the games are {}",
            registry().names().join(", ")
        )
    })
}

/// What the platform takes from one game besides its [`GameKind`].
pub struct Content {
    pub kind: &'static dyn GameKind,
    /// The maps a fresh ladder of the game gets: (name, text). Map names are one
    /// namespace across games.
    pub maps: Vec<(&'static str, &'static str)>,
    /// The map of smoke tests.
    pub smoke_map: &'static str,
    /// The house bots a smoke test seats beside the version tested, one per other
    /// seat (names of [`crate::house::bots`]).
    pub smoke_opponents: &'static [&'static str],
    /// The names of a seat's statistics ([`game_interface::Match::stats`]), in order.
    pub stat_names: &'static [&'static str],
    /// The address of the complete rules on the site (`/docs/...`).
    pub rules: &'static str,
    /// Where the rules say how long a reply may take.
    pub time_rule: &'static str,
}

/// The content of the game called `name` (a name of the registry).
pub fn content(name: &str) -> anyhow::Result<Content> {
    let kind = kind(name)?;
    Ok(match kind.name() {
        vindinium::plugin::NAME => Content {
            kind,
            maps: vindinium::ORIGINAL_MAPS.to_vec(),
            smoke_map: vindinium::ORIGINAL_MAPS[0].1,
            smoke_opponents: &["vindinium-random"; 3],
            stat_names: &["gold", "mines", "deaths"],
            rules: "/docs/vindinium-rules.md",
            time_rule: "/docs/vindinium-rules.md §9",
        },
        _ => Content {
            kind,
            maps: shipped_maps(),
            smoke_map: crate::builds::smoke_map(),
            smoke_opponents: &[crate::house::SMOKE_OPPONENT],
            stat_names: &["forts", "soldiers"],
            rules: "/docs/rules.md",
            time_rule: "/docs/rules.md §7",
        },
    })
}

/// How a match of `kind` is played: the default game's by the site's settings
/// (`base`), any other's by its own defaults for the turn limit and the reply times,
/// with the site's policy for the rest.
pub fn match_config(kind: &dyn GameKind, base: &MatchConfig) -> MatchConfig {
    if kind.name() == DEFAULT {
        return base.clone();
    }
    let d = kind.defaults();
    MatchConfig {
        max_steps: d.turn_limit,
        turn_timeout: d.turn_time,
        startup_timeout: d.first_reply_time,
        ..base.clone()
    }
}

/// The names of the open games, in the organizer's order.
pub async fn open(db: impl sqlx::PgExecutor<'_>) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar!(r#"select games as "games!" from ranker"#)
        .fetch_one(db)
        .await
}

/// Opens `names` (every one a game of the registry, at least one) and closes the rest.
pub async fn set_open(db: &PgPool, names: &[String]) -> anyhow::Result<()> {
    if names.is_empty() {
        anyhow::bail!("at least one game must be open");
    }
    for name in names {
        kind(name)?;
    }
    sqlx::query!("update ranker set games = $1", names)
        .execute(db)
        .await?;
    Ok(())
}

/// The game shown where none is named: the default game when it is open, else the
/// first open one.
pub fn default_of(open: &[String]) -> &str {
    match open.iter().find(|o| *o == DEFAULT).or(open.first()) {
        Some(o) => o,
        None => DEFAULT,
    }
}

/// The game a request names (`?game=NAME`), or the default game; a name that is no
/// open game is refused with the open ones.
pub fn chosen<'a>(asked: Option<&'a str>, open: &'a [String]) -> Result<&'a str, String> {
    match asked.filter(|a| !a.is_empty()) {
        None => Ok(default_of(open)),
        Some(a) if open.iter().any(|o| o == a) => Ok(a),
        Some(a) => Err(format!(
            "no open game is called `{}`; open games: {}",
            a.chars().take(40).collect::<String>(),
            open.join(", ")
        )),
    }
}

/// Named numbers as stored (`[[name, value], ...]`, see `worker::stats_json`), read
/// back in their order; anything else reads as none.
pub fn numbers(stored: &serde_json::Value) -> Vec<(String, i64)> {
    let pairs = stored.as_array().map_or(&[][..], Vec::as_slice);
    (pairs.iter())
        .filter_map(|p| Some((p.get(0)?.as_str()?.to_string(), p.get(1)?.as_i64()?)))
        .collect()
}

/// Named numbers in words: `12 forts, 20 roads`.
pub fn numbers_text(stored: &serde_json::Value) -> String {
    let all: Vec<String> = (numbers(stored).into_iter())
        .map(|(name, n)| format!("{n} {name}"))
        .collect();
    all.join(", ")
}

/// What the live stream sends of a stored replay, whatever its game: its head, its
/// rows (each JSON, row `t` the board of turn `t`) and its result (JSON).
pub fn stored_stream(replay_json: &str) -> Result<(String, Vec<String>, String), String> {
    if replay_json.contains(vindinium::plugin::FORMAT) {
        if let Ok(stream) = vindinium::plugin::stream_of(replay_json) {
            return Ok(stream);
        }
    }
    let compact = engine::replay_v2::read_compact(replay_json)?;
    let head = engine::replay_v2::head_json(&compact.map, &compact.players, compact.max_steps);
    let rows = (compact.turns.iter())
        .map(|r| serde_json::to_string(r).map_err(|e| e.to_string()))
        .collect::<Result<_, _>>()?;
    let result = serde_json::to_string(&compact.result).map_err(|e| e.to_string())?;
    Ok((head, rows, result))
}

/// Bottle Bats' shipped maps (the `.map` files of `games/bottlebats/maps/`), loaded into a fresh ladder:
/// (name, text), in order of name.
pub fn shipped_maps() -> Vec<(&'static str, &'static str)> {
    crate::embedded::MAPS
        .iter()
        .filter(|f| f.path.ends_with(".map") && !f.path.contains('/'))
        .map(|f| (f.stem(), f.text()))
        .collect()
}

/// The shipped maps as matchmaking sees them (ids 1, 2, … in their order): for the
/// simulations of `server/benches/`.
pub fn shipped_map_choices() -> Vec<crate::ranker::matchmaking::MapChoice> {
    shipped_maps()
        .into_iter()
        .enumerate()
        .map(|(i, (name, text))| crate::ranker::matchmaking::MapChoice {
            id: crate::ids::MapId(i as i64 + 1),
            seats: engine::Map::parse(text)
                .unwrap_or_else(|e| panic!("the shipped map {name}: {e}"))
                .seats
                .len(),
        })
        .collect()
}

impl crate::worker::Played {
    /// A Bottle Bats match played through `runner::run_match` (the benches' and tests'
    /// way), as a worker would have recorded it.
    pub fn of_bottlebats(r: &runner::MatchResult) -> Self {
        Self {
            ranks: r.outcome.ranks.clone(),
            turns: r.replay.result.as_ref().map_or(0, |x| x.turns),
            stats: r.players.iter().map(|p| p.stats.clone()).collect(),
            problems: (r.players.iter().enumerate())
                .map(|(i, p)| {
                    engine::problems::counted(&r.replay, i, &p.warning_counts, p.warnings)
                })
                .collect(),
            replay_json: engine::replay_v2::encode(&r.replay).to_json(),
            players: r.players.clone(),
        }
    }
}

/// The text of a timeout in Bottle Bats' matches recorded before their problems were
/// kept (read by the error board).
pub const BOTTLEBATS_TIMEOUT: &str = engine::problems::TIMEOUT;
