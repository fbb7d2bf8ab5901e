#!/usr/bin/env bash
# Load benchmark of the spectator pages on a big ladder.
#
# Builds the release binary and the seeding tool (server/examples/seed.rs), serves a
# fresh site (embedded PostgreSQL in a temporary data folder) on 127.0.0.1 with no
# match workers, seeds it with 300 users, 1,000 bots and 100,000 finished matches,
# then loads each page with wrk and prints requests/s, p99 latency and CPU time per
# request of the server and of its database:
#
#   leaderboard                 GET /leaderboard, /api/leaderboard
#   matches                     GET /matches, /api/matches
#   matches of one bot          GET /matches?bot=NAME, /api/matches?bot=NAME
#   matches of one owner        GET /matches?user=NAME
#   matches, deep page          GET /matches?cursor=ID (50,000 matches back)
#   bot page                    GET /bots/NAME, /api/bots/NAME (the bot with most games)
#   user page                   GET /users/NAME (its owner)
#   match page                  GET /matches/ID, /api/matches/ID (a recent match)
#   replay download             GET /matches/ID/replay.json, /api/matches/ID/replay
#
# Usage: bench/pages.sh           (from anywhere; needs wrk, curl, python3, PostgreSQL)
# Knobs (environment): DURATION (default 10s a page), CONNECTIONS (32), THREADS (2),
# PORT (a free one), NO_BUILD=1 to use the binaries already built, ONLY=REGEX to load
# only the pages whose name matches, MATCHES/BOTS/USERS (100000/1000/300) for the
# seed, DATABASE_URL to use an empty database of your own instead of the embedded
# one (it is seeded, and left as it is afterwards), NO_SEED=1 with DATABASE_URL to
# reuse one seeded before.
#
# The server runs with `--workers 0`, so no ranked match is played while measuring.
# It and wrk share the machine, so on a small machine the numbers include the load
# tool's own CPU use. The script stops the server and deletes the data folder when it
# ends, however it ends.

set -euo pipefail

DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-32}
THREADS=${THREADS:-2}
ONLY=${ONLY:-}
# The targets of every spectator page.
TARGET_RPS=1000
TARGET_P99_MS=50

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
BIN=${BIN:-"$TARGET_DIR/release/bottlebats"}
SEED=${SEED:-"$TARGET_DIR/release/examples/seed"}

for tool in wrk curl python3; do
    command -v "$tool" >/dev/null || { echo "bench/pages.sh needs $tool (Debian: apt-get install -y $tool)" >&2; exit 2; }
done
if [[ -n "${NO_SEED:-}" && -z "${DATABASE_URL:-}" ]]; then
    echo "NO_SEED=1 needs DATABASE_URL (a database seeded before)" >&2
    exit 2
fi

# --- build -------------------------------------------------------------------------
if [[ "${NO_BUILD:-}" != 1 ]]; then
    echo "== building the release binary and the seeding tool"
    (cd "$ROOT" && cargo build --release -p server --bin bottlebats --example seed)
fi
[[ -x "$BIN" ]] || { echo "no binary at $BIN" >&2; exit 2; }
[[ -x "$SEED" ]] || { echo "no seeding tool at $SEED" >&2; exit 2; }

# --- a fresh server ----------------------------------------------------------------
DATA=$(mktemp -d /tmp/bottlebats-pages.XXXXXX)
SERVER_PID=
PORT=${PORT:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
URL="http://127.0.0.1:$PORT"

cleanup() {
    local status=$?
    if [[ -n "$SERVER_PID" ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
        kill -TERM "$SERVER_PID" 2>/dev/null || true
        # A clean stop takes a second or two (it stops PostgreSQL); give it 30 s.
        for _ in $(seq 300); do
            kill -0 "$SERVER_PID" 2>/dev/null || break
            sleep 0.1
        done
        if kill -0 "$SERVER_PID" 2>/dev/null; then
            echo "the server did not stop within 30 s; killing it" >&2
            kill -KILL "$SERVER_PID" 2>/dev/null || true
        fi
        wait "$SERVER_PID" 2>/dev/null || true
    fi
    # If the server died without stopping its PostgreSQL, stop that too.
    if [[ -f "$DATA/postgres/postmaster.pid" ]]; then
        local pg_pid
        pg_pid=$(head -n1 "$DATA/postgres/postmaster.pid" 2>/dev/null || true)
        [[ -n "$pg_pid" ]] && kill -TERM "$pg_pid" 2>/dev/null || true
        for _ in $(seq 100); do
            [[ -n "$pg_pid" ]] && kill -0 "$pg_pid" 2>/dev/null || break
            sleep 0.1
        done
    fi
    if [[ $status -ne 0 && -f "$DATA/server.log" ]]; then
        echo "--- last lines of the server log:" >&2
        tail -n 20 "$DATA/server.log" >&2 || true
    fi
    rm -rf "$DATA"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

echo "== load average before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
echo "== serving on $URL (data folder $DATA), no match workers"
# Without DATABASE_URL: the embedded cluster in the data folder.
BOTTLEBATS_WORKERS=0 "$BIN" serve --listen "127.0.0.1:$PORT" --data-dir "$DATA" --workers 0 \
    >"$DATA/server.log" 2>&1 &
SERVER_PID=$!

# The first start runs initdb: allow two minutes.
for i in $(seq 1200); do
    if curl -fsS -o /dev/null "$URL/healthz" 2>/dev/null; then
        break
    fi
    kill -0 "$SERVER_PID" 2>/dev/null || { echo "the server exited before it was ready" >&2; exit 1; }
    [[ $i -lt 1200 ]] || { echo "the server was not ready within 120 s" >&2; exit 1; }
    sleep 0.1
done
sed 's/\x1b\[[0-9;]*m//g' "$DATA/server.log" | grep -q 'workers=0' ||
    echo "warning: the server log does not confirm workers=0" >&2

# --- the ladder --------------------------------------------------------------------
SEED_ARGS=(--users "${USERS:-300}" --bots "${BOTS:-1000}" --matches "${MATCHES:-100000}")
if [[ -n "${DATABASE_URL:-}" ]]; then
    [[ -n "${NO_SEED:-}" ]] || { echo "== seeding the database of DATABASE_URL"; "$SEED" "${SEED_ARGS[@]}"; }
else
    echo "== seeding"
    env -u DATABASE_URL "$SEED" "${SEED_ARGS[@]}" --data-dir "$DATA"
fi
PG_PID=
[[ -f "$DATA/postgres/postmaster.pid" ]] && PG_PID=$(head -n1 "$DATA/postgres/postmaster.pid")

# What to load, found through the API: the bot with the most games (the biggest bot
# page and rating chart), its owner, a recent match (a whole replay), and a cursor
# 50,000 matches back.
read -r BOT OWNER MATCH CURSOR < <(python3 - "$URL" <<'EOF'
import json, sys, urllib.request
get = lambda path: json.load(urllib.request.urlopen(sys.argv[1] + path))
best = max(get("/api/leaderboard")["leaderboard"], key=lambda r: r["games"])
newest = get("/api/matches")["matches"][0]["id"]
print(best["bot"], best["owner"], newest - 10, max(1, newest - 50000))
EOF
)
echo "== bot $BOT (owner $OWNER), match $MATCH, deep cursor $CURSOR"

# --- the load ----------------------------------------------------------------------
RESULTS=()

# CPU time used so far (user + system), in clock ticks: the server; the database (the
# postmaster with its ended children, and its live children, the pool's backends among
# them).
server_ticks() { awk '{ print $14 + $15 }' "/proc/$SERVER_PID/stat"; }
db_ticks() {
    [[ -n "$PG_PID" ]] || { echo 0; return; }
    local total p
    total=$(awk '{ print $14 + $15 + $16 + $17 }' "/proc/$PG_PID/stat")
    for p in $(pgrep -P "$PG_PID" || true); do
        total=$((total + $(awk '{ print $14 + $15 }' "/proc/$p/stat" 2>/dev/null || echo 0)))
    done
    echo "$total"
}

check() {
    local name=$1 path=$2 code
    code=$(curl -sS -o /dev/null -w '%{http_code}' "$URL$path")
    [[ "$code" == 200 ]] || { echo "$name: $path answered $code, not 200" >&2; exit 1; }
}

# run NAME PATH
run() {
    local name=$1 path=$2 out rps p99 bad errors s0 s1 d0 d1 total hz
    [[ -z "$ONLY" ]] || [[ "$name" =~ $ONLY ]] || return 0
    local args=(-t "$THREADS" -c "$CONNECTIONS" --latency)
    check "$@"
    echo
    echo "== $name: GET $path for $DURATION ($THREADS threads, $CONNECTIONS connections)"
    wrk "${args[@]}" -d 2s "$URL$path" >/dev/null # warm up
    s0=$(server_ticks) d0=$(db_ticks)
    out=$(wrk "${args[@]}" -d "$DURATION" "$URL$path")
    s1=$(server_ticks) d1=$(db_ticks)
    echo "$out"
    check "$@"
    bad=$(awk '/Non-2xx or 3xx responses:/ { print $NF }' <<<"$out")
    errors=$(awk '/Socket errors:/ { print }' <<<"$out")
    [[ -z "$bad" ]] || { echo "$name: $bad answers were errors" >&2; exit 1; }
    [[ -z "$errors" ]] || echo "warning: $name: $errors" >&2
    rps=$(awk '/^Requests\/sec:/ { printf "%.0f", $2 }' <<<"$out")
    p99=$(awk '$1 == "99%" { print $2 }' <<<"$out")
    total=$(awk '/requests in/ { print $1 }' <<<"$out")
    hz=$(getconf CLK_TCK)
    per_request() { awk -v t="$1" -v hz="$hz" -v n="$total" 'BEGIN { printf "%.0f", t / hz * 1e6 / n }'; }
    local cpu_db=-
    [[ -z "$PG_PID" ]] || cpu_db=$(per_request $((d1 - d0)))
    RESULTS+=("$name|$path|$rps|$p99|$(per_request $((s1 - s0)))|$cpu_db")
}

run "leaderboard" /leaderboard
run "matches" /matches
run "matches of one bot" "/matches?bot=$BOT"
run "matches of one owner" "/matches?user=$OWNER"
run "matches, deep page" "/matches?cursor=$CURSOR"
run "bot page" "/bots/$BOT"
run "user page" "/users/$OWNER"
run "match page" "/matches/$MATCH"
run "replay download" "/matches/$MATCH/replay.json"
run "api leaderboard" /api/leaderboard
run "api matches" /api/matches
run "api matches of one bot" "/api/matches?bot=$BOT"
run "api matches, deep page" "/api/matches?cursor=$CURSOR"
run "api bot" "/api/bots/$BOT"
run "api match" "/api/matches/$MATCH"
run "api replay" "/api/matches/$MATCH/replay"

# --- summary -----------------------------------------------------------------------
# wrk prints latencies as e.g. 812.00us, 4.20ms or 1.02s: in milliseconds for the table.
to_ms() {
    awk -v t="$1" 'BEGIN {
        if (t ~ /us$/) { sub(/us$/, "", t); printf "%.2f", t / 1000 }
        else if (t ~ /ms$/) { sub(/ms$/, "", t); printf "%.2f", t }
        else if (t ~ /s$/) { sub(/s$/, "", t); printf "%.2f", t * 1000 }
        else print t }'
}

echo
echo "== results ($(nproc) cores, wrk on the same machine, $THREADS threads, $CONNECTIONS connections, $DURATION each)"
echo "   load average now: $(cut -d' ' -f1-3 /proc/loadavg) (anything else running skews these numbers)"
printf '%-24s %8s %8s %10s %10s  %s\n' page "req/s" "p99 ms" "server" "database" "target (>= $TARGET_RPS req/s, p99 < $TARGET_P99_MS ms)"
missed=0
for row in "${RESULTS[@]}"; do
    IFS='|' read -r name path rps p99 cpu_server cpu_db <<<"$row"
    ms=$(to_ms "$p99")
    if awk -v r="$rps" -v m="$ms" -v tr="$TARGET_RPS" -v tm="$TARGET_P99_MS" 'BEGIN { exit !(r >= tr && m < tm) }'; then
        verdict=met
    else
        verdict=MISSED
        missed=$((missed + 1))
    fi
    printf '%-24s %8s %8s %7s us %7s us  %s\n' "$name" "$rps" "$ms" "$cpu_server" "$cpu_db" "$verdict"
done
echo "(server and database: CPU time per request)"
[[ $missed -eq 0 ]] || echo "$missed page(s) missed the target"

# wrk drops its connections mid-request when it stops: no pooled connection may be
# left inside a transaction by a request cut short.
if [[ -n "$PG_PID" ]] && command -v psql >/dev/null; then
    sleep 1
    stuck=$(psql -h "$DATA/postgres" -p "$(sed -n 4p "$DATA/postgres/postmaster.pid")" -U bottlebats -Atc \
        "select count(*) from pg_stat_activity where datname = 'bottlebats' and state like 'idle in transaction%'" bottlebats)
    if [[ "$stuck" != 0 ]]; then
        echo "$stuck database connection(s) of the server were left inside a transaction" >&2
        exit 1
    fi
fi
