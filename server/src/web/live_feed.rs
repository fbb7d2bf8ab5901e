//! What the live streams of `live.rs` share: one feed per match, polled from the
//! database by one task for all its viewers (however many watch a match, it costs one
//! query every [`POLL`]), holding the match's head and rows once; and the stream slots,
//! counted per address, with some kept for the featured match.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use sqlx::PgPool;
use tokio::sync::watch;

use super::guard::AddressKey;

use crate::ids::MatchId;
use crate::status::MatchStatus;

/// Most live streams this server keeps open at once.
pub const MAX_STREAMS: usize = 256;
/// Of those, the slots only the featured match's viewers (the big screen's) may take:
/// a crowd on other matches cannot shut the room out of the final.
pub const FEATURED_SLOTS: usize = 64;
/// Most live streams one address keeps open at once (a classroom behind one NAT
/// watching a final shares them); IPv6 addresses count by their /64
/// ([`super::guard::AddressKey`]).
pub const PER_ADDRESS: usize = 16;
/// How often a match's feed looks for new turns.
pub const POLL: Duration = Duration::from_millis(300);

/// Where a match's feed stands.
#[derive(Clone, Debug, Default)]
pub struct Snapshot {
    pub status: Option<MatchStatus>,
    /// The compact replay's head, once the match runs.
    pub head: Option<Arc<str>>,
    /// The rows so far (JSON), from turn 0.
    pub rows: Arc<Vec<Arc<str>>>,
    /// The `end` event's data, once the match is over and every row is in `rows`.
    pub end: Option<Arc<str>>,
}

/// One match's feed: its latest snapshot, and a signal at every change.
pub struct Feed {
    pub snapshot: watch::Receiver<Snapshot>,
}

/// The feeds of the matches being watched, and the stream slots.
#[derive(Default)]
pub struct Feeds {
    feeds: Mutex<HashMap<MatchId, Weak<Feed>>>,
    slots: Mutex<Slots>,
}

#[derive(Default)]
struct Slots {
    open: usize,
    by_address: HashMap<AddressKey, usize>,
}

/// A stream's slot, given back when dropped.
pub struct Slot {
    feeds: Arc<Feeds>,
    key: AddressKey,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut s = self.feeds.slots.lock().expect("not poisoned");
        s.open -= 1;
        if let Some(n) = s.by_address.get_mut(&self.key) {
            *n -= 1;
            if *n == 0 {
                s.by_address.remove(&self.key);
            }
        }
    }
}

/// Why a stream was not opened.
#[derive(Debug, PartialEq, Eq)]
pub enum NoSlot {
    /// This address has [`PER_ADDRESS`] open.
    Address,
    /// The server has every slot it gives such a stream taken.
    Full,
}

impl Feeds {
    /// A slot for a stream from `ip`; `featured` streams may take the kept slots.
    pub fn slot(self: &Arc<Self>, ip: IpAddr, featured: bool) -> Result<Slot, NoSlot> {
        let mut s = self.slots.lock().expect("not poisoned");
        let room = if featured {
            MAX_STREAMS
        } else {
            MAX_STREAMS - FEATURED_SLOTS
        };
        let key = AddressKey::from(ip);
        if s.by_address.get(&key).copied().unwrap_or(0) >= PER_ADDRESS {
            return Err(NoSlot::Address);
        }
        if s.open >= room {
            return Err(NoSlot::Full);
        }
        s.open += 1;
        *s.by_address.entry(key).or_insert(0) += 1;
        Ok(Slot {
            feeds: self.clone(),
            key,
        })
    }

    /// Streams open now.
    pub fn open(&self) -> usize {
        self.slots.lock().expect("not poisoned").open
    }

    /// The feed of match `id`, started when nobody watched it yet.
    pub fn feed(&self, db: &PgPool, id: MatchId) -> Arc<Feed> {
        let mut feeds = self.feeds.lock().expect("not poisoned");
        if let Some(f) = feeds.get(&id).and_then(Weak::upgrade) {
            return f;
        }
        feeds.retain(|_, f| f.strong_count() > 0);
        let (tx, rx) = watch::channel(Snapshot::default());
        let feed = Arc::new(Feed { snapshot: rx });
        feeds.insert(id, Arc::downgrade(&feed));
        tokio::spawn(poll(db.clone(), id, tx, Arc::downgrade(&feed)));
        feed
    }
}

/// Polls match `id` for its viewers while any is left (`viewers` alive), until it
/// is over.
async fn poll(db: PgPool, id: MatchId, tx: watch::Sender<Snapshot>, viewers: Weak<Feed>) {
    let mut rows: Vec<Arc<str>> = Vec::new();
    while viewers.strong_count() > 0 {
        match step(&db, id, &tx, &mut rows).await {
            Ok(true) => return,
            Ok(false) => {}
            Err(e) => tracing::debug!(match_id = %id, "a live feed could not be read: {e:#}"),
        }
        tokio::time::sleep(POLL).await;
    }
}

/// One look at the match; true once it is over (the end published).
async fn step(
    db: &PgPool,
    id: MatchId,
    tx: &watch::Sender<Snapshot>,
    rows: &mut Vec<Arc<str>>,
) -> anyhow::Result<bool> {
    let status = sqlx::query_scalar!(
        r#"select status as "status: MatchStatus" from matches where id = $1"#,
        id as MatchId
    )
    .fetch_optional(db)
    .await?;
    let Some(status) = status else {
        tx.send_modify(|s| s.end = Some(end(None, "voided", "null")));
        return Ok(true);
    };
    match status {
        MatchStatus::Queued => {
            tx.send_if_modified(|s| {
                let changed = s.status != Some(status);
                s.status = Some(status);
                changed
            });
            Ok(false)
        }
        MatchStatus::Running => {
            let Some((head, fresh)) = crate::live::read(db, id, rows.len() as i32).await? else {
                return Ok(false);
            };
            let grew = !fresh.is_empty();
            rows.extend(fresh.into_iter().map(|(_, r)| Arc::from(r)));
            tx.send_if_modified(|s| {
                let first = s.head.is_none() || s.status != Some(status);
                s.status = Some(status);
                if s.head.is_none() {
                    s.head = Some(head.into());
                }
                if grew {
                    s.rows = Arc::new(rows.clone());
                }
                first || grew
            });
            Ok(false)
        }
        MatchStatus::Finished => {
            finished(db, id, tx, rows).await?;
            Ok(true)
        }
        MatchStatus::Void => {
            tx.send_modify(|s| {
                s.status = Some(status);
                s.end = Some(end(None, "voided", "null"));
            });
            Ok(true)
        }
    }
}

/// The `end` event's data.
fn end(id: Option<MatchId>, status: &str, result: &str) -> Arc<str> {
    let replay = id.map_or("null".to_string(), |id| {
        format!("\"/matches/{id}/replay.json\"")
    });
    format!("{{\"status\":\"{status}\",\"result\":{result},\"replay\":{replay}}}").into()
}

/// The rows not seen live, from the stored replay (unpacked once, off the async
/// runtime, for every viewer), and the end.
async fn finished(
    db: &PgPool,
    id: MatchId,
    tx: &watch::Sender<Snapshot>,
    rows: &mut Vec<Arc<str>>,
) -> anyhow::Result<()> {
    let m = sqlx::query!(
        "select game, replay from matches where id = $1",
        id as MatchId
    )
    .fetch_one(db)
    .await?;
    let kind = crate::games::kind(&m.game)?;
    let stored =
        (m.replay).ok_or_else(|| anyhow::anyhow!("a finished match without its replay"))?;
    let seen = rows.len();
    let (head, rest, result) = tokio::task::spawn_blocking(move || {
        let text = crate::compress::gunzip(&stored)?;
        let stream =
            (kind.stored_stream(&String::from_utf8_lossy(&text))).map_err(anyhow::Error::msg)?;
        let rest: Vec<Arc<str>> = (stream.rows.into_iter().skip(seen))
            .map(Arc::from)
            .collect();
        anyhow::Ok((stream.head, rest, stream.result))
    })
    .await??;
    rows.extend(rest);
    let rows = Arc::new(std::mem::take(rows));
    tx.send_modify(|s| {
        s.status = Some(MatchStatus::Finished);
        s.head.get_or_insert_with(|| head.into());
        s.rows = rows;
        s.end = Some(end(Some(id), "finished", &result));
    });
    Ok(())
}
