//! Live matches: the worker playing a match writes its compact replay's head and rows
//! (`engine::replay_v2::Encoder`, the same rows the stored replay holds) to
//! `live_matches` and `live_turns` as the turns are played, a few at a time; any
//! server reads them from there (`web/live.rs` streams them to browsers), whichever
//! machine the worker is on. The rows go once the match is recorded or given back:
//! the stored replay has them all.

use std::sync::{Arc, Mutex};

use engine::replay::FORMAT;
use engine::replay::{Events, Replay};
use engine::replay_v2::{Encoder, KEYFRAME_EVERY, VERSION};
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

/// The encoder on the game's thread: it sees the replay so far before every turn.
pub struct Watcher {
    shared: Recorder,
    encoder: Option<Encoder>,
    encoded: usize,
}

/// A compact replay's head: the replay without its turns and result (what the
/// stream sends first, live or from a stored replay).
pub fn head_of(r: &Replay) -> String {
    head_with(&r.map, &r.players, r.max_steps)
}

/// [`head_of`] from its parts.
pub fn head_with(map: &engine::replay::ReplayMap, players: &[String], max_steps: u32) -> String {
    serde_json::json!({
        "format": FORMAT,
        "version": VERSION,
        "map": map,
        "players": players,
        "max_steps": max_steps,
        "keyframe_every": KEYFRAME_EVERY,
    })
    .to_string()
}

impl Recorder {
    /// The watcher to give `runner::run_match_watched`.
    pub fn watcher(&self) -> Watcher {
        Watcher {
            shared: self.clone(),
            encoder: None,
            encoded: 0,
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
    /// Encodes the boards played since the last call.
    pub fn saw(&mut self, r: &Replay) {
        let mut fresh = Vec::new();
        let encoder = self.encoder.get_or_insert_with(|| {
            let head = head_of(r);
            self.shared.pending.lock().expect("not poisoned").head = Some(head);
            Encoder::new(&r.map, &r.players, KEYFRAME_EVERY)
        });
        let none = Events::default();
        for t in self.encoded..r.turns.len() {
            let before = if t == 0 {
                &none
            } else {
                &r.turns[t - 1].events
            };
            let row = encoder.row(&r.turns[t], before);
            let json = serde_json::to_string(&row).expect("a row always serializes");
            fresh.push((t as i32, json));
        }
        self.encoded = r.turns.len();
        self.shared
            .pending
            .lock()
            .expect("not poisoned")
            .rows
            .extend(fresh);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The rows written live are the stored replay's rows: a viewer that followed a
    /// game sees what the replay shows afterwards.
    #[test]
    fn the_live_rows_are_the_compact_replays_rows() {
        let text = crate::embedded::find(crate::embedded::MAPS, "duel-2p.map")
            .expect("a shipped map")
            .text();
        let map = engine::Map::parse(text).unwrap();
        let replay = engine::scripted::recorded(map, engine::scripted::Style::Random(3), 120);
        let rec = Recorder::default();
        let mut w = rec.watcher();
        // As the runner calls it: before every turn, with the replay so far.
        for n in 1..=replay.turns.len() {
            let mut so_far = replay.clone();
            so_far.turns.truncate(n);
            if let Some(last) = so_far.turns.last_mut() {
                last.events = Events::default();
            }
            w.saw(&so_far);
        }
        let p = rec.take();
        let whole = engine::replay_v2::encode(&replay);
        let head: serde_json::Value = serde_json::from_str(&p.head.unwrap()).unwrap();
        assert_eq!(head["players"], serde_json::json!(whole.players));
        assert_eq!(p.rows.len(), whole.turns.len());
        for (t, json) in &p.rows {
            let want = serde_json::to_string(&whole.turns[*t as usize]).unwrap();
            assert_eq!(json, &want, "row {t}");
        }
    }
}
