/* What the Vindinium viewer says in words: the game, its result, what happened in a
 * move. Pure, without the DOM. */

import { fmt } from "../viewer/dom.mjs";
import { MINE } from "./rules.mjs";

const WORDS = { n: "north", s: "south", e: "east", w: "west" };

/** "4 heroes · 18 × 18 · 12 mines · 1,200 moves". */
export function summary(r) {
  const mines = r.keyframes[0].mines.length, size = r.map.size;
  return "4 heroes · " + size + " × " + size + " · " + mines + (mines === 1 ? " mine" : " mines") +
    " · " + fmt(r.lastTurn()) + " moves";
}

/** Who won (`outcome` of the replay), or a draw, once the result is known; else "". */
export function resultText(r) {
  if (!r.result) return "";
  const { winner } = r.outcome(), gold = r.number(r.lastTurn(), winner ?? 0, "gold");
  if (winner === null) return "A draw after " + fmt(r.lastTurn()) + " moves";
  return r.players[winner] + " wins with " + fmt(gold) + " gold";
}

/** What happened in move `t` (the one that led to state `t`), and at the last state
 *  how the game ended; `before` and `after` are states `t - 1` and `t`. */
export function describe(r, t, before, after) {
  if (t === 0) return "Move 0: the start. Press play.";
  const p = r.movers[t] - 1, name = r.players[p], c = r.moves[t - 1];
  const moved = before.heroes[p].x !== after.heroes[p].x || before.heroes[p].y !== after.heroes[p].y;
  const parts = [];
  const log = r.logs[t];
  if (c === "c") parts.push(name + " crashed: its hero stays until the end");
  else if (before.heroes[p].crashed) parts.push(name + " stays (crashed)");
  else if (c === "x") parts.push(name + " stayed");
  else if (moved && !log.some((e) => e[0] === "mined")) parts.push(name + " went " + WORDS[c]);
  else if (!log.length) parts.push(name + " tried " + WORDS[c]);
  for (const [kind, hero, other] of log) {
    const who = r.players[hero - 1];
    if (kind === "beer") parts.push(who + " drank a beer");
    if (kind === "mine") parts.push(who + " took a mine" + (other ? " from " + r.players[other - 1] : ""));
    if (kind === "mined") parts.push(who + " died fighting a mine and lost its mines");
    if (kind === "kill") parts.push(r.players[other - 1] + " killed " + who);
    if (kind === "telefrag") parts.push(r.players[other - 1] + " respawned onto " + who + " (telefrag)");
  }
  let text = "Move " + t + ": " + parts.join(" · ");
  if (t === r.lastTurn() && r.over()) {
    const why = after.status === "all_crashed" ? "all four crashed" : "the last move";
    const res = r.result ? resultText(r) : "";
    text += ". The end (" + why + ")" + (res ? ": " + res : "") + ".";
  }
  return text;
}

/** The owner (1 to 4, 0 for none) of the mine on tile value `tile`, or -1. */
export function mineOwner(tile) {
  return tile >= MINE ? tile - MINE : -1;
}
