/* The compact replay (format `bottlebats-replay`, version 2, documented with its
 * contract in docs/design.md and games/bottlebats/src/replay_v2.rs), read into the replay the
 * viewer draws (v1's shape: a whole board per turn, with its events). A row holds the
 * marches sent; the board that follows is the rules' (games/bottlebats/rules.md §3–§4): the same
 * steps as the engine's `advance`, which the node test holds this module to, board for
 * board and event for event. Pure, without the DOM. */

function damaged(why) {
  return new Error("This replay is damaged: " + why + ".");
}

/** A row as an object: a bare array is a row of marches sent and nothing else. */
function rowOf(row) {
  return Array.isArray(row) ? { s: row } : row || {};
}

/** The marches sent of a row, `[way, size]` with `way = 2 * road + toward`. */
function sendsOf(s) {
  if (s.length % 2) throw damaged("a march sent without its size");
  const out = [];
  let way = 0;
  for (let i = 0; i < s.length; i += 2) {
    if (i > 0 && s[i] === 0) throw damaged("two marches sent on one way");
    way += s[i];
    out.push([way, s[i + 1]]);
  }
  return out;
}

/** Board `before`'s marches by road and way (`[toward a, toward b]`), as the rules
 *  hold them: `{owner, size, pos}` with `pos` in half-steps from the destination. */
function waysOf(marches, lengths, before) {
  const ways = lengths.map(() => [[], []]);
  for (const [road, toward, owner, size, sent] of marches) {
    const length = lengths[road];
    const steps = length - (before - sent);
    if (length === undefined || toward > 1 || steps < 0 || steps > length) {
      throw damaged("a march off its road");
    }
    ways[road][toward].push({ owner, size, pos: 2 * steps });
  }
  for (const way of ways) for (const list of way) list.sort((x, y) => x.pos - y.pos);
  return ways;
}

/** Adds a march to its way, merged with one of the same owner at the same place. */
function putMarch(list, m) {
  const same = list.find((n) => n.pos === m.pos && n.owner === m.owner);
  if (same) {
    same.size += m.size;
    return;
  }
  let at = 0;
  while (at < list.length && list[at].pos <= m.pos) at++;
  list.splice(at, 0, m);
}

const dead = (m) => m.pos === Infinity;

/** Two marches of different owners meet: each loses the smaller one's size. */
function fight(x, y) {
  const loss = Math.min(x.size, y.size);
  x.size -= loss;
  y.size -= loss;
  if (x.size === 0) x.pos = Infinity;
  if (y.size === 0) y.pos = Infinity;
}

/** One half-step on a road: every march moves one position, then marches heading to
 *  opposite ends at the same point fight if their owners differ. */
function halfStep(way, road, length, battles) {
  for (const list of way) for (const m of list) m.pos = Math.max(0, m.pos - 1);
  const [a, b] = way;
  if (!a.length || !b.length) return;
  const full = 2 * length;
  let fought = false;
  let i = 0, j = a.length;
  while (i < b.length && j > 0) {
    const p = b[i].pos, q = a[j - 1].pos;
    if (p + q < full) i++;
    else if (p + q > full) j--;
    else {
      let iEnd = i, jStart = j;
      while (iEnd < b.length && b[iEnd].pos === p) iEnd++;
      while (jStart > 0 && a[jStart - 1].pos === q) jStart--;
      for (let x = i; x < iEnd; x++) {
        for (let y = jStart; y < j; y++) {
          const X = b[x], Y = a[y];
          if (dead(X) || dead(Y) || X.owner === Y.owner) continue;
          battles.push([road, q, Y.owner, Y.size, X.owner, X.size]);
          fight(X, Y);
          fought = true;
        }
      }
      i = iEnd;
      j = jStart;
    }
  }
  if (fought) {
    way[0] = a.filter((m) => !dead(m));
    way[1] = b.filter((m) => !dead(m));
  }
}

/** The largest army less the second holds the fort; a tie keeps its owner, empty. */
function siege(previous, armies) {
  if (armies.length < 2) return armies[0];
  armies.sort((x, y) => y[1] - x[1]);
  const [top, second] = armies;
  return top[1] === second[1] ? [previous, 0] : [top[0], top[1] - second[1]];
}

/** Movement, sieges and growth (the engine's `advance`), in place; returns the turn's
 *  battles and captures. */
function advance(roads, owners, garrisons, ways) {
  const battles = [], captures = [], arrived = [];
  ways.forEach((way, i) => {
    if (!way[0].length && !way[1].length) return;
    const [fa, fb, length] = roads[i];
    for (let k = 0; k < 2; k++) halfStep(way, i, length, battles);
    [[0, fa], [1, fb]].forEach(([side, fort]) => {
      const list = way[side];
      let n = 0;
      while (n < list.length && list[n].pos === 0) n++;
      for (const m of list.splice(0, n)) arrived.push([fort, m.owner, m.size]);
    });
  });
  arrived.sort((x, y) => x[0] - y[0]);
  for (let i = 0; i < arrived.length; ) {
    const fort = arrived[i][0], before = owners[fort];
    const armies = [[before, garrisons[fort]]];
    for (; i < arrived.length && arrived[i][0] === fort; i++) {
      const [, owner, size] = arrived[i];
      const army = armies.find((x) => x[0] === owner);
      if (army) army[1] += size;
      else armies.push([owner, size]);
    }
    const [owner, garrison] = siege(before, armies);
    if (owner !== before) captures.push([fort, before, owner]);
    owners[fort] = owner;
    garrisons[fort] = garrison;
  }
  owners.forEach((o, f) => {
    if (o >= 0) garrisons[f] += 1;
  });
  return { battles, captures };
}

/** Board `t` from board `t - 1` (`prev`) and the marches sent in between, with the
 *  battles and captures of that turn. */
function derive(r, lengths, prev, t, sends) {
  const roads = r.map.roads;
  const owners = prev.owners.slice(), garrisons = prev.garrisons.slice();
  const ways = waysOf(prev.marches, lengths, t - 1);
  for (const [way, size] of sends) {
    const road = way >> 1, toB = way & 1;
    if (road >= roads.length) throw damaged("a march sent on no road");
    const from = toB ? roads[road][0] : roads[road][1];
    if (garrisons[from] < size) throw damaged("a march bigger than its fort's garrison");
    garrisons[from] -= size;
    putMarch(ways[road][toB], { owner: owners[from], size, pos: 2 * lengths[road] });
  }
  const { battles, captures } = advance(roads, owners, garrisons, ways);
  const marches = [];
  ways.forEach((way, road) => {
    way.forEach((list, toward) => {
      for (const m of list) {
        marches.push([road, toward, m.owner, m.size, t - (lengths[road] - m.pos / 2)]);
      }
    });
  });
  return { board: { owners, garrisons, marches }, battles, captures };
}

/** The events of a turn as v1 writes them: only the kinds that happened. */
function eventsOf(stored, battles, captures) {
  const events = {};
  if (battles.length) events.battles = battles;
  if (captures.length) events.captures = captures;
  for (const [key, value] of Object.entries(stored || {})) {
    if (!Array.isArray(value) || value.length) events[key] = value;
  }
  return events;
}

/** The compact replay `r` as the viewer's replay (version 1's shape). */
export function expandCompact(r) {
  const first = rowOf(r.turns && r.turns[0]);
  if (!Array.isArray(r.turns) || !first.k) {
    throw new Error("This replay is incomplete: its first turn is not a whole board.");
  }
  const lengths = r.map.roads.map((rd) => rd[2]);
  const turns = [];
  r.turns.forEach((raw, t) => {
    const row = rowOf(raw);
    let board, events;
    if (row.k) {
      board = { owners: row.k.owners, garrisons: row.k.garrisons, marches: row.k.marches };
      events = eventsOf(row.e, [], []);
    } else {
      const next = derive(r, lengths, turns[t - 1], t, sendsOf(row.s || []));
      board = next.board;
      events = eventsOf(row.e, next.battles, next.captures);
    }
    if (t > 0) turns[t - 1].events = events;
    turns.push({ ...board, events: {} });
  });
  return {
    format: r.format, version: 1, map: r.map, players: r.players,
    max_steps: r.max_steps, turns, result: r.result,
  };
}
