//! What a bot is sent (games/vindinium/rules.md §12; the original's `JsonFormat.scala`).
//!
//! The original sends `{"game", "hero", "token", "viewUrl", "playUrl"}` over HTTP and
//! each hero's `userId` and `elo` when known; bots here are processes with neither
//! tokens nor accounts, so only `game` and `hero` are sent, and the fields that the
//! original leaves out when empty are left out.

use serde_json::{json, Map as JsonMap, Value};

use crate::board::HeroId;
use crate::game::Game;
use crate::pos::Pos;

impl Game {
    /// The view of hero `id` as one line of JSON: `{"game": GAME, "hero": HERO}`.
    pub fn view_line(&self, id: HeroId) -> String {
        self.view(id).to_string()
    }

    /// The view of hero `id`: `{"game": GAME, "hero": HERO}`.
    pub fn view(&self, id: HeroId) -> Value {
        json!({
            "game": self.game_json(),
            "hero": self.hero_json(id),
        })
    }

    /// GAME: `id`, `turn`, `maxTurns`, `heroes`, `board` (`size`, `tiles`), `finished`.
    pub fn game_json(&self) -> Value {
        json!({
            "id": self.id,
            "turn": self.turn,
            "maxTurns": self.max_turns,
            "heroes": (1..=4).map(|id| self.hero_json(id)).collect::<Vec<_>>(),
            "board": {
                "size": self.board.size(),
                "tiles": self.tiles_text(),
            },
            "finished": self.is_finished(),
        })
    }

    /// HERO: `id`, `name`, `pos`, `lastDir` (left out before the first order), `life`,
    /// `gold`, `mineCount`, `spawnPos`, `crashed`.
    pub fn hero_json(&self, id: HeroId) -> Value {
        let hero = self.hero(id);
        let mut out = JsonMap::new();
        out.insert("id".into(), json!(hero.id));
        out.insert("name".into(), json!(hero.name));
        out.insert("pos".into(), pos_json(hero.pos));
        if let Some(dir) = hero.last_dir {
            out.insert("lastDir".into(), json!(dir.name()));
        }
        out.insert("life".into(), json!(hero.life));
        out.insert("gold".into(), json!(hero.gold));
        out.insert("mineCount".into(), json!(self.mine_count(id)));
        out.insert("spawnPos".into(), pos_json(self.spawn_pos_of(id)));
        out.insert("crashed".into(), json!(hero.crashed));
        Value::Object(out)
    }

    /// The board's tiles row by row, two characters each, `@N` where hero N stands
    /// (the first in id order, were two on one square).
    pub fn tiles_text(&self) -> String {
        self.board
            .positions()
            .map(|pos| match self.hero_at(pos) {
                Some(id) => self.hero(id).render(),
                None => self.board.get(pos).expect("on the board").render(),
            })
            .collect()
    }
}

fn pos_json(pos: Pos) -> Value {
    json!({ "x": pos.x, "y": pos.y })
}
