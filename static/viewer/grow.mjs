/* A game still being played, as the viewer keeps it up to date when turns come
 * (`BottleBatsViewer.extend`): the numbers of stats.mjs grown by the new turns only,
 * the pace at which a viewer at the newest turn follows the game, and the pace of a
 * big screen that plays every game over the same time. Pure, without the DOM. */

import { countTotals } from "./stats.mjs";

/** A viewer following the game trails the newest turn by about this long: it plays
 *  the turns as fast as they come, smoothly. */
export const FOLLOW_LAG_S = 1;
/** ... and never slower than this many turns a second, so it does reach it. */
export const FOLLOW_MIN_RATE = 2;
/** A viewer following more than this many turns behind jumps to the newest (a burst of
 *  turns: the start of a match already under way, a reconnection). */
export const FOLLOW_JUMP = 60;
/** While a game is being played, its charts are drawn again at most this often (ms). */
export const CHARTS_MS = 1000;

/** Turns a second a viewer following the game plays at, `behind` turns behind the
 *  newest. */
export function followRate(behind) {
  return Math.max(FOLLOW_MIN_RATE, behind / FOLLOW_LAG_S);
}

/** A game played at a pace (the big screen) is shown at no fewer turns a second than
 *  this, so a short game is not drawn out; ... */
export const PACE_MIN_RATE = 1;
/** ... and no more: each turn is still drawn on a screen refreshed 60 times a second. */
export const PACE_MAX_RATE = 60;

/** Turns a second that play a game whose last turn known is `last` over `seconds`
 *  (its length as far as it is known: a game still being played speeds up as its
 *  turns come, and ends at about `seconds` once it is all known), within the bounds. */
export function paceRate(last, seconds) {
  return Math.min(PACE_MAX_RATE, Math.max(PACE_MIN_RATE, last / seconds));
}

/** The numbers of `precompute` (stats.mjs) for replay `r`, a game still being played
 *  (no result yet), grown from `prev` (those of the same game with fewer turns, or
 *  null) by counting the new turns only: `forts` and `soldiers` (turn `t`, player `p`
 *  at `t * P + p`; their arrays may be longer than `T * P`, room for the next turns),
 *  their largest values, `out` (the turn whose events removed each player, as the
 *  result's `removed` will say, or null) and `winner`, null until the result. Once
 *  the game has its result, `precompute` gives the final numbers. */
export function growStats(prev, r) {
  const P = r.players.length, T = r.turns.length;
  if (prev && (prev.P !== P || prev.T > T)) prev = null;
  const from = prev ? prev.T : 0;
  let forts = prev ? prev.forts : null, soldiers = prev ? prev.soldiers : null;
  if (!forts || forts.length < T * P) {
    const room = Math.max(T, 2 * from, 64) * P;
    const f = new Int32Array(room), s = new Float64Array(room);
    if (prev) {
      f.set(forts.subarray(0, from * P));
      s.set(soldiers.subarray(0, from * P));
    }
    forts = f;
    soldiers = s;
  }
  const part = countTotals({ players: r.players, turns: r.turns.slice(from) });
  forts.set(part.forts, from * P);
  soldiers.set(part.soldiers, from * P);
  const out = prev ? prev.out.slice() : new Array(P).fill(null);
  // The events of the turn that was the newest are known now too.
  for (let t = Math.max(0, from - 1); t < T; t++) {
    const removed = (r.turns[t].events || {}).removed || [];
    for (const [p] of removed) if (p >= 0 && p < P && out[p] === null) out[p] = t;
  }
  return {
    P, T, forts, soldiers, out, winner: null,
    maxForts: Math.max(prev ? prev.maxForts : 1, part.maxForts),
    maxSoldiers: Math.max(prev ? prev.maxSoldiers : 1, part.maxSoldiers),
  };
}

/** What `describe` says of turn `t` with the game still going: at the newest turn it
 *  would end with ". The end.", which it is not yet. */
export function liveDescription(text) {
  return text.endsWith(". The end.") ? text.slice(0, -". The end.".length) : text;
}
