//! The Vindinium bots shipped with the platform, played by the runner with real
//! processes (games/vindinium/README.md): the house bots of `games/vindinium/bots/house/` play
//! whole games on the six original maps, and each starter kit of
//! `games/vindinium/bots/starters/` is built with the command of `languages.toml` and
//! plays a whole game. A kit whose toolchain is not installed is skipped with a message.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use engine::process::{BotSpec, LocalLauncher};
use engine::{run_game, GameResult, MatchConfig};
use vindinium::plugin::{self, VindiniumMatch};
use vindinium::{Game, ORIGINAL_MAPS};

const HOUSE: [&str; 4] = ["random", "miner", "fighter", "strong"];
const KITS: [&str; 5] = ["python", "javascript", "cpp", "java", "rust"];

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn house(name: &str) -> BotSpec {
    let dir = repo().join("games/vindinium/bots/house").join(name);
    BotSpec {
        name: name.to_string(),
        command: "/usr/bin/python3 bot.py".into(),
        dir,
    }
}

/// A whole game of 1,200 moves on `map_text`, hero `i + 1` played by `specs[i]`.
fn play(map_text: &str, specs: &[BotSpec]) -> GameResult {
    let names: Vec<String> = specs.iter().map(|s| s.name.clone()).collect();
    let kind = plugin::kind();
    let m = kind.setup(map_text, &names, 1200).unwrap();
    let config = MatchConfig {
        turn_timeout: Duration::from_secs(1),
        startup_timeout: Duration::from_secs(10),
        ..MatchConfig::default()
    };
    let r = run_game(
        m,
        kind.framing(),
        specs,
        &LocalLauncher,
        &config,
        &mut |_| true,
    )
    .unwrap();
    assert_eq!(r.game.turn(), 1200, "the game is played to its end");
    r
}

fn game(r: &GameResult) -> &Game {
    r.game
        .as_any()
        .downcast_ref::<VindiniumMatch>()
        .unwrap()
        .game()
}

fn stderr(r: &GameResult, seat: usize) -> String {
    (r.players[seat].stderr.iter())
        .map(|(_, b)| String::from_utf8_lossy(b).into_owned())
        .collect()
}

/// Seat `seat` answered every move in time with a direction.
fn assert_clean(r: &GameResult, seat: usize, what: &str) {
    let p = &r.players[seat];
    let err = stderr(r, seat);
    assert_eq!(p.error, None, "{what}: {err}");
    assert_eq!((p.timeouts, p.warnings), (0, 0), "{what}: {err}");
    assert!(!game(r).hero(seat + 1).crashed, "{what}: {err}");
}

fn gold(r: &GameResult, seat: usize) -> i32 {
    game(r).stats()[seat].gold
}

#[test]
fn house_bots_play_whole_games_on_the_original_maps() {
    for (m, (map, text)) in ORIGINAL_MAPS.iter().enumerate() {
        // Every bot in a different seat on each map.
        let specs: Vec<BotSpec> = (0..4).map(|i| house(HOUSE[(i + m) % 4])).collect();
        let r = play(text, &specs);
        for (seat, spec) in specs.iter().enumerate() {
            assert_clean(&r, seat, &format!("{} on {map}", spec.name));
            if spec.name != "random" {
                // Gold comes only from mines: it took some.
                assert!(gold(&r, seat) > 0, "{} mined on {map}", spec.name);
            }
        }
    }
}

fn found(program: &str) -> bool {
    Command::new("sh")
        .arg("-c")
        .arg(format!("command -v {program}"))
        .output()
        .is_ok_and(|o| o.status.success())
}

/// How the platform builds and runs a language: the `entries`, `requires`, `compile`
/// and `run` of its section of `languages.toml` (strings and lists of strings only).
struct Recipe {
    entries: Vec<String>,
    requires: Vec<String>,
    compile: Option<String>,
    run: String,
}

fn recipe(lang: &str) -> Recipe {
    let table = std::fs::read_to_string(repo().join("languages.toml")).unwrap();
    let header = format!("[{lang}]");
    let section: Vec<&str> = (table.lines())
        .skip_while(|l| l.trim() != header)
        .skip(1)
        .take_while(|l| !l.starts_with('['))
        .collect();
    let field = |key: &str| {
        section.iter().find_map(|l| {
            let (k, v) = l.split_once('=')?;
            (k.trim() == key).then(|| v.trim().to_string())
        })
    };
    let list = |key: &str| -> Vec<String> {
        let v = field(key).unwrap_or_default();
        let inner = v.trim_start_matches('[').trim_end_matches(']');
        (inner.split(','))
            .map(|s| s.trim().trim_matches('"').to_string())
            .filter(|s| !s.is_empty())
            .collect()
    };
    let string = |key: &str| field(key).map(|v| v.trim_matches('"').to_string());
    Recipe {
        entries: list("entries"),
        requires: list("requires"),
        compile: string("compile"),
        run: string("run").unwrap_or_else(|| panic!("{lang} has a run command")),
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let path = e.unwrap().path();
        let dest = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_dir(&path, &dest);
        } else {
            std::fs::copy(&path, &dest).unwrap();
        }
    }
}

/// The kit of `lang` copied and built as the platform builds an upload of it; its
/// run command, or None when its toolchain is missing.
fn build_kit(lang: &str) -> Option<BotSpec> {
    let recipe = recipe(lang);
    if let Some(missing) = recipe.requires.iter().find(|p| !found(p)) {
        println!("skipping the {lang} kit: `{missing}` is not installed");
        return None;
    }
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("vindinium-kit-{lang}"));
    let _ = std::fs::remove_dir_all(&dir);
    copy_dir(
        &repo().join("games/vindinium/bots/starters").join(lang),
        &dir,
    );
    let entry = (recipe.entries.iter())
        .find(|e| dir.join(e).is_file())
        .unwrap_or_else(|| panic!("the {lang} kit has an entry file"));
    let stem = Path::new(entry).file_stem().unwrap().to_str().unwrap();
    let fill = |c: &str| c.replace("{entry}", entry).replace("{stem}", stem);
    if let Some(compile) = &recipe.compile {
        let out = Command::new("sh")
            .arg("-c")
            .arg(fill(compile))
            .current_dir(&dir)
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{lang}: `{compile}` failed: {said}");
        assert!(
            !said.contains("warning"),
            "{lang} builds without warnings: {said}"
        );
    }
    Some(BotSpec {
        name: format!("kit-{lang}"),
        command: fill(&recipe.run),
        dir,
    })
}

#[test]
fn starter_kits_build_and_play_a_whole_game() {
    let (_, m1) = ORIGINAL_MAPS[0];
    let mut moves_of_python = None;
    let mut played = Vec::new();
    for lang in KITS {
        let Some(kit) = build_kit(lang) else {
            continue;
        };
        let specs = [kit, house("miner"), house("random"), house("fighter")];
        let r = play(m1, &specs);
        assert_clean(&r, 0, lang);
        assert!(gold(&r, 0) > 0, "the {lang} kit took a mine");
        // All kits play the same moves: the same game, move for move.
        let moves = plugin::read(&r.game.replay_json()).unwrap().moves;
        match &moves_of_python {
            None => moves_of_python = Some(moves),
            Some(python) => assert_eq!(&moves, python, "{lang} plays as the python kit"),
        }
        played.push(lang);
    }
    println!("starter kits built and played: {played:?}");
    assert!(played.contains(&"python"));
}
