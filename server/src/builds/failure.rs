//! Why a version failed its test game, in words that lead with what happened (the
//! turn, how the bot ended, the line of its stderr that names the error, the reply
//! quoted) and then the likely fix; and a bot's stderr with the server's own paths
//! (where its build lives in the data folder) made relative to the bot's folder.

use std::path::Path;

use engine::PlayerReport;
use game_interface::problems::{Kind, Problem};

/// Why a version failed its test game: what happened, then the fix to try.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Smoke {
    pub what: String,
    pub fix: String,
}

impl Smoke {
    /// Both, as the contestant reads them.
    pub fn text(&self) -> String {
        format!("{} {}", self.what, self.fix)
    }

    /// Each part with the server's paths made the bot folder's.
    pub fn relative_to(self, root: &Path) -> Smoke {
        let rel =
            |s: String| String::from_utf8_lossy(&relative_paths(s.as_bytes(), root)).into_owned();
        Smoke {
            what: rel(self.what),
            fix: rel(self.fix),
        }
    }
}

/// What a contestant is told when version `me` (seat 0, whose problems the game
/// gave as `problems`) failed its test game against house bots; `None` when it
/// passed. `time_rule` is where the game's rules give the time a reply may take.
pub fn smoke_failure(me: &PlayerReport, problems: &[Problem], time_rule: &str) -> Option<Smoke> {
    let turn = problem_turn(problems);
    let at = turn.map_or(String::new(), |t| format!(" at turn {t}"));
    // The game's own reason when the game removed or forfeited the bot (an illegal
    // move where the rules forfeit one), else the engine's.
    let removed = (problems.iter()).find(|p| p.kind == Kind::Removed);
    let stderr: Vec<u8> = me
        .stderr
        .iter()
        .flat_map(|(_, b)| b.iter().copied())
        .collect();
    let stderr = String::from_utf8_lossy(&stderr);
    // The cause first, when the crash's reason leads with it (an exception and its
    // line, `engine::cause`): `SyntaxError: ..., at bot.py line 1. Its test game ...`.
    let cause = engine::cause::of_stderr(&stderr);
    let (cause, error) = match (&cause, &me.error) {
        (Some(c), Some(e)) => match e
            .strip_prefix(c.as_str())
            .and_then(|r| r.strip_prefix(" ("))
        {
            Some(rest) => (
                Some(c.clone()),
                Some(rest.strip_suffix(')').unwrap_or(rest).to_string()),
            ),
            None => (None, me.error.clone()),
        },
        _ => (None, me.error.clone()),
    };
    let lead = match (&error, removed, me.timeouts) {
        (Some(e), _, _) => format!("Its test game against a house bot ended for it{at}: {e}."),
        (None, Some(p), _) => format!(
            "Its test game against a house bot ended for it{at}: {}.",
            p.text.trim_end_matches('.')
        ),
        (None, None, n) if n > 0 => {
            format!("It sent no reply in time{at} of its test game against a house bot.")
        }
        _ => return None,
    };
    let said = telling_line(&stderr);
    let mut out = match &cause {
        Some(c) => format!("{c}. {lead}"),
        None => lead,
    };
    if let (None, Some(line)) = (&cause, &said) {
        out.push_str(&format!(" Its error output says: `{line}`."));
    }
    let fix = if me.error.is_none() && removed.is_some() {
        let rules = time_rule.split(' ').next().unwrap_or(time_rule);
        format!("The rules ({rules}) say which answers are legal: play the bot at home with `bottlebats play` (the kit's config) to see the move it makes there.")
    } else {
        // A bot that timed out or was removed later than its first turn replied before.
        let replied = turn.is_some_and(|t| t > 0);
        likely_fix(me, replied, said.is_some(), time_rule)
    };
    Some(Smoke { what: out, fix })
}

/// The first turn where seat 0 timed out or was removed.
fn problem_turn(problems: &[Problem]) -> Option<u32> {
    (problems.iter())
        .filter(|p| matches!(p.kind, Kind::Timeout | Kind::Removed))
        .map(|p| p.first_turn)
        .min()
}

/// The fix to try first, from what happened.
fn likely_fix(me: &PlayerReport, replied: bool, has_stderr: bool, time_rule: &str) -> String {
    let error = me.error.as_deref().unwrap_or_default();
    if error.contains("reply header") {
        "A reply starts with a header line, `N commands:` (or `? commands:` ended by `end`), then its commands; anything the bot prints for itself belongs on stderr.".into()
    } else if error.contains("exited") || error.contains("was killed") {
        if has_stderr {
            "Fix that error, and try the bot at home with `bottlebats play` (the kit's config) before uploading again.".into()
        } else {
            "Run it at home with `bottlebats play` (the kit's config) to see how it stops.".into()
        }
    } else if !replied {
        "If it runs, does it flush stdout after each reply (after its last command or `end` line)? Replies that stay in the bot's buffer never arrive.".into()
    } else {
        format!("Its replies must come within the time limit each turn ({time_rule}): make its slowest turn faster.")
    }
}

/// The line of `stderr` that names the error: the first that says `Error`,
/// `Exception`, `error:` or `panicked` (a Python traceback's last line, Java's first),
/// else its last line; at most 200 characters.
fn telling_line(stderr: &str) -> Option<String> {
    let lines: Vec<&str> = stderr
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let named = ["Error", "Exception", "error:", "panicked"];
    let line = lines
        .iter()
        .find(|l| named.iter().any(|n| l.contains(n)))
        .or(lines.last())?;
    let mut line: String = line.chars().take(200).collect();
    line = line.replace('`', "'");
    Some(line)
}

/// `bytes` with the bot's folder `root` written as a path relative to it: the data
/// folder's layout (`…/data/builds/v6/bot.py`) is the server's, not the owner's.
pub fn relative_paths(bytes: &[u8], root: &Path) -> Vec<u8> {
    let root = root.as_os_str().as_encoded_bytes();
    if root.len() < 2 || root[0] != b'/' {
        return bytes.to_vec();
    }
    let root = root.strip_suffix(b"/").unwrap_or(root);
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i..].starts_with(root) {
            i += root.len();
            if bytes.get(i) == Some(&b'/') {
                i += 1;
            } else {
                out.push(b'.');
            }
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_naming_the_error_is_picked() {
        let python = "  File \"broken.py\", line 3\n    def f(\n         ^\nSyntaxError: '(' was never closed\n";
        assert_eq!(
            telling_line(python).as_deref(),
            Some("SyntaxError: '(' was never closed")
        );
        let java = "Exception in thread \"main\" java.lang.NullPointerException\n\tat Bot.main(Bot.java:3)\n";
        assert!(telling_line(java)
            .unwrap()
            .starts_with("Exception in thread"));
        assert_eq!(
            telling_line("giving up now\n").as_deref(),
            Some("giving up now")
        );
        assert_eq!(telling_line("\n  \n"), None);
    }

    #[test]
    fn the_servers_paths_become_relative_to_the_bot() {
        let root = Path::new("/srv/bb/data/builds/v6");
        let said = b"File \"/srv/bb/data/builds/v6/broken.py\", line 3 in /srv/bb/data/builds/v6\n";
        assert_eq!(
            String::from_utf8(relative_paths(said, root)).unwrap(),
            "File \"broken.py\", line 3 in .\n"
        );
        assert_eq!(
            relative_paths(b"x /srv/bb y", Path::new(".")),
            b"x /srv/bb y"
        );
    }

    /// A bot the game forfeits for an illegal move neither crashed nor timed out: the
    /// engine saw nothing wrong, the game's reason is what fails it.
    #[test]
    fn a_bot_its_game_removes_fails_with_the_games_reason_first() {
        let me = PlayerReport::default();
        assert_eq!(smoke_failure(&me, &[], "§7"), None, "a clean game passes");
        let forfeit = Problem {
            kind: Kind::Removed,
            text: "column 9 is not on the board: the game is forfeit".into(),
            first_turn: 3,
            count: 1,
            turns: Vec::new(),
        };
        let said =
            (smoke_failure(&me, &[forfeit], "/docs/connectfour/rules.md §4").unwrap()).text();
        assert!(
            said.starts_with(
                "Its test game against a house bot ended for it at turn 3: column 9 is not on the board: the game is forfeit."
            ),
            "{said}"
        );
        assert!(
            said.contains("(/docs/connectfour/rules.md) say which answers are legal"),
            "{said}"
        );
    }
}
