#!/usr/bin/env bash
# Vindinium's 2014 HTTP API (docs/remote.md, "Playing over HTTP"; figures in
# docs/measurements.md): whole training games of 1,200 moves (`turns=300`) on the
# original map m1, played by a loopback client that answers each state at once (one
# keep-alive connection, form posts to `playUrl`, as the 2014 kits did) against the
# site's three house bots in the sandbox. The original held a player's move at least
# 60 ms and each of its bots' 100 ms: 108 s a game. Goal: the whole game under 2 s.
#
# Usage: bench/vindinium_api.sh   (from anywhere; needs curl, python3, PostgreSQL)
# Knobs (environment): GAMES (3), TURNS (300 rounds of four moves), NO_BUILD=1.

set -euo pipefail

GAMES=${GAMES:-3}
TURNS=${TURNS:-300}

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
needs curl python3
build -p server --bin bottlebats

serve --games bottlebats,vindinium --workers 1
"$BIN" admin --data-dir "$DATA" create-user bench --password "correct horse battery" >/dev/null
KEY=$("$BIN" admin --data-dir "$DATA" remote-key bench bench-hero --game vindinium | tail -n1)

/usr/bin/python3 - "$URL" "$KEY" "$GAMES" "$TURNS" <<'PY'
import http.client, json, statistics, sys, time, urllib.parse

url, key, games, turns = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
host = urllib.parse.urlsplit(url).netloc
conn = http.client.HTTPConnection(host, timeout=120)

def post(path, fields):
    body = urllib.parse.urlencode(fields)
    conn.request("POST", path, body, {"Content-Type": "application/x-www-form-urlencoded"})
    r = conn.getresponse()
    return r.status, r.read().decode()

# The house bots build once the site starts: until then no game can be made.
deadline = time.time() + 600
while True:
    status, body = post("/api/training", {"key": key, "turns": "1", "map": "m1"})
    if status == 200:
        state = json.loads(body)
        while not state["game"]["finished"]:
            state = json.loads(post(urllib.parse.urlsplit(state["playUrl"]).path, {"dir": "Stay"})[1])
        break
    if time.time() > deadline:
        sys.exit(f"no game within 10 minutes: {status} {body}")
    time.sleep(2)

for g in range(games):
    t0 = time.perf_counter()
    status, body = post("/api/training", {"key": key, "turns": turns, "map": "m1"})
    assert status == 200, body
    first = time.perf_counter() - t0
    state = json.loads(body)
    waits = []
    while not state["game"]["finished"]:
        t = time.perf_counter()
        status, body = post(urllib.parse.urlsplit(state["playUrl"]).path, {"dir": "Stay"})
        assert status == 200, body
        waits.append(time.perf_counter() - t)
        state = json.loads(body)
    total = time.perf_counter() - t0
    g_ = state["game"]
    ms = sorted(w * 1000 for w in waits)
    print(f"game {g + 1}: {g_['turn']} moves in {total:.2f} s (goal: under 2 s; the original: 108 s); "
          f"first state {first * 1000:.0f} ms; each of our {len(waits)} moves answered in "
          f"median {statistics.median(ms):.2f} ms, p99 {ms[int(len(ms) * 0.99) - 1]:.2f} ms "
          f"(three house bots' moves included)", flush=True)
PY
echo "   load average now: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores (anything else running skews these numbers)"
