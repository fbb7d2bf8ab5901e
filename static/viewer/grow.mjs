/* A game still being played, as the viewer keeps up with it when turns come
 * (`Viewer.extend`): the pace at which a viewer at the newest turn follows the game,
 * and the pace of a big screen that plays every game over the same time. Pure,
 * without the DOM. */

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

/** What `describe` says of turn `t` with the game still going: at the newest turn it
 *  would end with ". The end.", which it is not yet. */
export function liveDescription(text) {
  return text.endsWith(". The end.") ? text.slice(0, -". The end.".length) : text;
}
