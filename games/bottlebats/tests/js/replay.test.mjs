// The viewer's reader refuses replays too big to expand, before expanding them: a
// crafted file of a few kilobytes gzipped can promise a million boards.

import { test } from "node:test";
import assert from "node:assert/strict";

import { checkReplay, MAX_TURNS } from "../../../../static/bottlebats/replay.mjs";

function crafted(forts, turns) {
  const map = {
    forts: Array.from({ length: forts }, (_, i) => ["f" + i, i, 0]),
    roads: [],
  };
  const board = { owners: new Array(forts).fill(null), garrisons: new Array(forts).fill(0), marches: [] };
  return {
    format: "bottlebats-replay", version: 2, map, players: ["a", "b"], max_steps: turns,
    keyframe_every: 250, turns: [{ k: board }].concat(new Array(turns - 1).fill([])), result: null,
  };
}

test("a replay of 1,000 forts and 200,000 empty turns is refused with the reason", () => {
  assert.throws(() => checkReplay(crafted(1000, 200000)), /200000 turns; the viewer opens games of at most/);
});

test("many forts over many turns are refused before the boards are made", () => {
  assert.throws(() => checkReplay(crafted(5000, MAX_TURNS - 1)), /too big to open: 5000 forts/);
});

test("a replay of an ordinary size opens", () => {
  const r = checkReplay(crafted(40, 501));
  assert.equal(r.turns.length, 501);
});
