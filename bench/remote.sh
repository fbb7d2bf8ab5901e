#!/usr/bin/env bash
# Remote bots' benchmark (docs/remote.md; figures in docs/measurements.md):
#
#   the per-move overhead  a remote seat carried over loopback by the real site (web
#                          app, hub, WebSocket) and the real `bottlebats connect`,
#                          against a hosted seat on the same game: the runner's idle
#                          fixture answering at once, so a turn's time is the
#                          transport's (goal: under 1 ms added at the median);
#   1,000 idle sessions    held by one `bottlebats serve` (each from an address of
#                          its own, through the trusted proxy setting): the server's
#                          memory (VmRSS, goal: under 200 MB) and its pages' latency
#                          with and without them (goal: p99 under 50 ms).
#
# Usage: bench/remote.sh   (from anywhere; needs curl, python3, PostgreSQL)
# Knobs (environment): SESSIONS (1000), TURNS (2000, per game of the overhead),
# REQUESTS (500 a page), NO_BUILD=1 to use the binaries already built. The ladder is
# paused while sessions are held, so no match is offered to them.

set -euo pipefail

SESSIONS=${SESSIONS:-1000}
TURNS=${TURNS:-2000}
REQUESTS=${REQUESTS:-500}

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
TOOL=${TOOL:-"$TARGET_DIR/release/examples/remote_load"}
needs curl python3
build -p server --bin bottlebats --example remote_load
[[ -x "$TOOL" ]] || { echo "no tool at $TOOL" >&2; exit 2; }

echo "== the per-move overhead of a remote seat over loopback ($TURNS turns a game)"
"$TOOL" overhead --turns "$TURNS" --bin "$BIN"

echo
serve --workers 1 --trusted-proxy 127.0.0.1 --remote-sessions $((SESSIONS + 100))
"$BIN" admin --data-dir "$DATA" pause >/dev/null
rss() { awk '/^VmRSS:/ { printf "%.1f MB", $2 / 1024 }' "/proc/$SERVER_PID/status"; }
echo "== $SESSIONS remote bots and their keys"
"$TOOL" keys --data-dir "$DATA" --count "$SESSIONS" >"$DATA/keys.txt"
PAGES=(/ /leaderboard /bots/load-1 /api/leaderboard /matches)
echo "== the server with no session: $(rss)"
"$TOOL" pages --url "$URL" --requests "$REQUESTS" "${PAGES[@]}"
echo
echo "== holding $SESSIONS sessions"
coproc HOLDER { "$TOOL" sessions --url "$URL" --keys "$DATA/keys.txt"; }
read -r held <&"${HOLDER[0]}"
echo "$held"
sleep 25 # a ping each has gone by
echo "== the server holding them: $(rss) (goal: under 200 MB)"
"$TOOL" pages --url "$URL" --requests "$REQUESTS" "${PAGES[@]}"
echo "== and after: $(rss)"
exec {HOLDER[1]}>&-
wait "$HOLDER_PID" 2>/dev/null || true
echo "   load average now: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores (anything else running skews these numbers)"
