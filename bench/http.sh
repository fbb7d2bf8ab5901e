#!/usr/bin/env bash
# HTTP load benchmark of the web app.
#
# Builds the release binary, serves a fresh site (embedded PostgreSQL in a temporary
# data folder) on 127.0.0.1, makes an account and logs it in over HTTP, then loads
# three pages with wrk and prints requests/s, p99 latency and CPU time per request of
# the server and of its database for each:
#
#   home, new visitor        GET /         no cookie: every answer sets a new bb_csrf
#   home, returning visitor  GET /         with the bb_csrf cookie
#   profile, logged in       GET /profile  with bb_csrf and bb_session (session lookup
#                                          and two more queries per request)
#
# Usage: bench/http.sh            (from anywhere; needs wrk, curl, python3, PostgreSQL)
# Knobs (environment): DURATION (default 15s a page), CONNECTIONS (64), THREADS (2),
# PORT (a free one), NO_BUILD=1 to use the binary already built, BIN=path to load
# another build of bottlebats (implies nothing about building: combine with NO_BUILD=1).
#
# The server runs with `--workers 0` (no bots here anyway: no match would be played).
# It and wrk share the machine, so on a small machine the numbers include the load
# tool's own CPU use, and anything else running at the same time drags them down, p99
# above all; the CPU time per request is the steadier number.
#
# The script stops the server (SIGTERM: it finishes requests in flight and stops its
# database) and deletes the data folder when it ends, however it ends.

set -euo pipefail

DURATION=${DURATION:-15s}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-2}
# The targets the README states for the home page.
TARGET_RPS=10000
TARGET_P99_MS=10

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN=${BIN:-"${CARGO_TARGET_DIR:-$ROOT/target}/release/bottlebats"}

for tool in wrk curl python3; do
    command -v "$tool" >/dev/null || { echo "bench/http.sh needs $tool (Debian: apt-get install -y $tool)" >&2; exit 2; }
done

# --- build -------------------------------------------------------------------------
if [[ "${NO_BUILD:-}" != 1 ]]; then
    echo "== building the release binary"
    (cd "$ROOT" && cargo build --release -p server)
fi
[[ -x "$BIN" ]] || { echo "no binary at $BIN" >&2; exit 2; }

# --- a fresh server ----------------------------------------------------------------
DATA=$(mktemp -d /tmp/bottlebats-bench.XXXXXX)
SERVER_PID=
PORT=${PORT:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
URL="http://127.0.0.1:$PORT"
JAR="$DATA/cookies.txt"

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
echo "== serving on $URL (data folder $DATA)"
# No DATABASE_URL: the embedded cluster in the data folder. Default log level (info).
env -u DATABASE_URL "$BIN" serve --listen "127.0.0.1:$PORT" --data-dir "$DATA" --workers 0 \
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

PG_PID=
[[ -f "$DATA/postgres/postmaster.pid" ]] && PG_PID=$(head -n1 "$DATA/postgres/postmaster.pid")

# --- an account and its session ----------------------------------------------------
PASSWORD="bench-password-$RANDOM$RANDOM"
env -u DATABASE_URL "$BIN" admin --data-dir "$DATA" create-user bench --password "$PASSWORD" >/dev/null

# The value of a cookie in curl's cookie jar (tab-separated, name in field 6).
jar_cookie() { awk -v n="$1" '$6 == n { v = $7 } END { print v }' "$JAR"; }

# GET / gives the bb_csrf cookie; the login form must send the same value as `csrf`.
curl -fsS -o /dev/null -c "$JAR" "$URL/"
CSRF=$(jar_cookie bb_csrf)
[[ ${#CSRF} -eq 64 ]] || { echo "GET / set no bb_csrf cookie" >&2; exit 1; }
status=$(curl -sS -o /dev/null -w '%{http_code}' -b "$JAR" -c "$JAR" \
    --data-urlencode "csrf=$CSRF" --data-urlencode "name=bench" \
    --data-urlencode "password=$PASSWORD" --data-urlencode "next=/profile" \
    "$URL/login")
[[ "$status" == 303 ]] || { echo "login answered $status, not 303" >&2; exit 1; }
SESSION=$(jar_cookie bb_session)
[[ -n "$SESSION" ]] || { echo "login set no bb_session cookie" >&2; exit 1; }

# --- checks: each scenario gets the answer it should, before and after its load -----
# check NAME PATH COOKIE EXPECTED_STATUS SETS_CSRF(yes|no)
check() {
    local name=$1 path=$2 cookie=$3 want=$4 sets=$5 headers code
    local args=(-sS -o /dev/null -D -)
    [[ -n "$cookie" ]] && args+=(-H "Cookie: $cookie")
    headers=$(curl "${args[@]}" "$URL$path")
    code=$(awk 'NR == 1 { print $2 }' <<<"$headers")
    [[ "$code" == "$want" ]] || { echo "$name: $path answered $code, not $want" >&2; exit 1; }
    if grep -qi '^set-cookie: bb_csrf=' <<<"$headers"; then
        [[ $sets == yes ]] || { echo "$name: a returning visitor was given a new bb_csrf" >&2; exit 1; }
    else
        [[ $sets == no ]] || { echo "$name: a new visitor got no bb_csrf" >&2; exit 1; }
    fi
}

# --- the load ----------------------------------------------------------------------
RESULTS=()

# CPU time used so far (user + system), in clock ticks: the server; the database (the
# postmaster and its children, the pool's backends among them).
server_ticks() { awk '{ print $14 + $15 }' "/proc/$SERVER_PID/stat"; }
db_ticks() {
    [[ -n "$PG_PID" ]] || { echo 0; return; }
    local total=0 p
    for p in "$PG_PID" $(pgrep -P "$PG_PID" || true); do
        total=$((total + $(awk '{ print $14 + $15 }' "/proc/$p/stat" 2>/dev/null || echo 0)))
    done
    echo "$total"
}
# Clock ticks spent on N requests, in microseconds a request.
per_request() {
    awk -v t="$1" -v hz="$(getconf CLK_TCK)" -v n="$2" 'BEGIN { printf "%.0f", t / hz * 1e6 / n }'
}

# run NAME PATH COOKIE EXPECTED_STATUS SETS_CSRF
run() {
    local name=$1 path=$2 cookie=$3 out rps p99 bad errors s0 s1 d0 d1 total
    local args=(-t "$THREADS" -c "$CONNECTIONS" --latency)
    [[ -n "$cookie" ]] && args+=(-H "Cookie: $cookie")
    check "$@"
    echo
    echo "== $name: GET $path for $DURATION ($THREADS threads, $CONNECTIONS connections)"
    wrk "${args[@]}" -d 2s "$URL$path" >/dev/null # warm up
    s0=$(server_ticks) d0=$(db_ticks)
    out=$(wrk "${args[@]}" -d "$DURATION" "$URL$path")
    s1=$(server_ticks) d1=$(db_ticks)
    echo "$out"
    check "$@"
    # wrk counts 3xx as success; check() above made sure the page answers as it should.
    bad=$(awk '/Non-2xx or 3xx responses:/ { print $NF }' <<<"$out")
    errors=$(awk '/Socket errors:/ { print }' <<<"$out")
    [[ -z "$bad" ]] || { echo "$name: $bad answers were errors" >&2; exit 1; }
    [[ -z "$errors" ]] || echo "warning: $name: $errors" >&2
    rps=$(awk '/^Requests\/sec:/ { printf "%.0f", $2 }' <<<"$out")
    p99=$(awk '$1 == "99%" { print $2 }' <<<"$out")
    total=$(awk '/requests in/ { print $1 }' <<<"$out")
    RESULTS+=("$name|$path|$rps|$p99|$(per_request $((s1 - s0)) "$total")|$(per_request $((d1 - d0)) "$total")")
}

run "home, new visitor" / "" 200 yes
run "home, returning visitor" / "bb_csrf=$CSRF" 200 no
run "profile, logged in" /profile "bb_csrf=$CSRF; bb_session=$SESSION" 200 no

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
printf '%-24s %-9s %7s %7s %10s %10s  %s\n' page path "req/s" "p99 ms" "server" "database" "home target (>= $TARGET_RPS req/s, p99 < $TARGET_P99_MS ms)"
for row in "${RESULTS[@]}"; do
    IFS='|' read -r name path rps p99 cpu_server cpu_db <<<"$row"
    ms=$(to_ms "$p99")
    verdict=
    if [[ "$path" == / ]]; then
        if awk -v r="$rps" -v m="$ms" -v tr="$TARGET_RPS" -v tm="$TARGET_P99_MS" 'BEGIN { exit !(r >= tr && m < tm) }'; then
            verdict=met
        else
            verdict=MISSED
        fi
    fi
    printf '%-24s %-9s %7s %7s %7s us %7s us  %s\n' "$name" "$path" "$rps" "$ms" "$cpu_server" "$cpu_db" "$verdict"
done
echo "(server and database: CPU time per request)"
