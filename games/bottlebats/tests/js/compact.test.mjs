// The viewer's reader of the compact replay (static/bottlebats/compact.mjs) against the
// engine's: games of every style (fixtures of tests/it/static_files.rs), each as the
// engine wrote it (v2) and as the engine's reader gives it back (v1), read to the same
// board and the same events at every turn.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

import { parse } from "../../../../static/viewer/replay.mjs";

const dir = process.env.BOTTLEBATS_JS_FIXTURES;
const games = dir
  ? readdirSync(join(dir, "compact")).filter((f) => f.endsWith(".v2.json")).map((f) => f.slice(0, -8))
  : [];

test("there are compact games to read", { skip: !dir }, () => {
  assert.ok(games.length >= 5, games.join(", "));
});

for (const name of games) {
  test(`${name}: the compact replay reads as the engine's reader, board for board`, () => {
    const v1 = JSON.parse(readFileSync(join(dir, "compact", name + ".v1.json"), "utf8"));
    const text = readFileSync(join(dir, "compact", name + ".v2.json"), "utf8");
    assert.equal(JSON.parse(text).version, 2);
    const read = parse(text);
    assert.equal(read.turns.length, v1.turns.length);
    assert.deepEqual(read.players, v1.players);
    assert.deepEqual(read.result, v1.result);
    v1.turns.forEach((want, t) => {
      const got = read.turns[t];
      assert.deepEqual(got.owners, want.owners, "owners at turn " + t);
      assert.deepEqual(got.garrisons, want.garrisons, "garrisons at turn " + t);
      assert.deepEqual(got.marches, want.marches, "marches at turn " + t);
      assert.deepEqual(got.events, want.events || {}, "events at turn " + t);
    });
  });
}

test("a damaged compact replay is refused with a reason", () => {
  const r = {
    format: "bottlebats-replay", version: 2, players: ["a", "b"], max_steps: 5,
    map: { forts: [["x", 0, 0], ["y", 3, 4]], roads: [[0, 1, 5]] },
    turns: [{ k: { owners: [0, 1], garrisons: [10, 10], marches: [] } }],
  };
  const parsed = (turns) => parse(JSON.stringify({ ...r, turns: [...r.turns, ...turns] }));
  assert.equal(parsed([[1, 4]]).turns[1].marches.length, 1);
  assert.throws(() => parse(JSON.stringify({ ...r, turns: [[]] })), /first turn is not a whole board/);
  assert.throws(() => parse(JSON.stringify({ ...r, version: 3 })), /reads versions 1 and 2/);
  assert.throws(() => parsed([[1]]), /damaged: a march sent without its size/);
  assert.throws(() => parsed([[1, 40]]), /damaged: a march bigger than its fort's garrison/);
  assert.throws(() => parsed([[9, 1]]), /damaged: a march sent on no road/);
  assert.throws(() => parsed([[1, 1, 0, 1]]), /damaged: two marches sent on one way/);
});
