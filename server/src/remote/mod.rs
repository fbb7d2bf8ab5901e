//! Remote bots (docs/remote.md): a bot whose process runs on its owner's machine and
//! plays on the site through one connection, in any game, with the program that would
//! play uploaded.
//!
//! The parts, from the bot's row to its bytes:
//!
//! - this file: what the site allows (`remote = off | practice | ladder`, the
//!   [`Settings`]), each game's time allowance, remote bots made and resumed, and the
//!   cleaning of what a dead server left;
//! - `keys.rs`: a bot's key (stored hashed, one live at a time), checked at connection;
//! - `hub.rs`: the sessions this server holds (one per bot, capped, attempts limited
//!   per key and per address) and the matchmaker that offers idle ones matches;
//! - `play.rs`: one remote match: made (ladder, practice, a tournament's), offered,
//!   accepted within [`ACCEPT`] or a no-show, played by `Worker::play_seated` with the
//!   remote seats' processes, recorded as any match;
//! - `seat.rs`: a remote seat's transport, the seam between the runner's pipes
//!   (`engine::remote`) and whatever carries the bytes: the WebSocket session of
//!   `web/remote.rs` today, an HTTP long-poll adapter tomorrow;
//! - `wire.rs`: the protocol's messages, which `web/remote.rs` and the other end,
//!   `bottlebats connect` (`cli/connect.rs`), both speak.

pub mod hub;
pub mod keys;
pub mod play;
pub mod poll;
pub mod seat;
pub mod wire;

use std::time::Duration;

use serde::{Deserialize, Serialize};
use sqlx::PgPool;

use crate::accounts::User;
use crate::ids::{BotId, UserId};
use crate::ranker::rating;

/// What remote bots may do on a site (the `remote` setting).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// No remote bots: none can be made, no session is taken.
    Off,
    /// Unrated games against house bots only.
    Practice,
    /// Rated games on their game's ladder, and practice games.
    Ladder,
}

impl Mode {
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Off => "off",
            Mode::Practice => "practice",
            Mode::Ladder => "ladder",
        }
    }

    pub fn parse(text: &str) -> Mode {
        match text {
            "ladder" => Mode::Ladder,
            "practice" => Mode::Practice,
            _ => Mode::Off,
        }
    }
}

/// The organizer's settings for remote bots.
#[derive(Clone, Debug)]
pub struct Settings {
    pub mode: Mode,
    /// Whether remote bots may enter tournaments.
    pub tournaments: bool,
    /// Sessions this server holds at once.
    pub sessions: usize,
    /// Matches with a remote seat this server plays at once.
    pub matches: usize,
    /// The organizer's allowance per game, where set: (game, time).
    pub allowances: Vec<(String, Duration)>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            mode: Mode::Ladder,
            tournaments: false,
            sessions: 1024,
            matches: 1,
            allowances: Vec::new(),
        }
    }
}

/// A game's default allowance is this share of its turn time: 300 ms for Bottle Bats'
/// 2 s, 150 ms for Vindinium's 1 s (docs/remote.md says why).
pub const ALLOWANCE_SHARE: u32 = 15;
/// The most allowance an organizer may give (a turn's wait is every seat's).
pub const MOST_ALLOWANCE: Duration = Duration::from_secs(10);

/// The default allowance of a game whose replies have `turn_time`.
pub fn default_allowance(turn_time: Duration) -> Duration {
    turn_time * ALLOWANCE_SHARE / 100
}

/// Each game's default allowance, as `--help` and docs/operator.md show it.
pub fn allowance_rule() -> String {
    let registry = crate::games::registry();
    (registry.names().iter())
        .filter_map(|n| registry.get(n))
        .map(|k| {
            let ms = default_allowance(k.defaults().turn_time).as_millis();
            format!("{}={ms}", k.name())
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// Reads `game=ms` pairs (the `remote_allowance_ms` setting).
pub fn parse_allowances(pairs: &[String]) -> Result<Vec<(String, Duration)>, String> {
    let mut out = Vec::new();
    for pair in pairs.iter().map(|p| p.trim()).filter(|p| !p.is_empty()) {
        let (game, ms) = pair
            .split_once('=')
            .ok_or_else(|| format!("`{pair}` is not GAME=MILLISECONDS"))?;
        let kind = crate::games::kind(game.trim()).map_err(|e| e.to_string())?;
        let ms: u64 = (ms.trim().parse())
            .map_err(|_| format!("`{pair}`: `{ms}` is not a number of milliseconds"))?;
        let time = Duration::from_millis(ms);
        if time > MOST_ALLOWANCE {
            return Err(format!(
                "`{pair}`: at most {} ms",
                MOST_ALLOWANCE.as_millis()
            ));
        }
        out.push((kind.name().to_string(), time));
    }
    Ok(out)
}

impl Settings {
    /// The time added to each reply of a remote bot in `game`.
    pub fn allowance(&self, game: &str) -> Duration {
        if let Some((_, t)) = self.allowances.iter().find(|(g, _)| g == game) {
            return *t;
        }
        crate::games::kind(game).map_or(Duration::from_millis(300), |k| {
            default_allowance(k.defaults().turn_time)
        })
    }
}

/// How long a session has to accept a match it is offered.
pub const ACCEPT: Duration = Duration::from_secs(10);
/// Matches offered in a row and not accepted that pause a remote bot.
pub const NO_SHOWS_TO_PAUSE: i32 = 3;
/// How often the server pings a session.
pub const PING: Duration = Duration::from_secs(20);

/// The site's settings for remote bots that every process shares: written at each
/// start from the configuration (`remote`, `remote_tournaments`).
pub async fn set_site(db: &PgPool, s: &Settings) -> sqlx::Result<()> {
    sqlx::query!(
        "update ranker set remote = $1, remote_tournaments = $2",
        s.mode.as_str(),
        s.tournaments
    )
    .execute(db)
    .await?;
    Ok(())
}

/// What remote bots may do now, as the `ranker` row says.
pub async fn site_mode(db: impl sqlx::PgExecutor<'_>) -> sqlx::Result<Mode> {
    let text = sqlx::query_scalar!("select remote from ranker")
        .fetch_one(db)
        .await?;
    Ok(Mode::parse(&text))
}

/// Why a remote bot cannot be made, in words for its owner.
#[derive(Debug, PartialEq, Eq)]
pub struct Refusal(pub String);

/// Makes a remote bot called `name` for `game` (an open game) and its first key,
/// counted in the owner's cap on bots like any other (`most_bots`). Returns the bot and
/// its key (shown once). The outer error is the platform's.
pub async fn create_bot(
    db: &PgPool,
    owner: &User,
    name: &str,
    game: &str,
    most_bots: u32,
) -> anyhow::Result<Result<(BotId, String), Refusal>> {
    if let Some(closed) = crate::contest::closed_now(db).await? {
        return Ok(Err(Refusal(closed)));
    }
    if site_mode(db).await? == Mode::Off {
        return Ok(Err(Refusal("This site takes no remote bots.".into())));
    }
    if let Err(e) = crate::uploads::check_bot_name(name) {
        return Ok(Err(Refusal(e)));
    }
    let open = crate::games::open(db).await?;
    let game = match crate::games::chosen(Some(game), &open) {
        Ok(g) => g.to_string(),
        Err(e) => return Ok(Err(Refusal(format!("{e}.")))),
    };
    let mut tx = db.begin().await?;
    // The owner's row held: two requests at once are counted one after the other.
    sqlx::query!(
        "select 1 as one from users where id = $1 for update",
        owner.id as UserId
    )
    .fetch_one(&mut *tx)
    .await?;
    let bots = sqlx::query_scalar!(
        r#"select count(*) as "n!" from bots where owner_id = $1"#,
        owner.id as UserId
    )
    .fetch_one(&mut *tx)
    .await?;
    if bots >= i64::from(most_bots) {
        return Ok(Err(Refusal(format!(
            "You have {bots} bots, the most one account may have here (remote bots count too)."
        ))));
    }
    let bot = match crate::uploads::create_bot(&mut *tx, owner.id, name, &game).await {
        Ok(id) => id,
        Err(sqlx::Error::Database(e)) if e.constraint() == Some("bots_name_key") => {
            return Ok(Err(Refusal(format!(
                "A bot called `{name}` exists already; choose another name."
            ))));
        }
        Err(e) => return Err(e.into()),
    };
    make_remote(&mut tx, bot).await?;
    let key = keys::issue(&mut tx, bot).await?;
    tx.commit().await?;
    tracing::info!(bot = %name, %game, owner = %owner.name, "remote bot made");
    Ok(Ok((bot, key)))
}

/// The language of a remote bot's one version: it has no source here.
pub const LANGUAGE: &str = "remote";

/// Makes `bot` (a fresh bot) remote: its one version, language [`LANGUAGE`], is active
/// at once (nothing to build), so its seats have a version as every seat does.
async fn make_remote(tx: &mut sqlx::PgConnection, bot: BotId) -> sqlx::Result<()> {
    let empty: &[u8] = &[];
    sqlx::query!(
        r#"with v as (insert into bot_versions (bot_id, number, language, entry, archive,
                   archive_name, archive_sha256, status, finished_at)
               values ($1, 1, $5, '', $2, $5, sha256($2), 'active', now())
               returning id)
           update bots set remote = true, active_version_id = (select id from v),
               mu = $3, sigma = $4
           where id = $1"#,
        bot as BotId,
        empty,
        rating::MU,
        rating::SIGMA,
        LANGUAGE
    )
    .execute(tx)
    .await?;
    Ok(())
}

/// The remote bot `name` of `user`, made for `game` if it does not exist; its id.
/// (`bottlebats admin remote-key`.)
pub async fn find_or_create(
    db: &PgPool,
    user: &str,
    name: &str,
    game: &str,
) -> anyhow::Result<BotId> {
    let owner = crate::accounts::find_login(db, user)
        .await?
        .ok_or_else(|| anyhow::anyhow!("there is no user `{user}`"))?
        .0;
    let found = sqlx::query!(
        r#"select id as "id: BotId", owner_id as "owner: UserId", remote, game from bots
           where lower(name) = lower($1)"#,
        name
    )
    .fetch_optional(db)
    .await?;
    match found {
        Some(b) if b.owner != owner.id => {
            anyhow::bail!("the bot `{name}` belongs to another user")
        }
        Some(b) if !b.remote => anyhow::bail!("`{name}` is an uploaded bot, not a remote one"),
        Some(b) if b.game != game => {
            anyhow::bail!("`{name}` is a remote bot of {}, not of {game}", b.game)
        }
        Some(b) => Ok(b.id),
        None => {
            crate::games::kind(game)?;
            let mut tx = db.begin().await?;
            let bot = crate::uploads::create_bot(&mut *tx, owner.id, name, game).await?;
            make_remote(&mut tx, bot).await?;
            tx.commit().await?;
            Ok(bot)
        }
    }
}

/// Counts a match a bot's session did not accept in time; after
/// [`NO_SHOWS_TO_PAUSE`] in a row the bot is paused, and the reason is returned.
pub async fn no_show(db: &PgPool, bot: BotId) -> sqlx::Result<Option<String>> {
    let reason = format!(
        "paused after {NO_SHOWS_TO_PAUSE} matches in a row offered to its session and not \
         accepted (declined, or no answer within {} s); its owner resumes it on its page",
        ACCEPT.as_secs()
    );
    let paused = sqlx::query_scalar!(
        r#"update bots set remote_no_shows = remote_no_shows + 1,
               remote_paused = case when remote_no_shows + 1 >= $2 then $3 else remote_paused end
           where id = $1 returning remote_paused"#,
        bot as BotId,
        NO_SHOWS_TO_PAUSE,
        reason
    )
    .fetch_optional(db)
    .await?;
    Ok(paused.flatten())
}

/// A match accepted: the no-shows in a row start over.
pub async fn showed_up(db: &PgPool, bot: BotId) -> sqlx::Result<()> {
    sqlx::query!(
        "update bots set remote_no_shows = 0 where id = $1 and remote_no_shows <> 0",
        bot as BotId
    )
    .execute(db)
    .await?;
    Ok(())
}

/// Its owner takes a paused remote bot back: sessions are taken again.
pub async fn resume(db: &PgPool, bot: BotId) -> sqlx::Result<()> {
    sqlx::query!(
        "update bots set remote_paused = null, remote_no_shows = 0 where id = $1",
        bot as BotId
    )
    .execute(db)
    .await?;
    Ok(())
}

/// What a dead server left: its remote matches running past their lease are void
/// (they cannot be played again without their session), and sessions it no longer
/// renews are forgotten.
pub async fn sweep(db: &PgPool) -> sqlx::Result<u64> {
    let voided = sqlx::query!(
        "update matches set status = 'void', lease_owner = null, lease_until = null,
             void_reason = 'the server playing it with a remote bot stopped mid-match'
         where remote and status = 'running' and lease_until < now()"
    )
    .execute(db)
    .await?
    .rows_affected();
    sqlx::query!("delete from remote_sessions where seen_at < now() - interval '1 minute'")
        .execute(db)
        .await?;
    Ok(voided)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_game_gets_its_share_of_its_turn_time_unless_the_organizer_says() {
        let s = Settings::default();
        assert_eq!(s.allowance("bottlebats"), Duration::from_millis(300));
        assert_eq!(s.allowance("vindinium"), Duration::from_millis(150));
        assert_eq!(
            allowance_rule(),
            "bottlebats=300,vindinium=150,connectfour=150"
        );
        let set = Settings {
            allowances: parse_allowances(&["vindinium=250".into(), " bottlebats = 40 ".into()])
                .unwrap(),
            ..Settings::default()
        };
        assert_eq!(set.allowance("vindinium"), Duration::from_millis(250));
        assert_eq!(set.allowance("bottlebats"), Duration::from_millis(40));
    }

    #[test]
    fn an_allowance_that_cannot_be_read_is_refused_saying_why() {
        for (bad, says) in [
            ("chess=100", "no game is called `chess`"),
            ("bottlebats", "is not GAME=MILLISECONDS"),
            ("bottlebats=soon", "is not a number of milliseconds"),
            ("bottlebats=10001", "at most 10000 ms"),
        ] {
            let e = parse_allowances(&[bad.to_string()]).unwrap_err();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }

    #[test]
    fn reply_times_are_summed_up_by_their_median_p90_and_longest() {
        use wire::Latency;
        assert_eq!(Latency::of(&[]), None);
        let ms: Vec<u32> = (1..=10).collect();
        assert_eq!(
            Latency::of(&ms),
            Some(Latency {
                moves: 10,
                median_ms: 6,
                p90_ms: 9,
                max_ms: 10
            })
        );
    }

    #[test]
    fn an_exit_reads_back_as_the_wait_status_it_was() {
        use std::os::unix::process::ExitStatusExt;
        let code = wire::ClientMessage::wait_status(Some(3), None);
        assert_eq!(std::process::ExitStatus::from_raw(code).code(), Some(3));
        let killed = wire::ClientMessage::wait_status(None, Some(9));
        assert_eq!(std::process::ExitStatus::from_raw(killed).signal(), Some(9));
    }
}
