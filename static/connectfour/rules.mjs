/* Connect Four's rules in JavaScript (games/connectfour/rules.md §1–§7), for the viewer:
 * the stored replay keeps the moves, not the boards, so the viewer rebuilds every board
 * from them as the crate does (games/connectfour/tests/js/connectfour.test.mjs holds them to the
 * crate's boards). Pure, without the DOM.
 *
 * A game is `{cells, moves, maxTurns, end}`: `cells` the 42 cells row by row, row 0
 * the top one (0 empty, 1 a disc of player 1, 2 of player 2), `moves` the columns of
 * the discs dropped, `end` null while playing, else `{kind: "four", seat, line}`,
 * `{kind: "full"}`, `{kind: "limit"}` or `{kind: "forfeit", seat, reason}`. */

export const COLUMNS = 7;
export const ROWS = 6;
export const CELLS = COLUMNS * ROWS;

/** A game on the empty board of at most `maxTurns` moves (§5: over at once with 0). */
export function start(maxTurns) {
  return { cells: new Array(CELLS).fill(0), moves: [], maxTurns, end: maxTurns === 0 ? { kind: "limit" } : null };
}

/** A copy of game `g` that changes apart from it. */
export function copy(g) {
  return { cells: g.cells.slice(), moves: g.moves.slice(), maxTurns: g.maxTurns, end: g.end };
}

/** The cell at `row` (0 the top) and `col`: 0, 1 or 2. */
export function cell(g, row, col) {
  return g.cells[row * COLUMNS + col];
}

/** The seat (0 or 1) whose move it is (§2). */
export function toMove(g) {
  return g.moves.length % 2;
}

/** Discs in column `col`. */
export function height(g, col) {
  let n = 0;
  for (let r = 0; r < ROWS; r++) if (cell(g, r, col)) n++;
  return n;
}

/** The line of four through the disc at (`row`, `col`), as [row, col] pairs along it,
 *  or null (§4). */
export function fourThrough(cells, row, col) {
  const me = cells[row * COLUMNS + col];
  if (!me) return null;
  for (const [dr, dc] of [[0, 1], [1, 0], [1, 1], [1, -1]]) {
    const same = (k) => {
      const r = row + dr * k, c = col + dc * k;
      return r >= 0 && r < ROWS && c >= 0 && c < COLUMNS && cells[r * COLUMNS + c] === me;
    };
    let back = 0, ahead = 0;
    while (back < 3 && same(-(back + 1))) back++;
    while (ahead < 3 && same(ahead + 1)) ahead++;
    if (back + ahead + 1 >= 4) {
      return [0, 1, 2, 3].map((i) => [row + dr * (i - back), col + dc * (i - back)]);
    }
  }
  return null;
}

/** Drops a disc of the seat to move in `col` (§3–§5) and returns the row it lands in;
 *  throws, with the crate's words, when the game is over or the column is no column
 *  or full. */
export function drop(g, col) {
  if (g.end) throw new Error("the game is over");
  if (!Number.isInteger(col) || col < 0 || col >= COLUMNS) throw new Error("`" + col + "` is not a column (0 to 6)");
  const h = height(g, col);
  if (h === ROWS) throw new Error("column " + col + " is full");
  const seat = toMove(g), row = ROWS - 1 - h;
  g.cells[row * COLUMNS + col] = seat + 1;
  g.moves.push(col);
  const line = fourThrough(g.cells, row, col);
  if (line) g.end = { kind: "four", seat, line };
  else if (g.moves.length === CELLS) g.end = { kind: "full" };
  else if (g.moves.length >= g.maxTurns) g.end = { kind: "limit" };
  return row;
}

/** The seat to move forfeits for `reason` (§6). */
export function forfeit(g, reason) {
  if (g.end) throw new Error("the game is over");
  g.end = { kind: "forfeit", seat: toMove(g), reason };
}

/** The seat that won, or null (§4, §6). */
export function winner(g) {
  if (!g.end) return null;
  if (g.end.kind === "four") return g.end.seat;
  if (g.end.kind === "forfeit") return 1 - g.end.seat;
  return null;
}

/** Each seat's rank (§7). */
export function ranks(g) {
  const w = winner(g);
  return w === null ? [1, 1] : [0, 1].map((s) => (s === w ? 1 : 2));
}

/** Discs `seat` dropped (§7). */
export function discs(g, seat) {
  return Math.floor((g.moves.length + 1 - seat) / 2);
}

/** The empty cells where a disc of `seat` would make four: the game's threats, for
 *  the charts. */
export function threats(cells, seat) {
  let n = 0;
  const c = cells.slice();
  for (let i = 0; i < CELLS; i++) {
    if (c[i]) continue;
    c[i] = seat + 1;
    if (fourThrough(c, Math.floor(i / COLUMNS), i % COLUMNS)) n++;
    c[i] = 0;
  }
  return n;
}
