#!/bin/bash
# Entrypoint of the LOCAL STAND-IN for postgres:15 that docker/local-images.sh makes
# (Debian's postgresql-15, not the official image). It reads the official image's
# settings the way docker-compose.yml uses them:
#   POSTGRES_PASSWORD   the password of POSTGRES_USER (required, unless
#                       POSTGRES_HOST_AUTH_METHOD=trust)
#   POSTGRES_USER       the superuser initdb creates (default postgres)
#   POSTGRES_DB         a database created for it (default POSTGRES_USER)
#   PGDATA              the cluster's folder (default /var/lib/postgresql/data)
#   POSTGRES_HOST_AUTH_METHOD  for connections over TCP (default scram-sha-256)
#   POSTGRES_INITDB_ARGS       more arguments for initdb
# As the official image does: all of them are read only when PGDATA is empty; the first
# start runs a temporary server on the Unix socket only (so that a TCP health check
# fails until the real server listens); the server runs as the `postgres` user and
# listens on every address. Not done: /docker-entrypoint-initdb.d scripts.
set -Eeuo pipefail

say() { printf 'postgres-entrypoint: %s\n' "$*" >&2; }

if [ "${1:0:1}" = - ]; then
  set -- postgres "$@"
fi
[ "$1" = postgres ] || exec "$@"

export PGDATA=${PGDATA:-/var/lib/postgresql/data}

if [ "$(id -u)" = 0 ]; then
  mkdir -p "$PGDATA" /var/run/postgresql
  chown postgres:postgres "$PGDATA" /var/run/postgresql
  chmod 700 "$PGDATA"
  chmod 3777 /var/run/postgresql
  exec setpriv --reuid=postgres --regid=postgres --init-groups "${BASH_SOURCE[0]}" "$@"
fi

if [ ! -s "$PGDATA/PG_VERSION" ]; then
  user=${POSTGRES_USER:-postgres}
  db=${POSTGRES_DB:-$user}
  auth=${POSTGRES_HOST_AUTH_METHOD:-scram-sha-256}
  if [ -z "${POSTGRES_PASSWORD:-}" ] && [ "$auth" != trust ]; then
    say "the database is not initialised and POSTGRES_PASSWORD is not set:" \
      "set it (or POSTGRES_HOST_AUTH_METHOD=trust)"
    exit 1
  fi
  say "initialising a cluster in $PGDATA for user $user, database $db"
  # shellcheck disable=SC2086 # POSTGRES_INITDB_ARGS is split on purpose, as upstream does
  initdb --username="$user" --pwfile=<(printf '%s\n' "${POSTGRES_PASSWORD:-}") \
    --auth-local=trust --auth-host="$auth" --encoding=UTF8 --locale=C.UTF-8 \
    ${POSTGRES_INITDB_ARGS:-} -D "$PGDATA" >/dev/null
  printf '\nhost all all all %s\n' "$auth" >>"$PGDATA/pg_hba.conf"
  printf "\nlisten_addresses = '*'\n" >>"$PGDATA/postgresql.conf"
  pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
  if [ "$db" != postgres ]; then
    psql -v ON_ERROR_STOP=1 --no-psqlrc --username="$user" --dbname=postgres \
      --set db="$db" <<<'create database :"db";' >/dev/null
  fi
  pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  say "ready for start"
fi

exec "$@"
