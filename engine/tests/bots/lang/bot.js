// Sends half of every garrison above 1 to the first neighbour of each owned fort.
const readline = require("readline");
const me = process.argv[process.argv.length - 1];
const rl = readline.createInterface({ input: process.stdin });
let lines = [];
let need = null;

function count(line) {
  return parseInt(line.trim().split(/\s+/)[0], 10);
}

function complete() {
  // Three counted sections: header, entries, header, entries, header, entries.
  let i = 0;
  const sections = [];
  for (let s = 0; s < 3; s++) {
    if (i >= lines.length) return null;
    const n = count(lines[i]);
    if (i + 1 + n > lines.length) return null;
    sections.push(lines.slice(i + 1, i + 1 + n).map((l) => l.trim().split(/\s+/)));
    i += 1 + n;
  }
  lines = lines.slice(i);
  return sections;
}

rl.on("line", (line) => {
  lines.push(line);
  const state = complete();
  if (!state) return;
  const [forts, roads] = state;
  const out = [];
  for (const f of forts) {
    const garrison = parseInt(f[4], 10);
    if (f[3] !== me || garrison < 2) continue;
    const r = roads.find((r) => r[0] === f[0] || r[1] === f[0]);
    if (r) out.push(`${f[0]} ${r[0] === f[0] ? r[1] : r[0]} ${Math.floor(garrison / 2)}`);
  }
  process.stdout.write(`${out.length} commands:\n` + out.map((c) => c + "\n").join(""));
});
