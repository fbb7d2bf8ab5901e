/* The Vindinium board on a canvas: woods, open ground, taverns, mines in their owner's
 * colour (neutral ones grey), the heroes with their life bars, a ring on the hero who
 * moves, short marks where a hero died and where it respawned, and the heroes' names
 * on demand. A square is `x` (the row) and `y` (the column); the view box of zoom.mjs
 * is `[column, row, width, height]` in squares. */

import { el } from "../viewer/dom.mjs";
import { AIR, WALL, TAVERN } from "./rules.mjs";
import { mineOwner } from "./describe.mjs";

/** Heroes 1 to 4: Okabe and Ito's colours, told apart with every colour vision
 *  (vermillion, sky blue, bluish green, yellow, as the original's red, blue, green,
 *  yellow). Each hero also carries its number. */
export const HERO_COLOURS = ["#e66a1f", "#56b4e9", "#16b08a", "#f0e442"];
const GROUND = "#22304f", WOOD = "#163526", TREE = "#24553a", GRID = "rgba(255,255,255,.05)";
const TAVERN_FILL = "#8a5a32", MINE_FILL = "#2b3550", NEUTRAL = "#9aa3b2", INK = "#0c1426";
/** Marks of a death or a respawn show this many moves. */
export const MARK_MOVES = 4;

/** The same hues, darker: for names and chart lines on the page's light background. */
export const HERO_INKS = ["#c4500f", "#1f7fb8", "#0b8a6b", "#8f8300"];

/** The colour of hero `p` (0 to 3) on the board. */
export function heroColour(p) {
  return HERO_COLOURS[p] || NEUTRAL;
}

/** The colour of hero `p` (0 to 3) on a light background. */
export function heroInk(p) {
  return HERO_INKS[p] || NEUTRAL;
}

export class BoardView {
  /** The board of `replay` in a `div.bbv-map` added to `parent`, a canvas filling it. */
  constructor(parent, replay) {
    this.replay = replay;
    this.size = replay.map.size;
    this.box = el("div", "bbv-map bbv-vboard", parent);
    this.canvas = el("canvas", null, this.box);
    this.canvas.setAttribute("role", "img");
    this.ctx = this.canvas.getContext("2d");
    this.view = [0, 0, this.size, this.size];
    this.side = 0;
    this.names = false;
    this.frame = null;
  }

  /** Draws the box `side` CSS pixels square (sharp on this screen). */
  setSide(side) {
    const dpr = window.devicePixelRatio || 1;
    this.side = side;
    this.box.style.width = side + "px";
    this.box.style.height = side + "px";
    this.canvas.width = Math.round(side * dpr);
    this.canvas.height = Math.round(side * dpr);
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

  /** Draws `frame`: `state` (state `t`), `next` (state `t + 1`, or null), `frac`
   *  (how far into the move to `t + 1`), `t`. */
  draw(frame) {
    this.frame = frame;
    const c = this.ctx, cw = this.canvas.width;
    if (!cw) return;
    const [vx, vy, vw] = this.view, unit = cw / vw;
    c.setTransform(unit, 0, 0, unit, -vx * unit, -vy * unit);
    c.fillStyle = GROUND;
    c.fillRect(0, 0, this.size, this.size);
    this.tiles(frame.state);
    this.marks(frame);
    this.heroes(frame);
    this.canvas.setAttribute("aria-label", "The board at move " + frame.t);
  }

  tiles(s) {
    const c = this.ctx, n = this.size;
    for (let x = 0; x < n; x++) {
      for (let y = 0; y < n; y++) {
        const tile = s.tiles[x * n + y];
        if (tile === AIR) {
          c.strokeStyle = GRID;
          c.lineWidth = 0.03;
          c.strokeRect(y, x, 1, 1);
        } else if (tile === WALL) this.wood(x, y);
        else if (tile === TAVERN) this.tavern(x, y);
        else this.mine(x, y, mineOwner(tile));
      }
    }
  }

  wood(x, y) {
    const c = this.ctx;
    c.fillStyle = WOOD;
    c.fillRect(y, x, 1, 1);
    c.fillStyle = TREE;
    for (const [dx, dy, r] of [[0.3, 0.32, 0.2], [0.7, 0.4, 0.17], [0.45, 0.72, 0.19]]) {
      c.beginPath();
      c.arc(y + dx, x + dy, r, 0, 2 * Math.PI);
      c.fill();
    }
  }

  /** A tavern: a mug of beer. */
  tavern(x, y) {
    const c = this.ctx;
    c.fillStyle = TAVERN_FILL;
    c.fillRect(y + 0.06, x + 0.06, 0.88, 0.88);
    c.fillStyle = "#f6c453";
    c.fillRect(y + 0.28, x + 0.3, 0.34, 0.46);
    c.fillStyle = "#fff8e6";
    c.fillRect(y + 0.26, x + 0.22, 0.38, 0.12);
    c.strokeStyle = "#f6c453";
    c.lineWidth = 0.07;
    c.beginPath();
    c.arc(y + 0.66, x + 0.53, 0.11, -Math.PI / 2, Math.PI / 2);
    c.stroke();
  }

  /** A mine: a gold nugget on a dark square, framed and flagged with its owner's colour
   *  and number, grey when nobody owns it. */
  mine(x, y, owner) {
    const c = this.ctx;
    const colour = owner > 0 ? heroColour(owner - 1) : NEUTRAL;
    c.fillStyle = MINE_FILL;
    c.fillRect(y + 0.04, x + 0.04, 0.92, 0.92);
    c.strokeStyle = colour;
    c.lineWidth = owner > 0 ? 0.12 : 0.06;
    c.strokeRect(y + 0.1, x + 0.1, 0.8, 0.8);
    c.fillStyle = owner > 0 ? colour : "#d9b23a";
    c.beginPath();
    c.moveTo(y + 0.5, x + 0.24);
    c.lineTo(y + 0.76, x + 0.5);
    c.lineTo(y + 0.5, x + 0.76);
    c.lineTo(y + 0.24, x + 0.5);
    c.closePath();
    c.fill();
    c.fillStyle = INK;
    c.font = "700 0.34px system-ui, sans-serif";
    c.textAlign = "center";
    c.textBaseline = "middle";
    c.fillText(owner > 0 ? String(owner) : "$", y + 0.5, x + 0.52);
  }

  /** Where a hero died (a cross) and where it came back (a ring), fading over
   *  `MARK_MOVES` moves; a mine just taken flashes. */
  marks({ t, frac }) {
    const r = this.replay, c = this.ctx, now = t + frac;
    for (let m = Math.max(1, t - MARK_MOVES + 1); m <= t; m++) {
      const fade = 1 - (now - m) / MARK_MOVES;
      if (fade <= 0) continue;
      for (const [kind, hero, , x, y] of r.logs[m]) {
        c.globalAlpha = fade;
        if (kind === "kill" || kind === "telefrag" || kind === "mined") {
          if (kind !== "mined") this.cross(x, y, heroColour(hero - 1));
          const h = r.keyframes[0].heroes[hero - 1];
          this.respawnRing(h.sx, h.sy, heroColour(hero - 1), fade);
        } else if (kind === "mine") {
          c.strokeStyle = "#ffffff";
          c.lineWidth = 0.08;
          c.strokeRect(y + 0.02, x + 0.02, 0.96, 0.96);
        }
      }
    }
    c.globalAlpha = 1;
  }

  cross(x, y, colour) {
    const c = this.ctx;
    c.lineCap = "round";
    for (const [w, s] of [[0.22, INK], [0.12, colour]]) {
      c.strokeStyle = s;
      c.lineWidth = w;
      c.beginPath();
      c.moveTo(y + 0.22, x + 0.22);
      c.lineTo(y + 0.78, x + 0.78);
      c.moveTo(y + 0.78, x + 0.22);
      c.lineTo(y + 0.22, x + 0.78);
      c.stroke();
    }
  }

  respawnRing(x, y, colour, fade) {
    const c = this.ctx;
    c.strokeStyle = colour;
    c.lineWidth = 0.08;
    c.beginPath();
    c.arc(y + 0.5, x + 0.5, 0.45 + (1 - fade) * 0.5, 0, 2 * Math.PI);
    c.stroke();
  }

  /** The heroes (the mover walking to its next square while playing), their life
   *  bars, the ring on the one who moves, their names if asked. */
  heroes({ state, next, frac, mover }) {
    const c = this.ctx;
    const spots = state.heroes.map((h, i) => {
      let x = h.x, y = h.y;
      const n = next && next.heroes[i];
      // Only a step to a neighbour is walked; a respawn jumps at the next move.
      if (n && frac > 0 && Math.abs(n.x - x) + Math.abs(n.y - y) === 1) {
        x += (n.x - x) * frac;
        y += (n.y - y) * frac;
      }
      return { h, x, y, p: i };
    });
    for (const { h, x, y, p } of spots) {
      const cx = y + 0.5, cy = x + 0.55;
      c.globalAlpha = h.crashed ? 0.55 : 1;
      if (h.id === mover) {
        c.strokeStyle = "#ffffff";
        c.lineWidth = 0.07;
        c.beginPath();
        c.arc(cx, cy, 0.5, 0, 2 * Math.PI);
        c.stroke();
      }
      c.fillStyle = heroColour(p);
      c.strokeStyle = INK;
      c.lineWidth = 0.06;
      c.beginPath();
      c.arc(cx, cy, 0.4, 0, 2 * Math.PI);
      c.fill();
      c.stroke();
      c.fillStyle = INK;
      c.font = "800 0.46px system-ui, sans-serif";
      c.textAlign = "center";
      c.textBaseline = "middle";
      c.fillText(h.crashed ? "×" : String(h.id), cx, cy + 0.02);
      this.lifeBar(y, x, h.life);
      c.globalAlpha = 1;
      if (this.names) this.name(cx, x + 1.08, h.name);
    }
  }

  /** Life, 0 to 100, as a bar across the top of the square. */
  lifeBar(left, top, life) {
    const c = this.ctx;
    c.fillStyle = INK;
    c.fillRect(left + 0.1, top + 0.02, 0.8, 0.13);
    c.fillStyle = life > 25 ? "#e8edf5" : "#ff6b5e";
    c.fillRect(left + 0.12, top + 0.04, 0.76 * life / 100, 0.09);
  }

  name(cx, top, text) {
    const c = this.ctx;
    c.font = "600 0.36px system-ui, sans-serif";
    c.textAlign = "center";
    c.textBaseline = "top";
    c.lineWidth = 0.12;
    c.strokeStyle = INK;
    c.strokeText(text, cx, top, 3);
    c.fillStyle = "#ffffff";
    c.fillText(text, cx, top, 3);
  }
}
