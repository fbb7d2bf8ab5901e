//! Vindinium through the game interface (games/vindinium/rules.md §14): whole games
//! played as `Box<dyn GameKind>` with scripted answers, against the same games played
//! on the crate directly, state by state; the stored replay and the live rows rebuild
//! every state; warnings, crashes, timeouts and the end.

use std::collections::{HashSet, VecDeque};
use std::io::Write;

use game_interface::{Answer, Framing, GameKind, Match, RunnerNotes, Seat};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use vindinium::plugin::{self, decode, decode_live, read, VindiniumMatch};
use vindinium::{Dir, Game, Move, Pos, Status, Tile, ORIGINAL_MAPS};

fn names() -> Vec<String> {
    ["alice", "bob", "carol", "dave"].map(String::from).to_vec()
}

fn map(name: &str) -> &'static str {
    ORIGINAL_MAPS.iter().find(|(n, _)| *n == name).unwrap().1
}

fn setup(map_text: &str, max_turns: u32) -> Box<dyn Match> {
    plugin::kind().setup(map_text, &names(), max_turns).unwrap()
}

fn inner(m: &dyn Match) -> &VindiniumMatch {
    m.as_any().downcast_ref::<VindiniumMatch>().unwrap()
}

/// What an answer means to the crate: the move `Game::step` is given.
fn move_of(answer: &Answer) -> Move {
    match answer {
        Answer::Lines(lines) => Move::Go(Dir::from_answer(&lines[0])),
        Answer::NoReply | Answer::Crashed(_) => Move::Crash,
    }
}

/// A played game: the match, and every state of the same game played on the crate.
struct Played {
    m: Box<dyn Match>,
    states: Vec<Game>,
    warnings: Vec<(Seat, String)>,
}

/// Plays `map_text` through the interface with `script(turn, seat, rng)`'s answers and
/// on the crate directly, checking after every step that both games are the same and
/// that the match awaits exactly the hero to move.
fn play(
    map_text: &str,
    max_turns: u32,
    seed: u64,
    script: &dyn Fn(u32, Seat, &mut ChaCha8Rng) -> Answer,
) -> Played {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut m = setup(map_text, max_turns);
    let mut direct = plugin::start(map_text, &names(), max_turns).unwrap();
    let mut states = vec![direct.clone()];
    let mut warnings = Vec::new();
    while !m.is_over() {
        let awaited = m.to_answer();
        assert_eq!(
            awaited,
            vec![direct.hero_to_move() - 1],
            "one hero, the mover"
        );
        assert!(
            !direct.hero(direct.hero_to_move()).crashed,
            "never a crashed hero"
        );
        let seat = awaited[0];
        let answer = script(m.turn(), seat, &mut rng);
        let notes = RunnerNotes {
            ms: (0..4).map(|s| (s == seat).then_some(7)).collect(),
            ..RunnerNotes::default()
        };
        let crashing = matches!(move_of(&answer), Move::Crash);
        let report = m.step(&[(seat, answer.clone())], &notes);
        // A hero that crashes stays on the board, playing Stays by itself: its bot is
        // done (the runner ends it), and no other seat leaves.
        let left: Vec<Seat> = report.removals.iter().map(|r| r.0).collect();
        assert_eq!(left, if crashing { vec![seat] } else { vec![] });
        warnings.extend(report.warnings);
        direct.step(move_of(&answer)).unwrap();
        states.push(direct.clone());
        while !direct.is_finished() && direct.hero(direct.hero_to_move()).crashed {
            direct.step(Move::Go(Dir::Stay)).unwrap();
            states.push(direct.clone());
        }
        assert_eq!(inner(&*m).game(), &direct);
        assert_eq!(m.turn() as usize, states.len() - 1);
    }
    assert!(m.to_answer().is_empty());
    Played {
        m,
        states,
        warnings,
    }
}

/// The stored replay and the live rows of a played game rebuild each of its states.
fn check_replays(p: &Played) {
    let json = p.m.replay_json();
    assert_eq!(decode(&json).unwrap(), p.states, "the stored replay");
    let rows = p.m.rows_since(0);
    assert_eq!(rows.len(), p.states.len(), "a row per state");
    assert_eq!(rows[0], r#"{"start":true}"#);
    assert_eq!(p.m.rows_since(5), rows[5..].to_vec());
    assert_eq!(decode_live(&p.m.replay_head(), &rows).unwrap(), p.states);
    let stored = read(&json).unwrap();
    let rebuilt: Vec<String> = (stored.rows().iter())
        .map(|r| serde_json::to_string(r).unwrap())
        .collect();
    // The rows as stored: reply times under `KEPT_MS` are left out.
    let kept: Vec<String> = (rows.iter())
        .map(|r| {
            let mut row: vindinium::plugin::Row = serde_json::from_str(r).unwrap();
            row.ms = row.ms.filter(|&ms| ms >= vindinium::plugin::KEPT_MS);
            serde_json::to_string(&row).unwrap()
        })
        .collect();
    assert_eq!(rebuilt, kept, "the stored replay holds the rows");
    assert_eq!(stored.moves.chars().count(), p.states.len() - 1);
    let head: serde_json::Value = serde_json::from_str(&p.m.replay_head()).unwrap();
    let full: serde_json::Value = serde_json::from_str(&json).unwrap();
    for key in ["format", "version", "map", "heroes", "max_turns"] {
        assert_eq!(head[key], full[key], "{key}");
    }
    // The log, written a state at a time: each state's GAME object, then the winner.
    let mut log = Vec::new();
    vindinium::plugin::Vindinium
        .write_log(&json, &mut log)
        .unwrap();
    let mut want: String = (p.states.iter())
        .map(|g| format!("{}\n", g.game_json()))
        .collect();
    let last = p.states.last().unwrap();
    if last.is_finished() {
        want.push_str(&format!(
            "{}\n",
            serde_json::json!({ "winner": last.outcome().winner })
        ));
    }
    assert!(String::from_utf8(log).unwrap() == want, "the log");
}

fn random_answer(rng: &mut ChaCha8Rng) -> Answer {
    let words = [
        "North", "south", " EAST ", "west\r", "Stay", "hello", "", "nord",
    ];
    Answer::Lines(vec![words[rng.gen_range(0..words.len())].to_string()])
}

#[test]
fn the_kind_says_what_vindinium_is() {
    let kind = plugin::kind();
    assert_eq!((kind.name(), kind.title()), ("vindinium", "Vindinium"));
    assert_eq!(kind.framing(), Framing::Line);
    let d = kind.defaults();
    assert_eq!((d.seats, d.max_turns), ((4, 4), 1200));
    assert_eq!(d.turn_time.as_millis(), 1000);
    assert_eq!(d.first_reply_time.as_millis(), 10_000);
    let info = kind.map_info(map("m1")).unwrap();
    assert_eq!(info.seats, 4);
    assert_eq!(
        info.numbers,
        vec![("size", 10), ("mines", 4), ("taverns", 4)]
    );
    assert!(kind.map_info("@1@2").is_err());
    let text = kind.generate(7, 4).unwrap();
    assert_eq!(text, kind.generate(7, 4).unwrap(), "the seed decides");
    assert_eq!(kind.map_info(&text).unwrap().seats, 4);
    assert!(kind.generate(7, 2).is_err());
    let three = &names()[..3];
    assert!(kind.setup(map("m1"), three, 10).is_err());
    let twice = ["a", "b", "a", "d"].map(String::from);
    assert!(kind.setup(map("m1"), &twice, 10).is_err());
}

#[test]
fn the_view_is_the_crates_json_line_for_the_hero() {
    let m = setup(map("m2"), 100);
    let direct = plugin::start(map("m2"), &names(), 100).unwrap();
    for seat in 0..4 {
        let want = format!("{}\n", direct.view_line(seat + 1));
        assert_eq!(m.view(seat), want.into_bytes());
    }
    assert!(String::from_utf8(m.view(0))
        .unwrap()
        .contains(r#""id":"vindinium""#));
}

#[test]
fn random_games_on_every_map_are_the_crates_games() {
    for (i, (name, text)) in ORIGINAL_MAPS.iter().enumerate() {
        let p = play(text, 400, i as u64, &|_, _, rng| random_answer(rng));
        assert_eq!(p.m.turn(), 400, "{name}");
        assert_eq!(inner(&*p.m).game().status, Status::TurnMax);
        check_replays(&p);
        let outcome = p.states.last().unwrap().outcome();
        assert_eq!(p.m.outcome().ranks, outcome.ranks.to_vec());
        let stats = p.states.last().unwrap().stats();
        for (seat, numbers) in p.m.stats().iter().enumerate() {
            let want = [
                ("gold", i64::from(stats[seat].gold)),
                ("mines", stats[seat].mines as i64),
                ("deaths", i64::from(stats[seat].deaths)),
            ];
            assert_eq!(numbers, &want.to_vec());
        }
        let counted: u64 = p.m.warnings().iter().sum();
        assert_eq!(counted, p.warnings.len() as u64);
        assert!(counted > 0, "garbage lines were answered");
    }
}

#[test]
fn unknown_answers_stay_with_a_warning() {
    let p = play(map("m1"), 8, 0, &|turn, _, _| {
        let long = "x".repeat(150);
        let lines = [
            "hello",
            "  NORTH \r",
            "stay",
            "",
            long.as_str(),
            "South",
            "go west",
            "Up",
        ];
        Answer::Lines(vec![lines[turn as usize].to_string()])
    });
    let cut = format!("unknown move `{}…`: stayed", "x".repeat(100));
    let want = vec![
        (0, "unknown move `hello`: stayed".to_string()),
        (3, "unknown move ``: stayed".to_string()),
        (0, cut),
        (2, "unknown move `go west`: stayed".to_string()),
        (3, "unknown move `Up`: stayed".to_string()),
    ];
    assert_eq!(p.warnings, want);
    assert_eq!(p.m.warnings(), vec![2, 0, 1, 2]);
    let stored = read(&p.m.replay_json()).unwrap();
    assert_eq!(stored.moves, "xnxxxsxx");
    assert_eq!(stored.result.unwrap().warnings, vec![2, 0, 1, 2]);
    let rows = p.m.rows_since(1);
    assert_eq!(
        rows[0], r#"{"m":"x","warning":"unknown move `hello`: stayed"}"#,
        "a fast reply's time is not kept, live as in the stored replay"
    );
    assert_eq!(rows[1], r#"{"m":"n"}"#);
    // Each seat's problems, at the turn whose state its reply answered.
    let found: Vec<(u32, String, u32)> = (p.m.problems(3).into_iter())
        .map(|x| (x.first_turn, x.text, x.count))
        .collect();
    assert_eq!(
        found,
        [
            (3, "unknown move ``: stayed".to_string(), 1),
            (7, "unknown move `Up`: stayed".to_string(), 1)
        ]
    );
    assert!(p.m.problems(1).is_empty());
}

#[test]
fn a_crashed_hero_stays_by_itself_until_max_turns() {
    let p = play(map("m1"), 200, 3, &|turn, seat, rng| {
        if seat == 1 && turn >= 20 {
            Answer::Crashed("its output ended: the bot exited with status 3".into())
        } else {
            random_answer(rng)
        }
    });
    assert_eq!(p.m.turn(), 200, "the game still runs to its end");
    let game = inner(&*p.m).game();
    assert!(game.hero(2).crashed && !game.hero(1).crashed);
    let stored = read(&p.m.replay_json()).unwrap();
    let moves: Vec<char> = stored.moves.chars().collect();
    assert_eq!(moves[21], 'c', "hero 2's move at turn 21 is its crash");
    for (t, m) in moves.iter().enumerate().skip(22) {
        if t % 4 == 1 {
            assert_eq!(*m, 'x', "move {t}: hero 2 stays");
            assert_eq!(
                stored.ms.get(t).copied().flatten(),
                None,
                "an automatic stay has no time"
            );
        }
    }
    let crash = stored.notes.iter().find(|n| n.t == 22).unwrap();
    assert!(crash.notes.crash.as_deref().unwrap().contains("exited"));
    assert_eq!(stored.result.unwrap().status, "turn_max");
    let found: Vec<_> = (p.m.problems(1).into_iter())
        .filter(|x| x.kind == game_interface::problems::Kind::Removed)
        .collect();
    assert_eq!(
        found.len(),
        1,
        "one crash, the automatic stays are no problem"
    );
    assert_eq!(found[0].first_turn, 21, "the state its last reply answered");
    assert_eq!(
        found[0].text,
        "its output ended: the bot exited with status 3: its hero stays until the end"
    );
    check_replays(&p);
}

#[test]
fn all_four_crashed_ends_the_game_at_once() {
    let p = play(map("m3"), 1200, 4, &|turn, _, rng| {
        if turn >= 40 {
            Answer::Crashed("gone".into())
        } else {
            random_answer(rng)
        }
    });
    let game = inner(&*p.m).game();
    assert_eq!(game.status, Status::AllCrashed);
    assert!(game.heroes.iter().all(|h| h.crashed));
    assert_eq!(
        p.m.turn(),
        44,
        "four crashes; the last does not advance the turn"
    );
    assert_eq!(game.turn, 43);
    let stored = read(&p.m.replay_json()).unwrap();
    assert!(stored.moves.ends_with("cccc"));
    assert_eq!(stored.result.as_ref().unwrap().status, "all_crashed");
    check_replays(&p);
}

#[test]
fn crashes_in_a_row_are_played_until_a_hero_still_playing() {
    // Heroes 2 and 3 crash; after hero 4's crash too, hero 1 alone is ever asked.
    let p = play(map("m4"), 100, 5, &|turn, seat, rng| match seat {
        1..=3 if turn >= 8 => Answer::NoReply,
        0 if turn == 8 => Answer::Lines(vec!["Stay".into()]),
        _ => random_answer(rng),
    });
    let stored = read(&p.m.replay_json()).unwrap();
    assert_eq!(
        &stored.moves[8..12],
        "xccc",
        "hero 1 stayed, heroes 2 to 4 crash"
    );
    for (t, c) in stored.moves.chars().enumerate().skip(12) {
        if t % 4 != 0 {
            assert_eq!(c, 'x', "move {t}: a crashed hero stays");
        }
    }
    assert_eq!(p.m.turn(), 100);
    check_replays(&p);
}

#[test]
fn runner_notes_go_into_the_rows_and_sparsely_into_the_stored_replay() {
    let mut m = setup(map("m1"), 12);
    let timeout = RunnerNotes {
        timeouts: vec![0],
        limits: vec![(2, "memory limit".into())],
        ms: vec![Some(1000), None, None, None],
        ..RunnerNotes::default()
    };
    m.step(&[(0, Answer::NoReply)], &timeout);
    let fast = RunnerNotes {
        ms: vec![None, Some(3), None, None],
        ..RunnerNotes::default()
    };
    // An answer from a seat not awaited is ignored.
    m.step(
        &[
            (0, Answer::Lines(vec!["north".into()])),
            (1, Answer::Lines(vec!["east".into()])),
        ],
        &fast,
    );
    m.note_late_limit(2, "processes limit".into());
    let rows = m.rows_since(1);
    assert_eq!(
        rows[0],
        r#"{"m":"c","ms":1000,"timeout":true,"limits":[[2,"memory limit"]]}"#
    );
    assert_eq!(rows[1], r#"{"m":"e","limits":[[2,"processes limit"]]}"#);
    let stored = read(&m.replay_json()).unwrap();
    assert_eq!(stored.moves, "ce");
    assert_eq!(
        stored.ms,
        vec![Some(1000), None],
        "fast replies' times are not kept"
    );
    assert_eq!(
        stored.notes.iter().map(|n| n.t).collect::<Vec<_>>(),
        vec![1, 2]
    );
    assert!(stored.result.is_none(), "not over yet");
    assert!(
        inner(&*m).game().hero(1).crashed,
        "a timeout is a crash (§9)"
    );
    // Hero 1 crashed: hero 2's answer was its move, and hero 3 is asked next.
    assert_eq!(m.to_answer(), vec![2]);
}

#[test]
fn a_game_of_no_moves_is_over_at_once() {
    let m = setup(map("m1"), 0);
    assert!(m.is_over() && m.to_answer().is_empty());
    assert_eq!(m.rows_since(0), vec![r#"{"start":true}"#.to_string()]);
    assert_eq!(decode(&m.replay_json()).unwrap().len(), 1);
}

#[test]
fn broken_replays_are_refused() {
    let m = setup(map("m1"), 4);
    let good = m.replay_json();
    assert!(decode(&good.replace("vindinium-replay", "other")).is_err());
    assert!(decode(&good.replace(r#""moves":"""#, r#""moves":"nq""#)).is_err());
    assert!(decode(&good.replace(r#""moves":"""#, r#""moves":"nnnnn""#)).is_err());
    assert!(decode("{}").is_err());
    assert!(decode(&good.replace(r#""ms":[]"#, r#""ms":[3]"#)).is_err());
    // The log refuses the same replays before it writes a line.
    for bad in [
        good.replace(r#""moves":"""#, r#""moves":"nq""#),
        good.replace(r#""ms":[]"#, r#""ms":[3]"#),
        "{}".to_string(),
    ] {
        let mut log = Vec::new();
        let e = vindinium::plugin::Vindinium
            .write_log(&bad, &mut log)
            .unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::InvalidData);
        assert!(log.is_empty());
    }
    let rows = m.rows_since(0);
    assert!(decode_live(&m.replay_head(), &rows).is_ok());
    assert!(decode_live(&m.replay_head(), &[r#"{"m":"n"}"#.to_string()]).is_err());
}

fn gzip(bytes: &[u8]) -> usize {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(bytes).unwrap();
    gz.finish().unwrap().len()
}

/// A miner's order: the first step towards the nearest mine it does not own (a tavern
/// below 30 life), by breadth-first search over open ground; Stay when none is reachable.
fn miner(game: &Game) -> Dir {
    let hero = game.hero(game.hero_to_move());
    let wanted = |tile| match tile {
        Tile::Tavern => hero.life < 30,
        Tile::Mine(owner) => hero.life >= 30 && owner != Some(hero.id),
        _ => false,
    };
    let dirs = [Dir::North, Dir::South, Dir::East, Dir::West];
    let mut seen = HashSet::from([hero.pos]);
    let mut queue: VecDeque<(Pos, Dir)> = VecDeque::new();
    for dir in dirs {
        queue.push_back((hero.pos.to(dir), dir));
    }
    while let Some((pos, first)) = queue.pop_front() {
        let Some(tile) = game.board.get(pos) else {
            continue;
        };
        if !seen.insert(pos) {
            continue;
        }
        if wanted(tile) {
            return first;
        }
        if tile == Tile::Air && game.hero_at(pos).is_none() {
            queue.extend(dirs.map(|d| (pos.to(d), first)));
        }
    }
    Dir::Stay
}

/// Plays a full game of miners (one move in ten random) with reply times of 0 to 4 ms
/// mostly and 5 to 200 ms one time in ten (`slow`: 0 to 40 ms uniform); returns its
/// stored replay.
fn full_game(text: &str, slow: bool) -> String {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let mut m = setup(text, 1200);
    while !m.is_over() {
        let seat = m.to_answer()[0];
        let dir = match rng.gen_range(0..10) {
            0 => [Dir::North, Dir::South, Dir::East, Dir::West][rng.gen_range(0..4)],
            _ => miner(inner(&*m).game()),
        };
        let mut ms = vec![None; 4];
        ms[seat] = Some(match (slow, rng.gen_range(0..10)) {
            (true, _) => rng.gen_range(0..=40),
            (false, 0) => rng.gen_range(5..=200),
            _ => rng.gen_range(0..=4),
        });
        let notes = RunnerNotes {
            ms,
            ..RunnerNotes::default()
        };
        m.step(&[(seat, Answer::Lines(vec![dir.name().into()]))], &notes);
    }
    assert_eq!(m.turn(), 1200);
    m.replay_json()
}

/// Sizes of a full 1,200-move game's stored replay, gzipped, against the gzipped JSON
/// log of its 1,201 states (each state's `game` object, one a line), four miners (one
/// move in ten random), flate2's default level. Reply times (`ms`, one per move) are
/// 0–4 ms, one in ten 5–200 ms; "slow" is 0–40 ms uniform; "no ms" the same replay
/// without its reply times (what the original stored: the moves). Measured:
///
/// | map | states | stored | ratio | slow | ratio | no ms | ratio |
/// | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
/// | m1 (10 × 10) | 25,013 B | 1,097 B | 22.8× | 731 B | 34.2× | 725 B | 34.5× |
/// | m3 (20 × 20) | 33,822 B | 1,071 B | 31.6× | 714 B | 47.4× | 708 B | 47.8× |
/// | seed 1 (18 × 18) | 34,789 B | 1,147 B | 30.3× | 778 B | 44.7× | 782 B | 44.5× |
///
/// Only reply times of 50 ms or more are stored (`plugin::KEPT_MS`): one reply in
/// fourteen here ("slow" games, all under 40 ms, store none), which keeps the smallest
/// map (m1) above 20× too; with every reply time stored it was 16×.
#[test]
fn a_stored_replay_is_twenty_times_smaller_than_the_states() {
    for (what, text, at_least) in [
        ("m1", map("m1").to_string(), 20),
        ("m3", map("m3").to_string(), 20),
        ("seed 1", plugin::kind().generate(1, 4).unwrap(), 20),
    ] {
        let json = full_game(&text, false);
        let stored = gzip(json.as_bytes());
        let states = decode(&json).unwrap();
        assert_eq!(states.len(), 1201);
        let log: String = (states.iter())
            .map(|g| format!("{}\n", g.game_json()))
            .collect();
        let full = gzip(log.as_bytes());
        let slow = gzip(full_game(&text, true).as_bytes());
        let mut bare = read(&json).unwrap();
        bare.ms.clear();
        let bare = gzip(serde_json::to_string(&bare).unwrap().as_bytes());
        eprintln!(
            "{what} ({0} × {0}): states {full} B, stored {stored} B, slow {slow} B, no ms {bare} B",
            states[0].board.size()
        );
        assert!(
            full >= at_least * stored,
            "{what}: {stored} B against {full} B"
        );
        assert!(full >= 20 * bare, "{what}: {bare} B against {full} B");
    }
}

/// rules.md §9: a practice game is the original's training, over at its first crash;
/// its replay says so, and reads back (stored, live, log) as the game it was.
#[test]
fn a_training_game_ends_at_its_first_crash() {
    let kind = plugin::kind();
    let mut m = kind.setup_practice(map("m1"), &names(), 40).unwrap();
    let notes = RunnerNotes::default();
    m.step(&[(0, Answer::Lines(vec!["North".into()]))], &notes);
    assert!(!m.is_over());
    m.step(&[(1, Answer::NoReply)], &notes);
    assert!(m.is_over(), "the first crash ends a training game");
    assert_eq!(inner(&*m).game().status, Status::AllCrashed);
    assert_eq!(m.turn(), 2);
    let json = m.replay_json();
    assert!(json.contains(r#""training":true"#), "{json}");
    assert_eq!(decode(&json).unwrap().len(), 3);
    let rows = m.rows_since(0);
    assert_eq!(decode_live(&m.replay_head(), &rows).unwrap().len(), 3);
    let mut log = Vec::new();
    kind.write_log(&json, &mut log).unwrap();
    let log = String::from_utf8(log).unwrap();
    assert_eq!(log.lines().count(), 4, "three states and the winner: {log}");
    assert!(log.lines().nth(2).unwrap().contains(r#""finished":true"#));
    // An arena game goes on past a crash, and its replay is as it always was.
    let mut a = setup(map("m1"), 40);
    a.step(&[(0, Answer::NoReply)], &notes);
    assert!(!a.is_over());
    assert!(!a.replay_json().contains("training"));
}
