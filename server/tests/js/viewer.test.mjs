// The viewer's core and its renderers (static/viewer/viewer.mjs's contract): a replay
// is read by its game, picked by its format (a classic log of 2016 is Bottle Bats');
// every game of the registry has a renderer with the whole contract, which reads the
// example replay in its folder (games/NAME/tests/js/fixtures/example.json); the
// colour-blind palette tells every player apart under deuteranopia and protanopia.
// Each game's own tests are in games/NAME/tests/js/.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import { parse } from "../../../static/viewer/replay.mjs";
import { gameOf, GAMES } from "../../../static/viewer/games.mjs";
import { PALETTES, NEUTRAL_FILL, palette, ink, usePalette, isLight } from "../../../static/bottlebats/colours.mjs";
import { numberWord } from "../../../static/screen.mjs";

/** The registry's games (the harness passes them), else the viewer's. */
const REGISTRY = (process.env.BOTTLEBATS_GAMES || GAMES.map((g) => g.name).join(",")).split(",");

/** A game's example replay, from its folder. */
const example = (name) =>
  readFileSync(new URL("../../../games/" + name + "/tests/js/fixtures/example.json", import.meta.url), "utf8");

/** What every renderer implements (the contract at the top of viewer.mjs). */
const METHODS = [
  "lastTurn", "plannedTurns", "mount", "fit", "show", "draw", "showNames", "summary", "result",
  "describe", "problems", "scoreboard", "charts", "colour", "ink", "swatch", "extend", "finish",
];

test("every game of the registry is one of the viewer's, and reads its own replays", () => {
  for (const name of REGISTRY) {
    const game = GAMES.find((g) => g.name === name);
    assert.ok(game, "the viewer's list of games (static/viewer/games.mjs) lacks " + name);
    const replay = parse(example(name));
    assert.equal(gameOf(replay), game, name + ": its example is picked by its format");
    assert.equal(game.read(replay), replay, name + ": a replay read is read once");
  }
  const log = parse("# STEP: 0\n2 forts:\na 0 0 red 3\nb 3 4 blue 2\n1 roads:\na b\n0 marches:\n");
  assert.equal(log.source, "classic log");
  assert.equal(gameOf(log), GAMES.find((g) => g.name === "bottlebats"));
  assert.throws(() => parse('{"format": "chess"}'), /not a Bottle Bats replay/);
  assert.throws(() => parse("hello"), /neither/);
});

test("each game's renderer has the whole contract", () => {
  for (const game of GAMES) {
    const r = game.renderer(game.read(JSON.parse(example(game.name))), false);
    for (const m of METHODS) assert.equal(typeof r[m], "function", game.name + ": " + m);
    for (const w of ["player", "names", "problems", "step", "tail"]) assert.ok(r.words[w], game.name + ": " + w);
    assert.equal(typeof game.live, "function");
    assert.equal(r.scoreboard(0).length, r.replay.players.length);
    for (const c of r.charts()) assert.equal(c.series.length, c.T * c.P, game.name + ": " + c.title);
  }
});

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
