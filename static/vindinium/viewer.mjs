/* The Vindinium replay viewer: the same outward interface as the Bottle Bats viewer
 * (static/viewer/viewer.mjs, which picks this one for a replay of format
 * `vindinium-replay`): `new VindiniumViewer(container, replay, options)` with the same
 * options, API (`turn()`, `lastTurn()`, `goTo(t)`, `step(d)`, `play()`, `pause()`,
 * `toggle()`, `playing()`, `speed()`, `setSpeed(x)`, `command(name)`, `hideResult(on)`,
 * `extend(replay)`, `finish(result)`, `live()`, `following()`, `destroy()`, `replay`,
 * `timing`), events (`turnchange`, `viewerready`) and attributes (`data-turn`,
 * `data-ready`); its controls, keys, speeds, zoom and full screen are that viewer's
 * own modules. A turn here is a move: state `t` follows the `t`-th move.
 *
 * `replay` is a `VindiniumReplay` (replay.mjs) or a stored replay's JSON, parsed. The
 * board is a canvas (render.mjs); the legend gives each hero's gold, mines, life and
 * deaths at the move shown, the charts its gold and mines over the game. */

import { el, icon, fmt } from "../viewer/dom.mjs";
import { Controls, keyCommand } from "../viewer/controls.mjs";
import { Zoom } from "../viewer/zoom.mjs";
import { Chart } from "../viewer/charts.mjs";
import { followRate, liveDescription, FOLLOW_JUMP, CHARTS_MS } from "../viewer/grow.mjs";
import {
  SPEED_KEY, SPOILERS_KEY, validSpeed, stored, store, rememberedSpeed, hashTurn,
} from "../viewer/prefs.mjs";
import { readVindinium, VindiniumReplay } from "./replay.mjs";
import { summary, resultText, describe } from "./describe.mjs";
import { BoardView, heroColour, heroInk } from "./render.mjs";

/** Moves a second at 1× (the menu's speeds multiply it), as the Bottle Bats viewer. */
const MOVES_PER_SECOND = 2;
/** At the "auto" speed a game lasts about this long. */
const AUTO_SECONDS = 30;

function clampTurn(t, last) {
  t = Math.round(+t);
  if (!isFinite(t)) t = 0;
  return Math.max(0, Math.min(last, t));
}

export class VindiniumViewer {
  constructor(container, replay, options) {
    const started = performance.now();
    if (!(replay instanceof VindiniumReplay)) replay = readVindinium(replay);
    options = options || {};
    this.container = container;
    this.replay = replay;
    this.options = {
      hash: options.hash !== false, keyboard: options.keyboard !== false,
      chrome: options.chrome !== false,
    };
    this.timing = {};
    this._speed = validSpeed(options.speed) ?? rememberedSpeed() ?? "auto";
    this._tau = 0;
    this._shown = -1;
    this._playing = false;
    this._raf = 0;
    this._listeners = [];
    this._hashTimer = 0;
    this._chartsTimer = 0;
    this._live = !!options.live && !replay.result;
    this._following = false;
    this._build();
    this.timing.buildMs = performance.now() - started;

    let t = options.turn;
    if (t == null && this.options.hash) t = hashTurn();
    const newest = this._live && t == null;
    this._render(clampTurn(t == null ? (newest ? this.lastTurn() : 0) : t, this.lastTurn()));
    this._announceReady(started);
    if (newest || options.autoplay) this.play();
  }

  turn() { return this._shown; }
  lastTurn() { return this.replay.lastTurn(); }
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

  play() {
    if (this._playing) return;
    const atEnd = this._shown >= this.lastTurn();
    if (atEnd && !this._live) this._render(0);
    this._playing = true;
    this._following = atEnd && this._live;
    this._controls.setPlaying(true);
    this._run();
  }

  /** Plays at the speed chosen, or following a live game at the pace its moves come. */
  _run() {
    if (this._raf) return;
    let prev = null;
    const frame = (now) => {
      this._raf = 0;
      if (!this._playing) return;
      const last = this.lastTurn();
      if (prev !== null) {
        const dt = Math.min(now - prev, 250) / 1000;
        const rate = this._following ? followRate(last - this._tau) : this.turnsPerSecond();
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
    this._render(Math.round(this._tau));
    this._controls.setPlaying(false);
    this._saveHash(true);
  }

  toggle() {
    if (this._playing) this.pause();
    else this.play();
  }

  turnsPerSecond() {
    return this.turnsPerSecondAt(this._speed);
  }

  turnsPerSecondAt(x) {
    if (x === "auto") return Math.max(1, this.lastTurn() / AUTO_SECONDS);
    return MOVES_PER_SECOND * x;
  }

  setSpeed(x, remember) {
    x = validSpeed(x);
    if (x === null) return;
    this._speed = x;
    this._controls.setSpeed(x);
    if (remember) store(SPEED_KEY, String(x));
  }

  /** Hides the result (the winner, the charts ahead of the move shown) until the last
   *  move is shown, as the Bottle Bats viewer does; kept in the browser. */
  hideResult(on) {
    for (const e of [this.container, document.documentElement]) {
      e.classList.toggle("bbv-no-spoilers", on);
    }
    this._spoilerBox.checked = on;
    store(SPOILERS_KEY, on ? "1" : "0");
  }

  command(name) {
    switch (name) {
      case "first": this.pause(); this.goTo(0); break;
      case "back": this.step(-1); break;
      case "play": this.toggle(); break;
      case "forward": this.step(1); break;
      case "last": this.pause(); this.goTo(this.lastTurn()); if (this._live) this.play(); break;
      case "names": this.showNames(!this._board.names); break;
      case "zoom-in": this._zoom.zoomBy(1.5); break;
      case "zoom-out": this._zoom.zoomBy(1 / 1.5); break;
      case "zoom-reset": this._zoom.reset(); break;
      case "fullscreen": this.fullScreen(); break;
    }
  }

  /** Shows or hides the heroes' names on the board. */
  showNames(on) {
    this._board.showNames(on);
    this._controls.setPressed("names", on);
  }

  fullScreen() {
    const c = this.container;
    if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
    else if (c.requestFullscreen) c.requestFullscreen().catch(() => {});
  }

  scrubTo(t) {
    if (this._playing) {
      this._following = false;
      this._tau = clampTurn(t, this.lastTurn());
      this._render(this._tau);
    } else {
      this.goTo(t);
    }
  }

  /** The game went on: `replay` is it with more moves (the same object, grown by
   *  `VindiniumLive`). */
  extend(replay) {
    const behind = replay.lastTurn() - this._tau;
    this.replay = replay;
    this._board.replay = replay;
    this._live = !replay.result;
    this._grown();
    if (this._following && this._playing) {
      if (behind > FOLLOW_JUMP) this._render(this.lastTurn());
      this._run();
    }
  }

  /** The game is over: its `result` (null for none). */
  finish(result) {
    this.replay.result = result || null;
    this._live = false;
    this._legend.badge(this.replay);
    this._showResult();
    this._grown(true);
    if (this._playing && this._following && this._tau >= this.lastTurn()) this.pause();
  }

  /** After the game grew or ended: its length, the move shown again, the charts (at
   *  most once a second while live). */
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
    this.container.classList.remove("bbv-vindinium");
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
    if (now) write();
    else this._hashTimer = setTimeout(write, 120);
  }

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

  _build() {
    const c = this.container, on = this._on.bind(this);
    c.textContent = "";
    c.classList.add("bbv", "bbv-vindinium");
    c.classList.toggle("bbv-bare", !this.options.chrome);
    this._head(el("div", "bbv-head", c));
    const body = el("div", "bbv-body", c);
    const stage = el("div", "bbv-stage", body);
    this._stage = stage;
    this._board = new BoardView(stage, this.replay);
    const n = this.replay.map.size;
    this._zoom = new Zoom(this._board, [0, 0, n, n], on);
    this._controls = new Controls(stage, this, on);
    this._controls.colour = heroInk;
    const names = this._controls.buttons.names;
    names.title = "Show the heroes' names (N)";
    names.setAttribute("aria-label", names.title);
    this._controls.problems.setAttribute("aria-label", "Problems in the reply to this move");
    on(document, "fullscreenchange", () => {
      this._controls.setPressed("fullscreen", document.fullscreenElement === c);
      this._fit();
    });
    on(window, "resize", () => this._fit());
    const side = el("div", "bbv-side", body);
    this._legend = new HeroLegend(side, this.replay);
    this._chartsBox = el("div", "bbv-charts", side);
    this._drawCharts();
    help(side);
    this._listen();
    this._controls.setPlaying(false);
    if (this.options.chrome) this.hideResult(stored(SPOILERS_KEY) === "1");
    this._fit();
  }

  /** The charts of gold and mines, drawn (again) from the replay's numbers. */
  _drawCharts() {
    const r = this.replay, box = this._chartsBox;
    this._chartsTimer = 0;
    box.textContent = "";
    this._charts = [];
    if (!this.options.chrome) return;
    const seek = (t, start) => {
      if (start) this.pause();
      this.scrubTo(t);
    };
    const on = (target, type, fn, opts) => target.addEventListener(type, fn, opts);
    for (const [title, name] of [["Gold", "gold"], ["Mines", "mines"]]) {
      const series = r.series(name);
      const max = Math.max(1, ...series);
      const chart = new Chart(box, {
        title, series, max, P: 4, T: r.lastTurn() + 1, seek, on, colour: heroInk,
      });
      chart.moveCursor(this._tau);
      this._charts.push(chart);
    }
  }

  /** Sizes the square board so that it, the line above it and the controls under it
   *  fit the window once scrolled to (the whole screen in full screen); on a phone,
   *  the width. */
  _fit() {
    const box = this._board.box, width = this._stage.clientWidth;
    let side = width;
    if (this.options.chrome && window.innerWidth > 640) {
      const full = document.fullscreenElement === this.container;
      const head = this.container.querySelector(".bbv-head");
      const top = full ? box.getBoundingClientRect().top : head.offsetHeight + 32;
      const below = this._controls.box.offsetHeight + 24;
      side = Math.min(width, Math.max(full ? 200 : 320, Math.floor(window.innerHeight - top - below)));
    }
    if (side > 0 && side !== this._board.side) this._board.setSide(side);
  }

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

  _showResult() {
    const text = resultText(this.replay), result = this._result;
    result.textContent = "";
    if (!text) return;
    const { winner } = this.replay.outcome();
    if (winner === null) {
      result.textContent = text;
      return;
    }
    const crown = el("span", "bbv-winner", result);
    icon(crown, "crown");
    el("span", null, crown, text);
  }

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

  /** Draws the game at time `tau` (a move, or between two while playing). */
  _render(tau) {
    tau = Math.max(0, Math.min(this.lastTurn(), tau));
    this._tau = tau;
    const t = Math.floor(tau), frac = tau - t;
    if (t !== this._shown) this._showTurn(t);
    const r = this.replay;
    if (frac > 0 && !this._next) this._next = r.state(t + 1);
    this._board.draw({
      t, frac, state: this._state, next: frac > 0 ? this._next : null,
      mover: frac > 0 ? r.movers[t + 1] : r.movers[t],
    });
    for (const chart of this._charts) chart.moveCursor(tau);
  }

  /** Everything that changes once a move: the state, legend, controls. */
  _showTurn(t) {
    const r = this.replay;
    // The state before it too, for the caption: kept when playing on, else replayed
    // first, so that state `t` is one move from it.
    const before = t === this._shown + 1 ? this._state : t > 0 ? r.state(t - 1) : null;
    this._state = r.state(t);
    this._before = before || this._state;
    this._next = null;
    this._shown = t;
    this._legend.show(t);
    this._caption(t);
    this.container.setAttribute("data-turn", String(t));
    this.container.dispatchEvent(new CustomEvent("turnchange", {
      bubbles: true, detail: { turn: t, viewer: this },
    }));
  }

  /** What happened in move `t` under the board, the problems of the reply to state
   *  `t`, and whether it is the end. */
  _caption(t) {
    const r = this.replay, text = describe(r, t, this._before, this._state);
    this._controls.show(t, this._live ? liveDescription(text) : text, r.problemsAt(t), r.players);
    const end = t === this.lastTurn();
    for (const e of [this.container, document.documentElement]) e.classList.toggle("bbv-at-end", end);
  }
}

/** The legend: a row per hero with its colour and number, its name, and its gold,
 *  mines, life and deaths at the move shown; crashed heroes are marked. */
class HeroLegend {
  constructor(parent, r) {
    this.r = r;
    const table = el("table", "bbv-legend bbv-vlegend", parent);
    const hr = el("tr", null, el("thead", null, table));
    el("th", null, hr, "Hero");
    for (const h of ["Gold", "Mines", "Life", "Deaths"]) el("th", "num", hr, h);
    const tbody = el("tbody", null, table);
    this.rows = r.players.map((name, p) => this.row(tbody, name, p));
    this.badge(r);
  }

  row(tbody, name, p) {
    const tr = el("tr", null, tbody);
    tr.setAttribute("data-player", name);
    const who = el("div", "bbv-who", el("td", null, tr));
    const sw = el("span", "bbv-vswatch", who, String(p + 1));
    sw.style.background = heroColour(p);
    el("span", "bbv-name", who, name).title = name;
    const status = el("span", "bbv-out", who, "");
    const cells = ["gold", "mines", "life", "deaths"].map((k) => {
      const td = el("td", "num", tr, "0");
      td.setAttribute("data-" + k, "");
      return td;
    });
    return { tr, who, cells, status, shown: [], crashed: null };
  }

  /** The winner's badge, once the result is known. */
  badge(r) {
    this.r = r;
    const { winner } = r.result ? r.outcome() : { winner: null };
    this.rows.forEach((row, p) => {
      const old = row.who.querySelector(".bbv-badge");
      if (old) old.remove();
      if (winner === p) row.who.insertBefore(el("span", "bbv-badge", null, "winner"), row.status);
    });
  }

  /** The numbers of state `t`; only what changed is written. */
  show(t) {
    const r = this.r;
    this.rows.forEach((row, p) => {
      ["gold", "mines", "life", "deaths"].forEach((k, i) => {
        const v = r.number(t, p, k);
        if (row.shown[i] !== v) {
          row.shown[i] = v;
          row.cells[i].textContent = fmt(v);
        }
      });
      const crashed = r.crashedAt(p);
      const gone = crashed !== null && t >= crashed;
      if (row.crashed !== gone) {
        row.crashed = gone;
        row.tr.classList.toggle("bbv-gone", gone);
        row.status.textContent = gone ? "crashed at move " + crashed : "";
      }
    });
  }
}

/** The keys, as a line of text under the charts. */
function help(parent) {
  const p = el("p", "bbv-help", parent);
  const parts = [["kbd", "Space"], ["", " plays or pauses, "], ["kbd", "←"], ["", " "],
    ["kbd", "→"], ["", " step a move, "], ["kbd", "Home"], ["", " "], ["kbd", "End"],
    ["", " jump, "], ["kbd", "F"], ["", " full screen, "], ["kbd", "N"], ["", " names, "],
    ["kbd", "+"], ["", " "], ["kbd", "−"], ["", " zoom. Click a chart to go to that move."]];
  for (const [tag, text] of parts) {
    if (tag) el(tag, null, p, text);
    else p.appendChild(document.createTextNode(text));
  }
}
