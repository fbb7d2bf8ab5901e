// Keeps a table up to date: <table data-live="/api/leaderboard"> is refetched every
// 15 s while the page is visible and its rows rebuilt (text only, never HTML).
(function () {
  "use strict";
  var table = document.querySelector("table[data-live]");
  if (!table || !window.fetch) return;
  var url = table.getAttribute("data-live");

  function cell(tr, text, cls, href) {
    var td = document.createElement("td");
    if (cls) td.className = cls;
    if (href) {
      var a = document.createElement("a");
      a.href = href;
      a.textContent = text;
      td.appendChild(a);
    } else {
      td.textContent = text;
    }
    tr.appendChild(td);
    return td;
  }

  function when(unix) {
    if (!unix) return "never";
    var d = new Date(unix * 1000);
    return d.toISOString().slice(0, 16).replace("T", " ") + " UTC";
  }

  function render(rows) {
    var body = document.createElement("tbody");
    rows.forEach(function (r) {
      var tr = document.createElement("tr");
      cell(tr, String(r.rank));
      cell(tr, r.bot, null, "/bots/" + encodeURIComponent(r.bot));
      cell(tr, r.owner, null, "/users/" + encodeURIComponent(r.owner));
      cell(tr, r.language);
      var strong = document.createElement("strong");
      strong.textContent = r.rating.toFixed(2);
      cell(tr, "", "num").appendChild(strong);
      cell(tr, r.mu.toFixed(2) + " \u00b1 " + r.sigma.toFixed(2), "num");
      cell(tr, String(r.games), "num");
      cell(tr, Math.round(100 * r.win_rate) + "%", "num");
      cell(tr, when(r.last_game));
      body.appendChild(tr);
    });
    table.replaceChild(body, table.tBodies[0]);
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
