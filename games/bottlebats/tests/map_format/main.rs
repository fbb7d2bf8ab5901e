//! The map text format of games/bottlebats/rules.md §1–§2: lenient parsing (runs of spaces and
//! tabs, blank lines and `#` comments anywhere, `? WORD:` … `end` sections), exact
//! printing (parse → print → parse gives the same map, and the printed text is
//! canonical), every map error with its line number and a reason naming the problem, and
//! the maps of the 2016 contest. The errors are in `errors`, by part of the file.

use std::path::Path;

use bottlebats::map::Map;

mod errors;

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

// ---------------------------------------------------------------- the 2016 maps

/// The maps of the 2016 contest; present on developer and CI machines, not in a clone.
fn maps_2016() -> Option<Vec<(String, String)>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/maps-2016");
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
