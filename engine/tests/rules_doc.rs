//! `docs/rules.md` against the engine: its example map and states are what the engine
//! prints, and its siege table is what the engine decides.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use engine::game::siege;
use engine::map::{Map, Owner, Seat};
use engine::Game;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn rules() -> String {
    std::fs::read_to_string(root().join("docs/rules.md")).expect("docs/rules.md exists")
}

/// The body of the first fenced block after the line `<!-- marker -->`.
fn block_after(doc: &str, marker: &str) -> String {
    let start = doc
        .find(&format!("<!-- {marker} -->"))
        .unwrap_or_else(|| panic!("docs/rules.md has no `<!-- {marker} -->`"));
    let mut lines = doc[start..].lines().skip(1);
    let fence = lines.next().unwrap_or_default();
    assert!(
        fence.starts_with("```") || fence.starts_with('|'),
        "`{marker}` is not followed by a code block or a table"
    );
    if fence.starts_with('|') {
        // A table: the header, then its rows up to the first line that is not one.
        let rows: Vec<&str> = std::iter::once(fence)
            .chain(lines.take_while(|l| l.starts_with('|')))
            .collect();
        return rows.join("\n") + "\n";
    }
    lines
        .take_while(|l| !l.starts_with("```"))
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn the_example_map_and_states_are_what_the_engine_prints() {
    let doc = rules();
    let map = Map::parse(&block_after(&doc, "example map")).expect("the example map parses");
    assert_eq!(map.seats, ["ann", "ben"]);
    let lengths: Vec<u32> = map.roads.iter().map(|r| r.length).collect();
    assert_eq!(lengths, [10, 5, 3], "the lengths §2 gives");
    let mut game = Game::new(Arc::new(map), &["ann".into(), "ben".into()], 500).unwrap();
    assert_eq!(
        game.state_for(Seat(0)),
        block_after(&doc, "state for ann, turn 0")
    );
    assert_eq!(
        game.state_for(Seat(1)),
        block_after(&doc, "state for ben, turn 0")
    );
    for _ in 0..3 {
        game.step(&[]);
    }
    assert_eq!(
        game.state_for(Seat(1)),
        block_after(&doc, "state for ben, turn 3")
    );
}

/// `neutral 6` or `p 11` as an owner (players p, q, r are seats 0, 1, 2) and a size.
fn army(text: &str) -> (Owner, u64) {
    let (who, size) = text
        .trim()
        .split_once(' ')
        .unwrap_or_else(|| panic!("not an army: `{text}`"));
    let owner = match who {
        "neutral" => Owner::Neutral,
        "p" => Owner::Seat(Seat(0)),
        "q" => Owner::Seat(Seat(1)),
        "r" => Owner::Seat(Seat(2)),
        _ => panic!("unknown owner `{who}`"),
    };
    (owner, size.parse().expect("a size"))
}

#[test]
fn the_siege_examples_are_what_the_engine_decides() {
    let table = block_after(&rules(), "siege examples");
    let rows: Vec<Vec<&str>> = table
        .lines()
        .skip(2)
        .map(|l| l.trim_matches('|').split('|').map(str::trim).collect())
        .collect();
    assert!(rows.len() >= 5, "the table has its examples");
    for row in rows {
        let [before, arriving, after, recruited] = row[..] else {
            panic!("a row of four cells: {row:?}");
        };
        let (owner, garrison) = army(before);
        // The garrison first, then the arrivals joining their owner's army.
        let mut armies = vec![(owner, garrison)];
        for (who, size) in arriving.split(',').map(army) {
            match armies.iter_mut().find(|a| a.0 == who) {
                Some(a) => a.1 += size,
                None => armies.push((who, size)),
            }
        }
        let decided = siege(owner, &mut armies);
        assert_eq!(decided, army(after), "siege of `{before}` by `{arriving}`");
        let grown = match decided.0 {
            Owner::Neutral => decided,
            Owner::Seat(_) => (decided.0, decided.1 + 1),
        };
        assert_eq!(
            grown,
            army(recruited),
            "recruitment after `{before}` by `{arriving}`"
        );
    }
}
