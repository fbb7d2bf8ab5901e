// Where the viewer draws things (static/bottlebats/geometry.mjs).

import { test } from "node:test";
import assert from "node:assert/strict";

import {
  roadLength, bounds, closestDistance, viewGeometry, roadWays, marchProgress, pointOn,
  arrow, battlePoint, flashRadius, flashAlpha, labelBox, fortLabelBox, overlaps,
} from "../../../../static/bottlebats/geometry.mjs";

test("road lengths are the ceiling of the distance, in integers", () => {
  assert.equal(roadLength(0, 0, 3, 4), 5);
  assert.equal(roadLength(0, 0, 1, 1), 2);
  assert.equal(roadLength(5, 5, 5, 5), 0);
  for (let d = 1; d < 2000; d += 7) {
    assert.equal(roadLength(0, 0, d, d), Math.ceil(Math.sqrt(2 * d * d) - 1e-9), "diagonal " + d);
  }
  // Where a float's square root rounds, still exact (squares stay under 2^53).
  const big = 94906265;
  assert.equal(roadLength(0, 0, big, 0), big);
  assert.equal(roadLength(0, 0, big, 1), big + 1);
});

test("the view box holds every fort with room for its circle", () => {
  const forts = [["a", 0, 0], ["b", 10, 0], ["c", 0, 20]];
  assert.deepEqual(bounds(forts), { minX: 0, minY: 0, maxX: 10, maxY: 20 });
  assert.equal(closestDistance(forts), 10);
  const { R, box } = viewGeometry(forts);
  // 0.42 of the closest pair, but at most a 14th of the span.
  assert.equal(R, 20 / 14);
  assert.deepEqual(box, [-2.2 * R, -2.2 * R, 10 + 4.4 * R, 20 + 4.4 * R]);
  // Forts close together get small circles, but never under a 90th of the span.
  const crowded = [["a", 0, 0], ["b", 0.01, 0], ["c", 900, 0]];
  assert.equal(viewGeometry(crowded).R, 10);
});

test("a map without forts, or with all of them at one place, still has a view", () => {
  // A unit box, and a radius of a tenth of it times 0.42.
  assert.deepEqual(viewGeometry([]).box.map((x) => +x.toFixed(6)),
    [-0.0924, -0.0924, 1.1848, 1.1848]);
  assert.equal(closestDistance([["a", 1, 1], ["b", 1, 1]]), Infinity);
  assert.ok(viewGeometry([["a", 1, 1], ["b", 1, 1]]).R > 0);
});

test("marches walk their road to the right of it, and flashes fade", () => {
  const forts = [["a", 0, 0], ["b", 10, 0]];
  const [w] = roadWays(forts, [[0, 1, 10]], 1);
  assert.equal(w.L, 10);
  // Toward b (direction 1), along +x, 0.38 R to the right (+y on screen).
  assert.deepEqual(pointOn(w.toB, 0), { x: 0, y: 0.38 });
  assert.deepEqual(pointOn(w.toB, 0.5), { x: 5, y: 0.38 });
  assert.equal(w.toB.angle, "0.0");
  assert.equal(w.toB.up, false);
  // Toward a, the other side, and its label turned over to read upright.
  assert.deepEqual(pointOn(w.toA, 1), { x: 0, y: -0.38 });
  assert.equal(w.toA.angle, "180.0");
  assert.equal(w.toA.up, true);
  // A march sent at turn 2 on a road of 10 is halfway at turn 7.
  assert.equal(marchProgress([0, 1, 0, 5, 2], 10, 7), 0.5);
  assert.deepEqual(battlePoint(forts, [0, 1, 10], 5), { x: 2.5, y: 0 });
  assert.equal(flashAlpha(3, 4), 1);
  assert.equal(flashAlpha(3, 3.5), 0.5);
  assert.ok(flashRadius("capture", 1, 0.5) > flashRadius("capture", 1, 1));
  assert.ok(flashRadius("battle", 1, 1) < flashRadius("capture", 1, 1));
});

test("bigger marches are bigger arrows, up to a limit", () => {
  const size = (n) => +arrow(n, 1).d.split(" ")[0].slice(1);
  assert.ok(size(1) < size(100));
  assert.equal(size(1e6), size(1e9));
  assert.match(arrow(4, 1).d, /^M[-\d. L]+Z$/);
});

test("a label's box holds its text whichever way its mark points", () => {
  const fs = 10, at = { x: 100, y: 50 };
  // Pointing right: the label above the mark, 3 digits wide.
  const right = labelBox(at, 0, false, "0", "-8", fs, 3);
  assert.ok(right.y1 <= at.y && right.y0 < right.y1, "above: " + JSON.stringify(right));
  assert.ok(right.x1 - right.x0 >= 3 * 0.6 * fs, "wide enough for 3 digits");
  assert.ok(right.y1 - right.y0 >= 1.2 * fs, "a glyph cell high");
  // Pointing left, turned over to read upright: still above the mark.
  const left = labelBox(at, 180, true, "0", "-8", fs, 3);
  assert.ok(left.y1 <= at.y + 1e-9, "turned over, still above: " + JSON.stringify(left));
  // Pointing down: the box is tall and narrow, beside the mark.
  const down = labelBox(at, 90, false, "0", "-8", fs, 3);
  assert.ok(down.y1 - down.y0 > down.x1 - down.x0, "turned: " + JSON.stringify(down));
});

test("boxes overlap only when they share area", () => {
  const a = { x0: 0, y0: 0, x1: 10, y1: 10 };
  assert.ok(overlaps(a, { x0: 5, y0: 5, x1: 15, y1: 15 }));
  assert.ok(!overlaps(a, { x0: 10, y0: 0, x1: 20, y1: 10 }), "touching edges");
  assert.ok(!overlaps(a, { x0: 0, y0: 11, x1: 10, y1: 20 }));
  const fort = fortLabelBox(["a", 50, 50], 10, 2);
  assert.ok(fort.x0 < 50 && fort.x1 > 50 && fort.y0 < 50 && fort.y1 > 50, "centred on its fort");
});
