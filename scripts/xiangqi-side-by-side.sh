#!/bin/sh
# Boyi and a UCI Xiangqi engine side by side on the positions of `boyi bench xiangqi` (read
# from the bench's own list): for each position and time per move, `boyi analyze` with Boyi's
# engine and with the peer driven over UCI (Fairy-Stockfish's dialect: `UCI_Variant xiangqi`,
# its defaults otherwise, one thread), and the depth, nodes and nodes per second each reported
# last, as a Markdown table with the means. Run on a quiet machine; the load average is
# printed before and after. One engine runs at a time.
#   scripts/xiangqi-side-by-side.sh BOYI PEER [MS,MS,...]     (default 1000,2000,5000)
set -eu
[ $# -ge 2 ] || { echo "usage: $0 BOYI PEER [MS,MS,...]" >&2; exit 2; }
boyi=$1
peer=$2
times=${3:-1000,2000,5000}
cd "$(dirname "$0")/.."
positions=$(awk '/^const BENCH/ { on = 1 } on && /^\];/ { exit } on' crates/engines/src/xiangqi/mod.rs |
    grep -o '"[^"]* [wb] [^"]*"' | tr -d '"')
# The depth, nodes and nps of the last thinking line with nodes.
last() {
    awk '$1 == "info" { for (i = 2; i < NF; i++) f[$i] = $(i + 1); if ("nodes" in f) { d = f["depth"]; n = f["nodes"]; s = f["nps"] } }
         END { printf "%s %s %s\n", d, n, s }'
}
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
echo "| position | ms | Boyi depth | Boyi nodes | Boyi nps | peer depth | peer nodes | peer nps |"
echo "|---|---|---|---|---|---|---|---|"
i=0
echo "$positions" | while read -r fen; do
    i=$((i + 1))
    for ms in $(echo "$times" | tr , ' '); do
        b=$("$boyi" analyze xiangqi --position "$fen" --movetime "$ms" | last)
        p=$("$boyi" analyze xiangqi --position "$fen" --movetime "$ms" \
            --player "cmd:\"$peer\"@uci-fsf" | last)
        echo "| $i | $ms | $(echo "$b $p" | tr ' ' '\n' | paste -sd'|' | sed 's/|/ | /g') |"
    done
done | awk -F' [|] ' '$1 ~ /^\| [0-9]/ {
        ms = $2; n[ms]++; bd[ms] += $3; bn[ms] += $4; pd[ms] += $6; pn[ms] += $7 }
    { print }
    END { for (ms in n) printf "| mean | %d | %.1f | %d | %d | %.1f | %d | %d |\n", ms,
        bd[ms] / n[ms], bn[ms] / n[ms], bn[ms] * 1000 / (n[ms] * ms),
        pd[ms] / n[ms], pn[ms] / n[ms], pn[ms] * 1000 / (n[ms] * ms) }'
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
