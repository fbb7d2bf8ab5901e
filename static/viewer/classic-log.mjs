/* The classic log of 2016 (`# STEP: n`, then forts, roads and marches; games/bottlebats/rules.md §5 and
 * games/bottlebats/src/replay.rs print it), read into our replay object.
 *
 * Written for speed: a 500-turn log of 100 forts is some 250,000 lines, so lines are
 * scanned in place (indexOf, startsWith, char codes) rather than split into strings. */

import { roadLength } from "./geometry.mjs";

const SPACE = 32, TAB = 9, CR = 13, HASH = 35, MINUS = 45, ZERO = 48;
const FORTS = 0, ROADS = 1, MARCHES = 2;
/** The spaces between the fields of a line of each section. */
const SPACES = [4, 1, 4];
const SHAPES = [
  "a fort line is `name x y owner garrison`",
  "a road line is `fort fort`",
  "a march line is `origin destination owner size steps`",
];

/** A classic log as a replay object; throws with the line that is wrong and why. */
export function parseClassicLog(text) {
  const log = new ClassicLog();
  log.read(text);
  return log.replay();
}

/** Forts the log never listed at a snapshot are neutral and empty there; a fort whose
 *  owner changes from one snapshot to the next was taken in that turn (`captures` of
 *  the turn before). `turns` are changed in place. */
export function settleTurns(turns, fortCount) {
  for (let t = 0; t < turns.length; t++) {
    const turn = turns[t];
    for (let f = 0; f < fortCount; f++) {
      if (turn.owners[f] === undefined) { turn.owners[f] = -1; turn.garrisons[f] = 0; }
    }
    if (t === 0) continue;
    const before = turns[t - 1].owners, captures = [];
    for (let f = 0; f < fortCount; f++) {
      if (turn.owners[f] !== before[f]) captures.push([f, before[f], turn.owners[f]]);
    }
    if (captures.length) turns[t - 1].events.captures = captures;
  }
}

/** The reader: what it has learnt so far and where it is. */
class ClassicLog {
  constructor() {
    this.forts = []; this.fortIndex = new Map();
    this.roads = []; this.roadIndex = new Map();
    this.players = []; this.playerIndex = new Map();
    this.turns = [];
    this.cur = null; // the snapshot being read
    this.section = -1; // FORTS, ROADS or MARCHES
    this.left = 0; // lines left in a section of announced length
    this.open = false; // a section of `?` lines, up to `end`
    this.roadsKnown = false; // this section repeats the roads already read
    this.fortAt = 0; // the fort expected next, when forts come in the same order
    this.n = -1; // the line read, from 0
    this.sp = [0, 0, 0, 0]; // where the spaces of the line are
  }

  fail(why) {
    throw new Error("Line " + (this.n + 1) + " of the log: " + why);
  }

  /** Every line of `text`, trimmed of spaces and tabs, without making strings of them. */
  read(text) {
    let pos = 0, c;
    const end = text.length;
    while (pos < end) {
      let nl = text.indexOf("\n", pos);
      if (nl < 0) nl = end;
      let s = pos, e = nl;
      pos = nl + 1;
      this.n++;
      while (s < e && ((c = text.charCodeAt(s)) === SPACE || c === TAB)) s++;
      while (e > s && ((c = text.charCodeAt(e - 1)) === SPACE || c === TAB || c === CR)) e--;
      if (s < e) this.line(text, s, e);
    }
  }

  /** One line that is not blank, from `s` to `e` in `text`. */
  line(text, s, e) {
    if (text.charCodeAt(s) === HASH) {
      if (/^#\s*STEP:/.test(text.substring(s, Math.min(e, s + 16)))) this.newStep();
      return;
    }
    if (!this.cur) this.newStep();
    if (!this.open && this.left === 0) {
      this.header(text.substring(s, e));
      return;
    }
    if (this.open && e - s === 3 && text.startsWith("end", s)) {
      this.open = false;
      return;
    }
    if (!this.open) this.left--;
    if (this.section === ROADS && this.roadsKnown) return;
    if (this.entry(text, s, e)) return;
    // Not single spaces: tabs or runs of spaces, which the format allows.
    const norm = text.substring(s, e).split(/\s+/).join(" ");
    if (!this.entry(norm, 0, norm.length)) this.fail(SHAPES[this.section]);
  }

  /** A snapshot starts. It lists every fort; starting from the previous one keeps a
   *  fort a log leaves out where it was. */
  newStep() {
    const cur = this.cur;
    this.cur = {
      owners: cur ? cur.owners.slice() : [],
      garrisons: cur ? cur.garrisons.slice() : [],
      marches: [],
      events: {},
    };
    this.turns.push(this.cur);
    this.section = -1;
    this.left = 0;
    this.open = false;
  }

  /** A section's header: `12 forts:`, or `? forts:` for lines up to `end`. */
  header(line) {
    const head = /^(\d+|\?)\s+\S+:$/.exec(line);
    if (!head) this.fail("expected a section header like `12 forts:`, found `" + line + "`");
    this.section++;
    if (this.section > MARCHES) {
      // A log without `# STEP:` lines: a new snapshot starts.
      this.newStep();
      this.section = FORTS;
    }
    this.open = head[1] === "?";
    this.left = this.open ? 0 : parseInt(head[1], 10);
    // Every snapshot lists the same roads: after the first, they are known.
    this.roadsKnown = this.section === ROADS && !this.open && this.turns.length > 1 &&
      this.left === this.roads.length;
    this.fortAt = 0;
  }

  /** One line of the current section, its fields one space apart; false when they are
   *  not as many as the section's lines have. */
  entry(str, s, e) {
    if (this.spaces(str, s, e) !== SPACES[this.section]) return false;
    const sp = this.sp;
    if (this.section === FORTS) this.fort(str, s, e, sp);
    else if (this.section === ROADS) this.road(str, s, e, sp);
    else this.march(str, s, e, sp);
    return true;
  }

  /** The spaces from `s` to `e` in `str`: their places in `sp` (the first four), and
   *  how many there are (5 meaning more than four). */
  spaces(str, s, e) {
    let at = s - 1, k = 0;
    for (; k < 5; k++) {
      at = str.indexOf(" ", at + 1);
      if (at < 0 || at >= e) break;
      if (k < 4) this.sp[k] = at;
    }
    return k;
  }

  /** `name x y owner garrison`: a fort's state at this snapshot (and the fort itself,
   *  the first time it is seen). */
  fort(str, s, e, sp) {
    const forts = this.forts;
    let f = -1;
    if (this.fortAt < forts.length) {
      const want = forts[this.fortAt][0];
      if (want.length === sp[0] - s && str.startsWith(want, s)) f = this.fortAt;
    }
    if (f < 0) {
      const name = str.substring(s, sp[0]);
      f = this.fortIndex.get(name);
      if (f === undefined) {
        f = forts.length;
        this.fortIndex.set(name, f);
        forts.push([name, this.int(str, sp[0] + 1, sp[1]), this.int(str, sp[1] + 1, sp[2])]);
      }
    }
    this.fortAt = f + 1;
    this.cur.owners[f] = this.owner(str, sp[2] + 1, sp[3]);
    this.cur.garrisons[f] = this.int(str, sp[3] + 1, e);
  }

  /** `fort fort`: a road, known from then on in both directions. */
  road(str, s, e, sp) {
    const an = str.substring(s, sp[0]), bn = str.substring(sp[0] + 1, e);
    if (this.roadIndex.has(an + " " + bn)) return;
    const a = this.fortIndex.get(an), b = this.fortIndex.get(bn);
    if (a === undefined || b === undefined) this.fail("a road to a fort not listed");
    const forts = this.forts, r = this.roads.length;
    // A march's road and direction, from its origin and destination.
    this.roadIndex.set(an + " " + bn, 2 * r + 1);
    this.roadIndex.set(bn + " " + an, 2 * r);
    this.roads.push([a, b, roadLength(forts[a][1], forts[a][2], forts[b][1], forts[b][2])]);
  }

  /** `origin destination owner size steps`: a march, as the replay has it. */
  march(str, s, e, sp) {
    const rt = this.roadIndex.get(str.substring(s, sp[1]));
    if (rt === undefined) this.fail("a march on a road not listed");
    const m = rt >> 1, t = this.turns.length - 1;
    // At snapshot t a march has `length - (t - sent)` steps left.
    this.cur.marches.push([m, rt & 1, this.owner(str, sp[1] + 1, sp[2]),
      this.int(str, sp[2] + 1, sp[3]), t - (this.roads[m][2] - this.int(str, sp[3] + 1, e))]);
  }

  /** The whole number in `str` from `from` to `to`, without making a string. */
  int(str, from, to) {
    let v = 0, neg = false, i = from;
    if (str.charCodeAt(i) === MINUS) { neg = true; i++; }
    if (i >= to) this.fail("a number is missing");
    for (; i < to; i++) {
      const d = str.charCodeAt(i) - ZERO;
      if (d < 0 || d > 9) this.fail("`" + str.substring(from, to) + "` is not a whole number");
      v = v * 10 + d;
    }
    return neg ? -v : v;
  }

  /** The owner named in `str` from `from` to `to`: -1 for neutral, else a player (a
   *  new one the first time a name is seen). */
  owner(str, from, to) {
    const len = to - from, players = this.players;
    if (len === 7 && str.startsWith("neutral", from)) return -1;
    for (let k = 0; k < players.length; k++) {
      if (players[k].length === len && str.startsWith(players[k], from)) return k;
    }
    const name = str.substring(from, to);
    let i = this.playerIndex.get(name);
    if (i === undefined) {
      i = players.length;
      this.playerIndex.set(name, i);
      players.push(name);
    }
    return i;
  }

  /** The replay object of what was read. */
  replay() {
    const turns = this.turns, forts = this.forts;
    if (!turns.length || !forts.length) throw new Error("This log has no snapshot.");
    settleTurns(turns, forts.length);
    return {
      format: "bottlebats-replay",
      version: 1,
      source: "classic log",
      map: { forts, roads: this.roads },
      players: this.players,
      max_steps: turns.length - 1,
      turns,
      result: null,
    };
  }
}
