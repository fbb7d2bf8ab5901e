// The viewer's Connect Four: its port of the rules gives the crate's boards, ends and
// ranks (the fixtures games/connectfour/tests/js_fixtures.rs writes: fours, on both
// diagonals too, a draw, a
// move limit, forfeits for a full column, garbage, a timeout and a crash), its reader
// gives the same game from the stored replay and from the live rows, says the problems
// the crate says at the same turns, and refuses replays the rules refuse. Its example
// replay (fixtures/example.json, the viewer's contract test reads it) is a fixture too.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";

import { start, drop, forfeit, ranks, COLUMNS } from "../../../../static/connectfour/rules.mjs";
import { readConnectFour, ConnectFourLive, readConnectFourLog } from "../../../../static/connectfour/replay.mjs";
import { parse } from "../../../../static/viewer/replay.mjs";
import { connectfour } from "../../../../static/connectfour/game.mjs";
import { gameOf } from "../../../../static/viewer/games.mjs";

const DIR = new URL("./fixtures/", import.meta.url);
const FIXTURES = readdirSync(DIR).filter((f) => /^connectfour-.*\.json$/.test(f)).sort();

test("the example replay is a fixture's game", () => {
  const example = JSON.parse(readFileSync(new URL("example.json", DIR), "utf8"));
  assert.deepEqual(example, fixture("connectfour-random-1.json").replay);
  assert.equal(gameOf(example), connectfour);
});

function fixture(name) {
  return JSON.parse(readFileSync(new URL(name, DIR), "utf8"));
}

/** Board `cells` as the crate's rows: top first, `.`, `1`, `2`. */
function rowsOf(cells) {
  const out = [];
  for (let r = 0; r < 6; r++) out.push(cells.slice(r * COLUMNS, (r + 1) * COLUMNS).map((c) => ".12"[c]).join(""));
  return out;
}

test("the fixtures are there: fours (on both diagonals), a draw, a limit, four forfeits", () => {
  assert.deepEqual(FIXTURES, [
    "connectfour-crash.json", "connectfour-diagonal-inside.json", "connectfour-diagonal-up-left.json",
    "connectfour-diagonal-up-right.json", "connectfour-draw.json", "connectfour-full-column.json", "connectfour-garbage.json",
    "connectfour-limit.json", "connectfour-random-1.json", "connectfour-random-2.json", "connectfour-random-3.json",
    "connectfour-timeout.json",
  ]);
});

for (const name of FIXTURES) {
  test(name + ": the rules give every board, the end and the ranks the crate gives", () => {
    const f = fixture(name), r = f.replay;
    const g = start(r.max_turns);
    const boards = [rowsOf(g.cells)];
    for (const c of r.moves) {
      drop(g, Number(c));
      boards.push(rowsOf(g.cells));
    }
    if (r.forfeit) {
      forfeit(g, r.forfeit.reason);
      boards.push(rowsOf(g.cells));
    }
    assert.deepEqual(boards, f.boards);
    assert.deepEqual(g.end, f.end);
    assert.deepEqual(ranks(g), f.ranks);
    assert.throws(() => drop(g, 0), /the game is over/);
  });

  test(name + ": the reader gives the same game stored and live, with the crate's problems", () => {
    const f = fixture(name);
    const stored = readConnectFour(f.replay);
    assert.equal(gameOf(f.replay), connectfour);
    assert.equal(stored.lastTurn(), f.rows.length - 1);
    // Live, the rows in pieces of 3 (a reconnection sends some again).
    const live = new ConnectFourLive();
    assert.equal(live.setHead(f.head), true);
    assert.equal(live.setHead(f.head), false);
    for (let from = 0; from < f.rows.length; from += 3) {
      assert.equal(live.add(from, f.rows.slice(from, from + 3)), Math.min(3, f.rows.length - from));
      assert.equal(live.add(0, f.rows.slice(0, from + 3)), 0, "rows held are skipped");
    }
    live.finish(f.replay.result);
    for (const r of [stored, live.replay]) {
      for (let t = 0; t <= r.lastTurn(); t++) assert.deepEqual(rowsOf(r.board(t)), f.boards[t], name + " board " + t);
      const renderer = connectfour.renderer(r, false);
      // The crate's problems, each at its turn, and no others.
      const want = f.problems.flatMap((list, player) => list.map((p) => ({ player, kind: p.kind, text: p.text, turn: p.turn })));
      const got = [];
      for (let t = 0; t <= r.lastTurn(); t++) {
        for (const p of renderer.problems(t)) got.push({ ...p, turn: t });
      }
      const key = (p) => [p.turn, p.player, p.kind, p.text].join("|");
      assert.deepEqual(got.map(key).sort(), want.map(key).sort(), name);
      // The scoreboard at the end: the crate's statistics (a forfeit: out); the
      // winner's badge.
      const end = renderer.scoreboard(r.lastTurn());
      assert.deepEqual(end.map((s) => [s.numbers[0][1], s.out ? 1 : 0]), f.stats);
      const winner = f.ranks[0] !== f.ranks[1] ? f.ranks.indexOf(1) : null;
      assert.deepEqual(end.map((s) => s.winner), [0, 1].map((p) => p === winner));
      assert.equal(renderer.result().winner, winner);
      for (const c of renderer.charts()) assert.equal(c.series.length, c.T * c.P);
    }
  });

  test(name + ": its log opens as the same game", () => {
    const f = fixture(name);
    const text = readFileSync(new URL(name.replace(/\.json$/, ".txt"), DIR), "utf8");
    const r = parse(text);
    assert.equal(gameOf(r), connectfour);
    assert.equal(connectfour.read(r), r);
    assert.equal(r.lastTurn(), f.rows.length - 1);
    for (let t = 0; t <= r.lastTurn(); t++) assert.deepEqual(rowsOf(r.board(t)), f.boards[t], name + " board " + t);
    assert.deepEqual(r.result, f.replay.result, "the result, once over");
    const renderer = connectfour.renderer(r, false);
    assert.equal(renderer.result().winner, f.ranks[0] !== f.ranks[1] ? f.ranks.indexOf(1) : null);
    // Forfeits and timeouts are in the log; limits are not.
    const forfeit = f.rows[f.rows.length - 1];
    if (forfeit.forfeit) {
      const said = renderer.problems(r.lastTurn() - 1).filter((p) => p.kind !== "limit");
      const want = forfeit.timeout ? ["timeout", "removed"] : ["removed"];
      assert.deepEqual(said.map((p) => p.kind), want);
    }
  });
}

test("logs that are not one game's are refused, saying where", () => {
  const text = readFileSync(new URL("connectfour-full-column.txt", DIR), "utf8");
  for (const [bad, why] of [
    [text.replace("column 0\n", "column 1\n"), /Line 17 of this log: the board after move 1 is not the one its moves make/],
    [text.replace("move 2:", "move 3:"), /move 3 where move 2 was due/],
    [text.replace("move 1: ann", "move 1: ben"), /not ann's, whose turn it is/],
    [text.replace("move 1: ann drops a disc in column 0", "move 1: ann drops a disc in column 9"), /Line \d+ of this log: .*not a column/],
    [text.replace(/\nresult: .*\n$/, "\n......."), /ends inside a board|no line/],
    [text.split("\n").slice(0, 10).join("\n") + "\nresult: ann wins\n", /a result before the end/],
    [text + "hello\n", /`hello` is no line of a Connect Four log/],
  ]) {
    assert.throws(() => readConnectFourLog(bad), why);
  }
  assert.throws(() => parse("Connect Four!\n"), /neither/);
});

test("words: the summary, the moves, the end", () => {
  const f = fixture("connectfour-full-column.json");
  const r = connectfour.renderer(connectfour.read(f.replay), false);
  assert.equal(r.summary(), "2 players · 7 × 6 · 7 moves");
  assert.equal(r.describe(0), "Move 0: the empty board. Press play.");
  assert.equal(r.describe(1), "Move 1: ann drops a disc in column 0");
  assert.equal(r.describe(7),
    "Move 7: ann forfeits the game: column 0 is full. The end (a forfeit): ben wins: ann forfeited.");
  assert.deepEqual(r.result(), { winner: 1, text: "ben wins: ann forfeited" });
  const board = r.scoreboard(7);
  assert.deepEqual(board[0].numbers, [["Discs", 3], ["Threats", 0, "legend"]]);
  assert.equal(board[0].out, true);
  assert.equal(board[0].note, "forfeited at move 7");
  assert.equal(r.scoreboard(6)[0].out, false);
  assert.equal(r.plannedTurns(), 42);
  const draw = connectfour.renderer(connectfour.read(fixture("connectfour-draw.json").replay), false);
  assert.deepEqual(draw.result(), { winner: null, text: "A draw: the board is full" });
  const four = connectfour.renderer(connectfour.read(fixture("connectfour-random-3.json").replay), false);
  assert.match(four.result().text, /^(ann|ben) wins with four in a row$/);
  // Threats: ann's three across the bottom, open at both ends, are two; ben's three up
  // column 6 one.
  const g = readConnectFour({ ...f.replay, moves: "162636", forfeit: undefined, result: null });
  assert.equal(g.number(g.lastTurn(), 0, "threats"), 2);
  assert.equal(g.number(g.lastTurn(), 1, "threats"), 1);
  assert.equal(g.number(0, 0, "threats"), 0);
});

test("replays the rules refuse are refused, saying why", () => {
  const good = fixture("connectfour-random-3.json").replay;
  for (const [bad, why] of [
    [{ ...good, moves: good.moves + "0" }, /Move \d+: the game is over/],
    [{ ...good, moves: "0000000" }, /Move 7: column 0 is full/],
    [{ ...good, moves: "08" }, /Move 2: `8` is not a column/],
    [{ ...good, moves: "0a" }, /not at most 42 columns/],
    [{ ...good, moves: "0".repeat(43) }, /not at most 42 columns/],
    [{ ...good, result: { ...good.result, ranks: [1, 1] } }, /result is not its game's/],
    [{ ...good, version: 2 }, /version 2/],
    [{ ...good, players: ["ann", "ann"] }, /needs two players/],
    [{ ...good, limits: [[99, 0, "x"]] }, /limit beyond/],
    [{ ...good, forfeit: { reason: "late" } }, /the game is over/],
  ]) {
    assert.throws(() => readConnectFour(bad), why);
  }
  const live = new ConnectFourLive();
  assert.throws(() => live.add(0, [{ start: true }]), /before its head/);
  live.setHead(fixture("connectfour-random-3.json").head);
  assert.equal(live.add(2, [{ seat: 1, col: 0 }]), -1, "a row is missing");
  assert.throws(() => live.add(0, [{ seat: 0, col: 0 }]), /first row is not its start/);
  live.add(0, [{ start: true }]);
  assert.throws(() => live.add(1, [{ seat: 1, col: 0 }]), /not the move of the player to move/);
  assert.throws(() => live.add(1, [{ seat: 0 }]), /has no move/);
});
