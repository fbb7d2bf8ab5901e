//! The game rules of games/bottlebats/rules.md §1–§6, point by point, as tables of small games.
//!
//! Each test builds a tiny map in the text format, plays a few turns through
//! `Game::step` and checks what a player would notice: the state text, fort owners and
//! garrisons, the events of a turn, removals and the final outcome. One module per
//! section of the rules: §1 road lengths (`board`); §2 seats and map marches
//! (`seats`); §3 dispatch order and recruitment (`turn`); §4 timing, battles and
//! merges (`roads`) and sieges (`sieges`); §5 command warnings, clamping and size-0
//! marches (`commands`); §6 defeat, removal, game end and ranks (`end`). The helpers
//! they share are here.

use std::sync::Arc;

use bottlebats::game::{Orders, TurnEvents};
use bottlebats::map::{Map, Owner, Seat};
use bottlebats::Game;

mod board;
mod commands;
mod end;
mod roads;
mod seats;
mod sieges;
mod turn;

/// A game on `map_text` (the map text format) with these players, 500 turns at most.
fn game(map_text: &str, players: &[&str]) -> Game {
    game_with_max_steps(map_text, players, 500)
}

fn game_with_max_steps(map_text: &str, players: &[&str], max_steps: u32) -> Game {
    let map =
        Map::parse(map_text).unwrap_or_else(|e| panic!("test map does not parse: {e}\n{map_text}"));
    let players: Vec<String> = players.iter().map(|p| p.to_string()).collect();
    Game::new(Arc::new(map), &players, max_steps).expect("the players fit the map")
}

/// Orders made of these command lines.
fn cmds(lines: &[&str]) -> Orders {
    Orders::Commands(lines.iter().map(|l| l.to_string()).collect())
}

/// Plays one turn in which player i sends the lines `per_player[i]`.
fn play(game: &mut Game, per_player: &[&[&str]]) -> TurnEvents {
    let orders: Vec<Orders> = per_player.iter().map(|lines| cmds(lines)).collect();
    game.step(&orders)
}

/// Plays `turns` turns in which nobody sends anything.
fn idle(game: &mut Game, turns: u32) {
    for _ in 0..turns {
        game.step(&[]);
    }
}

/// The full board as the classic log prints it.
fn full(game: &Game) -> String {
    let mut out = String::new();
    game.snapshot().write(None, &mut out);
    out
}

/// The march lines of the full board.
fn marches(game: &Game) -> Vec<String> {
    let text = full(game);
    let mut lines = text.lines().skip_while(|l| !l.ends_with("marches:"));
    lines.next();
    lines.map(str::to_string).collect()
}

/// The owner's name and the garrison of a fort.
fn fort(game: &Game, name: &str) -> (String, u64) {
    let id = game
        .map()
        .fort_id(name)
        .unwrap_or_else(|| panic!("no fort {name}"));
    (
        game.owner_name(game.owners()[id.0]).to_string(),
        game.garrisons()[id.0],
    )
}

fn owned(owner: &str, garrison: u64) -> (String, u64) {
    (owner.to_string(), garrison)
}

fn seat(name: &str, game: &Game) -> Owner {
    let i = game
        .names()
        .iter()
        .position(|n| n == name)
        .expect("a player");
    Owner::Seat(Seat(i))
}

/// The turn each player was removed in, `None` for those still playing.
fn removed_turns(game: &Game) -> Vec<Option<u32>> {
    game.players()
        .iter()
        .map(|p| p.removed.as_ref().map(|(t, _)| *t))
        .collect()
}

fn strings(lines: &[&str]) -> Vec<String> {
    lines.iter().map(|l| l.to_string()).collect()
}

/// Forts A (p, 20) and B (`b_owner`, 20) joined by a road of `length`, and a fort Z of
/// q with no road (so q stays in the game without taking part).
fn two_forts(length: u32, b_owner: &str) -> String {
    format!(
        "3 forts:\nA 0 0 p 20\nB {length} 0 {b_owner} 20\nZ 99 99 q 1\n1 roads:\nA B\n0 marches:\n"
    )
}
