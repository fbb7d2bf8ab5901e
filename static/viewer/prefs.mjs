/* What the viewer keeps: in the browser, the speed chosen last, whether results are
 * hidden until the end and the palette chosen; in the address, the turn shown
 * (`#t=N`). */

import { SPEEDS } from "./controls.mjs";

/** Where the browser keeps the speed chosen last. */
export const SPEED_KEY = "bottlebats-viewer-speed";

/** A speed as the menu offers it ("auto" or one of `SPEEDS`), or null. */
export function validSpeed(x) {
  if (x === "auto") return "auto";
  return SPEEDS.indexOf(+x) >= 0 ? +x : null;
}

/** Where the browser keeps whether results are hidden until the end. */
export const SPOILERS_KEY = "bottlebats-viewer-hide-result";

/** Where the browser keeps the palette chosen (a renderer's `palettes`: "usual",
 *  "colour-blind"). */
export const PALETTE_KEY = "bottlebats-viewer-palette";

/** A setting kept in this browser, or null (storage refused: private mode, a frame). */
export function stored(key) {
  try {
    return localStorage.getItem(key);
  } catch (e) {
    return null;
  }
}

/** Keeps a setting in this browser when it may. */
export function store(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch (e) {
    // Not kept: it holds for this page.
  }
}

/** The speed chosen last in this browser, if any. */
export function rememberedSpeed() {
  return validSpeed(stored(SPEED_KEY));
}

/** The turn in the address (`#t=N`), or null. */
export function hashTurn() {
  const m = /(?:^#|&)t=(\d+)/.exec(location.hash);
  return m ? parseInt(m[1], 10) : null;
}
