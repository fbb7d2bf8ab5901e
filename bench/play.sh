#!/usr/bin/env bash
# How long `bottlebats play` takes for a whole game of idle bots, wall clock: the
# platform's own cost per game, with the bots doing nothing. A Vindinium game of four
# idle Python heroes on m1 (1,200 moves, each a JSON line out and an answer in), and
# beside it a Bottle Bats game of two idle Python bots (500 turns).
#
#   bench/play.sh [RUNS]       (default 5; prints the median and the worst)
#
# The original Vindinium server held every move at least 60 ms: more than 72 s a game.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
runs=${1:-5}
bin=$root/target/release/bottlebats
if [ ! -x "$bin" ]; then
  cargo build --release -p server
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-play.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"

cat >idle.py <<'PY'
import sys
for line in sys.stdin:
    print("Stay", flush=True)
PY
cp "$root/maps/vindinium/m1.txt" m1.txt
cat >vindinium.json <<'JSON'
{"game": "vindinium", "players": {"a": "/usr/bin/python3 idle.py", "b": "/usr/bin/python3 idle.py",
 "c": "/usr/bin/python3 idle.py", "d": "/usr/bin/python3 idle.py"},
 "mapfile": "m1.txt", "max_turns": 1200, "logfile": "log.jsonl"}
JSON
cat >bottlebats.json <<JSON
{"players": {"a": "/usr/bin/python3 $root/games/bottlebats/bots/house/idle/bot.py", "b": "/usr/bin/python3 $root/games/bottlebats/bots/house/idle/bot.py"},
 "mapfile": "$root/maps/bottlebats/duel-2p.map", "max_steps": 500, "logfile": "log.txt"}
JSON

# Seconds of wall clock of `play CONFIG`, RUNS times, sorted.
times() {
  for ((i = 0; i < runs; i++)); do
    local t0=$EPOCHREALTIME
    "$bin" play "$1" >/dev/null
    awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { print b - a }'
  done | sort -n
}

report() {
  local label=$1 config=$2 all
  mapfile -t all < <(times "$config")
  printf '%-48s median %.2f s, worst %.2f s (%d runs)\n' "$label" \
    "${all[$((runs / 2))]}" "${all[$((runs - 1))]}" "$runs"
}

report "Vindinium, 4 idle Python heroes, 1,200 moves:" vindinium.json
test "$(wc -l <log.jsonl)" -eq 1202 || { echo "the Vindinium log is not whole" >&2; exit 1; }
report "Bottle Bats, 2 idle Python bots, 500 turns:" bottlebats.json
