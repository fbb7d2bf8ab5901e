//! Bottle Bats as a game of the game interface (crate `game_interface`): the
//! [`GameKind`] [`BottleBats`] and its [`Match`], [`BottleBatsMatch`], over the engine's
//! own types and without changing them.
//!
//! A match plays as the runner plays one today: replies become [`Orders`]
//! ([`Answer::Lines`] the commands, [`Answer::NoReply`] none, [`Answer::Crashed`] a
//! fatal error), [`Game::step`] plays them, and the turn's events, with the runner's
//! notes merged in (timeouts, limits, times), go to a v1 [`Replay`]. The stored form is
//! that replay's compact form ([`replay_v2::encode`]); the live rows are the
//! [`Encoder`]'s, written as the turns are played, as the server's live watcher writes
//! them.

use std::sync::Arc;
use std::time::Duration;

use game_interface::problems::Problem;
use game_interface::{
    number, Answer, Defaults, Description, Framing, GameKind, GenerateError, LogFormat, MapInfo,
    Maps, Match, Numbers, Order, Outcome, RunnerNotes, Seat, SetupError, Smoke, StepReport, Stream,
    Word,
};

use crate::game::{Game, Orders};
use crate::generate::{generate, GenerateOptions, PLAYERS};
use crate::map::{self, Map};
use crate::problems;
use crate::replay::{reason_text, Events, Replay};
use crate::replay_v2::{self, Encoder, Row, KEYFRAME_EVERY};

/// The game's name in the registry and in stored rows.
pub const NAME: &str = "bottlebats";

/// Bottle Bats, the game: simultaneous moves, fog of war, counted replies.
#[derive(Clone, Copy, Debug, Default)]
pub struct BottleBats;

/// The game, boxed for a registry.
pub fn kind() -> Box<dyn GameKind> {
    Box::new(BottleBats)
}

fn parse(map_text: &str) -> Result<Map, SetupError> {
    Map::parse(map_text).map_err(|e| SetupError::Map(e.to_string()))
}

/// Bottle Bats on a site.
pub static DESCRIPTION: Description = Description {
    name: NAME,
    title: "Bottle Bats",
    tagline: "Write a bot. Take the forts.",
    summary: "Forts stand on a map joined by roads; every turn your bot reads what it can see \
        and sends its soldiers marching. Armies fight where they meet, sieges decide who holds \
        a fort, and the last player standing wins. 2 to 8 players move at once, with fog of \
        war; a bot reads the forts it sees on stdin and writes marches on stdout, as in Zeus \
        WPI's 2016 contest.",
    framing: Framing::Counted,
    order: Order::Simultaneous,
    turn: Word {
        one: "turn",
        many: "turns",
    },
    // The runner's defaults of 2016, seats as generated maps.
    defaults: Defaults {
        seats: (*PLAYERS.start(), *PLAYERS.end()),
        turn_time: Duration::from_millis(2000),
        first_reply_time: Duration::from_millis(10_000),
        max_turns: 500,
    },
    stats: &["forts", "soldiers"],
    replay_format: crate::replay::FORMAT,
    log: LogFormat {
        title: "Classic log (2016)",
        extension: "log",
    },
    maps: Maps::Files { extension: "map" },
    smoke: Smoke {
        map: "ring-2p",
        opponents: &["random"],
    },
    house_prefix: "",
    time_rule: "§7",
};

impl GameKind for BottleBats {
    fn describe(&self) -> &'static Description {
        &DESCRIPTION
    }

    fn map_info(&self, map_text: &str) -> Result<MapInfo, SetupError> {
        let map = parse(map_text)?;
        Ok(MapInfo {
            seats: map.seats.len(),
            numbers: vec![
                ("forts", number(map.forts.len())),
                ("roads", number(map.roads.len())),
            ],
            notes: map_notes(&map),
        })
    }

    fn setup(
        &self,
        map_text: &str,
        players: &[String],
        max_turns: u32,
    ) -> Result<Box<dyn Match>, SetupError> {
        let map = bind_by_name(parse(map_text)?, players)?;
        let game = Game::new(Arc::new(map), players, max_turns)
            .map_err(|e| SetupError::Players(e.to_string()))?;
        Ok(Box::new(BottleBatsMatch::new(game)))
    }

    /// The classic log of 2016, a board at a time ([`crate::replay_v2::write_classic_log`]).
    fn write_log(
        &self,
        replay_json: &str,
        mut out: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        crate::replay_v2::write_classic_log(replay_json, &mut out)
    }

    fn generate(&self, seed: u64, seats: usize) -> Result<String, GenerateError> {
        self.generate_sized(seed, seats, None)
    }

    /// `size`: the number of forts (a sensible default for the seats when absent).
    fn generate_sized(
        &self,
        seed: u64,
        seats: usize,
        size: Option<usize>,
    ) -> Result<String, GenerateError> {
        let opts = GenerateOptions {
            players: seats,
            seed,
            forts: size,
        };
        generate(&opts)
            .map(|m| m.to_text())
            .map_err(|e| GenerateError(e.to_string()))
    }

    fn stored_stream(&self, replay_json: &str) -> Result<Stream, String> {
        let compact = replay_v2::read_compact(replay_json)?;
        let head = replay_v2::head_json(&compact.map, &compact.players, compact.max_steps);
        let rows = (compact.turns.iter())
            .map(|r| serde_json::to_string(r).map_err(|e| e.to_string()))
            .collect::<Result<_, _>>()?;
        let result = serde_json::to_string(&compact.result).map_err(|e| e.to_string())?;
        Ok(Stream { head, rows, result })
    }

    /// The marches of [`crate::scripted::RandomPlayer`]: part of a garrison along a
    /// random road.
    fn sample_reply(&self, m: &dyn Match, seat: Seat, seed: u64) -> Vec<String> {
        let Some(m) = m.as_any().downcast_ref::<BottleBatsMatch>() else {
            return Vec::new();
        };
        let game = m.game();
        let mut player = crate::scripted::RandomPlayer::new(game.map(), map::Seat(seat), seed);
        player.activity = 0.5;
        match player.orders(game) {
            Orders::Commands(lines) => lines,
            _ => Vec::new(),
        }
    }
}

/// What `bottlebats map check` says of a valid map that is not as the generator makes
/// them: roads that cross, or forts that cannot reach each other.
fn map_notes(map: &Map) -> Vec<String> {
    let mut notes = Vec::new();
    if !crate::geometry::is_connected(map) {
        notes.push("not connected: some forts cannot reach each other".to_string());
    }
    if let Some((a, b)) = crate::geometry::crossing_roads(map) {
        let name = |r: map::RoadId| {
            let road = &map.roads[r.0];
            format!("{}-{}", map.forts[road.a.0].name, map.forts[road.b.0].name)
        };
        notes.push(format!(
            "not planar: road {} crosses road {}",
            name(a),
            name(b)
        ));
    }
    notes
}

/// The map with its seats bound to `players`: by name when every player is one of
/// the map's owners (as the 2016 arbiter bound them, so a config naming the map's
/// owners plays them), else in the listed order.
fn bind_by_name(map: Map, players: &[String]) -> Result<Map, SetupError> {
    if players.len() > map.seats.len() {
        return Err(SetupError::Players(format!(
            "the map has {} seats ({}) but {} players are listed",
            map.seats.len(),
            map.seats.join(", "),
            players.len()
        )));
    }
    let by_name: Option<Vec<map::Seat>> = (players.iter())
        .map(|name| map.seats.iter().position(|s| s == name).map(map::Seat))
        .collect();
    Ok(match by_name {
        // Distinct seats only: a name given twice is refused by the game.
        Some(order) if (1..order.len()).all(|i| !order[..i].contains(&order[i])) => {
            map.with_seat_order(&order)
        }
        _ => map,
    })
}

/// A Bottle Bats match in progress: the game, its v1 replay and its live rows.
pub struct BottleBatsMatch {
    game: Game,
    replay: Replay,
    encoder: Encoder,
    /// Row `t` of the live stream: board `t`, with the events of the turn before it.
    rows: Vec<Row>,
}

impl BottleBatsMatch {
    /// The match of a game set up and not played yet.
    pub fn new(game: Game) -> BottleBatsMatch {
        let replay = Replay::start(&game);
        let mut encoder = Encoder::new(&replay.map, &replay.players, KEYFRAME_EVERY);
        let first = encoder.row(&replay.turns[0], &Events::default());
        let mut m = BottleBatsMatch {
            game,
            replay,
            encoder,
            rows: vec![first],
        };
        m.finish_if_over();
        m
    }

    /// The game as it stands.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The v1 replay so far (the form the engine works on).
    pub fn replay(&self) -> &Replay {
        &self.replay
    }

    /// Records the result once the game is over, as the runner's `finish` does.
    fn finish_if_over(&mut self) {
        if self.game.is_over() && self.replay.result.is_none() {
            self.replay.finish(&self.game, &self.game.outcome());
        }
    }

    /// One order per seat: the awaited seats' answers, none for everyone else.
    fn orders(&self, answers: &[(Seat, Answer)]) -> Vec<Orders> {
        let awaited = self.to_answer();
        let mut orders = vec![Orders::none(); self.game.players().len()];
        for (seat, answer) in answers {
            if awaited.contains(seat) {
                orders[*seat] = match answer {
                    Answer::Lines(lines) => Orders::Commands(lines.clone()),
                    Answer::NoReply => Orders::none(),
                    Answer::Crashed(why) => Orders::Fatal(why.clone()),
                };
            }
        }
        orders
    }
}

impl Match for BottleBatsMatch {
    fn seats(&self) -> usize {
        self.game.players().len()
    }

    fn turn(&self) -> u32 {
        self.game.turn()
    }

    fn to_answer(&self) -> Vec<Seat> {
        if self.game.is_over() {
            return Vec::new();
        }
        self.game.active_players().map(|s| s.0).collect()
    }

    fn view(&self, seat: Seat) -> Vec<u8> {
        self.game.state_for(map::Seat(seat)).into_bytes()
    }

    fn step(&mut self, answers: &[(Seat, Answer)], notes: &RunnerNotes) -> StepReport {
        if self.game.is_over() {
            return StepReport::default();
        }
        let orders = self.orders(answers);
        let played = self.game.step(&orders);
        // The game's events, and the runner's own (timeouts, limits, times); late
        // replies are not in this game's replay.
        let events = Events {
            timeouts: notes.timeouts.clone(),
            limits: notes.limits.clone(),
            ms: notes.ms.clone(),
            ..Events::of(&played)
        };
        self.replay.push(events, &self.game);
        let t = self.replay.turns.len() - 1;
        let row = self
            .encoder
            .row(&self.replay.turns[t], &self.replay.turns[t - 1].events);
        self.rows.push(row);
        self.finish_if_over();
        StepReport {
            warnings: played
                .warnings
                .iter()
                .map(|(s, w)| (s.0, w.clone()))
                .collect(),
            removals: (played.removals.iter())
                .map(|(s, r)| (s.0, reason_text(r)))
                .collect(),
        }
    }

    /// As the runner's `note_late_limits`: with the events of the last turn played,
    /// and in the row that carries them when it was written already.
    fn note_late_limit(&mut self, seat: Seat, text: String) {
        let played = self.replay.turns.len().saturating_sub(2);
        if let Some(turn) = self.replay.turns.get_mut(played) {
            turn.events.limits.push((seat, text.clone()));
        }
        if let Some(row) = self.rows.get_mut(played + 1) {
            row.e.limits.push((seat, text));
        }
    }

    fn is_over(&self) -> bool {
        self.game.is_over()
    }

    fn outcome(&self) -> Outcome {
        Outcome {
            ranks: self.game.outcome().ranks,
        }
    }

    /// Forts owned and soldiers (garrisons and marches), as `game.holdings()`.
    fn stats(&self) -> Vec<Numbers> {
        (self.game.holdings().into_iter())
            .map(|(forts, soldiers)| vec![("forts", number(forts)), ("soldiers", number(soldiers))])
            .collect()
    }

    fn warnings(&self) -> Vec<u64> {
        self.game.players().iter().map(|p| p.warnings).collect()
    }

    /// As the replay tells them, each warning counted as often as its text happened.
    fn problems(&self, seat: Seat) -> Vec<Problem> {
        let player = &self.game.players()[seat];
        problems::counted(&self.replay, seat, player.warning_counts(), player.warnings)
    }

    fn replay_json(&self) -> String {
        replay_v2::encode(&self.replay).to_json()
    }

    /// The compact replay without its turns and result.
    fn replay_head(&self) -> String {
        let r = &self.replay;
        replay_v2::head_json(&r.map, &r.players, r.max_steps)
    }

    fn rows_since(&self, n: usize) -> Vec<String> {
        (self.rows.iter().skip(n))
            .map(|row| serde_json::to_string(row).expect("a row always serializes"))
            .collect()
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn into_any(self: Box<Self>) -> Box<dyn std::any::Any + Send> {
        self
    }
}

impl BottleBatsMatch {
    /// The game and its v1 replay, once played.
    pub fn into_parts(self) -> (Game, Replay) {
        (self.game, self.replay)
    }
}
