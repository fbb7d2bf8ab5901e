//! How pages write what they show: times, and other small formats shared by areas.

use time::OffsetDateTime;

/// "2026-11-21 14:03 UTC"
pub fn when(t: OffsetDateTime) -> String {
    let f = time::macros::format_description!("[year]-[month]-[day] [hour]:[minute] UTC");
    t.to_offset(time::UtcOffset::UTC)
        .format(&f)
        .unwrap_or_default()
}
