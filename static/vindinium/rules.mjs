/* The rules of Vindinium as games/vindinium plays them (games/vindinium/rules.md), for
 * the viewer to rebuild every state of a game from its map and its moves: the map text
 * read as `Map::parse` reads it, the start as `plugin::start` sets it up, and one move
 * as `Game::step` plays it. Pure, without the DOM; checked against the crate's own
 * states by games/vindinium/tests/js/vindinium.test.mjs.
 *
 * Squares are `x` (the row, 0 at the top) and `y` (the column), as in the crate. A
 * board is `size` and `tiles` (one byte a square, row by row: `AIR`, `WALL`, `TAVERN`
 * or a mine, `MINE + owner`, owner 0 for none); `mines` lists the mines' squares so
 * that counting a hero's mines does not read the whole board. */

export const AIR = 0, WALL = 1, TAVERN = 2, MINE = 3;

export const MAX_LIFE = 100, BEER_LIFE = 50, BEER_GOLD = 2, THIRST_LIFE = 1;
export const MINE_LIFE = 20, ATTACK_LIFE = 20;
/** A bound on telefrag chains (each link ends on its own spawn square). */
const MAX_CHAIN = 16;

/** The moves of a replay, one character each: a direction, `x` (Stay), `c` (a crash). */
export const DIRS = { n: [-1, 0], s: [1, 0], e: [0, 1], w: [0, -1], x: [0, 0] };
/** North, East, South, West: the order fights look around in. */
const AROUND = [[-1, 0], [0, 1], [1, 0], [0, -1]];

/** The original's `str.lines` (a line ends at a line feed or form feed; a carriage
 *  return is dropped only before a line feed), without the empty lines at both ends. */
function trimmedLines(text) {
  const lines = [];
  let rest = text;
  while (rest.length) {
    const m = /[\n\f]/.exec(rest);
    if (!m) { lines.push(rest); break; }
    let line = rest.slice(0, m.index);
    if (m[0] === "\n" && line.endsWith("\r")) line = line.slice(0, -1);
    lines.push(line);
    rest = rest.slice(m.index + 1);
  }
  let a = 0, b = lines.length - 1;
  while (a <= b && !lines[a]) a++;
  while (b >= a && !lines[b]) b--;
  return lines.slice(a, b + 1);
}

/** The tile of two characters `pair` at row `row`, tile `col`; a start square is air
 *  and noted in `starts`. Throws as `Map::parse` refuses. */
function readTile(pair, row, col, starts) {
  const where = "row " + row + ", tile " + col + ": ";
  const hero = (c) => {
    if (c >= "1" && c <= "4") return c.charCodeAt(0) - 48;
    if (c >= "0" && c <= "9") throw new Error(where + JSON.stringify(pair) + " names no hero (heroes are 1 to 4)");
    return 0;
  };
  if (pair === "  ") return AIR;
  if (pair === "##") return WALL;
  if (pair === "[]") return TAVERN;
  if (pair.length === 2 && pair[0] === "$") return MINE + hero(pair[1]);
  if (pair.length === 2 && pair[0] === "@") {
    const id = hero(pair[1]);
    if (!id) throw new Error(where + JSON.stringify(pair) + " names no hero (heroes are 1 to 4)");
    starts[id - 1] = [row, col];
    return AIR;
  }
  throw new Error(where + JSON.stringify(pair) + " is not a tile");
}

/** A map text read as `Map::parse` reads it: `{size, tiles, starts}` (the start squares
 *  of heroes 1 to 4 as `[x, y]`). `maxSize` refuses bigger boards before making them.
 *  Throws, saying why, as the crate refuses. */
export function parseMap(text, maxSize) {
  const lines = trimmedLines(text);
  if (!lines.length) throw new Error("the map is empty");
  lines.forEach((line, row) => {
    const bad = /[^\x00-\x7f]/.exec(line);
    if (bad) throw new Error("row " + row + ": character " + JSON.stringify(bad[0]) + " is not ASCII");
  });
  const size = Math.floor(Math.max(...lines.map((l) => l.length)) / 2);
  if (lines.length > size) {
    throw new Error(lines.length + " rows but the longest row has only " + size + " tiles");
  }
  if (maxSize !== undefined && size > maxSize) {
    throw new Error("the board is " + size + " × " + size + "; the viewer opens boards of at most " + maxSize);
  }
  const tiles = new Uint8Array(size * size);
  const starts = [null, null, null, null];
  for (let row = 0; row < size; row++) {
    const line = (lines[row] || "").padEnd(size * 2, " ");
    for (let col = 0; col * 2 < line.length; col++) {
      const tile = readTile(line.slice(col * 2, col * 2 + 2), row, col, starts);
      if (col < size) tiles[row * size + col] = tile;
    }
  }
  starts.forEach((s, i) => {
    if (!s) throw new Error("no start square for hero " + (i + 1) + " (@" + (i + 1) + ")");
  });
  return { size, tiles, starts };
}

/** Hero `id`'s respawn square: hero 1's start square, mirrored across the rows for 2,
 *  both ways for 3, across the columns for 4 (`Game.spawnPosOf`). */
export function spawnOf(size, first, id) {
  const [x, y] = first;
  switch (id) {
    case 1: return [x, y];
    case 2: return [size - x - 1, y];
    case 3: return [size - x - 1, size - y - 1];
    default: return [x, size - y - 1];
  }
}

/** The state at the start of a game on `map` (`parseMap`) for the four `names`, with
 *  `maxTurns` moves; a game of 0 moves is over at once. Throws as `plugin::start`
 *  refuses players. A `training` game is over at its first crash (§9). */
export function start(map, names, maxTurns, training) {
  if (!Array.isArray(names) || names.length !== 4) {
    throw new Error("Vindinium is played by 4 heroes, not " + (names && names.length));
  }
  names.forEach((name, i) => {
    if (typeof name !== "string" || !name || names.indexOf(name) !== i) {
      throw new Error("player names must be distinct and not empty: `" + name + "`");
    }
  });
  const mines = [];
  map.tiles.forEach((t, i) => { if (t >= MINE) mines.push(i); });
  return {
    size: map.size,
    tiles: map.tiles.slice(),
    mines,
    heroes: names.map((name, i) => {
      const [x, y] = map.starts[i];
      const [sx, sy] = spawnOf(map.size, map.starts[0], i + 1);
      return {
        id: i + 1, name, x, y, sx, sy, life: MAX_LIFE, gold: 0, crashed: false,
        lastRespawn: null, deaths: 0,
      };
    }),
    turn: 0,
    maxTurns,
    status: maxTurns === 0 ? "turn_max" : "started",
    training: !!training,
  };
}

/** A copy of state `s` that steps on its own. */
export function copy(s) {
  return {
    size: s.size, tiles: s.tiles.slice(), mines: s.mines, turn: s.turn, maxTurns: s.maxTurns,
    status: s.status, training: s.training, heroes: s.heroes.map((h) => ({ ...h })),
  };
}

/** The hero whose move is next (1 to 4). */
export function toMove(s) {
  return (s.turn % 4) + 1;
}

/** The first hero (in id order) on square `x`, `y`, or null. */
function heroAt(s, x, y) {
  for (const h of s.heroes) if (h.x === x && h.y === y) return h;
  return null;
}

/** Mines hero `id` owns (the API's `mineCount`). */
export function mineCount(s, id) {
  let n = 0;
  for (const i of s.mines) if (s.tiles[i] === MINE + id) n++;
  return n;
}

/** Every mine of hero `from` to hero `to` (0: to nobody). */
function transferMines(s, from, to) {
  for (const i of s.mines) if (s.tiles[i] === MINE + from) s.tiles[i] = MINE + to;
}

function addLife(h, d) {
  h.life = Math.max(0, Math.min(MAX_LIFE, h.life + d));
}

function addGold(h, d) {
  h.gold = Math.max(0, h.gold + d);
}

/** Plays move `c` (a character of `DIRS`, or `c` for a crash) for the hero to move, as
 *  `Game::step` does; `log` (an array, if given) gets what happened, each `[kind,
 *  hero, other, x, y]`: "crash"; "beer"; "mine" (took the mine at x, y); "mined" (died
 *  fighting the mine at x, y); "kill" (other killed hero at x, y); "telefrag" (other
 *  respawned onto hero at x, y). Throws once the game is over or for an unknown move. */
export function step(s, c, log) {
  if (s.status !== "started") throw new Error("the game is finished");
  if (c !== "c" && !DIRS[c]) throw new Error("`" + c + "` is no move");
  log = log || [];
  const id = toMove(s), me = s.heroes[id - 1];
  if (me.crashed) c = "x";
  if (c === "c") {
    me.crashed = true;
    log.push(["crash", id]);
    // A training game is over at its first crash (games/vindinium/rules.md §9).
    if (s.training || s.heroes.every((h) => h.crashed)) s.status = "all_crashed";
  } else {
    reach(s, me, me.x + DIRS[c][0], me.y + DIRS[c][1], log);
    fights(s, me, log);
  }
  const mines = mineCount(s, id);
  addLife(me, -THIRST_LIFE);
  if (me.life <= 0) addLife(me, 1);
  addGold(me, mines);
  if (s.status === "started") {
    s.turn++;
    if (s.turn >= s.maxTurns) s.status = "turn_max";
  }
  return log;
}

/** What the mover does to the square it is sent to (the original's `reach`). */
function reach(s, me, x, y, log) {
  if (x < 0 || y < 0 || x >= s.size || y >= s.size) return;
  if (heroAt(s, x, y)) return;
  const i = x * s.size + y, tile = s.tiles[i];
  if (tile === AIR) {
    me.x = x;
    me.y = y;
  } else if (tile === TAVERN) {
    if (me.gold >= BEER_GOLD) {
      addGold(me, -BEER_GOLD);
      addLife(me, BEER_LIFE);
      log.push(["beer", me.id]);
    }
  } else if (tile >= MINE && tile !== MINE + me.id) {
    addLife(me, -MINE_LIFE);
    if (me.life > 0) {
      s.tiles[i] = MINE + me.id;
      log.push(["mine", me.id, tile - MINE, x, y]);
    } else {
      log.push(["mined", me.id, tile - MINE, x, y]);
      transferMines(s, me.id, 0);
      respawn(s, me, log);
    }
  }
}

/** The hero gets full life on its spawn square; a hero already there (the first in id
 *  order, looked for before the move) is telefragged: its mines go to the arriving
 *  hero and it respawns in turn, and so on. */
function respawn(s, first, log) {
  let current = first;
  for (let i = 0; i < MAX_CHAIN; i++) {
    const occupant = heroAt(s, current.sx, current.sy);
    current.life = MAX_LIFE;
    current.x = current.sx;
    current.y = current.sy;
    current.lastRespawn = s.turn;
    current.deaths++;
    if (!occupant || occupant === current) return;
    log.push(["telefrag", occupant.id, current.id, occupant.x, occupant.y]);
    transferMines(s, occupant.id, current.id);
    current = occupant;
  }
}

/** The heroes on the mover's four neighbours (North, East, South, West), listed before
 *  any blow, each take 20 life, unless one of the two respawned during this move. */
function fights(s, me, log) {
  const enemies = [];
  for (const [dx, dy] of AROUND) {
    const h = heroAt(s, me.x + dx, me.y + dy);
    if (h) enemies.push(h);
  }
  for (const enemy of enemies) {
    if (me.lastRespawn === s.turn || enemy.lastRespawn === s.turn) continue;
    addLife(enemy, -ATTACK_LIFE);
    if (enemy.life <= 0) {
      log.push(["kill", enemy.id, me.id, enemy.x, enemy.y]);
      transferMines(s, enemy.id, me.id);
      respawn(s, enemy, log);
    }
  }
}

/** Ranks of heroes 1 to 4 by gold (1 for the most; equal gold, equal rank) and the
 *  winner's index, null when the most gold is shared. */
export function outcome(s) {
  const gold = s.heroes.map((h) => h.gold);
  const ranks = gold.map((g) => 1 + gold.filter((o) => o > g).length);
  const top = Math.max(...gold);
  const leaders = gold.filter((g) => g === top).length;
  return { ranks, winner: leaders === 1 ? gold.indexOf(top) : null };
}
