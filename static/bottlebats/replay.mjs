/* Reading a Bottle Bats game: our JSON replay (format `bottlebats-replay`, version 1,
 * documented in games/bottlebats/src/replay.rs, or the compact version 2, games/bottlebats/src/replay_v2.rs)
 * or a classic log of the 2016 visualizer (`# STEP: n`). Pure, without the DOM. */

import { parseClassicLog } from "./classic-log.mjs";
import { expandCompact } from "./compact.mjs";

export const FORMAT = "bottlebats-replay";

/** Whether `text` (trimmed at its start) is a classic log. */
export function isClassicLog(text) {
  return /^#\s*STEP:/m.test(text) || /^\s*(\d+|\?)\s+\S+:\s*$/m.test(text);
}

/** The classic log `text` as a replay; throws with a reason. */
export function readClassicLog(text) {
  return parseClassicLog(text);
}

/** `r` itself (v1), or read (v2), if it is a replay this viewer reads; throws saying
 *  why not. */
export function checkReplay(r) {
  if (!r || r.format !== FORMAT) {
    throw new Error("This JSON is not a Bottle Bats replay (its format is not bottlebats-replay).");
  }
  if (r.version !== 1 && r.version !== 2) {
    throw new Error("This replay is version " + r.version + "; this viewer reads versions 1 and 2.");
  }
  if (!r.map || !Array.isArray(r.map.forts) || !Array.isArray(r.map.roads) ||
      !Array.isArray(r.turns) || !r.turns.length || !Array.isArray(r.players)) {
    throw new Error("This replay is incomplete: it needs a map, players and turns.");
  }
  checkSize(r);
  return r.version === 2 ? expandCompact(r) : r;
}

/** The most turns a replay may have to be opened (games are 500 turns by default). */
export const MAX_TURNS = 20001;
/** The most forts and roads times turns: what the expanded boards take in memory. */
export const MAX_CELLS = 20000000;

/** Throws, saying why, when `r` is too big to expand in a browser: a few kilobytes
 *  of gzipped JSON can promise a million boards. */
function checkSize(r) {
  const turns = r.turns.length;
  const forts = r.map.forts.length;
  const roads = r.map.roads.length;
  if (turns > MAX_TURNS) {
    throw new Error("This replay has " + turns + " turns; the viewer opens games of at most " +
      (MAX_TURNS - 1) + " turns.");
  }
  if ((forts + roads) * turns > MAX_CELLS) {
    throw new Error("This replay is too big to open: " + forts + " forts and " + roads +
      " roads over " + turns + " turns.");
  }
}
