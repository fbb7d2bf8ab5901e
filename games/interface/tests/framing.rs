//! The framing of replies: the header reading (the cases the engine's map and the
//! runner's replies hold `bottlebats::map::parse_header` to) and cutting output into
//! replies, with the runner's messages.

use game_interface::{is_ignored, parse_header, Count, Cutter, Framing};

#[test]
fn headers_read_as_the_engine_reads_them() {
    let table: &[(&str, Option<Count>)] = &[
        ("3 forts:", Some(Count::Exactly(3))),
        ("0 roads:", Some(Count::Exactly(0))),
        ("2 commands:", Some(Count::Exactly(2))),
        ("? forts:", Some(Count::UntilEnd)),
        ("? commands:", Some(Count::UntilEnd)),
        // Any run of spaces or tabs, as the 2016 maps with a double space.
        ("3  forts:", Some(Count::Exactly(3))),
        ("\t4\tcommands:  ", Some(Count::Exactly(4))),
        // The word is not checked.
        ("5 anything", Some(Count::Exactly(5))),
        ("+3 commands:", Some(Count::Exactly(3))),
        ("forts:", None),
        ("two forts:", None),
        ("many commands:", None),
        ("hello there friend", None),
        ("3 commands: extra", None),
        ("-1 commands:", None),
        ("1.5 commands:", None),
        ("?? commands:", None),
        ("3", None),
        ("?", None),
        ("", None),
        ("   ", None),
        ("99999999999999999999999999 commands:", None),
    ];
    for (line, want) in table {
        assert_eq!(parse_header(line), *want, "`{line}`");
    }
}

#[test]
fn blank_and_comment_lines_are_ignored() {
    for (line, ignored) in [
        ("", true),
        ("   \t", true),
        ("# a comment", true),
        ("  # indented", true),
        ("a b 3", false),
        ("end", false),
    ] {
        assert_eq!(is_ignored(line), ignored, "`{line}`");
    }
}

/// Feeds `lines` to a cutter: the replies it gave, and the error that stopped it.
fn cut(framing: Framing, max_lines: usize, lines: &[&str]) -> (Vec<Vec<String>>, Option<String>) {
    let mut cutter = Cutter::new(framing, max_lines);
    let mut replies = Vec::new();
    for line in lines {
        match cutter.push(line) {
            Ok(Some(reply)) => replies.push(reply),
            Ok(None) => {}
            Err(e) => return (replies, Some(e)),
        }
    }
    (replies, cutter.end())
}

fn owned(lines: &[&str]) -> Vec<String> {
    lines.iter().map(|l| l.to_string()).collect()
}

#[test]
fn counted_replies_are_cut_as_the_runner_cuts_them() {
    let (replies, end) = cut(
        Framing::Counted,
        10,
        &[
            "# thinking",
            "2 commands:",
            "a b 3",
            "",
            "b c 4",
            "0 commands:",
            "? commands:",
            "# skipped",
            "c d 1",
            "  end  ",
            "1 commands:",
            "end",
        ],
    );
    assert_eq!(
        replies,
        vec![
            owned(&["a b 3", "b c 4"]),
            vec![],
            owned(&["c d 1"]),
            owned(&["end"]),
        ]
    );
    assert_eq!(end, None, "the output ended between replies");
}

#[test]
fn counted_replies_fail_with_the_runners_messages() {
    let long = format!("{} commands:", "x".repeat(100));
    let cases: Vec<(Vec<&str>, usize, String)> = vec![
        (
            vec!["hello there friend"],
            10,
            "invalid reply header `hello there friend`: expected `COUNT WORD:` or `? WORD:`".into(),
        ),
        (
            vec!["many commands:"],
            10,
            "invalid reply header `many commands:`".into(),
        ),
        (
            vec![&long],
            10,
            format!("invalid reply header `{}…`", "x".repeat(80)),
        ),
        (
            vec!["11 commands:"],
            10,
            "promised 11 command lines; at most 10 are allowed".into(),
        ),
        (
            vec!["? commands:", "a", "b", "c"],
            2,
            "sent more than 2 command lines in one reply".into(),
        ),
        (
            vec!["3 commands:", "a b 1"],
            10,
            "output ended after 1 of the 3 command lines its header promised".into(),
        ),
        (
            vec!["? commands:", "a b 1", "b c 2"],
            10,
            "output ended after 2 command lines without `end`".into(),
        ),
    ];
    for (lines, max, want) in cases {
        let (_, err) = cut(Framing::Counted, max, &lines);
        let err = err.unwrap_or_default();
        assert!(
            err.starts_with(&want),
            "{lines:?}: `{err}`, expected `{want}`"
        );
    }
}

#[test]
fn a_line_framing_makes_every_line_a_reply() {
    let (replies, end) = cut(Framing::Line, 1, &["North", "", "# Stay", "3 commands:"]);
    assert_eq!(
        replies,
        vec![
            owned(&["North"]),
            owned(&[""]),
            owned(&["# Stay"]),
            owned(&["3 commands:"])
        ]
    );
    assert_eq!(end, None);
}
