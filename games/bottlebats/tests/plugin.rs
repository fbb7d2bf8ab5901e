//! Bottle Bats through the game interface (`bottlebats::plugin`): whole games played through
//! trait objects from a registry give, byte for byte, what the engine gives when the same
//! game is played directly as the runner plays it (`Game::step`, the runner's events
//! merged into a `Replay`, `replay_v2::encode`), and the live rows are the stored
//! replay's rows.

use std::sync::Arc;

use bottlebats::game::{Game, Orders};
use bottlebats::map::{Map, Seat};
use bottlebats::replay::{Events, Replay};
use game_interface::{Answer, Count, Framing, Match, Registry, RunnerNotes, SetupError};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn registry() -> Registry {
    Registry::new(bottlebats::plugin::kind())
}

fn shipped(file: &str) -> String {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../maps/bottlebats");
    std::fs::read_to_string(dir.join(file)).unwrap()
}

/// How a scripted player plays.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Style {
    /// Random marches from its forts, now and then a bad line (a warning).
    Random,
    /// Half of every fort of 10 or more to its weakest neighbour it does not own.
    Greedy,
    /// Nothing.
    Idle,
    /// Random, but as the runner sees bots misbehave: bad lines in turns 5 to 7, no
    /// reply in turns 8 and 9, a fatal error in turn 30.
    Troubled,
}

/// What a player reads of its view: the forts (name, owner, garrison) and the roads
/// it sees.
struct View {
    forts: Vec<(String, String, u64)>,
    roads: Vec<(usize, usize)>,
}

impl View {
    /// Reads the forts and roads sections of a view (`N forts:`, then `N roads:`).
    fn read(text: &str) -> View {
        let mut lines = text.lines();
        let mut section = || -> Vec<Vec<String>> {
            let header = lines.next().expect("a header");
            let Some(Count::Exactly(n)) = game_interface::parse_header(header) else {
                panic!("a counted header, not `{header}`");
            };
            let mut entry = || lines.next().unwrap().split(' ').map(String::from).collect();
            (0..n).map(|_| entry()).collect()
        };
        let forts: Vec<_> = (section().into_iter())
            .map(|f| (f[0].clone(), f[3].clone(), f[4].parse().unwrap()))
            .collect();
        let index = |name: &str| forts.iter().position(|f| f.0 == name).unwrap();
        let roads = (section().into_iter())
            .map(|r| (index(&r[0]), index(&r[1])))
            .collect();
        View { forts, roads }
    }
}

/// A player that sees only its view, the text the match sends it.
struct Player {
    name: String,
    style: Style,
    rng: ChaCha8Rng,
}

impl Player {
    fn new(name: &str, style: Style, seed: u64) -> Player {
        Player {
            name: name.to_string(),
            style,
            rng: ChaCha8Rng::seed_from_u64(
                seed ^ (name.bytes().map(u64::from).sum::<u64>())
                    .wrapping_mul(0x9e37_79b9_7f4a_7c15),
            ),
        }
    }

    fn answer(&mut self, view: &[u8], turn: u32) -> Answer {
        match (self.style, turn) {
            (Style::Idle, _) => return Answer::Lines(Vec::new()),
            (Style::Troubled, 5..=7) => return Answer::Lines(vec![format!("nowhere x {turn}")]),
            (Style::Troubled, 8 | 9) => return Answer::NoReply,
            (Style::Troubled, 30) => return Answer::Crashed("invalid reply header `oops`".into()),
            _ => {}
        }
        let view = View::read(std::str::from_utf8(view).unwrap());
        let mut lines = Vec::new();
        for (f, fort) in view.forts.iter().enumerate() {
            if fort.1 != self.name {
                continue;
            }
            let near: Vec<usize> = (view.roads.iter())
                .filter_map(|&(a, b)| (a == f).then_some(b).or((b == f).then_some(a)))
                .collect();
            if let Some(line) = self.march(&view, f, &near) {
                lines.push(line);
            }
        }
        if self.style == Style::Random && self.rng.gen_bool(0.05) {
            lines.push("not a command".into());
        }
        Answer::Lines(lines)
    }

    /// The march of fort `f` this turn, if it sends one.
    fn march(&mut self, view: &View, f: usize, near: &[usize]) -> Option<String> {
        let (fort, garrison) = (&view.forts[f], view.forts[f].2);
        let (to, size) = if self.style == Style::Greedy {
            let to = (near.iter())
                .filter(|&&n| view.forts[n].1 != fort.1)
                .min_by_key(|&&n| view.forts[n].2);
            (*to?, garrison / 2)
        } else {
            if garrison < 4 || near.is_empty() || !self.rng.gen_bool(0.3) {
                return None;
            }
            let to = near[self.rng.gen_range(0..near.len())];
            (to, self.rng.gen_range(garrison / 3..=garrison * 3 / 4))
        };
        (size > 0 || self.style != Style::Greedy)
            .then(|| format!("{} {} {size}", fort.0, view.forts[to].0))
    }
}

/// What the runner would note in turn `t`: times for the seats that answered, and the
/// troubled seat's timeouts and a limit.
fn notes(t: u32, answered: &[usize], seats: usize, troubled: Option<usize>) -> RunnerNotes {
    let mut n = RunnerNotes {
        ms: (0..seats)
            .map(|s| answered.contains(&s).then_some((t * 7 + s as u32) % 23))
            .collect(),
        ..RunnerNotes::default()
    };
    if let Some(p) = troubled.filter(|p| answered.contains(p)) {
        match t {
            8 | 9 => n.timeouts.push(p),
            12 => n.limits.push((p, "hit its limit of 64 processes".into())),
            _ => {}
        }
    }
    n
}

fn orders_of(answer: Answer) -> Orders {
    match answer {
        Answer::Lines(lines) => Orders::Commands(lines),
        Answer::NoReply => Orders::none(),
        Answer::Crashed(why) => Orders::Fatal(why),
    }
}

/// The runner's `note_late_limits`: a limit filed with the last turn played.
fn note_late(replay: &mut Replay, seat: usize, text: &str) {
    let played = replay.turns.len().saturating_sub(2);
    if let Some(turn) = replay.turns.get_mut(played) {
        turn.events.limits.push((seat, text.to_string()));
    }
}

/// The engine's side of a game: the game, its replay and its players.
struct Direct {
    game: Game,
    replay: Replay,
    players: Vec<Player>,
}

/// Plays one turn directly, as the runner's `play_turn` does.
fn direct_turn(d: &mut Direct, notes: &RunnerNotes) -> bottlebats::TurnEvents {
    let t = d.game.turn();
    let mut orders = vec![Orders::none(); d.players.len()];
    for s in d.game.active_players().map(|s| s.0).collect::<Vec<_>>() {
        let view = d.game.state_for(Seat(s));
        orders[s] = orders_of(d.players[s].answer(view.as_bytes(), t));
    }
    let played = d.game.step(&orders);
    let events = Events {
        timeouts: notes.timeouts.clone(),
        limits: notes.limits.clone(),
        ms: notes.ms.clone(),
        ..Events::of(&played)
    };
    d.replay.push(events, &d.game);
    played
}

/// Plays `map_text` both ways in lockstep and checks every turn and the end; the
/// engine's replay, to see what the game held.
fn same_game(label: &str, map_text: &str, styles: &[Style], max: u32, seed: u64) -> Replay {
    let names: Vec<String> = (1..=styles.len()).map(|i| format!("bot{i}")).collect();
    let make = || -> Vec<Player> {
        (names.iter().zip(styles))
            .map(|(n, &st)| Player::new(n, st, seed))
            .collect()
    };
    let troubled = styles.iter().position(|&s| s == Style::Troubled);
    let registry = registry();
    let kind = registry.get("bottlebats").unwrap();
    let mut m = kind.setup(map_text, &names, max).unwrap();
    let map = Arc::new(Map::parse(map_text).unwrap());
    let game = Game::new(map, &names, max).unwrap();
    let replay = Replay::start(&game);
    let mut d = Direct {
        game,
        replay,
        players: make(),
    };
    let mut players = make();
    let mut streamed: Vec<String> = Vec::new();
    while !d.game.is_over() {
        let t = d.game.turn();
        assert!(!m.is_over(), "{label} turn {t}");
        assert_eq!(m.turn(), t, "{label}");
        // What a live viewer is sent before the turn.
        streamed.extend(m.rows_since(streamed.len()));
        let awaited = m.to_answer();
        let active: Vec<usize> = d.game.active_players().map(|s| s.0).collect();
        assert_eq!(awaited, active, "{label} turn {t}");
        let answers: Vec<(usize, Answer)> = (awaited.iter())
            .map(|&s| {
                let view = m.view(s);
                assert_eq!(
                    view,
                    d.game.state_for(Seat(s)).into_bytes(),
                    "{label} turn {t}"
                );
                (s, players[s].answer(&view, t))
            })
            .collect();
        let notes = notes(t, &awaited, names.len(), troubled);
        let report = m.step(&answers, &notes);
        let played = direct_turn(&mut d, &notes);
        let warnings: Vec<(usize, String)> = played
            .warnings
            .iter()
            .map(|(s, w)| (s.0, w.clone()))
            .collect();
        assert_eq!(report.warnings, warnings, "{label} turn {t}");
        let removed: Vec<usize> = played.removals.iter().map(|r| r.0 .0).collect();
        let reported: Vec<usize> = report.removals.iter().map(|r| r.0).collect();
        assert_eq!(reported, removed, "{label} turn {t}");
        if let Some(p) = troubled.filter(|_| t == 31) {
            m.note_late_limit(p, "hit its memory limit while ended".into());
            note_late(&mut d.replay, p, "hit its memory limit while ended");
        }
    }
    assert!(m.is_over() && m.to_answer().is_empty(), "{label}");
    m.note_late_limit(0, "hit its limit of 64 processes".into());
    note_late(&mut d.replay, 0, "hit its limit of 64 processes");
    streamed.extend(m.rows_since(streamed.len()));
    let outcome = d.game.outcome();
    d.replay.finish(&d.game, &outcome);
    the_end_is_the_engines(label, m.as_ref(), &d, &streamed);
    d.replay
}

/// The outcome, statistics, warnings, stored replay and rows of `m` are the engine's.
fn the_end_is_the_engines(label: &str, m: &dyn Match, d: &Direct, streamed: &[String]) {
    let outcome = d.game.outcome();
    assert_eq!(m.outcome().ranks, outcome.ranks, "{label}");
    assert_eq!(m.outcome().winner(), outcome.winner.map(|s| s.0), "{label}");
    let stats: Vec<Vec<(&str, i64)>> = (d.game.holdings().into_iter())
        .map(|(f, s)| vec![("forts", f as i64), ("soldiers", s as i64)])
        .collect();
    assert_eq!(m.stats(), stats, "{label}");
    let warnings: Vec<u64> = d.game.players().iter().map(|p| p.warnings).collect();
    assert_eq!(m.warnings(), warnings, "{label}");
    assert_eq!(m.seats(), d.players.len(), "{label}");
    let compact = bottlebats::replay_v2::encode(&d.replay);
    let stored = m.replay_json();
    assert!(
        stored == compact.to_json(),
        "{label}: the stored replay differs"
    );
    let rows: Vec<String> = (compact.turns.iter())
        .map(|r| serde_json::to_string(r).unwrap())
        .collect();
    assert_eq!(m.rows_since(0), rows, "{label}");
    assert_eq!(
        streamed, rows,
        "{label}: the rows streamed as the game went"
    );
    assert_eq!(
        m.rows_since(rows.len() - 1),
        rows[rows.len() - 1..],
        "{label}"
    );
    assert!(m.rows_since(rows.len() + 5).is_empty(), "{label}");
    // The head is the stored replay without its turns and result.
    let mut whole: serde_json::Value = serde_json::from_str(&stored).unwrap();
    let obj = whole.as_object_mut().unwrap();
    obj.remove("turns");
    obj.remove("result");
    assert_eq!(m.replay_head(), whole.to_string(), "{label}");
}

#[test]
fn games_on_shipped_maps_are_the_engines_byte_for_byte() {
    use Style::*;
    let games: &[(&str, &[Style], u32)] = &[
        ("duel-2p.map", &[Random, Random], 300),
        ("duel-2p.map", &[Random, Troubled], 100),
        ("duel-2p.map", &[Greedy, Idle], 200),
        ("triad-3p.map", &[Random, Greedy, Troubled], 120),
        ("quad-4p.map", &[Greedy, Random, Idle, Random], 100),
        ("octo-8p.map", &[Random; 8], 60),
        ("spiral-3p.map", &[Troubled, Random, Greedy], 80),
    ];
    let replays: Vec<Replay> = (games.iter().enumerate())
        .map(|(i, (file, styles, max))| {
            let label = format!("{file} {styles:?}");
            same_game(&label, &shipped(file), styles, *max, i as u64)
        })
        .collect();
    // The games held what is to be compared: a keyframe after the first, warnings,
    // timeouts, limits, a bot removed by its error and one defeated.
    let events = || replays.iter().flat_map(|r| &r.turns).map(|t| &t.events);
    let longest = replays.iter().map(|r| r.turns.len()).max().unwrap();
    assert!(longest > bottlebats::replay_v2::KEYFRAME_EVERY + 1);
    assert!(events().any(|e| !e.warnings.is_empty() && !e.sends.is_empty()));
    assert!(events().any(|e| !e.timeouts.is_empty()));
    assert!(events().filter(|e| !e.limits.is_empty()).count() > replays.len());
    let removals: Vec<&str> = events()
        .flat_map(|e| &e.removed)
        .map(|r| r.1.as_str())
        .collect();
    assert!(
        removals.contains(&bottlebats::replay::DEFEATED),
        "{removals:?}"
    );
    assert!(
        removals.contains(&"invalid reply header `oops`"),
        "{removals:?}"
    );
}

#[test]
fn games_on_generated_maps_are_the_engines_byte_for_byte() {
    let kind = bottlebats::plugin::kind();
    for (seed, seats) in [(1, 2), (2, 3), (3, 5), (4, 6)] {
        let text = kind.generate(seed, seats).unwrap();
        let opts = bottlebats::generate::GenerateOptions {
            players: seats,
            seed,
            forts: None,
        };
        assert_eq!(
            text,
            bottlebats::generate::generate(&opts).unwrap().to_text()
        );
        let mut styles = vec![Style::Random; seats];
        styles[seats - 1] = Style::Troubled;
        same_game(&format!("generated {seed}"), &text, &styles, 70, seed);
    }
    assert!(kind.generate(1, 9).is_err());
    assert!(kind.generate(1, 1).is_err());
}

#[test]
fn a_game_over_before_it_starts_is_the_engines_too() {
    let text = shipped("duel-2p.map");
    let names = vec!["solo".to_string()];
    let m = registry().default_kind().setup(&text, &names, 500).unwrap();
    assert!(m.is_over() && m.to_answer().is_empty());
    let game = Game::new(Arc::new(Map::parse(&text).unwrap()), &names, 500).unwrap();
    let mut replay = Replay::start(&game);
    replay.finish(&game, &game.outcome());
    let d = Direct {
        game,
        replay,
        players: vec![Player::new("solo", Style::Idle, 0)],
    };
    the_end_is_the_engines("solo", m.as_ref(), &d, &m.rows_since(0));
}

#[test]
fn a_match_that_is_over_plays_no_more() {
    let text = shipped("ring-2p.map");
    let names = vec!["a".to_string(), "b".to_string()];
    let mut m = bottlebats::plugin::kind().setup(&text, &names, 3).unwrap();
    let none = RunnerNotes::default();
    while !m.is_over() {
        let answers: Vec<(usize, Answer)> = (m.to_answer().into_iter())
            .map(|s| (s, Answer::NoReply))
            .collect();
        assert_eq!(answers.len(), 2);
        m.step(&answers, &none);
    }
    assert_eq!(m.turn(), 3);
    let stored = m.replay_json();
    let report = m.step(&[(0, Answer::Crashed("late".into()))], &none);
    assert_eq!(report, Default::default());
    assert_eq!((m.turn(), m.replay_json()), (3, stored));
    assert_eq!(m.outcome().ranks, [1, 1], "a draw at the turn limit");
}

#[test]
fn answers_of_seats_not_awaited_are_ignored() {
    let text = shipped("triad-3p.map");
    let names: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
    let none = RunnerNotes::default();
    let start = || {
        let mut m = bottlebats::plugin::kind().setup(&text, &names, 50).unwrap();
        let r = m.step(&[(2, Answer::Crashed("gone".into()))], &none);
        assert_eq!(r.removals, [(2, "gone".to_string())]);
        assert_eq!(m.to_answer(), [0, 1]);
        m
    };
    let mut quiet = start();
    quiet.step(&[], &none);
    // Seat 2 is out and there is no seat 9: their answers are dropped.
    let mut noisy = start();
    let bad = Answer::Lines(vec!["not a command".into()]);
    let r = noisy.step(&[(2, bad.clone()), (9, bad)], &none);
    assert!(r.warnings.is_empty() && r.removals.is_empty());
    assert_eq!(noisy.replay_json(), quiet.replay_json());
    assert_eq!(noisy.warnings(), [0, 0, 0]);
    // Seat 0 gives no answer: none, as a reply of no lines.
    assert!(!noisy.is_over());
    assert_eq!(noisy.outcome().ranks, [1, 1, 3]);
    assert_eq!(noisy.outcome().winner(), None);
}

#[test]
fn the_kind_describes_bottle_bats_and_its_maps() {
    let registry = registry();
    assert_eq!(registry.default_name(), "bottlebats");
    let kind = registry.get("bottlebats").unwrap();
    assert_eq!((kind.name(), kind.title()), ("bottlebats", "Bottle Bats"));
    assert_eq!(kind.framing(), Framing::Counted);
    let d = kind.defaults();
    assert_eq!((d.seats, d.max_turns), ((2, 8), 500));
    assert!(d.first_reply_time > d.turn_time);
    for file in ["duel-2p.map", "hex-6p.map", "octo-8p.map", "star-5p.map"] {
        let text = shipped(file);
        let map = Map::parse(&text).unwrap();
        let info = kind.map_info(&text).unwrap();
        assert_eq!(info.seats, map.seats.len(), "{file}");
        let want = vec![
            ("forts", map.forts.len() as i64),
            ("roads", map.roads.len() as i64),
        ];
        assert_eq!(info.numbers, want, "{file}");
    }
}

#[test]
fn setup_refuses_bad_maps_and_players_with_the_engines_words() {
    let kind = bottlebats::plugin::kind();
    let text = shipped("duel-2p.map");
    let names = |n: &[&str]| -> Vec<String> { n.iter().map(|s| s.to_string()).collect() };
    let bad_map = "2 forts:\na 0 0 p 1\n0 roads:\n0 marches:\n";
    let want = Map::parse(bad_map).unwrap_err().to_string();
    match kind.setup(bad_map, &names(&["a"]), 10).err() {
        Some(SetupError::Map(why)) => assert_eq!(why, want),
        other => panic!("{other:?}"),
    }
    assert!(matches!(kind.map_info(bad_map), Err(SetupError::Map(_))));
    for players in [
        &["a", "b", "c"][..],
        &["a", "a"],
        &["a", "neutral"],
        &["a b"],
    ] {
        let err = kind.setup(&text, &names(players), 10).err();
        assert!(matches!(err, Some(SetupError::Players(_))), "{players:?}");
    }
    let err = kind.setup(&text, &names(&["x", "x"]), 10).err().unwrap();
    assert_eq!(err.to_string(), "two players are called `x`");
}
