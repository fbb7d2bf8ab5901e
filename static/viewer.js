/* Bottle Bats replay viewer. Plain JavaScript, no dependencies, no build step.
 *
 *   const viewer = new BottleBatsViewer(container, replay, options);
 *
 * `replay` is our JSON replay (format `bottlebats-replay`, version 1, see
 * engine/src/replay.rs), already parsed, or the result of
 * `BottleBatsViewer.parse(text)`, which also reads a classic log (`# STEP: n`).
 *
 * Options: `turn` (to open at), `hash` (keep `#t=N` in the address: true by default),
 * `keyboard` (space, arrows, Home/End on the document: true by default), `speed`
 * (0.5 to 16, 1 = two turns a second), `autoplay`.
 *
 * API: `turn()`, `lastTurn()`, `goTo(t)`, `step(d)`, `play()`, `pause()`, `toggle()`,
 * `playing()`, `speed()`, `setSpeed(x)`, `destroy()`, `replay`, `timing`.
 * Events on the container: `turnchange` (detail `{turn, viewer}`) each time the turn
 * shown changes, `viewerready` (detail `{viewer, ms}`) once the first frame is drawn.
 * The container carries `data-turn`, and `data-ready` once drawn. Every fort is a
 * `g.bbv-fort` with `data-fort` (its name), `data-owner` (a player name or `neutral`)
 * and `data-garrison`.
 *
 * Static helpers: `BottleBatsViewer.parse(text)`, `parseClassicLog(text)`,
 * `readFile(file)` (a promise of the replay, gzip included), `fromUrl(container, url,
 * options)` (a promise of the viewer), `palette(i)`.
 */
(function () {
  "use strict";

  var SVG = "http://www.w3.org/2000/svg";
  var TURNS_PER_SECOND = 2;
  var SPEEDS = [0.5, 1, 2, 4, 8, 16];
  var NEUTRAL_FILL = "#8e97a6";
  var PALETTE = [
    "#e8505b", "#3b8fe0", "#3cb56c", "#f2a531",
    "#9b6ce0", "#1fb5b0", "#ee76b0", "#b38b4d",
  ];

  /** The colour of player `i`: eight chosen ones, then spread around the wheel. */
  function palette(i) {
    if (i < 0) return NEUTRAL_FILL;
    if (i < PALETTE.length) return PALETTE[i];
    var hue = Math.round((i * 137.508 + 20) % 360);
    return "hsl(" + hue + ", 62%, 58%)";
  }

  function el(tag, cls, parent, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }

  function svg(tag, attrs, parent) {
    var e = document.createElementNS(SVG, tag);
    if (attrs) for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }

  function icon(parent, d, stroke) {
    var s = svg("svg", { viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false" }, parent);
    var attrs = { d: d };
    if (stroke) {
      attrs.fill = "none";
      attrs.stroke = "currentColor";
      attrs["stroke-width"] = "2.4";
      attrs["stroke-linecap"] = "round";
      attrs["stroke-linejoin"] = "round";
    } else {
      attrs.fill = "currentColor";
    }
    svg("path", attrs, s);
    return s;
  }

  var ICONS = {
    first: ["M5 5h2.6v14H5zM19.5 5.2v13.6L9 12z", false],
    back: ["M15 5.5 8.5 12l6.5 6.5", true],
    play: ["M8 5.2v13.6L19 12z", false],
    pause: ["M6.8 5h3.6v14H6.8zM13.6 5h3.6v14h-3.6z", false],
    forward: ["M9 5.5l6.5 6.5L9 18.5", true],
    last: ["M19 5h-2.6v14H19zM4.5 5.2v13.6L15 12z", false],
  };

  function fmt(n) {
    return Math.round(n).toLocaleString("en-US");
  }

  /** `ceil(sqrt(dx² + dy²))` in integers, as the engine computes road lengths. */
  function roadLength(ax, ay, bx, by) {
    var d2 = (ax - bx) * (ax - bx) + (ay - by) * (ay - by);
    var s = Math.floor(Math.sqrt(d2));
    while (s * s < d2) s++;
    while (s > 0 && (s - 1) * (s - 1) >= d2) s--;
    return s;
  }

  // ---------------------------------------------------------------------------
  // Reading replays and classic logs

  /** Our JSON replay or a classic log, as a replay object; throws with a reason. */
  function parse(text) {
    var start = text.replace(/^\uFEFF/, "").trimStart();
    if (start.charAt(0) === "{") {
      var r;
      try {
        r = JSON.parse(start);
      } catch (e) {
        throw new Error("This is not valid JSON: " + e.message);
      }
      return checkReplay(r);
    }
    if (/^#\s*STEP:/m.test(start) || /^\s*(\d+|\?)\s+\S+:\s*$/m.test(start)) {
      return parseClassicLog(start);
    }
    throw new Error("This is neither a Bottle Bats JSON replay nor a classic log (# STEP: n).");
  }

  function checkReplay(r) {
    if (!r || r.format !== "bottlebats-replay") {
      throw new Error("This JSON is not a Bottle Bats replay (its format is not bottlebats-replay).");
    }
    if (r.version !== 1) {
      throw new Error("This replay is version " + r.version + "; this viewer reads version 1.");
    }
    if (!r.map || !Array.isArray(r.map.forts) || !Array.isArray(r.map.roads) ||
        !Array.isArray(r.turns) || !r.turns.length || !Array.isArray(r.players)) {
      throw new Error("This replay is incomplete: it needs a map, players and turns.");
    }
    return r;
  }

  /** A classic log (`# STEP: n`, then forts, roads and marches) as a replay object.
   *  Written for speed: a 500-turn log of 100 forts is some 250,000 lines, so lines are
   *  scanned in place (indexOf, startsWith) rather than split into strings. */
  function parseClassicLog(text) {
    var forts = [], fortIndex = new Map();
    var roads = [], roadIndex = new Map();
    var players = [], playerIndex = new Map();
    var turns = [];
    var cur = null, t = -1;
    var section = -1, left = 0, open = false, roadsKnown = false, fortAt = 0;
    var n = -1;

    function fail(why) {
      throw new Error("Line " + (n + 1) + " of the log: " + why);
    }
    function newStep() {
      // A snapshot lists every fort; starting from the previous one keeps a fort
      // a log leaves out where it was.
      cur = {
        owners: cur ? cur.owners.slice() : [],
        garrisons: cur ? cur.garrisons.slice() : [],
        marches: [],
        events: {},
      };
      turns.push(cur);
      t = turns.length - 1;
      section = -1;
      left = 0;
      open = false;
    }
    /** The whole number in `str` from `from` to `to`, without making a string. */
    function int(str, from, to) {
      var v = 0, neg = false, i = from;
      if (str.charCodeAt(i) === 45) { neg = true; i++; }
      if (i >= to) fail("a number is missing");
      for (; i < to; i++) {
        var d = str.charCodeAt(i) - 48;
        if (d < 0 || d > 9) fail("`" + str.substring(from, to) + "` is not a whole number");
        v = v * 10 + d;
      }
      return neg ? -v : v;
    }
    /** The owner named in `str` from `from` to `to`: -1 for neutral, else a player. */
    function owner(str, from, to) {
      var len = to - from;
      if (len === 7 && str.startsWith("neutral", from)) return -1;
      for (var k = 0; k < players.length; k++) {
        if (players[k].length === len && str.startsWith(players[k], from)) return k;
      }
      var name = str.substring(from, to);
      var i = playerIndex.get(name);
      if (i === undefined) {
        i = players.length;
        playerIndex.set(name, i);
        players.push(name);
      }
      return i;
    }
    /** One line of a section, from `s` to `e` in `str`, its fields one space apart. */
    function field(str, s, e) {
      var i1 = str.indexOf(" ", s), i2 = -1, i3 = -1, i4 = -1;
      if (i1 >= e) i1 = -1;
      if (i1 >= 0) { i2 = str.indexOf(" ", i1 + 1); if (i2 >= e) i2 = -1; }
      if (i2 >= 0) { i3 = str.indexOf(" ", i2 + 1); if (i3 >= e) i3 = -1; }
      if (i3 >= 0) { i4 = str.indexOf(" ", i3 + 1); if (i4 >= e) i4 = -1; }
      var more = i4 >= 0 && str.indexOf(" ", i4 + 1) >= 0 && str.indexOf(" ", i4 + 1) < e;
      if (section === 1 ? (i1 < 0 || i2 >= 0) : (i4 < 0 || more)) return false;
      if (section === 0) {
        var f = -1;
        if (fortAt < forts.length) {
          var want = forts[fortAt][0];
          if (want.length === i1 - s && str.startsWith(want, s)) f = fortAt;
        }
        if (f < 0) {
          var name = str.substring(s, i1);
          f = fortIndex.get(name);
          if (f === undefined) {
            f = forts.length;
            fortIndex.set(name, f);
            forts.push([name, int(str, i1 + 1, i2), int(str, i2 + 1, i3)]);
          }
        }
        fortAt = f + 1;
        cur.owners[f] = owner(str, i3 + 1, i4);
        cur.garrisons[f] = int(str, i4 + 1, e);
      } else if (section === 1) {
        var an = str.substring(s, i1), bn = str.substring(i1 + 1, e);
        if (roadIndex.has(an + " " + bn)) return true;
        var a = fortIndex.get(an), b = fortIndex.get(bn);
        if (a === undefined || b === undefined) fail("a road to a fort not listed");
        // The road and the direction of a march from its origin and destination.
        var r = roads.length;
        roadIndex.set(an + " " + bn, 2 * r + 1);
        roadIndex.set(bn + " " + an, 2 * r);
        roads.push([a, b, roadLength(forts[a][1], forts[a][2], forts[b][1], forts[b][2])]);
      } else {
        var rt = roadIndex.get(str.substring(s, i2));
        if (rt === undefined) fail("a march on a road not listed");
        var m = rt >> 1;
        // At snapshot t a march has `length - (t - sent)` steps left.
        cur.marches.push([m, rt & 1, owner(str, i2 + 1, i3), int(str, i3 + 1, i4),
          t - (roads[m][2] - int(str, i4 + 1, e))]);
      }
      return true;
    }

    var pos = 0, end = text.length;
    while (pos < end) {
      var nl = text.indexOf("\n", pos);
      if (nl < 0) nl = end;
      var s = pos, e = nl, c;
      pos = nl + 1;
      n++;
      while (s < e && ((c = text.charCodeAt(s)) === 32 || c === 9)) s++;
      while (e > s && ((c = text.charCodeAt(e - 1)) === 32 || c === 9 || c === 13)) e--;
      if (s === e) continue;
      if (text.charCodeAt(s) === 35) {
        if (/^#\s*STEP:/.test(text.substring(s, Math.min(e, s + 16)))) newStep();
        continue;
      }
      if (!cur) newStep();
      if (!open && left === 0) {
        var line = text.substring(s, e);
        var head = /^(\d+|\?)\s+\S+:$/.exec(line);
        if (!head) fail("expected a section header like `12 forts:`, found `" + line + "`");
        section++;
        if (section > 2) {
          // A log without `# STEP:` lines: a new snapshot starts.
          newStep();
          section = 0;
        }
        open = head[1] === "?";
        left = open ? 0 : parseInt(head[1], 10);
        // Every snapshot lists the same roads: after the first, they are known.
        roadsKnown = section === 1 && !open && t > 0 && left === roads.length;
        fortAt = 0;
        continue;
      }
      if (open && e - s === 3 && text.startsWith("end", s)) {
        open = false;
        continue;
      }
      if (!open) left--;
      if (section === 1 && roadsKnown) continue;
      if (!field(text, s, e)) {
        // Not single spaces: tabs or runs of spaces, which the format allows.
        var norm = text.substring(s, e).split(/\s+/).join(" ");
        if (!field(norm, 0, norm.length)) {
          fail(section === 0 ? "a fort line is `name x y owner garrison`" : section === 1 ?
            "a road line is `fort fort`" : "a march line is `origin destination owner size steps`");
        }
      }
    }
    if (!turns.length || !forts.length) throw new Error("This log has no snapshot.");

    // Forts first listed late were unknown before; forts that change owner were taken.
    for (t = 0; t < turns.length; t++) {
      var turn = turns[t];
      for (var f = 0; f < forts.length; f++) {
        if (turn.owners[f] === undefined) { turn.owners[f] = -1; turn.garrisons[f] = 0; }
      }
      if (t > 0) {
        var before = turns[t - 1].owners, captures = [];
        for (f = 0; f < forts.length; f++) {
          if (turn.owners[f] !== before[f]) captures.push([f, before[f], turn.owners[f]]);
        }
        if (captures.length) turns[t - 1].events.captures = captures;
      }
    }
    return {
      format: "bottlebats-replay",
      version: 1,
      source: "classic log",
      map: { forts: forts, roads: roads },
      players: players,
      max_steps: turns.length - 1,
      turns: turns,
      result: null,
    };
  }

  function gunzip(bytes) {
    if (typeof DecompressionStream === "undefined") {
      return Promise.reject(new Error("This browser cannot open gzip files; unpack it first."));
    }
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Response(stream).text();
  }

  /** A promise of the replay in a local `File` (JSON, classic log, either gzipped). */
  function readFile(file) {
    return file.arrayBuffer().then(function (buf) {
      var bytes = new Uint8Array(buf);
      if (bytes[0] === 0x1f && bytes[1] === 0x8b) return gunzip(bytes);
      return new TextDecoder("utf-8").decode(bytes);
    }).then(parse);
  }

  // ---------------------------------------------------------------------------
  // Everything computed once per replay

  function precompute(r) {
    var P = r.players.length, T = r.turns.length;
    var forts = new Int32Array(T * P), soldiers = new Float64Array(T * P);
    var maxForts = 1, maxSoldiers = 1;
    for (var t = 0; t < T; t++) {
      var turn = r.turns[t], base = t * P;
      var owners = turn.owners, garrisons = turn.garrisons;
      for (var f = 0; f < owners.length; f++) {
        var o = owners[f];
        if (o >= 0) {
          forts[base + o]++;
          soldiers[base + o] += garrisons[f];
        }
      }
      var ms = turn.marches;
      for (var m = 0; m < ms.length; m++) if (ms[m][2] >= 0) soldiers[base + ms[m][2]] += ms[m][3];
      for (var p = 0; p < P; p++) {
        if (forts[base + p] > maxForts) maxForts = forts[base + p];
        if (soldiers[base + p] > maxSoldiers) maxSoldiers = soldiers[base + p];
      }
    }
    // The turn each player went out: from the replay when it says, else the first
    // turn it had neither a fort nor a march.
    var out = new Array(P).fill(null);
    var removed = r.result && r.result.removed;
    for (p = 0; p < P; p++) {
      if (removed && removed[p] != null) {
        out[p] = removed[p];
        continue;
      }
      if (removed) continue;
      for (t = 1; t < T; t++) {
        if (forts[t * P + p] === 0 && soldiers[t * P + p] === 0) {
          var none = true;
          for (m = 0; m < r.turns[t].marches.length; m++) {
            if (r.turns[t].marches[m][2] === p) { none = false; break; }
          }
          if (none) { out[p] = t; break; }
        }
      }
    }
    var winner = r.result ? r.result.winner : null;
    if (winner == null && !r.result && P > 1) {
      var alive = [];
      for (p = 0; p < P; p++) if (out[p] === null) alive.push(p);
      if (alive.length === 1) winner = alive[0];
    }
    return {
      P: P, T: T, forts: forts, soldiers: soldiers,
      maxForts: maxForts, maxSoldiers: maxSoldiers, out: out, winner: winner,
    };
  }

  // ---------------------------------------------------------------------------
  // The viewer

  function BottleBatsViewer(container, replay, options) {
    var started = performance.now();
    if (!(this instanceof BottleBatsViewer)) return new BottleBatsViewer(container, replay, options);
    if (typeof replay === "string") replay = parse(replay);
    else checkReplay(replay);
    options = options || {};
    this.container = container;
    this.replay = replay;
    this.options = {
      hash: options.hash !== false,
      keyboard: options.keyboard !== false,
    };
    this.timing = {};
    this._speed = SPEEDS.indexOf(+options.speed) >= 0 ? +options.speed : 1;
    this._tau = 0;
    this._shown = -1;
    this._playing = false;
    this._raf = 0;
    this._listeners = [];
    this._live = new Map();
    this._free = [];
    this._stamp = 0;
    this._flashes = [];
    this._hashTimer = 0;

    this.stats = precompute(replay);
    this._geometry();
    this._roadGeometry();
    this._build();
    this.timing.buildMs = performance.now() - started;

    var t = options.turn;
    if (t == null && this.options.hash) t = hashTurn();
    this._render(clampTurn(t == null ? 0 : t, this.lastTurn()));
    container.setAttribute("data-turn", String(this.turn()));

    var self = this;
    requestAnimationFrame(function () {
      // After this frame is painted: the viewer is ready.
      setTimeout(function () {
        if (!self.container) return;
        self.timing.readyMs = performance.now() - started;
        container.setAttribute("data-ready", "1");
        container.dispatchEvent(new CustomEvent("viewerready", {
          bubbles: true, detail: { viewer: self, ms: self.timing.readyMs },
        }));
      }, 0);
    });
    if (options.autoplay) this.play();
  }

  function clampTurn(t, last) {
    t = Math.round(+t);
    if (!isFinite(t)) t = 0;
    return Math.max(0, Math.min(last, t));
  }

  function hashTurn() {
    var m = /(?:^#|&)t=(\d+)/.exec(location.hash);
    return m ? parseInt(m[1], 10) : null;
  }

  var V = BottleBatsViewer.prototype;

  V.turn = function () { return this._shown; };
  V.lastTurn = function () { return this.replay.turns.length - 1; };
  V.playing = function () { return this._playing; };
  V.speed = function () { return this._speed; };

  V.goTo = function (t) {
    this._render(clampTurn(t, this.lastTurn()));
    this._saveHash(false);
  };

  V.step = function (d) {
    this.pause();
    this.goTo(this._shown + (d || 1));
  };

  V.play = function () {
    if (this._playing) return;
    if (this._shown >= this.lastTurn()) this._render(0);
    this._playing = true;
    this._updatePlayButton();
    var self = this, prev = null;
    var frame = function (now) {
      if (!self._playing) return;
      if (prev !== null) {
        var dt = Math.min(now - prev, 250);
        var tau = self._tau + dt / 1000 * TURNS_PER_SECOND * self._speed;
        if (tau >= self.lastTurn()) {
          self._render(self.lastTurn());
          self.pause();
          return;
        }
        self._render(tau);
      }
      prev = now;
      self._raf = requestAnimationFrame(frame);
    };
    this._raf = requestAnimationFrame(frame);
  };

  V.pause = function () {
    if (!this._playing) return;
    this._playing = false;
    cancelAnimationFrame(this._raf);
    // Paused on a turn, never between two.
    this._render(Math.round(this._tau));
    this._updatePlayButton();
    this._saveHash(true);
  };

  V.toggle = function () {
    if (this._playing) this.pause();
    else this.play();
  };

  V.setSpeed = function (x) {
    x = +x;
    if (SPEEDS.indexOf(x) < 0) return;
    this._speed = x;
    this.ui.speed.value = String(x);
  };

  V.destroy = function () {
    this.pause();
    clearTimeout(this._hashTimer);
    this._listeners.forEach(function (l) { l[0].removeEventListener(l[1], l[2]); });
    this._listeners = [];
    this.container.removeAttribute("data-turn");
    this.container.removeAttribute("data-ready");
    this.container.textContent = "";
    this.container = null;
  };

  V._on = function (target, type, fn) {
    target.addEventListener(type, fn);
    this._listeners.push([target, type, fn]);
  };

  V._saveHash = function (now) {
    if (!this.options.hash) return;
    var self = this;
    clearTimeout(this._hashTimer);
    var write = function () {
      if (!self.container) return;
      var want = "#t=" + self._shown;
      if (location.hash !== want) {
        history.replaceState(history.state, "", location.pathname + location.search + want);
      }
    };
    // Scrubbing sends many changes: write the last one (browsers limit how often).
    if (now) write();
    else this._hashTimer = setTimeout(write, 120);
  };

  // Geometry: a view box around the forts, sizes from the closest pair of forts.
  V._geometry = function () {
    var forts = this.replay.map.forts;
    var minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (var i = 0; i < forts.length; i++) {
      minX = Math.min(minX, forts[i][1]); maxX = Math.max(maxX, forts[i][1]);
      minY = Math.min(minY, forts[i][2]); maxY = Math.max(maxY, forts[i][2]);
    }
    if (!forts.length) { minX = minY = 0; maxX = maxY = 1; }
    var span = Math.max(maxX - minX, maxY - minY, 1);
    var closest = Infinity;
    if (forts.length <= 2000) {
      for (i = 0; i < forts.length; i++) {
        for (var j = i + 1; j < forts.length; j++) {
          var dx = forts[i][1] - forts[j][1], dy = forts[i][2] - forts[j][2];
          var d = dx * dx + dy * dy;
          if (d > 0 && d < closest) closest = d;
        }
      }
    }
    closest = isFinite(closest) ? Math.sqrt(closest) : span / 10;
    // A fort's radius: big enough to read its garrison, never touching a neighbour.
    var R = Math.min(closest * 0.42, span / 14);
    R = Math.max(R, span / 90);
    var pad = R * 2.2;
    this.geo = {
      R: R,
      box: [minX - pad, minY - pad, maxX - minX + 2 * pad, maxY - minY + 2 * pad],
    };
  };

  V._build = function () {
    var self = this, r = this.replay, st = this.stats, R = this.geo.R;
    var c = this.container;
    c.textContent = "";
    c.classList.add("bbv");
    var ui = this.ui = {};

    // Heading: what game this is.
    var head = el("div", "bbv-head", c);
    var summary = el("p", "bbv-summary", head);
    summary.textContent = r.players.length + " players · " + r.map.forts.length + " forts · " +
      this.lastTurn() + " turns" + (r.source ? " · from a " + r.source : "");
    var result = el("p", "bbv-result", head);
    if (st.winner != null) {
      var crown = el("span", "bbv-winner", result);
      icon(crown, "M3 8l4.5 4L12 5l4.5 7L21 8l-2 11H5z", false);
      el("span", null, crown, r.players[st.winner] + " wins");
    } else if (r.result) {
      result.textContent = "A draw after " + r.result.turns + " turns";
    } else {
      result.textContent = "";
    }

    var body = el("div", "bbv-body", c);
    var stage = el("div", "bbv-stage", body);
    var mapBox = el("div", "bbv-map", stage);
    var box = this.geo.box;
    var root = svg("svg", {
      viewBox: box.join(" "), role: "img", "class": "bbv-svg",
      "aria-label": "The map at the current turn",
    }, mapBox);
    this.ui.svg = root;
    // Three stacked drawings of the same box: roads; marches and flashes, which move
    // every frame; forts, which change once a turn. Each is painted on its own, so a
    // frame between two turns repaints only the marches.
    var layer = function (cls) {
      return svg("svg", { viewBox: box.join(" "), "class": "bbv-layer " + cls, "aria-hidden": "true" }, mapBox);
    };
    var moving = layer("bbv-moving"), top = layer("bbv-top");

    var gRoads = svg("g", { "class": "bbv-roads", "stroke-width": (R * 0.16).toFixed(3) }, root);
    var forts = r.map.forts;
    this._roads = r.map.roads.map(function (rd) {
      var a = forts[rd[0]], b = forts[rd[1]];
      var line = svg("line", { x1: a[1], y1: a[2], x2: b[1], y2: b[2], stroke: "#44557a" }, gRoads);
      return { el: line, owner: -2 };
    });
    this._gMarches = svg("g", { "class": "bbv-marches" }, moving);
    this._gFlashes = svg("g", { "class": "bbv-flashes" }, moving);
    var gForts = svg("g", { "class": "bbv-forts" }, top);
    // A fort's tooltip says who holds it, written when the pointer comes to it.
    this._on(gForts, "pointerover", function (e) {
      var g = e.target.closest && e.target.closest("g.bbv-fort");
      var f = g && self._forts[+g.getAttribute("data-index")];
      if (!f) return;
      var players = self.replay.players;
      f.title.textContent = f.name + " · " + (f.owner < 0 ? "neutral" : players[f.owner]) + " · " + f.garrison + " soldiers";
    });
    var labelSize = R * 0.82;
    this._forts = forts.map(function (f, i) {
      var g = svg("g", { "class": "bbv-fort", "data-fort": f[0], "data-index": i, transform: "translate(" + f[1] + " " + f[2] + ")" }, gForts);
      var title = svg("title", null, g);
      title.textContent = f[0];
      var circle = svg("circle", { r: R.toFixed(3), "stroke-width": (R * 0.14).toFixed(3) }, g);
      var text = svg("text", { "font-size": labelSize.toFixed(3), dy: (labelSize * 0.36).toFixed(3) }, g);
      return { g: g, title: title, circle: circle, text: text, owner: -2, garrison: -1, name: f[0], index: i };
    });

    // Controls.
    var controls = el("div", "bbv-controls", stage);
    var buttons = el("div", "bbv-buttons", controls);
    function button(name, label, fn) {
      var b = el("button", "bbv-btn bbv-" + name, buttons);
      b.type = "button";
      b.title = label;
      b.setAttribute("aria-label", label);
      icon(b, ICONS[name][0], ICONS[name][1]);
      self._on(b, "click", fn);
      return b;
    }
    ui.first = button("first", "First turn (Home)", function () { self.pause(); self.goTo(0); });
    ui.back = button("back", "Step back (←)", function () { self.step(-1); });
    ui.play = button("play", "Play (space)", function () { self.toggle(); });
    ui.forward = button("forward", "Step forward (→)", function () { self.step(1); });
    ui.last = button("last", "Last turn (End)", function () { self.pause(); self.goTo(self.lastTurn()); });

    ui.turnLink = el("a", "bbv-turn", controls);
    ui.turnLink.title = "A link to this turn";
    ui.turnLabel = el("span", "bbv-turn-now", ui.turnLink, "0");
    el("span", "bbv-turn-of", ui.turnLink, " / " + this.lastTurn());

    var scrub = el("div", "bbv-scrub", controls);
    ui.range = el("input", "bbv-range", scrub);
    ui.range.type = "range";
    ui.range.min = "0";
    ui.range.max = String(this.lastTurn());
    ui.range.step = "1";
    ui.range.value = "0";
    ui.range.setAttribute("aria-label", "Turn");
    this._on(ui.range, "input", function () { self._scrubTo(+ui.range.value); });

    var speedLabel = el("label", "bbv-speed", controls);
    el("span", "visually-hidden", speedLabel, "Speed");
    ui.speed = el("select", null, speedLabel);
    SPEEDS.forEach(function (s) {
      var o = el("option", null, ui.speed, s + "×");
      o.value = String(s);
    });
    ui.speed.value = String(this._speed);
    ui.speed.title = "Speed (1× is two turns a second)";
    this._on(ui.speed, "change", function () { self.setSpeed(ui.speed.value); });

    ui.events = el("p", "bbv-events", stage);
    ui.events.setAttribute("aria-live", "off");

    // Side: legend and charts.
    var side = el("div", "bbv-side", body);
    var legend = el("table", "bbv-legend", side);
    var thead = el("thead", null, legend);
    var hr = el("tr", null, thead);
    el("th", null, hr, "Player");
    el("th", "num", hr, "Forts");
    el("th", "num", hr, "Soldiers");
    var tbody = el("tbody", null, legend);
    this._legend = r.players.map(function (name, p) {
      var tr = el("tr", null, tbody);
      tr.setAttribute("data-player", name);
      var who = el("div", "bbv-who", el("td", null, tr));
      var sw = svg("svg", { "class": "bbv-swatch", viewBox: "0 0 10 10", "aria-hidden": "true" }, who);
      svg("circle", { cx: 5, cy: 5, r: 5, fill: palette(p) }, sw);
      var nm = el("span", "bbv-name", who, name);
      nm.title = name;
      if (st.winner === p) {
        var badge = el("span", "bbv-badge", who, "winner");
        badge.title = "The winner";
      }
      var status = el("span", "bbv-out", who, "");
      var fortsTd = el("td", "num", tr, "0");
      var soldiersTd = el("td", "num", tr, "0");
      return { tr: tr, forts: fortsTd, soldiers: soldiersTd, status: status, f: -1, s: -1, out: null };
    });

    ui.charts = el("div", "bbv-charts", side);
    this._charts = [
      this._chart(ui.charts, "Soldiers", st.soldiers, st.maxSoldiers),
      this._chart(ui.charts, "Forts", st.forts, st.maxForts),
    ];

    var help = el("p", "bbv-help", side);
    [["kbd", "Space"], ["", " plays or pauses, "], ["kbd", "←"], ["", " "], ["kbd", "→"],
      ["", " step, "], ["kbd", "Home"], ["", " "], ["kbd", "End"],
      ["", " jump. Click a chart to go to that turn."]].forEach(function (p) {
      if (p[0]) el(p[0], null, help, p[1]);
      else help.appendChild(document.createTextNode(p[1]));
    });

    // Keyboard.
    if (this.options.keyboard) {
      this._on(document, "keydown", function (e) { self._key(e); });
    }
    if (this.options.hash) {
      this._on(window, "hashchange", function () {
        var t = hashTurn();
        if (t != null && t !== self._shown) { self.pause(); self._render(clampTurn(t, self.lastTurn())); }
      });
    }
    this._updatePlayButton();
  };

  V._chart = function (parent, title, series, max) {
    var self = this, P = this.stats.P, T = this.stats.T;
    var wrap = el("figure", "bbv-chart", parent);
    var cap = el("figcaption", null, wrap);
    el("span", "bbv-chart-title", cap, title);
    el("span", "bbv-chart-max", cap, "max " + fmt(max));
    var W = Math.max(T - 1, 1), H = max * 1.06;
    var plot = el("div", "bbv-plot", wrap);
    var s = svg("svg", {
      viewBox: "0 0 " + W + " " + H, preserveAspectRatio: "none", "class": "bbv-chart-svg",
      role: "img", "aria-label": title + " of each player over the game",
    }, plot);
    for (var k = 1; k < 4; k++) {
      svg("line", { x1: 0, x2: W, y1: (H * k / 4).toFixed(2), y2: (H * k / 4).toFixed(2), "class": "bbv-grid", "vector-effect": "non-scaling-stroke" }, s);
    }
    for (var p = 0; p < P; p++) {
      var pts = new Array(T);
      for (var t = 0; t < T; t++) pts[t] = t + "," + +(H - series[t * P + p]).toFixed(2);
      svg("polyline", {
        points: pts.join(" "), fill: "none", stroke: palette(p), "stroke-width": "1.6",
        "stroke-linejoin": "round", "vector-effect": "non-scaling-stroke", "class": "bbv-series",
      }, s);
    }
    // The cursor moves every frame: drawn on its own, the lines under it stay painted.
    var over = svg("svg", {
      viewBox: "0 0 " + W + " " + H, preserveAspectRatio: "none", "class": "bbv-plot-cursor", "aria-hidden": "true",
    }, plot);
    var cursor = svg("line", { x1: 0, x2: 0, y1: 0, y2: H, "class": "bbv-cursor", "vector-effect": "non-scaling-stroke" }, over);
    var axis = el("div", "bbv-axis", wrap);
    el("span", null, axis, "0");
    el("span", null, axis, String(this.lastTurn()));
    // Clicking or dragging on a chart goes to that turn.
    var seek = function (e) {
      var rect = s.getBoundingClientRect();
      var x = Math.max(0, Math.min(1, (e.clientX - rect.left) / Math.max(rect.width, 1)));
      self._scrubTo(Math.round(x * self.lastTurn()));
    };
    var dragging = false;
    this._on(s, "pointerdown", function (e) {
      dragging = true;
      if (s.setPointerCapture) s.setPointerCapture(e.pointerId);
      self.pause();
      seek(e);
    });
    this._on(s, "pointermove", function (e) { if (dragging) seek(e); });
    this._on(s, "pointerup", function () { dragging = false; });
    this._on(s, "pointercancel", function () { dragging = false; });
    return { cursor: cursor };
  };

  V._scrubTo = function (t) {
    if (this._playing) {
      this._tau = clampTurn(t, this.lastTurn());
      this._render(this._tau);
    } else {
      this.goTo(t);
    }
  };

  V._key = function (e) {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    var target = e.target, tag = target && target.tagName;
    if (tag === "INPUT" && target.type !== "range" && target.type !== "file") return;
    if (tag === "TEXTAREA" || tag === "SELECT" || (target && target.isContentEditable)) return;
    // A focused range moves with the arrows itself.
    var range = tag === "INPUT" && target.type === "range";
    switch (e.key) {
      case " ":
      case "Spacebar":
      case "k":
        this.toggle();
        break;
      case "ArrowRight":
        if (range) return;
        this.step(1);
        break;
      case "ArrowLeft":
        if (range) return;
        this.step(-1);
        break;
      case "Home":
        if (range) return;
        this.pause();
        this.goTo(0);
        break;
      case "End":
        if (range) return;
        this.pause();
        this.goTo(this.lastTurn());
        break;
      default:
        return;
    }
    e.preventDefault();
  };

  V._updatePlayButton = function () {
    var b = this.ui.play;
    var name = this._playing ? "pause" : "play";
    b.textContent = "";
    icon(b, ICONS[name][0], ICONS[name][1]);
    var label = this._playing ? "Pause (space)" : "Play (space)";
    b.title = label;
    b.setAttribute("aria-label", label);
    b.setAttribute("aria-pressed", this._playing ? "true" : "false");
  };

  /** Draws the game at time `tau` (a turn, or between two while playing). */
  V._render = function (tau) {
    var last = this.lastTurn();
    tau = Math.max(0, Math.min(last, tau));
    this._tau = tau;
    var t = Math.floor(tau);
    if (t !== this._shown) this._showTurn(t);
    this._drawMarches(tau);
    this._drawFlashes(tau);
    var x = tau.toFixed(2);
    for (var i = 0; i < this._charts.length; i++) {
      this._charts[i].cursor.setAttribute("x1", x);
      this._charts[i].cursor.setAttribute("x2", x);
    }
  };

  /** Everything that changes once a turn: forts, roads, legend, controls. */
  V._showTurn = function (t) {
    var r = this.replay, turn = r.turns[t], players = r.players, st = this.stats;
    this._shown = t;
    var owners = turn.owners, garrisons = turn.garrisons;
    for (var i = 0; i < this._forts.length; i++) {
      var f = this._forts[i], o = owners[i], g = garrisons[i];
      if (f.owner !== o) {
        f.owner = o;
        f.circle.setAttribute("fill", palette(o));
        f.g.setAttribute("data-owner", o < 0 ? "neutral" : players[o]);
        f.g.setAttribute("class", o < 0 ? "bbv-fort bbv-neutral" : "bbv-fort");
      }
      if (f.garrison !== g) {
        f.garrison = g;
        f.text.textContent = String(g);
        f.g.setAttribute("data-garrison", String(g));
      }
    }
    // A road between two forts of the same player takes a tint of their colour.
    var roads = r.map.roads;
    for (i = 0; i < this._roads.length; i++) {
      var a = owners[roads[i][0]], b = owners[roads[i][1]];
      var own = a === b && a >= 0 ? a : -1;
      var road = this._roads[i];
      if (road.owner !== own) {
        road.owner = own;
        road.el.setAttribute("stroke", own < 0 ? "#44557a" : palette(own));
        road.el.setAttribute("class", own < 0 ? "" : "bbv-owned");
      }
    }
    // Legend.
    var P = st.P;
    for (var p = 0; p < P; p++) {
      var row = this._legend[p];
      var nf = st.forts[t * P + p], ns = st.soldiers[t * P + p];
      if (row.f !== nf) { row.f = nf; row.forts.textContent = fmt(nf); }
      if (row.s !== ns) { row.s = ns; row.soldiers.textContent = fmt(ns); }
      var out = st.out[p] !== null && t >= st.out[p];
      if (row.out !== out) {
        row.out = out;
        row.tr.classList.toggle("bbv-gone", out);
        row.status.textContent = out ? "out at turn " + st.out[p] : "";
      }
    }
    // Controls.
    this.ui.range.value = String(t);
    this.ui.turnLabel.textContent = String(t);
    this.ui.turnLink.setAttribute("href", "#t=" + t);
    this.ui.events.textContent = this._describe(t);
    this.container.setAttribute("data-turn", String(t));
    this.container.dispatchEvent(new CustomEvent("turnchange", {
      bubbles: true, detail: { turn: t, viewer: this },
    }));
  };

  /** What happened in the turn that led to snapshot `t`. */
  V._describe = function (t) {
    if (t === 0) return "Turn 0: the start. Press play.";
    var ev = this.replay.turns[t - 1].events || {};
    var players = this.replay.players, forts = this.replay.map.forts;
    var parts = [];
    var battles = (ev.battles || []).length;
    if (battles) parts.push(battles + (battles === 1 ? " battle" : " battles"));
    var caps = ev.captures || [];
    if (caps.length === 1) {
      var c = caps[0];
      parts.push((c[2] < 0 ? "neutral" : players[c[2]]) + " took " + forts[c[0]][0]);
    } else if (caps.length) {
      parts.push(caps.length + " forts changed hands");
    }
    (ev.removed || []).forEach(function (x) {
      parts.push(players[x[0]] + " is out (" + x[1] + ")");
    });
    if (!ev.removed && this.replay.source) {
      for (var p = 0; p < players.length; p++) {
        if (this.stats.out[p] === t) parts.push(players[p] + " is out");
      }
    }
    var text = "Turn " + t + ": " + (parts.length ? parts.join(" · ") : "marching");
    if (t === this.lastTurn()) {
      var w = this.stats.winner;
      text += w != null ? ". " + players[w] + " wins." : this.replay.result ? ". A draw." : ". The end.";
    }
    return text;
  };

  /** The marches at time `tau`: those of snapshot floor(tau) walking on, and while
   *  between two turns, those sent in that turn leaving their forts. A march keeps its
   *  element from turn to turn (by road, direction, turn sent and owner), so a frame
   *  mostly moves elements and rarely changes their text, which is what costs. */
  V._drawMarches = function (tau) {
    var r = this.replay, t = Math.floor(tau), frac = tau - t;
    var roads = this._roadGeo, R = this.geo.R;
    var stamp = ++this._stamp, live = this._live, free = this._free;
    var keyRoads = 2 * roads.length, keyOwners = r.players.length + 1;
    var self = this;
    var place = function (m) {
      var road = roads[m[0]];
      var p = (tau - m[4]) / road.L;
      if (p <= 0 || p >= 1) return;
      var key = ((m[4] + 1e6) * keyRoads + 2 * m[0] + m[1]) * keyOwners + m[2] + 1;
      var item = live.get(key);
      if (item === undefined) {
        item = free.pop() || self._newMarch();
        live.set(key, item);
        item.g.removeAttribute("display");
      } else if (item.stamp === stamp) {
        return; // the same march twice (a malformed log): drawn once
      }
      item.stamp = stamp;
      var d = m[1] === 0 ? road.toA : road.toB;
      var x = d.x + d.dx * p, y = d.y + d.dy * p;
      item.g.setAttribute("transform", "translate(" + x.toFixed(2) + " " + y.toFixed(2) + ") rotate(" + d.angle + ")");
      if (item.owner !== m[2]) {
        item.owner = m[2];
        item.body.setAttribute("fill", palette(m[2]));
      }
      if (item.size !== m[3]) {
        item.size = m[3];
        var s = Math.min(0.34 + 0.05 * Math.sqrt(m[3]), 0.78) * R;
        item.body.setAttribute("d", "M" + (s * 1.25).toFixed(3) + " 0L" + (-s).toFixed(3) + " " + (s * 0.95).toFixed(3) + "L" + (-s * 0.55).toFixed(3) + " 0L" + (-s).toFixed(3) + " " + (-s * 0.95).toFixed(3) + "Z");
        item.label.textContent = String(m[3]);
        item.label.setAttribute("x", (-s * 0.2).toFixed(3));
        item.label.setAttribute("y", (-(s + R * 0.2)).toFixed(3));
      }
      // The size reads upright whatever the direction.
      if (item.up !== d.up) {
        item.up = d.up;
        item.label.setAttribute("transform", d.up ? "rotate(180)" : "");
      }
    };
    var ms = r.turns[t].marches;
    for (var i = 0; i < ms.length; i++) place(ms[i]);
    if (frac > 0 && t + 1 < r.turns.length) {
      var next = r.turns[t + 1].marches;
      for (i = 0; i < next.length; i++) if (next[i][4] === t) place(next[i]);
    }
    live.forEach(function (item, key) {
      if (item.stamp === stamp) return;
      item.g.setAttribute("display", "none");
      live.delete(key);
      free.push(item);
    });
  };

  /** Per road and direction: where a march starts, its way, its angle; marches keep to
   *  the right of the road, so opposite ones are told apart. */
  V._roadGeometry = function () {
    var forts = this.replay.map.forts, side = this.geo.R * 0.38;
    this._roadGeo = this.replay.map.roads.map(function (rd) {
      var a = forts[rd[0]], b = forts[rd[1]];
      var way = function (from, to) {
        var dx = to[1] - from[1], dy = to[2] - from[2];
        var len = Math.sqrt(dx * dx + dy * dy) || 1;
        var angle = Math.atan2(dy, dx);
        return {
          x: from[1] - dy / len * side, y: from[2] + dx / len * side, dx: dx, dy: dy,
          angle: (angle * 180 / Math.PI).toFixed(1), up: Math.abs(angle) > Math.PI / 2,
        };
      };
      return { L: rd[2] || 1, toA: way(b, a), toB: way(a, b) };
    });
  };

  V._newMarch = function () {
    var R = this.geo.R;
    var g = svg("g", { "class": "bbv-march" }, this._gMarches);
    var body = svg("path", { "stroke-width": (R * 0.08).toFixed(3) }, g);
    var label = svg("text", { "font-size": (R * 0.62).toFixed(3) }, g);
    return { g: g, body: body, label: label, owner: -2, size: -1, up: false, stamp: 0 };
  };

  /** Battles on the roads and forts taken: a flash that peaks when the turn after them
   *  is shown and fades over the next turn. */
  V._drawFlashes = function (tau) {
    var r = this.replay, forts = r.map.forts, roads = r.map.roads, R = this.geo.R;
    var used = 0, self = this;
    var put = function (kind, x, y, alpha, colour) {
      var f = self._flashes[used];
      if (!f) {
        f = { el: svg("circle", { r: 1 }, self._gFlashes), kind: "", hidden: false, colour: "" };
        self._flashes.push(f);
      }
      used++;
      if (f.hidden) { f.el.removeAttribute("display"); f.hidden = false; }
      if (f.kind !== kind) {
        f.kind = kind;
        f.el.setAttribute("class", "bbv-" + kind);
        f.el.setAttribute("stroke-width", (R * (kind === "capture" ? 0.24 : 0.12)).toFixed(3));
      }
      if (f.colour !== colour) { f.colour = colour; f.el.setAttribute("stroke", colour); }
      f.el.setAttribute("cx", x.toFixed(2));
      f.el.setAttribute("cy", y.toFixed(2));
      var grow = kind === "capture" ? R * (1.3 + 0.5 * (1 - alpha)) : R * (0.55 + 0.5 * (1 - alpha));
      f.el.setAttribute("r", grow.toFixed(3));
      f.el.setAttribute("opacity", alpha.toFixed(3));
    };
    var t0 = Math.max(0, Math.ceil(tau) - 2);
    for (var k = t0; k <= Math.floor(tau) && k < r.turns.length; k++) {
      var alpha = 1 - Math.abs(tau - (k + 1));
      if (alpha <= 0.02) continue;
      var ev = r.turns[k].events;
      if (!ev) continue;
      var bs = ev.battles || [];
      for (var i = 0; i < bs.length; i++) {
        var road = roads[bs[i][0]], a = forts[road[0]], b = forts[road[1]];
        var p = bs[i][1] / (2 * (road[2] || 1));
        put("battle", a[1] + (b[1] - a[1]) * p, a[2] + (b[2] - a[2]) * p, alpha * 0.9, "#ffd166");
      }
      var cs = ev.captures || [];
      for (i = 0; i < cs.length; i++) {
        var f = forts[cs[i][0]];
        put("capture", f[1], f[2], alpha, palette(cs[i][2]));
      }
    }
    for (i = used; i < this._flashes.length; i++) {
      if (this._flashes[i].hidden) continue;
      this._flashes[i].el.setAttribute("display", "none");
      this._flashes[i].hidden = true;
    }
  };

  /** Loads a replay from `url` (same site) into `container`; a promise of the viewer. */
  function fromUrl(container, url, options) {
    var started = performance.now();
    return fetch(url, { credentials: "same-origin" }).then(function (res) {
      if (!res.ok) throw new Error("The replay could not be loaded: " + res.status + " " + res.statusText + ".");
      return res.text();
    }).then(function (text) {
      var fetched = performance.now();
      var replay = parse(text);
      var v = new BottleBatsViewer(container, replay, options);
      v.timing.loadMs = fetched - started;
      return v;
    });
  }

  BottleBatsViewer.parse = parse;
  BottleBatsViewer.parseClassicLog = parseClassicLog;
  BottleBatsViewer.readFile = readFile;
  BottleBatsViewer.fromUrl = fromUrl;
  BottleBatsViewer.palette = palette;
  BottleBatsViewer.SPEEDS = SPEEDS.slice();
  window.BottleBatsViewer = BottleBatsViewer;

  // ---------------------------------------------------------------------------
  // The standalone page (/viewer): a file input, drag and drop, `?replay=URL`.

  function page(root) {
    var input = root.querySelector("input[type=file]");
    var target = root.querySelector("[data-viewer]");
    var status = root.querySelector("[data-viewer-status]");
    var drop = root.querySelector("[data-viewer-drop]") || root;
    var empty = root.querySelector("[data-viewer-empty]");
    var viewer = null, first = true;

    function say(kind, text) {
      status.textContent = text;
      status.className = text ? "alert " + kind : "";
      status.hidden = !text;
    }
    function show(replay, name, started) {
      if (viewer) viewer.destroy();
      root.removeAttribute("data-open-ms");
      // Reading and parsing the file, then the rest: building and the first frame.
      root.setAttribute("data-read-ms", (performance.now() - started).toFixed(0));
      var opts = {};
      // The address's #t= applies to the first game opened; later ones start at 0.
      if (!first) opts.turn = 0;
      first = false;
      target.hidden = false;
      if (empty) empty.hidden = true;
      viewer = new BottleBatsViewer(target, replay, opts);
      root.setAttribute("data-loaded", name);
      window.bottleBatsViewer = viewer;
      target.addEventListener("viewerready", function ready(e) {
        target.removeEventListener("viewerready", ready);
        var ms = performance.now() - started;
        root.setAttribute("data-open-ms", ms.toFixed(0));
        say("", "");
      });
    }
    function open(file) {
      if (!file) return;
      var started = performance.now();
      say("info", "Opening " + file.name + "…");
      readFile(file).then(function (replay) {
        show(replay, file.name, started);
      }, function (e) {
        say("error", file.name + ": " + e.message);
      });
    }

    input.addEventListener("change", function () { open(input.files[0]); });
    drop.addEventListener("dragover", function (e) {
      e.preventDefault();
      drop.classList.add("bbv-dragging");
    });
    drop.addEventListener("dragleave", function () { drop.classList.remove("bbv-dragging"); });
    drop.addEventListener("drop", function (e) {
      e.preventDefault();
      drop.classList.remove("bbv-dragging");
      if (e.dataTransfer && e.dataTransfer.files.length) open(e.dataTransfer.files[0]);
    });

    var url = new URLSearchParams(location.search).get("replay");
    if (url) {
      var started = performance.now();
      var abs;
      try { abs = new URL(url, location.href); } catch (e) { abs = null; }
      if (!abs || abs.origin !== location.origin) {
        say("error", "The viewer only loads replays from this site.");
        return;
      }
      say("info", "Loading the replay…");
      fetch(abs.href, { credentials: "same-origin" }).then(function (res) {
        if (!res.ok) throw new Error("The replay could not be loaded (" + res.status + ").");
        return res.arrayBuffer();
      }).then(function (buf) {
        var bytes = new Uint8Array(buf);
        if (bytes[0] === 0x1f && bytes[1] === 0x8b) return gunzip(bytes);
        return new TextDecoder("utf-8").decode(bytes);
      }).then(function (text) {
        show(parse(text), abs.pathname, started);
      }).catch(function (e) {
        say("error", e.message);
      });
    }
  }

  function init() {
    var roots = document.querySelectorAll("[data-viewer-page]");
    for (var i = 0; i < roots.length; i++) page(roots[i]);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
