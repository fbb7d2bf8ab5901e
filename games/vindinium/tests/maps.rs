//! games/vindinium/rules.md §2 (the map format, the six original maps) and §13 (the
//! generator).

use std::collections::{HashSet, VecDeque};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use vindinium::{
    generate, generate_with, Board, GenConfig, GenError, Map, MapError, Pos, Tile, MAX_SIZE,
    ORIGINAL_MAPS,
};

fn count(board: &Board, want: fn(Tile) -> bool) -> usize {
    board.tiles().iter().filter(|t| want(**t)).count()
}

#[test]
fn the_six_original_maps_parse() {
    // (name, size, mines, taverns, starts of heroes 1..4)
    let cases = [
        ("m1", 10, 4, 4, [(0, 1), (9, 1), (7, 7), (0, 8)]),
        ("m2", 12, 8, 4, [(3, 3), (8, 3), (8, 8), (3, 8)]),
        ("m3", 20, 14, 2, [(12, 0), (12, 2), (12, 17), (12, 19)]),
        ("m4", 18, 12, 4, [(2, 5), (15, 5), (15, 12), (2, 12)]),
        ("m5", 18, 20, 4, [(0, 6), (17, 6), (17, 11), (0, 11)]),
        ("m6", 16, 4, 4, [(4, 5), (11, 5), (11, 10), (4, 10)]),
    ];
    assert_eq!(ORIGINAL_MAPS.len(), cases.len());
    for (name, size, mines, taverns, starts) in cases {
        let map = Map::original(name).unwrap();
        assert_eq!(map.board.size(), size, "{name}");
        assert_eq!(map.board.count_mines(), mines, "{name}");
        assert_eq!(count(&map.board, |t| t == Tile::Tavern), taverns, "{name}");
        let got: Vec<(i32, i32)> = map.starts.iter().map(|p| (p.x, p.y)).collect();
        assert_eq!(got, starts, "{name}");
        for start in map.starts {
            assert_eq!(map.board.get(start), Some(Tile::Air), "{name}");
        }
        assert_eq!(
            Map::parse(&map.render()).unwrap(),
            map,
            "{name} prints back"
        );
    }
}

#[test]
fn m3_is_padded_as_the_original_loader_pads_it() {
    // Its leading blank lines are dropped, the blank lines inside kept, and the 15 rows
    // left are padded to 20 × 20 with blank rows at the bottom.
    let map = Map::original("m3").unwrap();
    let mut want = vec![
        "          ##############                ",
        "          ##  $-  $-  ##                ",
        "          ##  $-  $-  ##                ",
        "          ##  $-  $-  ##                ",
        "          ##  $-  $-  ##                ",
        "",
        "",
        "",
        "            []              []          ",
        "##########  ##################          ",
        "$-                    $-                ",
        "##########  ####  ############          ",
        "@1  @2                            @3  @4",
        "            ################            ",
        "$-  $-                            $-  $-",
    ];
    want.resize(20, "");
    let want: Vec<String> = want.iter().map(|r| format!("{r:<40}")).collect();
    let got: Vec<String> = map.render().lines().map(str::to_string).collect();
    assert_eq!(got, want);
}

#[test]
fn short_rows_and_missing_rows_are_padded_with_air() {
    let map = Map::parse("\n\n@1##\n$-\n\n@2@3@4  \n\n\n").unwrap();
    assert_eq!(map.board.size(), 4);
    assert_eq!(map.render(), "@1##    \n$-      \n        \n@2@3@4  ");
    let map = Map::parse("@1@2\r\n@3@4\r\n").unwrap();
    assert_eq!(map.board.size(), 2, "CR LF ends a line");
    let map = Map::parse("@1@2\x0c@3@4").unwrap();
    assert_eq!(map.board.size(), 2, "a form feed ends a line");
}

#[test]
fn a_dollar_with_a_non_digit_is_a_neutral_mine_and_the_last_start_counts() {
    let map = Map::parse("$x$ @1\n@2@3@4\n@1    ").unwrap();
    assert_eq!(map.board.get(Pos::new(0, 0)), Some(Tile::Mine(None)));
    assert_eq!(map.board.get(Pos::new(0, 1)), Some(Tile::Mine(None)));
    assert_eq!(map.board.get(Pos::new(0, 2)), Some(Tile::Air));
    assert_eq!(map.starts[0], Pos::new(2, 0));
}

#[test]
fn bad_maps_are_refused_with_a_reason() {
    let bad_tile = |row, column, text: &str| MapError::BadTile {
        row,
        column,
        text: text.to_string(),
    };
    let bad_hero = |row, column, text: &str| MapError::BadHero {
        row,
        column,
        text: text.to_string(),
    };
    let cases = [
        ("", MapError::Empty),
        ("\n\n", MapError::Empty),
        (
            "@1@2\n@3@4\n##",
            MapError::TooManyRows { rows: 3, width: 2 },
        ),
        ("@1@2#\n@3@4", bad_tile(0, 2, "#")),
        ("@1@2\n@3xx", bad_tile(1, 1, "xx")),
        ("@1@2\n@3 #", bad_tile(1, 1, " #")),
        ("@1@2\n@3@5", bad_hero(1, 1, "@5")),
        ("@1@2\n@3@0", bad_hero(1, 1, "@0")),
        ("@1@2\n@3@x", bad_hero(1, 1, "@x")),
        ("@1@2@3\n@4$7", bad_hero(1, 1, "$7")),
        ("@1@2\n@4  ", MapError::MissingHero(3)),
        (
            "@1@2\n@3é",
            MapError::NotAscii {
                row: 1,
                character: 'é',
            },
        ),
    ];
    for (text, error) in cases {
        assert_eq!(Map::parse(text), Err(error), "map {text:?}");
    }
    // 400 bytes on one line would be a board of 200 × 200 (rows are added, blank):
    // refused before any tile is made. 100 × 100 is the most there is.
    let line = format!("@1@2@3@4{}", "  ".repeat(196));
    assert_eq!(
        Map::parse(&line),
        Err(MapError::TooLarge {
            size: 200,
            line: 400
        })
    );
    let largest = format!("@1@2@3@4{}", "  ".repeat(96));
    assert_eq!(Map::parse(&largest).unwrap().board.size(), MAX_SIZE);
    assert!(matches!(
        Map::parse(&format!("{largest}  ")),
        Err(MapError::TooLarge { size: 101, .. })
    ));
    let message = Map::parse("@1@2\n@3xx").unwrap_err().to_string();
    assert_eq!(message, "row 1, tile 1: \"xx\" is not a tile");
}

/// Squares reachable from `from` over air.
fn reachable(board: &Board, from: Pos) -> HashSet<Pos> {
    let mut seen = HashSet::from([from]);
    let mut queue = VecDeque::from([from]);
    while let Some(p) = queue.pop_front() {
        for n in p.neighbors() {
            if board.get(n) == Some(Tile::Air) && seen.insert(n) {
                queue.push_back(n);
            }
        }
    }
    seen
}

/// Checks a generated map: symmetric, starts on the mirrors of the first, all open
/// squares reachable, four taverns, neutral mines each next to open ground.
fn check_generated(map: &Map, what: &str) {
    let b = &map.board;
    for p in b.positions() {
        assert_eq!(
            b.get(p),
            b.get(b.mirror_x(p)),
            "{what}: mirror across rows at {p:?}"
        );
        assert_eq!(
            b.get(p),
            b.get(b.mirror_y(p)),
            "{what}: mirror across columns at {p:?}"
        );
    }
    let s = map.starts[0];
    assert_eq!(
        map.starts,
        [s, b.mirror_x(s), b.mirror_xy(s), b.mirror_y(s)],
        "{what}"
    );
    let half = (b.size() / 2 - 2) as i32;
    assert!(s.x < half && s.y < half, "{what}: spawn {s:?}");
    let reach = reachable(b, s);
    for p in b.positions() {
        match b.get(p).unwrap() {
            Tile::Air => assert!(reach.contains(&p), "{what}: {p:?} is cut off"),
            Tile::Mine(owner) => {
                assert_eq!(owner, None, "{what}");
                assert!(
                    p.neighbors().iter().any(|n| reach.contains(n)),
                    "{what}: mine {p:?}"
                );
            }
            Tile::Tavern => {
                assert!(
                    p.neighbors().iter().any(|n| reach.contains(n)),
                    "{what}: tavern {p:?}"
                );
            }
            Tile::Wall => {}
        }
    }
    for start in map.starts {
        assert!(reach.contains(&start), "{what}: start {start:?}");
    }
    assert_eq!(count(b, |t| t == Tile::Tavern), 4, "{what}");
    assert!(b.count_mines() > 0, "{what}");
}

#[test]
fn generated_maps_are_symmetric_reachable_and_even_sized() {
    let mut sizes = HashSet::new();
    for seed in 0..300 {
        let map = generate(seed).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let size = map.board.size();
        assert!(
            (10..=28).contains(&size) && size % 2 == 0,
            "seed {seed}: size {size}"
        );
        sizes.insert(size);
        check_generated(&map, &format!("seed {seed}"));
    }
    assert_eq!(sizes.len(), 10, "every size 10, 12, ..., 28 comes up");
}

#[test]
fn generated_maps_depend_on_the_seed_only() {
    for seed in [0, 1, 7, 42, 1 << 40, u64::MAX] {
        assert_eq!(generate(seed), generate(seed), "seed {seed}");
    }
    let distinct: HashSet<String> = (0..50)
        .map(|seed| generate(seed).unwrap().render())
        .collect();
    assert_eq!(distinct.len(), 50);
}

#[test]
fn the_generator_takes_any_even_size_from_8() {
    for size in (8..=30).step_by(2) {
        let config = GenConfig {
            size,
            wall_percent: 30,
            mine_percent: 5,
        };
        let mut rng = ChaCha8Rng::seed_from_u64(size as u64);
        let map = generate_with(&config, &mut rng).unwrap();
        assert_eq!(map.board.size(), size);
        check_generated(&map, &format!("size {size}"));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let config = |size| GenConfig {
        size,
        wall_percent: 30,
        mine_percent: 5,
    };
    assert_eq!(
        generate_with(&config(6), &mut rng),
        Err(GenError::TooSmall(6))
    );
    assert_eq!(generate_with(&config(11), &mut rng), Err(GenError::Odd(11)));
    let no_mines = GenConfig {
        size: 10,
        wall_percent: 20,
        mine_percent: 0,
    };
    assert_eq!(
        generate_with(&no_mines, &mut rng),
        Err(GenError::GaveUp("board has no mine"))
    );
}
