// What the viewer reads from the keyboard (static/viewer/controls.mjs) and what it
// refuses to read (static/viewer/replay.mjs).

import { test } from "node:test";
import assert from "node:assert/strict";

import { keyCommand } from "../../../static/viewer/controls.mjs";
import { parse } from "../../../static/viewer/replay.mjs";
import { clampTurn } from "../../../static/viewer/viewer.mjs";

const on = (key, target = { tagName: "BODY" }, extra = {}) => keyCommand({ key, target, ...extra });

test("keys give commands, unless typed into a field or with a modifier", () => {
  assert.equal(on(" "), "play");
  assert.equal(on("k"), "play");
  assert.equal(on("ArrowRight"), "forward");
  assert.equal(on("ArrowLeft"), "back");
  assert.equal(on("Home"), "first");
  assert.equal(on("End"), "last");
  assert.equal(on("x"), null);
  assert.equal(on("ArrowRight", { tagName: "BODY" }, { ctrlKey: true }), null);
  assert.equal(on("ArrowRight", { tagName: "BODY" }, { defaultPrevented: true }), null);
  assert.equal(on(" ", { tagName: "INPUT", type: "text" }), null);
  assert.equal(on(" ", { tagName: "TEXTAREA" }), null);
  assert.equal(on(" ", { tagName: "DIV", isContentEditable: true }), null);
  assert.equal(on("ArrowRight", { tagName: "INPUT", type: "file" }), "forward");
  // A focused scrub bar moves itself; space still plays.
  assert.equal(on("ArrowRight", { tagName: "INPUT", type: "range" }), null);
  assert.equal(on("End", { tagName: "INPUT", type: "range" }), null);
  assert.equal(on(" ", { tagName: "INPUT", type: "range" }), "play");
});

test("turns are clamped to the game", () => {
  assert.equal(clampTurn(3.6, 10), 4);
  assert.equal(clampTurn(-2, 10), 0);
  assert.equal(clampTurn(99, 10), 10);
  assert.equal(clampTurn("x", 10), 0);
});

test("what is not a replay is refused with a reason", () => {
  assert.throws(() => parse("hello"), /neither a JSON replay nor a game's log/);
  assert.throws(() => parse("{ nope"), /not valid JSON/);
  assert.throws(() => parse('{"format": "other"}'), /not a Bottle Bats replay/);
  assert.throws(() => parse('{"format": "bottlebats-replay", "version": 7}'), /version 7/);
  assert.throws(() => parse('{"format": "bottlebats-replay", "version": 2}'), /incomplete/);
  assert.throws(() => parse('{"format": "bottlebats-replay", "version": 1}'), /incomplete/);
  const ok = { format: "bottlebats-replay", version: 1, map: { forts: [], roads: [] },
    players: [], turns: [{}] };
  assert.deepEqual(parse("\uFEFF  " + JSON.stringify(ok)), ok);
  assert.equal(parse("1 forts:\na 0 0 p 1\n").source, "classic log");
});

test("keys for the view: full screen, names, zoom", () => {
  assert.equal(on("f"), "fullscreen");
  assert.equal(on("F"), "fullscreen");
  assert.equal(on("n"), "names");
  assert.equal(on("+"), "zoom-in");
  assert.equal(on("="), "zoom-in");
  assert.equal(on("-"), "zoom-out");
  assert.equal(on("0"), "zoom-reset");
  assert.equal(on("f", { tagName: "INPUT", type: "text" }), null, "typed into a field");
  assert.equal(on("n", { tagName: "INPUT", type: "checkbox" }), "names", "a checkbox's focus");
  assert.equal(on(" ", { tagName: "INPUT", type: "checkbox" }), null, "its space is its own");
});
