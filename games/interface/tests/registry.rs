//! The registry, and the traits as a second, sequential game sees them: a toy game of
//! taking 1 to 3 stones in turn (the one who takes the last wins), played through
//! trait objects from the registry.

use std::time::Duration;

use game_interface::problems::{Collector, Kind};
use game_interface::{
    Answer, Defaults, Description, DuplicateName, Framing, GameKind, GenerateError, LogFormat,
    MapInfo, Maps, Match, Numbers, Order, Outcome, Registry, RunnerNotes, Seat, SetupError, Smoke,
    StepReport, Stream, Word,
};

/// A game kind that only differs by its name, and a flaw it may have on purpose (for
/// the conformance suite to find).
struct Stones(&'static Description, Flaw);

#[derive(Clone, Copy, PartialEq, Eq)]
enum Flaw {
    None,
    /// Its stored replay forgets the last move.
    ForgetsTheLastMove,
    /// Its problems leave the warnings out.
    HidesWarnings,
}

/// The stones game called `name`.
fn stones(name: &'static str) -> Stones {
    flawed(name, Flaw::None)
}

fn flawed(name: &'static str, flaw: Flaw) -> Stones {
    Stones(
        Box::leak(Box::new(Description {
            name,
            title: "Stones",
            tagline: "Take the last stone.",
            summary: "Two players take 1 to 3 stones in turn; who takes the last wins.",
            framing: Framing::Line,
            order: Order::OneAtATime,
            turn: Word {
                one: "take",
                many: "takes",
            },
            defaults: Defaults {
                seats: (2, 2),
                turn_time: Duration::from_millis(100),
                first_reply_time: Duration::from_secs(1),
                max_turns: 50,
            },
            stats: &["crashed"],
            replay_format: "stones",
            log: LogFormat {
                title: "Moves",
                extension: "txt",
            },
            maps: Maps::Board,
            smoke: Smoke {
                map: "",
                opponents: &["taker"],
            },
            house_prefix: "stones-",
            time_rule: "§1",
        })),
        flaw,
    )
}

/// A match of stones: the pile, whose turn it is, who crashed, the moves so far.
struct Pile {
    stones: u32,
    seats: usize,
    next: Seat,
    crashed: Vec<bool>,
    taken_last: Option<Seat>,
    warnings: Vec<u64>,
    moves: Vec<String>,
    turn: u32,
    max_turns: u32,
    problems: Vec<Vec<(Kind, String, u32)>>,
    flaw: Flaw,
}

impl GameKind for Stones {
    fn describe(&self) -> &'static Description {
        self.0
    }
    fn map_info(&self, map_text: &str) -> Result<MapInfo, SetupError> {
        let stones: i64 = (map_text.trim().parse())
            .map_err(|_| SetupError::Map(format!("`{}` is not a number", map_text.trim())))?;
        Ok(MapInfo {
            seats: 2,
            numbers: vec![("stones", stones)],
            notes: Vec::new(),
        })
    }
    fn setup(
        &self,
        text: &str,
        players: &[String],
        max: u32,
    ) -> Result<Box<dyn Match>, SetupError> {
        let stones = self.map_info(text)?.numbers[0].1 as u32;
        if players.len() != 2 {
            return Err(SetupError::Players("stones is for two".into()));
        }
        Ok(Box::new(Pile {
            stones,
            seats: 2,
            next: 0,
            crashed: vec![false; 2],
            taken_last: None,
            warnings: vec![0; 2],
            moves: Vec::new(),
            turn: 0,
            max_turns: max,
            problems: vec![Vec::new(); 2],
            flaw: self.1,
        }))
    }
    fn generate(&self, seed: u64, seats: usize) -> Result<String, GenerateError> {
        match seats {
            2 => Ok(format!("{}\n", 10 + seed % 20)),
            _ => Err(GenerateError("stones is for two".into())),
        }
    }
    fn stored_stream(&self, replay_json: &str) -> Result<Stream, String> {
        let moves = (replay_json.strip_prefix("{\"moves\":["))
            .and_then(|r| r.strip_suffix("]}"))
            .ok_or("not a replay of stones")?;
        let mut rows = vec!["start".to_string()];
        if !moves.is_empty() {
            let inner = &moves[1..moves.len() - 1];
            rows.extend(inner.split("],[").map(|m| format!("[{m}]")));
        }
        Ok(Stream {
            head: "{}".into(),
            rows,
            result: "null".into(),
        })
    }
    fn sample_reply(&self, _m: &dyn Match, _seat: Seat, seed: u64) -> Vec<String> {
        vec![(1 + seed % 3).to_string()]
    }
    /// A line a move, `SEAT takes N`, read from the replay a move at a time.
    fn write_log(&self, replay: &str, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        let moves = (replay.strip_prefix("{\"moves\":["))
            .and_then(|r| r.strip_suffix("]}"))
            .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidData, "no moves"))?;
        for m in moves.split("],").filter(|m| !m.is_empty()) {
            let (seat, take) = (m.trim_matches(['[', ']']).split_once(','))
                .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidData, m))?;
            writeln!(out, "{seat} takes {take}")?;
        }
        Ok(())
    }
}

impl Match for Pile {
    fn seats(&self) -> usize {
        self.seats
    }
    fn turn(&self) -> u32 {
        self.turn
    }
    fn to_answer(&self) -> Vec<Seat> {
        if self.is_over() {
            return vec![];
        }
        vec![self.next]
    }
    fn view(&self, _seat: Seat) -> Vec<u8> {
        format!("{{\"stones\":{}}}\n", self.stones).into_bytes()
    }
    fn step(&mut self, answers: &[(Seat, Answer)], _notes: &RunnerNotes) -> StepReport {
        let mut report = StepReport::default();
        if self.is_over() {
            return report;
        }
        let seat = self.next;
        let answer = answers.iter().find(|(s, _)| *s == seat).map(|(_, a)| a);
        let take = match answer {
            _ if self.crashed[seat] => 1,
            Some(Answer::Lines(lines)) => match lines.first().map(|l| l.parse::<u32>()) {
                Some(Ok(n @ 1..=3)) => n,
                _ => {
                    let text = format!("`{}` is not 1 to 3", lines.first().map_or("", |l| l));
                    self.warnings[seat] += 1;
                    self.problems[seat].push((Kind::Warning, text.clone(), self.turn));
                    report.warnings.push((seat, text));
                    1
                }
            },
            Some(Answer::Crashed(_)) => {
                self.crashed[seat] = true;
                1
            }
            Some(Answer::NoReply) | None => {
                if _notes.timeouts.contains(&seat) {
                    self.problems[seat].push((Kind::Timeout, "too late".into(), self.turn));
                }
                1
            }
        };
        let take = take.min(self.stones);
        self.stones -= take;
        if self.stones == 0 {
            self.taken_last = Some(seat);
        }
        self.moves.push(format!("[{seat},{take}]"));
        self.next = 1 - seat;
        self.turn += 1;
        report
    }
    fn note_late_limit(&mut self, _seat: Seat, _text: String) {}
    fn problems(&self, seat: Seat) -> Vec<game_interface::problems::Problem> {
        let mut c = Collector::default();
        for (kind, text, turn) in &self.problems[seat] {
            if !(self.flaw == Flaw::HidesWarnings && *kind == Kind::Warning) {
                c.add(*kind, text, *turn);
            }
        }
        c.finish()
    }
    fn is_over(&self) -> bool {
        self.stones == 0 || self.turn >= self.max_turns
    }
    fn outcome(&self) -> Outcome {
        let ranks = match self.taken_last {
            Some(w) => (0..2).map(|s| if s == w { 1 } else { 2 }).collect(),
            None => vec![1, 1],
        };
        Outcome { ranks }
    }
    fn stats(&self) -> Vec<Numbers> {
        (0..2)
            .map(|s| vec![("crashed", i64::from(self.crashed[s]))])
            .collect()
    }
    fn warnings(&self) -> Vec<u64> {
        self.warnings.clone()
    }
    fn replay_json(&self) -> String {
        let kept = match self.flaw {
            Flaw::ForgetsTheLastMove if self.is_over() => &self.moves[..self.moves.len() - 1],
            _ => &self.moves[..],
        };
        format!("{{\"moves\":[{}]}}", kept.join(","))
    }
    fn replay_head(&self) -> String {
        "{}".into()
    }
    fn rows_since(&self, n: usize) -> Vec<String> {
        let start = std::iter::once("start".to_string());
        start.chain(self.moves.iter().cloned()).skip(n).collect()
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn into_any(self: Box<Self>) -> Box<dyn std::any::Any + Send> {
        self
    }
}

fn assert_shared<T: Send + Sync + ?Sized>() {}
fn assert_send<T: Send + ?Sized>() {}

#[test]
fn the_registry_finds_games_by_name_and_knows_the_default() {
    assert_shared::<Registry>();
    assert_shared::<dyn GameKind>();
    assert_send::<dyn Match>();
    let mut r = Registry::new(Box::new(stones("stones")));
    assert_eq!(r.default_name(), "stones");
    assert_eq!(r.default_kind().name(), "stones");
    assert_eq!(r.add(Box::new(stones("pebbles"))), Ok(()));
    assert_eq!(
        r.add(Box::new(stones("stones"))),
        Err(DuplicateName("stones"))
    );
    assert_eq!(
        DuplicateName("stones").to_string(),
        "two games are called `stones`"
    );
    assert_eq!(r.names(), ["stones", "pebbles"]);
    assert_eq!(r.get("pebbles").map(|k| k.name()), Some("pebbles"));
    assert!(r.get("chess").is_none());
    assert!(r.get("").is_none());
    assert_eq!(r.default_name(), "stones", "adding keeps the default");
}

#[test]
fn a_sequential_game_plays_one_seat_at_a_time_through_the_registry() {
    let r = Registry::new(Box::new(stones("stones")));
    let kind = r.get("stones").unwrap();
    let map = kind.generate(0, 2).unwrap();
    assert_eq!(kind.map_info(&map).unwrap().numbers, vec![("stones", 10)]);
    assert!(kind.generate(0, 3).is_err());
    let players = ["a".to_string(), "b".to_string()];
    assert!(matches!(
        kind.setup("x", &players, 50),
        Err(SetupError::Map(_))
    ));
    let mut m = kind.setup(&map, &players, 50).unwrap();
    let notes = RunnerNotes::default();
    let mut seen = Vec::new();
    while !m.is_over() {
        let who = m.to_answer();
        assert_eq!(who.len(), 1, "one seat answers a turn");
        seen.push(who[0]);
        let answer = match m.turn() {
            0 => Answer::Lines(vec!["Stay".into()]),
            1 => Answer::Crashed("its output ended".into()),
            _ => Answer::Lines(vec!["3".into()]),
        };
        let report = m.step(&[(who[0], answer)], &notes);
        assert_eq!(report.warnings.len(), usize::from(m.turn() == 1));
    }
    // 10 stones: a takes 1 (a warning), b crashed takes 1, a 3, b 1, a 3, b 1.
    assert_eq!(seen, [0, 1, 0, 1, 0, 1]);
    assert_eq!(
        m.replay_json(),
        "{\"moves\":[[0,1],[1,1],[0,3],[1,1],[0,3],[1,1]]}"
    );
    assert_eq!(m.rows_since(5), ["[0,3]", "[1,1]"]);
    let mut log = Vec::new();
    kind.write_log(&m.replay_json(), &mut log).unwrap();
    assert_eq!(
        String::from_utf8(log).unwrap(),
        "0 takes 1\n1 takes 1\n0 takes 3\n1 takes 1\n0 takes 3\n1 takes 1\n"
    );
    assert_eq!(m.outcome().ranks, [2, 1]);
    assert_eq!(m.outcome().winner(), Some(1));
    assert_eq!(m.warnings(), [1, 0]);
    assert_eq!(m.stats()[1], vec![("crashed", 1)]);
    assert!(m.to_answer().is_empty());
    let before = m.replay_json();
    assert_eq!(
        m.step(&[(0, Answer::NoReply)], &notes),
        StepReport::default()
    );
    assert_eq!(m.replay_json(), before, "a match that is over stays over");
}

#[test]
fn a_winner_is_the_one_seat_ranked_first() {
    for (ranks, winner) in [
        (vec![1, 2], Some(0)),
        (vec![2, 1, 3], Some(1)),
        (vec![1, 1], None),
        (vec![], None),
        (vec![2, 2], None),
    ] {
        assert_eq!(
            Outcome {
                ranks: ranks.clone()
            }
            .winner(),
            winner,
            "{ranks:?}"
        );
    }
}

#[test]
fn setup_errors_say_what_is_wrong() {
    assert_eq!(
        SetupError::Map("line 3: unknown fort `x`".into()).to_string(),
        "invalid map: line 3: unknown fort `x`"
    );
    assert_eq!(
        SetupError::Players("two players are called `a`".into()).to_string(),
        "two players are called `a`"
    );
    assert_eq!(GenerateError("no".into()).to_string(), "no");
}

#[test]
fn the_conformance_suite_passes_a_sound_game_and_names_what_a_flawed_one_breaks() {
    let report = game_interface::conformance::check(&stones("stones"), 20, 1).unwrap();
    assert_eq!(report.matches, 20);
    assert!(report.turns >= 20 * 4, "{report:?}");
    let e = game_interface::conformance::check(&flawed("stones", Flaw::ForgetsTheLastMove), 5, 1)
        .unwrap_err();
    assert!(e.contains("is not the stored replay's"), "{e}");
    let e = game_interface::conformance::check(&flawed("stones", Flaw::HidesWarnings), 20, 1)
        .unwrap_err();
    assert!(e.contains("has no warning problem"), "{e}");
}
