//! The map generator and the map checks: planarity, connectivity, fairness,
//! determinism, the text round trip, bad options, and the maps shipped in `maps/`.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::OnceLock;

use bottlebats::generate::{
    check_layout, crossing_roads, generate, is_connected, road_through_fort, seat_rotation,
    GenerateError, GenerateOptions, LayoutError, HOME_GARRISON, MAX_FORTS,
};
use bottlebats::map::{FortId, Map, Owner, RoadId, Seat};

fn options(players: usize, seed: u64, forts: Option<usize>) -> GenerateOptions {
    GenerateOptions {
        players,
        seed,
        forts,
    }
}

/// A spread of generated maps, made once and shared by the tests.
fn samples() -> &'static [(GenerateOptions, Map)] {
    static SAMPLES: OnceLock<Vec<(GenerateOptions, Map)>> = OnceLock::new();
    SAMPLES.get_or_init(|| {
        let mut out = Vec::new();
        for players in [2, 3, 4, 5, 6, 8] {
            let counts = [
                None,
                Some(3 * players),
                Some(5 * players + 1),
                Some(10 * players),
            ];
            for (i, forts) in counts.into_iter().enumerate() {
                for seed in 0..3 {
                    let opts = options(players, seed * 1000 + i as u64, forts);
                    let map = generate(&opts).unwrap_or_else(|e| panic!("{opts:?}: {e}"));
                    out.push((opts, map));
                }
            }
        }
        out.push((
            options(2, 7, Some(MAX_FORTS)),
            generate(&options(2, 7, Some(MAX_FORTS))).unwrap(),
        ));
        out
    })
}

/// Checks independently of `seat_rotation` that `p` moves every seat's start to the next.
fn assert_rotation_is_fair(map: &Map, p: &[FortId], what: &str) {
    let n = map.seats.len();
    assert_eq!(p.len(), map.forts.len(), "{what}");
    assert_eq!(
        p.iter().collect::<BTreeSet<_>>().len(),
        p.len(),
        "{what}: not a permutation"
    );
    for (f, fort) in map.forts.iter().enumerate() {
        let image = &map.forts[p[f].0];
        let next = match fort.owner {
            Owner::Neutral => Owner::Neutral,
            Owner::Seat(s) => Owner::Seat(Seat((s.0 + 1) % n)),
        };
        assert_eq!(
            image.owner, next,
            "{what}: {} goes to {}",
            fort.name, image.name
        );
        assert_eq!(
            image.garrison, fort.garrison,
            "{what}: {} goes to {}",
            fort.name, image.name
        );
    }
    for road in &map.roads {
        let image = map.road_between(p[road.a.0], p[road.b.0]);
        let image = image.unwrap_or_else(|| panic!("{what}: a road has no image"));
        assert_eq!(
            map.roads[image.0].length, road.length,
            "{what}: road lengths differ"
        );
    }
}

#[test]
fn generated_maps_have_no_crossing_roads() {
    for (opts, map) in samples() {
        assert_eq!(crossing_roads(map), None, "{opts:?}");
        assert_eq!(road_through_fort(map), None, "{opts:?}");
    }
}

#[test]
fn generated_maps_are_connected() {
    for (opts, map) in samples() {
        assert!(is_connected(map), "{opts:?}");
    }
}

#[test]
fn every_seat_starts_equally_well_on_generated_maps() {
    for (opts, map) in samples() {
        let p = seat_rotation(map).unwrap_or_else(|| panic!("{opts:?}: no seat rotation"));
        assert_rotation_is_fair(map, &p, &format!("{opts:?}"));
        assert_eq!(check_layout(map), Ok(()), "{opts:?}");
    }
}

#[test]
fn generated_maps_have_the_requested_forts_seats_and_garrisons() {
    for (opts, map) in samples() {
        let n = opts.players;
        let want = opts.forts.unwrap_or(GenerateOptions::default_forts(n));
        assert_eq!(map.forts.len(), want, "{opts:?}");
        let seats: Vec<String> = (1..=n).map(|i| format!("p{i}")).collect();
        assert_eq!(map.seats, seats, "{opts:?}");
        assert!(map.marches.is_empty());
        for s in 0..n {
            let homes: Vec<_> = map
                .forts
                .iter()
                .filter(|f| f.owner == Owner::Seat(Seat(s)))
                .collect();
            assert_eq!(homes.len(), 1, "{opts:?}: seat {s}");
            assert_eq!(homes[0].garrison, HOME_GARRISON, "{opts:?}");
        }
        let neutral = map.forts.iter().filter(|f| f.owner == Owner::Neutral);
        assert!(neutral.clone().all(|f| f.garrison <= 40), "{opts:?}");
        assert!(
            neutral.clone().any(|f| f.garrison > 0),
            "{opts:?}: nothing to decide"
        );
        let names: BTreeSet<&str> = map.forts.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names.len(), map.forts.len(), "{opts:?}: fort names repeat");
        for f in &map.forts {
            assert!(
                f.name.len() >= 3 && f.name.chars().all(|c| c.is_ascii_lowercase()),
                "{}",
                f.name
            );
            assert!(
                f.x >= 0 && f.y >= 0,
                "{opts:?}: {} at {} {}",
                f.name,
                f.x,
                f.y
            );
        }
        let spots: BTreeSet<(i64, i64)> = map.forts.iter().map(|f| (f.x, f.y)).collect();
        assert_eq!(
            spots.len(),
            map.forts.len(),
            "{opts:?}: two forts on one spot"
        );
        assert!(
            map.roads.iter().all(|r| (1..=45).contains(&r.length)),
            "{opts:?}: road length"
        );
        assert!(
            map.roads.len() >= map.forts.len(),
            "{opts:?}: as sparse as a tree"
        );
    }
}

#[test]
fn typical_maps_have_short_roads_on_a_small_board() {
    for (opts, map) in samples().iter().filter(|(o, _)| o.forts.is_none()) {
        let longest = map.roads.iter().map(|r| r.length).max().unwrap();
        let size = map.forts.iter().map(|f| f.x.max(f.y)).max().unwrap();
        assert!(longest <= 25, "{opts:?}: a road of {longest}");
        assert!(size <= 75, "{opts:?}: the board reaches {size}");
        let median = {
            let mut l: Vec<u32> = map.roads.iter().map(|r| r.length).collect();
            l.sort_unstable();
            l[l.len() / 2]
        };
        assert!((5..=15).contains(&median), "{opts:?}: median road {median}");
    }
}

#[test]
fn the_same_seed_gives_the_same_map() {
    for (opts, map) in samples().iter().step_by(5) {
        assert_eq!(generate(opts).unwrap().to_text(), map.to_text(), "{opts:?}");
    }
}

#[test]
fn different_seeds_give_different_maps() {
    for players in [2, 3, 4, 6] {
        let texts: BTreeSet<String> = (0..5)
            .map(|seed| generate(&options(players, seed, None)).unwrap().to_text())
            .collect();
        assert_eq!(texts.len(), 5, "{players} players");
    }
}

#[test]
fn generated_map_text_round_trips_through_parse() {
    for (opts, map) in samples() {
        let text = map.to_text();
        let parsed = Map::parse(&text).unwrap_or_else(|e| panic!("{opts:?}: {e}"));
        assert_eq!(&parsed, map, "{opts:?}");
        assert_eq!(parsed.to_text(), text);
    }
}

#[test]
fn the_default_fort_count_is_seven_per_seat_and_a_centre() {
    assert_eq!(GenerateOptions::default_forts(2), 15);
    assert_eq!(GenerateOptions::default_forts(6), 43);
    assert_eq!(options(4, 1, None).fort_count(), Ok(29));
}

#[test]
fn bad_options_are_refused_with_clear_errors() {
    let err = |players, forts| generate(&options(players, 1, forts)).unwrap_err();
    assert_eq!(err(1, None), GenerateError::Players(1));
    assert_eq!(err(9, None), GenerateError::Players(9));
    assert_eq!(err(0, Some(10)), GenerateError::Players(0));
    assert_eq!(
        err(4, Some(11)),
        GenerateError::TooFewForts {
            forts: 11,
            players: 4,
            min: 12
        }
    );
    assert_eq!(
        err(2, Some(201)),
        GenerateError::TooManyForts { forts: 201 }
    );
    let uneven = err(3, Some(20));
    assert_eq!(
        uneven,
        GenerateError::Uneven {
            forts: 20,
            players: 3,
            below: 19,
            above: 21
        }
    );
    let message = uneven.to_string();
    assert!(
        message.contains("20 forts") && message.contains("19 or 21"),
        "{message}"
    );
    let near_cap = err(3, Some(200));
    assert_eq!(
        near_cap,
        GenerateError::Uneven {
            forts: 200,
            players: 3,
            below: 198,
            above: 199
        }
    );
    assert!(err(1, None).to_string().contains("2 to 8 players"));
    assert!(err(2, Some(201)).to_string().contains("at most 200"));
    // The edges of the allowed ranges do work.
    assert!(generate(&options(4, 1, Some(12))).is_ok());
    assert!(generate(&options(4, 1, Some(13))).is_ok());
    assert!(generate(&options(8, 1, Some(24))).is_ok());
}

fn map(text: &str) -> Map {
    Map::parse(text).unwrap()
}

#[test]
fn crossing_roads_finds_crossings_touches_and_overlaps() {
    let square = "4 forts:\na 0 0 p1 1\nb 10 0 neutral 0\nc 10 10 p2 1\nd 0 10 neutral 0\n";
    let ring = map(&format!(
        "{square}4 roads:\na b\nb c\nc d\nd a\n0 marches:\n"
    ));
    assert_eq!(
        crossing_roads(&ring),
        None,
        "roads meeting at shared forts are fine"
    );
    let cross = map(&format!("{square}2 roads:\na c\nb d\n0 marches:\n"));
    assert_eq!(crossing_roads(&cross), Some((RoadId(0), RoadId(1))));
    // e stands on the middle of a-b: a road ending there touches a-b.
    let touch =
        "5 forts:\na 0 0 p1 1\nb 10 0 p2 1\nc 5 5 neutral 0\nd 5 9 neutral 0\ne 5 0 neutral 0\n";
    let t = map(&format!("{touch}3 roads:\na b\nc d\ne c\n0 marches:\n"));
    assert_eq!(crossing_roads(&t), Some((RoadId(0), RoadId(2))));
    assert_eq!(road_through_fort(&t), Some((RoadId(0), FortId(4))));
    // Two roads from a along the same line overlap.
    let line = "3 forts:\na 0 0 p1 1\nb 4 0 neutral 0\nc 8 0 p2 1\n";
    let overlap = map(&format!("{line}2 roads:\na b\na c\n0 marches:\n"));
    assert_eq!(crossing_roads(&overlap), Some((RoadId(0), RoadId(1))));
    assert_eq!(road_through_fort(&overlap), Some((RoadId(1), FortId(1))));
    // Collinear but apart, and end to end through a shared fort: fine.
    let apart = "4 forts:\na 0 0 p1 1\nb 4 0 neutral 0\nc 5 0 neutral 0\nd 9 0 p2 1\n";
    let ok = map(&format!("{apart}3 roads:\na b\nc d\nb c\n0 marches:\n"));
    assert_eq!(crossing_roads(&ok), None);
    assert_eq!(road_through_fort(&ok), None);
    assert_eq!(check_layout(&ok), Ok(()));
    // Collinear and overlapping without a shared fort.
    let slide = map(&format!("{apart}2 roads:\na c\nb d\n0 marches:\n"));
    assert_eq!(crossing_roads(&slide), Some((RoadId(0), RoadId(1))));
    assert!(matches!(
        check_layout(&slide),
        Err(LayoutError::ThroughFort { .. })
    ));
}

#[test]
fn is_connected_notices_a_fort_without_a_way_in() {
    let forts = "3 forts:\na 0 0 p1 1\nb 4 0 neutral 0\nc 8 8 p2 1\n";
    assert!(!is_connected(&map(&format!(
        "{forts}1 roads:\na b\n0 marches:\n"
    ))));
    assert!(is_connected(&map(&format!(
        "{forts}2 roads:\na b\nc b\n0 marches:\n"
    ))));
    let err = check_layout(&map(&format!("{forts}1 roads:\na b\n0 marches:\n"))).unwrap_err();
    assert_eq!(
        err.to_string(),
        "fort `c` cannot be reached by road from fort `a`"
    );
}

#[test]
fn seat_rotation_rejects_maps_that_favour_a_seat() {
    let (_, base) = samples()
        .iter()
        .find(|(o, _)| o.players == 3 && o.forts.is_none())
        .unwrap();
    assert!(seat_rotation(base).is_some());
    // The last fort is in a neutral orbit (not the centre, which every turn keeps in place).
    let neutral = base.forts.len() - 1;
    assert_eq!(base.forts[neutral].owner, Owner::Neutral);

    let mut richer = base.clone();
    richer.forts[neutral].garrison += 1;
    assert_eq!(seat_rotation(&richer), None, "one neutral garrison changed");
    assert_eq!(check_layout(&richer), Err(LayoutError::Unfair));

    let mut home = base.clone();
    home.forts[0].garrison += 1;
    assert_eq!(seat_rotation(&home), None, "one home garrison changed");

    let mut longer = base.clone();
    longer.roads[0].length += 1;
    assert_eq!(seat_rotation(&longer), None, "one road longer");

    let mut fewer = base.clone();
    fewer.roads.remove(0);
    assert_eq!(seat_rotation(&fewer), None, "one road missing");

    let mut swapped = base.clone();
    swapped.forts.swap(0, 1);
    (swapped.forts[0].owner, swapped.forts[1].owner) = (Owner::Seat(Seat(0)), Owner::Seat(Seat(1)));
    for r in &mut swapped.roads {
        for end in [&mut r.a, &mut r.b] {
            *end = FortId(match end.0 {
                0 => 1,
                1 => 0,
                x => x,
            });
        }
    }
    assert!(
        seat_rotation(&swapped).is_some(),
        "seats that trade places still start equally"
    );

    let mut marching = base.clone();
    let road = base
        .roads
        .iter()
        .find(|r| r.a == FortId(0) || r.b == FortId(0))
        .unwrap();
    marching.marches.push(bottlebats::map::MapMarch {
        origin: FortId(0),
        destination: road.other(FortId(0)),
        owner: Seat(0),
        size: 5,
        remaining_steps: 0,
    });
    assert_eq!(seat_rotation(&marching), None, "only seat 1 has a march");
}

#[test]
fn seat_rotation_accepts_a_mirrored_two_seat_map() {
    // Mirror image (not a rotation) of each other across x = 10.
    let text = "5 forts:\na 0 0 p1 100\nb 20 0 p2 100\nm 10 3 neutral 5\nn 5 9 neutral 7\no 15 9 neutral 7\n\
                6 roads:\na m\nb m\na n\nb o\nn m\no m\n0 marches:\n";
    let m = map(text);
    let p = seat_rotation(&m).expect("a mirror symmetry is fair");
    assert_rotation_is_fair(&m, &p, "mirror");
}

fn maps_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../maps/bottlebats")
}

/// `--players 2 --seed 7 --forts 24` from the first line of a shipped map.
fn recipe(text: &str) -> Option<GenerateOptions> {
    let line = text
        .lines()
        .next()?
        .strip_prefix("# bottlebats map generate ")?;
    let words: Vec<&str> = line.split_whitespace().collect();
    let value = |flag: &str| -> Option<u64> {
        words
            .get(words.iter().position(|w| *w == flag)? + 1)?
            .parse()
            .ok()
    };
    Some(GenerateOptions {
        players: value("--players")? as usize,
        seed: value("--seed")?,
        forts: value("--forts").map(|f| f as usize),
    })
}

#[test]
fn shipped_maps_are_planar_connected_fair_and_reproducible() {
    let mut seats = Vec::new();
    let mut sizes = Vec::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir(maps_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "map"))
        .collect();
    files.sort();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let m = Map::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(check_layout(&m), Ok(()), "{}", path.display());
        let p = seat_rotation(&m).unwrap();
        assert_rotation_is_fair(&m, &p, &path.display().to_string());
        let opts = recipe(&text)
            .unwrap_or_else(|| panic!("{}: no `# bottlebats map generate` line", path.display()));
        let again = generate(&opts).unwrap();
        assert_eq!(
            again.to_text(),
            m.to_text(),
            "{}: the generator no longer makes this map from its first line; regenerate the shipped maps",
            path.display()
        );
        seats.push(m.seats.len());
        sizes.push((m.seats.len(), m.forts.len()));
    }
    assert!(files.len() >= 10, "{} maps shipped", files.len());
    for n in [2, 3, 4, 6] {
        assert!(
            seats.iter().filter(|&&s| s == n).count() >= 2,
            "fewer than two {n}-seat maps"
        );
    }
    assert!(sizes.contains(&(2, 24)), "no 2-seat map with 24 forts");
    assert!(
        sizes.iter().any(|&(_, f)| (60..=100).contains(&f)),
        "no large map"
    );
}
