/* Reading a game for the viewer: from text, a local file or this site, gzipped or not;
 * the game (games.mjs) is picked by the JSON's `format`, or by the text (a classic log
 * of the 2016 visualizer is Bottle Bats'). */

import { gameOf, gameOfText } from "./games.mjs";

/** The replay in `text` (a game's JSON replay, or a text format a game reads), read by
 *  its game; throws with a reason. */
export function parse(text) {
  const start = text.replace(/^\uFEFF/, "").trimStart();
  const game = gameOfText(start);
  if (start.charAt(0) === "{") {
    let r;
    try {
      r = JSON.parse(start);
    } catch (e) {
      // A game's text that is JSON a line (Vindinium's log).
      if (game) return game.readText(start);
      throw new Error("This is not valid JSON: " + e.message);
    }
    return gameOf(r).read(r);
  }
  if (game) return game.readText(start);
  throw new Error("This is neither a JSON replay nor a game's log (a classic log: # STEP: n).");
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
