/* The big screen (`/live` and `/tournaments/N/screen`, templates/live/screen.html): a
 * channel for a projector or a phone, with nobody at the controls. It plays each
 * featured game at a human pace, the organizer's seconds a game (`/admin`), however
 * fast it was played: from its rows as they come while it is played and from the
 * stored replay after (viewer/follow.mjs; the viewer's `pace`); "Finished" and the
 * winner only when the playback reaches the end, a short result card, then the next
 * game. A game is never left mid-way.
 *
 * What comes next, `/api/live` says (asked after each game, every 5 s while there is
 * none): the ladder's featured game newer than the one shown; during a tournament
 * (the one this address keeps to, `data-tournament`, else the one running) its games
 * in order, the standings so far between them, and at the end its final standings,
 * which stay (on `/live` for `FINAL_MS`, then the ladder again).
 *
 * The page's root carries `data-state` ("idle", "waiting", "live" (being played),
 * "replay" (played already, still being shown), "ended" (the result card),
 * "standings", "final", "error"), `data-match` (the game shown), `data-turn` (the
 * turn shown) and `data-tournament` (the tournament followed).
 *
 * Each player's line under the board is the game's renderer's `scoreboard(t)` (its
 * numbers, whatever the game: forts and soldiers with the soldiers' share, gold,
 * mines, life and deaths). A reload of the page goes on with the game it showed (this
 * tab keeps where it is, `RESUME_KEY`).
 *
 * `numberWord` and `nextScreen` are pure, tested with node. */

import { follow } from "./viewer/follow.mjs";
import { el, icon, fmt } from "./viewer/dom.mjs";

/** How often `/api/live` is asked while there is no game to show. */
const ASK_MS = 5000;
/** How long the result card is shown after a game. */
const RESULT_MS = 5000;
/** How long a tournament's standings are shown between its games. */
const STANDINGS_MS = 8000;
/** How long `/live` keeps a tournament's final standings before the ladder again (its
 *  own address keeps them). */
const FINAL_MS = 5 * 60 * 1000;
/** Seconds a game, when the server says none. */
const DEFAULT_SECONDS = 45;
/** Most standings rows on the screen (the rest: on the tournament's page). */
const TABLE_ROWS = 12;

/** A number's word as the screen writes it after the number: the legend's label
 *  lowercased, an "s" less for 1 ("1 fort", "12 soldiers", "340 gold"). */
export function numberWord(label, value) {
  const word = label.toLowerCase();
  return value === 1 && word.endsWith("s") ? word.slice(0, -1) : word;
}

/** Where this tab keeps what its channel showed (`{tournament, after}`), so that a
 *  reload goes on with the game shown rather than from a tournament's first game. */
const RESUME_KEY = "bottlebats-screen:";

/** What this tab's channel at `path` showed last, or null. */
function resumed(path) {
  try {
    const v = JSON.parse(sessionStorage.getItem(RESUME_KEY + path) || "null");
    return v && Number.isInteger(v.after) ? v : null;
  } catch (e) {
    return null;
  }
}

/** Keeps `where` (`{tournament, after}`) for a reload of this tab. */
function remember(path, where) {
  try {
    sessionStorage.setItem(RESUME_KEY + path, JSON.stringify(where));
  } catch (e) {
    // Not kept: a reload starts again.
  }
}

/** What the channel shows next, from `/api/live`'s answer `info` (null when it
 *  failed) and whether it is between a tournament's games (`between`: their standings
 *  are on the screen already): "retry" (ask again soon, keeping what is shown),
 *  "final" (the tournament is over: its final standings), "between" (a tournament's
 *  next game is not there yet: the standings so far), "idle" (no game to show),
 *  "standings" (the standings so far, then the game) or "play" (the game). */
export function nextScreen(info, between) {
  if (!info) return "retry";
  const t = info.tournament || null;
  if (t && t.over) return "final";
  if (info.match == null) return t ? "between" : "idle";
  return t && t.shown > 0 && !between ? "standings" : "play";
}

/** The head's word for each state. */
const STATES = {
  idle: "", waiting: "Starting soon", live: "Live", replay: "Replay", ended: "Finished",
  voided: "Voided", standings: "Standings", final: "Final standings", error: "Reconnecting…",
};

/** "Game 5 of 24" during a tournament. */
function progressOf(info) {
  const t = info.tournament;
  if (!t || !t.total) return "";
  return t.over ? t.total + " games" : "Game " + Math.min(t.shown + 1, t.total) + " of " + t.total;
}

/** "14:03". */
function clock() {
  return new Date().toTimeString().slice(0, 5);
}

/** Points as a contest writes them: 12, 12½. */
function points(x) {
  const whole = Math.floor(x);
  if (Math.abs(x - whole - 0.5) < 1e-9) return whole === 0 ? "½" : whole + "½";
  return String(Math.round(x));
}

class Screen {
  constructor(root) {
    this.root = root;
    const part = (name) => root.querySelector("[data-screen-" + name + "]");
    this.parts = {
      event: part("event"), title: part("title"), progress: part("progress"), turn: part("turn"),
      of: part("of"), state: part("state"), status: part("status"), map: part("map"),
      players: part("players"), winner: part("winner"), link: part("link"), table: part("standings"),
      idleText: part("idle-text"), idleNote: part("idle-note"),
    };
    this.clocks = [...root.querySelectorAll("[data-screen-clock]")];
    this.site = this.parts.title.textContent;
    this.title(this.site);
    const pinned = root.getAttribute("data-tournament");
    this.pinned = pinned ? Number(pinned) : null; // the tournament this address keeps to
    this.tournament = this.pinned; // the tournament followed, or null: the ladder
    this.after = 0; // the game shown last (of the tournament followed, or the ladder's)
    // The game whose channel this is (`/live?game=NAME`; none: the default game). The
    // root's `data-game` is the game shown from then on.
    this.channel = root.getAttribute("data-game");
    const was = resumed(location.pathname + location.search);
    if (was && (this.pinned === null || was.tournament === this.pinned)) {
      this.tournament = was.tournament;
      this.after = was.after;
    }
    this.info = null;
    this.shown = null;
    this.phase = "idle";
    this.live = null; // follow's handle
    this.frame = null; // the viewer's container
    this.rows = [];
    this.timer = 0;
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
    this.ask();
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

  /** The title, its size fitted to its length (a tournament's long name fits). */
  title(text) {
    this.parts.title.textContent = text;
    this.parts.title.style.setProperty("--chars", String(Math.max(30, text.length)));
  }

  /** Does `fn` in `ms` (one thing waits at a time). */
  later(ms, fn) {
    clearTimeout(this.timer);
    this.timer = setTimeout(fn, ms);
  }

  /** Asks `/api/live` what comes after the game shown last. */
  ask() {
    clearTimeout(this.timer);
    remember(location.pathname + location.search, { tournament: this.tournament, after: this.after });
    const q = new URLSearchParams({ after: String(this.after) });
    if (this.channel) q.set("game", this.channel);
    if (this.tournament !== null) q.set("tournament", String(this.tournament));
    fetch("/api/live?" + q, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then((r) => (r.ok ? r.json() : null))
      .catch(() => null)
      .then((info) => this.decide(info));
  }

  decide(info) {
    const t = info && info.tournament;
    if (t && t.id !== this.tournament) {
      // A tournament began: the channel shows its games from its first (which the
      // server answered with, asked without it).
      this.tournament = t.id;
      this.after = 0;
    }
    switch (nextScreen(info, this.phase === "between")) {
      case "retry": this.later(ASK_MS, () => this.ask()); break;
      case "final": this.final(info); break;
      case "between":
        this.standings(info, "between");
        this.later(ASK_MS, () => this.ask());
        break;
      case "idle":
        this.idle(info);
        this.later(ASK_MS, () => this.ask());
        break;
      case "standings":
        this.standings(info, "standings");
        this.later(STANDINGS_MS, () => this.begin(info));
        break;
      default: this.begin(info);
    }
  }

  /** Nothing is being played: the ladder may be paused by its organizers (`info`,
   *  the channel's answer, says so). */
  idle(info) {
    const paused = !!(info && info.paused);
    this.parts.idleText.textContent = paused ? "The ladder is paused" : "No match is being played right now";
    this.parts.idleNote.textContent = paused
      ? "The organizers paused it: no new matches are played until they resume it."
      : "The next one will show here by itself.";
    this.stop();
    this.shown = null;
    this.phase = "idle";
    this.root.removeAttribute("data-match");
    this.root.removeAttribute("data-turn");
    this.parts.event.textContent = "";
    this.title(this.site);
    this.parts.progress.textContent = "";
    this.parts.link.textContent = "";
    this.setState("idle");
  }

  /** Stops following the game shown and clears its board. */
  stop() {
    this.parts.winner.hidden = true;
    this.parts.table.hidden = true;
    if (this.live) this.live.close();
    if (this.live && this.live.viewer) this.live.viewer.destroy();
    if (this.frame) this.frame.remove();
    this.live = null;
    this.frame = null;
    this.parts.players.textContent = "";
    this.rows = [];
  }

  /** The title, the tournament and its progress, the link to the game's page. */
  heading(info) {
    this.info = info;
    const t = info.tournament;
    if (t) this.root.setAttribute("data-tournament", String(t.id));
    else this.root.removeAttribute("data-tournament");
    this.parts.event.textContent = t ? t.name : this.site;
    this.title(info.title || (t ? t.name : this.site));
    this.parts.progress.textContent = progressOf(info);
    this.parts.link.textContent = location.host + (info.page || (t ? t.url : ""));
  }

  /** Plays game `info.match` at the channel's pace. */
  begin(info) {
    this.stop();
    this.shown = info.match;
    this.phase = "playing";
    this.root.setAttribute("data-match", String(info.match));
    this.root.setAttribute("data-turn", "0");
    this.heading(info);
    this.parts.turn.textContent = "–";
    this.parts.of.textContent = "";
    this.players(info.players || []);
    this.setState("waiting");
    const frame = el("div", "screen-viewer", this.parts.map);
    this.frame = frame;
    frame.addEventListener("turnchange", (e) => {
      this.showTurn(e.detail.viewer, e.detail.turn);
      this.atEnd();
    });
    frame.addEventListener("livestatus", (e) => {
      if (this.phase !== "playing") return;
      // Played already, still being shown: a replay until its last turn is.
      const state = e.detail.state === "ended" ? "replay" : e.detail.state;
      this.setState(state);
    });
    frame.addEventListener("liveend", () => this.atEnd());
    this.live = follow(frame, info.turns || "/matches/" + info.match + "/turns", {
      status: this.parts.status,
      viewer: {
        hash: false, keyboard: false, chrome: false, turn: 0, autoplay: true,
        pace: info.seconds || DEFAULT_SECONDS,
      },
    });
  }

  /** Once the game is over and its last turn shown (or it was voided unseen): the
   *  result card. */
  atEnd() {
    const live = this.live;
    if (this.phase !== "playing" || !live || live.state !== "ended") return;
    const v = live.viewer;
    if (v && v.turn() < v.lastTurn()) return;
    this.phase = "result";
    this.after = this.shown;
    this.setState("ended", live.status);
    if (v) this.showTurn(v, v.turn());
    this.crown({ result: live.result, status: live.status });
    this.later(RESULT_MS, () => this.ask());
  }

  /** A line per player: its name (in its colour once the game is drawn), its numbers
   *  at the turn shown, and a bar of its share where the game has one. */
  players(names) {
    const list = this.parts.players;
    list.textContent = "";
    list.style.setProperty("--n", String(Math.max(names.length, 2)));
    // Long names get a smaller size, so that what tells them apart (the end of
    // `vin-miner`, `vin-fighter`) is not cut off; short ones keep theirs.
    list.style.setProperty("--chars", String(Math.max(8, ...names.map((n) => n.length))));
    list.setAttribute("data-count", String(names.length));
    this.rows = names.map((name) => {
      const li = el("li", "screen-player", list);
      li.setAttribute("data-player", name);
      const who = el("div", "screen-who", li);
      const swatch = el("span", "screen-swatch", who);
      const label = el("span", "screen-name", who, name);
      label.title = name;
      const score = el("div", "screen-score", li);
      return { li, swatch, label, score, numbers: [], bar: null, key: "" };
    });
  }

  /** Row `row` in `colour`, with a pair of elements per number of `numbers` and a
   *  share bar if `share` is a number: built once, the first turn drawn. */
  shape(row, colour, numbers, share) {
    row.li.style.setProperty("--colour", colour);
    row.swatch.style.background = colour;
    row.label.style.color = colour;
    row.score.textContent = "";
    row.numbers = numbers.map(([label]) => {
      const value = el("b", null, row.score, "–");
      const word = el("span", null, row.score, " " + label.toLowerCase());
      value.setAttribute("data-number", label.toLowerCase());
      return { value, word };
    });
    if (row.bar) row.bar.parentNode.remove();
    row.bar = null;
    if (typeof share === "number") {
      row.bar = el("span", "screen-bar", el("div", "screen-share", row.li));
      row.bar.style.background = colour;
    }
  }

  /** The turn shown by the viewer: its number, and each player's score at it. */
  showTurn(viewer, t) {
    if (!viewer || this.frame !== viewer.container) return;
    const r = viewer.replay;
    // The numbers for the screen (some are the legend's only).
    const board = viewer.scoreboard(t).map((s) => ({ ...s, numbers: s.numbers.filter((n) => n[2] !== "legend") }));
    this.root.setAttribute("data-turn", String(t));
    this.root.setAttribute("data-game", viewer.game.name);
    this.parts.turn.textContent = String(t);
    const limit = viewer.renderer.plannedTurns();
    this.parts.of.textContent = limit ? "of " + limit : "";
    if (this.rows.length !== r.players.length) this.players(r.players);
    board.forEach((s, p) => {
      const row = this.rows[p];
      if (row.numbers.length !== s.numbers.length) this.shape(row, s.colour, s.numbers, s.share);
      const key = s.numbers.map((n) => n[1]).join("/") + "/" + s.out + "/" + s.winner;
      if (row.key === key) return;
      row.key = key;
      s.numbers.forEach(([label, value], i) => {
        row.numbers[i].value.textContent = fmt(value);
        row.numbers[i].word.textContent = " " + numberWord(label, value);
      });
      if (row.bar) row.bar.style.width = (100 * s.share).toFixed(1) + "%";
      row.li.classList.toggle("is-out", s.out);
      row.li.classList.toggle("is-winner", s.winner);
    });
  }

  /** The winner (or a draw, or a void) over the board, in the winner's colour. */
  crown({ result, status }) {
    const box = this.parts.winner, names = this.info ? this.info.players || [] : [];
    const v = this.live && this.live.viewer;
    const board = v ? v.scoreboard(v.lastTurn()) : names.map((name) => ({ name, colour: "" }));
    box.textContent = "";
    // The renderer's word on the result (each game's own), else the server's.
    const said = v && result ? v.renderer.result() : null;
    const w = said ? said.winner : result && result.winner != null ? result.winner : null;
    if (w !== null) {
      icon(el("span", "screen-crown", box), "crown");
      const name = el("p", "screen-winner-name", box, board[w] ? board[w].name : "");
      if (board[w]) name.style.color = board[w].colour;
      el("p", "screen-winner-note", box, "wins");
      // A surprising result says why: who went out for something its bot did.
      const fell = board.filter((s, p) => p !== w && s.out && s.note && !/^out at /.test(s.note));
      if (fell.length) {
        const list = el("ul", "screen-winner-why", box);
        for (const s of fell.slice(0, 4)) el("li", "", list, s.name + ": " + s.note);
      }
    } else {
      el("p", "screen-winner-name", box, status === "voided" ? "Voided" : "A draw");
      el("p", "screen-winner-note", box, status === "voided" ? "this match does not count"
        : said ? said.text.replace(/^A draw /, "") : result && result.turns ? "after " + result.turns + " turns" : "");
    }
    box.hidden = false;
  }

  /** A tournament's standings over the board: so far (`phase` "standings" before its
   *  next game, "between" while that is not there yet) or final ("final"). */
  standings(info, phase) {
    this.stop();
    this.phase = phase;
    this.shown = null;
    this.root.removeAttribute("data-match");
    this.root.removeAttribute("data-turn");
    const t = info.tournament;
    this.heading(info);
    this.title(phase === "final" ? "Final standings" : "Standings");
    this.parts.progress.textContent = phase === "final" ? progressOf(info) : "";
    this.parts.link.textContent = location.host + t.url;
    this.setState(phase === "final" ? "final" : "standings");
    const box = this.parts.table;
    box.textContent = "";
    box.setAttribute("data-phase", phase);
    el("h2", "screen-table-title", box, phase === "final" ? t.name + ": final standings"
      : "After " + t.shown + (t.shown === 1 ? " game" : " games") + " of " + t.total);
    const rows = t.standings || [];
    const list = el("ol", "screen-table", box);
    const shownRows = rows.slice(0, TABLE_ROWS);
    list.style.setProperty("--rows", String(Math.max(shownRows.length, 4)));
    shownRows.forEach((r, i) => {
      const li = el("li", "screen-table-row" + (i === 0 && phase === "final" ? " is-winner" : ""), list);
      li.setAttribute("data-bot", r.bot);
      el("span", "screen-table-place", li, String(i + 1));
      el("span", "screen-table-bot", li, r.bot);
      el("span", "screen-table-points", li, points(r.points));
      el("span", "screen-table-games", li, r.games + (r.games === 1 ? " game" : " games"));
    });
    if (rows.length > shownRows.length) {
      el("p", "screen-table-more", box, "and " + (rows.length - shownRows.length) + " more at " + location.host + t.url);
    }
    const next = phase === "standings" && info.players ? "Next: " + info.players.join(" vs ")
      : phase === "between" ? "The next game starts soon" : "";
    if (next) el("p", "screen-table-next", box, next);
    box.hidden = false;
  }

  /** The tournament is over: its final standings, which stay (on `/live`, for
   *  `FINAL_MS`; then the ladder again). */
  final(info) {
    this.standings(info, "final");
    if (this.pinned === null) {
      this.later(FINAL_MS, () => {
        this.tournament = null;
        this.after = 0;
        this.ask();
      });
    }
  }
}

if (typeof document !== "undefined") {
  const root = document.querySelector("[data-screen]");
  if (root) new Screen(root).start();
}
