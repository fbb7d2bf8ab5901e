//! The games the viewer's port of the rules (static/connectfour/rules.mjs) is checked
//! against: whole matches played through the game interface (fours, a draw, a move
//! limit, forfeits for a full column, a timeout and a crash, limits noted), each written
//! in `games/connectfour/tests/js/fixtures/` as `connectfour-NAME.json`: the stored
//! replay, the live rows, every board the crate rebuilds, how the game ended, the ranks and each seat's
//! problems, with its log beside it (`connectfour-NAME.txt`, which the viewer opens too);
//! and `example.json`, the stored replay of `random-1`, which the viewer's
//! contract test reads. The node test `games/connectfour/tests/js/connectfour.test.mjs`
//! reads them in JavaScript and must find the same.
//!
//! The files are committed so that node needs no Rust build: this test fails when one
//! is not what the crate computes now, and `CONNECTFOUR_FIXTURES=write cargo test -p
//! connectfour --test js_fixtures` writes them again.

use std::path::PathBuf;

use connectfour::plugin::{self, ConnectFourMatch};
use connectfour::{End, EMPTY_BOARD};
use game_interface::{Answer, Match, RunnerNotes};
use serde_json::{json, Value};

fn fixtures_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/js/fixtures")
}

/// What the seat to move answers at move `t` (from 1) of a fixture game.
#[derive(Clone, Copy)]
enum Play {
    /// A random column that is not full, from this seed.
    Random(u64),
    /// The columns of a string, one a move.
    Columns(&'static str),
}

/// An answer of a fixture game at move `t` (from 1), the runner's notes with it.
type Special = (usize, Answer, RunnerNotes);

fn game(play: Play, max_turns: u32, special: Vec<Special>) -> Box<dyn Match> {
    let kind = plugin::kind();
    let names = ["ann".to_string(), "ben".to_string()];
    let mut m = kind.setup(EMPTY_BOARD, &names, max_turns).unwrap();
    let mut t = 0;
    while !m.is_over() {
        t += 1;
        let seat = m.to_answer()[0];
        let (answer, notes) = match special.iter().find(|(at, _, _)| *at == t) {
            Some((_, a, n)) => (a.clone(), n.clone()),
            None => {
                let lines = match play {
                    Play::Random(seed) => {
                        kind.sample_reply(&*m, seat, seed.wrapping_mul(1000) + t as u64)
                    }
                    Play::Columns(s) => vec![s[t - 1..t].to_string()],
                };
                (Answer::Lines(lines), RunnerNotes::default())
            }
        };
        m.step(&[(seat, answer)], &notes);
    }
    m
}

fn limit(seat: usize, text: &str) -> RunnerNotes {
    RunnerNotes {
        limits: vec![(seat, text.to_string())],
        ..RunnerNotes::default()
    }
}

fn line(s: &str) -> Answer {
    Answer::Lines(vec![s.to_string()])
}

/// The fixture games, by name.
fn games() -> Vec<(&'static str, Box<dyn Match>)> {
    let timeout = RunnerNotes {
        timeouts: vec![1],
        ..RunnerNotes::default()
    };
    vec![
        ("random-1", game(Play::Random(1), 42, vec![])),
        ("random-2", game(Play::Random(2), 42, vec![])),
        ("random-3", game(Play::Random(3), 42, vec![])),
        (
            "draw",
            game(
                Play::Columns("000000111111422222233333344444555556666665"),
                42,
                vec![],
            ),
        ),
        // Four on each diagonal, the winning disc last of its line or inside it.
        (
            "diagonal-up-right",
            game(Play::Columns("01122323633"), 42, vec![]),
        ),
        (
            "diagonal-up-left",
            game(Play::Columns("65544343033"), 42, vec![]),
        ),
        (
            "diagonal-inside",
            game(Play::Columns("01222333361"), 42, vec![]),
        ),
        ("limit", game(Play::Random(4), 9, vec![])),
        (
            "full-column",
            game(
                Play::Columns("0000000"),
                42,
                vec![(3, line("0"), limit(1, "memory limit (512 MiB) reached"))],
            ),
        ),
        (
            "timeout",
            game(
                Play::Random(5),
                42,
                vec![
                    (6, Answer::NoReply, timeout),
                    (1, line(" 3 "), limit(0, "x")),
                ],
            ),
        ),
        (
            "crash",
            game(
                Play::Random(6),
                42,
                vec![(
                    1,
                    Answer::Crashed("exited with status 1".into()),
                    RunnerNotes::default(),
                )],
            ),
        ),
        (
            "garbage",
            game(
                Play::Random(7),
                42,
                vec![(4, line("seven"), RunnerNotes::default())],
            ),
        ),
    ]
}

fn end_json(end: Option<&End>) -> Value {
    match end {
        None => Value::Null,
        Some(End::Four { seat, line }) => json!({"kind": "four", "seat": seat, "line": line}),
        Some(End::Forfeit { seat, reason }) => {
            json!({"kind": "forfeit", "seat": seat, "reason": reason})
        }
        Some(e) => json!({"kind": e.name()}),
    }
}

/// The fixture of a finished match, as text.
fn fixture(m: &dyn Match) -> String {
    let c4 = m.as_any().downcast_ref::<ConnectFourMatch>().unwrap();
    let stored = m.replay_json();
    let replayed = plugin::read(&stored).unwrap();
    assert_eq!(&replayed.game, c4.game(), "the replay rebuilds the game");
    // Every board: the game again, a move at a time.
    let mut g = connectfour::Game::new(c4.game().max_turns());
    let mut boards = vec![g.board().rows()];
    for row in &c4.rows()[1..] {
        if let Some(col) = row.col {
            g.play(col).unwrap();
        }
        boards.push(g.board().rows());
    }
    let rows: Vec<Value> = (m.rows_since(0).iter())
        .map(|r| serde_json::from_str(r).unwrap())
        .collect();
    let problems: Vec<Value> = (0..2)
        .map(|s| {
            let list: Vec<Value> = (m.problems(s).iter())
                .map(|p| json!({"kind": p.kind.name(), "text": p.text, "turn": p.first_turn}))
                .collect();
            json!(list)
        })
        .collect();
    let v = json!({
        "replay": serde_json::from_str::<Value>(&stored).unwrap(),
        "head": serde_json::from_str::<Value>(&m.replay_head()).unwrap(),
        "rows": rows,
        "boards": boards,
        "end": end_json(c4.game().end()),
        "ranks": m.outcome().ranks,
        "stats": m.stats().iter().map(|s| s.iter().map(|(_, n)| *n).collect::<Vec<_>>()).collect::<Vec<_>>(),
        "problems": problems,
    });
    let mut text = serde_json::to_string(&v).unwrap();
    text.push('\n');
    text
}

#[test]
fn the_viewers_fixtures_are_the_crates_games() {
    let write = std::env::var("CONNECTFOUR_FIXTURES").as_deref() == Ok("write");
    let dir = fixtures_dir();
    let mut stale = Vec::new();
    let mut ends = Vec::new();
    for (name, m) in games() {
        let c4 = m.as_any().downcast_ref::<ConnectFourMatch>().unwrap();
        ends.push((name, c4.game().end().unwrap().name()));
        let log = plugin::log(&m.replay_json()).unwrap();
        let mut files = vec![
            (format!("connectfour-{name}.json"), fixture(&*m)),
            (format!("connectfour-{name}.txt"), log),
        ];
        if name == "random-1" {
            files.push(("example.json".to_string(), m.replay_json() + "\n"));
        }
        for (file, text) in files {
            let path = dir.join(file);
            if write {
                std::fs::write(&path, &text).unwrap();
            } else if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
                stale.push(path.display().to_string());
            }
        }
    }
    assert!(
        stale.is_empty(),
        "not what the crate computes now: {stale:?}; write them again with \
         CONNECTFOUR_FIXTURES=write cargo test -p connectfour --test js_fixtures"
    );
    // The fixtures hold every end there is.
    for kind in ["four", "full", "limit", "forfeit"] {
        assert!(ends.iter().any(|(_, e)| *e == kind), "{kind}: {ends:?}");
    }
    let named = |n: &str| ends.iter().find(|(name, _)| *name == n).unwrap().1;
    assert_eq!(named("draw"), "full");
    assert_eq!(named("limit"), "limit");
    for n in ["full-column", "timeout", "crash", "garbage"] {
        assert_eq!(named(n), "forfeit", "{n}");
    }
}
