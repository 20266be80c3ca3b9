#!/bin/sh
# Elo between adjacent levels of each game: `boyi match` between every pair of neighbouring
# levels at the levels' own depth budgets (no time limit, as tables play them), GAMES games
# (default 100) from random openings, each opening with both colours: four random plies, and
# sixteen in Jiu, whose 196 placements four random ones barely vary (deterministic levels then
# replay nearly the same games, and 100 of them count as far fewer). The specs are read
# from crates/engines/src/levels.rs. Run on a quiet machine (load average under 2.5); the
# report lines (time and depth per move, load average, W D L, score, elo, ci95) go to
# docs/server.md.
#   scripts/levels-elo.sh [games] [gomoku,connect6,jiu,xiangqi]
set -euf
cd "$(dirname "$0")/.."
games=${1:-100}
kinds=${2:-gomoku,connect6,jiu,xiangqi}
cargo build --release -p boyi
boyi=./target/release/boyi
for game in $(echo "$kinds" | tr , ' '); do
    block=$(echo "$game" | tr a-z A-Z)
    specs=$(awk -v b="const $block:" '
        index($0, b) == 1 { on = 1; next }
        on && /^\];/ { on = 0 }
        on && /level\(/ { split($0, q, "\""); print q[2] "=" q[4] }' crates/engines/src/levels.rs)
    plies=4
    [ "$game" = jiu ] && plies=16
    prev=""
    for s in $specs; do
        if [ -n "$prev" ]; then
            echo "== $game: ${s%%=*} against ${prev%%=*}"
            "$boyi" match "$game" --a "${s#*=}" --b "${prev#*=}" --games "$games" \
                --concurrency 1 --random-plies "$plies" --seed 1 --no-record | tail -n 4
        fi
        prev=$s
    done
done
