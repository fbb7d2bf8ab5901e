//! games/vindinium/rules.md §12: the JSON a bot is sent, field for field as the
//! original's `JsonFormat` writes it.

use vindinium::{Dir, Game, Map, Move};

const BOARD: &str = "@1[]  @4\n$-##    \n        \n@2  $-@3";

fn game() -> Game {
    let map = Map::parse(BOARD).unwrap();
    Game::new("abc123", &map, ["alice", "bob", "carol", "dave"], 1200)
}

#[test]
fn the_view_of_a_new_game() {
    let g = game();
    let hero = |id, name: &str, (x, y), (sx, sy)| {
        format!(
            r#"{{"id":{id},"name":"{name}","pos":{{"x":{x},"y":{y}}},"life":100,"gold":0,"mineCount":0,"spawnPos":{{"x":{sx},"y":{sy}}},"crashed":false}}"#
        )
    };
    let heroes = [
        hero(1, "alice", (0, 0), (0, 0)),
        hero(2, "bob", (3, 0), (3, 0)),
        hero(3, "carol", (3, 3), (3, 3)),
        hero(4, "dave", (0, 3), (0, 3)),
    ];
    let want = format!(
        r#"{{"game":{{"id":"abc123","turn":0,"maxTurns":1200,"heroes":[{}],"board":{{"size":4,"tiles":"@1[]  @4$-##            @2  $-@3"}},"finished":false}},"hero":{}}}"#,
        heroes.join(","),
        heroes[2]
    );
    assert_eq!(g.view_line(3), want);
}

#[test]
fn the_view_after_some_moves() {
    // Hero 1 bumps into the tavern without gold, hero 2 walks North, hero 3 takes the
    // mine to its West (and earns from it at once), hero 4 crashes (no lastDir yet).
    let mut g = game();
    for mv in [Dir::East, Dir::North, Dir::West] {
        g.step(Move::Go(mv)).unwrap();
    }
    g.step(Move::Crash).unwrap();
    let want = concat!(
        r#"{"game":{"id":"abc123","turn":4,"maxTurns":1200,"heroes":["#,
        r#"{"id":1,"name":"alice","pos":{"x":0,"y":0},"lastDir":"East","life":99,"gold":0,"mineCount":0,"spawnPos":{"x":0,"y":0},"crashed":false},"#,
        r#"{"id":2,"name":"bob","pos":{"x":2,"y":0},"lastDir":"North","life":99,"gold":0,"mineCount":0,"spawnPos":{"x":3,"y":0},"crashed":false},"#,
        r#"{"id":3,"name":"carol","pos":{"x":3,"y":3},"lastDir":"West","life":79,"gold":1,"mineCount":1,"spawnPos":{"x":3,"y":3},"crashed":false},"#,
        r#"{"id":4,"name":"dave","pos":{"x":0,"y":3},"life":99,"gold":0,"mineCount":0,"spawnPos":{"x":0,"y":3},"crashed":true}],"#,
        r#""board":{"size":4,"tiles":"@1[]  @4$-##    @2          $3@3"},"finished":false},"#,
        r#""hero":{"id":4,"name":"dave","pos":{"x":0,"y":3},"life":99,"gold":0,"mineCount":0,"spawnPos":{"x":0,"y":3},"crashed":true}}"#,
    );
    assert_eq!(g.view_line(4), want);
}

#[test]
fn last_dir_names_and_the_finished_flag() {
    let mut g = game();
    g.max_turns = 1;
    g.step(Move::Go(Dir::Stay)).unwrap();
    let view = g.view(1);
    assert_eq!(view["hero"]["lastDir"], "Stay");
    assert_eq!(view["game"]["finished"], true);
    let keys: Vec<&str> = view["hero"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "id",
            "name",
            "pos",
            "lastDir",
            "life",
            "gold",
            "mineCount",
            "spawnPos",
            "crashed"
        ]
    );
    let names: Vec<&str> = [Dir::Stay, Dir::North, Dir::South, Dir::East, Dir::West]
        .iter()
        .map(|d| d.name())
        .collect();
    assert_eq!(names, ["Stay", "North", "South", "East", "West"]);
}
