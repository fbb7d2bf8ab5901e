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
# The targets docs/measurements.md states for the home page.
TARGET_RPS=10000
TARGET_P99_MS=10

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
needs wrk curl python3
build -p server
unset DATABASE_URL # the embedded PostgreSQL, always
serve --workers 0
JAR="$DATA/cookies.txt"

# --- an account and its session ----------------------------------------------------
PASSWORD="bench-password-$RANDOM$RANDOM"
"$BIN" admin --data-dir "$DATA" create-user bench --password "$PASSWORD" >/dev/null

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
# run NAME PATH COOKIE EXPECTED_STATUS SETS_CSRF
run() {
    local cookie=$3 args=()
    [[ -n "$cookie" ]] && args+=(-H "Cookie: $cookie")
    check "$@"
    load "$1" "$2" "${args[@]}"
    check "$@"
}

run "home, new visitor" / "" 200 yes
run "home, returning visitor" / "bb_csrf=$CSRF" 200 no
run "profile, logged in" /profile "bb_csrf=$CSRF; bb_session=$SESSION" 200 no

# --- summary -----------------------------------------------------------------------
echo
echo "== results ($(nproc) cores, wrk on the same machine, $THREADS threads, $CONNECTIONS connections, $DURATION each)"
echo "   load average now: $(cut -d' ' -f1-3 /proc/loadavg) (anything else running skews these numbers)"
printf '%-24s %-9s %7s %7s %10s %10s  %s\n' page path "req/s" "p99 ms" "server" "database" "home target (>= $TARGET_RPS req/s, p99 < $TARGET_P99_MS ms)"
for row in "${RESULTS[@]}"; do
    IFS='|' read -r name path rps p99 cpu_server cpu_db <<<"$row"
    verdict=
    if [[ "$path" == / ]]; then
        if meets_target "$rps" "$p99"; then verdict=met; else verdict=MISSED; fi
    fi
    printf '%-24s %-9s %7s %7s %7s us %7s us  %s\n' "$name" "$path" "$rps" "$(to_ms "$p99")" "$cpu_server" "$cpu_db" "$verdict"
done
echo "(server and database: CPU time per request)"
