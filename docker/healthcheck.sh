#!/bin/bash
# Health check of the Bottle Bats image: GET /healthz of the `bottlebats serve` this
# container runs (200 when the site and its database answer, 503 when the database does
# not). A container running anything else (a `worker`, a one-off command) has no web
# server to ask and is healthy while it runs: it stops when its process ends.
#
# Plain bash (its /dev/tcp), as the slim image has neither curl nor wget.
# The port is that of `--listen` when serve was started with it, else BOTTLEBATS_LISTEN.
# For tests: BOTTLEBATS_HEALTHCHECK_PROC reads processes from there, not /proc.
set -u

proc=${BOTTLEBATS_HEALTHCHECK_PROC:-/proc}
listen=${BOTTLEBATS_LISTEN:-127.0.0.1:8000}

# What each process runs: tini and the entrypoint carry the command after the
# entrypoint's path (empty or a flag: serve); bottlebats itself carries it first.
serving=0
for file in "$proc"/[0-9]*/cmdline; do
  argv=()
  mapfile -d '' -t argv <"$file" 2>/dev/null || continue
  [ "${#argv[@]}" -gt 0 ] || continue
  at=-1
  for ((i = 0; i < ${#argv[@]}; i++)); do
    case ${argv[i]##*/} in
      bottlebats-entrypoint | entrypoint.sh) at=$i && break ;;
    esac
  done
  if [ "$at" -lt 0 ] && [ "${argv[0]##*/}" = bottlebats ]; then at=0; fi
  [ "$at" -ge 0 ] || continue
  command=${argv[at + 1]:-serve}
  case $command in -h | --help | -V | --version) continue ;; -*) command=serve ;; esac
  [ "$command" = serve ] || continue
  serving=1
  for ((i = at + 1; i < ${#argv[@]}; i++)); do
    case ${argv[i]} in
      --listen) listen=${argv[i + 1]:-$listen} ;;
      --listen=*) listen=${argv[i]#--listen=} ;;
    esac
  done
  break
done
[ "$serving" = 1 ] || exit 0

port=${listen##*:}
host=${listen%:*}
host=${host#[}
host=${host%]}
case $host in '' | 0.0.0.0 | ::) host=127.0.0.1 ;; esac

if ! exec 3<>"/dev/tcp/$host/$port"; then
  echo "unhealthy: nothing answers on $host:$port"
  exit 1
fi 2>/dev/null
printf 'GET /healthz HTTP/1.0\r\nHost: localhost\r\nConnection: close\r\n\r\n' >&3
status=
IFS= read -r -t 4 status <&3
status=${status%$'\r'}
body=$(timeout 1 cat <&3 2>/dev/null | tail -n 1)
case $status in
  "HTTP/1."?" 200"*)
    echo "healthy: $body"
    exit 0
    ;;
esac
echo "unhealthy: GET /healthz on $host:$port: ${status:-no answer} ${body}"
exit 1
