//! How pages write what they show: times, and other small formats shared by areas.

use time::OffsetDateTime;

/// "2026-11-21 14:03 UTC"
pub fn when(t: OffsetDateTime) -> String {
    let f = time::macros::format_description!("[year]-[month]-[day] [hour]:[minute] UTC");
    t.to_offset(time::UtcOffset::UTC)
        .format(&f)
        .unwrap_or_default()
}

/// How long ago `t` was, roughly: "just now", "4 minutes ago", "3 hours ago", "2 days
/// ago".
pub fn ago(t: OffsetDateTime) -> String {
    let secs = (OffsetDateTime::now_utc() - t).whole_seconds().max(0);
    let (n, unit) = match secs {
        0..=59 => return "just now".into(),
        60..=3599 => (secs / 60, "minute"),
        3600..=86_399 => (secs / 3600, "hour"),
        _ => (secs / 86_400, "day"),
    };
    format!("{n} {unit}{} ago", if n == 1 { "" } else { "s" })
}

/// A span of time to come, roughly: "under a minute", "about 4 minutes", "about 2
/// hours".
pub fn about(d: &time::Duration) -> String {
    let mins = (d.as_seconds_f64() / 60.0).round() as i64;
    let (n, unit) = match mins {
        i64::MIN..=0 => return "under a minute".into(),
        1..=89 => (mins, "minute"),
        _ => ((mins as f64 / 60.0).round() as i64, "hour"),
    };
    format!("about {n} {unit}{}", if n == 1 { "" } else { "s" })
}

/// Two decimals, as the API gives ratings and durations.
pub fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// A message as HTML: escaped, with each `quoted` part (commands, file names, how our
/// messages quote code) drawn as code rather than with literal backticks. An odd last
/// backtick stays as it is.
pub fn code_spans(text: &str) -> String {
    let escape = |s: &str| {
        s.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('"', "&quot;")
            .replace('\'', "&#39;")
    };
    let parts: Vec<&str> = text.split('`').collect();
    let mut out = String::with_capacity(text.len() + 16);
    for (i, part) in parts.iter().enumerate() {
        let closed = i + 1 < parts.len() || i % 2 == 0;
        match (i % 2 == 1, closed) {
            (true, true) => {
                out.push_str("<code>");
                out.push_str(&escape(part));
                out.push_str("</code>");
            }
            (true, false) => {
                out.push('`');
                out.push_str(&escape(part));
            }
            (false, _) => out.push_str(&escape(part)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::code_spans;

    #[test]
    fn quoted_parts_become_code_and_the_rest_is_escaped() {
        assert_eq!(
            code_spans("ignored `a <b> 5`: there is no fort `a`"),
            "ignored <code>a &lt;b&gt; 5</code>: there is no fort <code>a</code>"
        );
        assert_eq!(code_spans("a `lone tick"), "a `lone tick");
        assert_eq!(code_spans("<script>"), "&lt;script&gt;");
    }
}
