//! Why a bot crashed, in one line, from what it wrote on stderr: the exception and
//! where in the bot's own code it was raised, for Python, Java, JavaScript (Node),
//! C++ and Rust, and a signal in words. A contestant learns why their bot lost from
//! this line: the runner puts it first in the reason a crashed bot is given, so the
//! replay's caption, the match page, the error board and `bottlebats play` lead with it.
//!
//! Pure: text in, text out. A bot's stderr is a stranger's text: lines are cut, and
//! only the end of it is read.

/// The most of a bot's stderr read for its cause, from its end.
pub const TAIL_BYTES: usize = 16 * 1024;
/// The most characters of a cause.
const MAX_CHARS: usize = 200;

/// The cause of a crash found in `stderr`, `IndexError: string index out of range, at
/// bot.py line 86`; `None` when it names no exception or panic.
pub fn of_stderr(stderr: &str) -> Option<String> {
    let start = stderr.len().saturating_sub(TAIL_BYTES);
    let start = (start..stderr.len())
        .find(|&i| stderr.is_char_boundary(i))
        .unwrap_or(stderr.len());
    let lines: Vec<&str> = stderr[start..].lines().collect();
    let (what, place) = rust(&lines)
        .or_else(|| java(&lines))
        .or_else(|| cpp(&lines))
        .or_else(|| node(&lines))
        .or_else(|| python(&lines))?;
    let what = cut(what.trim());
    Some(match place {
        Some((file, line)) => format!("{what}, at {file} line {line}"),
        None => what,
    })
}

/// A signal in words, for a bot killed by one: `segmentation fault (signal 11)`.
pub fn signal_words(signal: i32) -> String {
    let words = match signal {
        4 => "illegal instruction",
        6 => "aborted",
        7 => "bus error",
        8 => "arithmetic error, such as a division by zero",
        9 => "killed",
        11 => "segmentation fault",
        13 => "broken pipe",
        15 => "terminated",
        24 => "CPU time limit exceeded",
        25 => "file size limit exceeded",
        _ => return format!("signal {signal}"),
    };
    format!("{words} (signal {signal})")
}

fn cut(text: &str) -> String {
    match text.char_indices().nth(MAX_CHARS) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

/// A file's name without its folders: the bot's paths differ in the sandbox.
fn base(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// What a reading found: the exception's line and, when known, (file, line).
type Found = Option<(String, Option<(String, u32)>)>;

/// Python: the traceback's last line (`json.decoder.JSONDecodeError: Expecting value:
/// ...`, `KeyboardInterrupt`), at the deepest frame in the bot's own files (not the
/// standard library's).
fn python(lines: &[&str]) -> Found {
    let Some(tb) = lines
        .iter()
        .rposition(|l| l.starts_with("Traceback (most recent call last)"))
    else {
        return python_syntax(lines);
    };
    let rest = &lines[tb + 1..];
    let what = rest
        .iter()
        .rev()
        .find(|l| !l.starts_with(' ') && !l.trim().is_empty() && is_exception_line(l))?;
    let place = (rest.iter().rev())
        .filter_map(|l| python_frame(l))
        .find(|(f, _)| !python_library(f));
    let place = place.map(|(f, n)| (base(f).to_string(), n));
    Some((what.to_string(), place))
}

/// Python's refusal of a file it cannot compile: `  File "bot.py", line 3`, the line
/// and a caret, then `SyntaxError: message` (or `IndentationError`, `TabError`).
fn python_syntax(lines: &[&str]) -> Found {
    let i = lines.iter().rposition(|l| {
        ["SyntaxError", "IndentationError", "TabError"]
            .iter()
            .any(|e| l.starts_with(&format!("{e}:")))
    })?;
    let place = lines[..i]
        .iter()
        .rev()
        .take(4)
        .find_map(|l| python_frame(l));
    let place = place.map(|(f, n)| (base(f).to_string(), n));
    Some((lines[i].to_string(), place))
}

/// `NAME: message` or a bare `NAME` where NAME is a (dotted) identifier.
fn is_exception_line(line: &str) -> bool {
    let name = line.split(':').next().unwrap_or("");
    !name.is_empty()
        && !name.contains(' ')
        && name.split('.').all(|part| {
            part.chars()
                .next()
                .is_some_and(|c| c.is_alphabetic() || c == '_')
                && part.chars().all(|c| c.is_alphanumeric() || c == '_')
        })
}

/// `  File "/box/bot.py", line 86, in main` → (path, line).
fn python_frame(line: &str) -> Option<(&str, u32)> {
    let rest = line.trim_start().strip_prefix("File \"")?;
    let (file, rest) = rest.split_once('"')?;
    let n = rest.strip_prefix(", line ")?;
    let n: String = n.chars().take_while(char::is_ascii_digit).collect();
    Some((file, n.parse().ok()?))
}

fn python_library(file: &str) -> bool {
    file.starts_with('<')
        || file.contains("/lib/python")
        || file.contains("site-packages")
        || file.contains("dist-packages")
}

/// Java: `Exception in thread "main" java.lang.X: message` (or a `Caused by:`), at the
/// first frame outside the JDK.
fn java(lines: &[&str]) -> Found {
    let i = lines
        .iter()
        .position(|l| l.starts_with("Exception in thread "))?;
    let what = lines[i].split_once("\" ").map_or(lines[i], |(_, w)| w);
    let place = lines[i + 1..]
        .iter()
        .map(|l| l.trim())
        .take_while(|l| l.starts_with("at ") || l.starts_with("...") || l.starts_with("Caused by"))
        .filter_map(|l| {
            let frame = l.strip_prefix("at ")?;
            if ["java.", "javax.", "jdk.", "sun."]
                .iter()
                .any(|p| frame.starts_with(p))
            {
                return None;
            }
            let inside = frame.rsplit_once('(')?.1.strip_suffix(')')?;
            let (file, n) = inside.rsplit_once(':')?;
            Some((file.to_string(), n.parse().ok()?))
        })
        .next();
    Some((what.to_string(), place))
}

/// C++: an uncaught exception (`terminate called after throwing an instance of
/// 'std::out_of_range'` then `what():  message`).
fn cpp(lines: &[&str]) -> Found {
    let i = lines
        .iter()
        .rposition(|l| l.starts_with("terminate called after throwing an instance of "))?;
    let kind = lines[i]
        .trim_start_matches("terminate called after throwing an instance of ")
        .trim_matches('\'');
    let what = lines
        .get(i + 1)
        .and_then(|l| l.trim().strip_prefix("what():"))
        .map(str::trim);
    Some((
        match what {
            Some(w) => format!("{kind}: {w}"),
            None => kind.to_string(),
        },
        None,
    ))
}

/// JavaScript (Node): `TypeError: message` after the source line and its caret,
/// followed by its stack, at the first frame outside Node's own (`node:`).
fn node(lines: &[&str]) -> Found {
    let is_error = |l: &str| {
        !l.starts_with(' ')
            && is_exception_line(l)
            && l.split(':').next().is_some_and(|n| n.ends_with("Error"))
    };
    let i = (0..lines.len()).rev().find(|&i| {
        is_error(lines[i])
            && lines
                .get(i + 1)
                .is_some_and(|l| l.trim().starts_with("at "))
    })?;
    let place = lines[i + 1..]
        .iter()
        .map(|l| l.trim())
        .take_while(|l| l.starts_with("at "))
        .find_map(|f| {
            let inside = f
                .rsplit_once('(')
                .map_or(&f[3..], |(_, r)| r.trim_end_matches(')'));
            if inside.starts_with("node:") {
                return None;
            }
            let mut parts = inside.rsplitn(3, ':');
            let (_col, n, file) = (parts.next()?, parts.next()?, parts.next()?);
            Some((base(file).to_string(), n.parse().ok()?))
        });
    Some((lines[i].to_string(), place))
}

/// Rust: `thread 'main' panicked at src/main.rs:10:5:` then the message (since 1.73),
/// or `panicked at 'message', src/main.rs:10:5` before.
fn rust(lines: &[&str]) -> Found {
    let i = lines
        .iter()
        .rposition(|l| l.starts_with("thread '") && l.contains("' panicked at "))?;
    let at = lines[i].split_once("' panicked at ")?.1;
    let (message, place) = match at.strip_prefix('\'') {
        Some(old) => {
            let (msg, place) = old.rsplit_once("', ")?;
            (msg.to_string(), place)
        }
        None => (
            lines
                .get(i + 1)
                .map_or(String::new(), |l| l.trim().to_string()),
            at.trim_end_matches(':'),
        ),
    };
    let mut parts = place.rsplitn(3, ':');
    let (_col, n, file) = (parts.next(), parts.next(), parts.next());
    let place = match (file, n.and_then(|n| n.parse().ok())) {
        (Some(file), Some(n)) => Some((file.to_string(), n)),
        _ => None,
    };
    Some((format!("panicked: {message}"), place))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_tracebacks_give_the_exception_at_the_bots_own_line() {
        let cases = [
            (
                "Traceback (most recent call last):\n  File \"/box/bot.py\", line 90, in <module>\n    main()\n  File \"/box/bot.py\", line 86, in main\n    c = line[99]\n        ~~~~^^^^\nIndexError: string index out of range\n",
                "IndexError: string index out of range, at bot.py line 86",
            ),
            (
                "Traceback (most recent call last):\n  File \"/box/bot.py\", line 12, in <module>\n    state = json.loads(line)\n  File \"/usr/lib/python3.11/json/__init__.py\", line 346, in loads\n    return _default_decoder.decode(s)\n  File \"/usr/lib/python3.11/json/decoder.py\", line 355, in raw_decode\n    raise JSONDecodeError(\"Expecting value\", s, err.value) from None\njson.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)\n",
                "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0), at bot.py line 12",
            ),
            (
                "thinking...\nTraceback (most recent call last):\n  File \"bot.py\", line 3, in <module>\n    x = {}[\"a\"]\nKeyError: 'a'\n",
                "KeyError: 'a', at bot.py line 3",
            ),
            (
                "Traceback (most recent call last):\n  File \"/b/bot.py\", line 7, in <module>\n    sys.exit(main())\nSystemExit\n",
                "SystemExit, at bot.py line 7",
            ),
            (
                "  File \"/box/bot.py\", line 1\n    def f(\n         ^\nSyntaxError: '(' was never closed\n",
                "SyntaxError: '(' was never closed, at bot.py line 1",
            ),
        ];
        for (stderr, want) in cases {
            assert_eq!(of_stderr(stderr).as_deref(), Some(want), "{stderr}");
        }
    }

    #[test]
    fn java_exceptions_give_the_first_frame_of_the_bots_code() {
        let stderr = "Exception in thread \"main\" java.lang.ArrayIndexOutOfBoundsException: Index 5 out of bounds for length 5\n\tat java.base/java.util.Objects.checkIndex(Objects.java:385)\n\tat Bot.read(Bot.java:42)\n\tat Bot.main(Bot.java:12)\n";
        assert_eq!(
            of_stderr(stderr).as_deref(),
            Some("java.lang.ArrayIndexOutOfBoundsException: Index 5 out of bounds for length 5, at Bot.java line 42")
        );
        let npe = "Exception in thread \"main\" java.lang.NullPointerException\n\tat Bot.main(Bot.java:3)\n";
        assert_eq!(
            of_stderr(npe).as_deref(),
            Some("java.lang.NullPointerException, at Bot.java line 3")
        );
    }

    #[test]
    fn node_errors_give_the_first_frame_outside_node() {
        let stderr = "/box/bot.js:12\n    state.hero.pos.x;\n               ^\n\nTypeError: Cannot read properties of undefined (reading 'x')\n    at Interface.<anonymous> (/box/bot.js:12:16)\n    at Interface.emit (node:events:517:28)\n\nNode.js v20.20.2\n";
        assert_eq!(
            of_stderr(stderr).as_deref(),
            Some("TypeError: Cannot read properties of undefined (reading 'x'), at bot.js line 12")
        );
    }

    #[test]
    fn cpp_exceptions_and_signals_are_said_in_words() {
        let stderr = "terminate called after throwing an instance of 'std::out_of_range'\n  what():  vector::_M_range_check: __n (which is 7) >= this->size() (which is 3)\n";
        assert_eq!(
            of_stderr(stderr).as_deref(),
            Some("std::out_of_range: vector::_M_range_check: __n (which is 7) >= this->size() (which is 3)")
        );
        assert_eq!(signal_words(11), "segmentation fault (signal 11)");
        assert_eq!(
            signal_words(8),
            "arithmetic error, such as a division by zero (signal 8)"
        );
        assert_eq!(signal_words(64), "signal 64");
    }

    #[test]
    fn rust_panics_old_and_new() {
        let new = "thread 'main' panicked at src/main.rs:10:5:\nindex out of bounds: the len is 3 but the index is 5\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n";
        assert_eq!(
            of_stderr(new).as_deref(),
            Some("panicked: index out of bounds: the len is 3 but the index is 5, at src/main.rs line 10")
        );
        let old = "thread 'main' panicked at 'called `Option::unwrap()` on a `None` value', src/main.rs:7:22\n";
        assert_eq!(
            of_stderr(old).as_deref(),
            Some("panicked: called `Option::unwrap()` on a `None` value, at src/main.rs line 7")
        );
    }

    #[test]
    fn chatter_is_no_cause_and_a_flood_is_read_from_its_end() {
        assert_eq!(of_stderr("turn 3: thinking\nall good\n"), None);
        assert_eq!(of_stderr(""), None);
        let flood = "x".repeat(1 << 20)
            + "\nTraceback (most recent call last):\n  File \"bot.py\", line 1, in <module>\nValueError: bad\n";
        assert_eq!(
            of_stderr(&flood).as_deref(),
            Some("ValueError: bad, at bot.py line 1")
        );
        let long = format!(
            "Traceback (most recent call last):\nValueError: {}\n",
            "y".repeat(500)
        );
        assert!(of_stderr(&long).unwrap().chars().count() <= MAX_CHARS + 1);
    }
}
