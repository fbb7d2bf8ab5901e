/* A chart of one number per player over the game (soldiers, forts; gold, mines), with a cursor at
 * the time shown; clicking or dragging on it goes to that turn. */

import { el, svg, fmt } from "./dom.mjs";

export class Chart {
  /** A chart titled `title` of `series` (turn `t`, player `p` at `t * P + p`, as
   *  a renderer's `charts()` gives them) up to `max`, in a figure added to `parent`. `seek(t,
   *  start)` is called with the turn under the pointer, `start` when a click begins; `on(target, type, fn)` adds a listener that the
   *  viewer removes when it goes. `colour(p)` is player `p`'s. */
  constructor(parent, { title, series, max, P, T, seek, on, colour }) {
    this.colour = colour;
    this.W = Math.max(T - 1, 1);
    this.H = max * 1.06;
    const wrap = el("figure", "bbv-chart", parent);
    const cap = el("figcaption", null, wrap);
    el("span", "bbv-chart-title", cap, title);
    el("span", "bbv-chart-max", cap, "max " + fmt(max));
    const plot = el("div", "bbv-plot", wrap);
    this.svg = this.drawLines(plot, title, series, P, T);
    this.cursor = this.drawCursor(plot);
    const axis = el("div", "bbv-axis", wrap);
    el("span", null, axis, "0");
    el("span", null, axis, String(T - 1));
    this.listen(seek, on, T - 1);
  }

  drawLines(plot, title, series, P, T) {
    const { W, H } = this;
    const s = svg("svg", {
      viewBox: "0 0 " + W + " " + H, preserveAspectRatio: "none", "class": "bbv-chart-svg",
      role: "img", "aria-label": title + " of each player over the game",
    }, plot);
    for (let k = 1; k < 4; k++) {
      const y = (H * k / 4).toFixed(2);
      svg("line", { x1: 0, x2: W, y1: y, y2: y, "class": "bbv-grid", "vector-effect": "non-scaling-stroke" }, s);
    }
    for (let p = 0; p < P; p++) {
      const pts = new Array(T);
      for (let t = 0; t < T; t++) pts[t] = t + "," + +(H - series[t * P + p]).toFixed(2);
      svg("polyline", {
        points: pts.join(" "), fill: "none", stroke: this.colour(p), "stroke-width": "1.6",
        "stroke-linejoin": "round", "vector-effect": "non-scaling-stroke", "class": "bbv-series",
      }, s);
    }
    return s;
  }

  /** The cursor moves every frame: drawn on its own, the lines under it stay painted. */
  drawCursor(plot) {
    const { W, H } = this;
    const over = svg("svg", {
      viewBox: "0 0 " + W + " " + H, preserveAspectRatio: "none", "class": "bbv-plot-cursor",
      "aria-hidden": "true",
    }, plot);
    // The turns still to come, covered while the result is hidden (see the viewer's
    // "Hide the result until the end").
    this.future = svg("rect", { x: 0, y: 0, width: W, height: H, "class": "bbv-future" }, over);
    return svg("line", {
      x1: 0, x2: 0, y1: 0, y2: H, "class": "bbv-cursor", "vector-effect": "non-scaling-stroke",
    }, over);
  }

  /** Clicking or dragging on the chart calls `seek` with the turn under the pointer. */
  listen(seek, on, last) {
    const s = this.svg;
    const at = (e, start) => {
      const rect = s.getBoundingClientRect();
      const x = Math.max(0, Math.min(1, (e.clientX - rect.left) / Math.max(rect.width, 1)));
      seek(Math.round(x * last), start);
    };
    let dragging = false;
    on(s, "pointerdown", (e) => {
      dragging = true;
      if (s.setPointerCapture) s.setPointerCapture(e.pointerId);
      at(e, true);
    });
    on(s, "pointermove", (e) => { if (dragging) at(e, false); });
    on(s, "pointerup", () => { dragging = false; });
    on(s, "pointercancel", () => { dragging = false; });
  }

  /** The cursor at time `tau`. */
  moveCursor(tau) {
    const x = tau.toFixed(2);
    this.cursor.setAttribute("x1", x);
    this.cursor.setAttribute("x2", x);
    this.future.setAttribute("x", x);
    this.future.setAttribute("width", Math.max(0, this.W - tau).toFixed(2));
  }
}
