/* Each hero at a move, as the viewer's legend and the big screen show it. Pure,
 * without the DOM. */

import { heroColour } from "./render.mjs";
import { NUMBERS } from "./replay.mjs";

/** The legend's heads of `NUMBERS`. */
const LABELS = { gold: "Gold", mines: "Mines", life: "Life", deaths: "Deaths" };
/** The numbers the big screen leaves to the legend (life changes every move). */
const LEGEND_ONLY = ["life"];

/** Each hero at state `t` of `r` (a `VindiniumReplay`): `{name, colour, numbers:
 *  [["Gold", n], ["Mines", n], ["Life", n, "legend"], ["Deaths", n]], out (crashed at or before
 *  `t`), note (since when), winner (the result's, at its last state)}`. */
export function scoreboard(r, t) {
  const end = r.result && t === r.lastTurn();
  const winner = end ? r.outcome().winner : null;
  return r.players.map((name, p) => {
    const crashed = r.crashedAt(p), out = crashed !== null && t >= crashed;
    return {
      name, colour: heroColour(p),
      numbers: NUMBERS.map((k) => [LABELS[k], r.number(t, p, k)].concat(LEGEND_ONLY.includes(k) ? ["legend"] : [])),
      out, note: out ? "crashed at move " + crashed : "", winner: winner === p,
    };
  });
}
