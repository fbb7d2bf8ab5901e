// The viewer's reader of the compact replay (static/viewer/compact.mjs) against the
// engine's: the same game written by the engine as v1 and as v2 (fixtures of
// tests/it/static_files.rs) gives the same board at every turn.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { parse } from "../../../static/viewer/replay.mjs";

const dir = process.env.BOTTLEBATS_JS_FIXTURES;

test("a compact replay reads as the engine's v1 replay, board for board", { skip: !dir }, () => {
  const v1 = JSON.parse(readFileSync(join(dir, "game.json"), "utf8"));
  const text = readFileSync(join(dir, "game-v2.json"), "utf8");
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

test("a damaged compact replay is refused with a reason", () => {
  const r = {
    format: "bottlebats-replay", version: 2, players: ["a"], max_steps: 5,
    map: { forts: [["x", 0, 0]], roads: [] }, turns: [{ f: [] }],
  };
  assert.throws(() => parse(JSON.stringify(r)), /first turn is not a whole board/);
  assert.throws(() => parse(JSON.stringify({ ...r, version: 3 })), /reads versions 1 and 2/);
});
