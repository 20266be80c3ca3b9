#!/usr/bin/env bash
# How many positions of a file (a move list a line; `#` starts a comment) a Boyi player sees
# as lost (`score mate -N`) within a fixed number of nodes, and the nodes it took. Nodes, not
# time, so a run is the same on a busy machine. The default file holds positions Rapfi proves
# lost in 300 ms.
#   scripts/gomoku-mate-suite.sh BOYI SPEC [NODES] [FILE]
#   e.g. scripts/gomoku-mate-suite.sh target/release/boyi 'boyi:strong?width=12' 1500000
set -euo pipefail
boyi=$1
spec=$2
nodes=${3:-1500000}
file=${4:-$(dirname "$0")/gomoku-rapfi-mates.txt}
found=0
total=0
while read -r moves; do
  case "$moves" in '' | '#'*) continue ;; esac
  total=$((total + 1))
  # A failed analysis (a bad spec, say) stops the run rather than counting as "not seen".
  out=$("$boyi" analyze gomoku --moves "$moves" --nodes "$nodes" --player "$spec")
  line=$(grep -m1 'score mate -' <<<"$out" || true)
  if [ -n "$line" ]; then
    found=$((found + 1))
    echo "lost at $(sed 's/.*nodes \([0-9]*\).*/\1/' <<<"$line") nodes: $moves"
  else
    echo "not seen: $moves"
  fi
done <"$file"
echo "$spec: $found of $total seen lost within $nodes nodes"
