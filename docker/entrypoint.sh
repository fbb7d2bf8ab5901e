#!/bin/bash
# Entrypoint of the Bottle Bats image, started by tini (PID 1):
#   1. makes the container's own cgroup tree writable, so the sandbox can give every bot
#      a cgroup limiting its memory and processes (Docker mounts it read-only);
#   2. waits for the database of DATABASE_URL to accept connections;
#   3. before `serve` and `worker`, prints `bottlebats doctor`: what protects bots here;
#   4. execs `bottlebats "$@"` (`serve` when no command is given).
#
# Environment:
#   BOTTLEBATS_DB_WAIT         seconds to wait for the database (default 60; 0: no wait)
#   BOTTLEBATS_CGROUP_REMOUNT  auto (default): only in a container with its own cgroup
#                              namespace; yes; no
#   BOTTLEBATS_DOCTOR          1 (default): print `bottlebats doctor` before serve and
#                              worker; 0: don't
#   BOTTLEBATS_ENTRYPOINT_PROC for tests: read mountinfo and cgroup from here, not /proc
set -euo pipefail

say() { printf 'bottlebats-entrypoint: %s\n' "$*" >&2; }

proc=${BOTTLEBATS_ENTRYPOINT_PROC:-/proc}

# --- the command ----------------------------------------------------------------------

if [ $# -eq 0 ]; then
  set -- serve
fi
case $1 in
  -h | --help | -V | --version) ;;
  -*) set -- serve "$@" ;; # flags alone are serve's: `docker run IMAGE --listen ...`
esac
command=$1

# --- 1. a writable cgroup tree ----------------------------------------------------------

# Mount points of read-only cgroup file systems under /sys/fs/cgroup, one per line.
# mountinfo: ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPER
read_only_cgroups() {
  local -a f
  local i
  while read -r -a f; do
    i=6
    while [ "$i" -lt "${#f[@]}" ] && [ "${f[i]}" != "-" ]; do i=$((i + 1)); done
    case ${f[i + 1]:-} in cgroup | cgroup2) ;; *) continue ;; esac
    case ${f[4]} in /sys/fs/cgroup | /sys/fs/cgroup/*) ;; *) continue ;; esac
    case ",${f[5]}," in *,ro,*) printf '%s\n' "${f[4]}" ;; esac
  done <"$proc/self/mountinfo"
}

# True when we sit at the root of every cgroup hierarchy we see: a cgroup namespace of
# our own, where the tree under /sys/fs/cgroup is this container's and no more.
own_cgroup_namespace() {
  local path seen=0
  while IFS=: read -r _ _ path; do
    seen=1
    [ "$path" = / ] || return 1
  done <"$proc/self/cgroup"
  [ "$seen" = 1 ]
}

in_container() { [ -e /.dockerenv ] || [ -e /run/.containerenv ]; }

make_cgroups_writable() {
  local mode=${BOTTLEBATS_CGROUP_REMOUNT:-auto} mountpoint failed=0
  local -a mounts
  case $mode in
    no | 0 | false) return 0 ;;
    yes | 1 | true | auto) ;;
    *)
      say "BOTTLEBATS_CGROUP_REMOUNT is auto, yes or no, not \`$mode\`: leaving cgroups as they are"
      return 0
      ;;
  esac
  [ "$(id -u)" = 0 ] || return 0
  [ -r "$proc/self/mountinfo" ] || return 0
  mapfile -t mounts < <(read_only_cgroups)
  [ "${#mounts[@]}" -gt 0 ] || return 0
  if [ "$mode" = auto ]; then
    in_container || return 0
    if ! own_cgroup_namespace; then
      # Writable, the host's whole cgroup tree would be open to this container.
      say "the cgroup tree is read-only and shared with the host (cgroup: host):" \
        "leaving it so; run the container with its own cgroup namespace" \
        "(compose \`cgroup: private\`, docker run --cgroupns=private) for bot limits"
      return 0
    fi
  fi
  for mountpoint in "${mounts[@]}"; do
    # A bind remount changes this mount's flags only, never the file system's.
    mount -o remount,bind,rw,nosuid,nodev,noexec "$mountpoint" 2>/dev/null || failed=1
  done
  if [ "$failed" = 0 ]; then
    say "made this container's cgroup tree writable for the bot sandbox"
  else
    say "cannot make the cgroup tree writable (the container needs cap_add SYS_ADMIN" \
      "and apparmor=unconfined): bots get no memory or process limits from cgroups"
  fi
}

# --- 2. the database --------------------------------------------------------------------

# "HOST PORT" of a postgres:// URL, or nothing (no URL, a Unix socket, another scheme).
database_address() {
  local url=$1 authority host port
  case $url in postgres://* | postgresql://*) ;; *) return 0 ;; esac
  authority=${url#*://}
  authority=${authority%%[/?#]*}
  authority=${authority##*@}  # after user:password@
  authority=${authority%%,*}  # the first of several hosts
  if [[ $authority == \[* ]]; then # [IPv6]:port
    host=${authority%%]*}
    host=${host#[}
    port=${authority#*]}
  else
    host=${authority%%:*}
    port=${authority#"$host"}
  fi
  port=${port#:}
  [ -n "$host" ] || return 0
  printf '%s %s\n' "$host" "${port:-5432}"
}

wait_for_database() {
  local limit=${BOTTLEBATS_DB_WAIT:-60} address host port deadline
  [ -n "${DATABASE_URL:-}" ] || return 0
  case $limit in '' | *[!0-9]*) limit=60 ;; esac
  [ "$limit" -gt 0 ] || return 0
  address=$(database_address "$DATABASE_URL")
  [ -n "$address" ] || return 0
  read -r host port <<<"$address"
  deadline=$((SECONDS + limit))
  local said=0
  # bash opens TCP connections itself (/dev/tcp): no client package needed.
  # shellcheck disable=SC2016 # $1 and $2 are the inner shell's
  until timeout 3 bash -c 'exec 3<>"/dev/tcp/$1/$2"' _ "$host" "$port" 2>/dev/null; do
    if [ "$said" = 0 ]; then
      say "waiting for the database at $host:$port (up to ${limit}s)"
      said=1
    fi
    if [ "$SECONDS" -ge "$deadline" ]; then
      say "the database at $host:$port did not answer in ${limit}s; starting anyway"
      return 0
    fi
    sleep 1
  done
  if [ "$said" = 1 ]; then say "the database at $host:$port answers"; fi
}

# --- run --------------------------------------------------------------------------------

make_cgroups_writable

case $command in
  serve | worker | admin)
    if [ -z "${DATABASE_URL:-}" ] && [ -z "${BOTTLEBATS_CONFIG:-}" ]; then
      say "DATABASE_URL is not set and this image has no PostgreSQL server:" \
        "set DATABASE_URL to your database (docker-compose.yml does)"
    fi
    wait_for_database
    ;;
esac

case $command in
  serve | worker)
    if [ "${BOTTLEBATS_DOCTOR:-1}" != 0 ]; then
      say "what protects bots in this container (bottlebats doctor):"
      if ! bottlebats doctor --strict; then
        say "a protection is missing: see the privileges in docker-compose.yml" \
          "(cap_add SYS_ADMIN; security_opt seccomp, apparmor and systempaths" \
          "unconfined; cgroup: private) and docs/operator.md, \"Deploying with Docker\""
      fi
    fi
    ;;
esac

exec bottlebats "$@"
