// Bottle Bats starter bot (JavaScript for Node, no packages).
//
// Each turn the arbiter writes the state we can see on stdin (forts, roads, marches)
// and we answer with our commands on stdout. This bot:
//   * remembers every fort and road it has ever seen (a state only shows what is next
//     to our own forts),
//   * attacks from each fort the neighbour that is cheapest to take, sending just
//     enough soldiers to win when they arrive,
//   * moves the soldiers of forts surrounded by our own forts toward the frontier.
//
// Run: node bot.js NAME
// Copy it, then make it smarter: see README.md for ideas.
'use strict';

const readline = require('readline');

// Soldiers sent on top of the exact number needed, in case the defender gets help.
const SAFETY = 2;

// ------------------------------------------------------------------ reading a state

// Node hands us input line by line as it arrives. `feed` reads one section after
// another: a header `COUNT WORD:` then COUNT lines (or `? WORD:` then lines until
// `end`), and calls `onState` with [forts, roads, marches], each a list of lines split
// into fields, whenever the three sections of a state are complete.
let sections = []; // the sections of the state being read
let count = null; // the count of the section being read, null between sections
let rows = []; // its lines so far

function feed(line, onState) {
  if (count === null) {
    count = line.split(/\s+/)[0];
    rows = [];
  } else if (count === '?' && line === 'end') {
    count = 'done';
  } else {
    rows.push(line.split(/\s+/));
  }
  if (count === 'done' || (count !== '?' && rows.length >= (parseInt(count, 10) || 0))) {
    sections.push(rows);
    count = null;
    if (sections.length === 3) {
      onState(sections);
      sections = [];
    }
  }
}

// Steps to walk a road: the distance rounded up (3-4-5 is exactly 5).
function roadLength(a, b) {
  const d2 = (a.x - b.x) ** 2 + (a.y - b.y) ** 2;
  let root = Math.floor(Math.sqrt(d2));
  while (root * root > d2) root--;
  while (root * root < d2) root++;
  return root;
}

// Compares names the way Python and C++ do (by character code), not by locale.
function byName(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

// ------------------------------------------------------------------ the bot

class Bot {
  constructor(me) {
    this.me = me;
    this.turn = 0;
    // Everything we have ever seen: name -> {x, y, owner, garrison, seen}, where
    // `seen` is the turn we last saw it (forts far from ours are not in every state).
    this.forts = new Map();
    // Every road we have ever seen: "a b" -> [a, b], with a < b.
    this.roads = new Map();
    // This turn's marches. Not used by this simple strategy, but there for you: enemy
    // marches heading to our forts are the attacks we will have to survive.
    this.marches = [];
  }

  neighbours(name) {
    const out = [];
    for (const [a, b] of this.roads.values()) {
      if (a === name) out.push(b);
      else if (b === name) out.push(a);
    }
    return out;
  }

  // Stores this turn's state in our memory.
  update(forts, roads, marches) {
    for (const f of forts) {
      if (f.length !== 5) continue;
      const [name, x, y, owner, garrison] = f;
      this.forts.set(name, { x: +x, y: +y, owner, garrison: +garrison, seen: this.turn });
    }
    for (const r of roads) {
      if (r.length !== 2) continue;
      const [a, b] = r[0] < r[1] ? [r[0], r[1]] : [r[1], r[0]];
      this.roads.set(`${a} ${b}`, [a, b]);
    }
    this.marches = marches
      .filter((m) => m.length === 5)
      .map(([origin, destination, owner, size, steps]) => ({
        origin, destination, owner, size: +size, steps: +steps,
      }));
  }

  // True when we own the fort right now (it is in this turn's state).
  ours(name) {
    const fort = this.forts.get(name);
    return fort !== undefined && fort.owner === this.me && fort.seen === this.turn;
  }

  // How many soldiers sent now from `source` take `target`: they arrive after the
  // road's length in turns; a player's fort grows by 1 each turn meanwhile (neutral
  // forts do not grow), and we must end with more than the defender.
  soldiersNeeded(source, target) {
    const fort = this.forts.get(target);
    let needed = fort.garrison + 1;
    if (fort.owner !== 'neutral') {
      needed += roadLength(this.forts.get(source), fort) - 1;
    }
    return needed + SAFETY;
  }

  // For each of our forts, how many roads away the nearest fort we do not own is,
  // walking only through our own forts (a breadth-first search).
  distancesToFrontier() {
    const dist = new Map();
    let frontier = [];
    for (const name of this.forts.keys()) {
      if (this.ours(name) && this.neighbours(name).some((n) => !this.ours(n))) {
        dist.set(name, 1);
        frontier.push(name);
      }
    }
    while (frontier.length > 0) {
      const next = [];
      for (const name of frontier) {
        for (const n of this.neighbours(name)) {
          if (this.ours(n) && !dist.has(n)) {
            dist.set(n, dist.get(name) + 1);
            next.push(n);
          }
        }
      }
      frontier = next;
    }
    return dist;
  }

  // This turn's orders: [origin, destination, size].
  commands() {
    const orders = [];
    const dist = this.distancesToFrontier();
    const distance = (n) => (dist.has(n) ? dist.get(n) : Infinity);
    for (const name of [...this.forts.keys()].sort(byName)) {
      if (!this.ours(name)) continue;
      const garrison = this.forts.get(name).garrison;
      const others = this.neighbours(name).filter((n) => !this.ours(n)).sort(byName);
      if (others.length > 0) {
        // Attack the cheapest neighbour, but only when we can win.
        let target = others[0];
        for (const n of others) {
          if (this.soldiersNeeded(name, n) < this.soldiersNeeded(name, target)) target = n;
        }
        const needed = this.soldiersNeeded(name, target);
        if (garrison >= needed) orders.push([name, target, needed]);
      } else if (garrison > 0) {
        // Surrounded by our own forts: walk toward the frontier.
        const closer = this.neighbours(name)
          .filter((n) => distance(n) < distance(name))
          .sort(byName);
        if (closer.length > 0) orders.push([name, closer[0], garrison]);
      }
    }
    return orders;
  }
}

// The arbiter appends our player name to the command.
const bot = new Bot(process.argv[process.argv.length - 1]);
const input = readline.createInterface({ input: process.stdin });
input.on('line', (raw) => {
  const line = raw.trim();
  if (line === '' || line.startsWith('#')) return; // blank lines and comments
  feed(line, ([forts, roads, marches]) => {
    bot.update(forts, roads, marches);
    const orders = bot.commands();
    // The reply: a header with the count, then one `origin destination size` line
    // each, in one write.
    let reply = `${orders.length} commands:\n`;
    for (const [origin, destination, size] of orders) {
      reply += `${origin} ${destination} ${size}\n`;
    }
    process.stdout.write(reply);
    bot.turn += 1;
  });
});
// At the end of input (the game is over) Node has nothing left to do and exits.
