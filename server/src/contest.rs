//! The contest's phases: before the submission deadline anyone may upload; after it,
//! new bots and new versions are refused (versions already uploaded still build and
//! play), and the ladder goes on, or freezes (no new ranked match is scheduled or
//! started) as the organizer chose. There may be no deadline at all: an endless
//! ladder. The deadline lives in the `ranker` row, so every server and worker on the
//! database sees the same one; `/admin`, `bottlebats admin deadline` and the config's
//! `deadline` (applied at each start) set it.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use sqlx::PgPool;
use time::{OffsetDateTime, PrimitiveDateTime, UtcOffset};

/// The contest's phase as the organizer set it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Contest {
    /// When submissions close; none for an endless ladder.
    pub deadline: Option<OffsetDateTime>,
    /// Whether the ladder stops playing ranked matches once the deadline has passed.
    pub freeze: bool,
    /// Whether the organizers paused the ladder (read with the phase, for the pages).
    pub paused: bool,
}

impl Contest {
    /// Whether submissions are closed at `now`.
    pub fn closed_at(&self, now: OffsetDateTime) -> bool {
        self.deadline.is_some_and(|d| now >= d)
    }

    /// Whether submissions are closed now.
    pub fn closed(&self) -> bool {
        self.closed_at(OffsetDateTime::now_utc())
    }

    /// Whether the ladder is frozen now: ratings no longer change.
    pub fn frozen(&self) -> bool {
        self.freeze && self.closed()
    }

    /// The phase in one line, for organizers.
    pub fn describe(&self) -> String {
        let ladder = if self.freeze {
            "the ladder freezes at the deadline"
        } else {
            "the ladder goes on after the deadline"
        };
        match self.deadline {
            None if self.freeze => {
                "no submission deadline yet; the ladder will freeze at the one set".into()
            }
            None => "no submission deadline: submissions stay open".into(),
            Some(d) if self.closed() => format!(
                "submissions closed at {}; {}",
                format_deadline(d),
                if self.frozen() {
                    "the ladder is frozen"
                } else {
                    "the ladder goes on"
                }
            ),
            Some(d) => format!(
                "submissions close at {} (in {}); {ladder}",
                format_deadline(d),
                time_left(OffsetDateTime::now_utc(), d)
            ),
        }
    }

    /// What saving `next` over this phase does at once, at `now`, when it closes
    /// submissions that are open or freezes a ladder that plays: an organizer confirms
    /// it before it is saved (a deadline typed in the past by mistake ends the contest).
    pub fn at_once(&self, next: &Contest, now: OffsetDateTime) -> Option<String> {
        let d = next.deadline.filter(|_| next.closed_at(now))?;
        let freezes = next.freeze && !(self.freeze && self.closed_at(now));
        let closes = !self.closed_at(now);
        let ladder = "the ladder freezes now: no more ranked matches are played and ratings \
                      stay as they are";
        match (closes, freezes) {
            (false, false) => None,
            (true, false) => Some(format!(
                "The deadline {} is already past: saving it closes submissions at once \
                 (new bots and versions are refused); the ladder plays on.",
                format_deadline(d)
            )),
            (true, true) => Some(format!(
                "The deadline {} is already past: saving it closes submissions at once \
                 (new bots and versions are refused), and {ladder}.",
                format_deadline(d)
            )),
            (false, true) => Some(format!(
                "Submissions closed at {}: freezing the ladder at the deadline means \
                 {ladder}.",
                format_deadline(d)
            )),
        }
    }

    /// The deadline as an organizer types it (`2026-12-01 18:00`, UTC), or nothing.
    pub fn as_typed(&self) -> String {
        let f = time::macros::format_description!("[year]-[month]-[day] [hour]:[minute]");
        self.deadline
            .and_then(|d| d.to_offset(UtcOffset::UTC).format(&f).ok())
            .unwrap_or_default()
    }

    /// What an upload after the deadline is told.
    pub fn refusal(&self) -> String {
        match self.deadline {
            Some(d) => format!(
                "Submissions closed at {}: the contest no longer takes new bots or versions. \
                 The versions already uploaded play on.",
                format_deadline(d)
            ),
            None => "Submissions are open.".into(),
        }
    }
}

/// The phase as stored.
pub async fn load(db: impl sqlx::PgExecutor<'_>) -> sqlx::Result<Contest> {
    let row = sqlx::query!("select deadline, freeze_at_deadline, paused from ranker")
        .fetch_one(db)
        .await?;
    Ok(Contest {
        deadline: row.deadline,
        freeze: row.freeze_at_deadline,
        paused: row.paused,
    })
}

/// When submissions are closed now by the database's clock (every server and worker
/// agrees on it, whatever its own clock says): what a late submission is told.
pub async fn closed_now(db: impl sqlx::PgExecutor<'_>) -> sqlx::Result<Option<String>> {
    let row = sqlx::query!(
        r#"select deadline, freeze_at_deadline, coalesce(deadline <= now(), false) as "closed!"
           from ranker"#
    )
    .fetch_one(db)
    .await?;
    let contest = Contest {
        deadline: row.deadline,
        freeze: row.freeze_at_deadline,
        paused: false,
    };
    Ok(row.closed.then(|| contest.refusal()))
}

/// What choosing another version to play after the deadline is told.
pub const FIXED_AFTER_DEADLINE: &str = "After the deadline, what plays is fixed: each bot \
    keeps the version it had active then, and candidates can no longer be made active or \
    A/B tested.";

/// Sets (or, with `None`, removes) the deadline.
pub async fn set_deadline(db: &PgPool, deadline: Option<OffsetDateTime>) -> sqlx::Result<()> {
    sqlx::query!("update ranker set deadline = $1", deadline)
        .execute(db)
        .await?;
    Ok(())
}

/// Sets whether the ladder freezes at the deadline.
pub async fn set_freeze(db: &PgPool, freeze: bool) -> sqlx::Result<()> {
    sqlx::query!("update ranker set freeze_at_deadline = $1", freeze)
        .execute(db)
        .await?;
    Ok(())
}

/// A deadline as written by an organizer: RFC 3339 (`2026-12-01T18:00:00+01:00`), or
/// `YYYY-MM-DD HH:MM` (or with a `T`) in UTC; `none` (or nothing) removes it.
pub fn parse_deadline(text: &str) -> Result<Option<OffsetDateTime>, String> {
    let text = text.trim();
    if text.is_empty() || text.eq_ignore_ascii_case("none") {
        return Ok(None);
    }
    if let Ok(t) = OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339) {
        return Ok(Some(t));
    }
    let plain = text.trim_end_matches(" UTC").trim_end_matches('Z');
    // The date and the time, joined by a space or a `T`.
    let plain = match plain.split_at_checked(10) {
        Some((date, time)) if time.starts_with('T') => format!("{date} {}", &time[1..]),
        _ => plain.to_string(),
    };
    let minutes = time::macros::format_description!("[year]-[month]-[day] [hour]:[minute]");
    let seconds =
        time::macros::format_description!("[year]-[month]-[day] [hour]:[minute]:[second]");
    PrimitiveDateTime::parse(&plain, &minutes)
        .or_else(|_| PrimitiveDateTime::parse(&plain, &seconds))
        .map(|t| Some(t.assume_utc()))
        .map_err(|_| {
            // Echoed in a cookie across the redirect: a few words of it, as typed.
            let typed: String = text.chars().take(40).collect();
            format!(
                "`{typed}` is not a date and time: write it as 2026-12-01 18:00 (UTC) or \
                 2026-12-01T18:00:00+01:00, or `none` to remove the deadline."
            )
        })
}

/// A deadline in words, in UTC: "2026-12-01 18:00 UTC".
pub fn format_deadline(t: OffsetDateTime) -> String {
    let f = time::macros::format_description!("[year]-[month]-[day] [hour]:[minute] UTC");
    t.to_offset(UtcOffset::UTC).format(&f).unwrap_or_default()
}

/// How long until `deadline` from `now`, in words: "2 days 3 hours", "5 minutes 10
/// seconds"; the two largest units.
pub fn time_left(now: OffsetDateTime, deadline: OffsetDateTime) -> String {
    let secs = (deadline - now).whole_seconds().max(0);
    let units = [
        (86_400, "day"),
        (3600, "hour"),
        (60, "minute"),
        (1, "second"),
    ];
    let mut parts = Vec::new();
    let mut rest = secs;
    for (size, name) in units {
        let n = rest / size;
        rest %= size;
        if n > 0 || !parts.is_empty() {
            parts.push(format!("{n} {name}{}", if n == 1 { "" } else { "s" }));
        }
        if parts.len() == 2 {
            break;
        }
    }
    // "1 day 0 hours" reads better as "1 day".
    parts.retain(|p| !p.starts_with("0 "));
    if parts.is_empty() {
        "0 seconds".into()
    } else {
        parts.join(" ")
    }
}

/// The phase as the pages show it, read from the database at most every few seconds
/// (every page shows it; a change on another server shows within that time).
#[derive(Default)]
pub struct ContestCache {
    held: Mutex<Option<(Instant, Contest)>>,
}

/// How long a read phase is used before it is read again.
const CACHE_FOR: Duration = Duration::from_secs(3);

impl ContestCache {
    /// The phase, from the cache when fresh.
    pub async fn get(&self, db: &PgPool) -> sqlx::Result<Contest> {
        if let Some((at, c)) = *self.held.lock().expect("not poisoned") {
            if at.elapsed() < CACHE_FOR {
                return Ok(c);
            }
        }
        let c = load(db).await?;
        *self.held.lock().expect("not poisoned") = Some((Instant::now(), c));
        Ok(c)
    }

    /// Forgets the cached phase (after this server changed it).
    pub fn forget(&self) {
        *self.held.lock().expect("not poisoned") = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn deadlines_are_read_in_the_forms_the_help_gives() {
        let want = datetime!(2026-12-01 18:00 UTC);
        assert_eq!(parse_deadline("2026-12-01 18:00"), Ok(Some(want)));
        assert_eq!(parse_deadline("2026-12-01T18:00"), Ok(Some(want)));
        assert_eq!(parse_deadline("2026-12-01 18:00 UTC"), Ok(Some(want)));
        assert_eq!(parse_deadline("2026-12-01T19:00:00+01:00"), Ok(Some(want)));
        assert_eq!(parse_deadline("2026-12-01T18:00:00Z"), Ok(Some(want)));
        assert_eq!(parse_deadline(" none "), Ok(None));
        assert_eq!(parse_deadline(""), Ok(None));
        let e = parse_deadline("next friday").unwrap_err();
        assert!(e.contains("2026-12-01 18:00"), "{e}");
        assert!(parse_deadline("2026-13-01 18:00").is_err());
    }

    #[test]
    fn time_left_names_the_two_largest_units() {
        let now = datetime!(2026-12-01 00:00 UTC);
        let after = |s: i64| time_left(now, now + time::Duration::seconds(s));
        assert_eq!(after(2 * 86_400 + 3 * 3600 + 59), "2 days 3 hours");
        assert_eq!(after(86_400 + 30), "1 day");
        assert_eq!(after(5 * 60 + 10), "5 minutes 10 seconds");
        assert_eq!(after(1), "1 second");
        assert_eq!(after(-5), "0 seconds");
    }

    #[test]
    fn submissions_close_at_the_deadline_and_the_ladder_freezes_only_if_asked() {
        let d = datetime!(2026-12-01 18:00 UTC);
        let c = Contest {
            deadline: Some(d),
            freeze: false,
            paused: false,
        };
        assert!(!c.closed_at(d - time::Duration::seconds(1)));
        assert!(c.closed_at(d));
        assert!(!Contest::default().closed());
        assert!(c.refusal().contains("2026-12-01 18:00 UTC"));
    }

    #[test]
    fn only_a_change_that_closes_or_freezes_at_once_asks_first() {
        let now = datetime!(2026-12-01 18:00 UTC);
        let phase = |deadline, freeze| Contest {
            deadline,
            freeze,
            paused: false,
        };
        let past = Some(now - time::Duration::days(1));
        let future = Some(now + time::Duration::days(1));
        let open = phase(None, false);
        // A deadline ahead, or none, takes effect later or never.
        assert_eq!(open.at_once(&phase(future, true), now), None);
        assert_eq!(phase(past, true).at_once(&phase(None, true), now), None);
        // A past one closes submissions, and says whether the ladder stops.
        let closes = open.at_once(&phase(past, false), now).unwrap();
        assert!(closes.contains("2026-11-30 18:00 UTC"), "{closes}");
        assert!(closes.contains("the ladder plays on"), "{closes}");
        let freezes = open.at_once(&phase(past, true), now).unwrap();
        assert!(freezes.contains("the ladder freezes now"), "{freezes}");
        // Saved again as it is, nothing changes at once; freezing it later does.
        assert_eq!(phase(past, false).at_once(&phase(past, false), now), None);
        assert_eq!(phase(past, true).at_once(&phase(past, true), now), None);
        let later = phase(past, false).at_once(&phase(past, true), now).unwrap();
        assert!(later.contains("the ladder freezes now"), "{later}");
    }
}
