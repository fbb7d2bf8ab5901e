/* The match page: loads the replay into the viewer, and shows the owner's bot's
 * problems and stderr for the turn the viewer is on (the stderr of turn t is what the
 * bot wrote while it answered the state of turn t; its problems are those of that
 * reply, each in full). A match queued or being played (the viewer's frame has
 * `data-turns`, its stream of turns) is followed as it is played (viewer/follow.mjs,
 * its status line in the page's `[data-live-status]` if there is one), the problems of
 * the owner's bot with it (its stderr comes at the end); once it is over the page is
 * loaded again, to show the result. */

import { fromUrl } from "./viewer/viewer.mjs";
import { follow } from "./viewer/follow.mjs";
import { el, codeText } from "./viewer/dom.mjs";

/** The problems of seat `seat`'s reply to turn `turn` (as `viewer`'s renderer says
 *  them), in full, into `list`. */
function showProblems(list, viewer, seat, turn) {
  list.textContent = "";
  if (!viewer) return;
  for (const p of viewer.problems(turn).filter((p) => p.player === seat)) {
    codeText(el("li", "stderr-problem " + p.kind, list), p.text);
  }
}

/** The pieces of `log` (`[turn, text]` pairs) written in `turn`. */
function stderrOf(log, turn) {
  return log.filter((entry) => entry[0] === turn).map((entry) => entry[1]);
}

/** After a match followed live ends (and the viewer following it has shown its last
 *  turn, or at most `CATCH_UP_MS` later), the page is loaded again this late. */
const RELOAD_MS = 2000;
const CATCH_UP_MS = 8000;

/** Loads the page again once `live`'s viewer is done showing the last turns. */
function reloadWhenShown(live) {
  const until = Date.now() + CATCH_UP_MS;
  const wait = () => {
    const v = live.viewer;
    if (v && v.following() && Date.now() < until) setTimeout(wait, 250);
    else setTimeout(() => location.reload(), RELOAD_MS);
  };
  wait();
}

function start(frame) {
  const panels = [...document.querySelectorAll("[data-stderr]")];
  const logs = panels.map(() => null);

  let viewer = null;
  const show = (turn) => {
    panels.forEach((panel, i) => {
      const label = panel.querySelector(".stderr-turn");
      if (label) label.textContent = "turn " + turn;
      const list = panel.querySelector(".stderr-problems");
      if (list) showProblems(list, viewer, Number(panel.getAttribute("data-seat")), turn);
      const out = panel.querySelector(".stderr-text");
      if (!logs[i]) return;
      const text = stderrOf(logs[i], turn);
      out.textContent = text.length ? text.join("") : "(nothing on stderr in turn " + turn + ")";
      out.classList.toggle("quiet", !text.length);
      out.scrollTop = 0;
    });
  };

  const turns = frame.getAttribute("data-turns");
  panels.forEach((panel, i) => {
    const none = panel.getAttribute("data-stderr-none");
    if (none) {
      // Played where no stderr comes (a game's HTTP API): its problems still show.
      const out = panel.querySelector(".stderr-text");
      out.textContent = none;
      out.classList.add("quiet");
      return;
    }
    if (turns) {
      // Kept by the worker until the end: the page is loaded again then.
      const out = panel.querySelector(".stderr-text");
      out.textContent = "(the stderr shows here once the match is over)";
      out.classList.add("quiet");
      return;
    }
    fetch(panel.getAttribute("data-stderr"), { credentials: "same-origin" })
      .then((r) => (r.ok ? r.json() : Promise.reject(r.status)))
      .then((log) => {
        logs[i] = log;
        show(Number(frame.getAttribute("data-turn") || 0));
      })
      .catch(() => {
        const out = panel.querySelector(".stderr-text");
        out.textContent = "(the stderr could not be loaded)";
        out.classList.add("quiet");
      });
  });

  frame.addEventListener("turnchange", (e) => {
    viewer = e.detail.viewer;
    show(e.detail.turn);
  });
  if (turns) {
    const live = follow(frame, turns, { status: document.querySelector("[data-live-status]") });
    frame.addEventListener("liveend", () => reloadWhenShown(live));
    return;
  }
  // A spectator arriving at a finished match watches it from the start: the viewer's
  // result waits for the end, unless they choose to see it (or to hide the page's too).
  fromUrl(frame, frame.getAttribute("data-replay"), { hideResult: true }).catch((err) => {
    frame.classList.add("viewer-failed");
    frame.textContent = "The replay could not be shown: " + String(err && err.message ? err.message : err);
  });
}

const frame = document.getElementById("viewer");
if (frame) start(frame);
