// What the viewer computes and says once per replay (static/bottlebats/stats.mjs and
// describe.mjs).

import { test } from "node:test";
import assert from "node:assert/strict";

import { precompute, countTotals, outTurns, winnerOf } from "../../../../static/bottlebats/stats.mjs";
import { summary, describe } from "../../../../static/bottlebats/describe.mjs";

/** Three players on three forts over three snapshots: blue is out at turn 2. */
function game(result) {
  return {
    format: "bottlebats-replay",
    version: 1,
    map: { forts: [["a", 0, 0], ["b", 1, 0], ["c", 2, 0]], roads: [[0, 1, 1], [1, 2, 1]] },
    players: ["red", "blue", "green"],
    max_steps: 2,
    turns: [
      { owners: [0, 1, 2], garrisons: [5, 3, 4], marches: [[0, 1, 0, 2, 0]],
        events: { battles: [[0, 1, 0, 2, 1, 1]] } },
      { owners: [0, 0, 2], garrisons: [6, 1, 4], marches: [],
        events: { captures: [[1, 1, 0]] } },
      { owners: [0, 0, 2], garrisons: [7, 2, 5], marches: [] },
    ],
    result,
  };
}

test("forts and soldiers per turn and player, marches counted", () => {
  const t = countTotals(game(null));
  assert.equal(t.P, 3);
  assert.equal(t.T, 3);
  assert.deepEqual([...t.forts], [1, 1, 1, 2, 0, 1, 2, 0, 1]);
  assert.deepEqual([...t.soldiers], [7, 3, 4, 7, 0, 4, 9, 0, 5]);
  assert.equal(t.maxForts, 2);
  assert.equal(t.maxSoldiers, 9);
});

test("who went out when, and who won: from the result, or from the board", () => {
  const log = game(null);
  assert.deepEqual(outTurns(log, countTotals(log)), [null, 1, null]);
  assert.equal(winnerOf(log, [null, 1, null]), null);
  assert.equal(winnerOf(log, [null, 1, 2]), 0);
  const played = game({ winner: 2, ranks: [2, 3, 1], removed: [null, 1, null], turns: 2 });
  const st = precompute(played);
  assert.deepEqual(st.out, [null, 1, null]);
  assert.equal(st.winner, 2);
  assert.equal(precompute(game({ winner: null, removed: [null, null, null], turns: 2 })).winner, null);
});

test("the game and each turn in words", () => {
  const r = game(null);
  r.source = "classic log";
  const st = precompute(r);
  assert.equal(summary(r), "3 players · 3 forts · 2 turns · from a classic log");
  assert.equal(describe(r, st, 0), "Turn 0: the start. Press play.");
  assert.equal(describe(r, st, 1), "Turn 1: 1 battle · blue is out");
  assert.equal(describe(r, st, 2), "Turn 2: red took b. The end.");
  const played = game({ winner: 0, ranks: [1, 2, 2], removed: [null, 1, 2], turns: 2 });
  played.turns[0].events.removed = [[1, "crashed"]];
  const pst = precompute(played);
  assert.equal(describe(played, pst, 1), "Turn 1: 1 battle · blue is out (crashed)");
  assert.equal(describe(played, pst, 2), "Turn 2: red took b. red wins.");
  played.result.winner = null;
  assert.equal(describe(played, precompute(played), 2), "Turn 2: red took b. A draw.");
});
