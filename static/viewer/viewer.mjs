/* Bottle Bats replay viewer. Native ES modules, no dependencies, no build step.
 *
 *   import { BottleBatsViewer, fromUrl } from "/static/viewer/viewer.mjs";
 *   const viewer = new BottleBatsViewer(container, replay, options);
 *
 * `replay` is our JSON replay (format `bottlebats-replay`, version 1, see
 * games/bottlebats/src/replay.rs), already parsed, or its text or a classic log's (`# STEP: n`);
 * `parse` and `readFile` of replay.mjs read them.
 *
 * Options: `turn` (to open at), `hash` (keep `#t=N` in the address: true by default),
 * `keyboard` (space, arrows, Home/End on the document: true by default), `speed`
 * ("auto": the whole game in about 30 s, the default; or 0.5 to 16, 1 = two turns a
 * second), `autoplay`, `live` (the game is still being played: see below), `chrome`
 * (false: the map alone, for a big screen: the container gets `bbv-bare`, the page's
 * stylesheet hides the rest and sizes the map; no "hide the result" of this browser),
 * `pace` (seconds: the game played over about that long however many turns it has,
 * `paceRate` of grow.mjs, for a big screen; a game still being played waits at its
 * newest turn for the next instead of following it).
 * A speed chosen in the menu is remembered in the browser.
 *
 * API: `turn()`, `lastTurn()`, `goTo(t)`, `step(d)`, `play()`, `pause()`, `toggle()`,
 * `playing()`, `speed()`, `setSpeed(x)`, `command(name)`, `destroy()`, `replay`,
 * `stats`, `timing`.
 *
 * A game still being played (follow.mjs feeds one): `live: true` opens at its newest
 * turn, following it (unless `turn` or the address names one). `extend(replay)` takes
 * the longer game (the same object grown, or a new one; v1's shape, no result) without
 * building anything again: scrub bar, charts and numbers grow; a viewer following the
 * game plays on to the new turns at the pace they come (about a second behind, jumping
 * when far behind); one paused or taken back stays (play or End follows again).
 * `finish(result)` gives the result (null: none, voided) and the usual end. `live()`:
 * more turns are expected; `following()`: at the newest turn, going on with the game.
 * Events on the container: `turnchange` (detail `{turn, viewer}`) each time the turn
 * shown changes, `viewerready` (detail `{viewer, ms}`) once the first frame is drawn.
 * The container carries `data-turn`, and `data-ready` once drawn. Every fort is a
 * `g.bbv-fort` with `data-fort` (its name), `data-owner` (a player name or `neutral`)
 * and `data-garrison`.
 *
 * The parts: replay.mjs and classic-log.mjs read games; stats.mjs, grow.mjs,
 * describe.mjs and geometry.mjs compute (pure, tested with node); map.mjs, legend.mjs,
 * charts.mjs and controls.mjs draw; prefs.mjs keeps settings; this module plays. */

import { el, icon } from "./dom.mjs";
import { parse, checkReplay, fetchText } from "./replay.mjs";
import { precompute } from "./stats.mjs";
import {
  growStats, followRate, paceRate, liveDescription, FOLLOW_JUMP, CHARTS_MS,
} from "./grow.mjs";
import { summary, describe, problemsAt } from "./describe.mjs";
import { viewGeometry } from "./geometry.mjs";
import { MapView } from "./map.mjs";
import { Legend } from "./legend.mjs";
import { Chart } from "./charts.mjs";
import { Controls, SPEEDS, help, keyCommand } from "./controls.mjs";
import { Zoom } from "./zoom.mjs";
import { VindiniumViewer } from "../vindinium/viewer.mjs";
import { isVindinium } from "../vindinium/replay.mjs";
import {
  SPEED_KEY, SPOILERS_KEY, validSpeed, stored, store, rememberedSpeed, hashTurn,
} from "./prefs.mjs";

const TURNS_PER_SECOND = 2;
/** At the "auto" speed a game lasts about this long, however many turns it has. */
const AUTO_SECONDS = 30;

export { SPEEDS };

/** `t` as a whole turn from 0 to `last` (0 when it is not a number). */
export function clampTurn(t, last) {
  t = Math.round(+t);
  if (!isFinite(t)) t = 0;
  return Math.max(0, Math.min(last, t));
}

export class BottleBatsViewer {
  constructor(container, replay, options) {
    const started = performance.now();
    if (typeof replay === "string") replay = parse(replay);
    else replay = checkReplay(replay);
    options = options || {};
    this.container = container;
    this.replay = replay;
    this.options = {
      hash: options.hash !== false, keyboard: options.keyboard !== false,
      chrome: options.chrome !== false,
    };
    this.timing = {};
    this._speed = validSpeed(options.speed) ?? rememberedSpeed() ?? "auto";
    this._tau = 0; // the time shown: a turn, or between two while playing
    this._shown = -1; // the turn whose forts are drawn
    this._playing = false;
    this._raf = 0;
    this._listeners = [];
    this._hashTimer = 0;
    this._live = !!options.live && !replay.result;
    this._following = false; // at the newest turn of a live game, going on with it
    this._pace = options.pace > 0 ? +options.pace : 0; // seconds a game, or none
    this._chartsTimer = 0;
    this.stats = this._live ? growStats(null, replay) : precompute(replay);
    this._build();
    this.timing.buildMs = performance.now() - started;

    let t = options.turn;
    if (t == null && this.options.hash) t = hashTurn();
    const newest = this._live && t == null;
    this._render(clampTurn(t == null ? (newest ? this.lastTurn() : 0) : t, this.lastTurn()));
    container.setAttribute("data-turn", String(this.turn()));
    this._announceReady(started);
    if (newest || options.autoplay) this.play();
  }

  turn() { return this._shown; }
  lastTurn() { return this.replay.turns.length - 1; }
  playing() { return this._playing; }
  speed() { return this._speed; }
  live() { return this._live; }
  following() { return this._following; }

  goTo(t) {
    this._render(clampTurn(t, this.lastTurn()));
    this._saveHash(false);
  }

  step(d) {
    this.pause();
    this.goTo(this._shown + (d || 1));
  }

  /** Plays from the turn shown (from the start at the last turn); in a game still being
   *  played, at the newest turn, follows it. */
  play() {
    if (this._playing) return;
    const atEnd = this._shown >= this.lastTurn();
    if (atEnd && !this._live) this._render(0);
    this._playing = true;
    this._following = atEnd && this._live;
    this._controls.setPlaying(true);
    this._run();
  }

  /** Plays at the speed chosen, or following a live game at the pace its turns come, to
   *  the last turn (where a live game waits for `extend` to go on). */
  _run() {
    if (this._raf) return;
    let prev = null;
    const frame = (now) => {
      this._raf = 0;
      if (!this._playing) return;
      const last = this.lastTurn();
      if (prev !== null) {
        const dt = Math.min(now - prev, 250) / 1000;
        const rate = this._pace ? paceRate(last, this._pace)
          : this._following ? followRate(last - this._tau) : this.turnsPerSecond();
        const tau = this._tau + dt * rate;
        if (tau >= last) {
          this._render(last);
          if (this._live) this._following = true;
          else this.pause();
          return;
        }
        this._render(tau);
      }
      prev = now;
      this._raf = requestAnimationFrame(frame);
    };
    this._raf = requestAnimationFrame(frame);
  }

  pause() {
    if (!this._playing) return;
    this._playing = false;
    this._following = false;
    cancelAnimationFrame(this._raf);
    this._raf = 0;
    // Paused on a turn, never between two.
    this._render(Math.round(this._tau));
    this._controls.setPlaying(false);
    this._saveHash(true);
  }

  toggle() {
    if (this._playing) this.pause();
    else this.play();
  }

  /** Turns played a second at the speed chosen. */
  turnsPerSecond() {
    return this.turnsPerSecondAt(this._speed);
  }

  /** Turns played a second at speed `x` ("auto" or one of `SPEEDS`). */
  turnsPerSecondAt(x) {
    if (x === "auto") return Math.max(1, this.lastTurn() / AUTO_SECONDS);
    return TURNS_PER_SECOND * x;
  }

  /** Sets the speed ("auto" or one of `SPEEDS`); `remember` keeps it in the browser
   *  for the next game (the menu does). */
  setSpeed(x, remember) {
    x = validSpeed(x);
    if (x === null) return;
    this._speed = x;
    this._controls.setSpeed(x);
    if (remember) store(SPEED_KEY, String(x));
  }

  /** Hides the result (the head's, the winner's badge, the charts ahead of the turn
   *  shown) until the last turn is shown, or shows it; kept in the browser. The page
   *  (`html.bbv-no-spoilers`) may hide its own. */
  hideResult(on) {
    for (const e of [this.container, document.documentElement]) {
      e.classList.toggle("bbv-no-spoilers", on);
    }
    this._spoilerBox.checked = on;
    store(SPOILERS_KEY, on ? "1" : "0");
  }

  /** A command of the buttons and keys: "first", "back", "play", "forward", "last". */
  command(name) {
    switch (name) {
      case "first": this.pause(); this.goTo(0); break;
      case "back": this.step(-1); break;
      case "play": this.toggle(); break;
      case "forward": this.step(1); break;
      case "last": this.pause(); this.goTo(this.lastTurn()); if (this._live) this.play(); break;
      case "names": this.showNames(!this.container.classList.contains("bbv-show-names")); break;
      case "zoom-in": this._zoom.zoomBy(1.5); break;
      case "zoom-out": this._zoom.zoomBy(1 / 1.5); break;
      case "zoom-reset": this._zoom.reset(); break;
      case "fullscreen": this.fullScreen(); break;
    }
  }

  /** Shows or hides every fort's name. */
  showNames(on) {
    this.container.classList.toggle("bbv-show-names", on);
    this._controls.setPressed("names", on);
  }

  /** The viewer alone on the whole screen (for a projector), or back. */
  fullScreen() {
    const c = this.container;
    if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
    else if (c.requestFullscreen) c.requestFullscreen().catch(() => {});
  }

  /** Goes to turn `t` from the scrub bar or a chart: while playing, play on from it. */
  scrubTo(t) {
    if (this._playing) {
      this._following = false;
      this._tau = clampTurn(t, this.lastTurn());
      this._render(this._tau);
    } else {
      this.goTo(t);
    }
  }

  /** The game went on: `replay` is it with more turns (see the top). */
  extend(replay) {
    if (replay !== this.replay) replay = checkReplay(replay);
    const behind = replay.turns.length - 1 - this._tau;
    this.replay = replay;
    this._map.replay = replay;
    this._live = !replay.result;
    this.stats = this._live ? growStats(this.stats, replay) : precompute(replay);
    this._legend.stats = this.stats;
    this._grown();
    if (this._following && this._playing) {
      // At a pace every turn is shown: it waited at the newest, and plays on.
      if (behind > FOLLOW_JUMP && !this._pace) this._render(this.lastTurn());
      this._run();
    }
  }

  /** The game is over: its `result` (null for none) and the end it gives. */
  finish(result) {
    this.replay.result = result || null;
    this._live = false;
    this.stats = precompute(this.replay);
    const table = this._side.querySelector(".bbv-legend"), rows = document.createDocumentFragment();
    this._legend = new Legend(rows, this.replay, this.stats); // with the winner's badge
    table.replaceWith(rows);
    this._showResult();
    this._grown(true);
    // Following, it stops at the last turn; already there, at once.
    if (this._playing && this._following && this._tau >= this.lastTurn()) this.pause();
  }

  /** After the game grew or ended: what says how long it is, the turn shown again (its
   *  words, whether it is the end), the charts (at most once a second while live). */
  _grown(now) {
    const last = this.lastTurn(), c = this._controls;
    c.range.max = String(last);
    c.turnLink.querySelector(".bbv-turn-of").textContent = " / " + last;
    const secs = Math.round(last / this.turnsPerSecondAt("auto"));
    c.speed.options[0].textContent = "Auto (" + secs + " s)";
    this._summary.textContent = summary(this.replay);
    this._legend.show(this._shown);
    this._caption(this._shown);
    if (now || !this._chartsTimer) {
      clearTimeout(this._chartsTimer);
      this._chartsTimer = setTimeout(() => this._drawCharts(), now ? 0 : CHARTS_MS);
    }
  }

  destroy() {
    this.pause();
    clearTimeout(this._hashTimer);
    clearTimeout(this._chartsTimer);
    for (const [target, type, fn, opts] of this._listeners) target.removeEventListener(type, fn, opts);
    this._listeners = [];
    document.documentElement.classList.remove("bbv-no-spoilers", "bbv-at-end");
    this.container.removeAttribute("data-turn");
    this.container.removeAttribute("data-ready");
    this.container.textContent = "";
    this.container = null;
  }

  _on(target, type, fn, options) {
    target.addEventListener(type, fn, options);
    this._listeners.push([target, type, fn, options]);
  }

  _saveHash(now) {
    if (!this.options.hash) return;
    clearTimeout(this._hashTimer);
    const write = () => {
      if (!this.container) return;
      const want = "#t=" + this._shown;
      if (location.hash !== want) {
        history.replaceState(history.state, "", location.pathname + location.search + want);
      }
    };
    // Scrubbing sends many changes: write the last one (browsers limit how often).
    if (now) write();
    else this._hashTimer = setTimeout(write, 120);
  }

  /** After the first frame is painted: `data-ready` and `viewerready`. */
  _announceReady(started) {
    requestAnimationFrame(() => {
      setTimeout(() => {
        if (!this.container) return;
        this.timing.readyMs = performance.now() - started;
        this.container.setAttribute("data-ready", "1");
        this.container.dispatchEvent(new CustomEvent("viewerready", {
          bubbles: true, detail: { viewer: this, ms: this.timing.readyMs },
        }));
      }, 0);
    });
  }

  /** Everything drawn once: the heading, the map and controls, the legend, charts and
   *  help at the side; then the listeners on the page. */
  _build() {
    const c = this.container, r = this.replay, st = this.stats;
    const on = this._on.bind(this);
    c.textContent = "";
    c.classList.add("bbv");
    c.classList.toggle("bbv-bare", !this.options.chrome);
    this._head(el("div", "bbv-head", c));
    const body = el("div", "bbv-body", c);
    const stage = el("div", "bbv-stage", body);
    const geo = viewGeometry(r.map.forts);
    this._map = new MapView(stage, r, geo, on);
    this._zoom = new Zoom(this._map, geo.box, on);
    this._controls = new Controls(stage, this, on);
    on(document, "fullscreenchange", () => {
      this._controls.setPressed("fullscreen", document.fullscreenElement === c);
      this._fit();
    });
    on(window, "resize", () => this._fit());
    const side = el("div", "bbv-side", body);
    this._side = side;
    this._legend = new Legend(side, r, st);
    this._chartsBox = el("div", "bbv-charts", side);
    this._drawCharts();
    help(side);
    this._listen();
    this._controls.setPlaying(false);
    if (this.options.chrome) this.hideResult(stored(SPOILERS_KEY) === "1");
    this._fit();
  }

  /** The charts of soldiers and forts, drawn (again) from the stats; their listeners
   *  go with their elements. */
  _drawCharts() {
    const st = this.stats, box = this._chartsBox;
    this._chartsTimer = 0;
    box.textContent = "";
    this._charts = [];
    if (!this.options.chrome) return; // not shown
    const seek = (t, start) => {
      if (start) this.pause();
      this.scrubTo(t);
    };
    const on = (target, type, fn, opts) => target.addEventListener(type, fn, opts);
    const charts = [["Soldiers", st.soldiers, st.maxSoldiers], ["Forts", st.forts, st.maxForts]];
    for (const [title, series, max] of charts) {
      const chart = new Chart(box, { title, series, max, P: st.P, T: st.T, seek, on });
      chart.moveCursor(this._tau);
      this._charts.push(chart);
    }
  }

  /** Sizes the map so that it and the controls under it fit the window (from where the
   *  map starts on the page, or the whole screen in full screen); phones scroll. */
  _fit() {
    const svgEl = this._map.svg, box = this._map.box;
    if (!this.options.chrome) return;
    if (window.innerWidth <= 640) {
      svgEl.style.maxHeight = "";
      return;
    }
    const full = document.fullscreenElement === this.container;
    const top = full ? box.getBoundingClientRect().top : box.getBoundingClientRect().top + window.scrollY;
    const below = this._controls.box.offsetHeight + 24;
    const room = window.innerHeight - top - below;
    svgEl.style.maxHeight = Math.max(full ? 200 : 320, Math.floor(room)) + "px";
  }

  /** What game this is, who won, and the choice to hide that until the end. */
  _head(head) {
    this._summary = el("p", "bbv-summary", head, summary(this.replay));
    const hide = el("label", "bbv-hide-result", head);
    this._spoilerBox = el("input", null, hide);
    this._spoilerBox.type = "checkbox";
    hide.appendChild(document.createTextNode(" Hide the result until the end"));
    this._on(this._spoilerBox, "change", () => this.hideResult(this._spoilerBox.checked));
    this._result = el("p", "bbv-result", head);
    this._showResult();
  }

  /** Who won, or a draw; nothing before the result. */
  _showResult() {
    const r = this.replay, winner = this.stats.winner, result = this._result;
    result.textContent = "";
    if (winner != null) {
      const crown = el("span", "bbv-winner", result);
      icon(crown, "crown");
      el("span", null, crown, r.players[winner] + " wins");
    } else if (r.result) {
      result.textContent = "A draw after " + r.result.turns + " turns";
    }
  }

  /** The keyboard on the whole page, and the address's `#t=N` changed by hand. */
  _listen() {
    if (this.options.keyboard) {
      this._on(document, "keydown", (e) => {
        const name = keyCommand(e);
        if (!name) return;
        this.command(name);
        e.preventDefault();
      });
    }
    if (this.options.hash) {
      this._on(window, "hashchange", () => {
        const t = hashTurn();
        if (t != null && t !== this._shown) {
          this.pause();
          this._render(clampTurn(t, this.lastTurn()));
        }
      });
    }
  }

  /** Draws the game at time `tau` (a turn, or between two while playing). */
  _render(tau) {
    tau = Math.max(0, Math.min(this.lastTurn(), tau));
    this._tau = tau;
    const t = Math.floor(tau);
    if (t !== this._shown) this._showTurn(t);
    this._map.drawMarches(tau);
    this._map.drawFlashes(tau);
    for (const chart of this._charts) chart.moveCursor(tau);
  }

  /** Everything that changes once a turn: forts, roads, legend, controls. */
  _showTurn(t) {
    this._shown = t;
    this._map.showTurn(t);
    this._legend.show(t);
    this._caption(t);
    this.container.setAttribute("data-turn", String(t));
    this.container.dispatchEvent(new CustomEvent("turnchange", {
      bubbles: true, detail: { turn: t, viewer: this },
    }));
  }

  /** What happened in turn `t` under the map, and whether it is the end. */
  _caption(t) {
    const r = this.replay, text = describe(r, this.stats, t);
    this._controls.show(t, this._live ? liveDescription(text) : text, problemsAt(r, t), r.players);
    const end = t === this.lastTurn();
    for (const e of [this.container, document.documentElement]) e.classList.toggle("bbv-at-end", end);
  }
}

/** The viewer of `replay`'s game (as `parse` reads it): Vindinium's for a Vindinium
 *  replay (format `vindinium-replay`), ours for everything else. */
export function viewerFor(container, replay, options) {
  if (isVindinium(replay)) return new VindiniumViewer(container, replay, options);
  return new BottleBatsViewer(container, replay, options);
}

/** Loads a replay from `url` (this site) into `container`; a promise of the viewer. */
export function fromUrl(container, url, options) {
  const started = performance.now();
  return fetchText(url).then((text) => {
    const fetched = performance.now();
    const v = viewerFor(container, parse(text), options);
    v.timing.loadMs = fetched - started;
    return v;
  });
}
