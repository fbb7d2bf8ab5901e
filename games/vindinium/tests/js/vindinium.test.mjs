// The viewer's Vindinium: its port of the rules gives the crate's states (the fixtures
// games/vindinium/tests/js_fixtures.rs writes: whole games with deaths, telefrags and
// crashes, a state every 10 moves), its reader seeks to any state as playing through
// does, follows a live match's rows, refuses absurd replays before expanding them, and
// says the problems of each reply.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";

import { parseMap, start, step, copy, mineCount, MINE } from "../../../../static/vindinium/rules.mjs";
import {
  readVindinium, VindiniumLive, KEYFRAME_EVERY, MAX_MOVES, MAX_SIZE,
} from "../../../../static/vindinium/replay.mjs";
import { describe } from "../../../../static/vindinium/describe.mjs";
import { vindinium } from "../../../../static/vindinium/game.mjs";
import { gameOf } from "../../../../static/viewer/games.mjs";

/** The problems of the replies to state `t` of `r`, as the viewer's renderer says them. */
const problemsAt = (r, t) => vindinium.renderer(r).problems(t);

const DIR = new URL("./fixtures/", import.meta.url);
const FIXTURES = readdirSync(DIR).filter((f) => /^vindinium-.*\.json$/.test(f)).sort();

function fixture(name) {
  return JSON.parse(readFileSync(new URL(name, DIR), "utf8"));
}

/** A state as the fixtures keep it (see js_fixtures.rs's `state_json`). */
function kept(t, s) {
  const mines = s.mines.map((i) => (s.tiles[i] === MINE ? "-" : String(s.tiles[i] - MINE))).join("");
  return {
    t, turn: s.turn, status: s.status, mines,
    heroes: s.heroes.map((h) => [h.x, h.y, h.life, h.gold, mineCount(s, h.id), h.deaths, h.crashed]),
  };
}

test("the fixtures are there: the six original maps, a generated one, all crashed", () => {
  assert.deepEqual(FIXTURES, [
    "vindinium-crashes.json", "vindinium-generated.json", "vindinium-m1.json", "vindinium-m2.json",
    "vindinium-m3.json", "vindinium-m4.json", "vindinium-m5.json", "vindinium-m6.json",
  ]);
});

for (const name of FIXTURES) {
  test(name + ": the rules give every state the crate gives", () => {
    const f = fixture(name), r = f.replay;
    let s = start(parseMap(r.map), r.heroes, r.max_turns);
    const want = new Map(f.states.map((st) => [st.t, st]));
    let compared = 0;
    for (let t = 0; ; t++) {
      if (want.has(t)) {
        assert.deepEqual(kept(t, s), want.get(t), name + ": state " + t);
        compared++;
      }
      if (t === r.moves.length) break;
      step(s, r.moves[t]);
    }
    assert.equal(compared, f.states.length, "every state of the fixture compared");
    assert.equal(s.status, r.result.status);
    assert.deepEqual(s.heroes.map((h) => h.gold), r.result.gold);
  });
}

test("the last state of a game refuses another move; a crashed hero's moves are Stays", () => {
  const r = fixture("vindinium-crashes.json").replay;
  const s = start(parseMap(r.map), r.heroes, r.max_turns);
  for (const c of r.moves) step(s, c);
  assert.equal(s.status, "all_crashed");
  assert.throws(() => step(s, "n"), /finished/);
  const t = start(parseMap(r.map), r.heroes, 100);
  step(t, "c");
  const before = copy(t);
  for (const c of "xxx") step(t, c);
  step(t, "s"); // hero 1 again: crashed, so it stays
  assert.deepEqual([t.heroes[0].x, t.heroes[0].y], [before.heroes[0].x, before.heroes[0].y]);
});

test("maps are refused as the crate refuses them", () => {
  assert.throws(() => parseMap("\n\n"), /empty/);
  assert.throws(() => parseMap("@1@2@3"), /no start square for hero 4/);
  assert.throws(() => parseMap("@1@2\n@3@4\n    "), /3 rows but the longest row has only 2 tiles/);
  assert.throws(() => parseMap("@1@5\n@3@4"), /names no hero/);
  assert.throws(() => parseMap("@1@2\n@3@4é"), /not ASCII/);
  assert.throws(() => parseMap("@1@2\n@3@4 "), /is not a tile/);
  const m = parseMap("\r\n@1$-\r\n@2@3@4\n$3[]##\n");
  assert.equal(m.size, 3);
  assert.deepEqual(m.starts, [[0, 0], [1, 0], [1, 1], [1, 2]]);
});

test("state t read from the stored replay is the state played through to t, at any t", () => {
  for (const name of ["vindinium-m2.json", "vindinium-generated.json"]) {
    const r = fixture(name).replay;
    const replay = readVindinium(r);
    assert.equal(replay.lastTurn(), r.moves.length);
    assert.equal(replay.keyframes.length, 1 + Math.floor(r.moves.length / KEYFRAME_EVERY));
    const s = start(parseMap(r.map), r.heroes, r.max_turns);
    const all = [copy(s)];
    for (const c of r.moves) {
      step(s, c);
      all.push(copy(s));
    }
    // Backwards, forwards, jumps: each from a keyframe or the state before.
    const order = [r.moves.length, 0, 777, 49, 50, 51, 52, 1199, 3, 600, 601, 599];
    for (let t = 0; t <= r.moves.length; t += 37) order.push(t);
    for (const t of order) {
      assert.deepEqual(kept(t, replay.state(t)), kept(t, all[t]), name + ": state " + t);
    }
    // The numbers of the legend and the charts, every state.
    for (let t = 0; t <= r.moves.length; t++) {
      all[t].heroes.forEach((h, p) => {
        assert.equal(replay.number(t, p, "gold"), h.gold);
        assert.equal(replay.number(t, p, "mines"), mineCount(all[t], h.id));
        assert.equal(replay.number(t, p, "deaths"), h.deaths);
      });
    }
    // A state handed out is the caller's: changing it changes nothing else.
    const mine = replay.state(600);
    mine.heroes[0].gold = -1;
    assert.notEqual(replay.state(600).heroes[0].gold, -1);
    assert.deepEqual(replay.outcome().ranks, r.result.ranks);
  }
});

test("what happened in each move: kills, telefrags, mines, beers and crashes are logged", () => {
  const kinds = new Set();
  for (const name of FIXTURES) {
    const replay = readVindinium(fixture(name).replay);
    for (const log of replay.logs) for (const e of log) kinds.add(e[0]);
  }
  assert.deepEqual([...kinds].sort(), ["beer", "crash", "kill", "mine", "mined", "telefrag"]);
});

test("a live match's rows, in pieces, give the stored replay's states", () => {
  const r = fixture("vindinium-m3.json").replay;
  const rows = [{ start: true }].concat([...r.moves].map((m, i) => ({ m, ms: r.ms[i] ?? undefined })));
  for (const n of r.notes) Object.assign(rows[n.t], n, { t: undefined });
  const live = new VindiniumLive();
  assert.throws(() => live.add(0, rows.slice(0, 3)), /before its head/);
  const { moves: _m, ms: _ms, notes: _n, result: _r, ...head } = r;
  assert.equal(live.setHead(head), true);
  assert.equal(live.setHead(head), false, "a reconnection: the same game");
  assert.equal(live.add(0, rows.slice(0, 1)), 1);
  assert.equal(live.replay.lastTurn(), 0);
  assert.equal(live.add(5, rows.slice(5, 9)), -1, "after a missing row: nothing taken");
  assert.equal(live.add(0, rows.slice(0, 120)), 119, "held rows skipped");
  assert.equal(live.add(100, rows.slice(100, 120)), 0);
  for (let from = 120; from < rows.length; from += 97) live.add(from, rows.slice(from, from + 97));
  assert.equal(live.newest(), r.moves.length);
  const stored = readVindinium(r);
  for (const t of [0, 119, 120, 121, 500, r.moves.length]) {
    assert.deepEqual(kept(t, live.replay.state(t)), kept(t, stored.state(t)), "state " + t);
  }
  for (let t = 0; t < r.moves.length; t++) {
    assert.deepEqual(live.replay.problemsAt(t), stored.problemsAt(t), "problems at " + t);
  }
  live.finish(r.result);
  assert.equal(live.replay.result, r.result);
});

test("absurd replays are refused, saying why, before anything is expanded", () => {
  const r = fixture("vindinium-m1.json").replay;
  const refused = (change, why) => assert.throws(() => readVindinium({ ...r, ...change }), why);
  refused({ format: "bottlebats-replay" }, /not a Vindinium replay/);
  refused({ version: 2 }, /version 2; this viewer reads version 1/);
  refused({ heroes: undefined }, /incomplete/);
  refused({ moves: "x".repeat(MAX_MOVES + 1), ms: [], notes: [], result: null }, /at most 20000/);
  const big = MAX_SIZE + 1;
  const row = "@1@2@3@4" + "  ".repeat(big - 4);
  refused({ map: [row].concat(new Array(big - 1).fill("")).join("\n") }, /boards of at most 100/);
  refused({ map: "##".repeat(50000) }, /too big/);
  refused({ moves: r.moves.slice(0, 10) + "q", ms: [], notes: [], result: null }, /Move 11: `q` is no move/);
  refused({ ms: [1, 2] }, /reply times or notes/);
  refused({ notes: [{ t: 5000, warning: "x" }] }, /reply times or notes/);
  refused({ result: { ...r.result, gold: [1, 2, 3, 4] } }, /result is not its game's/);
  refused({ moves: r.moves + "n", ms: [], result: null }, /Move 1201: the game is finished/);
});

test("the problems of a reply are at the state it answered, for the hero that moved", () => {
  const r = fixture("vindinium-m1.json").replay;
  const replay = readVindinium(r);
  const warned = r.notes.find((n) => n.warning);
  assert.ok(warned, "the fixture has a warning");
  const mover = (warned.t - 1) % 4;
  assert.deepEqual(problemsAt(replay, warned.t - 1), [{ player: mover, kind: "warning", text: warned.warning }]);
  assert.equal(problemsAt(replay, replay.lastTurn()).length, 0, "the last state has no reply");
  const crashed = fixture("vindinium-crashes.json").replay;
  const c = readVindinium(crashed);
  const crash = crashed.notes.find((n) => n.crash), timeout = crashed.notes.find((n) => n.timeout);
  assert.ok(crash && timeout, "the fixture has a crash and a timeout");
  assert.deepEqual(problemsAt(c, crash.t - 1).map((p) => [p.player, p.kind, p.text]),
    [[(crash.t - 1) % 4, "removed", "crashed: " + crash.crash]]);
  assert.deepEqual(problemsAt(c, timeout.t - 1).map((p) => [p.player, p.kind]), [[(timeout.t - 1) % 4, "timeout"]]);
});

test("each move in words: who went where, kills, telefrags, crashes, and the end", () => {
  const saidOf = (name) => {
    const r = readVindinium(fixture(name).replay);
    return Array.from({ length: r.lastTurn() + 1 }, (_, t) => describe(r, t, r.state(Math.max(0, t - 1)), r.state(t)));
  };
  const m2 = saidOf("vindinium-m2.json");
  assert.equal(m2[0], "Move 0: the start. Press play.");
  assert.match(m2[1], /^Move 1: ada (went|tried) (north|south|east|west)|^Move 1: ada stayed/);
  assert.ok(m2.some((s) => /killed/.test(s)), "a kill said");
  assert.ok(m2.some((s) => /respawned onto .* \(telefrag\)/.test(s)), "a telefrag said");
  assert.ok(m2.some((s) => /took a mine/.test(s)), "a mine taken said");
  assert.match(m2[1200], /The end \(the last move\): dee wins with 586 gold\.$/);
  const crashes = saidOf("vindinium-crashes.json");
  assert.ok(crashes.some((s) => /crashed: its hero stays until the end/.test(s)));
  assert.match(crashes[crashes.length - 1], /The end \(all four crashed\)/);
});

for (const name of FIXTURES) {
  test(name + ": Vindinium's scoreboard is each hero's gold, mines, life and deaths as the crate says", () => {
    const f = JSON.parse(readFileSync(new URL(name, DIR), "utf8"));
    const game = gameOf(f.replay);
    assert.equal(game, vindinium);
    const r = game.renderer(game.read(f.replay), false);
    const last = r.lastTurn();
    for (const st of f.states) {
      const board = r.scoreboard(st.t);
      st.heroes.forEach((h, p) => {
        // The crate's [row, column, life, gold, mines, deaths, crashed].
        assert.deepEqual(board[p].numbers, [["Gold", h[3]], ["Mines", h[4]], ["Life", h[2], "legend"], ["Deaths", h[5]]],
          name + ": hero " + (p + 1) + " at move " + st.t);
        assert.equal(board[p].name, f.replay.heroes[p]);
        assert.equal(board[p].out, h[6], name + ": crashed at move " + st.t);
        assert.equal(board[p].share, undefined, "no share bar");
      });
      if (st.t < last) assert.ok(board.every((s) => !s.winner), "no winner before the end");
    }
    const gold = r.scoreboard(last).map((s) => s.numbers[0][1]);
    assert.deepEqual(gold, f.replay.result.gold, name + ": the result's gold at the end");
    const { winner } = r.replay.outcome();
    assert.deepEqual(r.scoreboard(last).map((s) => s.winner), [0, 1, 2, 3].map((p) => p === winner));
  });
}


test("a Vindinium log, as bottlebats play writes it, opens as the game it tells", async () => {
  const { parse } = await import("../../../../static/viewer/replay.mjs");
  const text = readFileSync(new URL("vindinium-crashes.jsonl", DIR), "utf8");
  const fromLog = parse(text);
  const stored = fixture("vindinium-crashes.json").replay;
  assert.equal(gameOf(fromLog), vindinium);
  assert.equal(fromLog.lastTurn(), stored.moves.length);
  const fromReplay = readVindinium(stored);
  for (const t of [0, 1, Math.floor(stored.moves.length / 2), stored.moves.length]) {
    assert.deepEqual(fromLog.state(t).heroes, fromReplay.state(t).heroes, "state " + t);
  }
  assert.throws(() => parse(text.split("\n")[0] + "\n{\"nope\": 1}\n"), /no Vindinium state/);
});
