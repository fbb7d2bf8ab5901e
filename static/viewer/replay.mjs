/* Reading a game: our JSON replay (format `bottlebats-replay`, version 1, documented in
 * games/bottlebats/src/replay.rs, or the compact version 2, games/bottlebats/src/replay_v2.rs) or a classic
 * log, from text, a local file or this site, gzipped or not. */

import { parseClassicLog } from "./classic-log.mjs";
import { expandCompact } from "./compact.mjs";
import { isVindinium, readVindinium } from "../vindinium/replay.mjs";

/** Our JSON replay, a Vindinium replay (its own reader's `VindiniumReplay`) or a
 *  classic log, as a replay object; throws with a reason. */
export function parse(text) {
  const start = text.replace(/^\uFEFF/, "").trimStart();
  if (start.charAt(0) === "{") {
    let r;
    try {
      r = JSON.parse(start);
    } catch (e) {
      throw new Error("This is not valid JSON: " + e.message);
    }
    if (isVindinium(r)) return readVindinium(r);
    return checkReplay(r);
  }
  if (/^#\s*STEP:/m.test(start) || /^\s*(\d+|\?)\s+\S+:\s*$/m.test(start)) {
    return parseClassicLog(start);
  }
  throw new Error("This is neither a Bottle Bats JSON replay nor a classic log (# STEP: n).");
}

/** `r` itself if it is a replay this viewer reads; throws saying why not. */
export function checkReplay(r) {
  if (!r || r.format !== "bottlebats-replay") {
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

/** Whether `bytes` start as gzip does. */
export function isGzip(bytes) {
  return bytes[0] === 0x1f && bytes[1] === 0x8b;
}

function gunzip(bytes) {
  if (typeof DecompressionStream === "undefined") {
    return Promise.reject(new Error("This browser cannot open gzip files; unpack it first."));
  }
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Response(stream).text();
}

/** A promise of the text in `buffer` (an ArrayBuffer): UTF-8, unpacked if gzipped. */
export function decode(buffer) {
  const bytes = new Uint8Array(buffer);
  if (isGzip(bytes)) return gunzip(bytes);
  return Promise.resolve(new TextDecoder("utf-8").decode(bytes));
}

/** A promise of the replay in a local `File` (JSON, classic log, either gzipped). */
export function readFile(file) {
  return file.arrayBuffer().then(decode).then(parse);
}

/** A promise of the text at `url` on this site (gzipped or not); it fails saying the
 *  status when the site refuses. */
export function fetchText(url) {
  return fetch(url, { credentials: "same-origin" }).then((res) => {
    if (!res.ok) {
      const status = res.status + (res.statusText ? " " + res.statusText : "");
      throw new Error("The replay could not be loaded (" + status + ").");
    }
    return res.arrayBuffer();
  }).then(decode);
}
