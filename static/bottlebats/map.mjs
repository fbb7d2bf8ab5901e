/* The map: roads, forts, marches and the flashes of battles and captures, in SVG.
 *
 * Three stacked drawings of the same box: roads; marches and flashes, which move every
 * frame; forts, which change once a turn. Each is painted on its own, so a frame between
 * two turns repaints only the marches. */

import { el, svg } from "../viewer/dom.mjs";
import { palette, isLight, ROAD, BATTLE } from "./colours.mjs";
import {
  roadWays, marchProgress, pointOn, arrow, battlePoint, flashRadius, flashAlpha,
  labelBox, fortLabelBox, overlaps,
} from "./geometry.mjs";

export class MapView {
  /** The map of replay `r` with geometry `geo` (`viewGeometry`), drawn in a new
   *  `div.bbv-map` of `parent`. `on(target, type, fn)` adds a listener that the viewer
   *  removes when it goes. */
  constructor(parent, r, geo, on) {
    this.replay = r;
    this.R = geo.R;
    this.ways = roadWays(r.map.forts, r.map.roads, geo.R);
    this.live = new Map(); // the marks drawn, by key (see `group`)
    this.marchFont = geo.R * 0.62;
    this.fortFont = geo.R * 0.82;
    this.fortBoxes = []; // the garrisons' labels at the turn shown
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
    this.views = [this.svg, moving, top];
    this.roads = this.drawRoads(this.svg);
    this.gMarches = svg("g", { "class": "bbv-marches" }, moving);
    this.gFlashes = svg("g", { "class": "bbv-flashes" }, moving);
    this.forts = this.drawForts(top, on);
    this.tau = 0;
    this.box = box;
    this.info = el("div", "bbv-info", box);
    this.info.hidden = true;
    this.info.setAttribute("role", "status");
    // A mark's tooltip is written when the pointer comes to it.
    on(this.gMarches, "pointerover", (e) => {
      const item = e.target.bbvMark;
      if (!item || !item.group) return;
      if (!item.title) item.title = svg("title", null, item.g);
      item.title.textContent = this.describeMark(item, this.tau).join("\n");
    });
    on(box, "click", (e) => this.tap(e));
  }

  /** Shows the part `v` (`[x, y, w, h]`) of the map (see `Zoom`). */
  setViewBox(v) {
    const text = v.map((x) => x.toFixed(2)).join(" ");
    for (const s of this.views) s.setAttribute("viewBox", text);
  }

  /** A click or tap: a fort's or a mark's details in the info box, or the box closed. */
  tap(e) {
    const fort = e.target.closest && e.target.closest("g.bbv-fort");
    let lines = null;
    if (fort) lines = this.describeFort(+fort.getAttribute("data-index"));
    else if (e.target.bbvMark && e.target.bbvMark.group) {
      lines = this.describeMark(e.target.bbvMark, this.tau);
    } else if (e.target.closest && e.target.closest(".bbv-info")) {
      if (!e.target.closest(".bbv-info-close")) return;
    }
    this.info.textContent = "";
    this.info.hidden = !lines;
    if (!lines) return;
    const close = el("button", "bbv-info-close", this.info, "×");
    close.type = "button";
    close.setAttribute("aria-label", "Close");
    el("strong", null, this.info, lines[0]);
    const ul = el("ul", null, this.info);
    for (const line of lines.slice(1)) el("li", null, ul, line);
  }

  /** The words of fort `i` at the turn shown: name, holder, garrison, roads. */
  describeFort(i) {
    const r = this.replay, f = this.forts[i], forts = r.map.forts;
    const who = f.owner < 0 ? "neutral" : r.players[f.owner];
    const roads = r.map.roads
      .filter((rd) => rd[0] === i || rd[1] === i)
      .map((rd) => "road to " + forts[rd[0] === i ? rd[1] : rd[0]][0] + ", " + rd[2] + " steps");
    return [f.name + " · " + who + " · " + f.garrison + " soldiers"].concat(roads);
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
    const R = this.R, labelSize = this.fortFont;
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
      // Its name under it, shown when the names are turned on.
      svg("text", {
        "class": "bbv-fort-name", "font-size": (R * 0.55).toFixed(3), dy: (R * 1.65).toFixed(3),
      }, g).textContent = f[0];
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
        f.g.setAttribute("class", o < 0 ? "bbv-fort bbv-neutral"
          : isLight(palette(o)) ? "bbv-fort bbv-light" : "bbv-fort");
      }
      if (f.garrison !== g) {
        f.garrison = g;
        f.text.textContent = String(g);
        f.g.setAttribute("data-garrison", String(g));
        f.box = fortLabelBox(r.map.forts[i], this.fortFont, String(g).length);
      }
    }
    this.fortBoxes = this.forts.map((f) => f.box);
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
   *  between two turns, those sent in that turn leaving their forts. The marches of one
   *  owner on one road going one way are one mark, at the one ahead, sized by their
   *  soldiers and labelled with them (and how many marches, when more than one). A
   *  label that would cover a fort's garrison or a bigger mark's label is left out;
   *  the mark's tooltip, and a tap on it, tell everything. A mark keeps its element
   *  from frame to frame, so a frame mostly moves elements. */
  drawMarches(tau) {
    const turns = this.replay.turns, t = Math.floor(tau);
    const stamp = ++this.stamp;
    this.tau = tau;
    const groups = new Map();
    for (const m of turns[t].marches) this.group(groups, m, tau);
    if (tau > t && t + 1 < turns.length) {
      for (const m of turns[t + 1].marches) if (m[4] === t) this.group(groups, m, tau);
    }
    const order = [...groups.entries()].sort((x, y) => y[1].total - x[1].total);
    const taken = this.fortBoxes.slice();
    for (const [key, g] of order) this.placeMark(key, g, stamp, taken);
    this.live.forEach((item, key) => {
      if (item.stamp === stamp) return;
      item.g.setAttribute("display", "none");
      this.live.delete(key);
      this.free.push(item);
    });
  }

  /** Adds march `m` (`[road, direction, owner, size, sent]`) to its group, if it is on
   *  its road at time `tau`. */
  group(groups, m, tau) {
    const road = this.ways[m[0]];
    const p = marchProgress(m, road.L, tau);
    if (p <= 0 || p >= 1) return;
    const key = (2 * m[0] + m[1]) * (this.replay.players.length + 1) + m[2] + 1;
    let g = groups.get(key);
    if (g === undefined) {
      g = { m, p, total: 0, sizes: [] };
      groups.set(key, g);
    } else if (g.sizes.some((x) => x[1] === m[4])) {
      return; // the same march twice (a malformed log): counted once
    }
    g.total += m[3];
    g.sizes.push([m[3], m[4], p]);
    if (p > g.p) { g.m = m; g.p = p; }
  }

  /** Draws group `g` (see `group`) as one mark; its label only where it covers none
   *  of the boxes `taken` (which it then joins). */
  placeMark(key, g, stamp, taken) {
    let item = this.live.get(key);
    if (item === undefined) {
      item = this.free.pop() || this.newMarch();
      this.live.set(key, item);
      item.g.removeAttribute("display");
      item.sig = "";
    }
    item.stamp = stamp;
    const m = g.m, road = this.ways[m[0]];
    const d = m[1] === 0 ? road.toA : road.toB;
    const at = pointOn(d, g.p);
    item.g.setAttribute("transform",
      "translate(" + at.x.toFixed(2) + " " + at.y.toFixed(2) + ") rotate(" + d.angle + ")");
    if (item.owner !== m[2]) {
      item.owner = m[2];
      item.body.setAttribute("fill", palette(m[2]));
    }
    const text = g.total + (g.sizes.length > 1 ? " ×" + g.sizes.length : "");
    if (item.text !== text) {
      item.text = text;
      item.shape = arrow(g.total, this.R);
      item.body.setAttribute("d", item.shape.d);
      item.label.textContent = text;
      item.label.setAttribute("x", item.shape.labelX);
      item.labelY = null;
      item.shape.labelBelow = (-item.shape.labelY + this.marchFont * 0.75).toFixed(3);
    }
    item.key = key;
    item.group = g;
    // The size reads upright whatever the direction.
    if (item.up !== d.up) {
      item.up = d.up;
      item.label.setAttribute("transform", d.up ? "rotate(180)" : "");
    }
    // Above the arrow, else under it; else left out.
    let free = false;
    for (const y of [item.shape.labelY, item.shape.labelBelow]) {
      const box = labelBox(at, +d.angle, d.up, item.shape.labelX, y, this.marchFont, text.length);
      if (taken.some((b) => overlaps(b, box))) continue;
      taken.push(box);
      free = true;
      if (item.labelY !== y) {
        item.labelY = y;
        item.label.setAttribute("y", y);
      }
      break;
    }
    if (item.shown !== free) {
      item.shown = free;
      item.label.setAttribute("display", free ? "inline" : "none");
    }
  }

  /** The words of a mark: who, where, each march's soldiers and arrival. */
  describeMark(item, tau) {
    const g = item.group, m = g.m, r = this.replay;
    const rd = r.map.roads[m[0]], forts = r.map.forts;
    const [from, to] = m[1] === 0 ? [rd[1], rd[0]] : [rd[0], rd[1]];
    const L = this.ways[m[0]].L;
    const who = m[2] < 0 ? "neutral" : r.players[m[2]];
    const lines = g.sizes
      .slice()
      .sort((x, y) => y[2] - x[2])
      .map((x) => x[0] + " soldiers, arriving in " + Math.max(1, Math.ceil(x[1] + L - tau)) + " turns");
    return [who + ": " + (g.sizes.length > 1 ? g.sizes.length + " marches, " : "") +
      g.total + " soldiers from " + forts[from][0] + " to " + forts[to][0]].concat(lines);
  }

  newMarch() {
    const R = this.R;
    const g = svg("g", { "class": "bbv-march" }, this.gMarches);
    const body = svg("path", { "stroke-width": (R * 0.08).toFixed(3) }, g);
    const label = svg("text", { "font-size": this.marchFont.toFixed(3) }, g);
    const item = { g, body, label, owner: -2, text: "", up: false, stamp: 0, shown: true };
    body.bbvMark = item;
    return item;
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
