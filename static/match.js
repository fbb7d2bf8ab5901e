// The match page: loads the replay into the viewer, and shows the owner's bot's
// stderr for the turn the viewer is on (the stderr of turn t is what the bot wrote
// while it answered the state of turn t).
(function () {
  "use strict";
  var frame = document.getElementById("viewer");
  if (!frame || !window.BottleBatsViewer) return;

  var panels = Array.prototype.slice.call(document.querySelectorAll("[data-stderr]"));
  var logs = panels.map(function () { return null; });

  function show(turn) {
    panels.forEach(function (panel, i) {
      var label = panel.querySelector(".stderr-turn");
      if (label) label.textContent = "turn " + turn;
      var out = panel.querySelector(".stderr-text");
      var log = logs[i];
      if (!log) return;
      var text = [];
      for (var k = 0; k < log.length; k++) {
        if (log[k][0] === turn) text.push(log[k][1]);
      }
      out.textContent = text.length ? text.join("") : "(nothing on stderr in turn " + turn + ")";
      out.classList.toggle("quiet", !text.length);
      out.scrollTop = 0;
    });
  }

  panels.forEach(function (panel, i) {
    fetch(panel.getAttribute("data-stderr"), { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : Promise.reject(r.status); })
      .then(function (log) {
        logs[i] = log;
        show(Number(frame.getAttribute("data-turn") || 0));
      })
      .catch(function () {
        var out = panel.querySelector(".stderr-text");
        out.textContent = "(the stderr could not be loaded)";
        out.classList.add("quiet");
      });
  });

  frame.addEventListener("turnchange", function (e) { show(e.detail.turn); });
  BottleBatsViewer.fromUrl(frame, frame.getAttribute("data-replay")).catch(function (err) {
    frame.classList.add("viewer-failed");
    frame.textContent = "The replay could not be shown: " + String(err && err.message ? err.message : err);
  });
})();
