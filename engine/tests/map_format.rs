//! The map text format of docs/rules.md §1–§2: lenient parsing (runs of spaces and
//! tabs, blank lines and `#` comments anywhere, `? WORD:` … `end` sections), exact
//! printing (parse → print → parse gives the same map, and the printed text is
//! canonical), every map error with its line number and a reason naming the problem, and
//! the maps of the 2016 contest.

use std::path::Path;

use engine::map::{Map, MapError};

/// The map every lenient spelling below must read as, printed canonically.
const CANONICAL: &str = "\
3 forts:
a 0 0 p 10
b 3 4 q 20
c -1 2 neutral 0
2 roads:
a b
c b
1 marches:
a b p 5 0
";

fn parse(text: &str) -> Map {
    Map::parse(text).unwrap_or_else(|e| panic!("does not parse: {e}\n{text}"))
}

// ---------------------------------------------------------------- lenient parsing

#[test]
fn spacing_blank_lines_comments_and_open_sections_do_not_change_the_map() {
    let cases = [
        ("canonical", CANONICAL.to_string()),
        (
            "runs of spaces and tabs",
            "3  forts:\na\t0 0   p 10\n  b 3\t\t4 q 20  \nc -1 2 neutral\t0\n2\troads:\na    b\nc b\n1 marches:\na b p 5\t 0\n"
                .to_string(),
        ),
        (
            "blank lines and comments anywhere",
            "# a map\n\n3 forts:\n# name x y owner garrison\na 0 0 p 10\n\nb 3 4 q 20\n   # indented comment\nc -1 2 neutral 0\n\n2 roads:\n#\na b\nc b\n\n1 marches:\n\na b p 5 0\n# the end\n\n"
                .to_string(),
        ),
        (
            "open sections closed by end",
            "? forts:\na 0 0 p 10\nb 3 4 q 20\n# still forts\nc -1 2 neutral 0\nend\n? roads:\na b\nc b\n  end  \n? marches:\na b p 5 0\nend\n"
                .to_string(),
        ),
        (
            "open and counted sections mixed",
            "3 forts:\na 0 0 p 10\nb 3 4 q 20\nc -1 2 neutral 0\n? roads:\na b\n\nc b\nend\n1 marches:\na b p 5 0\n".to_string(),
        ),
        ("windows line endings", CANONICAL.replace('\n', "\r\n")),
        ("no final newline", CANONICAL.trim_end().to_string()),
        (
            "a snapshot of the classic log",
            format!("# STEP: 0\n{CANONICAL}\n"),
        ),
    ];
    let expected = parse(CANONICAL);
    for (name, text) in cases {
        assert_eq!(parse(&text), expected, "case {name}");
        assert_eq!(parse(&text).to_text(), CANONICAL, "case {name}");
    }
}

#[test]
fn empty_sections_are_allowed() {
    let cases = [
        "1 forts:\na 0 0 p 1\n0 roads:\n0 marches:\n",
        "? forts:\na 0 0 p 1\nend\n? roads:\nend\n? marches:\nend\n",
        "0 forts:\n0 roads:\n0 marches:\n",
    ];
    for text in cases {
        let map = parse(text);
        assert_eq!(
            (map.roads.len(), map.marches.len()),
            (0, 0),
            "case {text:?}"
        );
    }
}

#[test]
fn a_map_is_read_into_forts_roads_and_marches() {
    let map = parse(CANONICAL);
    let forts: Vec<(&str, i64, i64, u64)> = map
        .forts
        .iter()
        .map(|f| (f.name.as_str(), f.x, f.y, f.garrison))
        .collect();
    assert_eq!(forts, [("a", 0, 0, 10), ("b", 3, 4, 20), ("c", -1, 2, 0)]);
    let roads: Vec<(usize, usize, u32)> =
        map.roads.iter().map(|r| (r.a.0, r.b.0, r.length)).collect();
    // c-b: dx 4, dy 2, sqrt(20) = 4.47 rounds up to 5.
    assert_eq!(roads, [(0, 1, 5), (2, 1, 5)]);
    assert_eq!(map.seats, ["p", "q"]);
    let m = &map.marches[0];
    assert_eq!(
        (
            m.origin.0,
            m.destination.0,
            m.owner.0,
            m.size,
            m.remaining_steps
        ),
        (0, 1, 0, 5, 0)
    );
}

// ---------------------------------------------------------------- exact printing

#[test]
fn printing_a_map_and_reading_it_back_gives_the_same_map() {
    let cases = [
        CANONICAL,
        "1 forts:\nsolo 5 5 neutral 0\n0 roads:\n0 marches:\n",
        "4 forts:\nw 0 0 x 1\nv 9 9 y 2\nu -5 -5 x 3\nt 100 0 neutral 77\n\
         3 roads:\nv w\nu w\nt u\n3 marches:\nw v x 1 12\nv w y 2 0\nu t x 0 50\n",
    ];
    for text in cases {
        let map = parse(text);
        let printed = map.to_text();
        assert_eq!(printed, text, "case {text:?}");
        assert_eq!(parse(&printed), map, "case {text:?}");
    }
}

#[test]
fn the_printed_text_is_canonical() {
    let messy = "\
# written by hand
?   forts:
  a\t0  0 p +10
b 3 4 q 020

c   -1 2 neutral 0
end
2 roads:
a   b
c\tb
? marches:
a b p 5 0
end
";
    assert_eq!(parse(messy).to_text(), CANONICAL);
}

// ---------------------------------------------------------------- errors

#[test]
fn map_errors_name_the_line_and_the_problem() {
    let forts = "2 forts:\na 0 0 p 1\nb 3 4 q 1\n";
    // (case, text, line, words the reason must contain)
    let cases: Vec<(&str, String, usize, &str)> = vec![
        (
            "opposite map marches at the same point",
            format!("{forts}1 roads:\na b\n2 marches:\na b p 1 2\nb a q 1 3\n"),
            8,
            "the one on line 7 meet at the same point",
        ),
        (
            "a garrison too large to add up safely",
            "1 forts:\na 0 0 p 2000000000000\n0 roads:\n0 marches:\n".to_string(),
            2,
            "garrison 2000000000000 is too large",
        ),
        // Roads.
        (
            "unknown fort in a road",
            format!("{forts}1 roads:\na x\n0 marches:\n"),
            5,
            "unknown fort `x`",
        ),
        (
            "unknown fort first in a road",
            format!("{forts}1 roads:\nx a\n0 marches:\n"),
            5,
            "unknown fort `x`",
        ),
        (
            "duplicate road",
            format!("{forts}2 roads:\na b\na b\n0 marches:\n"),
            6,
            "listed twice",
        ),
        (
            "duplicate road reversed",
            format!("{forts}2 roads:\na b\nb a\n0 marches:\n"),
            6,
            "listed twice",
        ),
        (
            "road to itself",
            format!("{forts}1 roads:\na a\n0 marches:\n"),
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
        // Forts.
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
        // Marches.
        (
            "march on a missing road",
            "3 forts:\na 0 0 p 9\nb 3 4 q 1\nc 9 9 p 1\n1 roads:\na b\n1 marches:\na c p 1 0\n"
                .to_string(),
            8,
            "not on a road",
        ),
        (
            "march by an unknown owner",
            format!("{forts}1 roads:\na b\n1 marches:\na b zed 1 0\n"),
            7,
            "unknown owner",
        ),
        (
            "march by neutral",
            format!("{forts}1 roads:\na b\n1 marches:\na b neutral 1 0\n"),
            7,
            "unknown owner",
        ),
        (
            "march from a fort of another owner",
            format!("{forts}1 roads:\na b\n1 marches:\nb a p 1 0\n"),
            7,
            "which `p` does not own",
        ),
        (
            "march from an unknown fort",
            format!("{forts}1 roads:\na b\n1 marches:\nx b p 1 0\n"),
            7,
            "unknown fort `x`",
        ),
        (
            "bad march size",
            format!("{forts}1 roads:\na b\n1 marches:\na b p many 0\n"),
            7,
            "march size `many` is not a valid number",
        ),
        (
            "negative march size",
            format!("{forts}1 roads:\na b\n1 marches:\na b p -1 0\n"),
            7,
            "march size `-1` is not a valid number",
        ),
        (
            "bad remaining steps",
            format!("{forts}1 roads:\na b\n1 marches:\na b p 1 x\n"),
            7,
            "remaining steps `x` is not a valid number",
        ),
        (
            "remaining steps beyond the road",
            format!("{forts}1 roads:\na b\n1 marches:\na b p 1 6\n"),
            7,
            "6 steps left on a road of length 5",
        ),
        (
            "march line too short",
            format!("{forts}1 roads:\na b\n1 marches:\na b p 1\n"),
            7,
            "found 4 fields",
        ),
        // Section counts.
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
            format!("{forts}2 roads:\na b\n0 marches:\n"),
            6,
            "promised 2 roads but only 1",
        ),
        (
            "too many roads",
            format!("{forts}0 roads:\na b\n0 marches:\n"),
            5,
            "the header on line 4 promised only 0",
        ),
        (
            "too few marches",
            format!("{forts}1 roads:\na b\n2 marches:\na b p 1 0\n"),
            7,
            "promised 2 marches but the file ends after 1",
        ),
        (
            "too many marches",
            format!("{forts}1 roads:\na b\n1 marches:\na b p 1 0\na b p 1 0\n"),
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
            format!("{forts}0 roads:\n? marches:\n"),
            5,
            "no closing `end`",
        ),
        // Headers and sections.
        ("empty file", String::new(), 0, "empty"),
        (
            "only comments",
            "# nothing\n\n# here\n".to_string(),
            3,
            "empty",
        ),
        (
            "missing marches section",
            format!("{forts}1 roads:\na b\n"),
            5,
            "where the marches section should start",
        ),
        (
            "missing roads section",
            forts.to_string(),
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
    ];
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

// ---------------------------------------------------------------- the 2016 maps

/// The maps of the 2016 contest; present on developer and CI machines, not in a clone.
fn maps_2016() -> Option<Vec<(String, String)>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/maps-2016");
    if !dir.is_dir() {
        println!(
            "skipping: {} is absent (it exists on developer and CI machines)",
            dir.display()
        );
        return None;
    }
    let mut maps: Vec<(String, String)> = std::fs::read_dir(&dir)
        .expect("the 2016 maps folder is readable")
        .map(|e| {
            let path = e.expect("a folder entry").path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
            (name, text)
        })
        .collect();
    maps.sort();
    Some(maps)
}

#[test]
fn every_2016_map_loads_and_prints_back_to_the_same_map() {
    let Some(maps) = maps_2016() else { return };
    assert!(!maps.is_empty(), "the 2016 maps folder is empty");
    for (name, text) in maps {
        let map = Map::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(!map.forts.is_empty(), "{name}");
        assert_eq!(parse(&map.to_text()), map, "{name}");
    }
}

#[test]
fn the_2016_maps_with_a_double_space_in_a_header_load() {
    let Some(maps) = maps_2016() else { return };
    let double: Vec<&str> = maps
        .iter()
        .filter(|(_, text)| text.lines().any(|l| l.ends_with(':') && l.contains("  ")))
        .map(|(name, _)| name.as_str())
        .collect();
    assert_eq!(double, ["johnson", "space_invader", "window"]);
    for (name, text) in &maps {
        if double.contains(&name.as_str()) {
            assert!(Map::parse(text).is_ok(), "{name}");
        }
    }
}
