/* A Bottle Bats match as its rows come (the stream of viewer/follow.mjs): the compact
 * replay so far and the replay the renderer draws (v1's shape), grown by the new rows
 * only. Pure, without the DOM; tested with node. */

import { expandCompact } from "./compact.mjs";
import { FORMAT } from "./replay.mjs";

/** A march `[road, toward, owner, size, sent]` with `sent` moved by `d` turns. */
function shifted(m, d) {
  return [m[0], m[1], m[2], m[3], m[4] + d];
}

/** Row `row` (compact) with its keyframe's marches sent `d` turns later, if it has one. */
function rebased(row, d) {
  if (Array.isArray(row) || !row || !row.k) return row;
  return { ...row, k: { ...row.k, marches: row.k.marches.map((m) => shifted(m, d)) } };
}

/** A game as its rows come: the compact replay so far (`head`, `rows`, `result`) and
 *  `replay`, the game read (v1's shape, as `expandCompact` reads it), null before the
 *  first row. Each new row costs the rules of its own turn only: the rows after board
 *  `b` are read as a compact replay of their own whose first row is board `b` (turn
 *  numbers moved by `b`), and their boards added. */
export class LiveReplay {
  constructor() {
    this.head = null;
    this.rows = [];
    this.replay = null;
    this.result = undefined; // until the end
  }

  /** The newest turn received (-1 before any). */
  newest() {
    return this.rows.length - 1;
  }

  /** The stream's `head`; false when one is held already (a reconnection: the same
   *  game). Throws when it is not a compact replay. */
  setHead(head) {
    if (!head || head.format !== FORMAT || head.version !== 2 || !head.map) {
      throw new Error("The live match is not a Bottle Bats replay of version 2.");
    }
    if (this.head) return false;
    this.head = head;
    return true;
  }

  /** Rows `from`, `from + 1`, ... (`rows` of the stream): those held already are
   *  skipped. Returns how many turns were added (0: none new), or -1 when they start
   *  after a row still missing (nothing taken). Throws when the rows are damaged. */
  add(from, rows) {
    if (!this.head) throw new Error("The live match sent turns before its head.");
    const have = this.rows.length;
    if (from > have) return -1;
    const fresh = rows.slice(have - from);
    if (!fresh.length) return 0;
    if (have === 0) {
      this.replay = expandCompact({ ...this.head, turns: fresh, result: null });
      this.replay.result = null;
    } else {
      this.grow(fresh);
    }
    for (const row of fresh) this.rows.push(row);
    return fresh.length;
  }

  /** Reads `rows`, the rows after the newest board, onto `replay`. */
  grow(rows) {
    const turns = this.replay.turns, b = turns.length - 1, prev = turns[b];
    const start = {
      k: { owners: prev.owners, garrisons: prev.garrisons, marches: prev.marches.map((m) => shifted(m, -b)) },
    };
    const part = expandCompact({
      ...this.head, turns: [start].concat(rows.map((row) => rebased(row, -b))), result: null,
    });
    // What happened in the turn after board `b` is known now.
    prev.events = part.turns[0].events;
    for (let i = 1; i < part.turns.length; i++) {
      const turn = part.turns[i];
      for (const m of turn.marches) m[4] += b;
      turns.push(turn);
    }
  }

  /** The game is over: its result (null: none). */
  finish(result) {
    this.result = result || null;
    if (this.replay) this.replay.result = this.result;
  }

  /** The compact replay so far (version 2), as the server stores it at the end. */
  compact() {
    return { ...this.head, turns: this.rows, result: this.result === undefined ? null : this.result };
  }
}
