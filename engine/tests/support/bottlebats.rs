//! Bottle Bats through the engine, read back in the Bottle Bats crate's own types, for
//! the engine's tests and benches (which include this file): what they check of a
//! match (the replay's events, the fatal errors' turns) is easiest read there. The
//! engine itself names no game.

use std::sync::Arc;

use bottlebats::game::{Game, Outcome};
use bottlebats::map::Map;
use bottlebats::plugin::BottleBatsMatch;
use bottlebats::replay::Replay;
use game_interface::{Framing, Match, SetupError};

use engine::process::{BotSpec, Launcher};
use engine::{run_game, MatchConfig, PlayerReport, RunError};

/// A played match.
#[allow(dead_code)]
#[derive(Clone, Debug)]
pub struct MatchResult {
    pub replay: Replay,
    pub outcome: Outcome,
    pub players: Vec<PlayerReport>,
}

/// Plays one match of Bottle Bats. `progress` is called with the turn number before
/// each turn and returns false to stop the match there ([`RunError::Cancelled`]).
pub fn run_match(
    map: Arc<Map>,
    specs: &[BotSpec],
    launcher: &dyn Launcher,
    config: &MatchConfig,
    progress: &mut dyn FnMut(u32) -> bool,
) -> Result<MatchResult, RunError> {
    run_match_watched(map, specs, launcher, config, &mut |m| progress(m.turn()))
}

/// [`run_match`], whose `watch` sees the match before every turn (its last board is
/// the state the bots are about to answer; its live rows are what a viewer is sent).
/// The match is played through the game interface ([`run_game`]) as
/// [`BottleBatsMatch`], and its result read back in the engine's types.
pub fn run_match_watched(
    map: Arc<Map>,
    specs: &[BotSpec],
    launcher: &dyn Launcher,
    config: &MatchConfig,
    watch: &mut dyn FnMut(&dyn Match) -> bool,
) -> Result<MatchResult, RunError> {
    let names: Vec<String> = specs.iter().map(|s| s.name.clone()).collect();
    let game =
        Game::new(map, &names, config.max_turns).map_err(|e| SetupError::Players(e.to_string()))?;
    let m = Box::new(BottleBatsMatch::new(game));
    let played = run_game(m, Framing::Counted, specs, launcher, config, watch)?;
    let (game, replay) = played
        .game
        .into_any()
        .downcast::<BottleBatsMatch>()
        .expect("a Bottle Bats match stays one")
        .into_parts();
    let players = (played.players.into_iter().enumerate())
        .map(|(i, mut r)| {
            r.warning_counts = game.players()[i].warning_counts().clone();
            r
        })
        .collect();
    Ok(MatchResult {
        replay,
        outcome: game.outcome(),
        players,
    })
}
