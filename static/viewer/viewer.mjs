/* The replay viewer's core, one for every game: playback, speed, seeking, keys, the
 * address's `#t=N`, zoom, full screen, a game still being played, the legend, the
 * stderr's problems under the board and the charts. What a game draws and says is its
 * renderer's. Native ES modules, no dependencies, no build step.
 *
 *   import { viewerFor, fromUrl } from "/static/viewer/viewer.mjs";
 *   const viewer = viewerFor(container, replay, options);
 *
 * `replay` is a game's replay, already parsed (JSON, or a replay read), or the text of
 * one (a classic log of 2016, `# STEP: n`, is Bottle Bats'); its game (games.mjs) is
 * picked by its `format`; `parse` and `readFile` of replay.mjs read them.
 *
 * A game (`static/NAME/game.mjs`, listed in games.mjs) is an object with `name`,
 * `accepts(r)` (whether parsed JSON, a replay read or a live stream's head is its),
 * `read(json)` (its replay; throws saying why not), `live()` (a reader of its live
 * stream's rows, see follow.mjs), `renderer(replay, live)` (`live`: still being
 * played), and optionally `readsText(text)`
 * and `readText(text)` (a text format of its own). A renderer, which the core drives:
 *
 *   replay                  the game read (`extend` replaces it)
 *   words                   {player: the legend's head, names: the names button's label,
 *                           problems: the problems list's label, step: what the arrows
 *                           step, tail: the end of the help, legendClass (optional)}
 *   lastTurn()              the newest turn (a turn: a snapshot of the game)
 *   plannedTurns()          the last turn the game may reach, or null
 *   mount(stage, on)        draws the board into `stage` (a `.bbv-map` element); returns
 *                           zoom.mjs's target (`box`, `setViewBox(v)`) and `home`, its
 *                           whole view box. `on(target, type, fn)` adds a listener
 *                           that goes with the viewer
 *   fit(room)               sizes the board: `room.page` px high from where it is in
 *                           the window now, `room.scrolled` once scrolled to the
 *                           viewer (less the controls); on a big screen both its
 *                           container's height; null on a phone: the width only
 *   show(t)                 turn `t` is shown (called once each time it changes)
 *   draw(tau)               a frame at time `tau` (a turn, or between two while playing)
 *   showNames(on)           the names on the board
 *   summary()               the line on the game ("8 players · 97 forts · 500 turns")
 *   result()                {winner (a player, or null), text}, or null before the end
 *   describe(t), problems(t) what happened in turn `t`; the problems of the replies to
 *                           it (`{player, kind, text}`, kind "warning", "timeout",
 *                           "limit" or "removed")
 *   scoreboard(t)           each player at turn `t`: `{name, colour, numbers: [[label,
 *                           value], ...], share (optional, 0 to 1), out, note (since
 *                           when out), winner (at the end)}`: the legend and the big
 *                           screen (a label read lowercased, an "s" less for 1; a
 *                           number with a third element "legend" is the legend's only)
 *   charts()                [{title, series (turn t, player p at t * P + p), max, P, T}]
 *   colour(p), ink(p)       player `p`'s colour on the board, and on the page (text)
 *   swatch(parent, p)       player `p`'s mark in the legend, added to `parent`
 *   extend(replay)          the game went on (a longer replay: numbers grow)
 *   finish(result)          the game's result came (null: none)
 *   palettes, usePalette(name)  optional: its palettes' names (the first the usual one)
 *
 * Options: `turn` (to open at), `hash` (keep `#t=N` in the address: true by default),
 * `keyboard` (space, arrows, Home/End on the document: true by default), `speed`
 * ("auto": the whole game in about 30 s, the default; or 0.5 to 16, 1 = two turns a
 * second), `autoplay`, `live` (the game is still being played: see below), `chrome`
 * (false: the board alone, for a big screen: the container gets `bbv-bare`, the
 * page's stylesheet hides the rest and sizes the board; no "hide the result" of this
 * browser), `pace` (seconds: the game played over about that long however many turns
 * it has, `paceRate` of grow.mjs, for a big screen; a game still being played waits
 * at its newest turn for the next instead of following it). A speed, whether results
 * are hidden and the palette chosen are remembered in the browser (prefs.mjs).
 *
 * API: `turn()`, `lastTurn()`, `goTo(t)`, `step(d)`, `play()`, `pause()`, `toggle()`,
 * `playing()`, `speed()`, `setSpeed(x)`, `command(name)`, `hideResult(on)`,
 * `setPalette(name)`, `scoreboard(t)`, `problems(t)`, `fit()`, `destroy()`, `replay`, `game`,
 * `renderer`, `timing`.
 *
 * A game still being played (follow.mjs feeds one): `live: true` opens at its newest
 * turn, following it (unless `turn` or the address names one). `extend(replay)` takes
 * the longer game without building anything again: scrub bar, charts and numbers grow;
 * a viewer following the game plays on to the new turns at the pace they come (about a
 * second behind, jumping when far behind); one paused or taken back stays (play or End
 * follows again). `finish(result)` gives the result (null: none, voided) and the usual
 * end. `live()`: more turns are expected; `following()`: at the newest turn, going on
 * with the game.
 *
 * Events on the container: `turnchange` (detail `{turn, viewer}`) each time the turn
 * shown changes, `viewerready` (detail `{viewer, ms}`) once the first frame is drawn.
 * The container carries the class `bbv` (and `bbv-NAME`, the game's), `data-game`,
 * `data-turn`, and `data-ready` once drawn. */

import { el, icon } from "./dom.mjs";
import { parse, fetchText } from "./replay.mjs";
import { gameOf } from "./games.mjs";
import { followRate, paceRate, liveDescription, FOLLOW_JUMP, CHARTS_MS } from "./grow.mjs";
import { Legend } from "./legend.mjs";
import { Chart } from "./charts.mjs";
import { Controls, SPEEDS, help, keyCommand } from "./controls.mjs";
import { Zoom } from "./zoom.mjs";
import {
  SPEED_KEY, SPOILERS_KEY, PALETTE_KEY, validSpeed, stored, store, rememberedSpeed, hashTurn,
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

export class Viewer {
  /** The viewer of `replay` (read by `game`) in `container`; see the top. */
  constructor(container, game, replay, options) {
    const started = performance.now();
    options = options || {};
    this.container = container;
    this.game = game;
    this._live = !!options.live && !replay.result;
    this.renderer = game.renderer(replay, this._live);
    this.options = {
      hash: options.hash !== false, keyboard: options.keyboard !== false,
      chrome: options.chrome !== false,
      // The result hidden until the end unless the spectator chose otherwise (kept).
      hideResult: options.hideResult === true,
    };
    this.timing = {};
    this._speed = validSpeed(options.speed) ?? rememberedSpeed() ?? "auto";
    this._tau = 0; // the time shown: a turn, or between two while playing
    this._shown = -1; // the turn drawn
    this._playing = false;
    this._raf = 0;
    this._listeners = [];
    this._hashTimer = 0;
    this._following = false; // at the newest turn of a live game, going on with it
    this._pace = options.pace > 0 ? +options.pace : 0; // seconds a game, or none
    this._chartsTimer = 0;
    if (this.renderer.palettes) this.renderer.usePalette(stored(PALETTE_KEY));
    this._build();
    this.timing.buildMs = performance.now() - started;

    let t = options.turn;
    if (t == null && this.options.hash) t = hashTurn();
    const newest = this._live && t == null;
    this._render(clampTurn(t == null ? (newest ? this.lastTurn() : 0) : t, this.lastTurn()));
    this._announceReady(started);
    if (newest || options.autoplay) this.play();
  }

  /** The game read (the renderer's). */
  get replay() { return this.renderer.replay; }

  turn() { return this._shown; }
  lastTurn() { return this.renderer.lastTurn(); }
  playing() { return this._playing; }
  speed() { return this._speed; }
  live() { return this._live; }
  following() { return this._following; }
  /** Each player at turn `t` (the shown one by default): the renderer's scoreboard. */
  scoreboard(t) { return this.renderer.scoreboard(t ?? this._shown); }
  /** The problems of the replies to turn `t` (the match page's stderr panel). */
  problems(t) { return this.renderer.problems(t); }

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

  /** Plays at the speed chosen, at a pace, or following a live game at the pace its
   *  turns come, to the last turn (where a live game waits for `extend` to go on). */
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
  hideResult(on, kept = true) {
    this.container.classList.toggle("bbv-no-spoilers", on);
    // The page's own result goes only by the spectator's choice, not by a default.
    document.documentElement.classList.toggle("bbv-no-spoilers", on && kept);
    this._spoilerBox.checked = on;
    if (kept) store(SPOILERS_KEY, on ? "1" : "0");
  }

  /** Draws with the renderer's palette `name` (the colour-blind one, or the usual),
   *  kept in the browser: everything coloured is drawn again at the turn shown. */
  setPalette(name) {
    const r = this.renderer;
    if (!r.palettes) return;
    r.usePalette(name);
    store(PALETTE_KEY, r.palettes.includes(name) ? name : r.palettes[0]);
    const t = this._shown, playing = this._playing, names = this.container.classList.contains("bbv-show-names");
    cancelAnimationFrame(this._raf);
    this._raf = 0;
    this._unlisten();
    this._build();
    this._shown = -1;
    this._render(t);
    if (names) this.showNames(true);
    if (playing) {
      this._controls.setPlaying(true);
      this._run();
    }
  }

  /** A command of the buttons and keys: "first", "back", "play", "forward", "last",
   *  "names", "zoom-in", "zoom-out", "zoom-reset", "fullscreen". */
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

  /** Shows or hides the names on the board. */
  showNames(on) {
    this.container.classList.toggle("bbv-show-names", on);
    this.renderer.showNames(on);
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
    const behind = this.renderer.extend(replay) - this._tau;
    this._live = !this.replay.result;
    this._grown();
    if (this._following && this._playing) {
      // At a pace every turn is shown: it waited at the newest, and plays on.
      if (behind > FOLLOW_JUMP && !this._pace) this._render(this.lastTurn());
      this._run();
    }
  }

  /** The game is over: its `result` (null for none) and the end it gives. */
  finish(result) {
    this.renderer.finish(result || null);
    this._live = false;
    this._legend.badge();
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
    this._summary.textContent = this.renderer.summary();
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
    this._unlisten();
    document.documentElement.classList.remove("bbv-no-spoilers", "bbv-at-end");
    this.container.classList.remove("bbv-" + this.game.name);
    for (const a of ["data-game", "data-turn", "data-ready"]) this.container.removeAttribute(a);
    this.container.textContent = "";
    this.container = null;
  }

  _on(target, type, fn, options) {
    target.addEventListener(type, fn, options);
    this._listeners.push([target, type, fn, options]);
  }

  _unlisten() {
    for (const [target, type, fn, opts] of this._listeners) target.removeEventListener(type, fn, opts);
    this._listeners = [];
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

  /** Everything drawn once: the heading, the board and controls, the legend, charts
   *  and help at the side; then the listeners on the page. */
  _build() {
    const c = this.container, r = this.renderer;
    const on = this._on.bind(this);
    c.textContent = "";
    c.classList.add("bbv", "bbv-" + this.game.name);
    c.classList.toggle("bbv-bare", !this.options.chrome);
    c.setAttribute("data-game", this.game.name);
    this._head(el("div", "bbv-head", c));
    const body = el("div", "bbv-body", c);
    const stage = el("div", "bbv-stage", body);
    const { view, home } = r.mount(stage, on);
    this._board = view;
    this._zoom = new Zoom(view, home, on);
    this._controls = new Controls(stage, this, on);
    on(document, "fullscreenchange", () => {
      this._controls.setPressed("fullscreen", document.fullscreenElement === c);
      this.fit();
    });
    on(window, "resize", () => this.fit());
    const side = el("div", "bbv-side", body);
    this._legend = new Legend(side, r);
    this._chartsBox = el("div", "bbv-charts", side);
    this._drawCharts();
    help(side, r.words);
    this._listen();
    this._controls.setPlaying(false);
    if (this.options.chrome) {
      const kept = stored(SPOILERS_KEY);
      if (kept === null) this.hideResult(this.options.hideResult, false);
      else this.hideResult(kept === "1");
    }
    this.fit();
  }

  /** The renderer's charts, drawn (again); their listeners go with their elements. */
  _drawCharts() {
    const box = this._chartsBox, r = this.renderer;
    this._chartsTimer = 0;
    box.textContent = "";
    this._charts = [];
    if (!this.options.chrome) return; // not shown
    const seek = (t, start) => {
      if (start) this.pause();
      this.scrubTo(t);
    };
    const on = (target, type, fn, opts) => target.addEventListener(type, fn, opts);
    const colour = r.ink.bind(r);
    for (const c of r.charts()) {
      const chart = new Chart(box, { ...c, seek, on, colour });
      chart.moveCursor(this._tau);
      this._charts.push(chart);
    }
  }

  /** Sizes the board so that it and the controls under it fit the window, from where
   *  it is now or once scrolled to the viewer (the renderer picks; the whole screen in
   *  full screen); phones scroll; on a big screen, the board alone fills the container
   *  its page sized. A page that scrolls to the viewer calls it again. */
  fit() {
    if (!this.options.chrome) {
      const h = this.container.clientHeight || null;
      this.renderer.fit(h && { page: h, scrolled: h });
      return;
    }
    if (window.innerWidth <= 640) {
      this.renderer.fit(null);
      return;
    }
    const full = document.fullscreenElement === this.container;
    const boxTop = this._board.box.getBoundingClientRect().top;
    const below = this._controls.box.offsetHeight + 24, least = full ? 200 : 320;
    const room = (top) => Math.max(least, Math.floor(window.innerHeight - top - below));
    const head = this.container.querySelector(".bbv-head").offsetHeight + 32;
    this.renderer.fit({ page: room(boxTop), scrolled: room(full ? boxTop : head) });
  }

  /** What game this is, who won, and the choices kept in the browser: hide that until
   *  the end; the colour-blind palette, where the game has one. */
  _head(head) {
    this._summary = el("p", "bbv-summary", head, this.renderer.summary());
    this._spoilerBox = this._choice(head, "bbv-hide-result", "Hide the result until the end",
      (on) => this.hideResult(on));
    const r = this.renderer;
    if (r.palettes) {
      const box = this._choice(head, "bbv-palette", "Colour-blind palette",
        (on) => this.setPalette(on ? r.palettes[1] : r.palettes[0]));
      box.checked = stored(PALETTE_KEY) === r.palettes[1];
    }
    this._result = el("p", "bbv-result", head);
    this._showResult();
  }

  /** A checkbox labelled `text` in a `label.cls` of `head`; `fn(checked)` on a change. */
  _choice(head, cls, text, fn) {
    const label = el("label", cls, head);
    const box = el("input", null, label);
    box.type = "checkbox";
    label.appendChild(document.createTextNode(" " + text));
    this._on(box, "change", () => fn(box.checked));
    return box;
  }

  /** Who won, or a draw; nothing before the result. */
  _showResult() {
    const res = this.renderer.result(), box = this._result;
    box.textContent = "";
    if (!res) return;
    if (res.winner === null) {
      box.textContent = res.text;
      return;
    }
    const crown = el("span", "bbv-winner", box);
    icon(crown, "crown");
    el("span", null, crown, res.text);
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
    this.renderer.draw(tau);
    for (const chart of this._charts) chart.moveCursor(tau);
  }

  /** Everything that changes once a turn: the board, legend, controls. */
  _showTurn(t) {
    this._shown = t;
    this.renderer.show(t);
    this._legend.show(t);
    this._caption(t);
    this.container.setAttribute("data-turn", String(t));
    this.container.dispatchEvent(new CustomEvent("turnchange", {
      bubbles: true, detail: { turn: t, viewer: this },
    }));
  }

  /** What happened in turn `t` under the board, its problems, and whether it is the
   *  end. */
  _caption(t) {
    const r = this.renderer, text = r.describe(t);
    const times = r.replyTimes ? r.replyTimes(t) : null;
    this._controls.show(t, this._live ? liveDescription(text) : text, r.problems(t), this.replay.players, times);
    const end = t === this.lastTurn();
    for (const e of [this.container, document.documentElement]) e.classList.toggle("bbv-at-end", end);
  }
}

/** The viewer of `replay` (parsed, read, or text) in `container`, by its game. */
export function viewerFor(container, replay, options) {
  if (typeof replay === "string") replay = parse(replay);
  const game = gameOf(replay);
  return new Viewer(container, game, game.read(replay), options);
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
