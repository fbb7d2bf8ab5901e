// The classic log reader (static/bottlebats/classic-log.mjs). With BOTTLEBATS_JS_FIXTURES
// (set by server/tests/it/static_files.rs), also a game of the engine read from its
// classic log must be the same game as its JSON replay.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { parseClassicLog, settleTurns } from "../../../../static/bottlebats/classic-log.mjs";

const TWO_STEPS = `# STEP: 0
3 forts:
alpha 0 0 red 10
beta 3 4 blue 5
gamma 6 8 neutral 2
2 roads:
alpha beta
beta gamma
1 marches:
alpha beta red 4 5

# STEP: 1
3 forts:
alpha 0 0 red 11
beta 3 4 red 1
gamma 6 8 neutral 2
2 roads:
alpha beta
beta gamma
1 marches:
beta gamma red 3 5
`;

test("a log of two snapshots: forts, roads, players, marches, captures", () => {
  const r = parseClassicLog(TWO_STEPS);
  assert.equal(r.format, "bottlebats-replay");
  assert.equal(r.source, "classic log");
  assert.deepEqual(r.map.forts, [["alpha", 0, 0], ["beta", 3, 4], ["gamma", 6, 8]]);
  // Lengths as the engine computes them: ceil of the distance.
  assert.deepEqual(r.map.roads, [[0, 1, 5], [1, 2, 5]]);
  assert.deepEqual(r.players, ["red", "blue"]);
  assert.equal(r.max_steps, 1);
  assert.deepEqual(r.turns[0].owners, [0, 1, -1]);
  assert.deepEqual(r.turns[0].garrisons, [10, 5, 2]);
  assert.deepEqual(r.turns[1].owners, [0, 0, -1]);
  // alpha → beta is the road's second direction; 5 steps left of 5 at turn 0: sent at 0.
  assert.deepEqual(r.turns[0].marches, [[0, 1, 0, 4, 0]]);
  assert.deepEqual(r.turns[1].marches, [[1, 1, 0, 3, 1]]);
  // beta changed hands in the turn between the two snapshots.
  assert.deepEqual(r.turns[0].events, { captures: [[1, 1, 0]] });
  assert.deepEqual(r.turns[1].events, {});
});

test("tabs, runs of spaces, CRLF, comments and `?` sections up to `end`", () => {
  const text = TWO_STEPS.replace("alpha 0 0 red 10", "alpha\t0  0 red   10")
    .replace("2 roads:", "# the roads\n? roads:")
    .replace("beta gamma\n1 marches", "beta gamma\nend\n1 marches")
    .replace(/\n/g, "\r\n");
  assert.deepEqual(parseClassicLog(text), parseClassicLog(TWO_STEPS));
});

test("without `# STEP:` lines, a fourth header starts the next snapshot", () => {
  const text = TWO_STEPS.replace(/# STEP: \d\n/g, "");
  assert.deepEqual(parseClassicLog(text), parseClassicLog(TWO_STEPS));
});

test("a fort a snapshot leaves out keeps its state; one not yet listed is neutral", () => {
  const r = parseClassicLog(`# STEP: 0
1 forts:
a 0 0 p 3
0 roads:
0 marches:
# STEP: 1
2 forts:
a 0 0 p 4
b 1 0 q 1
0 roads:
0 marches:
# STEP: 2
1 forts:
b 1 0 p 2
0 roads:
0 marches:
`);
  assert.deepEqual(r.turns.map((t) => t.owners), [[0, -1], [0, 1], [0, 0]]);
  assert.deepEqual(r.turns.map((t) => t.garrisons), [[3, 0], [4, 1], [4, 2]]);
  assert.deepEqual(r.turns[1].events, { captures: [[1, 1, 0]] });
  assert.deepEqual(r.turns[0].events, { captures: [[1, -1, 1]] });
});

test("errors name the line and what is wrong", () => {
  const bad = (text, message) => assert.throws(() => parseClassicLog(text), { message });
  bad("", "This log has no snapshot.");
  bad("# STEP: 0\nforts:\n", "Line 2 of the log: expected a section header like `12 forts:`, found `forts:`");
  bad("1 forts:\na 0 0 p\n", "Line 2 of the log: a fort line is `name x y owner garrison`");
  bad("1 forts:\na 0 zero p 1\n", "Line 2 of the log: `zero` is not a whole number");
  bad("1 forts:\na 0 0 p 1\n1 roads:\na b\n", "Line 4 of the log: a road to a fort not listed");
  bad("1 forts:\na 0 0 p 1\n1 roads:\na a b\n", "Line 4 of the log: a road line is `fort fort`");
  bad("1 forts:\na 0 0 p 1\n0 roads:\n1 marches:\na b p 1 1\n",
    "Line 5 of the log: a march on a road not listed");
});

test("settleTurns fills unknown forts and finds captures", () => {
  const turns = [
    { owners: [0], garrisons: [1], marches: [], events: {} },
    { owners: [1, 0], garrisons: [2, 3], marches: [], events: {} },
  ];
  settleTurns(turns, 2);
  assert.deepEqual(turns[0].owners, [0, -1]);
  assert.deepEqual(turns[0].garrisons, [1, 0]);
  assert.deepEqual(turns[0].events.captures, [[0, 0, 1], [1, -1, 0]]);
});

const fixtures = process.env.BOTTLEBATS_JS_FIXTURES;

test("the engine's classic log tells the game of its JSON replay", { skip: !fixtures && "no fixtures" }, () => {
  const replay = JSON.parse(readFileSync(join(fixtures, "game.json"), "utf8"));
  const log = parseClassicLog(readFileSync(join(fixtures, "game.log"), "utf8"));
  assert.deepEqual(log.map, replay.map);
  assert.equal(log.turns.length, replay.turns.length);
  const name = (players, o) => (o < 0 ? "neutral" : players[o]);
  const marches = (players, ms) => ms.map((m) => [m[0], m[1], name(players, m[2]), m[3], m[4]].join(" ")).sort();
  for (let t = 0; t < replay.turns.length; t++) {
    const want = replay.turns[t], got = log.turns[t];
    assert.deepEqual(got.owners.map((o) => name(log.players, o)),
      want.owners.map((o) => name(replay.players, o)), "owners at turn " + t);
    assert.deepEqual(got.garrisons, want.garrisons, "garrisons at turn " + t);
    assert.deepEqual(marches(log.players, got.marches), marches(replay.players, want.marches),
      "marches at turn " + t);
  }
});
