//! Bottle Bats through the runner, read back in the engine's own types: the match of
//! the local tool's 2016 path, the runner's tests and the benches. The one module of
//! the runner that names a game (`runner::tests` hold it so): the rest plays any game
//! through the game interface.

use std::sync::Arc;

use engine::game::{Game, Outcome};
use engine::map::Map;
use engine::plugin::BottleBatsMatch;
use engine::replay::Replay;
use game_interface::{Framing, Match, SetupError};

use crate::matches::{run_game, MatchConfig, PlayerReport, RunError};
use crate::process::{BotSpec, Launcher};

/// A played match.
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
        Game::new(map, &names, config.max_steps).map_err(|e| SetupError::Players(e.to_string()))?;
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
