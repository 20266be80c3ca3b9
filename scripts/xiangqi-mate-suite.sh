#!/bin/sh
# Collects mate-in-1..4 positions from Boyi game records, verified by an engine that speaks
# UCI with Fairy-Stockfish's ranks (uci-fsf).
#
#   scripts/xiangqi-mate-suite.sh FAIRY_STOCKFISH RECORD_DIR... > positions.txt
#
# Positions are those 1, 3, 5 and 7 plies before the end of games that ended in checkmate
# (any record format Boyi reads, through `boyi record dump`), each position once; the engine
# searches each to depth 16 (`boyi analyze --positions`), and a position is kept when it
# reports `mate N`, 1 <= N <= 4, for the side to move. Output lines:
# `<position>;<N>;<the engine's first move>`. BOYI names the binary (default `boyi`).
set -eu
[ $# -ge 2 ] || { echo "usage: $0 FAIRY_STOCKFISH RECORD_DIR..." >&2; exit 2; }
boyi=${BOYI:-boyi}
engine=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for dir in "$@"; do "$boyi" record dump "$dir"; done |
    jq -r 'select(.game == "xiangqi" and .result.reason == "checkmate")
        | .moves as $m | (1, 3, 5, 7) as $back | select($back <= ($m | length))
        | $m[($m | length) - $back].position' |
    awk '!seen[$1 " " $2]++' > "$tmp/positions"
"$boyi" analyze xiangqi --positions "$tmp/positions" --depth 16 \
    --player "cmd:\"$engine\"@uci-fsf" > "$tmp/results" || true
paste -d ';' "$tmp/positions" "$tmp/results" |
    awk -F ';' '{
        split($2, w, " ")
        if (w[1] == "score" && w[2] == "mate" && w[3] >= 1 && w[3] <= 4 && w[4] == "bestmove")
            print $1 ";" w[3] ";" w[5]
    }'
