//! Live matches: the worker playing a match writes its compact replay's head and rows
//! (the match's own live rows, `Match::rows_since`: the stored replay's rows) to
//! `live_matches` and `live_turns` as the turns are played, a few at a time; any
//! server reads them from there (`web/live.rs` streams them to browsers), whichever
//! machine the worker is on. The rows go once the match is recorded or given back:
//! the stored replay has them all.

use std::sync::{Arc, Mutex};

use sqlx::PgPool;

use crate::ids::MatchId;

/// Rows encoded on the game's thread, waiting to be written.
#[derive(Default)]
struct Pending {
    head: Option<String>,
    rows: Vec<(i32, String)>,
}

/// What the game's thread and the worker share: the encoder's output.
#[derive(Clone, Default)]
pub struct Recorder {
    pending: Arc<Mutex<Pending>>,
}

/// The game's thread's side: it sees the match before every turn and takes the live
/// rows the match wrote since (the stored replay's own rows).
pub struct Watcher {
    shared: Recorder,
    head_sent: bool,
    sent: usize,
}

impl Recorder {
    /// The watcher to give `engine::run_match_watched`.
    pub fn watcher(&self) -> Watcher {
        Watcher {
            shared: self.clone(),
            head_sent: false,
            sent: 0,
        }
    }

    fn take(&self) -> Pending {
        std::mem::take(&mut *self.pending.lock().expect("not poisoned"))
    }

    /// Writes what was encoded since the last call; the first call with a head
    /// starts the match's live record afresh (a match played again starts over).
    pub async fn flush(&self, db: &PgPool, id: MatchId) -> sqlx::Result<()> {
        let p = self.take();
        if let Some(head) = p.head {
            sqlx::query!(
                "insert into live_matches (match_id, head) values ($1, $2)
                 on conflict (match_id) do update set head = $2, started_at = now()",
                id as MatchId,
                head
            )
            .execute(db)
            .await?;
            sqlx::query!("delete from live_turns where match_id = $1", id as MatchId)
                .execute(db)
                .await?;
        }
        if p.rows.is_empty() {
            return Ok(());
        }
        let (turns, rows): (Vec<i32>, Vec<String>) = p.rows.into_iter().unzip();
        sqlx::query!(
            "insert into live_turns (match_id, turn, row)
             select $1, t, r from unnest($2::int[], $3::text[]) x(t, r)
             on conflict (match_id, turn) do update set row = excluded.row",
            id as MatchId,
            &turns,
            &rows
        )
        .execute(db)
        .await?;
        Ok(())
    }
}

impl Watcher {
    /// Takes the head, once, and the rows played since the last call.
    pub fn saw(&mut self, m: &dyn game_interface::Match) {
        let head = (!self.head_sent).then(|| m.replay_head());
        self.head_sent = true;
        let rows = m.rows_since(self.sent);
        let first = self.sent;
        self.sent += rows.len();
        let mut pending = self.shared.pending.lock().expect("not poisoned");
        if head.is_some() {
            pending.head = head;
        }
        (pending.rows).extend(
            rows.into_iter()
                .enumerate()
                .map(|(i, r)| ((first + i) as i32, r)),
        );
    }
}

/// Drops a match's live record (it is recorded, or given back).
pub async fn forget(db: impl sqlx::PgExecutor<'_>, id: MatchId) -> sqlx::Result<()> {
    sqlx::query!(
        "delete from live_matches where match_id = $1",
        id as MatchId
    )
    .execute(db)
    .await?;
    Ok(())
}

/// A match's live record from row `from` on: its head and the rows there are.
pub async fn read(
    db: &PgPool,
    id: MatchId,
    from: i32,
) -> sqlx::Result<Option<(String, Vec<(i32, String)>)>> {
    let Some(head) = sqlx::query_scalar!(
        "select head from live_matches where match_id = $1",
        id as MatchId
    )
    .fetch_optional(db)
    .await?
    else {
        return Ok(None);
    };
    let rows = sqlx::query!(
        "select turn, row from live_turns where match_id = $1 and turn >= $2 order by turn",
        id as MatchId,
        from
    )
    .fetch_all(db)
    .await?
    .into_iter()
    .map(|r| (r.turn, r.row))
    .collect();
    Ok(Some((head, rows)))
}

/// How the live channel (`/live`) shows the featured games, as the organizer sets it
/// on `/admin` while it runs (the `ranker` row: every server reads the same).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Channel {
    /// Seconds a featured game is played over, however fast it was played.
    pub seconds: u32,
    /// Turns held back while a game runs (a final's moves not shown as they happen).
    pub delay: u32,
}

/// The pace when the organizer set none: long enough to follow a game, short enough
/// that a room sees one a minute.
pub const DEFAULT_SECONDS: u32 = 45;
/// The paces an organizer may set, in seconds a game.
pub const SECONDS: std::ops::RangeInclusive<u32> = 10..=300;
/// The delays an organizer may set, in turns.
pub const DELAYS: std::ops::RangeInclusive<u32> = 0..=100;

impl Channel {
    /// The settings `seconds` and `delay` as typed, or why not.
    pub fn parse(seconds: &str, delay: &str) -> Result<Channel, String> {
        Ok(Channel {
            seconds: parse_seconds(seconds)?,
            delay: parse_delay(delay)?,
        })
    }
}

/// A number typed for a setting, within `range`, or why not (naming it as `what`).
fn within(text: &str, range: &std::ops::RangeInclusive<u32>, what: &str) -> Result<u32, String> {
    text.trim()
        .parse::<u32>()
        .ok()
        .filter(|n| range.contains(n))
        .ok_or_else(|| {
            format!(
                "The {what} is a whole number from {} to {}.",
                range.start(),
                range.end()
            )
        })
}

/// The pace as typed (seconds a game), or why not.
pub fn parse_seconds(text: &str) -> Result<u32, String> {
    within(text, &SECONDS, "pace")
}

/// The delay as typed (turns held back), or why not.
pub fn parse_delay(text: &str) -> Result<u32, String> {
    within(text, &DELAYS, "delay")
}

/// The channel's settings: the organizer's, else the defaults (`delay`: the config's).
pub async fn channel(db: impl sqlx::PgExecutor<'_>, delay: u32) -> sqlx::Result<Channel> {
    let row = sqlx::query!("select live_seconds, live_delay from ranker")
        .fetch_one(db)
        .await?;
    Ok(Channel {
        seconds: row.live_seconds.map_or(DEFAULT_SECONDS, |s| s as u32),
        delay: row.live_delay.map_or(delay, |d| d as u32),
    })
}

/// Sets the channel's pace and delay; the next game shown takes them.
pub async fn set_channel(db: &PgPool, c: Channel) -> sqlx::Result<()> {
    sqlx::query!(
        "update ranker set live_seconds = $1, live_delay = $2",
        c.seconds as i32,
        c.delay as i32
    )
    .execute(db)
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rows written live are the stored replay's rows: a viewer that followed a
    /// game sees what the replay shows afterwards.
    #[test]
    fn the_live_rows_are_the_compact_replays_rows() {
        use bottlebats::plugin::BottleBatsMatch;
        use game_interface::{Answer, Match, RunnerNotes};
        let maps = crate::games::content("bottlebats").unwrap().maps();
        let (_, text) = maps
            .iter()
            .find(|(name, _)| *name == "duel-2p")
            .expect("a shipped map");
        let map = Arc::new(bottlebats::Map::parse(text).unwrap());
        let names = ["p1".to_string(), "p2".to_string()];
        let game = bottlebats::Game::new(map.clone(), &names, 120).unwrap();
        let mut players: Vec<_> = (0..2)
            .map(|s| bottlebats::scripted::RandomPlayer::new(&map, bottlebats::Seat(s), 3))
            .collect();
        let mut m = BottleBatsMatch::new(game);
        let rec = Recorder::default();
        let mut w = rec.watcher();
        // As the runner calls it: before every turn; and once more at the end.
        while !m.is_over() {
            w.saw(&m);
            let answers: Vec<_> = (players.iter_mut().enumerate())
                .map(|(s, p)| match p.orders(m.game()) {
                    bottlebats::Orders::Commands(lines) => (s, Answer::Lines(lines)),
                    _ => (s, Answer::NoReply),
                })
                .collect();
            m.step(&answers, &RunnerNotes::default());
        }
        w.saw(&m);
        let p = rec.take();
        let whole = bottlebats::replay_v2::encode(m.replay());
        let head: serde_json::Value = serde_json::from_str(&p.head.unwrap()).unwrap();
        assert_eq!(head["players"], serde_json::json!(whole.players));
        assert_eq!(p.rows.len(), whole.turns.len());
        for (t, json) in &p.rows {
            let want = serde_json::to_string(&whole.turns[*t as usize]).unwrap();
            assert_eq!(json, &want, "row {t}");
        }
    }

    #[test]
    fn the_channel_takes_whole_numbers_within_its_ranges() {
        let ok = Channel::parse(" 30 ", "2").unwrap();
        assert_eq!(
            ok,
            Channel {
                seconds: 30,
                delay: 2
            }
        );
        for (seconds, delay) in [
            ("9", "0"),
            ("301", "0"),
            ("30", "101"),
            ("x", "0"),
            ("30", "-1"),
            ("", ""),
        ] {
            assert!(Channel::parse(seconds, delay).is_err(), "{seconds} {delay}");
        }
    }
}
