/* The legend: a row per player with its swatch and name, its numbers at the turn shown
 * (the renderer's `scoreboard(t)`: forts and soldiers, gold, mines, life and deaths),
 * the winner's badge and, once out, since when. */

import { el, fmt } from "./dom.mjs";

export class Legend {
  /** The legend of `renderer`'s game, a table added to `parent`. */
  constructor(parent, renderer) {
    this.renderer = renderer;
    const words = renderer.words, board = renderer.scoreboard(0);
    const table = el("table", "bbv-legend" + (words.legendClass ? " " + words.legendClass : ""), parent);
    this.table = table;
    const hr = el("tr", null, el("thead", null, table));
    el("th", null, hr, words.player);
    for (const [label] of board[0] ? board[0].numbers : []) el("th", "num", hr, label);
    const tbody = el("tbody", null, table);
    this.rows = board.map((s, p) => this.row(tbody, s, p));
    this.badge();
  }

  /** A row: `tr[data-player]`, its numbers `td.num[data-gold]` (the label's name). */
  row(tbody, s, p) {
    const tr = el("tr", null, tbody);
    tr.setAttribute("data-player", s.name);
    const who = el("div", "bbv-who", el("td", null, tr));
    this.renderer.swatch(who, p);
    el("span", "bbv-name", who, s.name).title = s.name;
    const status = el("span", "bbv-out", who, "");
    const cells = s.numbers.map(([label]) => {
      const td = el("td", "num", tr, "0");
      td.setAttribute("data-" + label.toLowerCase(), "");
      return td;
    });
    return { tr, who, cells, status, shown: [], out: null };
  }

  /** The winner's badge, once the result is known (`renderer.result()`). */
  badge() {
    const result = this.renderer.result(), winner = result ? result.winner : null;
    this.rows.forEach((row, p) => {
      const old = row.who.querySelector(".bbv-badge");
      if (old) old.remove();
      if (winner === p) {
        row.who.insertBefore(el("span", "bbv-badge", null, "winner"), row.status).title = "The winner";
      }
    });
  }

  /** The numbers of turn `t`; only what changed is written. */
  show(t) {
    this.renderer.scoreboard(t).forEach((s, p) => {
      const row = this.rows[p];
      s.numbers.forEach(([, v], i) => {
        if (row.shown[i] !== v) {
          row.shown[i] = v;
          row.cells[i].textContent = fmt(v);
        }
      });
      if (row.out !== s.out || row.note !== s.note) {
        row.out = s.out;
        row.note = s.note;
        row.tr.classList.toggle("bbv-gone", s.out);
        row.status.textContent = s.note;
      }
    });
  }
}
