//! How pages write what they show: times, and other small formats shared by areas.

use time::OffsetDateTime;

/// "2026-11-21 14:03 UTC"
pub fn when(t: OffsetDateTime) -> String {
    let f = time::macros::format_description!("[year]-[month]-[day] [hour]:[minute] UTC");
    t.to_offset(time::UtcOffset::UTC)
        .format(&f)
        .unwrap_or_default()
}

/// Two decimals, as the API gives ratings and durations.
pub fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}
