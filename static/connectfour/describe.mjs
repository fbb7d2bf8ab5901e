/* What the Connect Four viewer says in words: the game, its result, what happened in a
 * move, each player at a move. Pure, without the DOM. */

import { FORFEITS } from "./replay.mjs";
import { discColour } from "./render.mjs";

/** "2 players · 7 × 6 · 17 moves". */
export function summary(r) {
  const n = r.lastTurn();
  return "2 players · 7 × 6 · " + n + (n === 1 ? " move" : " moves");
}

/** Who won, or a draw, once the result is known; else "". */
export function resultText(r) {
  const end = r.result && r.end();
  if (!end) return "";
  const names = r.players;
  switch (end.kind) {
    case "four": return names[end.seat] + " wins with four in a row";
    case "forfeit": return names[1 - end.seat] + " wins: " + names[end.seat] + " forfeited";
    case "full": return "A draw: the board is full";
    default: return "A draw at the limit of " + r.maxTurns + " moves";
  }
}

/** What happened in move `t` (the one that led to board `t`), and at the last board
 *  how the game ended. */
export function describe(r, t) {
  if (t === 0) return "Move 0: the empty board. Press play.";
  const row = r.rows[t], name = r.players[row.seat];
  let text = "Move " + t + ": " + (row.forfeit !== undefined
    ? name + " " + FORFEITS + ": " + row.forfeit
    : name + " drops a disc in column " + row.col);
  if (t === r.lastTurn() && r.over()) {
    const end = r.end();
    const why = { four: "four in a row", full: "the board is full", limit: "the move limit", forfeit: "a forfeit" }[end.kind];
    const res = resultText(r);
    text += ". The end (" + why + ")" + (res ? ": " + res : "") + ".";
  }
  return text;
}

/** The legend's heads of the numbers shown (a forfeit shows as the player out). */
const LABELS = { discs: "Discs", threats: "Threats" };

/** Each player at board `t`: `{name, colour, numbers: [["Discs", n], ["Threats", n,
 *  "legend"]], out (forfeited at or before `t`), note (since when), winner (the
 *  result's, at the last board)}`. Threats are the empty cells where the player's disc
 *  would make four: the legend's only, the big screen leaves them out. */
export function scoreboard(r, t) {
  const end = r.result && t === r.lastTurn();
  const winner = end ? r.outcome().winner : null;
  return r.players.map((name, p) => {
    const at = r.forfeitedAt(p), out = at !== null && t >= at;
    return {
      name, colour: discColour(p),
      numbers: ["discs", "threats"].map((k) =>
        [LABELS[k], r.number(t, p, k)].concat(k === "threats" ? ["legend"] : [])),
      out, note: out ? "forfeited at move " + at : "", winner: winner === p,
    };
  });
}
