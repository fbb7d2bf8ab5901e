//! The games the reference arbiter test plays: the map files, small inline maps that
//! try the corners of the rules, and the bots of each game.

use std::path::{Path, PathBuf};

/// Three seats, roads of length 1 to 4, map marches (one with 0 = the whole road), a
/// neutral fort without roads (never logged).
const TRIANGLE: &str = "\
# three seats around a neutral centre
7 forts:
a 0 0 red 30
b 4 0 green 30
c 2 3 blue 30
d 2 1 neutral 5
e 5 0 neutral 3
g 0 1 neutral 2
far 9 9 neutral 7
8 roads:
a b
a c
b c
a d
b d
c d
b e
a g
4 marches:
a b red 10 3
b a green 7 0
c d blue 5 1
c a blue 4 2
";

/// Four seats on a line of roads of length 1, 2, 5, 3, 4; a seat whose only fort has no
/// road (so its player is never defeated); `?` headers, tabs and double spaces.
const LINE: &str = "\
? forts:
lonely 50 50 hermit 9
w 0 0 p1 20
x  1 0 neutral 2
y\t3 0 p2 20
z 6 4 neutral 4
v 6 7 p3 20
u 10 7 p4 20
end
? roads:
w x
x y
y z
z v
v u
end
? marches:
w x p1 3 0
end
";

/// A dense 4x4 grid (roads of length 2, diagonals of length 3) with a player in each
/// corner: many battles, captures and eliminations.
fn grid() -> String {
    let mut forts = Vec::new();
    let owners = [
        ((0, 0), "nw"),
        ((3, 0), "ne"),
        ((0, 3), "sw"),
        ((3, 3), "se"),
    ];
    for i in 0..4 {
        for j in 0..4 {
            let owner = owners
                .iter()
                .find(|(p, _)| *p == (i, j))
                .map_or("neutral", |(_, o)| o);
            let garrison = if owner == "neutral" { (i + j) % 4 } else { 40 };
            forts.push(format!("g{i}{j} {} {} {owner} {garrison}", 2 * i, 2 * j));
        }
    }
    let mut roads = Vec::new();
    for i in 0..4 {
        for j in 0..4 {
            if i < 3 {
                roads.push(format!("g{i}{j} g{}{j}", i + 1));
            }
            if j < 3 {
                roads.push(format!("g{i}{j} g{i}{}", j + 1));
            }
            if i < 3 && j < 3 && (i + j) % 2 == 0 {
                roads.push(format!("g{i}{j} g{}{}", i + 1, j + 1));
            }
        }
    }
    format!(
        "{} forts:\n{}\n{} roads:\n{}\n2 marches:\ng00 g10 nw 5 0\ng33 g23 se 6 1\n",
        forts.len(),
        forts.join("\n"),
        roads.len(),
        roads.join("\n")
    )
}

/// Two seats joined by a road of length 1 and a long road of odd length: marches sent
/// the same turn meet at half steps.
const DUEL: &str = "\
4 forts:
left 0 0 l 25
right 1 0 r 25
top 0 7 neutral 1
bottom 1 -6 neutral 0
4 roads:
left right
left top
right top
right bottom
1 marches:
right bottom r 2 0
";

/// One game: a map, its bots and its length.
pub struct Game {
    pub name: String,
    pub map: String,
    /// (player name, randombot arguments before the name)
    pub players: Vec<(String, String)>,
    pub max_steps: u32,
}

/// The seats of a map (distinct non-neutral fort owners in order), from our parser.
fn seats(name: &str, map: &str) -> Vec<String> {
    bottlebats::map::Map::parse(map)
        .unwrap_or_else(|e| panic!("map {name} does not parse: {e}"))
        .seats
}

/// `n` bots with names that are not seats, so they bind in listed order; the second
/// one commits `fault` (`KIND@TURN`, see randombot.py) when given.
fn generic(n: usize, seed: u64, fault: Option<&str>) -> Vec<(String, String)> {
    let names = ["alice", "bob", "d'artagnan", "eve", "mallory"];
    (0..n)
        .map(|i| {
            let mut args = (seed * 10 + i as u64).to_string();
            if let (Some(f), 1) = (fault, i) {
                args = format!("{args} {f}");
            }
            (names[i].to_string(), args)
        })
        .collect()
}

/// Bots named after the map's seats, listed in reverse, so they bind by name.
fn by_name(seats: &[String], n: usize, seed: u64) -> Vec<(String, String)> {
    seats[..n]
        .iter()
        .rev()
        .enumerate()
        .map(|(i, s)| (s.clone(), (seed * 10 + i as u64).to_string()))
        .collect()
}

fn map_files(dir: &Path, ext: Option<&str>) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(entries) => entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file())
            .filter(|p| ext.is_none_or(|x| p.extension().is_some_and(|e| e == x)))
            .collect(),
        Err(_) => Vec::new(),
    };
    files.sort();
    files
}

/// Every game both arbiters play: two on each map file, six on each inline map.
pub fn games() -> Vec<Game> {
    let mut games = map_file_games(&map_files_to_play());
    games.extend(inline_games());
    games
}

/// The 2016 maps (when `../shared/maps-2016` is there), then ours in `maps/`, each
/// with its group.
fn map_files_to_play() -> Vec<(&'static str, PathBuf)> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let old = manifest.join("../../shared/maps-2016");
    let mut files = Vec::new();
    if old.is_dir() {
        files.extend(map_files(&old, None).into_iter().map(|p| ("2016", p)));
    } else {
        println!("skipping the 2016 maps: {} is absent", old.display());
    }
    let ours = manifest.join("../maps/bottlebats");
    let our_maps = map_files(&ours, Some("map"));
    if our_maps.is_empty() {
        println!("no *.map files in {}", ours.display());
    }
    files.extend(our_maps.into_iter().map(|p| ("maps", p)));
    files
}

/// Two games on each map file of two seats or more: two bots, then as many as it
/// seats (up to 4), one of which may commit a fatal protocol error.
fn map_file_games(files: &[(&str, PathBuf)]) -> Vec<Game> {
    let mut games = Vec::new();
    for (k, (group, path)) in files.iter().enumerate() {
        let map = std::fs::read_to_string(path).unwrap();
        let seats = seats(&path.display().to_string(), &map);
        let file = path.file_name().unwrap().to_string_lossy();
        if seats.len() < 2 {
            println!("skipping {group}/{file}: {} seat(s)", seats.len());
            continue;
        }
        let seed = k as u64 + 1;
        let most = seats.len().min(4);
        games.push(Game {
            name: format!("{group}-{file}-a2"),
            map: map.clone(),
            players: if k % 2 == 0 {
                by_name(&seats, 2, seed)
            } else {
                generic(2, seed, None)
            },
            max_steps: 250,
        });
        // A bot that commits a fatal protocol error: with 3+ players its forts stay
        // as zombies; with 2 the game ends there, so late.
        let kind = ["bad", "exit", "short", ""][k % 4];
        let at = if most > 2 { 25 + 10 * k } else { 100 + 10 * k };
        let fault = format!("{kind}@{at}");
        games.push(Game {
            name: format!("{group}-{file}-b{most}"),
            map,
            players: generic(most, seed + 100, (!kind.is_empty()).then_some(&fault)),
            max_steps: 250,
        });
    }
    games
}

/// Six games on each inline map, of 2 bots to as many as it seats (up to 4), bound
/// in order or by name, one with a fatal protocol error.
fn inline_games() -> Vec<Game> {
    let mut games = Vec::new();
    let inline: [(&str, String); 4] = [
        ("triangle", TRIANGLE.to_string()),
        ("line", LINE.to_string()),
        ("grid", grid()),
        ("duel", DUEL.to_string()),
    ];
    for (k, (name, map)) in inline.into_iter().enumerate() {
        let seats = seats(name, &map);
        let seed = 1000 + 10 * k as u64;
        let most = seats.len().min(4);
        let fault = ["exit@6", "short@9", "bad@12", "bad@3"][k];
        for (i, players) in [
            generic(2, seed, None),
            by_name(&seats, most, seed + 1),
            generic(most, seed + 2, Some(fault)),
            generic(most, seed + 3, None),
            generic(most.min(3), seed + 4, None),
            generic(most, seed + 5, None),
        ]
        .into_iter()
        .enumerate()
        {
            games.push(Game {
                name: format!("{name}-{i}"),
                map: map.clone(),
                players,
                max_steps: 150,
            });
        }
    }
    games
}
