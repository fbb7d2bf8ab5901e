//! Differential test: `bottlebats play` must play every game exactly as the 2016 arbiter
//! did: the same snapshots in the classic log, up to the order of the lines inside a
//! section (games/bottlebats/rules.md §8).
//!
//! We do not have the 2016 program, so `games/bottlebats/tests/reference/arbiter.py` is an
//! independent, plain Python reading of games/bottlebats/rules.md. Both arbiters play the same games
//! with the same deterministic random bots (`games/bottlebats/tests/reference/randombot.py`, whose
//! replies depend only on the set of lines it is sent), each writes a classic log, and the
//! logs must agree snapshot by snapshot, with the lines of each section sorted, as must
//! the `Winner:` line.
//!
//! Maps: the 2016 maps (`../shared/maps-2016`, skipped when absent), our maps in `maps/`,
//! and small inline maps with map marches, odd and even road lengths, roads of length 1,
//! `?` headers, forts without roads and 3 or more seats. Games have 2 to 4 bots; some are
//! bound to seats by name, some commit a fatal protocol error mid-game so their forts
//! stay on the board as zombies.

mod games;

use std::path::Path;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use games::{games, Game};

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
    let bot = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../games/bottlebats/tests/reference/randombot.py");
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
        let arbiter = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../games/bottlebats/tests/reference/arbiter.py");
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
