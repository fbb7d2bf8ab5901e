//! Map errors (games/bottlebats/rules.md §2 "Map files"): every refused map names the line at
//! fault and the problem, for forts, roads, marches, section counts and headers.

use bottlebats::map::{Map, MapError};

/// Two forts, `a` (p) and `b` (q), 5 steps apart: the start of most maps below.
const FORTS: &str = "2 forts:\na 0 0 p 1\nb 3 4 q 1\n";

/// A map that must be refused: (case, text, line, words the reason must contain).
type Refused = (&'static str, String, usize, &'static str);

/// Checks that every case is refused with its line number and a reason that contains
/// its words, naming the case that is not.
fn assert_refused(cases: Vec<Refused>) {
    for (name, text, line, why) in cases {
        let err: MapError = match Map::parse(&text) {
            Ok(_) => panic!("case {name}: parsed\n{text}"),
            Err(e) => e,
        };
        assert_eq!(err.line, line, "case {name}: {err}");
        assert!(
            err.reason.contains(why),
            "case {name}: {:?} lacks {why:?}",
            err.reason
        );
        assert!(
            err.to_string().starts_with(&format!("line {line}: ")),
            "case {name}: {err}"
        );
    }
}

#[test]
fn fort_errors_name_the_line_and_the_problem() {
    assert_refused(vec![
        (
            "duplicate fort",
            "2 forts:\na 0 0 p 1\na 1 0 q 1\n0 roads:\n0 marches:\n".to_string(),
            3,
            "fort `a` is listed twice",
        ),
        (
            "fort line too short",
            "1 forts:\na 0 0 p\n0 roads:\n0 marches:\n".to_string(),
            2,
            "found 4 fields",
        ),
        (
            "comment after a fort",
            "1 forts:\na 0 0 p 1 # home\n0 roads:\n0 marches:\n".to_string(),
            2,
            "found 7 fields",
        ),
        (
            "fort line too long",
            "1 forts:\na 0 0 p 1 2\n0 roads:\n0 marches:\n".to_string(),
            2,
            "found 6 fields",
        ),
        (
            "bad x",
            "1 forts:\na 1.5 0 p 1\n0 roads:\n0 marches:\n".to_string(),
            2,
            "x coordinate `1.5` is not a valid number",
        ),
        (
            "bad y",
            "1 forts:\na 0 north p 1\n0 roads:\n0 marches:\n".to_string(),
            2,
            "y coordinate `north` is not a valid number",
        ),
        (
            "bad garrison",
            "1 forts:\na 0 0 p lots\n0 roads:\n0 marches:\n".to_string(),
            2,
            "garrison `lots` is not a valid number",
        ),
        (
            "negative garrison",
            "1 forts:\na 0 0 p -3\n0 roads:\n0 marches:\n".to_string(),
            2,
            "garrison `-3` is not a valid number",
        ),
        (
            "a garrison too large to add up safely",
            "1 forts:\na 0 0 p 2000000000000\n0 roads:\n0 marches:\n".to_string(),
            2,
            "garrison 2000000000000 is too large",
        ),
    ]);
}

#[test]
fn road_errors_name_the_line_and_the_problem() {
    assert_refused(vec![
        (
            "unknown fort in a road",
            format!("{FORTS}1 roads:\na x\n0 marches:\n"),
            5,
            "unknown fort `x`",
        ),
        (
            "unknown fort first in a road",
            format!("{FORTS}1 roads:\nx a\n0 marches:\n"),
            5,
            "unknown fort `x`",
        ),
        (
            "duplicate road",
            format!("{FORTS}2 roads:\na b\na b\n0 marches:\n"),
            6,
            "listed twice",
        ),
        (
            "duplicate road reversed",
            format!("{FORTS}2 roads:\na b\nb a\n0 marches:\n"),
            6,
            "listed twice",
        ),
        (
            "road to itself",
            format!("{FORTS}1 roads:\na a\n0 marches:\n"),
            5,
            "road from `a` to itself",
        ),
        (
            "zero-length road",
            "2 forts:\na 7 7 p 1\nb 7 7 q 1\n1 roads:\nb a\n0 marches:\n".to_string(),
            5,
            "length 0",
        ),
        (
            "road too long",
            "2 forts:\na 0 0 p 1\nb 4000000000 0 q 1\n1 roads:\na b\n0 marches:\n".to_string(),
            5,
            "too long",
        ),
        (
            "road across the whole coordinate range",
            format!(
                "2 forts:\na {} 0 p 1\nb {} 0 q 1\n1 roads:\na b\n0 marches:\n",
                i64::MIN,
                i64::MAX
            ),
            5,
            "too long",
        ),
    ]);
}

#[test]
fn march_errors_name_the_line_and_the_problem() {
    assert_refused(vec![
        (
            "march on a missing road",
            "3 forts:\na 0 0 p 9\nb 3 4 q 1\nc 9 9 p 1\n1 roads:\na b\n1 marches:\na c p 1 0\n"
                .to_string(),
            8,
            "not on a road",
        ),
        (
            "march by an unknown owner",
            format!("{FORTS}1 roads:\na b\n1 marches:\na b zed 1 0\n"),
            7,
            "unknown owner",
        ),
        (
            "march by neutral",
            format!("{FORTS}1 roads:\na b\n1 marches:\na b neutral 1 0\n"),
            7,
            "unknown owner",
        ),
        (
            "march from a fort of another owner",
            format!("{FORTS}1 roads:\na b\n1 marches:\nb a p 1 0\n"),
            7,
            "which `p` does not own",
        ),
        (
            "march from an unknown fort",
            format!("{FORTS}1 roads:\na b\n1 marches:\nx b p 1 0\n"),
            7,
            "unknown fort `x`",
        ),
        (
            "bad march size",
            format!("{FORTS}1 roads:\na b\n1 marches:\na b p many 0\n"),
            7,
            "march size `many` is not a valid number",
        ),
        (
            "negative march size",
            format!("{FORTS}1 roads:\na b\n1 marches:\na b p -1 0\n"),
            7,
            "march size `-1` is not a valid number",
        ),
        (
            "bad remaining steps",
            format!("{FORTS}1 roads:\na b\n1 marches:\na b p 1 x\n"),
            7,
            "remaining steps `x` is not a valid number",
        ),
        (
            "remaining steps beyond the road",
            format!("{FORTS}1 roads:\na b\n1 marches:\na b p 1 6\n"),
            7,
            "6 steps left on a road of length 5",
        ),
        (
            "march line too short",
            format!("{FORTS}1 roads:\na b\n1 marches:\na b p 1\n"),
            7,
            "found 4 fields",
        ),
        (
            "opposite map marches at the same point",
            format!("{FORTS}1 roads:\na b\n2 marches:\na b p 1 2\nb a q 1 3\n"),
            8,
            "the one on line 7 meet at the same point",
        ),
    ]);
}

#[test]
fn section_count_errors_name_the_line_and_the_problem() {
    assert_refused(vec![
        (
            "too few forts",
            "3 forts:\na 0 0 p 1\nb 3 4 q 1\n0 roads:\n0 marches:\n".to_string(),
            4,
            "promised 3 forts but only 2",
        ),
        (
            "too many forts",
            "1 forts:\na 0 0 p 1\nb 3 4 q 1\n0 roads:\n0 marches:\n".to_string(),
            3,
            "the header on line 1 promised only 1",
        ),
        (
            "too few roads",
            format!("{FORTS}2 roads:\na b\n0 marches:\n"),
            6,
            "promised 2 roads but only 1",
        ),
        (
            "too many roads",
            format!("{FORTS}0 roads:\na b\n0 marches:\n"),
            5,
            "the header on line 4 promised only 0",
        ),
        (
            "too few marches",
            format!("{FORTS}1 roads:\na b\n2 marches:\na b p 1 0\n"),
            7,
            "promised 2 marches but the file ends after 1",
        ),
        (
            "too many marches",
            format!("{FORTS}1 roads:\na b\n1 marches:\na b p 1 0\na b p 1 0\n"),
            8,
            "promised only 1 marches",
        ),
        (
            "open section without end",
            "? forts:\na 0 0 p 1\n0 roads:\n0 marches:\n".to_string(),
            3,
            "needs an `end` line",
        ),
        (
            "open section at the end without end",
            format!("{FORTS}0 roads:\n? marches:\n"),
            5,
            "no closing `end`",
        ),
    ]);
}

#[test]
fn header_errors_name_the_line_and_the_problem() {
    assert_refused(vec![
        ("empty file", String::new(), 0, "empty"),
        (
            "only comments",
            "# nothing\n\n# here\n".to_string(),
            3,
            "empty",
        ),
        (
            "missing marches section",
            format!("{FORTS}1 roads:\na b\n"),
            5,
            "where the marches section should start",
        ),
        (
            "missing roads section",
            FORTS.to_string(),
            3,
            "where the roads section should start",
        ),
        (
            "bad header",
            "forts:\na 0 0 p 1\n0 roads:\n0 marches:\n".to_string(),
            1,
            "expected the forts header",
        ),
        (
            "header count not a number",
            "two forts:\na 0 0 p 1\n0 roads:\n0 marches:\n".to_string(),
            1,
            "found `two forts:`",
        ),
    ]);
}
