#!/usr/bin/env bash
# Load benchmark of the spectator pages on a big ladder.
#
# Builds the release binary and the seeding tool (server/examples/seed/), serves a
# fresh site (embedded PostgreSQL in a temporary data folder) on 127.0.0.1 with no
# match workers, seeds it with 300 users, 1,000 bots and 100,000 finished matches,
# then loads each page with wrk and prints requests/s, p99 latency and CPU time per
# request of the server and of its database:
#
#   leaderboard                 GET /leaderboard (the top 50), its rows (what the page
#                               refreshes), /api/leaderboard (every bot)
#   leaderboard, deep page      GET /leaderboard?page=N, 3/4 of the way down, its rows
#   leaderboard search          GET /leaderboard?q=OWNER (the owner's bots, ranked)
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
#        MATCHES=1000000 BOTS=10000 USERS=999 bench/pages.sh   (a big contest; the
#                                  seeding alone takes minutes, see docs/measurements.md)
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

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
SEED=${SEED:-"$TARGET_DIR/release/examples/seed"}
needs wrk curl python3
if [[ -n "${NO_SEED:-}" && -z "${DATABASE_URL:-}" ]]; then
    echo "NO_SEED=1 needs DATABASE_URL (a database seeded before)" >&2
    exit 2
fi

# --- build -------------------------------------------------------------------------
build -p server --bin bottlebats --example seed
[[ -x "$SEED" ]] || { echo "no seeding tool at $SEED" >&2; exit 2; }

# --- a fresh server ----------------------------------------------------------------
serve --workers 0
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

# What to load, found through the API: the bot with the most games (the biggest bot
# page and rating chart), its owner, a recent match (a whole replay), a cursor 50,000
# matches back, and a page of the leaderboard 3/4 of the way down.
read -r BOT OWNER MATCH CURSOR DEEP < <(python3 - "$URL" <<'EOF'
import json, sys, urllib.request
get = lambda path: json.load(urllib.request.urlopen(sys.argv[1] + path))
best = max(get("/api/leaderboard")["leaderboard"], key=lambda r: r["games"])
newest = get("/api/matches")["matches"][0]["id"]
pages = get("/api/leaderboard?page=1")["pages"]
print(best["bot"], best["owner"], newest - 10, max(1, newest - 50000), max(1, pages * 3 // 4))
EOF
)
echo "== bot $BOT (owner $OWNER), match $MATCH, deep cursor $CURSOR, leaderboard page $DEEP"

# --- the load ----------------------------------------------------------------------
check() {
    local name=$1 path=$2 code
    code=$(curl -sS -o /dev/null -w '%{http_code}' "$URL$path")
    [[ "$code" == 200 ]] || { echo "$name: $path answered $code, not 200" >&2; exit 1; }
}

# run NAME PATH
run() {
    [[ -z "$ONLY" ]] || [[ "$1" =~ $ONLY ]] || return 0
    check "$@"
    load "$@"
    check "$@"
}

run "leaderboard" /leaderboard
run "leaderboard rows" /leaderboard/rows
run "leaderboard, deep page" "/leaderboard?page=$DEEP"
run "leaderboard deep rows" "/leaderboard/rows?page=$DEEP"
run "leaderboard search" "/leaderboard?q=$OWNER"
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
echo
echo "== results ($(nproc) cores, wrk on the same machine, $THREADS threads, $CONNECTIONS connections, $DURATION each)"
echo "   load average now: $(cut -d' ' -f1-3 /proc/loadavg) (anything else running skews these numbers)"
printf '%-24s %8s %8s %10s %10s  %s\n' page "req/s" "p99 ms" "server" "database" "target (>= $TARGET_RPS req/s, p99 < $TARGET_P99_MS ms)"
missed=0
for row in "${RESULTS[@]}"; do
    IFS='|' read -r name path rps p99 cpu_server cpu_db <<<"$row"
    ms=$(to_ms "$p99")
    if meets_target "$rps" "$p99"; then
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
    stuck=$(psql -h "$PGDIR" -p "$(sed -n 4p "$PGDIR/postmaster.pid")" -U bottlebats -Atc \
        "select count(*) from pg_stat_activity where datname = 'bottlebats' and state like 'idle in transaction%'" bottlebats)
    if [[ "$stuck" != 0 ]]; then
        echo "$stuck database connection(s) of the server were left inside a transaction" >&2
        exit 1
    fi
fi
