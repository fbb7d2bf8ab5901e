//! The rules of games/vindinium/rules.md, point by point, as tables of small boards.
//!
//! A case draws a board in the original map format (two characters a square, `@N`
//! where hero N stands, `$N` a mine of hero N), sets some heroes' life and gold, plays
//! answers from a given hero on (each answer read as a bot's, `CRASH` for a crashed
//! bot), and gives the board afterwards (heroes drawn on it, as bots see it) with the
//! life and gold of heroes 1 to 4. Every hero respawns at hero 1's start square
//! mirrored (§3), so where `@1` is drawn decides all spawn squares.
//!
//! One module per family: `movement` (§1, §4), `taverns` (§5), `mines` (§6), `fights`
//! (§7), `respawn` (§3), `upkeep` (§8), `crash` (§9), `end` (§10, §11).

use vindinium::{Dir, Game, HeroId, Map, Move, DEFAULT_MAX_TURNS};

mod crash;
mod end;
mod fights;
mod mines;
mod movement;
mod respawn;
mod taverns;
mod upkeep;

/// One row of a table.
struct Case {
    /// What the case shows.
    name: &'static str,
    /// The board before, one row a string.
    before: &'static [&'static str],
    /// (hero, life, gold) before the first answer; other heroes have 100 life, 0 gold.
    setup: Vec<(HeroId, i32, i32)>,
    /// The hero whose answer comes first.
    first: HeroId,
    /// Answers of `first` and the heroes after it in turn order.
    answers: &'static [&'static str],
    /// The board afterwards, heroes drawn on it.
    after: &'static [&'static str],
    /// Life of heroes 1 to 4 afterwards.
    life: [i32; 4],
    /// Gold of heroes 1 to 4 afterwards.
    gold: [i32; 4],
}

/// A game on the board `rows`, 1200 turns, heroes a, b, c, d.
fn game(rows: &[&str]) -> Game {
    let text = rows.join("\n");
    let map = Map::parse(&text).unwrap_or_else(|e| panic!("test map does not parse: {e}\n{text}"));
    Game::new("test", &map, ["a", "b", "c", "d"], DEFAULT_MAX_TURNS)
}

/// Sets (hero, life, gold) and makes `first` the next to move.
fn set_up(g: &mut Game, setup: &[(HeroId, i32, i32)], first: HeroId) {
    for &(id, life, gold) in setup {
        g.hero_mut(id).life = life;
        g.hero_mut(id).gold = gold;
    }
    g.turn = first as u32 - 1;
}

/// Plays bot answers; `CRASH` is a crash.
fn play(g: &mut Game, answers: &[&str]) {
    for answer in answers {
        let mv = if *answer == "CRASH" {
            Move::Crash
        } else {
            Move::Go(Dir::from_answer(answer))
        };
        g.step(mv).expect("the game is not over");
    }
}

/// The board as a bot sees it, one row a string.
fn rows(g: &Game) -> Vec<String> {
    let size = g.board.size();
    let tiles = g.tiles_text();
    (0..size)
        .map(|r| tiles[r * size * 2..(r + 1) * size * 2].to_string())
        .collect()
}

/// Life and gold of heroes 1 to 4.
fn life_gold(g: &Game) -> ([i32; 4], [i32; 4]) {
    (
        g.heroes.clone().map(|h| h.life),
        g.heroes.clone().map(|h| h.gold),
    )
}

/// Plays a case and checks the board, life and gold afterwards.
fn check(case: &Case) -> Game {
    let mut g = game(case.before);
    set_up(&mut g, &case.setup, case.first);
    play(&mut g, case.answers);
    assert_eq!(rows(&g), case.after, "board after: case {}", case.name);
    assert_eq!(
        life_gold(&g),
        (case.life, case.gold),
        "(life, gold) after: case {}",
        case.name
    );
    g
}

/// Plays every case of a table.
fn check_all(cases: &[Case]) {
    for case in cases {
        check(case);
    }
}
