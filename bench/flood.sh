#!/usr/bin/env bash
# A contestant's bot floods its games with distinct invalid lines: what the site's
# memory and health check do meanwhile.
#
# Builds the release binary, serves a fresh site with one match worker, uploads a bot
# that is quiet through its 50-turn test game and then answers every turn with 700
# different invalid command lines, and asks for one challenge game of it against the
# house `idle` bot (500 turns). While that game plays, is recorded and its live stream
# is read by 30 viewers that never read past the first bytes, it samples every 0.25 s
# the server's resident memory and the time `/healthz` takes, and prints the peaks, the
# game's length, its stored replay's size and the warnings it kept.
#
# Usage: bench/flood.sh          (from anywhere; needs curl, psql, python3, bubblewrap)
# Knobs (environment): PORT, NO_BUILD=1, BIN=path, SANDBOX=best-effort, LINES (700).

set -euo pipefail

LINES=${LINES:-700}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
needs curl psql python3
build -p server
unset DATABASE_URL
ARGS=(--workers 1)
[[ -n "${SANDBOX:-}" ]] && ARGS+=(--sandbox "$SANDBOX")
serve "${ARGS[@]}"
PG_PORT=$(sed -n 4p "$PGDIR/postmaster.pid")
sql() { psql -X -q -t -A -F '|' -h "$PGDIR" -p "$PG_PORT" -U bottlebats -d bottlebats -c "$1"; }

echo "== waiting for the house bots"
for i in $(seq 3000); do
    [[ $(sql "select count(*) from bots where active_version_id is not null") -ge 4 ]] && break
    [[ $i -lt 3000 ]] || { echo "the house bots were not built within 300 s" >&2; exit 1; }
    sleep 0.1
done
"$BIN" admin --data-dir "$DATA" create-user flooder --password "a long enough secret" >/dev/null
TOKEN=$("$BIN" admin --data-dir "$DATA" create-token flooder | tail -n1)
BOT="$DATA/flood.py"
cat >"$BOT" <<EOF
import sys
turn = 0
while True:
    for _ in range(3):
        line = sys.stdin.readline()
        if not line:
            sys.exit(0)
        for _ in range(int(line.split()[0])):
            sys.stdin.readline()
    bad = [] if turn < 60 else ["flood%d_%d x 1" % (turn, i) for i in range($LINES)]
    sys.stdout.write("%d commands:\n" % len(bad) + "".join(l + "\n" for l in bad))
    sys.stdout.flush()
    turn += 1
EOF
curl -sf -H "Authorization: Bearer $TOKEN" -F name=flood -F "file=@$BOT;filename=bot.py" "$URL/api/bots" >/dev/null
for i in $(seq 600); do
    [[ $(sql "select count(*) from bots where name = 'flood' and active_version_id is not null") == 1 ]] && break
    [[ $i -lt 600 ]] || { echo "the flood bot did not pass its test game within 60 s" >&2; exit 1; }
    sleep 0.1
done
curl -sf -H "Authorization: Bearer $TOKEN" -H "Content-Type: application/json" \
    -d '{"bot": "flood", "opponents": ["idle"], "games": 1}' "$URL/api/challenges" >/dev/null
echo "== a 500-turn game of $LINES distinct invalid lines a turn (from turn 60), sampled every 0.25 s"
MATCH=
for i in $(seq 600); do
    MATCH=$(sql "select id from matches where challenge_id is not null limit 1")
    [[ -n "$MATCH" ]] && break
    sleep 0.1
done
# Viewers that open the live stream and never read.
VIEWERS=()
for _ in $(seq 30); do
    python3 -c "import socket,sys,time; s=socket.create_connection(('127.0.0.1', $PORT)); \
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096); \
s.sendall(b'GET /matches/$MATCH/turns HTTP/1.1\r\nHost: x\r\n\r\n'); time.sleep(600)" &
    VIEWERS+=($!)
done
trap 'kill "${VIEWERS[@]}" 2>/dev/null || true; stop_server' EXIT
started=$(date +%s.%N)
peak_rss=0
health=()
while [[ $(sql "select status from matches where id = $MATCH") != finished ]]; do
    rss=$(awk '/VmRSS/ { print $2 }' "/proc/$SERVER_PID/status")
    (( rss > peak_rss )) && peak_rss=$rss
    health+=("$(curl -s -o /dev/null -w '%{time_total}' "$URL/healthz")")
    elapsed=$(awk -v s="$started" -v n="$(date +%s.%N)" 'BEGIN { print n - s }')
    awk -v e="$elapsed" 'BEGIN { exit !(e > 900) }' && { echo "the game did not end within 15 minutes" >&2; exit 1; }
    sleep 0.25
done
# A little after the end too: the streams now send the stored rows.
for _ in $(seq 20); do
    rss=$(awk '/VmRSS/ { print $2 }' "/proc/$SERVER_PID/status")
    (( rss > peak_rss )) && peak_rss=$rss
    health+=("$(curl -s -o /dev/null -w '%{time_total}' "$URL/healthz")")
    sleep 0.25
done
read -r turns secs bytes <<<"$(sql "select turns, round(extract(epoch from finished_at - started_at)::numeric, 1), \
    length(replay) from matches where id = $MATCH" | tr '|' ' ')"
read -r warnings kept <<<"$(sql "select p.warnings, jsonb_array_length(p.problems) from match_players p \
    join bots b on b.id = p.bot_id where p.match_id = $MATCH and b.name = 'flood'" | tr '|' ' ')"
printf '%s\n' "${health[@]}" | sort -n | awk -v rss="$peak_rss" '
    { t[NR] = $1 * 1000 }
    END { p = int(NR * 0.99) + 1; if (p > NR) p = NR
          printf "healthz over %d samples: median %.1f ms, p99 %.1f ms, max %.1f ms; peak server memory %.0f MiB\n",
          NR, t[int(NR / 2) + 1], t[p], t[NR], rss / 1024 }'
echo "game: $turns turns in $secs s; stored replay $bytes bytes (gzip); $warnings warnings counted, $kept problem lines kept"
