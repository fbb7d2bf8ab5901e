/* A Vindinium replay read into states: the stored replay (format `vindinium-replay`,
 * games/vindinium/src/plugin/replay.rs: the map text, the heroes' names, `max_turns`,
 * `moves` one character each, `ms`, sparse `notes`, `result`), or a live match's head
 * and rows as they come (`VindiniumLive`). Pure, without the DOM.
 *
 * The states are rebuilt with the rules (rules.mjs) once, when read: a full state is
 * kept every `KEYFRAME_EVERY` moves, and the numbers the legend and charts show (each
 * hero's gold, mines, life, deaths) and what happened in each move for every state;
 * `state(t)` replays from the nearest keyframe (or from the state asked for last, when
 * that is nearer: playing asks for the next move). Absurd inputs are refused before
 * anything is expanded. */

import { parseMap, start, copy, step, mineCount, outcome, toMove } from "./rules.mjs";

export const FORMAT = "vindinium-replay";
export const VERSION = 1;
/** A full state is kept every this many moves. */
export const KEYFRAME_EVERY = 50;
/** The most moves a replay may have to be opened (games are 1,200 moves). */
export const MAX_MOVES = 20000;
/** The largest board opened (the generator's go up to 28 × 28). */
export const MAX_SIZE = 100;
/** The most mines times moves: what replaying the game costs. */
export const MAX_WORK = 20000000;
/** Numbers kept per hero per state, in this order. */
export const NUMBERS = ["gold", "mines", "life", "deaths"];

/** Whether `r` (parsed JSON, or a replay read) is a Vindinium replay or head. */
export function isVindinium(r) {
  return !!r && r.format === FORMAT;
}

/** Throws, saying why, unless `head` is a Vindinium replay's head this viewer reads. */
function checkHead(head) {
  if (!isVindinium(head)) throw new Error("This JSON is not a Vindinium replay.");
  if (head.version !== VERSION) {
    throw new Error("This Vindinium replay is version " + head.version + "; this viewer reads version " + VERSION + ".");
  }
  if (typeof head.map !== "string" || !Array.isArray(head.heroes) || !Number.isInteger(head.max_turns) ||
      head.max_turns < 0) {
    throw new Error("This Vindinium replay is incomplete: it needs a map, heroes and max_turns.");
  }
  if (head.map.length > (2 * MAX_SIZE + 2) * (MAX_SIZE + 2)) {
    throw new Error("This Vindinium replay's map is too big to open.");
  }
}

/** The game of a Vindinium replay, grown a move at a time (see the top). */
export class VindiniumReplay {
  /** The game of `head` (a stored replay or a live head), before any move. */
  constructor(head) {
    checkHead(head);
    this.format = FORMAT;
    this.version = VERSION;
    this.mapText = head.map;
    this.map = parseMap(head.map, MAX_SIZE);
    this.players = head.heroes.slice();
    this.maxTurns = head.max_turns;
    this.moves = "";
    this.ms = [];
    this.notes = new Map(); // row t -> the notes of the move that led to state t
    this.result = null;
    this.training = head.training === true;
    const first = start(this.map, this.players, this.maxTurns, this.training);
    this.keyframes = [copy(first)];
    this.numbers = [];
    this.logs = [[]]; // what happened in the move that led to state t
    this.movers = [0]; // the hero (1 to 4) that moved into state t; 0 for the start
    this.crashes = [null, null, null, null]; // the move each hero crashed in
    this._record(first);
    this._last = first; // the newest state
    this._cache = { t: 0, state: copy(first) };
  }

  /** The newest state's number (the moves read). */
  lastTurn() {
    return this.moves.length;
  }

  /** Adds `moves` (a string, one character a move), with their reply times `ms` and
   *  `notes` (`[t, notes]`) if any; throws at a move that is no move or after the end. */
  extend(moves, ms, notes) {
    const mines = this._last.mines.length;
    if (this.moves.length + moves.length > MAX_MOVES) {
      throw new Error("This replay has over " + MAX_MOVES + " moves; the viewer opens games of at most " +
        MAX_MOVES + ".");
    }
    if ((this.moves.length + moves.length) * Math.max(1, mines) > MAX_WORK) {
      throw new Error("This replay is too big to open: " + mines + " mines over " +
        (this.moves.length + moves.length) + " moves.");
    }
    for (let i = 0; i < moves.length; i++) {
      const s = this._last, mover = toMove(s), log = [];
      try {
        step(s, moves[i], log);
      } catch (e) {
        throw new Error("Move " + (this.moves.length + 1) + ": " + e.message);
      }
      this.moves += moves[i];
      if (log.length && log[0][0] === "crash") this.crashes[mover - 1] = this.moves.length;
      this.ms.push(ms ? ms[i] ?? null : null);
      this.logs.push(log);
      this.movers.push(mover);
      this._record(s);
      if (this.moves.length % KEYFRAME_EVERY === 0) this.keyframes.push(copy(s));
    }
    for (const [t, n] of notes || []) this.notes.set(t, n);
  }

  /** The move hero `p` (0 to 3) crashed in, or null. */
  crashedAt(p) {
    return this.crashes[p];
  }

  /** The numbers of state `s` for the legend and charts. */
  _record(s) {
    for (const h of s.heroes) this.numbers.push(h.gold, mineCount(s, h.id), h.life, h.deaths);
  }

  /** Hero `p`'s (0 to 3) number `name` (of `NUMBERS`) in state `t`. */
  number(t, p, name) {
    return this.numbers[(t * 4 + p) * NUMBERS.length + NUMBERS.indexOf(name)];
  }

  /** The series of number `name` for the charts: state `t`, hero `p` at `t * 4 + p`. */
  series(name) {
    const k = NUMBERS.indexOf(name), n = NUMBERS.length;
    const out = new Array(this.numbers.length / n);
    for (let i = 0; i < out.length; i++) out[i] = this.numbers[i * n + k];
    return out;
  }

  /** State `t` (0 to `lastTurn()`), its own copy, replayed from the nearest keyframe
   *  or from the state asked for last. */
  state(t) {
    t = Math.max(0, Math.min(this.lastTurn(), t));
    const c = this._cache, k = Math.floor(t / KEYFRAME_EVERY);
    if (c.t !== t) {
      const near = c.t < t && c.t >= k * KEYFRAME_EVERY;
      const s = copy(near ? c.state : this.keyframes[k]);
      for (let i = near ? c.t : k * KEYFRAME_EVERY; i < t; i++) step(s, this.moves[i]);
      this._cache = { t, state: s };
    }
    return copy(this._cache.state);
  }

  /** Whether the game is over (its last state ended it). */
  over() {
    return this._last.status !== "started";
  }

  /** Ranks and the winner (an index, null for a tie) of the last state. */
  outcome() {
    return outcome(this._last);
  }

  /** The reply time of the move into state `t + 1` (as `problemsAt`), in milliseconds
   *  by hero (null for the others), or null when it has none. */
  replyTimesAt(t) {
    const ms = this.ms[t];
    if (ms === null || ms === undefined || !this.movers[t + 1]) return null;
    const out = [null, null, null, null];
    out[this.movers[t + 1] - 1] = ms;
    return out;
  }

  /** The problems of the reply to state `t` (the move into state `t + 1`: the turn the
   *  owner's stderr files it under), as describe.mjs's `problemsAt` gives them: each
   *  `{player, kind, text}`, kind "warning", "timeout", "limit" or "removed". */
  problemsAt(t) {
    const n = this.notes.get(t + 1), out = [];
    if (!n) return out;
    const p = this.movers[t + 1] - 1;
    if (n.warning) out.push({ player: p, kind: "warning", text: n.warning });
    if (n.timeout) {
      out.push({ player: p, kind: "timeout", text: "no reply within the move's time limit: its hero stays until the end" });
    }
    for (const [seat, text] of n.limits || []) out.push({ player: seat, kind: "limit", text });
    if (n.crash) out.push({ player: p, kind: "removed", text: "crashed: " + n.crash });
    return out;
  }
}

/** Throws unless `stored`'s reply times and notes fit its moves. */
function checkRows(stored) {
  const moves = stored.moves.length;
  if (!Array.isArray(stored.ms) || !(stored.ms.length === 0 || stored.ms.length === moves) ||
      !Array.isArray(stored.notes) || stored.notes.some((n) => !n || !Number.isInteger(n.t) || n.t < 0 || n.t > moves)) {
    throw new Error("This Vindinium replay's reply times or notes go beyond its " + moves + " moves.");
  }
}

/** The notes of a stored replay's `notes` entry, without its row number. */
function notesOf(n) {
  const { t, ...rest } = n;
  return rest;
}

/** Reads a stored Vindinium replay (parsed JSON) into a `VindiniumReplay`; throws,
 *  saying why, for another format or version, an absurd size, a move the rules refuse,
 *  or a result that is not the game's. */
export function readVindinium(stored) {
  checkHead(stored);
  if (typeof stored.moves !== "string") throw new Error("This Vindinium replay has no moves.");
  if (stored.moves.length > MAX_MOVES) {
    throw new Error("This replay has " + stored.moves.length + " moves; the viewer opens games of at most " +
      MAX_MOVES + ".");
  }
  checkRows(stored);
  const r = new VindiniumReplay(stored);
  r.extend(stored.moves, stored.ms, stored.notes.map((n) => [n.t, notesOf(n)]));
  if (stored.result) {
    const gold = r._last.heroes.map((h) => h.gold);
    if (!r.over() || !Array.isArray(stored.result.gold) || stored.result.gold.join() !== gold.join()) {
      throw new Error("This Vindinium replay's result is not its game's.");
    }
    r.result = stored.result;
  }
  return r;
}

/** A live match's game as its rows come (the stream of viewer/follow.mjs: `head` is
 *  the stored replay's head, rows are `{"start": true}` then `{"m": "n", "ms": 12,
 *  ...notes}`, one a move): the same methods as follow.mjs's `LiveReplay`. `replay` is
 *  the `VindiniumReplay`, null before row 0. */
export class VindiniumLive {
  constructor() {
    this.head = null;
    this.rows = 0;
    this.replay = null;
    this.result = undefined; // until the end
  }

  newest() {
    return this.rows - 1;
  }

  /** The stream's `head`; false when one is held already (a reconnection). */
  setHead(head) {
    checkHead(head);
    if (this.head) return false;
    this.head = head;
    return true;
  }

  /** Rows `from`, `from + 1`, ...: those held are skipped. How many were added (0:
   *  none new), or -1 when they start after a row still missing. */
  add(from, rows) {
    if (!this.head) throw new Error("The live match sent moves before its head.");
    if (from > this.rows) return -1;
    const fresh = rows.slice(this.rows - from);
    if (!fresh.length) return 0;
    let moves = "";
    const ms = [], notes = [];
    fresh.forEach((row, i) => {
      const t = this.rows + i;
      if (t === 0) {
        if (!row || !row.start) throw new Error("The live match's first row is not its start.");
        this.replay = new VindiniumReplay(this.head);
      } else {
        if (!row || typeof row.m !== "string" || row.m.length !== 1) throw new Error("Row " + t + " has no move.");
        moves += row.m;
        ms.push(row.ms ?? null);
      }
      const { start: _s, m: _m, ms: _ms, ...rest } = row;
      if (Object.keys(rest).length) notes.push([t, rest]);
    });
    this.replay.extend(moves, ms, notes);
    this.rows += fresh.length;
    return fresh.length;
  }

  /** The game is over: its result (null: none). */
  finish(result) {
    this.result = result || null;
    if (this.replay) this.replay.result = this.result;
  }
}

/** The first line of `text`. */
function firstLine(text) {
  const end = text.indexOf("\n");
  return end < 0 ? text : text.slice(0, end);
}

/** Whether `text` is a Vindinium log as `bottlebats play` writes it (the game's
 *  `write_log`): the GAME object a bot reads at every state, one a line. */
export function isVindiniumLog(text) {
  try {
    const g = JSON.parse(firstLine(text));
    return !!g && typeof g === "object" && Array.isArray(g.heroes) && !!g.board &&
      typeof g.board.tiles === "string" && Number.isInteger(g.maxTurns);
  } catch {
    return false;
  }
}

const DIR_CHAR = { North: "n", South: "s", East: "e", West: "w", Stay: "x" };

/** Reads a Vindinium log into a `VindiniumReplay`: the map is the first state's
 *  board (the heroes on their start squares), each move the last order of the hero
 *  that moved (a hero crashed in it moved `c`), the last line `{"winner": ...}`
 *  ignored. Throws, saying why, for a log that is not one game's. */
export function readVindiniumLog(text) {
  const lines = text.split("\n").filter((l) => l.trim() !== "");
  if (lines.length > MAX_MOVES + 2) {
    throw new Error("This log has " + lines.length + " lines; the viewer opens games of at most " + MAX_MOVES + " moves.");
  }
  const states = [];
  for (const [i, line] of lines.entries()) {
    let g;
    try {
      g = JSON.parse(line);
    } catch (e) {
      throw new Error("Line " + (i + 1) + " of this log is not JSON: " + e.message);
    }
    if (g && "winner" in g && !g.board) break;
    if (!g || !g.board || !Array.isArray(g.heroes) || g.heroes.length !== 4) {
      throw new Error("Line " + (i + 1) + " of this log is no Vindinium state.");
    }
    states.push(g);
  }
  if (states.length === 0) throw new Error("This Vindinium log has no state.");
  const first = states[0];
  const size = first.board.size;
  if (!Number.isInteger(size) || size < 1 || size > MAX_SIZE || first.board.tiles.length !== 2 * size * size) {
    throw new Error("This Vindinium log's board is not a square of at most " + MAX_SIZE + " squares a side.");
  }
  const rows = [];
  for (let x = 0; x < size; x++) rows.push(first.board.tiles.slice(2 * size * x, 2 * size * (x + 1)));
  let moves = "";
  for (let t = 1; t < states.length; t++) {
    const mover = states[t - 1].turn % 4;
    const before = states[t - 1].heroes[mover], after = states[t].heroes[mover];
    if (before.crashed) moves += "x";
    else if (after.crashed) moves += "c";
    else {
      const c = DIR_CHAR[after.lastDir];
      if (!c) throw new Error("Move " + t + " of this log has no direction.");
      moves += c;
    }
  }
  return readVindinium({
    format: FORMAT, version: VERSION, map: rows.join("\n"), heroes: first.heroes.map((h) => h.name),
    max_turns: first.maxTurns, moves, ms: [], notes: [], result: null,
  });
}
