//! Watching a version on the ladder: one that crashes or times out again and again in
//! its ranked games is held off the ladder, and its previous version plays again (the
//! bot stops playing if it has none). A test game is one game; a version that passes
//! it and then fails on the ladder (a crash at move 400, a bug on one map) is caught
//! here, in the transaction that records the game, before it plays many more.
//!
//! A version is held when, among its ranked games (newest first):
//! - its last [`IN_A_ROW`] all faulted (a crash, a removal for its output, a timeout);
//! - or, still in its first [`FIRST`], more than half of them faulted;
//! - or more than half of its last [`WINDOW`] faulted: crashing slowly keeps no bad
//!   version on the ladder.
//!
//! The rating changes of those games stay, as for any bot: the bot page says so.

use sqlx::{PgConnection, Postgres, Transaction};

use crate::ids::{BotId, VersionId};

/// Faulted games in a row that hold a version.
pub const IN_A_ROW: usize = 5;
/// A version's first ranked games, of which more than half faulted holds it.
pub const FIRST: usize = 10;
/// The last games of a version, of which more than half faulted holds it.
pub const WINDOW: usize = 20;

/// Why a version is held, from whether each of its ranked games faulted (newest
/// first, at most [`WINDOW`]) and how many it played in all; `None` while it may play.
pub fn verdict(faulted: &[bool], played: usize) -> Option<String> {
    let faults = |n: usize| faulted.iter().take(n).filter(|&&f| f).count();
    if faulted.len() >= IN_A_ROW && faults(IN_A_ROW) == IN_A_ROW {
        return Some(format!("in its last {IN_A_ROW} ranked games in a row"));
    }
    if played <= FIRST && faults(FIRST) > FIRST / 2 {
        return Some(format!(
            "in {} of its first {played} ranked games",
            faults(FIRST)
        ));
    }
    if faulted.len() >= WINDOW && faults(WINDOW) > WINDOW / 2 {
        return Some(format!(
            "in {} of its last {WINDOW} ranked games",
            faults(WINDOW)
        ));
    }
    None
}

/// After a ranked game of `bot`'s version `version` was recorded in `tx`: holds the
/// version off the ladder when [`verdict`] says so, and makes its previous version
/// active again. True when it held it.
pub async fn check(
    tx: &mut Transaction<'_, Postgres>,
    bot: BotId,
    version: VersionId,
) -> sqlx::Result<bool> {
    let conn: &mut PgConnection = tx;
    let games = sqlx::query!(
        r#"select (p.error is not null or coalesce(p.timeouts, 0) > 0) as "faulted!", p.error
           from match_players p
           where p.version_id = $1 and p.mu_after is not null
           order by p.match_id desc limit $2"#,
        version as VersionId,
        WINDOW as i64
    )
    .fetch_all(&mut *conn)
    .await?;
    if games.first().is_none_or(|g| !g.faulted) {
        return Ok(false);
    }
    let played: i64 = sqlx::query_scalar!(
        r#"select count(*) as "n!" from match_players where version_id = $1 and mu_after is not null"#,
        version as VersionId
    )
    .fetch_one(&mut *conn)
    .await?;
    let faulted: Vec<bool> = games.iter().map(|g| g.faulted).collect();
    let Some(how) = verdict(&faulted, played as usize) else {
        return Ok(false);
    };
    let v = sqlx::query!(
        "select number from bot_versions where id = $1 and status = 'active'",
        version as VersionId
    )
    .fetch_optional(&mut *conn)
    .await?;
    let Some(v) = v else {
        return Ok(false);
    };
    let previous = sqlx::query!(
        r#"select id as "id: VersionId", number from bot_versions
           where bot_id = $1 and status = 'retired' order by number desc limit 1"#,
        bot as BotId
    )
    .fetch_optional(&mut *conn)
    .await?;
    let cause = (games.iter())
        .find_map(|g| g.error.clone())
        .map_or_else(|| "it timed out".to_string(), |e| cut(&e));
    let then = match &previous {
        Some(p) => format!("version {} plays again", p.number),
        None => {
            "the bot plays no more ranked games until a new version passes its test game".into()
        }
    };
    let held = format!(
        "Version {} was held off the ladder: it crashed or timed out {how} ({cause}); {then}. \
         The rating changes of those games stay, as for any game. Fix it, try it at home with \
         `bottlebats play`, and upload a new version.",
        v.number
    );
    sqlx::query!(
        "update bot_versions set status = 'held', held = $2 where id = $1",
        version as VersionId,
        held
    )
    .execute(&mut *conn)
    .await?;
    if let Some(p) = &previous {
        sqlx::query!(
            "update bot_versions set status = 'active' where id = $1",
            p.id as VersionId
        )
        .execute(&mut *conn)
        .await?;
    }
    sqlx::query!(
        "update bots set active_version_id = $2, version_games = 0 where id = $1",
        bot as BotId,
        previous.as_ref().map(|p| p.id) as Option<VersionId>
    )
    .execute(&mut *conn)
    .await?;
    tracing::info!(%bot, version = v.number, "a version held off the ladder: {how}");
    Ok(true)
}

/// A crash's reason, cut to a sentence's part: its cause alone when it leads with one
/// (`IndexError: ..., at bot.py line 9`, without how the process ended).
fn cut(text: &str) -> String {
    let text = [" (its output ended", " (it closed its input"]
        .iter()
        .find_map(|end| text.find(end))
        .map_or(text, |i| &text[..i]);
    match text.char_indices().nth(240) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_of_faults_or_most_of_a_window_holds_a_version() {
        let f = |s: &str| s.chars().map(|c| c == 'x').collect::<Vec<bool>>();
        // Newest first.
        assert_eq!(verdict(&f("xxxx"), 4), None, "four in a row: not yet");
        assert!(verdict(&f("xxxxx"), 5)
            .unwrap()
            .contains("last 5 ranked games in a row"));
        assert!(verdict(&f("xxxxx......."), 30).is_some());
        assert_eq!(
            verdict(&f("xxxx.xxxx."), 40),
            None,
            "no run of 5, not in its first 10"
        );
        let first = verdict(&f("x.x.xxx.x."), 10).unwrap();
        assert_eq!(first, "in 6 of its first 10 ranked games");
        assert_eq!(verdict(&f("x.x.x.x.x."), 10), None, "half is not most");
        // Crashing slowly: 11 of the last 20, never 5 in a row.
        let slow = f("xx.xx.xx.xx.xx.xx.x.");
        assert!(verdict(&slow, 200)
            .unwrap()
            .ends_with("of its last 20 ranked games"));
        assert_eq!(
            verdict(&f(".xxxxx"), 6),
            None,
            "the newest game played well"
        );
    }
}
