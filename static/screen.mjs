/* The big screen (`/live`, templates/live/screen.html): the featured match for a
 * projector or a phone, with nobody at the controls. It asks `/api/live` which match
 * is featured (the running tournament's, else the latest between the top bots), every
 * 5 s while there is none, and follows it (viewer/follow.mjs): the map, each player's
 * name in its colour with its forts and soldiers at the turn shown, the title and the
 * turn. At the end the winner is shown for 10 s; then the next featured match is
 * followed when there is one (the same finished one: the board stays, and it asks
 * again). The page's root carries `data-state` ("idle", "waiting", "live", "ended",
 * "error"), `data-match` (the match shown) and `data-turn` (the turn shown).
 *
 * `scoreboard` and `nextStep` are pure, tested with node. */

import { follow } from "./viewer/follow.mjs";
import { palette } from "./viewer/colours.mjs";
import { el, icon, fmt } from "./viewer/dom.mjs";

/** How often `/api/live` is asked while nothing is followed, and while one is. */
const POLL_IDLE_MS = 5000;
const POLL_BUSY_MS = 15000;
/** How long the winner is shown big before the screen moves on. */
const WINNER_MS = 10000;
/** At the end, the viewer is given this long to show the last turns first. */
const CATCH_UP_MS = 4000;

/** Each player's line at turn `t` of a viewer's `replay` and `stats` (`precompute` or
 *  `growStats`): `{name, colour, forts, soldiers, share (of all players' soldiers, 0 to
 *  1), out (removed at or before `t`), winner (the result's, at its last turn)}`. */
export function scoreboard(replay, stats, t) {
  const P = replay.players.length;
  let total = 0;
  for (let p = 0; p < P; p++) total += stats.soldiers[t * P + p];
  const end = replay.result && t === replay.turns.length - 1;
  return replay.players.map((name, p) => {
    const soldiers = stats.soldiers[t * P + p];
    return {
      name, colour: palette(p), forts: stats.forts[t * P + p], soldiers,
      share: total > 0 ? soldiers / total : 0,
      out: stats.out[p] !== null && t >= stats.out[p],
      winner: !!end && stats.winner === p,
    };
  });
}

/** What the screen does with `/api/live`'s answer `info` (null when it failed), given
 *  the match it shows (`shown`, or null) and its `phase`: "idle" (none), "following"
 *  (being played, or waiting to be; `state` is follow's), "winner" (the end shown big)
 *  or "after" (the end shown, looking for the next). Returns "idle" (show that nothing
 *  is played), "follow" (follow `info.match`) or "stay". A match being played is
 *  followed to its end; a match waiting to start gives way to another featured. */
export function nextStep(shown, phase, state, info) {
  if (phase === "winner") return "stay";
  const featured = info && info.match != null ? info.match : null;
  const playing = phase === "following" && state === "live";
  if (featured === null) return playing || (info === null && phase !== "idle") ? "stay" : "idle";
  if (featured === shown) return "stay";
  return playing ? "stay" : "follow";
}

/** The head's word for each state. */
const STATES = {
  idle: "", waiting: "Starting soon", live: "Live", ended: "Finished", voided: "Voided",
  error: "Reconnecting…",
};

/** "12 / 24 games" when a tournament is on. */
function progressOf(info) {
  const t = info.tournament;
  return t && t.total ? t.done + " / " + t.total + " games" : "";
}

/** "14:03". */
function clock() {
  return new Date().toTimeString().slice(0, 5);
}

class Screen {
  constructor(root) {
    this.root = root;
    const part = (name) => root.querySelector("[data-screen-" + name + "]");
    this.parts = {
      event: part("event"), title: part("title"), progress: part("progress"), turn: part("turn"),
      of: part("of"), state: part("state"), status: part("status"), map: part("map"),
      players: part("players"),
      winner: part("winner"), link: part("link"),
    };
    this.clocks = [...root.querySelectorAll("[data-screen-clock]")];
    this.site = this.parts.title.textContent;
    this.info = null;
    this.shown = null;
    this.phase = "idle";
    this.live = null; // follow's handle
    this.frame = null; // the viewer's container
    this.rows = [];
    this.pollTimer = 0;
    this.winnerTimer = 0;
  }

  start() {
    this.tick();
    setInterval(() => this.tick(), 1000);
    document.addEventListener("keydown", (e) => {
      if ((e.key === "f" || e.key === "F") && !e.ctrlKey && !e.metaKey && !e.altKey) this.fullScreen();
    });
    this.root.addEventListener("dblclick", () => this.fullScreen());
    document.addEventListener("visibilitychange", () => this.keepAwake());
    this.keepAwake();
    this.poll();
  }

  /** The clock, every second. */
  tick() {
    const now = clock();
    for (const c of this.clocks) if (c.textContent !== now) c.textContent = now;
  }

  fullScreen() {
    if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
    else if (document.documentElement.requestFullscreen) {
      document.documentElement.requestFullscreen().catch(() => {});
    }
  }

  /** Asks the browser to keep the screen on (where it may). */
  keepAwake() {
    if (document.visibilityState !== "visible" || !navigator.wakeLock) return;
    navigator.wakeLock.request("screen").catch(() => {});
  }

  /** The page's state, and the word for it in the head (follow's own status line, with
   *  the newest turn received, is kept out of sight: the turn shown is the one said). */
  setState(state, status) {
    this.root.setAttribute("data-state", state);
    const pill = this.parts.state;
    pill.textContent = STATES[state === "ended" && status === "voided" ? "voided" : state] || "";
    pill.setAttribute("data-state", state);
  }

  /** Asks `/api/live` again in `ms`. */
  later(ms) {
    clearTimeout(this.pollTimer);
    this.pollTimer = setTimeout(() => this.poll(), ms);
  }

  poll() {
    clearTimeout(this.pollTimer);
    fetch("/api/live", { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then((r) => (r.ok ? r.json() : null))
      .catch(() => null)
      .then((info) => this.decide(info));
  }

  decide(info) {
    const state = this.live ? this.live.state : "";
    const step = nextStep(this.shown, this.phase, state, info);
    if (step === "idle") this.idle();
    else if (step === "follow") this.begin(info);
    else if (info && info.match === this.shown) this.heading(info);
    if (this.phase !== "winner") {
      this.later(this.phase === "following" ? POLL_BUSY_MS : POLL_IDLE_MS);
    }
  }

  /** Nothing is being played. */
  idle() {
    this.stop();
    this.shown = null;
    this.phase = "idle";
    this.root.removeAttribute("data-match");
    this.root.removeAttribute("data-turn");
    this.parts.event.textContent = "";
    this.parts.title.textContent = this.site;
    this.parts.progress.textContent = "";
    this.parts.link.textContent = "";
    this.setState("idle");
  }

  /** Stops following the match shown and clears its board. */
  stop() {
    clearTimeout(this.winnerTimer);
    this.parts.winner.hidden = true;
    if (this.live) this.live.close();
    if (this.live && this.live.viewer) this.live.viewer.destroy();
    if (this.frame) this.frame.remove();
    this.live = null;
    this.frame = null;
    this.parts.players.textContent = "";
    this.rows = [];
  }

  /** The title, the tournament and its progress, the link to the match's page. */
  heading(info) {
    this.info = info;
    const t = info.tournament;
    this.parts.event.textContent = t ? t.name : this.site;
    this.parts.title.textContent = info.title || "Match " + info.match;
    this.parts.progress.textContent = progressOf(info);
    this.parts.link.textContent = info.page ? location.host + info.page : "";
  }

  /** Follows match `info.match`. */
  begin(info) {
    this.stop();
    this.shown = info.match;
    this.phase = "following";
    this.root.setAttribute("data-match", String(info.match));
    this.root.setAttribute("data-turn", "0");
    this.heading(info);
    this.parts.turn.textContent = "–";
    this.parts.of.textContent = "";
    this.players(info.players || []);
    this.setState("waiting");
    const frame = el("div", "screen-viewer", this.parts.map);
    this.frame = frame;
    frame.addEventListener("turnchange", (e) => this.showTurn(e.detail.viewer, e.detail.turn));
    frame.addEventListener("livestatus", (e) => {
      if (this.phase === "following") this.setState(e.detail.state);
    });
    frame.addEventListener("liveend", (e) => this.ended(e.detail));
    this.live = follow(frame, info.turns || "/matches/" + info.match + "/turns", {
      status: this.parts.status,
      viewer: { hash: false, keyboard: false, chrome: false },
    });
  }

  /** A line per player: its name in its colour, its forts and soldiers. */
  players(names) {
    const list = this.parts.players;
    list.textContent = "";
    list.style.setProperty("--n", String(Math.max(names.length, 2)));
    list.setAttribute("data-count", String(names.length));
    this.rows = names.map((name, p) => {
      const li = el("li", "screen-player", list);
      li.setAttribute("data-player", name);
      li.style.setProperty("--colour", palette(p));
      const who = el("div", "screen-who", li);
      el("span", "screen-swatch", who).style.background = palette(p);
      const label = el("span", "screen-name", who, name);
      label.style.color = palette(p);
      label.title = name;
      const score = el("div", "screen-score", li);
      const forts = el("b", null, score, "–");
      const fortsWord = el("span", null, score, " forts");
      const soldiers = el("b", null, score, "–");
      const soldiersWord = el("span", null, score, " soldiers");
      const bar = el("span", "screen-bar", el("div", "screen-share", li));
      bar.style.background = palette(p);
      return { li, forts, soldiers, fortsWord, soldiersWord, bar, key: "" };
    });
  }

  /** The turn shown by the viewer: its number, and each player's score at it. */
  showTurn(viewer, t) {
    if (!viewer || this.frame !== viewer.container) return;
    const r = viewer.replay;
    this.root.setAttribute("data-turn", String(t));
    this.parts.turn.textContent = String(t);
    this.parts.of.textContent = r.max_steps ? "of " + r.max_steps : "";
    if (this.rows.length !== r.players.length) this.players(r.players);
    scoreboard(r, viewer.stats, t).forEach((s, p) => {
      const row = this.rows[p];
      const key = s.forts + "/" + s.soldiers + "/" + s.out + "/" + s.winner;
      if (row.key === key) return;
      row.key = key;
      row.forts.textContent = fmt(s.forts);
      row.fortsWord.textContent = s.forts === 1 ? " fort" : " forts";
      row.soldiers.textContent = fmt(s.soldiers);
      row.soldiersWord.textContent = s.soldiers === 1 ? " soldier" : " soldiers";
      row.bar.style.width = (100 * s.share).toFixed(1) + "%";
      row.li.classList.toggle("is-out", s.out);
      row.li.classList.toggle("is-winner", s.winner);
    });
  }

  /** The match is over: once the viewer has shown its last turn (or after a few
   *  seconds), the winner big for a while; then the next match. */
  ended(detail) {
    this.phase = "winner";
    this.setState("ended", detail.status);
    clearTimeout(this.pollTimer);
    const viewer = this.live && this.live.viewer, frame = this.frame;
    if (!viewer || viewer.turn() >= viewer.lastTurn() || !viewer.playing()) {
      this.crown(detail);
      return;
    }
    let done = false;
    const show = () => {
      if (done || this.frame !== frame) return;
      done = true;
      frame.removeEventListener("turnchange", atLast);
      this.crown(detail);
    };
    const atLast = (e) => {
      if (e.detail.turn >= viewer.lastTurn()) show();
    };
    frame.addEventListener("turnchange", atLast);
    this.winnerTimer = setTimeout(show, CATCH_UP_MS);
  }

  /** The winner (or a draw, or a void) over the board for `WINNER_MS`, then the next. */
  crown({ result, status }) {
    const box = this.parts.winner, names = this.info ? this.info.players || [] : [];
    const players = this.live && this.live.replay.head ? this.live.replay.head.players : names;
    box.textContent = "";
    const w = result && result.winner != null ? result.winner : null;
    if (w !== null) {
      icon(el("span", "screen-crown", box), "crown");
      const name = el("p", "screen-winner-name", box, players[w] || "");
      name.style.color = palette(w);
      el("p", "screen-winner-note", box, "wins");
    } else {
      el("p", "screen-winner-name", box, status === "voided" ? "Voided" : "A draw");
      el("p", "screen-winner-note", box, status === "voided" ? "this match does not count"
        : "after " + (result ? result.turns : "?") + " turns");
    }
    box.hidden = false;
    clearTimeout(this.winnerTimer);
    this.winnerTimer = setTimeout(() => {
      this.phase = "after";
      box.hidden = true;
      this.poll();
    }, WINNER_MS);
  }
}

if (typeof document !== "undefined") {
  const root = document.querySelector("[data-screen]");
  if (root) new Screen(root).start();
}
