/* Where things are drawn: the view box, a fort's size, a march on its road, a flash.
 * Pure functions of the replay's map, without the DOM. A fort is `[name, x, y]`, a road
 * `[a, b, length]` (fort indexes), as in the replay. */

/** `ceil(sqrt(dx² + dy²))` in integers, as the engine computes road lengths. */
export function roadLength(ax, ay, bx, by) {
  const d2 = (ax - bx) * (ax - bx) + (ay - by) * (ay - by);
  let s = Math.floor(Math.sqrt(d2));
  while (s * s < d2) s++;
  while (s > 0 && (s - 1) * (s - 1) >= d2) s--;
  return s;
}

/** The smallest box holding every fort: `{minX, minY, maxX, maxY}` (0 to 1 without any). */
export function bounds(forts) {
  if (!forts.length) return { minX: 0, minY: 0, maxX: 1, maxY: 1 };
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const f of forts) {
    minX = Math.min(minX, f[1]); maxX = Math.max(maxX, f[1]);
    minY = Math.min(minY, f[2]); maxY = Math.max(maxY, f[2]);
  }
  return { minX, minY, maxX, maxY };
}

/** The distance between the two closest forts that are apart, or `Infinity` when
 *  there is no such pair or more than 2,000 forts (the search is quadratic). */
export function closestDistance(forts) {
  let closest = Infinity;
  if (forts.length > 2000) return closest;
  for (let i = 0; i < forts.length; i++) {
    for (let j = i + 1; j < forts.length; j++) {
      const dx = forts[i][1] - forts[j][1], dy = forts[i][2] - forts[j][2];
      const d = dx * dx + dy * dy;
      if (d > 0 && d < closest) closest = d;
    }
  }
  return Math.sqrt(closest);
}

/** The drawing's geometry: `R`, a fort's radius, big enough to read its garrison and
 *  never touching a neighbour, and `box`, the view box `[x, y, width, height]` around
 *  the forts with room for their circles. */
export function viewGeometry(forts) {
  const b = bounds(forts);
  const span = Math.max(b.maxX - b.minX, b.maxY - b.minY, 1);
  let closest = closestDistance(forts);
  if (!isFinite(closest)) closest = span / 10;
  const R = Math.max(Math.min(closest * 0.42, span / 14), span / 90);
  const pad = R * 2.2;
  return {
    R,
    box: [b.minX - pad, b.minY - pad, b.maxX - b.minX + 2 * pad, b.maxY - b.minY + 2 * pad],
  };
}

/** The way of a march from fort `from` to fort `to`: where it starts, `dx` and `dy` to
 *  its end, its angle in degrees (text) and whether it points left (`up`: its label is
 *  turned over to read upright). Marches keep `side` to the right of the road, so
 *  opposite ones are told apart. */
export function way(from, to, side) {
  const dx = to[1] - from[1], dy = to[2] - from[2];
  const len = Math.sqrt(dx * dx + dy * dy) || 1;
  const angle = Math.atan2(dy, dx);
  return {
    x: from[1] - dy / len * side, y: from[2] + dx / len * side, dx, dy,
    angle: (angle * 180 / Math.PI).toFixed(1), up: Math.abs(angle) > Math.PI / 2,
  };
}

/** Per road: its length `L` (at least 1) and its two ways, `toA` (a march with
 *  direction 0, from the road's second fort to its first) and `toB`. */
export function roadWays(forts, roads, R) {
  const side = R * 0.38;
  return roads.map((rd) => {
    const a = forts[rd[0]], b = forts[rd[1]];
    return { L: rd[2] || 1, toA: way(b, a, side), toB: way(a, b, side) };
  });
}

/** How far along its road (0 to 1) march `m` (`[road, direction, owner, size, sent]`) is
 *  at time `tau`; at or past either end it is not on the road. */
export function marchProgress(m, L, tau) {
  return (tau - m[4]) / L;
}

/** The point at `p` (0 to 1) along a way of `roadWays`. */
export function pointOn(d, p) {
  return { x: d.x + d.dx * p, y: d.y + d.dy * p };
}

/** A march's arrow for `size` soldiers with forts of radius `R`, pointing along +x:
 *  its path, and where its label goes. Bigger marches are bigger arrows, up to a limit. */
export function arrow(size, R) {
  const s = Math.min(0.34 + 0.05 * Math.sqrt(size), 0.78) * R;
  const f = (x) => x.toFixed(3);
  return {
    d: "M" + f(s * 1.25) + " 0L" + f(-s) + " " + f(s * 0.95) + "L" + f(-s * 0.55) + " 0L" +
      f(-s) + " " + f(-s * 0.95) + "Z",
    labelX: f(-s * 0.2),
    labelY: f(-(s + R * 0.2)),
  };
}

/** Where on `road` a battle at `at` half-steps from its first fort is. */
export function battlePoint(forts, road, at) {
  const a = forts[road[0]], b = forts[road[1]];
  const p = at / (2 * (road[2] || 1));
  return { x: a[1] + (b[1] - a[1]) * p, y: a[2] + (b[2] - a[2]) * p };
}

/** The radius of a flash of `kind` ("battle" or "capture") at strength `alpha` (1 at
 *  its peak): it grows as it fades. */
export function flashRadius(kind, R, alpha) {
  return kind === "capture" ? R * (1.3 + 0.5 * (1 - alpha)) : R * (0.55 + 0.5 * (1 - alpha));
}

/** The strength (0 to 1) at time `tau` of the flashes of the events of turn `k`: they
 *  peak when snapshot `k + 1` is shown and fade over a turn either side. */
export function flashAlpha(k, tau) {
  return 1 - Math.abs(tau - (k + 1));
}

/** The box (`{x0, y0, x1, y1}`, axis-aligned, in map units) that a march's label of
 *  `chars` characters at font size `fs` covers: the label sits at (`lx`, `ly`) in the
 *  frame of a mark at `at` turned `angle` degrees, turned over when `up`. Generous
 *  rather than tight (a glyph cell is about 1.2 em high and a digit 0.6 em wide), so
 *  that labels kept apart here never touch on the screen. */
export function labelBox(at, angle, up, lx, ly, fs, chars) {
  const w = chars * 0.66 * fs + 0.3 * fs, h = 1.4 * fs;
  // The middle of the text: a third of an em above its baseline, in its own frame.
  let cx = +lx, cy = +ly - 0.35 * fs;
  if (up) { cx = -cx; cy = -cy; }
  const a = angle * Math.PI / 180, cos = Math.cos(a), sin = Math.sin(a);
  const x = at.x + cx * cos - cy * sin, y = at.y + cx * sin + cy * cos;
  const hw = (Math.abs(w * cos) + Math.abs(h * sin)) / 2;
  const hh = (Math.abs(w * sin) + Math.abs(h * cos)) / 2;
  return { x0: x - hw, y0: y - hh, x1: x + hw, y1: y + hh };
}

/** The box of a fort's garrison label (`chars` characters at font size `fs`). */
export function fortLabelBox(f, fs, chars) {
  const hw = (chars * 0.66 * fs + 0.3 * fs) / 2, hh = 0.72 * fs;
  return { x0: f[1] - hw, y0: f[2] - hh, x1: f[1] + hw, y1: f[2] + hh };
}

/** Whether two boxes of `labelBox` overlap. */
export function overlaps(a, b) {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}
