//! `games/bottlebats/rules.md` against the engine and the repository: its example map
//! and states are what the engine prints, its siege table is what the engine decides,
//! and every citation of it anywhere in the repository (`games/bottlebats/rules.md §N`,
//! the site's `/docs/rules.md §N`, a bare `§N`, a link to one of its headings) names a
//! section it has.
//!
//! Outside another game's folder, a bare `§` is kept for the sections of
//! `games/bottlebats/rules.md`; a line that names another game's rules
//! (`games/vindinium/rules.md §4`, the site's `/docs/vindinium-rules.md`) cites those.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use bottlebats::game::siege;
use bottlebats::map::{Map, Owner, Seat};
use bottlebats::Game;

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// This game's rules, from the repository's root.
const OURS: &str = "games/bottlebats/rules.md";

fn rules() -> String {
    std::fs::read_to_string(root().join(OURS)).expect("games/bottlebats/rules.md exists")
}

/// Whether the rules document named right after `before` is this game's: its path in
/// the repository, or its address on the site (`/docs/bottlebats/rules.md`, and the
/// first one, `/docs/rules.md`). Another game's is `games/NAME/rules.md`,
/// `/docs/NAME/rules.md` or `/docs/NAME-rules.md`; every game's file name alone is
/// none; `None` names no game.
fn ours(before: &str) -> Option<bool> {
    // A folder of one game: another game's, or a placeholder (`games/NAME/`).
    let one_folder = |root: &str| {
        before.rsplit_once(root).is_some_and(|(_, rest)| {
            rest.strip_suffix('/')
                .is_some_and(|name| !name.is_empty() && !name.contains('/'))
        })
    };
    if before.ends_with("games/bottlebats/")
        || before.ends_with("/docs/bottlebats/")
        || before.ends_with("/docs/")
    {
        Some(true)
    } else if before.ends_with('-')
        || one_folder("games/")
        || one_folder("/docs/")
        // Every game's file name, in code (`join("rules.md")`) or named alone.
        || before.ends_with('"')
        || before.ends_with('`')
    {
        Some(false)
    } else {
        None
    }
}

/// The body of the first fenced block after the line `<!-- marker -->`.
fn block_after(doc: &str, marker: &str) -> String {
    let start = doc
        .find(&format!("<!-- {marker} -->"))
        .unwrap_or_else(|| panic!("games/bottlebats/rules.md has no `<!-- {marker} -->`"));
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

/// GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The numbers of the `## N. Title` sections and the anchors of every heading.
fn sections_and_anchors(doc: &str) -> (Vec<u32>, Vec<String>) {
    let mut sections = Vec::new();
    let mut anchors = Vec::new();
    let mut fenced = false;
    for line in doc.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
        }
        if fenced || !line.starts_with('#') {
            continue;
        }
        let title = line.trim_start_matches('#');
        anchors.push(slug(title));
        if let Some(rest) = line.strip_prefix("## ") {
            if let Some((n, _)) = rest.split_once(". ") {
                sections.push(n.parse().expect("a section number"));
            }
        }
    }
    (sections, anchors)
}

/// Every text file of the repository, but build output and version control.
fn repository_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            if !matches!(name.as_ref(), ".git" | "target" | "data" | "node_modules") {
                repository_files(&path, out);
            }
        } else if kind.is_file() {
            out.push(path);
        }
    }
}

/// The file name looked for (spelt so that this file does not cite it bare).
const RULES: &str = concat!("rules", ".md");

/// The numbers cited as `§N` in a line.
fn cited_sections(line: &str) -> Vec<u32> {
    line.split('§')
        .skip(1)
        .filter_map(|rest| {
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            digits.parse().ok()
        })
        .collect()
}

#[test]
fn every_citation_of_the_rules_names_a_section_they_have() {
    let (sections, anchors) = sections_and_anchors(&rules());
    assert_eq!(
        sections,
        (1..=sections.len() as u32).collect::<Vec<_>>(),
        "sections are numbered 1, 2, 3, … in order"
    );
    let mut files = Vec::new();
    repository_files(&root(), &mut files);
    let mut checked = 0;
    let mut wrong = Vec::new();
    for path in files {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue; // not text
        };
        let shown = path
            .strip_prefix(root())
            .unwrap_or(&path)
            .display()
            .to_string();
        // Another game's folder cites that game's rules.
        if shown.starts_with("games/") && !shown.starts_with("games/bottlebats/") {
            continue;
        }
        let in_rules = shown == OURS;
        for (i, line) in text.lines().enumerate() {
            let at = format!("{shown}:{}", i + 1);
            let named: Vec<(usize, Option<bool>)> = line
                .match_indices(RULES)
                .map(|(pos, _)| (pos, ours(&line[..pos])))
                .collect();
            let others = named.iter().any(|(_, o)| *o == Some(false));
            for n in cited_sections(line).into_iter().filter(|_| !others) {
                checked += 1;
                if !sections.contains(&n) {
                    wrong.push(format!("{at}: §{n} is not a section of {OURS}"));
                }
            }
            for (pos, which) in named {
                match which {
                    Some(false) => continue,
                    Some(true) => {}
                    // A bare file name is no citation; one with a section or a
                    // heading must say whose rules.
                    None if cited_sections(line).is_empty()
                        && !line[pos + RULES.len()..].starts_with('#') =>
                    {
                        continue
                    }
                    None => wrong.push(format!("{at}: cite the rules as `{OURS}`")),
                }
                if let Some(anchor) = line[pos + RULES.len()..].strip_prefix('#') {
                    let anchor: String = anchor
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '-' || *c == '_')
                        .collect();
                    checked += 1;
                    if !anchors.contains(&anchor) {
                        wrong.push(format!("{at}: {OURS} has no heading `#{anchor}`"));
                    }
                }
            }
            if in_rules {
                for (pos, _) in line.match_indices("](#") {
                    let anchor: String =
                        line[pos + 3..].chars().take_while(|c| *c != ')').collect();
                    checked += 1;
                    if !anchors.contains(&anchor) {
                        wrong.push(format!("{at}: no heading `#{anchor}`"));
                    }
                }
            }
        }
    }
    assert!(checked > 20, "the citations were found ({checked} checked)");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
