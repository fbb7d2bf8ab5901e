/* The compact replay (format `bottlebats-replay`, version 2, documented with its
 * contract in engine/src/replay_v2.rs), read into the replay the viewer draws (v1's
 * shape: a whole board per turn). The same steps as the engine's reader, which the
 * node test holds it to, board for board. Pure, without the DOM. */

/** The marches of `prev` (a board) by road and way, and those that reached their fort
 *  by turn `t`. */
function walkingOn(prevMarches, lengths, t) {
  const ways = lengths.map(() => [[], []]);
  const arrived = [];
  for (const m of prevMarches) {
    if (m[4] + lengths[m[0]] > t) ways[m[0]][m[1]].push(m.slice());
    else arrived.push(m);
  }
  return { ways, arrived };
}

/** The fort a march on `road` going `toward` leaves (`from`) or reaches. */
function fortOf(roads, road, toward, from) {
  const [a, b] = roads[road];
  return (toward === 0) !== from ? a : b;
}

/** The marches sent of `row`, in order: `s` as (way, size) pairs, `x` with their place. */
function sentMarches(row, roads, prev, t) {
  const s = row.s || [], x = row.x || [];
  if (s.length % 2) throw new Error("This replay is damaged: a march sent without its size.");
  const out = [];
  let i = 0, j = 0;
  while (i < s.length || j < x.length) {
    if (j < x.length && x[j][0] === out.length) {
      const [, road, toward, size, owner, sent] = x[j++];
      out.push([road, toward, owner, size, sent]);
      continue;
    }
    if (i >= s.length) throw new Error("This replay is damaged: a march sent out of order.");
    const road = Math.floor(s[i] / 2), toward = s[i] % 2, size = s[i + 1];
    i += 2;
    if (road >= roads.length) throw new Error("This replay is damaged: a march on no road.");
    out.push([road, toward, prev.owners[fortOf(roads, road, toward, true)], size, t - 1]);
  }
  return out;
}

/** The board of turn `t` of the compact replay `r`, from that of turn `t - 1`. */
function nextBoard(r, lengths, prev, t) {
  const row = r.turns[t], roads = r.map.roads;
  const events = row.e || {};
  if (row.k) {
    return { owners: row.k.owners, garrisons: row.k.garrisons, marches: row.k.marches, events };
  }
  const { ways, arrived } = walkingOn(prev.marches, lengths, t);
  for (const [road, toward, i, size] of row.z || []) ways[road][toward][i][3] = size;
  const lost = (row.l || []).slice().sort((a, b) => b[0] - a[0] || b[1] - a[1] || b[2] - a[2]);
  for (const [road, toward, i] of lost) ways[road][toward].splice(i, 1);
  const sent = sentMarches(row, roads, prev, t);
  for (const m of sent) ways[m[0]][m[1]].push(m);
  // The forts as derived (see the contract), then those the row gives.
  const garrisons = prev.garrisons.slice();
  for (const m of sent) garrisons[fortOf(roads, m[0], m[1], true)] -= m[3];
  for (const m of arrived) {
    const to = fortOf(roads, m[0], m[1], false);
    if (prev.owners[to] === m[2]) garrisons[to] += m[3];
  }
  const owners = prev.owners.slice();
  for (let i = 0; i < garrisons.length; i++) {
    garrisons[i] = Math.max(0, garrisons[i] + (prev.owners[i] >= 0 ? 1 : 0));
  }
  for (const [i, o, g] of row.f || []) {
    owners[i] = o;
    garrisons[i] = g;
  }
  const marches = [];
  for (const [a, b] of ways) marches.push(...a, ...b);
  return { owners, garrisons, marches, events };
}

/** The compact replay `r` as the viewer's replay (version 1's shape). */
export function expandCompact(r) {
  if (!Array.isArray(r.turns) || !r.turns.length || !r.turns[0].k) {
    throw new Error("This replay is incomplete: its first turn is not a whole board.");
  }
  const lengths = r.map.roads.map((rd) => rd[2]);
  const turns = [];
  let prev = null;
  for (let t = 0; t < r.turns.length; t++) {
    prev = nextBoard(r, lengths, prev, t);
    turns.push(prev);
  }
  return {
    format: r.format, version: 1, map: r.map, players: r.players,
    max_steps: r.max_steps, turns, result: r.result,
  };
}
