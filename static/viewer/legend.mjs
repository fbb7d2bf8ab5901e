/* The legend: a row per player with its colour, its forts and soldiers at the turn
 * shown, and when it went out. */

import { el, svg, fmt } from "./dom.mjs";
import { palette } from "./colours.mjs";

export class Legend {
  /** The legend of replay `r` (`stats` from `precompute`), a table added to `parent`. */
  constructor(parent, r, stats) {
    this.stats = stats;
    const table = el("table", "bbv-legend", parent);
    const hr = el("tr", null, el("thead", null, table));
    el("th", null, hr, "Player");
    el("th", "num", hr, "Forts");
    el("th", "num", hr, "Soldiers");
    const tbody = el("tbody", null, table);
    this.rows = r.players.map((name, p) => this.row(tbody, name, p));
  }

  row(tbody, name, p) {
    const tr = el("tr", null, tbody);
    tr.setAttribute("data-player", name);
    const who = el("div", "bbv-who", el("td", null, tr));
    const sw = svg("svg", { "class": "bbv-swatch", viewBox: "0 0 10 10", "aria-hidden": "true" }, who);
    svg("circle", { cx: 5, cy: 5, r: 5, fill: palette(p) }, sw);
    el("span", "bbv-name", who, name).title = name;
    if (this.stats.winner === p) el("span", "bbv-badge", who, "winner").title = "The winner";
    const status = el("span", "bbv-out", who, "");
    const forts = el("td", "num", tr, "0");
    const soldiers = el("td", "num", tr, "0");
    return { tr, forts, soldiers, status, f: -1, s: -1, out: null };
  }

  /** The numbers of turn `t`; only what changed is written. */
  show(t) {
    const st = this.stats, P = st.P;
    for (let p = 0; p < P; p++) {
      const row = this.rows[p];
      const nf = st.forts[t * P + p], ns = st.soldiers[t * P + p];
      if (row.f !== nf) { row.f = nf; row.forts.textContent = fmt(nf); }
      if (row.s !== ns) { row.s = ns; row.soldiers.textContent = fmt(ns); }
      const out = st.out[p] !== null && t >= st.out[p];
      if (row.out !== out) {
        row.out = out;
        row.tr.classList.toggle("bbv-gone", out);
        row.status.textContent = out ? "out at turn " + st.out[p] : "";
      }
    }
  }
}
