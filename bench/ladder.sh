#!/usr/bin/env bash
# Whole ranked matches per minute on this machine, with the four house bots.
#
# Builds the release binary, serves a fresh site (embedded PostgreSQL in a temporary
# data folder) on 127.0.0.1 with its default match workers (half the cores), waits
# until it has built the house bots (idle, random, greedy, strong), lets the ladder
# play for DURATION seconds, then counts the matches that finished in that time with
# psql on the embedded cluster and prints matches per minute, their average turns and
# duration, by the number of players.
#
# With CHALLENGES=N, a contestant's bot (the greedy house bot's code) is uploaded and N
# challenge games (in challenges of 20) are queued before the clock starts, so that
# challenges wait throughout: the ranked matches per minute then show what the ladder
# keeps, against a run with CHALLENGES=0 (the same five bots, no challenge), and the
# challenges' share of the workers' time is printed.
#
# With OWNERS=N (and BOTS_PER_OWNER=K, default 3), N contestants upload K bots each
# (the house bots' code, one owner's bots never meet) before the clock starts, and a new
# version of one of them arrives every NEW_VERSION_EVERY seconds (default 30) for the
# first SETTLE seconds (default a third of DURATION): the script then prints, for the
# ranked games from SETTLE on (the new versions settled), the longest wait of a bot
# between its games against the ladder's mean gap between a bot's games (and the three
# longest, by bot), and the share of bots whose games per hour are within 25% of the
# mean.
#
# Usage: bench/ladder.sh          (from anywhere; needs curl, psql, python3, bubblewrap)
# Knobs (environment): DURATION (default 60 seconds), WORKERS (the server's default),
# CHALLENGES=N (see above),
# PORT (a free one), NO_BUILD=1 to use the binary already built, BIN=path to another
# build of bottlebats, SANDBOX=best-effort where the sandbox is incomplete.
#
# Ranked games run in the sandbox, 500 turns at most, on every shipped map (half
# of them for 3 to 8 players). The house bots are Python: starting the interpreters
# and their thinking is most of a match's time. The script stops the server (SIGTERM:
# the match being played goes back to the queue, then its database stops) and deletes
# the data folder when it ends, however it ends.

set -euo pipefail

DURATION=${DURATION:-60}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
needs curl psql python3
build -p server
unset DATABASE_URL # the embedded PostgreSQL, read with psql below
ARGS=()
[[ -n "${WORKERS:-}" ]] && ARGS+=(--workers "$WORKERS")
[[ -n "${SANDBOX:-}" ]] && ARGS+=(--sandbox "$SANDBOX")
[[ -n "${CHALLENGES:-}" ]] && ARGS+=(--challenge-games-per-hour 100000 --challenges-at-once 1000)
serve "${ARGS[@]}"

# psql on the embedded cluster: its socket folder, and the port on line 4 of its
# postmaster.pid.
PG_PORT=$(sed -n 4p "$PGDIR/postmaster.pid")
sql() { psql -X -q -t -A -F '|' -h "$PGDIR" -p "$PG_PORT" -U bottlebats -d bottlebats -c "$1"; }

echo "== waiting for the house bots to be built and smoke-tested"
for i in $(seq 3000); do
    active=$(sql "select count(*) from bots where active_version_id is not null")
    [[ "$active" -ge 4 ]] && break
    kill -0 "$SERVER_PID" 2>/dev/null || { echo "the server exited" >&2; exit 1; }
    [[ $i -lt 3000 ]] || { echo "the house bots were not built within 300 s" >&2; exit 1; }
    sleep 0.1
done
if [[ -n "${CHALLENGES:-}" ]]; then
    echo "== a contestant's bot, and ${CHALLENGES} challenge games queued"
    "$BIN" admin --data-dir "$DATA" create-user challenger --password "a long enough secret" >/dev/null
    TOKEN=$("$BIN" admin --data-dir "$DATA" create-token challenger | tail -n1)
    curl -sf -H "Authorization: Bearer $TOKEN" -F name=challenger \
        -F "file=@$(dirname "${BASH_SOURCE[0]}")/../games/bottlebats/bots/house/greedy/bot.py" "$URL/api/bots" >/dev/null
    for i in $(seq 600); do
        [[ $(sql "select count(*) from bots where name = 'challenger' and active_version_id is not null") == 1 ]] && break
        [[ $i -lt 600 ]] || { echo "the challenger was not built within 60 s" >&2; exit 1; }
        sleep 0.1
    done
    for i in $(seq $((CHALLENGES / 20))); do
        curl -sf -H "Authorization: Bearer $TOKEN" -H "Content-Type: application/json" \
            -d '{"bot": "challenger", "opponents": {"near": 3}, "games": 20}' \
            "$URL/api/challenges" >/dev/null
    done
fi
BOT_CODE=("$ROOT/games/bottlebats/bots/house/greedy/bot.py" "$ROOT/games/bottlebats/bots/house/random/bot.py" "$ROOT/games/bottlebats/bots/house/strong/bot.py")
if [[ -n "${OWNERS:-}" ]]; then
    k=${BOTS_PER_OWNER:-3}
    echo "== ${OWNERS} owners upload ${k} bots each"
    OWNER_TOKENS=()
    for o in $(seq "$OWNERS"); do
        "$BIN" admin --data-dir "$DATA" create-user "owner$o" --password "a long enough secret" >/dev/null
        t=$("$BIN" admin --data-dir "$DATA" create-token "owner$o" | tail -n1)
        OWNER_TOKENS+=("$t")
        for b in $(seq "$k"); do
            curl -sf -H "Authorization: Bearer $t" -F "name=o${o}b${b}" \
                -F "file=@${BOT_CODE[$(( (o + b) % 3 ))]}" "$URL/api/bots" >/dev/null
        done
    done
    want=$((4 + OWNERS * k))
    for i in $(seq 3000); do
        [[ $(sql "select count(*) from bots where active_version_id is not null") -ge $want ]] && break
        [[ $i -lt 3000 ]] || { echo "the contestants' bots were not built within 300 s" >&2; exit 1; }
        sleep 0.1
    done
    # New versions while the ladder plays: each one starts its bot's count over.
    SETTLE=${SETTLE:-$((DURATION / 3))}
    (
        n=0
        end=$((SECONDS + SETTLE))
        while sleep "${NEW_VERSION_EVERY:-30}" && ((SECONDS < end)); do
            n=$((n + 1))
            o=$(( n % OWNERS + 1 )); b=$(( n % k + 1 ))
            curl -sf -H "Authorization: Bearer ${OWNER_TOKENS[$((o - 1))]}" \
                -F "file=@${BOT_CODE[$(( n % 3 ))]}" "$URL/api/bots/o${o}b${b}/versions" >/dev/null || true
        done
    ) &
    UPLOADER=$!
    trap 'kill $UPLOADER 2>/dev/null || true' EXIT
    active=$(sql "select count(*) from bots where active_version_id is not null")
fi
START=$(sql "select now()")
# Each worker says it is alive before its first match.
sleep 1
workers=$(sql "select count(*) from workers")
echo "== ${active} bots active; ${workers} match worker(s) play for ${DURATION} s"
sleep "$DURATION"
END=$(sql "select now()")
[[ -n "${UPLOADER:-}" ]] && kill "$UPLOADER" 2>/dev/null || true

# Matches that finished within [START, END].
window="m.status = 'finished' and m.finished_at between '$START' and '$END'"
read -r n turns secs <<<"$(sql "select count(*), coalesce(round(avg(turns), 1), 0), \
    coalesce(round(extract(epoch from avg(finished_at - started_at))::numeric, 1), 0) \
    from matches m where $window" | tr '|' ' ')"
minutes=$(sql "select extract(epoch from timestamptz '$END' - timestamptz '$START') / 60")
void=$(sql "select count(*) from matches where status = 'void'")

echo
echo "== results ($(nproc) cores, load average now $(cut -d' ' -f1-3 /proc/loadavg))"
printf '%-10s %8s %12s %10s %14s\n' players matches "matches/min" "avg turns" "avg duration"
sql "select (select seats from maps where maps.id = m.map_id) as players, count(*), avg(turns), \
        extract(epoch from avg(finished_at - started_at)) \
     from matches m where $window group by 1 order by 1" |
    while IFS='|' read -r p c t s; do
        awk -v p="$p" -v c="$c" -v t="$t" -v s="$s" -v m="$minutes" \
            'BEGIN { printf "%-10s %8d %12.1f %10.1f %12.1f s\n", p, c, c / m, t, s }'
    done
awk -v n="$n" -v m="$minutes" -v t="$turns" -v s="$secs" \
    'BEGIN { printf "%-10s %8d %12.1f %10.1f %12.1f s\n", "all", n, n / m, t, s }'
read -r seats errors timeouts <<<"$(sql "select count(*), count(p.error), coalesce(sum(p.timeouts), 0) \
    from match_players p join matches m on m.id = p.match_id where $window" | tr '|' ' ')"
echo "($seats seats: $errors removed by an error of their bot, $timeouts turns timed out)"
sql "select b.name, count(*), count(*) filter (where p.rank = 1), round(avg(p.cpu_ms)) \
     from match_players p join matches m on m.id = p.match_id join bots b on b.id = p.bot_id \
     where $window group by b.name order by 3 desc" |
    while IFS='|' read -r name games firsts cpu; do
        echo "   $name: $games games, first in $firsts, $cpu ms of CPU a game"
    done
if [[ -n "${CHALLENGES:-}" ]]; then
    read -r ranked unranked share <<<"$(sql "select count(*) filter (where challenge_id is null), \
        count(*) filter (where challenge_id is not null), \
        round(100 * sum(extract(epoch from finished_at - started_at)) filter (where challenge_id is not null) \
            / nullif(sum(extract(epoch from finished_at - started_at)), 0), 1) \
        from matches m where $window" | tr '|' ' ')"
    left=$(sql "select count(*) from matches where challenge_id is not null and status = 'queued'")
    awk -v r="$ranked" -v u="$unranked" -v m="$minutes" -v s="$share" -v l="$left" \
        'BEGIN { printf "ranked: %.1f matches/min; challenges: %.1f games/min, %s%% of the time played; %d challenge games still queued\n", r / m, u / m, s, l }'
fi
if [[ -n "${OWNERS:-}" ]]; then
    # Each bot's ranked games (started) from START + SETTLE to END: its waits are the
    # gaps between them, and from the window's start and to its end.
    from="timestamptz '$START' + make_interval(secs => $SETTLE)"
    sql "with g as (select p.bot_id, m.started_at as t from match_players p join matches m on m.id = p.match_id
                    where m.ranked and m.status = 'finished' and m.started_at between $from and '$END'),
              b as (select id from bots where active_version_id is not null and not disabled),
              w as (select b.id, count(g.t) as games,
                       greatest(coalesce(max(extract(epoch from g.t - coalesce(prev, $from))), 0),
                                extract(epoch from timestamptz '$END' - coalesce(max(g.t), $from))) as longest
                    from b left join (select bot_id, t, lag(t) over (partition by bot_id order by t) as prev from g) g
                        on g.bot_id = b.id group by b.id)
         select count(*), sum(games), max(longest), extract(epoch from timestamptz '$END' - ($from)),
                (select count(*) from w w2 where w2.games between 0.75 * (select avg(games) from w)
                                                             and 1.25 * (select avg(games) from w))
         from w" | tr '|' ' ' | {
        read -r bots games longest span within
        awk -v b="$bots" -v g="$games" -v l="$longest" -v s="$span" -v w="$within" -v from="$SETTLE" 'BEGIN {
            gap = (g > 0) ? s * b / g : s
            printf "waits (ranked games from %d s on, %.0f s, %d bots): mean gap between a bot'"'"'s games %.1f s; longest wait %.1f s = %.1f x the mean gap\n", from, s, b, gap, l, l / gap
            printf "games per bot per hour: mean %.1f; %d of %d bots (%.0f%%) within 25%% of it\n", g / b * 3600 / s, w, b, 100 * w / b
        }'
    }
    sql "with g as (select p.bot_id, m.started_at as t from match_players p join matches m on m.id = p.match_id
                    where m.ranked and m.status = 'finished' and m.started_at between $from and '$END')
         select b.name, count(g.t), round(max(extract(epoch from g.t - g.prev))::numeric, 1)
         from (select bot_id, t, lag(t) over (partition by bot_id order by t) as prev from g) g
         join bots b on b.id = g.bot_id group by b.name order by 3 desc nulls last limit 3" |
        while IFS='|' read -r name games wait; do
            echo "   longest between games: $name, $wait s ($games games)"
        done
fi
[[ "$void" == 0 ]] || echo "warning: $void matches were voided (see the server log)" >&2
[[ "$n" -gt 0 ]] || { echo "no match finished in ${DURATION} s" >&2; exit 1; }
