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
 * before the container), `viewer` (options for the viewer, which is given
 * `live: true`). The viewer is made in `container` when the first rows come, and
 * extended as more come; `end` gives it its result.
 *
 * The status line says "Waiting for the match to start…", "Live · turn 57" (the
 * newest turn received), "Reconnecting…" (the browser reconnects by itself; a stream
 * refused is asked again every 5 s) or "Finished". Rows already held are skipped;
 * rows after a missing one make it read the stream again from its start.
 *
 * Returns `{viewer (null until the first rows), replay (the live reader, null before
 * the head), state, status and result (the end's, once ended), close()}`; `close()` stops following (the viewer
 * stays). Events on the container: `livestatus` (detail `{state: "waiting" | "live" |
 * "ended" | "error", turn}`) when the state or the newest turn changes, `liveend`
 * (detail `{result, status, replay}`) once. The container carries `data-live-state`
 * and `data-live-turn` (the newest turn received, -1 before any).
 *
 * The rows are read by the game's own live reader (its `live()`: Bottle Bats'
 * `LiveReplay`, Vindinium's `VindiniumLive`), picked by the head's `format`: `setHead`,
 * `add(from, rows)`, `newest()`, `finish(result)` and `replay`, the game so far, which
 * the viewer draws. */

import { viewerFor } from "./viewer.mjs";
import { gameOf } from "./games.mjs";
import { el } from "./dom.mjs";

/** After the server refused the stream (or it failed for good), try again this late. */
const RETRY_MS = 5000;

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
  let live = null; // the game's live reader, from the first head
  let status = options.status;
  if (!status) {
    status = el("p", "bbv-live-status");
    container.parentNode.insertBefore(status, container);
  }
  // It changes with every turn received: read when looked at, not announced.
  status.setAttribute("aria-live", "off");
  const handle = { viewer: null, replay: null, state: "", status: null, result: undefined, close };
  let source = null, retry = 0, shown = "";

  function say(state, why) {
    const turn = live ? live.newest() : -1;
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
    if (!live) throw new Error("The live match sent turns before its head.");
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
    if (live) live.finish(data.result);
    const result = live ? live.result : data.result || null;
    handle.result = result;
    if (handle.viewer) handle.viewer.finish(result);
    say("ended");
    container.dispatchEvent(new CustomEvent("liveend", {
      bubbles: true, detail: { result, status: handle.status, replay: data.replay },
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
      // The game's own reader reads its rows (a reconnection sends the head again).
      if (!live) live = handle.replay = gameOf(head).live();
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
