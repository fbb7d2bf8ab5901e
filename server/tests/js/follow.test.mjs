// A match followed as it is played (static/bottlebats/live.mjs, stats.mjs) and the big
// screen's numbers (static/screen.mjs): rows read as they come give the game that the
// whole compact replay gives, whatever the chunks, repeats and reconnections; the
// stats grown turn by turn are those counted at once; each player's score at a turn.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { join } from "node:path";

import { LiveReplay } from "../../../static/bottlebats/live.mjs";
import {
  followRate, paceRate, liveDescription, PACE_MIN_RATE, PACE_MAX_RATE,
} from "../../../static/viewer/grow.mjs";
import { expandCompact } from "../../../static/bottlebats/compact.mjs";
import { countTotals, precompute, growStats, scoreboard } from "../../../static/bottlebats/stats.mjs";
import { nextScreen, numberWord } from "../../../static/screen.mjs";
import { palette } from "../../../static/bottlebats/colours.mjs";

/** Two forts on a road of 3 steps and a third further: marches sent, a keyframe at
 *  row 4 with a march on its way, a removal. */
function small() {
  return {
    format: "bottlebats-replay", version: 2, players: ["red", "blue"], max_steps: 9,
    keyframe_every: 4,
    map: { forts: [["a", 0, 0], ["b", 3, 0], ["c", 6, 0]], roads: [[0, 1, 3], [1, 2, 3]] },
    turns: [
      { k: { owners: [0, 1, -1], garrisons: [10, 10, 2], marches: [] } },
      [1, 4],
      [0, 3, 3, 1],
      { s: [3, 2], e: { warnings: [[1, "unknown fort `x`"]] } },
      { k: { owners: [0, 1, 1], garrisons: [9, 12, 1], marches: [[0, 1, 0, 2, 3]] }, e: { ms: [3, 4] } },
      [],
      [1, 5],
      { e: { removed: [[1, "crashed"]] } },
      [],
      [],
    ],
    result: { winner: 0, ranks: [1, 2], removed: [null, 6], turns: 9 },
  };
}

/** The compact games at hand: the engine's fixtures when cargo runs the tests. */
function games() {
  const dir = process.env.BOTTLEBATS_JS_FIXTURES;
  const out = [["small", small()]];
  if (!dir) return out;
  const compact = join(dir, "compact");
  for (const f of existsSync(compact) ? readdirSync(compact) : []) {
    if (f.endsWith(".v2.json")) out.push([f, JSON.parse(readFileSync(join(compact, f), "utf8"))]);
  }
  if (existsSync(join(dir, "game-v2.json"))) {
    out.push(["game-v2.json", JSON.parse(readFileSync(join(dir, "game-v2.json"), "utf8"))]);
  }
  return out;
}

/** The head the server sends: the compact replay without its turns and result. */
function headOf(r) {
  const head = { ...r };
  delete head.turns;
  delete head.result;
  return head;
}

/** A deterministic stream of chunk sizes from 1 to `max`. */
function* sizes(seed, max) {
  let x = seed;
  for (;;) {
    x = (x * 1103515245 + 12345) % 2147483648;
    yield 1 + (x % max);
  }
}

/** Board and events at every turn, as `expandCompact` of the whole gives them. */
function assertSameGame(got, want, name) {
  assert.equal(got.turns.length, want.turns.length, name + ": turns");
  want.turns.forEach((w, t) => {
    const g = got.turns[t];
    assert.deepEqual(g.owners, w.owners, name + ": owners at turn " + t);
    assert.deepEqual(g.garrisons, w.garrisons, name + ": garrisons at turn " + t);
    assert.deepEqual(g.marches, w.marches, name + ": marches at turn " + t);
    assert.deepEqual(g.events, w.events, name + ": events at turn " + t);
  });
  assert.deepEqual(got.players, want.players);
  assert.deepEqual(got.map, want.map);
}

test("there are compact games to follow", { skip: !process.env.BOTTLEBATS_JS_FIXTURES }, () => {
  assert.ok(games().length >= 6);
});

for (const [name, r] of games()) {
  test(`${name}: rows read one at a time are the whole replay read at once`, () => {
    const want = expandCompact(r);
    const live = new LiveReplay();
    assert.equal(live.setHead(headOf(r)), true);
    r.turns.forEach((row, t) => assert.equal(live.add(t, [row]), 1));
    live.finish(r.result);
    assertSameGame(live.replay, want, name);
    assert.deepEqual(live.replay.result, r.result);
    assert.deepEqual(live.compact(), JSON.parse(JSON.stringify(r)));
  });

  test(`${name}: chunks, repeats and reconnections change nothing`, () => {
    const want = expandCompact(r);
    const live = new LiveReplay();
    live.setHead(headOf(r));
    const n = r.turns.length, size = sizes(n, 7);
    let have = 0, reconnections = 0;
    while (have < n) {
      const k = size.next().value;
      // Now and then the stream starts again from row 0, its head first.
      if (k === 7 && reconnections < 3) {
        reconnections++;
        assert.equal(live.setHead(headOf(r)), false);
        for (let from = 0; from < have; from += 5) {
          assert.equal(live.add(from, r.turns.slice(from, Math.min(from + 5, have))), 0);
        }
        continue;
      }
      // Chunks overlapping what is held: only the new rows count.
      const from = Math.max(0, have - (k % 3));
      const to = Math.min(n, have + k);
      assert.equal(live.add(from, r.turns.slice(from, to)), to - have);
      have = to;
      assert.equal(live.newest(), have - 1);
      assert.equal(live.replay.turns.length, have);
    }
    assertSameGame(live.replay, want, name);
  });

  test(`${name}: the stats grown turn by turn are those counted at once`, () => {
    const live = new LiveReplay();
    live.setHead(headOf(r));
    let st = null;
    const size = sizes(r.turns.length + 1, 4);
    for (let have = 0; have < r.turns.length; ) {
      const to = Math.min(r.turns.length, have + size.next().value);
      live.add(have, r.turns.slice(have, to));
      have = to;
      st = growStats(st, live.replay);
    }
    const whole = countTotals(live.replay), P = whole.P;
    assert.equal(st.T, whole.T);
    assert.deepEqual([...st.forts.subarray(0, whole.T * P)], [...whole.forts]);
    assert.deepEqual([...st.soldiers.subarray(0, whole.T * P)], [...whole.soldiers]);
    assert.equal(st.maxForts, whole.maxForts);
    assert.equal(st.maxSoldiers, whole.maxSoldiers);
    assert.equal(st.winner, null, "no winner before the result");
    // Removals are known as they happen, at the turns the result will give.
    st.out.forEach((t, p) => {
      if (t !== null && r.result) assert.equal(t, r.result.removed[p], "player " + p + " out");
    });
    if (name === "small") assert.deepEqual(st.out, [null, 6]);
  });
}

test("rows after a missing one are refused, nothing taken; rows before a head throw", () => {
  const r = small();
  const live = new LiveReplay();
  assert.throws(() => live.add(0, r.turns.slice(0, 1)), /before its head/);
  live.setHead(headOf(r));
  assert.equal(live.add(0, r.turns.slice(0, 2)), 2);
  assert.equal(live.add(3, r.turns.slice(3, 5)), -1);
  assert.equal(live.newest(), 1);
  assert.equal(live.add(2, r.turns.slice(2, 5)), 3);
  assert.equal(live.newest(), 4);
  assert.throws(() => new LiveReplay().setHead({ format: "bottlebats-replay", version: 1 }), /version 2/);
  const broken = new LiveReplay();
  broken.setHead(headOf(r));
  assert.throws(() => broken.add(0, [[1, 4]]), /incomplete/);
});

test("a row's events go on the board before it, once that row comes", () => {
  const r = small();
  const live = new LiveReplay();
  live.setHead(headOf(r));
  live.add(0, r.turns.slice(0, 4));
  assert.deepEqual(live.replay.turns[3].events, {}, "the newest board: nothing known yet");
  live.add(4, r.turns.slice(4, 5));
  assert.deepEqual(live.replay.turns[3].events, { ms: [3, 4] });
  live.add(5, r.turns.slice(5, 9));
  const st = growStats(growStats(null, { ...live.replay, turns: live.replay.turns.slice(0, 5) }), live.replay);
  assert.deepEqual(st.out, [null, 6]);
});

test("each player's score: forts, soldiers in forts and on the roads, out, winner", () => {
  const r = expandCompact(small());
  const st = precompute(r), P = 2;
  for (let t = 0; t < r.turns.length; t++) {
    const board = scoreboard(r, st, t);
    const turn = r.turns[t];
    board.forEach((s, p) => {
      const forts = turn.owners.filter((o) => o === p).length;
      const held = turn.owners.reduce((sum, o, f) => sum + (o === p ? turn.garrisons[f] : 0), 0);
      const marching = turn.marches.reduce((sum, m) => sum + (m[2] === p ? m[3] : 0), 0);
      assert.equal(s.name, r.players[p]);
      assert.equal(s.colour, palette(p));
      assert.deepEqual(s.numbers, [["Forts", forts], ["Soldiers", held + marching]], "at turn " + t);
      assert.equal(s.out, p === 1 && t >= 6);
      assert.equal(s.note, s.out ? "removed at turn 6: crashed" : "", "the reason it went out");
      assert.equal(s.winner, p === 0 && t === r.turns.length - 1);
    });
    const total = board.reduce((sum, s) => sum + s.numbers[1][1], 0);
    const shares = board.reduce((sum, s) => sum + s.share, 0);
    assert.ok(total === 0 ? shares === 0 : Math.abs(shares - 1) < 1e-9);
  }
  assert.equal(st.P, P);
  // While the game is played: no winner yet.
  r.result = null;
  const live = growStats(null, r);
  assert.ok(scoreboard(r, live, r.turns.length - 1).every((s) => !s.winner));
});

test("the channel plays the next game, a tournament's standings between its games, its final ones", () => {
  const ladder = (match) => ({ match, tournament: null });
  const cup = (match, shown, over) => ({ match, tournament: { id: 1, shown, over } });
  assert.equal(nextScreen(null, false), "retry", "the server unreachable: what is shown stays");
  assert.equal(nextScreen(ladder(null), false), "idle");
  assert.equal(nextScreen(ladder(4), false), "play");
  assert.equal(nextScreen(cup(4, 0, false), false), "play", "the first game: no standings yet");
  assert.equal(nextScreen(cup(5, 1, false), false), "standings", "the standings, then the game");
  assert.equal(nextScreen(cup(null, 1, false), false), "between", "the next game is not there yet");
  assert.equal(nextScreen(cup(6, 1, false), true), "play", "the standings are shown already");
  assert.equal(nextScreen(cup(null, 3, true), false), "final");
});

test("a game at a pace lasts about its seconds, within the rates a screen can show", () => {
  assert.equal(paceRate(450, 45), 10, "450 turns over 45 s");
  assert.equal(paceRate(20, 45), PACE_MIN_RATE, "a short game is not drawn out");
  assert.equal(paceRate(100000, 10), PACE_MAX_RATE);
});

test("following trails the newest turn by a second, never slower than 2 turns a second", () => {
  assert.equal(followRate(0), 2);
  assert.equal(followRate(1), 2);
  assert.equal(followRate(30), 30);
  assert.equal(liveDescription("Turn 12: 1 battle. The end."), "Turn 12: 1 battle");
  assert.equal(liveDescription("Turn 12: marching"), "Turn 12: marching");
});
