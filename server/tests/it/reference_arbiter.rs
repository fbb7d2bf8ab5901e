//! Differential test: `bottlebats play` must play every game exactly as the 2016 arbiter
//! did: the same snapshots in the classic log, up to the order of the lines inside a
//! section (docs/rules.md §8).
//!
//! We do not have the 2016 program, so `engine/tests/reference/arbiter.py` is an
//! independent, plain Python reading of docs/rules.md. Both arbiters play the same games
//! with the same deterministic random bots (`engine/tests/reference/randombot.py`, whose
//! replies depend only on the set of lines it is sent), each writes a classic log, and the
//! logs must agree snapshot by snapshot, with the lines of each section sorted, as must
//! the `Winner:` line.
//!
//! Maps: the 2016 maps (`../shared/maps-2016`, skipped when absent), our maps in `maps/`,
//! and small inline maps with map marches, odd and even road lengths, roads of length 1,
//! `?` headers, forts without roads and 3 or more seats. Games have 2 to 4 bots; some are
//! bound to seats by name, some commit a fatal protocol error mid-game so their forts
//! stay on the board as zombies.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

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
struct Game {
    name: String,
    map: String,
    /// (player name, randombot arguments before the name)
    players: Vec<(String, String)>,
    max_steps: u32,
}

/// The seats of a map (distinct non-neutral fort owners in order), from our parser.
fn seats(name: &str, map: &str) -> Vec<String> {
    engine::map::Map::parse(map)
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

fn games() -> Vec<Game> {
    let mut games = Vec::new();
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let old = manifest.join("../../shared/maps-2016");
    let mut files = Vec::new();
    if old.is_dir() {
        files.extend(map_files(&old, None).into_iter().map(|p| ("2016", p)));
    } else {
        println!("skipping the 2016 maps: {} is absent", old.display());
    }
    let ours = manifest.join("../maps");
    let our_maps = map_files(&ours, Some("map"));
    if our_maps.is_empty() {
        println!("no *.map files in {}", ours.display());
    }
    files.extend(our_maps.into_iter().map(|p| ("maps", p)));

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

/// One snapshot of a classic log: its `# STEP: n` line and its sections, each a header
/// and its lines sorted.
#[derive(PartialEq)]
struct Snapshot {
    step: String,
    sections: Vec<(String, Vec<String>)>,
}

impl Snapshot {
    fn render(&self) -> String {
        let mut out = format!("{}\n", self.step);
        for (header, lines) in &self.sections {
            out += &format!("{header}\n");
            for l in lines {
                out += &format!("{l}\n");
            }
        }
        out
    }
}

fn parse_log(text: &str) -> Vec<Snapshot> {
    let mut snaps: Vec<Snapshot> = Vec::new();
    for line in text.lines() {
        let line = line.trim_end();
        if line.starts_with("# STEP") {
            snaps.push(Snapshot {
                step: line.to_string(),
                sections: Vec::new(),
            });
        } else if line.is_empty() || line.starts_with('#') {
            continue;
        } else if let Some(snap) = snaps.last_mut() {
            if line.ends_with(':') {
                snap.sections.push((line.to_string(), Vec::new()));
            } else if let Some((_, lines)) = snap.sections.last_mut() {
                lines.push(line.to_string());
            } else {
                snap.sections
                    .push(("(no header)".into(), vec![line.to_string()]));
            }
        }
    }
    for s in &mut snaps {
        for (_, lines) in &mut s.sections {
            lines.sort();
        }
    }
    snaps
}

/// What both arbiters made of one game.
struct Played {
    log: String,
    winner: String,
}

fn winner_line(stdout: &[u8]) -> String {
    String::from_utf8_lossy(stdout)
        .lines()
        .find(|l| l.starts_with("Winner:"))
        .unwrap_or("(no Winner line)")
        .to_string()
}

fn play(dir: &Path, game: &Game, which: &str) -> Result<Played, String> {
    let bot = Path::new(env!("CARGO_MANIFEST_DIR")).join("../engine/tests/reference/randombot.py");
    let players: serde_json::Map<String, serde_json::Value> = game
        .players
        .iter()
        .map(|(name, args)| {
            let cmd = format!("/usr/bin/python3 '{}' {args}", bot.display());
            (name.clone(), serde_json::Value::String(cmd))
        })
        .collect();
    let config = serde_json::json!({
        "players": players,
        "mapfile": "game.map",
        "logfile": format!("{which}.log"),
        "max_steps": game.max_steps,
    });
    let config_file = format!("{which}.json");
    std::fs::write(dir.join(&config_file), config.to_string()).unwrap();
    let mut cmd = if which == "reference" {
        let arbiter =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../engine/tests/reference/arbiter.py");
        let mut c = Command::new("/usr/bin/python3");
        c.arg(arbiter);
        c
    } else {
        let mut c = Command::new(env!("CARGO_BIN_EXE_bottlebats"));
        c.arg("play");
        c
    };
    let out = cmd
        .arg(&config_file)
        .current_dir(dir)
        .output()
        .map_err(|e| format!("{which}: cannot start: {e}"))?;
    std::fs::write(dir.join(format!("{which}.stdout")), &out.stdout).unwrap();
    std::fs::write(dir.join(format!("{which}.stderr")), &out.stderr).unwrap();
    if !out.status.success() {
        return Err(format!(
            "{which} failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let log = std::fs::read_to_string(dir.join(format!("{which}.log")))
        .map_err(|e| format!("{which}: no log: {e}"))?;
    Ok(Played {
        log,
        winner: winner_line(&out.stdout),
    })
}

/// Counts for the summary: snapshots, march lines and fort captures seen.
#[derive(Default)]
struct Stats {
    snapshots: usize,
    marches: usize,
    captures: usize,
    winners: usize,
}

/// Plays one game with both arbiters; `Err` describes the first difference.
fn compare(root: &Path, game: &Game, stats: &Mutex<Stats>) -> Result<(), String> {
    let dir = root.join(game.name.replace('/', "_"));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("game.map"), &game.map).unwrap();

    let reference = play(&dir, game, "reference")?;
    let ours = play(&dir, game, "ours")?;
    let (a, b) = (parse_log(&reference.log), parse_log(&ours.log));
    let here = format!("(files in {})", dir.display());
    if let Some(i) = (0..a.len().min(b.len())).find(|&i| a[i] != b[i]) {
        let only = |x: &Snapshot, y: &Snapshot| -> Vec<String> {
            let theirs: Vec<&String> = y
                .sections
                .iter()
                .flat_map(|(h, l)| l.iter().chain([h]))
                .collect();
            x.sections
                .iter()
                .flat_map(|(h, l)| std::iter::once(h).chain(l))
                .filter(|l| !theirs.contains(l))
                .cloned()
                .collect()
        };
        return Err(format!(
            "first difference at snapshot {i} {here}\n\
             only in the reference: {:?}\nonly in ours: {:?}\n\
             --- reference (lines sorted) ---\n{}--- ours (lines sorted) ---\n{}",
            only(&a[i], &b[i]),
            only(&b[i], &a[i]),
            a[i].render(),
            b[i].render()
        ));
    }
    if a.len() != b.len() {
        return Err(format!(
            "the reference logged {} snapshots, ours {} {here}",
            a.len(),
            b.len()
        ));
    }
    if reference.winner != ours.winner {
        return Err(format!(
            "reference `{}`, ours `{}` {here}",
            reference.winner, ours.winner
        ));
    }

    let mut s = stats.lock().unwrap();
    s.snapshots += a.len();
    s.winners += usize::from(reference.winner != "Winner: None");
    for (prev, next) in a.iter().zip(a.iter().skip(1)) {
        let owner = |snap: &Snapshot, fort: &str| -> Option<String> {
            snap.sections.first()?.1.iter().find_map(|l| {
                let f: Vec<&str> = l.split_whitespace().collect();
                (f[0] == fort).then(|| f[3].to_string())
            })
        };
        if let Some((_, forts)) = next.sections.first() {
            for l in forts {
                let f: Vec<&str> = l.split_whitespace().collect();
                if owner(prev, f[0]).is_some_and(|o| o != f[3]) {
                    s.captures += 1;
                }
            }
        }
        s.marches += next.sections.get(2).map_or(0, |(_, l)| l.len());
    }
    Ok(())
}

#[test]
fn bottlebats_plays_every_game_like_the_reference_arbiter() {
    let start = Instant::now();
    // One folder per run, kept only when a game differs: several `cargo test` may run at once.
    let root = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("reference_arbiter")
        .join(format!("run-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let games = games();
    let stats = Mutex::new(Stats::default());
    let failures = Mutex::new(Vec::new());
    let next = AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(game) = games.get(i) else { break };
                if let Err(e) = compare(&root, game, &stats) {
                    failures.lock().unwrap().push(format!(
                        "game {} ({} players): {e}",
                        game.name,
                        game.players.len()
                    ));
                }
            });
        }
    });
    let s = stats.into_inner().unwrap();
    println!(
        "{} games, {} snapshots, {} march lines, {} captures, {} games won, in {:.1?}",
        games.len(),
        s.snapshots,
        s.marches,
        s.captures,
        s.winners,
        start.elapsed()
    );
    let failures = failures.into_inner().unwrap();
    for f in &failures {
        println!("\n{f}");
    }
    if failures.is_empty() {
        let _ = std::fs::remove_dir_all(&root);
    }
    assert!(
        failures.is_empty(),
        "{} of {} games differ from the reference arbiter",
        failures.len(),
        games.len()
    );
    assert!(
        s.captures > 0 && s.winners > 0,
        "the games were too quiet to prove anything"
    );
}
