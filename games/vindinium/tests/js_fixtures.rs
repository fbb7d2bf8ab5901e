//! The games the viewer's port of the rules (static/vindinium/rules.mjs) is checked
//! against: whole matches of seeded bots on the six original maps and a generated one,
//! played through the game interface (warnings, timeouts, crashes, all four crashed),
//! each written as a file of `games/vindinium/tests/js/fixtures/`: the stored replay and
//! the states the crate rebuilds from it every [`EVERY`] moves (and the last one). The
//! node test `games/vindinium/tests/js/vindinium.test.mjs` replays them in JavaScript.
//!
//! The files are committed so that node needs no Rust build: this test fails when one
//! is not what the crate computes now, and `VINDINIUM_FIXTURES=write cargo test -p
//! vindinium --test js_fixtures` writes them again.

use std::collections::{HashMap, VecDeque};
use std::path::PathBuf;

use game_interface::{Answer, RunnerNotes, Seat};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use vindinium::plugin::{self, decode, VindiniumMatch};
use vindinium::{Dir, Game, Pos, Status, Tile, ORIGINAL_MAPS};

/// A state is kept every this many moves.
const EVERY: usize = 10;

fn fixtures_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/js/fixtures")
}

/// How a bot of the fixtures plays: toward a tavern when weak, else toward the
/// nearest hero (fights, kills, telefrags at the spawn squares) or mine not its own,
/// as `chase` says, sometimes at random; now and then an unknown answer, and with
/// `crash` a chance per move to time out or crash (either ends its bot).
struct Bot {
    chase: f64,
    crash: f64,
}

/// The first step from `from` on the shortest way over open ground to a square next
/// to one of `targets` (or onto it), if there is one.
fn toward(game: &Game, from: Pos, targets: &[Pos]) -> Option<Dir> {
    let mut first: HashMap<Pos, Dir> = HashMap::from([(from, Dir::Stay)]);
    let mut queue = VecDeque::from([from]);
    while let Some(at) = queue.pop_front() {
        for dir in [Dir::North, Dir::East, Dir::South, Dir::West] {
            let next = at.to(dir);
            let step = if at == from { dir } else { first[&at] };
            if targets.contains(&next) {
                return Some(step);
            }
            if game.board.get(next) == Some(Tile::Air) && !first.contains_key(&next) {
                first.insert(next, step);
                queue.push_back(next);
            }
        }
    }
    None
}

impl Bot {
    fn answer(&self, game: &Game, rng: &mut ChaCha8Rng) -> (Answer, bool) {
        if rng.gen_bool(self.crash) {
            return if rng.gen_bool(0.5) {
                (Answer::NoReply, true)
            } else {
                (
                    Answer::Crashed("the bot exited with status 1".into()),
                    false,
                )
            };
        }
        let me = game.hero(game.hero_to_move());
        let squares = |want: &dyn Fn(Tile) -> bool| -> Vec<Pos> {
            let board = &game.board;
            board
                .positions()
                .filter(|p| want(board.get(*p).unwrap()))
                .collect()
        };
        let targets = if me.life < 40 && me.gold >= 2 {
            squares(&|t| t == Tile::Tavern)
        } else if rng.gen_bool(self.chase) {
            (game.heroes.iter())
                .filter(|h| h.id != me.id)
                .map(|h| h.pos)
                .collect()
        } else {
            squares(&|t| matches!(t, Tile::Mine(o) if o != Some(me.id)))
        };
        let planned = toward(game, me.pos, &targets).unwrap_or(Dir::Stay);
        let line = match rng.gen_range(0..100) {
            0 => "attack!",
            1..=5 => "Stay",
            6..=25 => ["north", "south", "east", "west"][rng.gen_range(0..4)],
            _ => planned.name(),
        };
        (Answer::Lines(vec![line.to_string()]), false)
    }
}

/// One match of four bots on `map_text`, to its end: its stored replay.
fn play(map_text: &str, max_turns: u32, seed: u64, bots: [Bot; 4]) -> String {
    let names: Vec<String> = ["ada", "bob", "cyd", "dee"].map(String::from).to_vec();
    let mut m = plugin::kind().setup(map_text, &names, max_turns).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    while !m.is_over() {
        let seat: Seat = m.to_answer()[0];
        let game = m.as_any().downcast_ref::<VindiniumMatch>().unwrap().game();
        let (answer, timeout) = bots[seat].answer(game, &mut rng);
        let notes = RunnerNotes {
            timeouts: if timeout { vec![seat] } else { vec![] },
            ms: (0..4)
                .map(|s| (s == seat && !timeout).then(|| rng.gen_range(1..40)))
                .collect(),
            ..RunnerNotes::default()
        };
        m.step(&[(seat, answer)], &notes);
    }
    m.replay_json()
}

/// A state as the fixture keeps it: the turn, whether the game is over, each hero's
/// `[row, column, life, gold, mineCount, deaths, crashed]` and the mines' owners in
/// board order (`-` for none).
fn state_json(t: usize, g: &Game) -> Value {
    let heroes: Vec<Value> = (g.heroes.iter())
        .map(|h| {
            json!([
                h.pos.x,
                h.pos.y,
                h.life,
                h.gold,
                g.mine_count(h.id),
                h.deaths,
                h.crashed
            ])
        })
        .collect();
    let mines: String = (g.board.tiles().iter())
        .filter_map(|t| match t {
            Tile::Mine(Some(id)) => Some(char::from(b'0' + *id as u8)),
            Tile::Mine(None) => Some('-'),
            _ => None,
        })
        .collect();
    let status = match g.status {
        Status::Started => "started",
        Status::TurnMax => "turn_max",
        Status::AllCrashed => "all_crashed",
    };
    json!({ "t": t, "turn": g.turn, "status": status, "heroes": heroes, "mines": mines })
}

/// What happened in a game, counted from its states: deaths, telefrags (a hero killed
/// because another respawned onto it) and crashes.
#[derive(Default, Debug)]
struct Seen {
    deaths: u32,
    telefrags: u32,
    crashes: u32,
}

fn seen(states: &[Game]) -> Seen {
    let mut s = Seen::default();
    for w in states.windows(2) {
        let (a, b) = (&w[0], &w[1]);
        let died: Vec<usize> = (0..4)
            .filter(|&i| b.heroes[i].deaths > a.heroes[i].deaths)
            .collect();
        s.deaths += died.len() as u32;
        s.telefrags += (died.iter())
            .filter(|&&i| {
                (died.iter()).any(|&j| j != i && a.heroes[i].pos == a.heroes[j].spawn_pos)
            })
            .count() as u32;
        s.crashes += (0..4)
            .filter(|&i| b.heroes[i].crashed && !a.heroes[i].crashed)
            .count() as u32;
    }
    s
}

/// The fixture of a stored replay: the replay and its states every `EVERY` moves.
fn fixture(json_text: &str) -> (Value, Seen) {
    let states = decode(json_text).unwrap();
    let last = states.len() - 1;
    let kept: Vec<Value> = (states.iter().enumerate())
        .filter(|(t, _)| t % EVERY == 0 || *t == last)
        .map(|(t, g)| state_json(t, g))
        .collect();
    let replay: Value = serde_json::from_str(json_text).unwrap();
    let value = json!({ "every": EVERY, "replay": replay, "states": kept });
    (value, seen(&states))
}

fn original(name: &str) -> &'static str {
    ORIGINAL_MAPS.iter().find(|(n, _)| *n == name).unwrap().1
}

/// The games: name, map text, moves, seed, each bot's chance to crash a move.
fn games() -> Vec<(String, String, u32, u64, [f64; 4])> {
    let steady = [0.0, 0.0, 0.0, 0.0];
    let shaky = [0.0, 0.002, 0.0, 0.004];
    let mut games: Vec<_> = ["m1", "m2", "m3", "m4", "m5", "m6"]
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let crash = if i % 2 == 0 { shaky } else { steady };
            (
                name.to_string(),
                original(name).to_string(),
                1200,
                i as u64,
                crash,
            )
        })
        .collect();
    let generated = vindinium::generate(11).unwrap().render();
    games.push(("generated".into(), generated, 1200, 7, shaky));
    // All four crash before the end: the game stops there (all_crashed).
    games.push(("crashes".into(), original("m1").into(), 600, 8, [0.05; 4]));
    games
}

#[test]
fn the_viewers_fixtures_are_the_crates_games() {
    let write = std::env::var("VINDINIUM_FIXTURES").as_deref() == Ok("write");
    let dir = fixtures_dir();
    let mut total = Seen::default();
    let mut stale = Vec::new();
    for (name, map_text, max_turns, seed, crash) in games() {
        let chase = [0.1, 0.3, 0.6, 0.9];
        let bots = std::array::from_fn(|i| Bot {
            chase: chase[i],
            crash: crash[i],
        });
        let replay = play(&map_text, max_turns, seed, bots);
        let (value, s) = fixture(&replay);
        eprintln!("{name}: {s:?}");
        total.deaths += s.deaths;
        total.telefrags += s.telefrags;
        total.crashes += s.crashes;
        let text = serde_json::to_string(&value).unwrap() + "\n";
        let mut files = vec![(dir.join(format!("vindinium-{name}.json")), text)];
        // One game's log too, as `bottlebats play` writes it: the viewer opens logs.
        if name == "crashes" {
            let log = vindinium::plugin::log(&replay).unwrap();
            files.push((dir.join(format!("vindinium-{name}.jsonl")), log));
        }
        for (path, text) in files {
            if write {
                std::fs::create_dir_all(&dir).unwrap();
                std::fs::write(&path, &text).unwrap();
            } else if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
                stale.push(path.display().to_string());
            }
        }
    }
    assert!(
        stale.is_empty(),
        "not what the crate computes now: {stale:?}; write them again with \
         VINDINIUM_FIXTURES=write cargo test -p vindinium --test js_fixtures"
    );
    assert!(
        total.deaths > 20 && total.telefrags > 0 && total.crashes >= 5,
        "the fixtures have deaths, telefrags and crashes: {total:?}"
    );
}
