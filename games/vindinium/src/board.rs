//! The board and its tiles (games/vindinium/rules.md §1; the original's `Board.scala` and
//! `Tile` in `model.scala`).

use crate::pos::Pos;

/// A hero's number, 1 to 4 (also its place in the turn order).
pub type HeroId = usize;

/// What lies on a square. Heroes are not tiles: they stand on [`Tile::Air`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tile {
    /// Open ground, `"  "`.
    Air,
    /// Impassable wood, `"##"`.
    Wall,
    /// A tavern, `"[]"`: bump into it to buy a beer.
    Tavern,
    /// A gold mine, `"$-"` when neutral, `"$1"`..`"$4"` when a hero owns it.
    Mine(Option<HeroId>),
}

impl Tile {
    /// The two characters of the tile in maps and in the bot view.
    pub fn render(self) -> String {
        match self {
            Tile::Air => "  ".to_string(),
            Tile::Wall => "##".to_string(),
            Tile::Tavern => "[]".to_string(),
            Tile::Mine(None) => "$-".to_string(),
            Tile::Mine(Some(id)) => format!("${id}"),
        }
    }
}

/// A square board of `size` × `size` tiles, row by row.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Board {
    size: usize,
    tiles: Vec<Tile>,
}

impl Board {
    /// A board from its tiles, row by row; `None` unless there are `size * size` of them.
    pub fn new(size: usize, tiles: Vec<Tile>) -> Option<Board> {
        (tiles.len() == size * size).then_some(Board { size, tiles })
    }

    /// A board of `size` × `size` squares of `tile`.
    pub fn filled(size: usize, tile: Tile) -> Board {
        Board {
            size,
            tiles: vec![tile; size * size],
        }
    }

    /// The number of rows (and of columns).
    pub fn size(&self) -> usize {
        self.size
    }

    /// All tiles, row by row.
    pub fn tiles(&self) -> &[Tile] {
        &self.tiles
    }

    fn index(&self, pos: Pos) -> Option<usize> {
        pos.is_in(self.size)
            .then(|| pos.x as usize * self.size + pos.y as usize)
    }

    /// The tile at `pos`, `None` off the board.
    pub fn get(&self, pos: Pos) -> Option<Tile> {
        self.index(pos).map(|i| self.tiles[i])
    }

    /// Puts `tile` at `pos`; nothing happens off the board (as the original's `update`).
    pub fn set(&mut self, pos: Pos, tile: Tile) {
        if let Some(i) = self.index(pos) {
            self.tiles[i] = tile;
        }
    }

    /// Every position, row by row.
    pub fn positions(&self) -> impl Iterator<Item = Pos> + '_ {
        (0..self.size * self.size).map(|i| Pos::new((i / self.size) as i32, (i % self.size) as i32))
    }

    /// The same column, mirrored row (the original's `mirrorX`).
    pub fn mirror_x(&self, pos: Pos) -> Pos {
        Pos::new(self.size as i32 - pos.x - 1, pos.y)
    }

    /// The same row, mirrored column (the original's `mirrorY`).
    pub fn mirror_y(&self, pos: Pos) -> Pos {
        Pos::new(pos.x, self.size as i32 - pos.y - 1)
    }

    /// Mirrored on both axes (the original's `mirrorXY`).
    pub fn mirror_xy(&self, pos: Pos) -> Pos {
        self.mirror_x(self.mirror_y(pos))
    }

    /// Gives every mine of hero `from` to `to` (`None`: neutral).
    pub fn transfer_mines(&mut self, from: HeroId, to: Option<HeroId>) {
        for tile in &mut self.tiles {
            if *tile == Tile::Mine(Some(from)) {
                *tile = Tile::Mine(to);
            }
        }
    }

    /// The number of mines hero `id` owns.
    pub fn count_mines_of(&self, id: HeroId) -> usize {
        self.tiles
            .iter()
            .filter(|t| **t == Tile::Mine(Some(id)))
            .count()
    }

    /// The number of mines, owned or not.
    pub fn count_mines(&self) -> usize {
        self.tiles
            .iter()
            .filter(|t| matches!(t, Tile::Mine(_)))
            .count()
    }

    /// The board as text, one row a line, two characters a tile.
    pub fn render(&self) -> String {
        self.tiles
            .chunks(self.size.max(1))
            .map(|row| row.iter().map(|t| t.render()).collect::<String>())
            .collect::<Vec<_>>()
            .join("\n")
    }
}
