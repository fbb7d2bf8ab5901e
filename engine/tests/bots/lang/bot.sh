#!/bin/sh
# Sends half of every garrison above 1 to the first neighbour of each owned fort.
me=$1
while read -r n rest; do
  forts=""
  i=0
  while [ "$i" -lt "$n" ]; do
    read -r name x y owner garrison
    if [ "$owner" = "$me" ] && [ "$garrison" -ge 2 ]; then
      forts="$forts $name:$garrison"
    fi
    i=$((i + 1))
  done
  read -r n rest
  roads=""
  i=0
  while [ "$i" -lt "$n" ]; do
    read -r a b
    roads="$roads $a:$b"
    i=$((i + 1))
  done
  read -r n rest
  i=0
  while [ "$i" -lt "$n" ]; do
    read -r line
    i=$((i + 1))
  done
  out=""
  count=0
  for f in $forts; do
    name=${f%%:*}
    garrison=${f##*:}
    for r in $roads; do
      a=${r%%:*}
      b=${r##*:}
      to=""
      [ "$a" = "$name" ] && to=$b
      [ "$b" = "$name" ] && to=$a
      if [ -n "$to" ]; then
        out="$out$name $to $((garrison / 2))
"
        count=$((count + 1))
        break
      fi
    done
  done
  printf '%s commands:\n%s' "$count" "$out"
done
