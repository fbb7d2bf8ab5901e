/* What the viewer computes once per replay: each player's forts and soldiers at every
 * turn, the turn each player went out, the winner. Pure, without the DOM. */

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
