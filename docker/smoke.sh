#!/bin/bash
# The Docker deployment end to end, with podman: builds the real Dockerfile, brings the
# real docker-compose.yml up under a project name and a port of its own, and checks from
# outside the containers what an organizer relies on:
#
#   1. the site answers on its published port, /healthz is ok, the image's health checks
#      pass, and `bottlebats doctor` in the server and worker containers shows every
#      protection of the sandbox active;
#   2. `admin create-user` and `admin create-token` work, and a bot uploaded over the API
#      builds in the container's sandbox, passes its test game and plays ranked matches;
#   3. with two worker containers, both play matches (their logs, /metrics);
#   4. `compose restart server worker` loses no finished match and counts none twice;
#      matches that were running are given back to the queue and played again;
#   5. `admin backup`, then `admin restore` into a fresh database volume, gives back the
#      same leaderboard and matches, and lists no worker of the backup's day;
#   6. `compose down` then `up` keeps everything (the volumes); the ladder plays on.
#
# Everything it makes (containers, pod, volumes, network, the image and its builder
# stage) is removed at the end, also when a check fails or it is interrupted. It takes
# 6 to 12 minutes on two cores, most of it building the image, too slow for every CI
# run: .ci/run does not run it.
#
#   docker/smoke.sh               run it
#   docker/smoke.sh --keep-image  keep the built image (bottlebats-smoke:ID) afterwards
#   docker/smoke.sh --image NAME  use an image built already instead of building one
#
# Needs: root, podman (tested with 4.3), podman-compose 1.4 or later (the first to read
# the compose key `scale`; Debian 12's 1.0.3 can neither scale nor give containers their
# stop grace period: `pip install podman-compose`), curl, python3; the base images (debian:bookworm-slim,
# rust:1-bookworm, postgres:15) pulled, or made by docker/local-images.sh where no
# registry is reachable. It checks the host's podman settings first and says what to
# change. Of the deployment only 127.0.0.1 is contacted (the site's published port);
# the build fetches crates and Debian packages, as the Dockerfile does anywhere.
#
# Environment: PODMAN_COMPOSE (default podman-compose), SMOKE_TIMEOUT_SCALE (multiplies
# every wait, default 1).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
started=$SECONDS
keep_image=0
given_image=
while [ $# -gt 0 ]; do
  case $1 in
    --keep-image) keep_image=1 ;;
    --image)
      given_image=${2:?--image needs a name}
      shift
      ;;
    -h | --help)
      sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
      exit 0
      ;;
    *)
      echo "smoke: unknown argument \`$1\` (--keep-image, --image NAME, --help)" >&2
      exit 2
      ;;
  esac
  shift
done

podman_compose=${PODMAN_COMPOSE:-podman-compose}
scale=${SMOKE_TIMEOUT_SCALE:-1}
id=$(od -An -N4 -tx1 /dev/urandom | tr -d ' \n')
project=bbsmoke-$id
image=${given_image:-localhost/bottlebats-smoke:$id}
tmp=$(mktemp -d /tmp/bottlebats-smoke.XXXXXX)
env_file=$tmp/compose.env
compose_log=$tmp/compose.log
checks=0

# --- output -----------------------------------------------------------------------------

elapsed() { printf '%2d:%02d' $(((SECONDS - started) / 60)) $(((SECONDS - started) % 60)); }
step() { printf '\n[%s] == %s\n' "$(elapsed)" "$*"; }
info() { printf '[%s]    %s\n' "$(elapsed)" "$*"; }
ok() {
  checks=$((checks + 1))
  printf '[%s] ok %s\n' "$(elapsed)" "$*"
}
fail() {
  printf '[%s] FAIL %s\n' "$(elapsed)" "$1" >&2
  shift
  local line
  for line in "$@"; do printf '       %s\n' "$line" >&2; done
  diagnose
  exit 1
}

# What an organizer would look at when something fails.
diagnose() {
  [ -n "${compose_up:-}" ] || return 0
  echo "--- containers" >&2
  podman ps -a --filter "label=io.podman.compose.project=$project" \
    --format '{{.Names}}  {{.Status}}' >&2 || true
  local c
  for c in $(podman ps -a -q --filter "label=io.podman.compose.project=$project" 2>/dev/null); do
    echo "--- last lines of $(podman inspect -f '{{.Name}}' "$c")" >&2
    podman logs --tail 25 "$c" 2>&1 | sed 's/^/  /' >&2 || true
  done
  echo "--- last lines of podman-compose ($compose_log)" >&2
  tail -n 15 "$compose_log" 2>/dev/null | sed 's/^/  /' >&2 || true
}

# podman-compose's version ("podman-compose version 1.6.0"; 1.0.3 says "podman-composer
# version  1.0.3").
compose_version() {
  "$podman_compose" version 2>/dev/null | grep -oE '^podman-composer? version:? +[0-9][0-9.]*' |
    grep -oE '[0-9][0-9.]*$' | head -n 1
}

# --- cleanup ----------------------------------------------------------------------------

cleanup() {
  local status=$? left
  local -a found
  trap - EXIT INT TERM
  set +e
  # A signal can land inside a redirected command (compose_quiet's): back to the
  # script's own output.
  exec 1>&3 2>&4
  if [ -n "${compose_up:-}" ]; then
    printf '\n[%s] == cleaning up project %s\n' "$(elapsed)" "$project"
    compose down --remove-orphans --volumes -t 5 >/dev/null 2>&1
    # Whatever podman-compose left: containers, pod, volumes, network of the project.
    mapfile -t found < <(podman ps -a -q --filter "label=io.podman.compose.project=$project")
    [ "${#found[@]}" = 0 ] || podman rm -f -t 0 "${found[@]}" >/dev/null 2>&1
    podman pod rm -f "pod_$project" >/dev/null 2>&1
    mapfile -t found < <(podman volume ls -q --filter "label=io.podman.compose.project=$project")
    [ "${#found[@]}" = 0 ] || podman volume rm -f "${found[@]}" >/dev/null 2>&1
    podman network rm -f "${project}_default" >/dev/null 2>&1
    left=$(
      podman ps -a -q --filter "label=io.podman.compose.project=$project"
      podman volume ls -q --filter "label=io.podman.compose.project=$project"
      podman network ls -q --filter "name=^${project}_default\$"
    )
    if [ -n "$left" ]; then
      echo "smoke: could not remove: $left" >&2
    else
      info "containers, pod, volumes and network removed"
    fi
  fi
  if [ -n "${built:-}" ]; then
    if [ "$keep_image" = 1 ]; then
      info "kept the image $image (podman rmi $image)"
    else
      podman rmi -f "$image" >/dev/null 2>&1 && info "removed the image $image"
    fi
  fi
  if [ -f "$tmp/dangling-before" ] && [ "$keep_image" = 0 ]; then
    mapfile -t found < <(comm -13 "$tmp/dangling-before" <(podman images -q --filter dangling=true | sort))
    [ "${#found[@]}" = 0 ] || podman rmi -f "${found[@]}" >/dev/null 2>&1
  fi
  rm -rf "$tmp"
  if [ "$status" = 0 ]; then
    printf '\nsmoke: all %d checks passed in %s (podman %s, %s)\n' "$checks" "$(elapsed)" \
      "$(podman version --format '{{.Client.Version}}' 2>/dev/null)" "podman-compose $(compose_version)"
  else
    printf '\nsmoke: FAILED after %d checks, in %s\n' "$checks" "$(elapsed)" >&2
  fi
  exit "$status"
}
exec 3>&1 4>&2
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- helpers ----------------------------------------------------------------------------

# podman-compose on this project, with this run's settings only: the caller's
# environment and any .env beside the compose file are left out. podman-compose does
# not implement the compose key `cgroup: private`; `--cgroupns=private` gives the
# containers what Docker gives them for it (podman's default on cgroup v2 hosts anyway).
compose_vars=(BOTTLEBATS_DATABASE_URL BOTTLEBATS_IMAGE BOTTLEBATS_LOG BOTTLEBATS_PORT
  BOTTLEBATS_BASE_URL BOTTLEBATS_SANDBOX POSTGRES_DB POSTGRES_PASSWORD POSTGRES_USER
  SERVER_MATCHES WORKER_CONTAINERS WORKER_MATCHES COMPOSE_PROFILES COMPOSE_PROJECT_NAME)
compose() {
  local -a unset=()
  local v
  for v in "${compose_vars[@]}"; do unset+=(-u "$v"); done
  env "${unset[@]}" "$podman_compose" --project-name "$project" \
    --file "$root/docker-compose.yml" --env-file "$env_file" \
    --podman-run-args=--cgroupns=private "$@" 2>>"$compose_log"
}
# compose, its output to the log; fails the run when it fails.
compose_quiet() {
  local t=$SECONDS
  echo "+ podman-compose $*" >>"$compose_log"
  compose "$@" >>"$compose_log" || fail "podman-compose $* failed"
  info "podman-compose $*: $((SECONDS - t))s"
}
# A command in the running container of SERVICE (its stdout only).
in_service() { # SERVICE COMMAND...
  local service=$1
  shift
  compose exec -T "$service" "$@"
}
sql() {
  in_service postgres psql -U bottlebats -d bottlebats -X -A -t -q -v ON_ERROR_STOP=1 -c "$1"
}
url() { printf 'http://127.0.0.1:%s%s' "$port" "$1"; }
# GET PATH [curl args]: the body; fails unless 2xx.
get() {
  local path=$1
  shift
  curl -sS -f -m 20 "$@" "$(url "$path")"
}
json() { # EXPRESSION (Python, on `d`), JSON on stdin
  python3 -c 'import json, sys; d = json.load(sys.stdin); v = eval(sys.argv[1]); print(v if not isinstance(v, (dict, list)) else json.dumps(v, sort_keys=True))' "$1"
}
# Polls COMMAND every 3 s until it succeeds, for at most SECONDS (times the scale).
wait_for() { # SECONDS WHAT COMMAND...
  local limit=$(($1 * scale)) what=$2 deadline
  shift 2
  deadline=$((SECONDS + limit))
  until "$@" >/dev/null 2>&1; do
    [ "$SECONDS" -lt "$deadline" ] || fail "$what: not within ${limit}s"
    sleep 3
  done
}
# A container's log (stdout and stderr), whole: never piped into `grep -q`, which would
# stop reading early and fail the pipe.
logs_of() { podman logs "$@" 2>&1; }
container() { # SERVICE [N]
  printf '%s_%s_%s' "$project" "$1" "${2:-1}"
}
healthz_ok() { [ "$(get /healthz | json 'd["status"]')" = ok ]; }
write_env() { # WORKER_CONTAINERS
  cat >"$env_file" <<EOF
BOTTLEBATS_IMAGE=$image
BOTTLEBATS_PORT=127.0.0.1:$port
BOTTLEBATS_METRICS_TOKEN=$metrics_token
POSTGRES_PASSWORD=$pg_password
SERVER_MATCHES=1
WORKER_MATCHES=1
WORKER_CONTAINERS=$1
EOF
}

# --- 0. the host --------------------------------------------------------------------------

step "host: podman and its settings"
[ "$(id -u)" = 0 ] || fail "run as root: the sandbox needs a rootful container (SYS_ADMIN, its own cgroups)"
for c in podman curl python3 "$podman_compose"; do
  command -v "$c" >/dev/null || fail "$c is not installed"
done
podman_version=$(podman version --format '{{.Client.Version}}')
pc_version=$(compose_version)
info "podman $podman_version, podman-compose $pc_version ($(command -v "$podman_compose"))"
if [ "$(printf '%s\n' "$pc_version" 1.4.0 | sort -V | head -n 1)" != 1.4.0 ]; then
  fail "podman-compose $pc_version is too old" \
    "1.4.0 or later reads the compose key scale (WORKER_CONTAINERS) and gives containers" \
    "their stop_grace_period;" \
    "e.g. python3 -m venv /opt/podman-compose && /opt/podman-compose/bin/pip install podman-compose" \
    "then PODMAN_COMPOSE=/opt/podman-compose/bin/podman-compose $0"
fi
runtime=$(podman info --format '{{.Host.OCIRuntime.Name}}')
cgroups=$(podman info --format '{{.Host.CgroupsVersion}}')
info "OCI runtime $runtime, cgroup $cgroups, cgroup manager $(podman info --format '{{.Host.CgroupManager}}')"
if [ "$runtime" = crun ] && [ "$cgroups" = v1 ] && grep -qs ' /sys/fs/cgroup/unified ' /proc/self/mountinfo; then
  fail "crun refuses this host's hybrid cgroups (\"cgroups in hybrid mode not supported\")" \
    "set runtime = \"runc\" under [engine] in /etc/containers/containers.conf"
fi
for base in docker.io/library/debian:bookworm-slim docker.io/library/rust:1-bookworm docker.io/library/postgres:15; do
  if ! podman image exists "$base"; then
    if [ -n "$given_image" ] && [ "$base" != docker.io/library/postgres:15 ]; then continue; fi
    fail "the base image $base is missing" \
      "pull it (podman pull $base), or where no registry is reachable make local" \
      "stand-ins with docker/local-images.sh"
  fi
  if [ -n "$(podman image inspect --format '{{index .Labels "org.bottlebats.local-stand-in"}}' "$base")" ]; then
    info "$base: a LOCAL STAND-IN made by docker/local-images.sh, not the official image"
  else
    info "$base: present"
  fi
done
# A container with the compose file's privileges, as a probe of the host's settings.
if ! probe=$(podman run --rm --pull=never --cgroupns=private --cap-add SYS_ADMIN \
  --security-opt seccomp=unconfined --security-opt apparmor=unconfined \
  --security-opt systempaths=unconfined docker.io/library/postgres:15 \
  sh -c 'cat /proc/self/cgroup' 2>&1); then
  case $probe in
    *rlimit* | *ulimit* | *RLIMIT*)
      fail "podman cannot start a container: it sets default ulimits that this root may not raise" \
        "(no CAP_SYS_RESOURCE here); in /etc/containers/containers.conf set" \
        "[containers] default_ulimits = []" "podman said: $probe"
      ;;
    *hybrid*)
      fail "the OCI runtime refuses hybrid cgroups: set runtime = \"runc\" under [engine]" \
        "in /etc/containers/containers.conf" "podman said: $probe"
      ;;
    *) fail "podman cannot start a container" "podman said: $probe" ;;
  esac
fi
if grep -qv ':/$' <<<"$probe"; then
  fail "--cgroupns=private does not give containers a cgroup namespace of their own" "$probe"
fi
ok "podman starts containers with the compose file's privileges and a private cgroup namespace"
if [ "$(podman info --format '{{.Host.CgroupManager}}')" = cgroupfs ] && [ ! -S /run/systemd/private ]; then
  info "no systemd: podman does not run health checks on a timer; this script runs them"
fi

# --- build --------------------------------------------------------------------------------

if [ -z "$given_image" ]; then
  step "podman build of the Dockerfile (nice; several minutes)"
  build_started=$SECONDS
  # The build's other stage (the builder) stays behind as an unnamed image: noted, to be
  # removed with the image. (Cargo's cache mounts stay in buildah's cache for next time.)
  podman images -q --filter dangling=true | sort >"$tmp/dangling-before"
  # --format docker: the OCI format has no HEALTHCHECK, and Docker keeps it.
  revision=$(git -C "$root" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
  if ! nice podman build --format docker --pull=never --build-arg "GIT_REVISION=$revision" \
    -t "$image" "$root" >"$tmp/build.log" 2>&1; then
    tail -n 40 "$tmp/build.log" >&2
    fail "podman build failed"
  fi
  built=1
  ok "built $image in $((SECONDS - build_started))s ($(podman image inspect --format '{{.Size}}' "$image" | awk '{printf "%.2f GB", $1 / 1e9}'))"
else
  podman image exists "$image" || fail "there is no image $image"
  info "using the image $image"
fi
[ -n "$(podman image inspect --format '{{if .HealthCheck}}yes{{end}}' "$image")" ] ||
  fail "the image has no HEALTHCHECK (podman builds it only in the docker format)"

# --- 1. up --------------------------------------------------------------------------------

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
pg_password=$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
metrics_token=$(od -An -N16 -tx1 /dev/urandom | tr -d " \n")
write_env 1
step "podman-compose up: project $project, site on 127.0.0.1:$port"
compose_up=1
compose_quiet up -d --no-build
wait_for 240 "GET /healthz answering ok" healthz_ok
ok "GET /healthz: $(get /healthz)"
[ "$(get /healthz | json 'd["revision"]')" = "${revision:-$(git -C "$root" rev-parse --short=12 HEAD)}" ] ||
  fail "the image does not name the revision it was built from"
home=$(get /) || fail "GET / failed"
[[ $home == *"Bottle Bats"* ]] || fail "GET / is not the site's home page"
ok "GET / on the published port 127.0.0.1:$port is the site"
[ -z "$(podman port "$(container postgres)")" ] || fail "the database's port is published"
ok "the database is not published: $(podman port "$(container server)" | head -n 1) is the only port"
for c in postgres server worker; do
  wait_for 60 "the health check of $c" podman healthcheck run "$(container "$c")"
done
ok "health checks pass: postgres (pg_isready over TCP), server (GET /healthz from inside), worker"

for c in server worker; do
  doctor=$(in_service "$c" bottlebats doctor --strict) ||
    fail "bottlebats doctor --strict in the $c container reports a missing protection" "$doctor"
  [ "$c" = worker ] || printf '%s\n' "$doctor" | sed 's/^/       /'
  active=$(grep -cE '^(network|filesystem|memory|processes|cpu accounting|uid) +yes ' <<<"$doctor" || true)
  [ "$active" = 6 ] || fail "doctor shows $active of 6 protections active in the $c container"
  ok "compose exec $c bottlebats doctor: all 6 protections active"
done
for c in server worker; do
  grep -q "Every protection is active" <<<"$(logs_of "$(container "$c")")" ||
    fail "the $c container did not print the doctor's table at start"
done
ok "both containers printed \`bottlebats doctor\` at start (compose logs)"

# --- 2. accounts, an upload, ranked matches --------------------------------------------------

step "accounts and an upload over the API"
organizer=smoke-organizer
password=$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
out=$(in_service server bottlebats admin create-user "$organizer" --admin --password "$password") ||
  fail "admin create-user failed" "$out"
ok "compose exec server bottlebats admin create-user: $out"
token=$(in_service server bottlebats admin create-token "$organizer" --name smoke | tail -n 1)
[ -n "$token" ] || fail "admin create-token printed no token"
me=$(get /api/me -H "Authorization: Bearer $token" | json 'd.get("name")') || fail "GET /api/me with the token failed"
[ "$me" = "$organizer" ] || fail "GET /api/me with the token says $me"
ok "admin create-token: the token works on the API (/api/me is $me)"

bot=smokebot
upload=$(curl -sS -m 60 -w '\n%{http_code}' -H "Authorization: Bearer $token" \
  -F "name=$bot" -F "file=@$root/games/bottlebats/bots/starters/python/bot.py" "$(url /api/bots)")
[ "$(tail -n 1 <<<"$upload")" = 201 ] || fail "POST /api/bots did not answer 201" "$upload"
ok "POST /api/bots (multipart name, file; Bearer token): $(head -n 1 <<<"$upload")"
bot_status() { get "/api/bots/$bot" -H "Authorization: Bearer $token" | json 'd["versions"][0]["status"]'; }
bot_settled() { case $(bot_status) in active | failed) return 0 ;; *) return 1 ;; esac; }
wait_for 600 "the upload built and tested" bot_settled
if [ "$(bot_status)" != active ]; then
  fail "the upload did not become active" "$(get "/api/bots/$bot" -H "Authorization: Bearer $token")"
fi
ok "the bot was built in the container's sandbox and passed its test game: status active"
bot_games() { get "/api/bots/$bot" | json 'd["games"]'; }
played_two() { [ "$(bot_games)" -ge 2 ]; }
wait_for 900 "the bot playing two ranked matches" played_two
ok "the bot plays ranked matches: $(get "/api/bots/$bot" | json '"%d games, rating %s" % (d["games"], d["rating"])')"

# --- 3. two worker containers ------------------------------------------------------------------

step "two worker containers (WORKER_CONTAINERS=2, as --scale worker=2)"
write_env 2
scaled_at=$(date -u +%Y-%m-%dT%H:%M:%SZ)
compose_quiet up -d --no-build
wait_for 120 "worker 2 running" sh -c "podman ps --format '{{.Names}}' | grep -qx '$(container worker 2)'"
plays() { grep -q ' recorded ' <<<"$(logs_of --since "$scaled_at" "$(container worker "$1")")"; }
both_play() { plays 1 && plays 2; }
wait_for 900 "both worker containers recording matches" both_play
for n in 1 2; do
  info "$(container worker "$n"): $(grep -c ' recorded ' <<<"$(logs_of --since "$scaled_at" "$(container worker "$n")")") matches recorded since the scale-up"
done
[ "$(curl -s -o /dev/null -w '%{http_code}' -m 20 "$(url /metrics)")" = 401 ] ||
  fail "/metrics answered without its token"
metrics=$(get /metrics -H "Authorization: Bearer $metrics_token")
for n in 1 2; do
  host=$(podman inspect -f '{{.Config.Hostname}}' "$(container worker "$n")")
  grep -q "^bottlebats_worker_heartbeat_age_seconds{worker=\"$host-" <<<"$metrics" ||
    fail "worker $n ($host) is not on /metrics" "$(grep heartbeat <<<"$metrics")"
done
ok "both worker containers play matches, and both report on /metrics:"
grep -E '^bottlebats_(workers|worker_heartbeat_age_seconds|queue_matches|matches)[ {]' <<<"$metrics" | sed 's/^/       /'

# --- 4. restart -----------------------------------------------------------------------------

step "compose restart server worker, with matches running"
running_now() { [ "$(sql "select count(*) from matches where status = 'running'")" -ge 1 ]; }
wait_for 300 "a match running" running_now
# Bots' game counts must equal their finished matches, and every player of a finished
# match has one rating change: a match counted twice breaks both. One statement, so one
# snapshot while matches are being recorded.
disagreements() {
  sql "select (select count(*) from bots b where b.games <> (select count(*) from match_players p \
      join matches m on m.id = p.match_id where p.bot_id = b.id and m.status = 'finished')) \
    + abs((select count(*) from rating_history) - (select count(*) from match_players p \
      join matches m on m.id = p.match_id where m.status = 'finished'))"
}
counts_agree() { [ "$(disagreements)" = 0 ]; }
counts_agree || fail "before the restart, bots' game counts already disagree with their matches"
finished_before=$(sql "select id || ' ' || coalesce(winner_seat::text, 'draw') || ' ' || turns from matches where status = 'finished' order by id")
running_before=$(sql "select id from matches where status = 'running' order by id")
info "$(wc -l <<<"$finished_before") finished, running: $(tr '\n' ' ' <<<"$running_before")"
restart_at=$(date -u +%Y-%m-%dT%H:%M:%SZ)
compose_quiet restart server worker
wait_for 240 "GET /healthz after the restart" healthz_ok
finished_after=$(sql "select id || ' ' || coalesce(winner_seat::text, 'draw') || ' ' || turns from matches where status = 'finished' order by id")
missing=$(comm -23 <(sort <<<"$finished_before") <(sort <<<"$finished_after"))
[ -z "$missing" ] || fail "finished matches lost or changed by the restart" "$missing"
ok "no finished match lost or changed ($(wc -l <<<"$finished_before") before, $(wc -l <<<"$finished_after") now)"
counts_agree || fail "after the restart a match is counted twice (bots' games or rating history)" \
  "$(sql "select b.name, b.games from bots b")"
ok "no match counted twice: every bot's games = its finished matches; one rating change per player and match"
for m in $running_before; do
  state=$(sql "select status || ' ' || attempts || ' ' || coalesce(lease_owner, '-') from matches where id = $m")
  case $state in
    queued* | running* | finished*) ;;
    *) fail "match $m, running at the restart, is now: $state" ;;
  esac
done
stale() { [ "$(sql "select count(*) from matches where status = 'running' and lease_owner not in (select name from workers)")" = 0 ]; }
wait_for 60 "no match held by a worker that is gone" stale
listed() { [ "$(in_service server bottlebats admin status | grep -c ' last heard ')" -ge 3 ]; }
wait_for 60 "admin status listing the three workers again" listed
requeued=0
for c in "$(container server)" "$(container worker 1)" "$(container worker 2)"; do
  requeued=$((requeued + $(grep -c 'giving the match back to the queue' <<<"$(logs_of --since "$restart_at" "$c")" || true)))
done
[ "$requeued" -ge 1 ] || fail "no container said it gave its match back to the queue on stop"
ok "the $(wc -w <<<"$running_before") match(es) running at the restart went back to the queue ($requeued said so on stop), none held by a stopped worker"
replayed() {
  local m
  for m in $running_before; do
    [ "$(sql "select status from matches where id = $m")" = finished ] || return 1
  done
}
wait_for 900 "the requeued matches finishing" replayed
counts_agree || fail "after replaying the requeued matches, a match is counted twice"
ok "the requeued matches were played again and each counted once"

# --- 5. backup and restore into a fresh database volume --------------------------------------

step "admin backup, then restore into a fresh database volume"
out=$(in_service server bottlebats admin pause) || fail "admin pause failed" "$out"
idle() { [ "$(sql "select count(*) from matches where status = 'running'")" = 0 ]; }
wait_for 900 "running matches finishing after the pause" idle
sleep 2 # the leaderboard is cached for a second
board_before=$(get /api/leaderboard | json d)
matches_before=$(get /api/matches | json '[m["id"] for m in d["matches"]]')
finished_count=$(sql "select count(*) from matches where status = 'finished'")
info "ranker paused; $finished_count finished matches; $(json 'len(d)' <<<"$(get /api/leaderboard | json 'd["leaderboard"]')") bots on the leaderboard"
out=$(in_service server bottlebats admin backup /data/backup.dump) || fail "admin backup failed" "$out"
ok "compose exec server bottlebats admin backup /data/backup.dump: $out"
podman cp "$(container server):/data/backup.dump" "$tmp/backup.dump" || fail "podman cp of the backup failed"
info "copied out of the container: $(du -h "$tmp/backup.dump" | cut -f1)"
# podman-compose stops every service at once, the database too, where docker compose
# stops those that depend on it first: a worker then waits out its database timeout
# (30 s) to say goodbye. Stopping them first is the order docker compose keeps.
compose_quiet stop server worker
compose_quiet down
podman volume rm "${project}_postgres" >/dev/null || fail "could not remove the database volume"
compose_quiet up -d --no-build postgres
wait_for 120 "the fresh database" podman healthcheck run "$(container postgres)"
[ "$(sql "select count(*) from information_schema.tables where table_schema = 'public'")" = 0 ] ||
  fail "the new database volume is not empty"
ok "a fresh, empty database volume"
out=$(compose run --rm server admin restore /data/backup.dump 2>&1) || fail "admin restore failed" "$out"
out=${out//$'\r'/} # podman-compose run hands on the container's terminal line ends
grep -q '^restored ' <<<"$out" || fail "admin restore said no \`restored\`" "$out"
ok "compose run --rm server admin restore /data/backup.dump: $(grep '^restored ' <<<"$out")"
compose_quiet up -d --no-build
wait_for 240 "GET /healthz after the restore" healthz_ok
sleep 2
board_after=$(get /api/leaderboard | json d)
[ "$board_after" = "$board_before" ] || fail "the leaderboard differs after the restore" \
  "before: $board_before" "after:  $board_after"
[ "$(get /api/matches | json '[m["id"] for m in d["matches"]]')" = "$matches_before" ] ||
  fail "the match list differs after the restore"
[ "$(sql "select count(*) from matches where status = 'finished'")" = "$finished_count" ] ||
  fail "the number of finished matches differs after the restore"
me=$(get /api/me -H "Authorization: Bearer $token" | json 'd.get("name")')
[ "$me" = "$organizer" ] || fail "the API token does not work after the restore"
ok "after the restore: the same leaderboard, match list and $finished_count finished matches; the token works"
# The backup listed the workers of its day; only the running ones may be listed now.
sleep 5
stale=$(sql "select string_agg(name, ' ') from workers where heartbeat_at < now() - interval '30 seconds'")
[ -z "$stale" ] || fail "workers listed from the backup's day, silent since: $stale" \
  "$(in_service server bottlebats admin status | sed -n '/^workers:/,/^$/p')"
ok "admin status lists only the running workers, none from the backup's day"

# --- 6. down and up ---------------------------------------------------------------------------

step "compose down, then up: the volumes keep everything"
builds_before=$(in_service server sh -c 'ls /data/builds | wc -l')
compose_quiet stop server worker
compose_quiet down
[ -z "$(podman ps -a -q --filter "label=io.podman.compose.project=$project")" ] ||
  fail "compose down left containers"
compose_quiet up -d --no-build
wait_for 240 "GET /healthz after down and up" healthz_ok
sleep 2
[ "$(get /api/leaderboard | json d)" = "$board_before" ] || fail "the leaderboard differs after down and up"
me=$(get /api/me -H "Authorization: Bearer $token" | json 'd.get("name")')
[ "$me" = "$organizer" ] || fail "the API token does not work after down and up"
builds_after=$(in_service server sh -c 'ls /data/builds | wc -l')
[ "$builds_after" -ge "$builds_before" ] || fail "the build cache (data volume) lost builds"
ok "after down and up: the same leaderboard, the token works, the build cache kept its $builds_after builds"
out=$(in_service server bottlebats admin resume) || fail "admin resume failed" "$out"
more_finished() { [ "$(sql "select count(*) from matches where status = 'finished'")" -gt "$finished_count" ]; }
wait_for 900 "a match finishing after resume" more_finished
ok "the ladder plays on: $(sql "select count(*) from matches where status = 'finished'") finished matches"
status=$(in_service server bottlebats admin status)
printf '%s\n' "$status" | sed -n '1,/^maps:/p' | sed '$d' | sed 's/^/       /'
