/* Bottle Bats in the viewer (the contract at the top of viewer/viewer.mjs): its replays
 * (replay.mjs, a classic log of 2016 too), its live stream (live.mjs), and its
 * renderer: the map in SVG (map.mjs, geometry.mjs), every fort a `g.bbv-fort` with
 * `data-fort` (its name), `data-owner` (a player name or `neutral`) and
 * `data-garrison`; each player's forts and soldiers (stats.mjs) in the legend, the
 * charts and on the big screen; what happened in words (describe.mjs). */

import { svg } from "../viewer/dom.mjs";
import { FORMAT, checkReplay, isClassicLog, readClassicLog } from "./replay.mjs";
import { LiveReplay } from "./live.mjs";
import { precompute, growStats, scoreboard } from "./stats.mjs";
import { summary, describe, problemsAt, replyTimesAt } from "./describe.mjs";
import { viewGeometry } from "./geometry.mjs";
import { MapView } from "./map.mjs";
import { palette, ink, usePalette, PALETTES } from "./colours.mjs";

const WORDS = {
  player: "Player", names: "Show the forts' names (N)",
  problems: "Problems in the replies to this turn", step: "step",
  tail: "Tap a fort or a march for details; click a chart to go to that turn.",
};

export class BottleBatsRenderer {
  /** The renderer of `replay` (read: v1's shape), a game over or still being played
   *  (`live`: its numbers grow, no winner until the result). */
  constructor(replay, live) {
    this.replay = replay;
    this.words = WORDS;
    this.palettes = Object.keys(PALETTES);
    this.stats = live ? growStats(null, replay) : precompute(replay);
    this.map = null;
  }

  lastTurn() { return this.replay.turns.length - 1; }
  plannedTurns() { return this.replay.max_steps || null; }

  mount(stage, on) {
    const geo = viewGeometry(this.replay.map.forts);
    this.map = new MapView(stage, this.replay, geo, on);
    return { view: this.map, home: geo.box };
  }

  /** The map as high as there is room from where it is in the window (its width
   *  follows): the page opens with the controls in view. */
  fit(room) {
    this.map.svg.style.maxHeight = room ? room.page + "px" : "";
  }

  show(t) { this.map.showTurn(t); }

  draw(tau) {
    this.map.drawMarches(tau);
    this.map.drawFlashes(tau);
  }

  showNames() {} // the container's `bbv-show-names` shows them

  summary() { return summary(this.replay); }

  result() {
    const r = this.replay, w = this.stats.winner;
    if (w != null) return { winner: w, text: r.players[w] + " wins" };
    return r.result ? { winner: null, text: "A draw after " + r.result.turns + " turns" } : null;
  }

  describe(t) { return describe(this.replay, this.stats, t); }
  problems(t) { return problemsAt(this.replay, t); }
  replyTimes(t) { return replyTimesAt(this.replay, t); }
  scoreboard(t) { return scoreboard(this.replay, this.stats, t); }

  charts() {
    const st = this.stats;
    return [["Soldiers", st.soldiers, st.maxSoldiers], ["Forts", st.forts, st.maxForts]]
      .map(([title, series, max]) => ({ title, series, max, P: st.P, T: st.T }));
  }

  colour(p) { return palette(p); }
  ink(p) { return ink(p); }

  swatch(parent, p) {
    const sw = svg("svg", { "class": "bbv-swatch", viewBox: "0 0 10 10", "aria-hidden": "true" }, parent);
    // Outlined: a white player's mark shows on the page too.
    svg("circle", { cx: 5, cy: 5, r: 4.5, fill: palette(p), stroke: "#0c1426", "stroke-width": 1 }, sw);
  }

  usePalette(name) { usePalette(name); }

  /** The longer game (the same object grown, or a new one); its newest turn. */
  extend(replay) {
    if (replay !== this.replay) replay = checkReplay(replay);
    this.replay = replay;
    this.map.replay = replay;
    this.stats = replay.result ? precompute(replay) : growStats(this.stats, replay);
    return this.lastTurn();
  }

  finish(result) {
    this.replay.result = result;
    this.stats = precompute(this.replay);
  }
}

export const bottlebats = {
  name: "bottlebats",
  accepts: (r) => !!r && r.format === FORMAT,
  read: checkReplay,
  readsText: isClassicLog,
  readText: readClassicLog,
  live: () => new LiveReplay(),
  renderer: (replay, live) => new BottleBatsRenderer(replay, live),
};
