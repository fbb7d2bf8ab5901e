/* Vindinium in the viewer (the contract at the top of viewer/viewer.mjs): its stored
 * replays and live stream (replay.mjs: `VindiniumReplay`, `VindiniumLive`), and its
 * renderer. A turn here is a move: state `t` follows the `t`-th move. The board is a
 * canvas (render.mjs); the legend gives each hero's gold, mines, life and deaths at
 * the move shown (scoreboard.mjs), the charts its gold and mines over the game. Its
 * heroes' colours are Okabe and Ito's already: one palette. */

import { el } from "../viewer/dom.mjs";
import {
  isVindinium, readVindinium, VindiniumReplay, VindiniumLive, isVindiniumLog, readVindiniumLog,
} from "./replay.mjs";
import { summary, resultText, describe } from "./describe.mjs";
import { scoreboard } from "./scoreboard.mjs";
import { BoardView, heroColour, heroInk } from "./render.mjs";

const WORDS = {
  player: "Hero", names: "Show the heroes' names (N)",
  problems: "Problems in the reply to this move", step: "step a move",
  tail: "Click a chart to go to that move.", legendClass: "bbv-vlegend",
};

export class VindiniumRenderer {
  /** The renderer of `replay` (a `VindiniumReplay`). */
  constructor(replay) {
    this.replay = replay;
    this.words = WORDS;
    this.board = null;
    this._shown = -1;
  }

  lastTurn() { return this.replay.lastTurn(); }
  plannedTurns() { return this.replay.maxTurns; }

  mount(stage, _on) {
    this.stage = stage;
    this.board = new BoardView(stage, this.replay);
    const n = this.replay.map.size;
    return { view: this.board, home: [0, 0, n, n] };
  }

  /** The square board as large as the stage's width and, once scrolled to the viewer,
   *  the room below its head. */
  fit(room) {
    const width = this.stage.clientWidth;
    const side = room ? Math.min(width, room.scrolled) : width;
    if (side > 0 && side !== this.board.side) this.board.setSide(side);
  }

  /** State `t`, and the one before it for the caption: kept when playing on, else
   *  replayed first, so that state `t` is one move from it. */
  show(t) {
    const r = this.replay;
    const before = t === this._shown + 1 ? this._state : t > 0 ? r.state(t - 1) : null;
    this._state = r.state(t);
    this._before = before || this._state;
    this._next = null;
    this._shown = t;
  }

  draw(tau) {
    const r = this.replay, t = Math.floor(tau), frac = tau - t;
    if (frac > 0 && !this._next) this._next = r.state(t + 1);
    this.board.draw({
      t, frac, state: this._state, next: frac > 0 ? this._next : null,
      mover: frac > 0 ? r.movers[t + 1] : r.movers[t],
    });
  }

  showNames(on) { this.board.showNames(on); }

  summary() { return summary(this.replay); }

  result() {
    const r = this.replay;
    return r.result ? { winner: r.outcome().winner, text: resultText(r) } : null;
  }

  describe(t) { return describe(this.replay, t, this._before, this._state); }
  problems(t) { return this.replay.problemsAt(t); }
  scoreboard(t) { return scoreboard(this.replay, t); }

  charts() {
    const r = this.replay;
    return [["Gold", "gold"], ["Mines", "mines"]].map(([title, name]) => {
      const series = r.series(name);
      return { title, series, max: Math.max(1, ...series), P: 4, T: r.lastTurn() + 1 };
    });
  }

  colour(p) { return heroColour(p); }
  ink(p) { return heroInk(p); }

  swatch(parent, p) {
    el("span", "bbv-vswatch", parent, String(p + 1)).style.background = heroColour(p);
  }

  /** The longer game (the same object, grown by `VindiniumLive`); its newest move. */
  extend(replay) {
    this.replay = replay;
    this.board.replay = replay;
    return this.lastTurn();
  }

  finish(result) {
    this.replay.result = result;
  }
}

export const vindinium = {
  name: "vindinium",
  style: "/static/vindinium/style.css",
  accepts: isVindinium,
  readsText: isVindiniumLog,
  readText: readVindiniumLog,
  read: (r) => (r instanceof VindiniumReplay ? r : readVindinium(r)),
  live: () => new VindiniumLive(),
  renderer: (replay) => new VindiniumRenderer(replay),
};
