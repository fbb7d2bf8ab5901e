# What the benchmarks that serve a site share: sourced by bench/http.sh, bench/pages.sh
# and bench/ladder.sh, not run on its own.
#
# needs TOOL...          exits 2 naming the first tool missing
# build CARGO_ARGS...    cargo build --release with them, unless NO_BUILD=1
# serve ARGS...          `bottlebats serve` with ARGS on 127.0.0.1:$PORT (a free port
#                        unless PORT is set) and a fresh data folder $DATA (the embedded
#                        PostgreSQL, unless DATABASE_URL is set), log in
#                        $DATA/server.log; waits for /healthz
#                        (two minutes: the first start runs initdb). Sets SERVER_PID,
#                        URL and PG_PID. When the script ends, however it ends, the
#                        server is stopped (SIGTERM: it finishes requests and the match
#                        in play, then stops its database), and $DATA deleted.
# load NAME PATH WRK_ARGS...
#                        wrk on $URL$PATH for $DURATION after a 2 s warm-up; appends
#                        "NAME|PATH|req/s|p99|server µs|database µs" (CPU time a request)
#                        to RESULTS; exits 1 if any answer was an error.
# to_ms LATENCY          wrk's 812.00us, 4.20ms or 1.02s in milliseconds

BENCH=$(basename "$0")
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
BIN=${BIN:-"$TARGET_DIR/release/bottlebats"}
RESULTS=()

needs() {
    local tool
    for tool in "$@"; do
        command -v "$tool" >/dev/null ||
            { echo "bench/$BENCH needs $tool (Debian: apt-get install -y $tool)" >&2; exit 2; }
    done
}

build() {
    if [[ "${NO_BUILD:-}" != 1 ]]; then
        echo "== building the release binary"
        (cd "$ROOT" && cargo build --release "$@")
    fi
    [[ -x "$BIN" ]] || { echo "no binary at $BIN" >&2; exit 2; }
}

SERVER_PID=
DATA=
PG_PID=

stop_server() {
    local status=$?
    if [[ -n "$SERVER_PID" ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
        kill -TERM "$SERVER_PID" 2>/dev/null || true
        # It finishes what it is doing and stops PostgreSQL; give it 60 s.
        for _ in $(seq 600); do
            kill -0 "$SERVER_PID" 2>/dev/null || break
            sleep 0.1
        done
        if kill -0 "$SERVER_PID" 2>/dev/null; then
            echo "the server did not stop within 60 s; killing it" >&2
            kill -KILL "$SERVER_PID" 2>/dev/null || true
        fi
        wait "$SERVER_PID" 2>/dev/null || true
    fi
    # If the server died without stopping its PostgreSQL, stop that too.
    local pgdir=""
    [[ -z "$DATA" ]] || pgdir=$(pg_dir)
    if [[ -n "$pgdir" && -f "$pgdir/postmaster.pid" ]]; then
        local pg_pid
        pg_pid=$(head -n1 "$pgdir/postmaster.pid" 2>/dev/null || true)
        [[ -n "$pg_pid" ]] && kill -TERM "$pg_pid" 2>/dev/null || true
        for _ in $(seq 100); do
            [[ -n "$pg_pid" ]] && kill -0 "$pg_pid" 2>/dev/null || break
            sleep 0.1
        done
    fi
    if [[ $status -ne 0 && -n "$DATA" && -f "$DATA/server.log" ]]; then
        echo "--- last lines of the server log:" >&2
        tail -n 20 "$DATA/server.log" >&2 || true
    fi
    # As root the cluster lives outside the data folder (see postgres.location).
    [[ -z "$DATA" || "$pgdir" == "$DATA/postgres" ]] || rm -rf "$pgdir"
    [[ -z "$DATA" ]] || rm -rf "$DATA"
    exit "$status"
}

# The folder of the embedded cluster of $DATA, where its socket is: $DATA/postgres, or
# as root the folder that $DATA/postgres.location names.
pg_dir() {
    if [[ -f "$DATA/postgres.location" ]]; then
        sed -n 2p "$DATA/postgres.location"
    else
        echo "$DATA/postgres"
    fi
}

serve() {
    DATA=$(mktemp -d "/tmp/bottlebats-${BENCH%.sh}.XXXXXX")
    PORT=${PORT:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
    URL="http://127.0.0.1:$PORT"
    trap stop_server EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    echo "== load average before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
    echo "== serving on $URL (data folder $DATA)"
    # Without DATABASE_URL: the embedded cluster in the data folder.
    "$BIN" serve --listen "127.0.0.1:$PORT" --data-dir "$DATA" "$@" \
        >"$DATA/server.log" 2>&1 &
    SERVER_PID=$!
    local i
    for i in $(seq 1200); do
        curl -fsS -o /dev/null "$URL/healthz" 2>/dev/null && break
        kill -0 "$SERVER_PID" 2>/dev/null || { echo "the server exited before it was ready" >&2; exit 1; }
        [[ $i -lt 1200 ]] || { echo "the server was not ready within 120 s" >&2; exit 1; }
        sleep 0.1
    done
    PGDIR=$(pg_dir)
    [[ -f "$PGDIR/postmaster.pid" ]] && PG_PID=$(head -n1 "$PGDIR/postmaster.pid")
    return 0
}

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
# Clock ticks spent on N requests, in microseconds a request ("-" without a database).
per_request() {
    awk -v t="$1" -v hz="$(getconf CLK_TCK)" -v n="$2" 'BEGIN { printf "%.0f", t / hz * 1e6 / n }'
}

load() {
    local name=$1 path=$2 out rps p99 bad errors s0 s1 d0 d1 total cpu_db=-
    shift 2
    local args=(-t "$THREADS" -c "$CONNECTIONS" --latency "$@")
    echo
    echo "== $name: GET $path for $DURATION ($THREADS threads, $CONNECTIONS connections)"
    wrk "${args[@]}" -d 2s "$URL$path" >/dev/null # warm up
    s0=$(server_ticks) d0=$(db_ticks)
    out=$(wrk "${args[@]}" -d "$DURATION" "$URL$path")
    s1=$(server_ticks) d1=$(db_ticks)
    echo "$out"
    # wrk counts 3xx as success: the scripts check each page's answer themselves.
    bad=$(awk '/Non-2xx or 3xx responses:/ { print $NF }' <<<"$out")
    errors=$(awk '/Socket errors:/ { print }' <<<"$out")
    [[ -z "$bad" ]] || { echo "$name: $bad answers were errors" >&2; exit 1; }
    [[ -z "$errors" ]] || echo "warning: $name: $errors" >&2
    rps=$(awk '/^Requests\/sec:/ { printf "%.0f", $2 }' <<<"$out")
    p99=$(awk '$1 == "99%" { print $2 }' <<<"$out")
    total=$(awk '/requests in/ { print $1 }' <<<"$out")
    [[ -z "$PG_PID" ]] || cpu_db=$(per_request $((d1 - d0)) "$total")
    RESULTS+=("$name|$path|$rps|$p99|$(per_request $((s1 - s0)) "$total")|$cpu_db")
}

to_ms() {
    awk -v t="$1" 'BEGIN {
        if (t ~ /us$/) { sub(/us$/, "", t); printf "%.2f", t / 1000 }
        else if (t ~ /ms$/) { sub(/ms$/, "", t); printf "%.2f", t }
        else if (t ~ /s$/) { sub(/s$/, "", t); printf "%.2f", t * 1000 }
        else print t }'
}

# Whether REQ_PER_S and P99 (as wrk prints it) meet TARGET_RPS and TARGET_P99_MS.
meets_target() {
    awk -v r="$1" -v m="$(to_ms "$2")" -v tr="$TARGET_RPS" -v tm="$TARGET_P99_MS" \
        'BEGIN { exit !(r >= tr && m < tm) }'
}
