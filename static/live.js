// Keeps a table up to date: <table data-live="/api/leaderboard"> is refetched every
// 15 s while the page is visible (and as soon as it becomes visible again) and its rows
// rebuilt (text only, never HTML) exactly as templates/ladder/leaderboard.html draws
// them.
(function () {
  "use strict";
  var table = document.querySelector("table[data-live]");
  if (!table || !window.fetch) return;
  var url = table.getAttribute("data-live");
  var status = document.getElementById("live-status");

  function el(tag, cls, parent, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }

  function link(parent, href, text) {
    var a = el("a", null, parent, text);
    a.href = href;
    return a;
  }

  // As the server writes it: "2026-11-21 14:03 UTC".
  function when(unix) {
    if (!unix) return "never";
    return new Date(unix * 1000).toISOString().slice(0, 16).replace("T", " ") + " UTC";
  }

  // As the server writes it (`{:.0}%`: halves go to the even neighbour).
  function percent(wins, games) {
    if (!games) return "0%";
    var x = 100 * (wins / games), f = Math.floor(x), d = x - f;
    return (d > 0.5 || (d === 0.5 && f % 2 === 1) ? f + 1 : f) + "%";
  }

  function render(rows) {
    var body = document.createElement("tbody");
    rows.forEach(function (r) {
      var tr = el("tr", null, body);
      el("span", "rank-badge rank-" + r.rank, el("td", "rank", tr), String(r.rank));
      var bot = el("td", "bot", tr);
      link(bot, "/bots/" + encodeURIComponent(r.bot), r.bot);
      var by = el("span", "by", bot, " by ");
      link(by, "/users/" + encodeURIComponent(r.owner), r.owner);
      link(el("td", "owner", tr), "/users/" + encodeURIComponent(r.owner), r.owner);
      el("td", "language", tr, r.language);
      el("strong", null, el("td", "num rating", tr), r.rating.toFixed(2));
      el("td", "num mu-sigma", tr, r.mu.toFixed(2) + " \u00b1 " + r.sigma.toFixed(2));
      el("td", "num games", tr, String(r.games));
      el("td", "num won", tr, percent(r.wins, r.games));
      el("td", "last when", tr, when(r.last_game));
    });
    table.replaceChild(body, table.tBodies[0]);
    if (status) {
      var now = new Date();
      var text = status.querySelector(".live-text");
      if (text) text.textContent = "Updated " + now.toTimeString().slice(0, 5);
      status.title = "Refreshed every 15 seconds while you look at it; last at " + now.toTimeString().slice(0, 8);
    }
  }

  function refresh() {
    if (document.hidden) return;
    fetch(url, { headers: { Accept: "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) { if (data && data.leaderboard) render(data.leaderboard); })
      .catch(function () {});
  }
  setInterval(refresh, 15000);
  document.addEventListener("visibilitychange", refresh);
})();
