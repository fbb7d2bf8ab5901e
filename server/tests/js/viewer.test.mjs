// The viewer's core and its renderers (static/viewer/viewer.mjs's contract): a replay
// is read by its game, picked by its format (a classic log of 2016 is Bottle Bats');
// each game's renderer gives each player's numbers at a turn (the legend's and the big
// screen's), which are the game's own; the colour-blind palette tells every player
// apart under deuteranopia and protanopia.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";

import { parse } from "../../../static/viewer/replay.mjs";
import { gameOf, GAMES } from "../../../static/viewer/games.mjs";
import { bottlebats } from "../../../static/bottlebats/game.mjs";
import { vindinium } from "../../../static/vindinium/game.mjs";
import { connectfour } from "../../../static/connectfour/game.mjs";
import { PALETTES, NEUTRAL_FILL, palette, ink, usePalette, isLight } from "../../../static/bottlebats/colours.mjs";
import { numberWord } from "../../../static/screen.mjs";

const DIR = new URL("./fixtures/", import.meta.url);
const VINDINIUM = readdirSync(DIR).filter((f) => /^vindinium-.*\.json$/.test(f)).sort();

/** What every renderer implements (the contract at the top of viewer.mjs). */
const METHODS = [
  "lastTurn", "plannedTurns", "mount", "fit", "show", "draw", "showNames", "summary", "result",
  "describe", "problems", "scoreboard", "charts", "colour", "ink", "swatch", "extend", "finish",
];

/** A Bottle Bats game of 3 turns: red takes beta, blue is out at turn 2. */
function small() {
  return {
    format: "bottlebats-replay", version: 1, players: ["red", "blue"], max_steps: 5,
    map: { forts: [["alpha", 0, 0], ["beta", 3, 4]], roads: [[0, 1, 5]] },
    turns: [
      { owners: [0, 1], garrisons: [10, 5], marches: [], events: {} },
      { owners: [0, 1], garrisons: [2, 5], marches: [[0, 0, 0, 8, 0]], events: {} },
      { owners: [0, 0], garrisons: [2, 3], marches: [], events: { removed: [[1, "defeated"]] } },
      { owners: [0, 0], garrisons: [3, 4], marches: [], events: {} },
    ],
    result: { winner: 0, ranks: [1, 2], removed: [null, 2], turns: 3 },
  };
}

test("a replay's game is picked by its format; a classic log is Bottle Bats'", () => {
  assert.deepEqual(GAMES.map((g) => g.name), ["bottlebats", "vindinium", "connectfour"]);
  const bb = parse(JSON.stringify(small()));
  assert.equal(gameOf(bb), bottlebats);
  const v = parse(readFileSync(new URL(VINDINIUM[0], DIR), "utf8").replace(/^\{"every":\d+,"replay":/, "").replace(/,"states":.*$/s, ""));
  assert.equal(gameOf(v), vindinium);
  assert.equal(vindinium.read(v), v, "a replay read is read once");
  const log = parse("# STEP: 0\n2 forts:\na 0 0 red 3\nb 3 4 blue 2\n1 roads:\na b\n0 marches:\n");
  assert.equal(log.source, "classic log");
  assert.equal(gameOf(log), bottlebats);
  assert.throws(() => parse('{"format": "chess"}'), /not a Bottle Bats replay/);
  assert.throws(() => parse("hello"), /neither/);
});

test("each game's renderer has the whole contract", () => {
  const v = JSON.parse(readFileSync(new URL(VINDINIUM[0], DIR), "utf8")).replay;
  const c4 = JSON.parse(readFileSync(new URL("connectfour-timeout.json", DIR), "utf8")).replay;
  for (const [game, replay] of [[bottlebats, small()], [vindinium, v], [connectfour, c4]]) {
    const r = game.renderer(game.read(replay), false);
    for (const m of METHODS) assert.equal(typeof r[m], "function", game.name + ": " + m);
    for (const w of ["player", "names", "problems", "step", "tail"]) assert.ok(r.words[w], game.name + ": " + w);
    assert.equal(typeof game.live, "function");
    assert.equal(r.scoreboard(0).length, r.replay.players.length);
    for (const c of r.charts()) assert.equal(c.series.length, c.T * c.P, game.name + ": " + c.title);
  }
});

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

for (const name of VINDINIUM) {
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

test("the big screen writes a number's word after it: 1 fort, 12 soldiers, 340 gold", () => {
  assert.equal(numberWord("Forts", 1), "fort");
  assert.equal(numberWord("Soldiers", 12), "soldiers");
  assert.equal(numberWord("Gold", 1), "gold");
  assert.equal(numberWord("Mines", 1), "mine");
  assert.equal(numberWord("Deaths", 0), "deaths");
});

// Colour vision simulated as Machado, Oliveira and Fernandes (2009) do it at full
// severity, on linear RGB; distances in CIELAB (ΔE 1976).
const VISION = {
  protanopia: [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]],
  deuteranopia: [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]],
};

function seenAs(hex, m) {
  const lin = (c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  const rgb = [1, 3, 5].map((i) => lin(parseInt(hex.slice(i, i + 2), 16) / 255));
  const s = m.map((row) => Math.min(1, Math.max(0, row[0] * rgb[0] + row[1] * rgb[1] + row[2] * rgb[2])));
  const x = 0.4124 * s[0] + 0.3576 * s[1] + 0.1805 * s[2];
  const y = 0.2126 * s[0] + 0.7152 * s[1] + 0.0722 * s[2];
  const z = 0.0193 * s[0] + 0.1192 * s[1] + 0.9505 * s[2];
  const f = (t) => (t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 * t + 16) / 116);
  const fx = f(x / 0.95047), fy = f(y), fz = f(z / 1.08883);
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

/** The least difference, under `m`, between two of `colours`. */
function closest(colours, m) {
  const seen = colours.map((c) => seenAs(c, m));
  let least = Infinity;
  for (let i = 0; i < seen.length; i++) {
    for (let j = i + 1; j < seen.length; j++) least = Math.min(least, Math.hypot(...seen[i].map((v, k) => v - seen[j][k])));
  }
  return least;
}

test("the colour-blind palette tells eight players and neutral apart under deuteranopia and protanopia", () => {
  for (const [vision, m] of Object.entries(VISION)) {
    const cb = closest(PALETTES["colour-blind"].concat([NEUTRAL_FILL]), m);
    assert.ok(cb >= 15, vision + ": two colours only ΔE " + cb.toFixed(1) + " apart");
    // Why it is offered: the usual one has players that look alike.
    const usual = closest(PALETTES.usual.slice(0, 6), m);
    assert.ok(usual < 15, vision + ": the usual palette is ΔE " + usual.toFixed(1));
  }
  usePalette("colour-blind");
  assert.equal(palette(0), PALETTES["colour-blind"][0]);
  assert.ok(isLight(palette(0)), "a yellow fort's number is written dark");
  assert.ok(isLight(palette(7)) && !isLight(ink(7)), "a white player's name and line show on the page");
  usePalette("nonsense");
  assert.equal(palette(0), PALETTES.usual[0]);
  assert.ok(!isLight(palette(0)));
});
