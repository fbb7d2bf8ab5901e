/* What the Bottle Bats renderer computes once per replay: each player's forts and
 * soldiers at every turn, the turn each player went out, the winner; the same grown
 * turn by turn for a game still being played; each player's score at a turn. Pure,
 * without the DOM. */

import { palette } from "./colours.mjs";

/** Everything at once: `P` players, `T` turns, `forts` and `soldiers` (turn `t`, player
 *  `p` at `t * P + p`), their largest values (at least 1), `out` (per player, the turn
 *  it went out, or null) and `winner` (a player, or null). */
export function precompute(r) {
  const totals = countTotals(r);
  const out = outTurns(r, totals);
  return { ...totals, out, winner: winnerOf(r, out) };
}

/** Per turn and player, the forts held and the soldiers in forts and on the roads. */
export function countTotals(r) {
  const P = r.players.length, T = r.turns.length;
  const forts = new Int32Array(T * P), soldiers = new Float64Array(T * P);
  let maxForts = 1, maxSoldiers = 1;
  for (let t = 0; t < T; t++) {
    const turn = r.turns[t], base = t * P;
    const owners = turn.owners, garrisons = turn.garrisons;
    for (let f = 0; f < owners.length; f++) {
      const o = owners[f];
      if (o >= 0) {
        forts[base + o]++;
        soldiers[base + o] += garrisons[f];
      }
    }
    for (const m of turn.marches) if (m[2] >= 0) soldiers[base + m[2]] += m[3];
    for (let p = 0; p < P; p++) {
      if (forts[base + p] > maxForts) maxForts = forts[base + p];
      if (soldiers[base + p] > maxSoldiers) maxSoldiers = soldiers[base + p];
    }
  }
  return { P, T, forts, soldiers, maxForts, maxSoldiers };
}

/** The turn each player went out: from the replay's result when it has one, else the
 *  first turn the player had neither a fort nor a march; null for those still in. */
export function outTurns(r, { P, T, forts, soldiers }) {
  const out = new Array(P).fill(null);
  const removed = r.result && r.result.removed;
  if (removed) {
    for (let p = 0; p < P; p++) if (removed[p] != null) out[p] = removed[p];
    return out;
  }
  for (let p = 0; p < P; p++) {
    for (let t = 1; t < T; t++) {
      const none = forts[t * P + p] === 0 && soldiers[t * P + p] === 0 &&
        !r.turns[t].marches.some((m) => m[2] === p);
      if (none) { out[p] = t; break; }
    }
  }
  return out;
}

/** The winner: the replay's, or for a log without a result, the one player left in. */
export function winnerOf(r, out) {
  if (r.result) return r.result.winner == null ? null : r.result.winner;
  if (r.players.length < 2) return null;
  const alive = [];
  for (let p = 0; p < out.length; p++) if (out[p] === null) alive.push(p);
  return alive.length === 1 ? alive[0] : null;
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

/** Why player `p` went out at turn `t`: beaten (`out at turn 12`), or removed for
 *  something its bot did (`removed at turn 12: IndexError: …`), as the turn's events say. */
function outNote(replay, t, p) {
  const turn = replay.turns[t];
  const removed = (turn && turn.events && turn.events.removed) || [];
  const hit = removed.find(([q]) => q === p);
  const why = hit ? String(hit[1] || "") : "";
  if (!why || why === "defeated") return "out at turn " + t;
  return "removed at turn " + t + ": " + (why.length > 90 ? why.slice(0, 89) + "…" : why);
}

/** Each player's line at turn `t` of `replay` and its `stats` (`precompute` or
 *  `growStats`), as the viewer's legend and the big screen show it: `{name, colour,
 *  numbers: [["Forts", n], ["Soldiers", n]], share (of all players' soldiers, 0 to 1),
 *  out (removed at or before `t`), note (since when), winner (the result's, at its
 *  last turn)}`. */
export function scoreboard(replay, stats, t) {
  const P = replay.players.length;
  let total = 0;
  for (let p = 0; p < P; p++) total += stats.soldiers[t * P + p];
  const end = replay.result && t === replay.turns.length - 1;
  return replay.players.map((name, p) => {
    const soldiers = stats.soldiers[t * P + p];
    const out = stats.out[p] !== null && t >= stats.out[p];
    return {
      name, colour: palette(p), numbers: [["Forts", stats.forts[t * P + p]], ["Soldiers", soldiers]],
      share: total > 0 ? soldiers / total : 0, out, note: out ? outNote(replay, stats.out[p], p) : "",
      winner: !!end && stats.winner === p,
    };
  });
}
