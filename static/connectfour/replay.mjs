/* A Connect Four replay read into boards: the stored replay (format
 * `connectfour-replay`, games/connectfour/rules.md §9: the players, `max_turns`,
 * `moves` one digit a disc, the `forfeit` that ended it if one did, sparse `limits`,
 * `result`), or a live match's head and rows as they come (`ConnectFourLive`). Pure,
 * without the DOM.
 *
 * A game has at most 42 moves: every board is kept, with each player's numbers for the
 * legend and the charts. Every move is checked by the rules (rules.mjs) as it is read;
 * a replay the rules refuse is refused, saying at which move. */

import { start, drop, forfeit, toMove, discs, ranks, winner, threats, CELLS } from "./rules.mjs";

export const FORMAT = "connectfour-replay";
export const VERSION = 1;
/** What a forfeit's reason is followed by, as the crate says it. */
export const FORFEITS = "forfeits the game";
/** The problem of a reply that did not come in time, as the crate says it. */
export const TIMEOUT = "no reply within the move's time limit";
/** Numbers kept per player per board, in this order. */
export const NUMBERS = ["discs", "forfeits", "threats"];

/** Whether `r` (parsed JSON, a replay read, or a live head) is Connect Four's. */
export function isConnectFour(r) {
  return !!r && r.format === FORMAT;
}

/** Throws, saying why, unless `head` is a Connect Four head this viewer reads. */
function checkHead(head) {
  if (!isConnectFour(head)) throw new Error("This JSON is not a Connect Four replay.");
  if (head.version !== VERSION) {
    throw new Error("This Connect Four replay is version " + head.version + "; this viewer reads version " + VERSION + ".");
  }
  const p = head.players;
  if (!Array.isArray(p) || p.length !== 2 || p.some((n) => typeof n !== "string" || !n) || p[0] === p[1] ||
      !Number.isInteger(head.max_turns) || head.max_turns < 0) {
    throw new Error("This Connect Four replay is incomplete: it needs two players and max_turns.");
  }
}

/** The game of a Connect Four replay, grown a move at a time. Row `t` (move `t`, 0 the
 *  start) is `{seat, col, row}` for a disc, `{seat, forfeit, timeout}` for a forfeit,
 *  each with its `limits` (`[[seat, words], ...]`). */
export class ConnectFourReplay {
  /** The game of `head` (a stored replay or a live head), before any move. */
  constructor(head) {
    checkHead(head);
    this.format = FORMAT;
    this.version = VERSION;
    this.players = head.players.slice();
    this.maxTurns = head.max_turns;
    this.game = start(this.maxTurns);
    this.boards = [this.game.cells.slice()];
    this.rows = [{ start: true, limits: [] }];
    this.numbers = [];
    this.result = null;
    this._record();
  }

  /** The newest board's number: the moves read. */
  lastTurn() {
    return this.rows.length - 1;
  }

  /** Whether the game is over. */
  over() {
    return !!this.game.end;
  }

  /** How it ended (rules.mjs's `end`), or null. */
  end() {
    return this.game.end;
  }

  /** Ranks and the winner (a seat, or null) of the newest board. */
  outcome() {
    return { ranks: ranks(this.game), winner: winner(this.game) };
  }

  /** Board `t` (0 to `lastTurn()`): its 42 cells, row 0 the top. */
  board(t) {
    return this.boards[Math.max(0, Math.min(this.lastTurn(), t))];
  }

  /** Drops a disc of the seat to move in `col`; throws at a move the rules refuse. */
  playDisc(col, limits) {
    const t = this.rows.length, seat = toMove(this.game);
    let row;
    try {
      row = drop(this.game, col);
    } catch (e) {
      throw new Error("Move " + t + ": " + e.message);
    }
    this._push({ seat, col, row, limits: limits || [] });
  }

  /** The seat to move forfeits. */
  playForfeit(reason, timeout, limits) {
    const t = this.rows.length, seat = toMove(this.game);
    try {
      forfeit(this.game, String(reason));
    } catch (e) {
      throw new Error("Move " + t + ": " + e.message);
    }
    this._push({ seat, forfeit: String(reason), timeout: !!timeout, limits: limits || [] });
  }

  _push(row) {
    this.rows.push(row);
    this.boards.push(this.game.cells.slice());
    this._record();
  }

  /** The numbers of the newest board for the legend and charts. */
  _record() {
    const g = this.game;
    for (const s of [0, 1]) {
      const out = g.end && g.end.kind === "forfeit" && g.end.seat === s ? 1 : 0;
      this.numbers.push(discs(g, s), out, threats(g.cells, s));
    }
  }

  /** Player `p`'s number `name` (of `NUMBERS`) at board `t`. */
  number(t, p, name) {
    return this.numbers[(t * 2 + p) * NUMBERS.length + NUMBERS.indexOf(name)];
  }

  /** The series of number `name` for the charts: board `t`, player `p` at `t * 2 + p`. */
  series(name) {
    const k = NUMBERS.indexOf(name), n = NUMBERS.length;
    const out = new Array(this.numbers.length / n);
    for (let i = 0; i < out.length; i++) out[i] = this.numbers[i * n + k];
    return out;
  }

  /** The move player `p` forfeited in, or null. */
  forfeitedAt(p) {
    const last = this.rows[this.lastTurn()];
    return last.forfeit !== undefined && last.seat === p ? this.lastTurn() : null;
  }

  /** The problems of the replies to board `t` (the move into board `t + 1`, the turn the
   *  owner's stderr files them under), as the crate's `problems` says them: each
   *  `{player, kind, text}`. */
  problemsAt(t) {
    const row = this.rows[t + 1], out = [];
    if (!row) return out;
    if (row.forfeit !== undefined) {
      if (row.timeout) out.push({ player: row.seat, kind: "timeout", text: TIMEOUT });
      out.push({ player: row.seat, kind: "removed", text: row.forfeit + ": " + FORFEITS });
    }
    for (const [seat, text] of row.limits) out.push({ player: seat, kind: "limit", text });
    return out;
  }
}

/** A limit list `[[seat, words], ...]`, checked. */
function limitsOf(list, where) {
  if (list === undefined) return [];
  if (!Array.isArray(list) || list.some((l) => !Array.isArray(l) || (l[0] !== 0 && l[0] !== 1) || typeof l[1] !== "string")) {
    throw new Error(where + ": its limits are not [seat, words] pairs.");
  }
  return list.map((l) => [l[0], l[1]]);
}

/** Reads a stored Connect Four replay (parsed JSON) into a `ConnectFourReplay`; throws,
 *  saying why, for another format or version, a move the rules refuse, or a result
 *  that is not the game's. */
export function readConnectFour(stored) {
  checkHead(stored);
  const moves = stored.moves;
  if (typeof moves !== "string" || !/^[0-9]*$/.test(moves) || moves.length > CELLS) {
    throw new Error("This Connect Four replay's moves are not at most 42 columns.");
  }
  const limits = new Map(); // row -> [[seat, words], ...]
  const total = moves.length + (stored.forfeit ? 1 : 0);
  for (const l of stored.limits || []) {
    if (!Array.isArray(l) || !Number.isInteger(l[0]) || l[0] < 0 || l[0] > total) {
      throw new Error("This Connect Four replay has a limit beyond its " + total + " moves.");
    }
    limits.set(l[0], (limits.get(l[0]) || []).concat(limitsOf([[l[1], l[2]]], "Row " + l[0])));
  }
  const r = new ConnectFourReplay(stored);
  r.rows[0].limits = limits.get(0) || [];
  for (let i = 0; i < moves.length; i++) r.playDisc(Number(moves[i]), limits.get(i + 1));
  if (stored.forfeit) {
    const f = stored.forfeit;
    if (typeof f.reason !== "string") throw new Error("This Connect Four replay's forfeit has no reason.");
    r.playForfeit(f.reason, f.timeout, limits.get(total));
  }
  if (stored.result) {
    const res = stored.result;
    if (!r.over() || !Array.isArray(res.ranks) || res.ranks.join() !== r.outcome().ranks.join() ||
        res.end !== r.end().kind) {
      throw new Error("This Connect Four replay's result is not its game's.");
    }
    r.result = res;
  }
  return r;
}

/** A live match's game as its rows come (the stream of viewer/follow.mjs: `head` is
 *  the stored replay's head, rows are `{"start":true}` then one a move, `{"seat":0,
 *  "col":3}` or `{"seat":1,"forfeit":"column 3 is full"}`): the same methods as
 *  follow.mjs's `LiveReplay`. `replay` is the `ConnectFourReplay`, null before row 0. */
export class ConnectFourLive {
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

  /** Rows `from`, `from + 1`, ...: those held are skipped. How many were added (0: none
   *  new), or -1 when they start after a row still missing. */
  add(from, rows) {
    if (!this.head) throw new Error("The live match sent moves before its head.");
    if (from > this.rows) return -1;
    const fresh = rows.slice(this.rows - from);
    fresh.forEach((row, i) => {
      const t = this.rows + i;
      if (!row || typeof row !== "object") throw new Error("Row " + t + " is not a move.");
      const limits = limitsOf(row.limits, "Row " + t);
      if (t === 0) {
        if (!row.start) throw new Error("The live match's first row is not its start.");
        this.replay = new ConnectFourReplay(this.head);
        this.replay.rows[0].limits = limits;
        return;
      }
      if (row.seat !== toMove(this.replay.game)) throw new Error("Row " + t + " is not the move of the player to move.");
      if (typeof row.forfeit === "string") this.replay.playForfeit(row.forfeit, row.timeout, limits);
      else if (Number.isInteger(row.col)) this.replay.playDisc(row.col, limits);
      else throw new Error("Row " + t + " has no move.");
    });
    this.rows += fresh.length;
    return fresh.length;
  }

  /** The game is over: its result (null: none). */
  finish(result) {
    this.result = result || null;
    if (this.replay) this.replay.result = this.result;
  }
}

/** The first line of a Connect Four log (games/connectfour/rules.md §9). */
const LOG_HEAD = /^Connect Four: (.+) \(1\) against (.+) \(2\), (\d+) moves at most$/;

/** Whether `text` is a Connect Four log: the text `bottlebats play` writes to its
 *  `logfile`, and the match page's "Game log (text)". */
export function isConnectFourLog(text) {
  return LOG_HEAD.test(text.split("\n", 1)[0].replace(/\r$/, ""));
}

/** Reads a Connect Four log into a `ConnectFourReplay`: the players and move limit of
 *  its first line, each move's line (`move T: NAME drops a disc in column C`, or `move T:
 *  NAME forfeits the game: REASON`), each board checked against the one the rules
 *  rebuild, and the result once its `result:` line says the game is over. The limits
 *  a replay keeps are not in a log. Throws, saying at which line, for a log that is not
 *  one game's. */
export function readConnectFourLog(text) {
  const lines = text.split("\n").map((l) => l.replace(/\r$/, ""));
  const head = LOG_HEAD.exec(lines[0]);
  if (!head) throw new Error("This is not a Connect Four log.");
  const r = new ConnectFourReplay({ format: FORMAT, version: VERSION, players: [head[1], head[2]], max_turns: Number(head[3]) });
  let board = null, t = -1, ended = false;
  const fail = (i, why) => { throw new Error("Line " + (i + 1) + " of this log: " + why); };
  lines.forEach((line, i) => {
    if (i === 0 || line === "") return;
    if (board !== null) {
      board.push(line);
      if (board.length === 6) {
        const want = [];
        const cells = r.board(t);
        for (let row = 0; row < 6; row++) want.push(cells.slice(row * 7, row * 7 + 7).map((c) => ".12"[c]).join(""));
        if (board.join("\n") !== want.join("\n")) fail(i, "the board after move " + t + " is not the one its moves make.");
        board = null;
      }
      return;
    }
    const move = /^move (\d+): (.*)$/.exec(line);
    if (move) {
      if (Number(move[1]) !== t + 1) fail(i, "move " + move[1] + " where move " + (t + 1) + " was due.");
      t += 1;
      board = [];
      if (t === 0) {
        if (move[2] !== "the empty board") fail(i, "move 0 is not the empty board.");
        return;
      }
      const name = r.players[r.game.moves.length % 2], rest = move[2];
      if (!rest.startsWith(name + " ")) fail(i, "move " + t + " is not " + name + "'s, whose turn it is.");
      const what = rest.slice(name.length + 1);
      const disc = /^drops a disc in column (\d)$/.exec(what);
      try {
        if (disc) r.playDisc(Number(disc[1]));
        else if (what.startsWith(FORFEITS + ": ")) {
          const reason = what.slice(FORFEITS.length + 2);
          r.playForfeit(reason, reason === TIMEOUT);
        } else fail(i, "move " + t + " is neither a disc nor a forfeit.");
      } catch (e) {
        fail(i, e.message);
      }
      return;
    }
    if (line.startsWith("result: ")) {
      if (!r.over()) fail(i, "a result before the end of the game.");
      ended = true;
      return;
    }
    fail(i, "`" + line.slice(0, 40) + "` is no line of a Connect Four log.");
  });
  if (board !== null) throw new Error("This Connect Four log ends inside a board.");
  if (t < 0) throw new Error("This Connect Four log has no board.");
  if (ended) {
    const g = r.game;
    r.result = {
      end: g.end.kind, ranks: ranks(g), discs: [0, 1].map((s) => discs(g, s)),
      forfeits: [0, 1].map((s) => (g.end.kind === "forfeit" && g.end.seat === s ? 1 : 0)),
    };
  }
  return r;
}
