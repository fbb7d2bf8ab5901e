// What the viewer says of a turn's problems (static/bottlebats/describe.mjs).

import { test } from "node:test";
import assert from "node:assert/strict";

import { problemsAt } from "../../../../static/bottlebats/describe.mjs";

const replay = {
  players: ["ann", "bob"],
  turns: [
    { events: { warnings: [[0, "ignored `x y 5`: there is no fort `x`"]], timeouts: [1] } },
    { events: { removed: [[1, "its output ended"], [0, "defeated"]], limits: [[0, "hit its limit of 64 processes"]] } },
    {},
  ],
};

test("each problem of the replies to a turn, with its player and kind", () => {
  assert.deepEqual(problemsAt(replay, 0), [
    { player: 0, kind: "warning", text: "ignored `x y 5`: there is no fort `x`" },
    { player: 1, kind: "timeout", text: "no reply within the turn's time limit: its commands were ignored" },
  ]);
  const second = problemsAt(replay, 1);
  assert.deepEqual(second.map((p) => p.kind), ["limit", "removed"], "defeat is no problem");
  assert.equal(second[1].text, "removed: its output ended");
  assert.deepEqual(problemsAt(replay, 2), []);
  assert.deepEqual(problemsAt(replay, 9), [], "past the end: nothing");
});
