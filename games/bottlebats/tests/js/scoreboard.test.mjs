// Bottle Bats in the viewer: the legend's and the big screen's numbers.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import { bottlebats } from "../../../../static/bottlebats/game.mjs";

/** A Bottle Bats game of 3 turns: red takes beta, blue is out at turn 2. */
const small = () => JSON.parse(readFileSync(new URL("./fixtures/example.json", import.meta.url), "utf8"));

test("Bottle Bats' scoreboard: forts and soldiers with their share, out, the winner at the end", () => {
  const r = bottlebats.renderer(bottlebats.read(small()), false);
  assert.deepEqual(r.scoreboard(1).map((s) => [s.name, s.numbers, s.share, s.out, s.winner]), [
    ["red", [["Forts", 1], ["Soldiers", 10]], 10 / 15, false, false],
    ["blue", [["Forts", 1], ["Soldiers", 5]], 5 / 15, false, false],
  ]);
  const end = r.scoreboard(3);
  assert.deepEqual(end.map((s) => [s.numbers, s.out, s.note, s.winner]), [
    [[["Forts", 2], ["Soldiers", 7]], false, "", true],
    [[["Forts", 0], ["Soldiers", 0]], true, "out at turn 2", false],
  ]);
  assert.deepEqual(r.result(), { winner: 0, text: "red wins" });
  assert.equal(r.plannedTurns(), 5);
});

