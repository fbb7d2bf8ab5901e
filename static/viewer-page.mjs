/* The viewer's own page (/viewer): a game from a local file (the file input, or dropped
 * on the page; read in the browser, never uploaded) or from this site (`?replay=URL`).
 * The viewer shown is `window.bottleBatsViewer`; the page's root carries `data-loaded`
 * (the file's name), `data-read-ms` (reading and parsing it) and `data-open-ms` (until
 * its first frame is painted). */

import { viewerFor } from "./viewer/viewer.mjs";
import { parse, readFile, fetchText } from "./viewer/replay.mjs";

class ViewerPage {
  constructor(root) {
    this.root = root;
    this.target = root.querySelector("[data-viewer]");
    this.status = root.querySelector("[data-viewer-status]");
    this.empty = root.querySelector("[data-viewer-empty]");
    this.viewer = null;
    this.first = true;
  }

  /** A line in the status box (`kind`: "info" or "error"); none when `text` is empty. */
  say(kind, text) {
    this.status.textContent = text;
    this.status.className = text ? "alert " + kind : "";
    this.status.hidden = !text;
  }

  /** Shows `replay` (read from `name` since `started`) in place of the game shown. */
  show(replay, name, started) {
    const root = this.root, target = this.target;
    if (this.viewer) this.viewer.destroy();
    root.removeAttribute("data-open-ms");
    // Reading and parsing the file, then the rest: building and the first frame.
    root.setAttribute("data-read-ms", (performance.now() - started).toFixed(0));
    // The address's #t= applies to the first game opened; later ones start at 0.
    const opts = this.first ? {} : { turn: 0 };
    this.first = false;
    target.hidden = false;
    if (this.empty) this.empty.hidden = true;
    this.viewer = viewerFor(target, replay, opts);
    root.setAttribute("data-loaded", name);
    window.bottleBatsViewer = this.viewer;
    target.addEventListener("viewerready", () => {
      root.setAttribute("data-open-ms", (performance.now() - started).toFixed(0));
      this.say("", "");
    }, { once: true });
    // The game in view, its board as large as the window lets it be (a round 6-player
    // map on a laptop's screen is not drawn a third of the window high).
    target.scrollIntoView({ block: "start" });
    this.viewer.fit();
  }

  /** Opens a local `File`. */
  open(file) {
    if (!file) return;
    const started = performance.now();
    this.say("info", "Opening " + file.name + "…");
    readFile(file).then(
      (replay) => this.show(replay, file.name, started),
      (e) => this.say("error", file.name + ": " + e.message),
    );
  }

  /** The file input, and files dropped on the page's drop zone. */
  listenForFiles() {
    const input = this.root.querySelector("input[type=file]");
    const drop = this.root.querySelector("[data-viewer-drop]") || this.root;
    input.addEventListener("change", () => this.open(input.files[0]));
    drop.addEventListener("dragover", (e) => {
      e.preventDefault();
      drop.classList.add("bbv-dragging");
    });
    drop.addEventListener("dragleave", () => drop.classList.remove("bbv-dragging"));
    drop.addEventListener("drop", (e) => {
      e.preventDefault();
      drop.classList.remove("bbv-dragging");
      if (e.dataTransfer && e.dataTransfer.files.length) this.open(e.dataTransfer.files[0]);
    });
  }

  /** The game of `?replay=URL`, if given: this site's only. */
  loadFromAddress() {
    const url = new URLSearchParams(location.search).get("replay");
    if (!url) return;
    const started = performance.now();
    let abs;
    try { abs = new URL(url, location.href); } catch (e) { abs = null; }
    if (!abs || abs.origin !== location.origin) {
      this.say("error", "The viewer only loads replays from this site.");
      return;
    }
    this.say("info", "Loading the replay…");
    fetchText(abs.href)
      .then((text) => this.show(parse(text), abs.pathname, started))
      .catch((e) => this.say("error", e.message));
  }
}

for (const root of document.querySelectorAll("[data-viewer-page]")) {
  const page = new ViewerPage(root);
  page.listenForFiles();
  page.loadFromAddress();
}
