#!/bin/bash
# Tests of docker/entrypoint.sh and docker/healthcheck.sh without Docker: the entrypoint
# runs with a fake `bottlebats` (and fake `mount` and `id`) first on PATH and a fake
# /proc, and must exec bottlebats with the right arguments; the health check asks a
# small Python HTTP server. Needs bash, python3 and coreutils; changes nothing outside
# a temporary folder (the fake `mount` only records its arguments).
#
#   docker/test-entrypoint.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
entrypoint=$here/entrypoint.sh
healthcheck=$here/healthcheck.sh

tmp=$(mktemp -d)
server_pid=
web_pid=
cleanup() {
  local p
  for p in $server_pid $web_pid; do kill "$p" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT

failures=0
pass() { printf 'ok   %s\n' "$1"; }
fail() {
  printf 'FAIL %s\n' "$1"
  shift
  printf '     %s\n' "$@"
  failures=$((failures + 1))
}

# --- fakes ------------------------------------------------------------------------------

bin=$tmp/bin
mkdir -p "$bin"
log=$tmp/calls
cat >"$bin/bottlebats" <<'EOF'
#!/bin/bash
# Records how it was run: "PID ARGS" (exec keeps the entrypoint's PID).
printf '%s bottlebats %s\n' "$$" "$*" >>"$FAKE_LOG"
if [ "${1:-}" = doctor ]; then
  echo "protection      active   how"
  exit "${FAKE_DOCTOR_EXIT:-0}"
fi
exit "${FAKE_EXIT:-0}"
EOF
cat >"$bin/mount" <<'EOF'
#!/bin/bash
printf 'mount %s\n' "$*" >>"$FAKE_LOG"
exit "${FAKE_MOUNT_EXIT:-0}"
EOF
cat >"$bin/id" <<'EOF'
#!/bin/bash
if [ "${1:-}" = -u ]; then echo "${FAKE_UID:-0}"; else exec /usr/bin/id "$@"; fi
EOF
chmod +x "$bin"/*

# A fake /proc/self with the given cgroup and mountinfo lines.
fake_proc() { # NAME CGROUP_LINES MOUNTINFO_LINES
  mkdir -p "$tmp/proc-$1/self"
  printf '%b' "$2" >"$tmp/proc-$1/self/cgroup"
  printf '%b' "$3" >"$tmp/proc-$1/self/mountinfo"
  echo "$tmp/proc-$1"
}
root_mount='22 1 0:21 / / rw,relatime - overlay overlay rw\n'
v2_ro=$(fake_proc v2-ro '0::/\n' \
  "$root_mount"'31 22 0:26 / /sys/fs/cgroup ro,nosuid,nodev,noexec,relatime - cgroup2 cgroup rw,nsdelegate\n')
v2_rw=$(fake_proc v2-rw '0::/\n' \
  "$root_mount"'31 22 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime - cgroup2 cgroup rw\n')
v2_host=$(fake_proc v2-host '0::/system.slice/docker-0123.scope\n' \
  "$root_mount"'31 22 0:26 /system.slice/docker-0123.scope /sys/fs/cgroup ro,nosuid,nodev,noexec,relatime - cgroup2 cgroup rw\n')
v1_ro=$(fake_proc v1-ro '5:pids:/\n4:memory:/\n3:cpu,cpuacct:/\n0::/\n' \
  "$root_mount"'30 22 0:25 / /sys/fs/cgroup ro,nosuid,nodev,noexec - tmpfs tmpfs ro,mode=755\n31 30 0:26 / /sys/fs/cgroup/memory ro,nosuid,nodev,noexec,relatime master:1 - cgroup cgroup rw,memory\n32 30 0:27 / /sys/fs/cgroup/pids ro,nosuid,nodev,noexec,relatime master:2 - cgroup cgroup rw,pids\n33 30 0:28 / /sys/fs/cgroup/cpu,cpuacct ro,nosuid,nodev,noexec,relatime master:3 - cgroup cgroup rw,cpu,cpuacct\n34 22 0:29 / /data rw,relatime - ext4 /dev/vda rw\n')

# A TCP port nothing listens on (taken, then freed).
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Runs the entrypoint with the fakes; sets $out (its stdout and stderr), $status,
# $calls (what the fakes recorded) and $pid (the entrypoint's process).
run() { # [VAR=VALUE...] -- ARGS...
  local -a env=()
  while [ "$1" != -- ]; do env+=("$1") && shift; done
  shift
  : >"$log"
  set +e
  env -u DATABASE_URL -u BOTTLEBATS_CONFIG PATH="$bin:$PATH" FAKE_LOG="$log" \
    BOTTLEBATS_ENTRYPOINT_PROC="$v2_rw" BOTTLEBATS_CGROUP_REMOUNT=no "${env[@]}" \
    "$entrypoint" "$@" >"$tmp/out" 2>&1 &
  pid=$!
  wait "$pid"
  status=$?
  set -e
  out=$(cat "$tmp/out")
  calls=$(cat "$log")
}

expect_exec() { # NAME EXPECTED_ARGS: the last call is bottlebats ARGS, exec'd
  local last
  last=$(tail -n 1 <<<"$calls")
  if [ "$last" = "$pid bottlebats $2" ] && [ "$status" = 0 ]; then
    pass "$1"
  else
    fail "$1" "expected: $pid bottlebats $2 (status 0)" "calls: ${calls//$'\n'/ | }" \
      "status: $status" "output: ${out//$'\n'/ | }"
  fi
}
expect_calls() { # NAME EXPECTED_CALLS (without PIDs, one per line)
  local got
  got=$(sed -E 's/^[0-9]+ //' <<<"$calls")
  if [ "$got" = "$2" ]; then pass "$1"; else fail "$1" "expected: ${2//$'\n'/ | }" "got: ${got//$'\n'/ | }"; fi
}
expect_output() { # NAME TEXT: the output contains TEXT
  if [[ $out == *"$2"* ]]; then pass "$1"; else fail "$1" "expected output with: $2" "output: ${out//$'\n'/ | }"; fi
}
expect_no_output() { # NAME TEXT
  if [[ $out != *"$2"* ]]; then pass "$1"; else fail "$1" "unexpected output: $2" "output: ${out//$'\n'/ | }"; fi
}

# --- the command ------------------------------------------------------------------------

run -- && expect_exec "no arguments: exec bottlebats serve" "serve"
expect_calls "serve prints the doctor first" $'bottlebats doctor --strict\nbottlebats serve'
run -- --listen 0.0.0.0:9000 && expect_exec "flags alone are serve's" "serve --listen 0.0.0.0:9000"
run -- --help && expect_exec "--help goes to bottlebats as is" "--help"
run -- worker && expect_exec "worker" "worker"
expect_calls "worker prints the doctor first" $'bottlebats doctor --strict\nbottlebats worker'
run -- admin create-user alice --admin && expect_exec "admin: arguments kept" "admin create-user alice --admin"
expect_calls "admin runs no doctor" "bottlebats admin create-user alice --admin"
run -- map check "maps/a b.map" && expect_exec "arguments with spaces stay whole" "map check maps/a b.map"
run -- doctor && expect_calls "doctor runs once" "bottlebats doctor"
run BOTTLEBATS_DOCTOR=0 -- serve && expect_calls "BOTTLEBATS_DOCTOR=0" "bottlebats serve"
run FAKE_DOCTOR_EXIT=1 -- serve && expect_exec "a missing protection does not stop serve" "serve"
expect_output "a missing protection points at the privileges" "a protection is missing"
run FAKE_EXIT=3 -- play config.json
if [ "$status" = 3 ]; then pass "the exit status is bottlebats's"; else fail "the exit status is bottlebats's" "status: $status"; fi
run -- serve && expect_output "without DATABASE_URL it says so" "DATABASE_URL is not set"
run DATABASE_URL=postgres://x@127.0.0.1:1/db BOTTLEBATS_DB_WAIT=0 -- serve
expect_no_output "with DATABASE_URL it does not" "DATABASE_URL is not set"

# --- waiting for the database ----------------------------------------------------------

python3 - "$tmp/db-port" <<'EOF' &
import socket, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", 0))
s.listen(16)
open(sys.argv[1] + ".tmp", "w").write(str(s.getsockname()[1]))
import os; os.rename(sys.argv[1] + ".tmp", sys.argv[1])
while True:
    c, _ = s.accept()
    c.close()
EOF
server_pid=$!
for _ in $(seq 50); do [ -s "$tmp/db-port" ] && break; sleep 0.1; done
db_port=$(cat "$tmp/db-port")

start=$SECONDS
run "DATABASE_URL=postgres://bb:p%40ss@127.0.0.1:$db_port/bottlebats?sslmode=disable" -- serve
expect_exec "a database that answers: serve at once" "serve"
expect_no_output "a database that answers: no waiting" "waiting"
closed=$(free_port)
run "DATABASE_URL=postgresql://bb@127.0.0.1:$closed/bottlebats" BOTTLEBATS_DB_WAIT=2 -- worker
expect_output "a database that does not answer: waits" "waiting for the database at 127.0.0.1:$closed (up to 2s)"
expect_output "a database that does not answer: gives up" "did not answer in 2s; starting anyway"
expect_exec "a database that does not answer: runs anyway" "worker"
run "DATABASE_URL=postgres://bb:pw@bottlebats-test.invalid/bottlebats" BOTTLEBATS_DB_WAIT=1 -- admin status
expect_output "no port in the URL: 5432" "bottlebats-test.invalid:5432"
run "DATABASE_URL=postgres://bb:pw@127.0.0.1:$closed/bottlebats" BOTTLEBATS_DB_WAIT=5 -- doctor
expect_no_output "doctor does not wait for the database" "waiting"
run "DATABASE_URL=postgres:///bottlebats?host=/run/postgresql" BOTTLEBATS_DB_WAIT=5 -- serve
expect_no_output "a Unix socket URL: no TCP wait" "waiting"
if [ $((SECONDS - start)) -lt 30 ]; then pass "the waits are bounded"; else fail "the waits are bounded" "took $((SECONDS - start))s"; fi

# --- the cgroup tree --------------------------------------------------------------------

remount=mount' -o remount,bind,rw,nosuid,nodev,noexec'
run BOTTLEBATS_CGROUP_REMOUNT=yes BOTTLEBATS_ENTRYPOINT_PROC="$v2_ro" -- serve
expect_calls "cgroup v2 read-only: remounted writable" \
  "$remount /sys/fs/cgroup"$'\nbottlebats doctor --strict\nbottlebats serve'
expect_output "cgroup v2 read-only: says so" "made this container's cgroup tree writable"
run BOTTLEBATS_CGROUP_REMOUNT=yes BOTTLEBATS_ENTRYPOINT_PROC="$v1_ro" BOTTLEBATS_DOCTOR=0 -- worker
expect_calls "cgroup v1 read-only: each hierarchy remounted, not the tmpfs" \
  "$remount /sys/fs/cgroup/memory"$'\n'"$remount /sys/fs/cgroup/pids"$'\n'"$remount /sys/fs/cgroup/cpu,cpuacct"$'\nbottlebats worker'
run BOTTLEBATS_CGROUP_REMOUNT=yes BOTTLEBATS_ENTRYPOINT_PROC="$v2_rw" BOTTLEBATS_DOCTOR=0 -- serve
expect_calls "already writable: no remount" "bottlebats serve"
run BOTTLEBATS_CGROUP_REMOUNT=no BOTTLEBATS_ENTRYPOINT_PROC="$v2_ro" BOTTLEBATS_DOCTOR=0 -- serve
expect_calls "BOTTLEBATS_CGROUP_REMOUNT=no: no remount" "bottlebats serve"
run BOTTLEBATS_CGROUP_REMOUNT=auto BOTTLEBATS_ENTRYPOINT_PROC="$v2_host" BOTTLEBATS_DOCTOR=0 -- serve
expect_calls "the host's cgroup namespace: never remounted" "bottlebats serve"
run FAKE_UID=1000 BOTTLEBATS_CGROUP_REMOUNT=yes BOTTLEBATS_ENTRYPOINT_PROC="$v2_ro" BOTTLEBATS_DOCTOR=0 -- serve
expect_calls "not root: no remount" "bottlebats serve"
run FAKE_MOUNT_EXIT=32 BOTTLEBATS_CGROUP_REMOUNT=yes BOTTLEBATS_ENTRYPOINT_PROC="$v2_ro" BOTTLEBATS_DOCTOR=0 -- serve
expect_exec "a failed remount does not stop serve" "serve"
expect_output "a failed remount says what is missing" "cannot make the cgroup tree writable"

# --- the health check -------------------------------------------------------------------

# Processes as the health check sees them: NAME, then one argv per PID (fields split
# on spaces).
fake_processes() { # NAME ARGV...
  local dir=$tmp/ps-$1 n=1 argv
  shift
  mkdir -p "$dir"
  for argv in "$@"; do
    mkdir -p "$dir/$n"
    # shellcheck disable=SC2086 # split on purpose
    printf '%s\0' $argv >"$dir/$n/cmdline"
    n=$((n + 1))
  done
  echo "$dir"
}
web=$tmp/web
mkdir -p "$web"
printf '{"status":"ok","database":"ok"}\n' >"$web/healthz"
web_port=$(free_port)
python3 -m http.server "$web_port" --bind 127.0.0.1 --directory "$web" >/dev/null 2>&1 &
web_pid=$!
for _ in $(seq 50); do
  # shellcheck disable=SC2016 # $1 is the inner shell's
  timeout 1 bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$1"' _ "$web_port" 2>/dev/null && break
  sleep 0.1
done

check() { # NAME EXPECTED_STATUS PROC_DIR [VAR=VALUE...]
  local name=$1 want=$2 dir=$3 got
  shift 3
  set +e
  out=$(env BOTTLEBATS_HEALTHCHECK_PROC="$dir" "$@" "$healthcheck" 2>&1)
  got=$?
  set -e
  if [ "$got" = "$want" ]; then pass "$name"; else fail "$name" "expected status $want, got $got" "output: $out"; fi
}
serving=$(fake_processes serving \
  "/usr/bin/tini -- /usr/local/bin/bottlebats-entrypoint serve" "bottlebats serve")
check "serve answering 200: healthy" 0 "$serving" BOTTLEBATS_LISTEN="0.0.0.0:$web_port"
expect_output "the body is in the health log" '"database":"ok"'
check "serve not answering: unhealthy" 1 "$serving" BOTTLEBATS_LISTEN="0.0.0.0:$closed"
starting=$(fake_processes starting \
  "/usr/bin/tini -- /usr/local/bin/bottlebats-entrypoint" "/bin/bash /usr/local/bin/bottlebats-entrypoint")
check "default command, still starting: unhealthy" 1 "$starting" BOTTLEBATS_LISTEN="0.0.0.0:$closed"
flag=$(fake_processes flag "bottlebats serve --listen 127.0.0.1:$web_port")
check "--listen wins over BOTTLEBATS_LISTEN" 0 "$flag" BOTTLEBATS_LISTEN="0.0.0.0:$closed"
worker=$(fake_processes worker \
  "/usr/bin/tini -- /usr/local/bin/bottlebats-entrypoint worker" "bottlebats worker" "bottlebats doctor --strict")
check "a worker: healthy without a web server" 0 "$worker" BOTTLEBATS_LISTEN="0.0.0.0:$closed"
rm "$web/healthz"
check "serve answering 404: unhealthy" 1 "$serving" BOTTLEBATS_LISTEN="0.0.0.0:$web_port"

echo
if [ "$failures" = 0 ]; then
  echo "docker/test-entrypoint.sh: all passed"
else
  echo "docker/test-entrypoint.sh: $failures failed"
  exit 1
fi
