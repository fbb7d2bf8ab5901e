/* The controls under the map: buttons, the turn shown (a link to it), the scrub bar,
 * the speed, a line on what happened; the keyboard; the help under the charts.
 *
 * Buttons and keys give commands by name ("first", "back", "play", "forward", "last"),
 * which the viewer carries out (`Viewer.command`). */

import { el, icon, codeText } from "./dom.mjs";

/** Problems the caption lists in full before it counts the rest. */
const PROBLEMS_SHOWN = 3;
/** Characters of a problem's text the caption shows (all of it in its tooltip). */
const PROBLEM_CHARS = 160;

export const SPEEDS = [0.5, 1, 2, 4, 8, 16];

const BUTTONS = [
  ["first", "First turn (Home)"],
  ["back", "Step back (←)"],
  ["play", "Play (space)"],
  ["forward", "Step forward (→)"],
  ["last", "Last turn (End)"],
];

/** The view's buttons: names (its label the renderer's `words.names`), zoom, full
 *  screen. */
const TOOLS = [
  ["names", "Show the names (N)"],
  ["zoom-out", "Zoom out (−)"],
  ["zoom-in", "Zoom in (+); drag to move, Ctrl and the wheel to zoom"],
  ["fullscreen", "Full screen (F)"],
];

export class Controls {
  /** The controls of `viewer` (`command`, `lastTurn`, `scrubTo`, `setSpeed`, `speed`),
   *  added to `stage`; `on(target, type, fn)` adds a listener that the viewer removes
   *  when it goes. */
  constructor(stage, viewer, on) {
    const box = el("div", "bbv-controls", stage);
    this.box = box;
    this.buttons = {};
    this.addButtons(el("div", "bbv-buttons", box), BUTTONS, "bbv-btn", viewer, on);
    this.turnLink = el("a", "bbv-turn", box);
    this.turnLink.title = "A link to this turn";
    this.turnLabel = el("span", "bbv-turn-now", this.turnLink, "0");
    el("span", "bbv-turn-of", this.turnLink, " / " + viewer.lastTurn());
    this.range = this.scrubBar(box, viewer, on);
    this.speed = this.speedChoice(box, viewer, on);
    this.addButtons(el("div", "bbv-tools", box), TOOLS, "bbv-btn bbv-tool", viewer, on);
    const words = viewer.renderer.words, names = this.buttons.names;
    names.title = words.names;
    names.setAttribute("aria-label", words.names);
    names.setAttribute("aria-pressed", "false");
    this.events = el("p", "bbv-events", stage);
    this.events.setAttribute("aria-live", "off");
    this.problems = el("ul", "bbv-problems", stage);
    this.problems.setAttribute("aria-label", words.problems);
    this.times = el("p", "bbv-times", stage);
    /** The colour of player `p`'s name: the renderer's (`ink`). */
    this.colour = viewer.renderer.ink.bind(viewer.renderer);
  }

  /** A button per `[name, label]` of `list` in `parent`, giving the command `name`. */
  addButtons(parent, list, cls, viewer, on) {
    for (const [name, label] of list) {
      const b = el("button", cls + " bbv-" + name, parent);
      b.type = "button";
      b.title = label;
      b.setAttribute("aria-label", label);
      icon(b, name);
      on(b, "click", () => viewer.command(name));
      this.buttons[name] = b;
    }
  }

  scrubBar(parent, viewer, on) {
    const range = el("input", "bbv-range", el("div", "bbv-scrub", parent));
    range.type = "range";
    range.min = "0";
    range.max = String(viewer.lastTurn());
    range.step = "1";
    range.value = "0";
    range.setAttribute("aria-label", "Turn");
    on(range, "input", () => viewer.scrubTo(+range.value));
    return range;
  }

  speedChoice(parent, viewer, on) {
    const label = el("label", "bbv-speed", parent);
    el("span", "visually-hidden", label, "Speed");
    const select = el("select", null, label);
    const secs = Math.round(viewer.lastTurn() / viewer.turnsPerSecondAt("auto"));
    el("option", null, select, "Auto (" + secs + " s)").value = "auto";
    for (const s of SPEEDS) el("option", null, select, s + "×").value = String(s);
    select.value = String(viewer.speed());
    select.title = "Speed: Auto plays the game in about 30 s; 1× is two turns a second";
    on(select, "change", () => viewer.setSpeed(select.value, true));
    return select;
  }

  /** Turn `t` is shown; `text` says what happened in it, `problems` (`problemsAt`)
   *  what went wrong in the players' replies to it, `times` their reply times in
   *  milliseconds by player (null where none); `players` their names. */
  show(t, text, problems, players, times) {
    this.range.value = String(t);
    this.turnLabel.textContent = String(t);
    this.turnLink.setAttribute("href", "#t=" + t);
    this.events.textContent = text;
    this.problems.textContent = "";
    for (const p of (problems || []).slice(0, PROBLEMS_SHOWN)) {
      const li = el("li", "bbv-problem bbv-" + p.kind, this.problems);
      const who = el("span", "bbv-who", li, players[p.player] + ": ");
      who.style.color = this.colour(p.player);
      const cut = p.text.length > PROBLEM_CHARS;
      codeText(li, cut ? p.text.slice(0, PROBLEM_CHARS) + "…" : p.text);
      li.title = players[p.player] + ": " + p.text;
    }
    const more = (problems || []).length - PROBLEMS_SHOWN;
    if (more > 0) el("li", "bbv-problem bbv-more", this.problems, "and " + more + " more");
    this.times.textContent = "";
    const timed = (times || []).map((ms, p) => [p, ms]).filter(([, ms]) => ms !== null && ms !== undefined);
    if (timed.length) {
      el("span", "bbv-times-label", this.times, "Reply time: ");
      timed.forEach(([p, ms], i) => {
        if (i) this.times.append(", ");
        el("span", "bbv-who", this.times, players[p]).style.color = this.colour(p);
        this.times.append(" " + ms + " ms");
      });
      this.times.title = "As the server measured each reply: CPU time for a hosted bot, " +
        "the wall clock with the network for a remote one";
    }
  }

  /** The play button as it should be while playing or not. */
  setPlaying(playing) {
    const b = this.buttons.play;
    b.textContent = "";
    icon(b, playing ? "pause" : "play");
    const label = playing ? "Pause (space)" : "Play (space)";
    b.title = label;
    b.setAttribute("aria-label", label);
    b.setAttribute("aria-pressed", playing ? "true" : "false");
  }

  setSpeed(x) {
    this.speed.value = String(x);
  }

  /** A toggle button (`names`, `fullscreen`) as on or off. */
  setPressed(name, on) {
    this.buttons[name].setAttribute("aria-pressed", on ? "true" : "false");
  }
}

/** The keys, as a line of text under the charts; `words` a renderer's (`step`: what
 *  the arrows step, `tail`: the rest). */
export function help(parent, words) {
  const p = el("p", "bbv-help", parent);
  const parts = [["kbd", "Space"], ["", " plays or pauses, "], ["kbd", "←"], ["", " "],
    ["kbd", "→"], ["", " " + words.step + ", "], ["kbd", "Home"], ["", " "], ["kbd", "End"],
    ["", " jump, "], ["kbd", "F"], ["", " full screen, "], ["kbd", "N"], ["", " names, "],
    ["kbd", "+"], ["", " "], ["kbd", "−"], ["", " zoom. " + words.tail]];
  for (const [tag, text] of parts) {
    if (tag) el(tag, null, p, text);
    else p.appendChild(document.createTextNode(text));
  }
  return p;
}

/** The command a key press gives (a `keydown` event, or anything with its `key`,
 *  modifier flags and `target`), or null: keys typed into a field are the field's,
 *  and a focused scrub bar moves with the arrows, Home and End itself. */
export function keyCommand(e) {
  if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return null;
  const target = e.target, tag = target && target.tagName;
  // A focused checkbox keeps its space; other keys still command the viewer.
  const box = tag === "INPUT" && target.type === "checkbox";
  if (box && (e.key === " " || e.key === "Spacebar")) return null;
  if (tag === "INPUT" && !box && target.type !== "range" && target.type !== "file") return null;
  if (tag === "TEXTAREA" || tag === "SELECT" || (target && target.isContentEditable)) return null;
  const range = tag === "INPUT" && target.type === "range";
  switch (e.key) {
    case " ":
    case "Spacebar":
    case "k":
      return "play";
    case "ArrowRight":
      return range ? null : "forward";
    case "ArrowLeft":
      return range ? null : "back";
    case "Home":
      return range ? null : "first";
    case "End":
      return range ? null : "last";
    case "f":
    case "F":
      return "fullscreen";
    case "n":
    case "N":
      return "names";
    case "+":
    case "=":
      return "zoom-in";
    case "-":
      return "zoom-out";
    case "0":
      return "zoom-reset";
    default:
      return null;
  }
}
