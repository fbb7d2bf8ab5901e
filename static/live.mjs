/* Keeps pages up to date: a bot's record (<section data-live-section=URL>) and the
 * leaderboard. Each table of the leaderboard (<table data-live="/leaderboard/rows?...">:
 * the page shown, a search's bots, the visitor's bots with their neighbours) gets its
 * rows again every 15 s while the page is visible (and as soon as it becomes visible
 * again): only the rows it shows.
 * The server draws them, with the template the page was drawn with
 * (templates/ladder/leaderboard_rows.html), so they exist in one place; this only puts
 * the new <tbody> in place of the old. */

const REFRESH_MS = 15000;

/** The `<tbody>` of the fragment `html`, or null if it is something else. The
 *  fragment is this site's, its text escaped by the template. */
function tbodyOf(html) {
  const t = document.createElement("template");
  t.innerHTML = html;
  const body = t.content.firstElementChild;
  return body && body.tagName === "TBODY" ? body : null;
}

/** "Updated 14:03" on the page's live note, with the time to the second in its title. */
function stamp(status) {
  const now = new Date();
  const text = status.querySelector(".live-text");
  if (text) text.textContent = "Updated " + now.toTimeString().slice(0, 5);
  status.title = "Refreshed every 15 seconds while you look at it; last at " +
    now.toTimeString().slice(0, 8);
}

/** Marks the rows of the visitor's own bots (the rows are the same for everyone, so
 *  the page says who is looking: `data-me`). */
function markMine(table) {
  const me = table.getAttribute("data-me");
  if (!me) return;
  for (const tr of table.tBodies[0].rows) {
    if (tr.classList.contains("gap")) continue;
    const mine = tr.getAttribute("data-owner") === me;
    tr.classList.toggle("mine", mine);
    if (mine) tr.title = "Your bot";
  }
}

/** Every `every` ms (15 s unless said) while the page is visible (and as soon as it is
 *  visible again), fetches the server's fragment at `url` and gives its HTML to
 *  `apply`; `apply` returning true stops it. */
function keepFetching(url, apply, every = REFRESH_MS) {
  let timer = null;
  const refresh = () => {
    if (document.hidden) return;
    fetch(url, { headers: { Accept: "text/html" }, credentials: "same-origin" })
      .then((r) => (r.ok ? r.text() : null))
      .then((html) => {
        if (html !== null && apply(html) === true) {
          clearInterval(timer);
          document.removeEventListener("visibilitychange", refresh);
        }
      })
      .catch(() => {});
  };
  timer = setInterval(refresh, every);
  document.addEventListener("visibilitychange", refresh);
}

/** The leaderboard: its `<tbody>` replaced, the visitor's rows marked, the time said. */
function keepUpToDate(table) {
  const status = document.getElementById("live-status");
  keepFetching(table.getAttribute("data-live"), (html) => {
    const body = tbodyOf(html);
    if (!body) return;
    table.replaceChild(body, table.tBodies[0]);
    markMine(table);
    if (status) stamp(status);
  });
}

/** A section drawn by the server (`data-live-section`: where to get it again, every
 *  `data-live-every` ms if given), its content replaced; once it holds an element
 *  marked `data-live-done` (a challenge whose games are all played) it stays. */
function keepSectionUpToDate(section) {
  const every = Number(section.getAttribute("data-live-every")) || REFRESH_MS;
  keepFetching(section.getAttribute("data-live-section"), (html) => {
    const t = document.createElement("template");
    t.innerHTML = html;
    section.replaceChildren(t.content);
    section.setAttribute("data-updated", new Date().toISOString());
    return section.querySelector("[data-live-done]") !== null;
  }, every);
}

for (const section of document.querySelectorAll("[data-live-section]")) {
  if (!section.querySelector("[data-live-done]")) keepSectionUpToDate(section);
}

for (const table of document.querySelectorAll("table[data-live]")) {
  markMine(table);
  keepUpToDate(table);
}
