/* The Connect Four board on a canvas: a blue frame with seven columns of six holes,
 * the discs behind it (player 1 vermillion, player 2 yellow, each with its number), the
 * disc of the move shown ringed, a disc falling into its column while playing, the
 * four in a row struck through at the end, and a forfeit said across the board. The
 * view box of zoom.mjs is `[column, row, width, height]` in cells. The board's styles
 * are its own, set here: the game needs nothing of the shared stylesheet. */

import { el } from "../viewer/dom.mjs";
import { COLUMNS, ROWS } from "./rules.mjs";

/** Players 1 and 2 on the board: vermillion and yellow (told apart with every colour
 *  vision by their lightness; each disc also carries its number). */
export const DISC_COLOURS = ["#e4572e", "#f3c623"];
/** The same on the page's light background: names and chart lines. */
export const DISC_INKS = ["#c2410c", "#8a6d00"];
const FRAME = "#1f4fa8", FRAME_EDGE = "#163b80", HOLE = "#0f1b33", INK = "#0c1426";

/** The colour of player `p` (0 or 1) on the board. */
export function discColour(p) {
  return DISC_COLOURS[p] || "#9aa3b2";
}

/** The colour of player `p` (0 or 1) on a light background. */
export function discInk(p) {
  return DISC_INKS[p] || "#555";
}

export class BoardView {
  /** The board of `replay` in a `div.bbv-map` added to `parent`, a canvas filling it. */
  constructor(parent, replay) {
    this.replay = replay;
    this.box = el("div", "bbv-map bbv-c4board", parent);
    this.box.style.margin = "0 auto";
    this.box.style.maxWidth = "100%";
    this.canvas = el("canvas", null, this.box);
    Object.assign(this.canvas.style, { display: "block", width: "100%", height: "100%", touchAction: "pan-y" });
    this.canvas.setAttribute("role", "img");
    this.ctx = this.canvas.getContext("2d");
    this.view = [0, 0, COLUMNS, ROWS];
    this.width = 0;
    this.names = false;
    this.frame = null;
  }

  /** Draws the box `width` CSS pixels wide, 6/7 of it high (sharp on this screen). */
  setWidth(width) {
    const dpr = window.devicePixelRatio || 1, height = Math.round(width * ROWS / COLUMNS);
    this.width = width;
    this.box.style.width = width + "px";
    this.box.style.height = height + "px";
    this.canvas.width = Math.round(width * dpr);
    this.canvas.height = Math.round(height * dpr);
    this.redraw();
  }

  /** zoom.mjs's view box. */
  setViewBox(v) {
    this.view = v;
    this.redraw();
  }

  showNames(on) {
    this.names = on;
    this.redraw();
  }

  redraw() {
    if (this.frame) this.draw(this.frame);
  }

  /** Draws `frame`: `t` (the board shown), `frac` (how far into move `t + 1`). */
  draw(frame) {
    this.frame = frame;
    const c = this.ctx, cw = this.canvas.width, ch = this.canvas.height;
    if (!cw) return;
    const r = this.replay, { t, frac } = frame;
    const [vx, vy, vw, vh] = this.view;
    c.setTransform(cw / vw, 0, 0, ch / vh, -vx * cw / vw, -vy * ch / vh);
    c.fillStyle = HOLE;
    c.fillRect(0, 0, COLUMNS, ROWS);
    const cells = r.board(t);
    for (let i = 0; i < cells.length; i++) {
      if (cells[i]) this.disc(i % COLUMNS, Math.floor(i / COLUMNS), cells[i] - 1, 1);
    }
    const next = r.rows[t + 1];
    if (frac > 0 && next && next.col !== undefined) {
      // Falling from above the board, faster as it goes.
      this.disc(next.col, -1 + (next.row + 1) * frac * frac, next.seat, 1);
    }
    this.frameOver();
    const row = r.rows[t];
    if (row.col !== undefined && !(frac > 0)) this.ring(row.col, row.row);
    if (t === r.lastTurn() && r.end() && r.end().kind === "four") this.strike(r.end().line, r.end().seat);
    if (row.forfeit !== undefined) this.banner(r.players[row.seat] + " forfeits", discColour(row.seat));
    if (this.names) this.nameTags();
    this.canvas.setAttribute("aria-label", "The board at move " + t);
  }

  /** A disc of player `p` in column `x` at row `y` (0 the top). */
  disc(x, y, p, alpha) {
    const c = this.ctx, cx = x + 0.5, cy = y + 0.5;
    c.globalAlpha = alpha;
    c.fillStyle = discColour(p);
    c.beginPath();
    c.arc(cx, cy, 0.42, 0, 2 * Math.PI);
    c.fill();
    c.strokeStyle = "rgba(0,0,0,.25)";
    c.lineWidth = 0.05;
    c.beginPath();
    c.arc(cx, cy, 0.3, 0, 2 * Math.PI);
    c.stroke();
    c.fillStyle = INK;
    c.font = "800 0.34px system-ui, sans-serif";
    c.textAlign = "center";
    c.textBaseline = "middle";
    c.fillText(String(p + 1), cx, cy + 0.02);
    c.globalAlpha = 1;
  }

  /** The blue frame with a hole for every cell, over the discs. */
  frameOver() {
    const c = this.ctx;
    c.beginPath();
    c.rect(0, 0, COLUMNS, ROWS);
    for (let y = 0; y < ROWS; y++) {
      for (let x = 0; x < COLUMNS; x++) {
        c.moveTo(x + 0.5 + 0.44, y + 0.5);
        c.arc(x + 0.5, y + 0.5, 0.44, 0, 2 * Math.PI);
      }
    }
    c.fillStyle = FRAME;
    c.fill("evenodd");
    c.strokeStyle = FRAME_EDGE;
    c.lineWidth = 0.04;
    c.strokeRect(0.02, 0.02, COLUMNS - 0.04, ROWS - 0.04);
  }

  /** The ring on the disc just dropped. */
  ring(x, y) {
    const c = this.ctx;
    c.strokeStyle = "#ffffff";
    c.lineWidth = 0.07;
    c.beginPath();
    c.arc(x + 0.5, y + 0.5, 0.45, 0, 2 * Math.PI);
    c.stroke();
  }

  /** A line through the four in a row of player `p`. */
  strike(line, p) {
    const c = this.ctx, [a, b] = [line[0], line[3]];
    c.lineCap = "round";
    c.globalAlpha = 0.85;
    for (const [w, s] of [[0.14, INK], [0.07, "#ffffff"]]) {
      c.strokeStyle = s;
      c.lineWidth = w;
      c.beginPath();
      c.moveTo(a[1] + 0.5, a[0] + 0.5);
      c.lineTo(b[1] + 0.5, b[0] + 0.5);
      c.stroke();
    }
    c.globalAlpha = 1;
    for (const [row, col] of line) this.ring(col, row);
  }

  /** A strip across the middle of the board saying `text`. */
  banner(text, colour) {
    const c = this.ctx;
    c.fillStyle = "rgba(12,20,38,.82)";
    c.fillRect(0, ROWS / 2 - 0.55, COLUMNS, 1.1);
    c.fillStyle = colour;
    c.fillRect(0, ROWS / 2 - 0.55, 0.12, 1.1);
    c.fillStyle = "#ffffff";
    c.font = "700 0.5px system-ui, sans-serif";
    c.textAlign = "center";
    c.textBaseline = "middle";
    c.fillText(text, COLUMNS / 2, ROWS / 2, COLUMNS - 0.6);
  }

  /** The players' names in the top corners, each by a disc of its colour. */
  nameTags() {
    const c = this.ctx, r = this.replay;
    c.font = "600 0.3px system-ui, sans-serif";
    c.textBaseline = "middle";
    r.players.forEach((name, p) => {
      const left = p === 0;
      c.textAlign = left ? "left" : "right";
      const x = left ? 0.1 : COLUMNS - 0.1;
      c.lineWidth = 0.1;
      c.strokeStyle = INK;
      c.strokeText((left ? "1 " : "") + name + (left ? "" : " 2"), x, 0.2, 3);
      c.fillStyle = discColour(p);
      c.fillText((left ? "1 " : "") + name + (left ? "" : " 2"), x, 0.2, 3);
    });
  }
}
