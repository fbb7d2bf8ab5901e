/* The map: roads, forts, marches and the flashes of battles and captures, in SVG.
 *
 * Three stacked drawings of the same box: roads; marches and flashes, which move every
 * frame; forts, which change once a turn. Each is painted on its own, so a frame between
 * two turns repaints only the marches. */

import { el, svg } from "./dom.mjs";
import { palette, ROAD, BATTLE } from "./colours.mjs";
import {
  roadWays, marchProgress, pointOn, arrow, battlePoint, flashRadius, flashAlpha,
} from "./geometry.mjs";

export class MapView {
  /** The map of replay `r` with geometry `geo` (`viewGeometry`), drawn in a new
   *  `div.bbv-map` of `parent`. `on(target, type, fn)` adds a listener that the viewer
   *  removes when it goes. */
  constructor(parent, r, geo, on) {
    this.replay = r;
    this.R = geo.R;
    this.ways = roadWays(r.map.forts, r.map.roads, geo.R);
    this.live = new Map(); // the marches drawn, by key (see `placeMarch`)
    this.free = []; // march elements hidden, for the next ones
    this.stamp = 0; // the frame being drawn
    this.flashes = [];
    const box = el("div", "bbv-map", parent);
    const viewBox = geo.box.join(" ");
    this.svg = svg("svg", {
      viewBox, role: "img", "class": "bbv-svg", "aria-label": "The map at the current turn",
    }, box);
    const layer = (cls) =>
      svg("svg", { viewBox, "class": "bbv-layer " + cls, "aria-hidden": "true" }, box);
    const moving = layer("bbv-moving"), top = layer("bbv-top");
    this.roads = this.drawRoads(this.svg);
    this.gMarches = svg("g", { "class": "bbv-marches" }, moving);
    this.gFlashes = svg("g", { "class": "bbv-flashes" }, moving);
    this.forts = this.drawForts(top, on);
  }

  drawRoads(parent) {
    const forts = this.replay.map.forts;
    const g = svg("g", { "class": "bbv-roads", "stroke-width": (this.R * 0.16).toFixed(3) }, parent);
    return this.replay.map.roads.map((rd) => {
      const a = forts[rd[0]], b = forts[rd[1]];
      const line = svg("line", { x1: a[1], y1: a[2], x2: b[1], y2: b[2], stroke: ROAD }, g);
      return { el: line, owner: -2 };
    });
  }

  /** Every fort a `g.bbv-fort` with `data-fort`, and a tooltip that says who holds it,
   *  written when the pointer comes to it. */
  drawForts(parent, on) {
    const R = this.R, labelSize = R * 0.82;
    const gForts = svg("g", { "class": "bbv-forts" }, parent);
    on(gForts, "pointerover", (e) => {
      const g = e.target.closest && e.target.closest("g.bbv-fort");
      const f = g && this.forts[+g.getAttribute("data-index")];
      if (!f) return;
      const who = f.owner < 0 ? "neutral" : this.replay.players[f.owner];
      f.title.textContent = f.name + " · " + who + " · " + f.garrison + " soldiers";
    });
    return this.replay.map.forts.map((f, i) => {
      const g = svg("g", {
        "class": "bbv-fort", "data-fort": f[0], "data-index": i,
        transform: "translate(" + f[1] + " " + f[2] + ")",
      }, gForts);
      const title = svg("title", null, g);
      title.textContent = f[0];
      const circle = svg("circle", { r: R.toFixed(3), "stroke-width": (R * 0.14).toFixed(3) }, g);
      const text = svg("text", {
        "font-size": labelSize.toFixed(3), dy: (labelSize * 0.36).toFixed(3),
      }, g);
      return { g, title, circle, text, owner: -2, garrison: -1, name: f[0], index: i };
    });
  }

  /** The forts and roads of snapshot `t`: owners, garrisons, and a road between two
   *  forts of one player in a tint of their colour. Only what changed is written. */
  showTurn(t) {
    const r = this.replay, players = r.players;
    const { owners, garrisons } = r.turns[t];
    for (let i = 0; i < this.forts.length; i++) {
      const f = this.forts[i], o = owners[i], g = garrisons[i];
      if (f.owner !== o) {
        f.owner = o;
        f.circle.setAttribute("fill", palette(o));
        f.g.setAttribute("data-owner", o < 0 ? "neutral" : players[o]);
        f.g.setAttribute("class", o < 0 ? "bbv-fort bbv-neutral" : "bbv-fort");
      }
      if (f.garrison !== g) {
        f.garrison = g;
        f.text.textContent = String(g);
        f.g.setAttribute("data-garrison", String(g));
      }
    }
    const roads = r.map.roads;
    for (let i = 0; i < this.roads.length; i++) {
      const a = owners[roads[i][0]], b = owners[roads[i][1]];
      const own = a === b && a >= 0 ? a : -1;
      const road = this.roads[i];
      if (road.owner !== own) {
        road.owner = own;
        road.el.setAttribute("stroke", own < 0 ? ROAD : palette(own));
        road.el.setAttribute("class", own < 0 ? "" : "bbv-owned");
      }
    }
  }

  /** The marches at time `tau`: those of snapshot floor(tau) walking on, and while
   *  between two turns, those sent in that turn leaving their forts. A march keeps its
   *  element from turn to turn, so a frame mostly moves elements and rarely changes
   *  their text, which is what costs. */
  drawMarches(tau) {
    const turns = this.replay.turns, t = Math.floor(tau);
    const stamp = ++this.stamp;
    for (const m of turns[t].marches) this.placeMarch(m, tau, stamp);
    if (tau > t && t + 1 < turns.length) {
      for (const m of turns[t + 1].marches) if (m[4] === t) this.placeMarch(m, tau, stamp);
    }
    this.live.forEach((item, key) => {
      if (item.stamp === stamp) return;
      item.g.setAttribute("display", "none");
      this.live.delete(key);
      this.free.push(item);
    });
  }

  /** March `m` (`[road, direction, owner, size, sent]`) at time `tau`, if on its road.
   *  Its element is found by road, direction, turn sent and owner. */
  placeMarch(m, tau, stamp) {
    const road = this.ways[m[0]];
    const p = marchProgress(m, road.L, tau);
    if (p <= 0 || p >= 1) return;
    const key = ((m[4] + 1e6) * 2 * this.ways.length + 2 * m[0] + m[1]) *
      (this.replay.players.length + 1) + m[2] + 1;
    let item = this.live.get(key);
    if (item === undefined) {
      item = this.free.pop() || this.newMarch();
      this.live.set(key, item);
      item.g.removeAttribute("display");
    } else if (item.stamp === stamp) {
      return; // the same march twice (a malformed log): drawn once
    }
    item.stamp = stamp;
    const d = m[1] === 0 ? road.toA : road.toB;
    const at = pointOn(d, p);
    item.g.setAttribute("transform",
      "translate(" + at.x.toFixed(2) + " " + at.y.toFixed(2) + ") rotate(" + d.angle + ")");
    if (item.owner !== m[2]) {
      item.owner = m[2];
      item.body.setAttribute("fill", palette(m[2]));
    }
    if (item.size !== m[3]) {
      item.size = m[3];
      const shape = arrow(m[3], this.R);
      item.body.setAttribute("d", shape.d);
      item.label.textContent = String(m[3]);
      item.label.setAttribute("x", shape.labelX);
      item.label.setAttribute("y", shape.labelY);
    }
    // The size reads upright whatever the direction.
    if (item.up !== d.up) {
      item.up = d.up;
      item.label.setAttribute("transform", d.up ? "rotate(180)" : "");
    }
  }

  newMarch() {
    const R = this.R;
    const g = svg("g", { "class": "bbv-march" }, this.gMarches);
    const body = svg("path", { "stroke-width": (R * 0.08).toFixed(3) }, g);
    const label = svg("text", { "font-size": (R * 0.62).toFixed(3) }, g);
    return { g, body, label, owner: -2, size: -1, up: false, stamp: 0 };
  }

  /** Battles on the roads and forts taken: a flash that peaks when the turn after them
   *  is shown and fades over the next turn. */
  drawFlashes(tau) {
    const r = this.replay, forts = r.map.forts, roads = r.map.roads;
    let used = 0;
    for (let k = Math.max(0, Math.ceil(tau) - 2); k <= Math.floor(tau) && k < r.turns.length; k++) {
      const alpha = flashAlpha(k, tau);
      const ev = r.turns[k].events;
      if (alpha <= 0.02 || !ev) continue;
      for (const b of ev.battles || []) {
        const at = battlePoint(forts, roads[b[0]], b[1]);
        this.flash(used++, "battle", at.x, at.y, alpha * 0.9, BATTLE);
      }
      for (const c of ev.captures || []) {
        const f = forts[c[0]];
        this.flash(used++, "capture", f[1], f[2], alpha, palette(c[2]));
      }
    }
    for (let i = used; i < this.flashes.length; i++) {
      const f = this.flashes[i];
      if (f.hidden) continue;
      f.el.setAttribute("display", "none");
      f.hidden = true;
    }
  }

  /** Flash number `i` of this frame, of `kind` ("battle" or "capture"). */
  flash(i, kind, x, y, alpha, colour) {
    let f = this.flashes[i];
    if (!f) {
      f = { el: svg("circle", { r: 1 }, this.gFlashes), kind: "", hidden: false, colour: "" };
      this.flashes.push(f);
    }
    if (f.hidden) { f.el.removeAttribute("display"); f.hidden = false; }
    if (f.kind !== kind) {
      f.kind = kind;
      f.el.setAttribute("class", "bbv-" + kind);
      f.el.setAttribute("stroke-width", (this.R * (kind === "capture" ? 0.24 : 0.12)).toFixed(3));
    }
    if (f.colour !== colour) { f.colour = colour; f.el.setAttribute("stroke", colour); }
    f.el.setAttribute("cx", x.toFixed(2));
    f.el.setAttribute("cy", y.toFixed(2));
    f.el.setAttribute("r", flashRadius(kind, this.R, alpha).toFixed(3));
    f.el.setAttribute("opacity", alpha.toFixed(3));
  }
}
