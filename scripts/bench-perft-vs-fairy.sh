#!/usr/bin/env bash
# Xiangqi perft speed: boyi against Fairy-Stockfish, side by side on the same machine.
# Usage: scripts/bench-perft-vs-fairy.sh FAIRY_STOCKFISH_BINARY [START_DEPTH] [OTHER_DEPTH]
# Builds boyi with `cargo build --release` (no target-cpu flags), then for the start
# position (depth 5 by default) and the public suite positions (depth 5 by default) runs
# `boyi perft xiangqi` (bulk counting at the last ply, one thread, no hash table) and
# Fairy-Stockfish's `go perft`, and prints node counts, both times and the ratio.
set -euo pipefail
fairy=${1:?usage: $0 FAIRY_STOCKFISH_BINARY [START_DEPTH] [OTHER_DEPTH]}
start_depth=${2:-5}
other_depth=${3:-5}
cd "$(dirname "$0")/.."
cargo build --release --quiet -p boyi
boyi=target/release/boyi

positions=(
  "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
  "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1"
  "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1"
  "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1"
  "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1"
)

now() { date +%s.%N; }

printf '%-6s %-5s %12s %12s %9s %9s %6s\n' pos depth boyi_nodes fairy_nodes boyi_s fairy_s ratio
i=0
for fen in "${positions[@]}"; do
  depth=$other_depth
  [ "$i" -eq 0 ] && depth=$start_depth
  t0=$(now)
  ours=$("$boyi" perft xiangqi --position "$fen" --depth "$depth" | awk '/^nodes/ {print $2}')
  t1=$(now)
  theirs=$(printf 'uci\nsetoption name UCI_Variant value xiangqi\nposition fen %s\ngo perft %s\nquit\n' \
      "$fen" "$depth" | "$fairy" | awk '/Nodes searched/ {print $3}')
  t2=$(now)
  awk -v i="$i" -v d="$depth" -v a="$ours" -v b="$theirs" -v t0="$t0" -v t1="$t1" -v t2="$t2" \
    'BEGIN { x = t1 - t0; y = t2 - t1;
             printf "%-6s %-5s %12s %12s %9.3f %9.3f %6.2f%s\n", i, d, a, b, x, y, y / x,
                    (a == b ? "" : "  COUNT MISMATCH") }'
  i=$((i + 1))
done
