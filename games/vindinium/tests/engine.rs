//! Vindinium played by the runner with real processes (games/vindinium/rules.md §14):
//! the runner plays it through the game interface only (`run_game`), one hero at a
//! time, one line a reply. Fixture bots are modes of `tests/bots/vindinium.py`.

use std::path::PathBuf;
use std::time::Duration;

use engine::process::{BotSpec, LocalLauncher};
use engine::{run_game, GameResult, MatchConfig};
use game_interface::Framing;
use vindinium::plugin::{self, VindiniumMatch};
use vindinium::{Game, ORIGINAL_MAPS};

const NAMES: [&str; 4] = ["ann", "ben", "cat", "dan"];

fn bot() -> String {
    format!(
        "/usr/bin/python3 {}/tests/bots/vindinium.py",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// A fresh working directory for one test.
fn workdir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("vindinium-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Heroes 1 to 4 played by the fixture in `modes`, on m1, for `max_turns` moves.
fn play(test: &str, modes: [&str; 4], max_turns: u32) -> GameResult {
    let dir = workdir(test);
    let specs: Vec<BotSpec> = (NAMES.iter().zip(modes))
        .map(|(name, mode)| BotSpec {
            name: name.to_string(),
            command: format!("{} {mode}", bot()),
            dir: dir.clone(),
        })
        .collect();
    let names: Vec<String> = NAMES.map(String::from).to_vec();
    let kind = plugin::kind();
    let m = kind.setup(ORIGINAL_MAPS[0].1, &names, max_turns).unwrap();
    let config = MatchConfig {
        turn_timeout: Duration::from_millis(1000),
        startup_timeout: Duration::from_millis(5000),
        ..MatchConfig::default()
    };
    run_game(
        m,
        kind.framing(),
        &specs,
        &LocalLauncher,
        &config,
        &mut |_| true,
    )
    .unwrap()
}

fn game(r: &GameResult) -> &Game {
    let m = r.game.as_any().downcast_ref::<VindiniumMatch>().unwrap();
    m.game()
}

/// Statistic `name` of seat `seat`, as the runner reports it.
fn stat(r: &GameResult, seat: usize, name: &str) -> i64 {
    let stats = &r.players[seat].stats;
    stats.iter().find(|(n, _)| *n == name).unwrap().1
}

/// The moves of the stored replay, which must rebuild the game.
fn moves(r: &GameResult) -> Vec<char> {
    let json = r.game.replay_json();
    let states = plugin::decode(&json).unwrap();
    assert_eq!(
        states.last().unwrap(),
        game(r),
        "the replay rebuilds the game"
    );
    assert_eq!(r.game.rows_since(0).len(), states.len());
    plugin::read(&json).unwrap().moves.chars().collect()
}

#[test]
fn four_miners_gain_gold_and_mines() {
    let r = play("miners", ["miner"; 4], 200);
    assert_eq!(plugin::kind().framing(), Framing::Line);
    assert!(r.game.is_over());
    assert_eq!(r.game.turn(), 200);
    let g = game(&r);
    for (seat, p) in r.players.iter().enumerate() {
        assert_eq!(p.name, NAMES[seat]);
        assert!(p.error.is_none(), "{}: {:?}", p.name, p.error);
        assert_eq!((p.timeouts, p.warnings), (0, 0), "{}", p.name);
        let names: Vec<&str> = p.stats.iter().map(|(n, _)| *n).collect();
        assert_eq!(names, ["gold", "mines", "deaths"]);
        let s = g.stats()[seat];
        assert_eq!(stat(&r, seat, "gold"), i64::from(s.gold));
        assert_eq!(stat(&r, seat, "mines"), s.mines as i64);
        assert_eq!(stat(&r, seat, "deaths"), i64::from(s.deaths));
        assert!(s.gold > 0, "{} mined gold", p.name);
        assert!(!g.hero(seat + 1).crashed);
    }
    let mines: i64 = (0..4).map(|s| stat(&r, s, "mines")).sum();
    assert!(mines > 0, "the miners hold mines at the end");
    let ranks: Vec<u32> = r.players.iter().map(|p| p.rank).collect();
    assert_eq!(ranks, g.outcome().ranks.to_vec());
    let m = moves(&r);
    assert_eq!(m.len(), 200);
    assert!(m.iter().all(|c| "nsewx".contains(*c)), "no crash");
}

#[test]
fn a_crashed_hero_stays_until_the_end() {
    // ben's fifth move is turn 17: it exits instead of answering.
    let r = play("crash", ["miner", "crash_at 5", "random", "miner"], 200);
    assert_eq!(r.game.turn(), 200, "the game still reaches max_turns");
    let g = game(&r);
    assert!(g.hero(2).crashed);
    assert!([1, 3, 4].iter().all(|&id| !g.hero(id).crashed));
    let error = r.players[1].error.clone().unwrap_or_default();
    assert!(
        error.contains("exited with status 3"),
        "error was `{error}`"
    );
    assert!(r
        .players
        .iter()
        .enumerate()
        .all(|(i, p)| i == 1 || p.error.is_none()));
    let m = moves(&r);
    assert_eq!(m[17], 'c', "its fifth move is the crash");
    for (t, c) in m.iter().enumerate().skip(18) {
        if t % 4 == 1 {
            assert_eq!(*c, 'x', "move {t}: the crashed hero stays");
        }
    }
    let stored = plugin::read(&r.game.replay_json()).unwrap();
    let note = stored.notes.iter().find(|n| n.t == 18).unwrap();
    assert!(note.notes.crash.as_deref().unwrap().contains("exited"));
}

#[test]
fn a_garbage_bot_gets_a_warning_for_each_answer() {
    let r = play("garbage", ["garbage", "random", "miner", "miner"], 40);
    assert_eq!(r.game.turn(), 40);
    assert_eq!(r.players[0].warnings, 10, "one a move, ten moves");
    assert!(
        r.players[0].error.is_none(),
        "a bad line is a warning, not a crash"
    );
    assert_eq!(r.game.warnings(), vec![10, 0, 0, 0]);
    let rows = r.game.rows_since(1);
    assert_eq!(
        rows[0].split(",\"warning\"").nth(1),
        Some(":\"unknown move `hello`: stayed\"}")
    );
    assert!(moves(&r).iter().step_by(4).all(|c| *c == 'x'));
    assert!(!game(&r).hero(1).crashed);
}

#[test]
fn a_reply_out_of_time_is_a_crash() {
    // cat's third move is turn 10; its reply comes 1.5 s later, past the 1 s limit.
    let r = play("slow", ["miner", "miner", "slow_at 3", "miner"], 60);
    assert_eq!(r.game.turn(), 60);
    assert_eq!(r.players[2].timeouts, 1);
    assert!(r.players[2].error.is_none(), "the runner kept the bot");
    assert!(game(&r).hero(3).crashed, "games/vindinium/rules.md §9");
    let m = moves(&r);
    assert_eq!(m[10], 'c');
    assert!(m.iter().skip(14).step_by(4).all(|c| *c == 'x'));
    let stored = plugin::read(&r.game.replay_json()).unwrap();
    let note = stored.notes.iter().find(|n| n.t == 11).unwrap();
    assert!(note.notes.timeout);
}
