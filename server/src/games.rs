//! The games this site can host (the registry: one line per game), which of them are
//! open (the `games` setting, kept in the `ranker` row so that every server and worker
//! sees the same), and each game's [`Content`]: its description (`GameKind::describe`)
//! and its folders (`games/NAME/`, `maps/NAME/`, embedded by `build.rs`), found by its
//! name. Every other module iterates the registry: none names a game.
//!
//! Architecture invariant: the registry lines below are the server's only mention of a
//! game's crate or name; `layers::only_the_registry_names_a_game` holds it.

use std::sync::OnceLock;

use engine::MatchConfig;
use game_interface::{Description, GameKind, Maps, Registry};
use sqlx::PgPool;

use crate::embedded::{files_in, subfolders, GameFiles};

/// Every game this build of the platform knows, in the order they were added: the
/// first is the game of a config or a row that names none (everything stored before
/// there was a choice, and a 2016 config).
pub fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        let mut r = Registry::new(bottlebats::plugin::kind());
        r.add(vindinium::plugin::kind())
            .expect("every game has a name of its own");
        r.add(connectfour::plugin::kind())
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

/// A game as the site sees it: its [`GameKind`] (with its [`Description`]) and its
/// files.
#[derive(Clone, Copy)]
pub struct Content {
    pub kind: &'static dyn GameKind,
    pub files: &'static GameFiles,
}

/// One house bot: a folder of `games/NAME/bots/house/` with a `bot.py`.
#[derive(Clone, Debug)]
pub struct HouseBot {
    /// Its game, by registry name.
    pub game: &'static str,
    /// Its name on the site: the game's `house_prefix` and its folder's name (names
    /// are one namespace across games).
    pub name: &'static str,
    /// The source of its `bot.py`.
    pub source: &'static str,
    /// The name it was registered under before the game's prefix was short:
    /// `GAME-FOLDER` (none for the first game, whose house bots had plain names).
    pub former: Option<String>,
}

/// The content of the game called `name` (a name of the registry with a folder).
pub fn content(name: &str) -> anyhow::Result<Content> {
    let kind = kind(name)?;
    let files = crate::embedded::game(kind.name())
        .ok_or_else(|| anyhow::anyhow!("the game `{name}` has no folder games/{name}/"))?;
    Ok(Content { kind, files })
}

/// Every game of the registry with its content, in the registry's order.
pub fn all() -> impl Iterator<Item = Content> {
    (registry().names().into_iter()).filter_map(|name| content(name).ok())
}

impl Content {
    /// What the game is.
    pub fn describe(&self) -> &'static Description {
        self.kind.describe()
    }

    /// Its name.
    pub fn name(&self) -> &'static str {
        self.describe().name
    }

    /// The maps a fresh ladder of the game gets, (name, text) in order of name: the
    /// files of `maps/NAME/` with the game's extension, or for a game played on one
    /// board, that board, named after the game. Map names are one namespace across
    /// games.
    pub fn maps(&self) -> Vec<(&'static str, String)> {
        match self.describe().maps {
            Maps::Files { extension } => (self.files.maps.iter())
                .filter(|f| !f.path.contains('/'))
                .filter(|f| f.path.rsplit_once('.').is_some_and(|(_, x)| x == extension))
                .map(|f| (f.stem(), f.text().to_string()))
                .collect(),
            Maps::Board => {
                let seats = self.describe().defaults.seats.1;
                (self.kind.generate(0, seats).ok())
                    .map(|board| (self.name(), board))
                    .into_iter()
                    .collect()
            }
        }
    }

    /// The text of the smoke test's map.
    pub fn smoke_map(&self) -> anyhow::Result<String> {
        let d = self.describe();
        if let Maps::Board = d.maps {
            return Ok(self.kind.generate(0, 1 + d.smoke.opponents.len())?);
        }
        (self.maps().into_iter())
            .find(|(name, _)| *name == d.smoke.map)
            .map(|(_, text)| text)
            .ok_or_else(|| {
                anyhow::anyhow!(
                    "{}'s smoke-test map `{}` is not shipped",
                    d.title,
                    d.smoke.map
                )
            })
    }

    /// The house bots the smoke test seats beside the version tested, by their names
    /// on the site.
    pub fn smoke_opponents(&self) -> Vec<String> {
        let d = self.describe();
        (d.smoke.opponents.iter())
            .map(|o| format!("{}{o}", d.house_prefix))
            .collect()
    }

    /// The names of a seat's statistics ([`game_interface::Match::stats`]), in order.
    pub fn stat_names(&self) -> &'static [&'static str] {
        self.describe().stats
    }

    /// The address of the complete rules on the site.
    pub fn rules(&self) -> String {
        format!("/docs/{}/rules.md", self.name())
    }

    /// Where the rules say how long a reply may take: `/docs/NAME/rules.md §7`.
    pub fn time_rule(&self) -> String {
        format!("{} {}", self.rules(), self.describe().time_rule)
    }

    /// Its house bots, in order of name.
    pub fn house_bots(&self) -> Vec<HouseBot> {
        let d = self.describe();
        (subfolders(self.files.house).into_iter())
            .filter_map(|folder| {
                let (_, f) =
                    files_in(self.files.house, folder).find(|(path, _)| *path == "bot.py")?;
                let name: &'static str = match d.house_prefix {
                    "" => folder,
                    prefix => Box::leak(format!("{prefix}{folder}").into_boxed_str()),
                };
                Some(HouseBot {
                    game: d.name,
                    name,
                    source: f.text(),
                    former: (!d.house_prefix.is_empty())
                        .then(|| format!("{}-{folder}", d.name))
                        .filter(|former| former != name),
                })
            })
            .collect()
    }
}

/// The house bots of every game, in the registry's order, then by name. What each
/// does is said at the top of its source and in docs/operator.md.
pub fn house_bots() -> &'static [HouseBot] {
    static BOTS: OnceLock<Vec<HouseBot>> = OnceLock::new();
    BOTS.get_or_init(|| all().flat_map(|c| c.house_bots()).collect())
}

/// How a match of `kind` is played: its own defaults for the turn limit and the reply
/// times, with the site's policy (`base`) for the rest.
pub fn match_config(kind: &dyn GameKind, base: &MatchConfig) -> MatchConfig {
    let d = kind.defaults();
    MatchConfig {
        max_turns: d.max_turns,
        turn_timeout: d.turn_time,
        startup_timeout: d.first_reply_time,
        ..base.clone()
    }
}

/// The players' names of a match, by seat: each bot's name, and a bot seated again
/// (a challenge against "3 × strong") as `strong-2`, `strong-3`, never the name of
/// another seat, so that every game tells its players apart as it always did.
pub fn seat_names<'a>(bots: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let bots: Vec<&str> = bots.into_iter().collect();
    let mut names: Vec<String> = Vec::with_capacity(bots.len());
    for (i, bot) in bots.iter().enumerate() {
        let same = |a: &str, b: &str| a.eq_ignore_ascii_case(b);
        let mut name = bot.to_string();
        if bots[..i].iter().any(|b| same(b, bot)) {
            let taken = |n: &str| {
                (bots.iter().copied())
                    .chain(names.iter().map(String::as_str))
                    .any(|b| same(b, n))
            };
            name = (2..)
                .map(|k| format!("{bot}-{k}"))
                .find(|n| !taken(n))
                .expect("a free name among more numbers than seats");
        }
        names.push(name);
    }
    names
}

/// [`seat_names`] of players listed in another order (best first, say), each given
/// with its seat: their names in the same order.
pub fn seat_names_of(players: &[(i32, &str)]) -> Vec<String> {
    let mut by_seat: Vec<usize> = (0..players.len()).collect();
    by_seat.sort_by_key(|&i| players[i].0);
    let named = seat_names(by_seat.iter().map(|&i| players[i].1));
    let mut names = vec![String::new(); players.len()];
    for (i, name) in by_seat.into_iter().zip(named) {
        names[i] = name;
    }
    names
}

/// A seat's first statistic with its game's name for it (`350 gold`, `4 forts`), or
/// empty where none was kept (`match_players.first_stat`): what lists of games show
/// beside each player.
pub fn first_stat(game: &str, value: Option<i64>) -> String {
    let name = kind(game)
        .ok()
        .and_then(|k| k.describe().stats.first().copied());
    match (value, name) {
        (Some(v), Some(name)) => format!("{v} {name}"),
        _ => String::new(),
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

/// The game shown where none is named: the first open game (the organizer's order
/// of `--games`), else the registry's first.
pub fn default_of(open: &[String]) -> &str {
    match open.first() {
        Some(o) => o,
        None => registry().default_name(),
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

/// The names of the games, for a command line's help: `bottlebats, vindinium`.
pub fn names_text() -> String {
    registry().names().join(", ")
}

#[cfg(test)]
mod tests {
    use super::{seat_names, seat_names_of};

    #[test]
    fn a_bot_seated_again_gets_a_name_no_other_seat_has() {
        assert_eq!(
            seat_names(["me", "strong", "greedy"]),
            ["me", "strong", "greedy"]
        );
        assert_eq!(
            seat_names(["me", "strong", "strong", "strong"]),
            ["me", "strong", "strong-2", "strong-3"]
        );
        // A real bot called `strong-2` keeps its name; the copy takes the next one.
        assert_eq!(
            seat_names(["strong", "Strong", "strong-2", "strong"]),
            ["strong", "Strong-3", "strong-2", "strong-4"]
        );
        // Listed best first, named by seat: the first seat keeps the plain name.
        assert_eq!(
            seat_names_of(&[(2, "strong"), (0, "me"), (1, "strong")]),
            ["strong-2", "me", "strong"]
        );
    }
}
