/* Following a match as it is played: the server's stream of its turns
 * (`GET /matches/{id}/turns`, Server-Sent Events) read into a viewer that grows.
 *
 *   import { follow } from "/static/viewer/follow.mjs";
 *   const live = follow(container, "/matches/12/turns", options);
 *
 * The stream: `wait` (`{status: "queued"}`, repeated while the match has not started),
 * `head` (the compact replay, format version 2, without its turns and result; sent
 * again on every reconnection), `rows` (`{from, rows}`: the compact replay's rows
 * `from`, `from + 1`, ...; row 0 is a keyframe; after a reconnection they start again
 * at 0), then `end` (`{result, replay, status: "finished" | "voided"}`), after which
 * the server closes it.
 *
 * Options: `status` (an element for the status line; else a `p.bbv-live-status` put
 * before the container), `viewer` (options for the `BottleBatsViewer`, which is given
 * `live: true`). The viewer is made in `container` when the first rows come, and
 * extended as more come; `end` gives it its result.
 *
 * The status line says "Waiting for the match to start…", "Live · turn 57" (the
 * newest turn received), "Reconnecting…" (the browser reconnects by itself; a stream
 * refused is asked again every 5 s) or "Finished". Rows already held are skipped;
 * rows after a missing one make it read the stream again from its start.
 *
 * Returns `{viewer (null until the first rows), replay (the `LiveReplay`), state,
 * status (the end's, once ended), close()}`; `close()` stops following (the viewer
 * stays). Events on the container: `livestatus` (detail `{state: "waiting" | "live" |
 * "ended" | "error", turn}`) when the state or the newest turn changes, `liveend`
 * (detail `{result, status, replay}`) once. The container carries `data-live-state`
 * and `data-live-turn` (the newest turn received, -1 before any).
 *
 * `LiveReplay` (pure, tested with node) keeps the compact replay so far and the
 * replay the viewer draws (v1's shape), grown by the new rows only. A Vindinium match
 * (its head's format `vindinium-replay`) is read by `VindiniumLive` and shown by the
 * Vindinium viewer instead. */

import { viewerFor } from "./viewer.mjs";
import { isVindinium, VindiniumLive } from "../vindinium/replay.mjs";
import { expandCompact } from "./compact.mjs";
import { el } from "./dom.mjs";

/** After the server refused the stream (or it failed for good), try again this late. */
const RETRY_MS = 5000;

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
    if (!head || head.format !== "bottlebats-replay" || head.version !== 2 || !head.map) {
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

/** What the status line says in each state. */
function statusText(state, turn, status) {
  switch (state) {
    case "waiting": return "Waiting for the match to start…";
    case "live": return "Live · turn " + Math.max(turn, 0);
    case "ended": return status === "voided" ? "Voided: this match does not count" : "Finished";
    default: return "Reconnecting…";
  }
}

/** Follows the match whose turns stream at `url` in `container` (see the top). */
export function follow(container, url, options) {
  options = options || {};
  let live = new LiveReplay();
  let status = options.status;
  if (!status) {
    status = el("p", "bbv-live-status");
    container.parentNode.insertBefore(status, container);
  }
  // It changes with every turn received: read when looked at, not announced.
  status.setAttribute("aria-live", "off");
  const handle = { viewer: null, replay: live, state: "", status: null, close };
  let source = null, retry = 0, shown = "";

  function say(state, why) {
    const turn = live.newest();
    const text = why || statusText(state, turn, handle.status);
    if (text === shown && state === handle.state) return;
    shown = text;
    status.textContent = text;
    status.setAttribute("data-state", state);
    container.setAttribute("data-live-state", state);
    container.setAttribute("data-live-turn", String(turn));
    handle.state = state;
    container.dispatchEvent(new CustomEvent("livestatus", { bubbles: true, detail: { state, turn } }));
  }

  /** Stops for good, saying why. */
  function fail(err) {
    close();
    say("error", "The live match could not be shown: " + (err && err.message ? err.message : err));
  }

  function onRows(data) {
    const n = live.add(data.from, data.rows);
    if (n < 0) {
      // A row went missing: the stream is read again from its start.
      source.close();
      open();
      return;
    }
    if (n === 0) return;
    if (!handle.viewer) {
      const opts = { ...(options.viewer || {}), live: true };
      handle.viewer = viewerFor(container, live.replay, opts);
    } else {
      handle.viewer.extend(live.replay);
    }
    say("live");
  }

  function onEnd(data) {
    close();
    handle.status = data.status || "finished";
    live.finish(data.result);
    if (handle.viewer) handle.viewer.finish(live.result);
    say("ended");
    container.dispatchEvent(new CustomEvent("liveend", {
      bubbles: true, detail: { result: live.result, status: handle.status, replay: data.replay },
    }));
  }

  function open() {
    clearTimeout(retry);
    const es = new EventSource(url);
    source = es;
    // `fn(data)` for the events of `type` of this stream while it is the one read.
    const on = (type, fn) => es.addEventListener(type, (e) => {
      if (source !== es) return;
      try {
        fn(JSON.parse(e.data));
      } catch (err) {
        fail(err);
      }
    });
    on("wait", () => say("waiting"));
    on("head", (head) => {
      // A Vindinium match's head: its own rows, read by its own reader.
      if (isVindinium(head) && !live.head) live = handle.replay = new VindiniumLive();
      live.setHead(head);
      if (live.newest() >= 0) say("live");
    });
    on("rows", onRows);
    on("end", onEnd);
    es.onerror = () => {
      if (source !== es) return;
      say("error");
      if (es.readyState === EventSource.CLOSED) {
        // Refused (not a stream, an error status): the browser gives up; we do not.
        source = null;
        retry = setTimeout(open, RETRY_MS);
      }
    };
  }

  function close() {
    clearTimeout(retry);
    if (source) source.close();
    source = null;
  }

  say("waiting");
  open();
  return handle;
}
