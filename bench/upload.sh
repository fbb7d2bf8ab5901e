#!/usr/bin/env bash
# Upload-to-active time: how long a contestant waits between uploading a version and
# seeing it active (unpacked and checked, built in the sandbox, its 50-turn test game
# played against the house bot, recorded).
#
# Builds the release binary, serves a fresh site (embedded PostgreSQL, the sandbox as
# configured: run as root with bubblewrap for the real thing) that builds uploads but
# plays no ranked match (`--workers 0`), waits for the house bots to be built, then
# uploads each starter kit (as served on /starters/LANG.zip) ROUNDS times as new
# versions of one bot over the API, one after the other, and prints the median, the
# fastest and the slowest wait per language.
#
# Usage: bench/upload.sh [LANG...]   (default: python cpp java, the starter kits; needs curl, python3)
# Knobs (environment): ROUNDS (default 5), NO_BUILD=1, BIN=another build.

set -euo pipefail

ROUNDS=${ROUNDS:-5}
LANGS=("$@")
[[ ${#LANGS[@]} -gt 0 ]] || LANGS=(python cpp java)

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
needs curl python3
build -p server
unset DATABASE_URL
serve --workers 0

"$BIN" admin --data-dir "$DATA" create-user bench --password "bench-password-$RANDOM" >/dev/null
TOKEN=$("$BIN" admin --data-dir "$DATA" create-token bench | tail -n1)
AUTH="Authorization: Bearer $TOKEN"

# The status of a bot's newest version, from the API.
newest() {
    curl -fsS "$URL/api/bots/$1" | python3 -c \
        'import json, sys; v = json.load(sys.stdin)["versions"]; print(v[0]["status"] if v else "none")'
}

echo "== waiting for the house bots to be built"
for bot in idle random greedy strong; do
    for _ in $(seq 1200); do
        [[ "$(newest "$bot" 2>/dev/null || true)" == active ]] && break
        sleep 0.1
    done
done

printf '\n%-8s %8s %8s %8s  (seconds from upload to active, %s rounds)\n' language median min max "$ROUNDS"
for lang in "${LANGS[@]}"; do
    kit="$DATA/$lang.zip"
    curl -fsS -o "$kit" "$URL/starters/$lang.zip" ||
        { echo "no starter kit for $lang" >&2; exit 1; }
    name="bench-$lang"
    times=()
    for round in $(seq "$ROUNDS"); do
        if [[ $round == 1 ]]; then
            target="$URL/api/bots" form=(-F "name=$name")
        else
            target="$URL/api/bots/$name/versions" form=()
        fi
        started=$(date +%s.%N)
        curl -fsS -o /dev/null -H "$AUTH" "${form[@]}" -F "file=@$kit" "$target"
        while :; do
            status=$(newest "$name")
            [[ "$status" == active ]] && break
            [[ "$status" == failed ]] && { echo "$lang: version $round failed" >&2; exit 1; }
            sleep 0.05
        done
        times+=("$(python3 -c "print(f'{$(date +%s.%N) - $started:.2f}')")")
    done
    python3 - "$lang" "${times[@]}" <<'EOF'
import statistics, sys
lang, times = sys.argv[1], sorted(float(t) for t in sys.argv[2:])
print(f"{lang:<8} {statistics.median(times):8.2f} {times[0]:8.2f} {times[-1]:8.2f}")
EOF
done
