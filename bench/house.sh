#!/usr/bin/env bash
# Plays the `strong` house bot against `greedy` and prints the tally for strong.
#
#   bench/house.sh [GAMES]          (default 100; JOBS=2 games at a time)
#
# Games come in pairs, one per seat order, 500 turns at most, with the release
# `bottlebats`. The first pairs use the 2-player maps in maps/bottlebats/. The bots and the
# engine are deterministic (the same map and seats always give the same game), so the
# next pairs use 2-player maps generated with `bottlebats map generate` (seed N, 16 to
# 94 forts) to make every game a different one.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

games=${1:-100}
jobs=${JOBS:-2}
python=/usr/bin/python3
bin=$root/target/release/bottlebats
if [ ! -x "$bin" ]; then
  cargo build --release -p server
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/bench-house.XXXXXX")
trap 'rm -rf "$work"' EXIT

shipped=(maps/bottlebats/*-2p.map)
pairs=$(((games + 1) / 2))
for ((p = 0; p < pairs; p++)); do
  if ((p < ${#shipped[@]})); then
    map=$root/${shipped[p]}
    label=$(basename "${shipped[p]}" .map)
  else
    forts=$((16 + 2 * ((p * 7) % 40)))
    map=$work/gen-$p.map
    label="seed $p, $forts forts"
    "$bin" map generate --players 2 --seed "$p" --forts "$forts" >"$map"
  fi
  for seat in 1 2; do
    (( 2 * p + seat <= games )) || continue
    printf '%s\t%s\t%s\n' "$map" "$seat" "$label"
  done
done >"$work/games.tsv"

# One game: prints `label<TAB>seat<TAB>result<TAB>strong forts<TAB>greedy forts<TAB>turns`.
play_one() {
  local map=$1 seat=$2 label=$3 dir
  dir=$(mktemp -d "$work/game.XXXXXX")
  local strong="\"strong\": \"$python $root/games/bottlebats/bots/house/strong/bot.py\""
  local greedy="\"greedy\": \"$python $root/games/bottlebats/bots/house/greedy/bot.py\""
  local players="$strong, $greedy"
  [ "$seat" = 1 ] || players="$greedy, $strong"
  printf '{ "players": { %s }, "mapfile": "%s", "logfile": "log", "max_steps": 500 }\n' \
    "$players" "$map" >"$dir/config.json"
  local out
  out=$(cd "$dir" && "$bin" play config.json)
  local winner result
  winner=$(head -n1 <<<"$out" | sed 's/^Winner: //')
  case $winner in
    strong) result=win ;;
    greedy) result=loss ;;
    *) result=draw ;;
  esac
  local problems
  problems=$(awk 'NR > 3 && NF >= 8 && ($5 + $6 + $7) > 0 { print $2 }' <<<"$out" | tr '\n' ' ')
  [ -z "$problems" ] || echo "warning: $label seat $seat: warnings/errors/timeouts for $problems" >&2
  local sf gf
  sf=$(awk 'NF >= 8 && $2 == "strong" { print $3 }' <<<"$out")
  gf=$(awk 'NF >= 8 && $2 == "greedy" { print $3 }' <<<"$out")
  local turns
  turns=$(($(grep -c '^# STEP: ' "$dir/log") - 1))
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$label" "$seat" "$result" "$sf" "$gf" "$turns"
  rm -rf "$dir"
}
export -f play_one
export work root python bin

echo "strong vs greedy: $games games, $jobs at a time" >&2
start=$(date +%s)
tr '\n' '\0' <"$work/games.tsv" |
  xargs -0 -P "$jobs" -I{} bash -c 'IFS=$'"'"'\t'"'"' read -r m s l <<<"$1"; play_one "$m" "$s" "$l"' _ {} \
    >"$work/results.tsv"
took=$(($(date +%s) - start))

echo
echo "Per game (strong's seat, result, forts of strong / greedy at the end, turns):"
sort -t$'\t' -k1,1V -k2,2n "$work/results.tsv" |
  awk -F'\t' '{ printf "  %-22s seat %s  %-4s  %3s / %-3s  %3s turns\n", $1, $2, $3, $4, $5, $6 }'
echo
median=$(awk -F'\t' '$3 == "win" { print $6 }' "$work/results.tsv" | sort -n |
  awk '{ a[NR] = $1 } END { print (NR ? a[int((NR + 1) / 2)] : "-") }')
awk -F'\t' -v took="$took" -v median="$median" '
  { n++; r[$3]++; if ($1 !~ /^seed/) { s[$3]++; sn++ } seat[$2, $3]++ }
  END {
    printf "| games | strong wins | losses | draws |\n| --- | --- | --- | --- |\n"
    printf "| all %d | %d | %d | %d |\n", n, r["win"], r["loss"], r["draw"]
    printf "| shipped maps (%d) | %d | %d | %d |\n", sn, s["win"], s["loss"], s["draw"]
    for (k = 1; k <= 2; k++)
      printf "| strong in seat %d (%d) | %d | %d | %d |\n", k, seat[k, "win"] + seat[k, "loss"] + seat[k, "draw"], seat[k, "win"], seat[k, "loss"], seat[k, "draw"]
    printf "\n%d games in %d s; median length of its wins %s turns\n", n, took, median
  }' "$work/results.tsv"
