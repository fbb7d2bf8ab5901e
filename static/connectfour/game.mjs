/* Connect Four in the viewer (the contract at the top of viewer/viewer.mjs): its stored
 * replays, its text log and live stream (replay.mjs: `ConnectFourReplay`,
 * `readConnectFourLog`, `ConnectFourLive`, every board rebuilt by the rules of
 * rules.mjs), and its renderer. A turn is a move: board
 * `t` follows the `t`-th move. The board is a canvas (render.mjs); the legend gives
 * each player's discs and threats (empty cells where its disc would make four) at the
 * move shown, and a player who forfeited as out; the charts its discs and threats over
 * the game. */

import { el } from "../viewer/dom.mjs";
import {
  isConnectFour, readConnectFour, ConnectFourReplay, ConnectFourLive, isConnectFourLog, readConnectFourLog,
} from "./replay.mjs";
import { summary, resultText, describe, scoreboard } from "./describe.mjs";
import { BoardView, discColour, discInk } from "./render.mjs";
import { COLUMNS, ROWS, CELLS } from "./rules.mjs";

const WORDS = {
  player: "Player", names: "Show the players' names (N)",
  problems: "Problems in the reply to this move", step: "step a move",
  tail: "Click a chart to go to that move.",
};

export class ConnectFourRenderer {
  /** The renderer of `replay` (a `ConnectFourReplay`). */
  constructor(replay) {
    this.replay = replay;
    this.words = WORDS;
    this.board = null;
  }

  lastTurn() { return this.replay.lastTurn(); }
  plannedTurns() { return Math.min(this.replay.maxTurns, CELLS); }

  mount(stage, _on) {
    this.stage = stage;
    this.board = new BoardView(stage, this.replay);
    return { view: this.board, home: [0, 0, COLUMNS, ROWS] };
  }

  /** The board as wide as the stage, and no higher than the room below the viewer's
   *  head once scrolled to it. */
  fit(room) {
    const width = this.stage.clientWidth;
    const w = room ? Math.min(width, Math.floor(room.scrolled * COLUMNS / ROWS)) : width;
    if (w > 0 && w !== this.board.width) this.board.setWidth(w);
  }

  show(_t) {}

  draw(tau) {
    const t = Math.floor(tau);
    this.board.draw({ t, frac: tau - t });
  }

  showNames(on) { this.board.showNames(on); }

  summary() { return summary(this.replay); }

  result() {
    const r = this.replay;
    return r.result && r.over() ? { winner: r.outcome().winner, text: resultText(r) } : null;
  }

  describe(t) { return describe(this.replay, t); }
  problems(t) { return this.replay.problemsAt(t); }
  scoreboard(t) { return scoreboard(this.replay, t); }

  charts() {
    const r = this.replay;
    return [["Discs", "discs"], ["Threats", "threats"]].map(([title, name]) => {
      const series = r.series(name);
      return { title, series, max: Math.max(1, ...series), P: 2, T: r.lastTurn() + 1 };
    });
  }

  colour(p) { return discColour(p); }
  ink(p) { return discInk(p); }

  swatch(parent, p) {
    const s = el("span", "bbv-c4swatch", parent, String(p + 1));
    Object.assign(s.style, {
      flex: "none", display: "inline-grid", placeItems: "center", width: "1.15rem", height: "1.15rem",
      borderRadius: "50%", border: "1px solid #0c1426", color: "#0c1426", fontSize: ".72rem",
      fontWeight: "800", lineHeight: "1", background: discColour(p),
    });
  }

  /** The longer game (the same object, grown by `ConnectFourLive`); its newest move. */
  extend(replay) {
    this.replay = replay;
    this.board.replay = replay;
    return this.lastTurn();
  }

  finish(result) {
    this.replay.result = result;
  }
}

export const connectfour = {
  name: "connectfour",
  accepts: isConnectFour,
  readsText: isConnectFourLog,
  readText: readConnectFourLog,
  read: (r) => (r instanceof ConnectFourReplay ? r : readConnectFour(r)),
  live: () => new ConnectFourLive(),
  renderer: (replay) => new ConnectFourRenderer(replay),
};
