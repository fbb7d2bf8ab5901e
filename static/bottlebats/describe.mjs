/* What the Bottle Bats renderer says in words: the game, its result, what happened in a turn. Pure,
 * without the DOM. */

/** "8 players · 97 forts · 500 turns", and where the game comes from if not a replay. */
export function summary(r) {
  return r.players.length + " players · " + r.map.forts.length + " forts · " +
    (r.turns.length - 1) + " turns" + (r.source ? " · from a " + r.source : "");
}

/** What happened in the turn that led to snapshot `t` of replay `r` (`stats` from
 *  `precompute`), and at the last one, how the game ended. */
export function describe(r, stats, t) {
  if (t === 0) return "Turn 0: the start. Press play.";
  const parts = events(r, stats, t);
  let text = "Turn " + t + ": " + (parts.length ? parts.join(" · ") : "marching");
  if (t === r.turns.length - 1) {
    const w = stats.winner;
    text += w != null ? ". " + r.players[w] + " wins." : r.result ? ". A draw." : ". The end.";
  }
  return text;
}

/** The events of the turn before snapshot `t`, each in a few words. */
function events(r, stats, t) {
  const ev = r.turns[t - 1].events || {};
  const players = r.players, forts = r.map.forts;
  const parts = [];
  const battles = (ev.battles || []).length;
  if (battles) parts.push(battles + (battles === 1 ? " battle" : " battles"));
  const caps = ev.captures || [];
  if (caps.length === 1) {
    const c = caps[0];
    parts.push((c[2] < 0 ? "neutral" : players[c[2]]) + " took " + forts[c[0]][0]);
  } else if (caps.length) {
    parts.push(caps.length + " forts changed hands");
  }
  for (const x of ev.removed || []) parts.push(players[x[0]] + " is out (" + x[1] + ")");
  // A classic log says nothing of removals: a player is out when it has nothing left.
  if (!ev.removed && r.source) {
    for (let p = 0; p < players.length; p++) {
      if (stats.out[p] === t) parts.push(players[p] + " is out");
    }
  }
  return parts;
}

/** The reply times of the replies shown with turn `t` (the replay's row `t`, as its
 *  problems), in milliseconds by player, null where a player did not reply; null when
 *  the replay has none. */
export function replyTimesAt(r, t) {
  const row = r.turns[t];
  const ms = row && row.events && row.events.ms;
  return Array.isArray(ms) && ms.length ? ms : null;
}

/** The problems of the replies to the state of turn `t` (the replay's row `t`): each
 *  `{ player, kind, text }`, kind one of "warning", "timeout", "limit", "removed".
 *  The same turns as the owner's stderr and the error board's links. */
export function problemsAt(r, t) {
  const row = r.turns[t];
  const ev = (row && row.events) || {};
  const out = [];
  for (const [p, text] of ev.warnings || []) out.push({ player: p, kind: "warning", text });
  for (const p of ev.timeouts || []) {
    out.push({ player: p, kind: "timeout", text: "no reply within the turn's time limit: its commands were ignored" });
  }
  for (const [p, text] of ev.limits || []) out.push({ player: p, kind: "limit", text });
  for (const [p, why] of ev.removed || []) {
    if (why !== "defeated") out.push({ player: p, kind: "removed", text: "removed: " + why });
  }
  return out;
}
